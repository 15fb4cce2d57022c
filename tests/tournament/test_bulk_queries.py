"""Whole-round steps cost a few statements, not one per player or table (what kept 10,000-player events slow)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from tournament import service
from tournament.service import export
from tournament.service.verification import verify
from tournament.storage.db import open_database

from .sqlcount import statements

PLAYERS = 60


def test_register_results_export_and_verify_do_not_query_per_player(db_url: str) -> None:
    _url, engine = open_database(db_url)

    def write(action: Callable[[Session], Any]) -> Any:
        with Session(engine) as session, session.begin():
            return action(session)

    try:
        write(lambda s: service.create_event(s, "big", name="big", ruleset="cardwars", profile="mtg", best_of=1, seed=1))
        people = service.people_from_csv("name\n" + "".join(f"Player {n}\n" for n in range(PLAYERS)), "players.csv")
        with statements(engine) as register:
            write(lambda s: service.register_people(s, "big", people))
        write(lambda s: service.pair(s, "big"))
        with Session(engine) as session:
            tables = service.open_tables(session, "big")
        rows = service.results_from_csv("".join(f"{t},1-0\n" for t in tables), "results.csv")
        with statements(engine) as results:
            write(lambda s: service.import_results(s, "big", rows))
        with statements(engine) as exported, Session(engine) as session:
            export.export_event(session, "big")
        with statements(engine) as verified, Session(engine) as session:
            assert verify(session, "big").ok
        selects = {name: sum(s.lstrip().upper().startswith("SELECT") for s in statements)
                   for name, statements in [("register", register), ("results", results), ("export", exported), ("verify", verified)]}  # fmt: skip
        assert all(count < 25 for count in selects.values()), selects  # 60 players, 30 tables: per-row queries would pass 30
        # Writes too: a row-by-row INSERT or UPDATE costs as much as a row-by-row SELECT.
        every = {name: len(statements) for name, statements in [("register", register), ("results", results), ("export", exported), ("verify", verified)]}  # fmt: skip
        assert all(count < 25 for count in every.values()), every
    finally:
        engine.dispose()
