"""Where an event is kept: the tables, the hash-chained event log and its projection, the database.

`models` (SQLAlchemy tables), `eventlog` (entries, hashes, `project`), `announce`
(an event's new head told to listeners at commit),
`db` (engines, migrations), `dbinfo` (the URL and the newest schema, known
before SQLAlchemy is imported) and `viewcache` (cached views read with `sqlite3`).
May import `schemas` and `migrations`, nothing else of `tournament`.
"""
