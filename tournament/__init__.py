"""The tournament service: events whose every change is an append-only, hash-chained log.

`models` holds the tables, `eventlog` the log and its projection, `service`
the operations the CLI runs (one transaction each), `export` the renderings,
`db` opening and migrating the database, `demo` a whole bot event, `cli` the
`tournament` command. Pairing and tiebreakers are pure functions in `pairing`
and `standings`; `brackets` (elimination brackets, round robins) and `pods`
(Swiss pods) pair the other formats. User docs: README.md beside this file.
"""
