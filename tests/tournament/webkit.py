"""Helpers for the web tests: an event built through the service, and a Litestar test client over it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from litestar.testing import TestClient
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from tournament import service
from tournament.db import open_database
from tournament.web import create_app

HOSTILE = '<script>alert("x")</script> \u202eevil\u202c O\'Brien\u200b "quoted"'


@contextmanager
def database(db_url: str) -> Iterator[Engine]:
    _url, engine = open_database(db_url)
    try:
        yield engine
    finally:
        engine.dispose()


def make_event(
    db_url: str, players: Sequence[str] = ("ann", "bob", "cat", "dan"), *, event: str = "ev", name: str = "Spring Open",
    format: str = "swiss", table_size: int | None = None, ruleset: str = "cardwars", best_of: int = 1, pair: bool = True,
) -> None:
    """An event with its players and, with `pair`, round 1 paired."""
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.create_event(
            session, event, name=name, ruleset=ruleset, profile="mtg", best_of=best_of, seed=7, format=format,
            table_size=table_size,
        )
        service.register(session, event, list(players))
        if pair:
            service.pair(session, event)


@contextmanager
def client(db_url: str) -> Iterator[TestClient]:  # type: ignore[type-arg]
    with TestClient(app=create_app(db_url)) as test_client:
        yield test_client
