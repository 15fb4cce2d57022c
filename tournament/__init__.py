"""The tournament service: events whose every change is an append-only, hash-chained log.

`models` holds the tables, `eventlog` the log and its projection, `service`
the operations the CLI runs (one transaction each), `export` the renderings.
Pairing and tiebreakers are pure functions in `pairing` and `standings`.
"""
