"""The `tournament` command: thin typer layers over `tournament.service`, one module per command group.

`app` is the root (events, the read commands, verify, the log, demo, db) and
`main`; `people`, `rounds` and `results` add their groups to it; `serve`
starts the web; `common` holds what they share (options, the one transaction,
lazily loaded service modules, so `--help` and a cached read load no SQLAlchemy).
May import every other layer: `web`, `service`, `output`, `storage`, `formats`.
"""
