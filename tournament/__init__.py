"""The tournament service: events whose every change is an append-only, hash-chained log.

Its packages are its layers; each may import only those listed after it
(docs/architecture.md draws them, and import-linter holds them: `lint-imports`):

- `cli`: the `tournament` command, one module per command group;
- `web`: `tournament serve`, the Litestar app;
- `service`: the operations both run, the data they show (`export`), `verify` and the demo;
- `output`: text, CSV, HTML, SVG and printables from the Structs of `schemas/tournament.py`;
- `storage`: the tables, the event log and its projection, the database and its migrations, the view cache;
- `formats`: the rules of the formats (pairing, pods, brackets, standings), pure functions.

`output` and `storage` are siblings that never import each other. User docs: README.md beside this file.
"""
