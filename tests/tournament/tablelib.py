"""Helpers of the live-table tests: an event with live tables, and bots that play a table through the service."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from referee.ruleset import JUDGE
from schemas.table import TableView
from tournament import service
from tournament.service import livetable, witness
from tournament.storage.db import open_database

PLAYERS = ("ann", "bob", "cat", "dan", "eve", "fay")


def live_event(url: str, *, mode: str = "paper", ruleset: str = "cardwars", players: int = 2, best_of: int = 1,
               pods: bool = False, event: str = "ev", before_pairing: Callable[[Session], None] | None = None) -> Engine:
    """A new event with `mode` tables, its players registered (then `before_pairing` run) and round 1 paired; the engine."""
    _, engine = open_database(url)
    with Session(engine) as session, session.begin():
        options: dict[str, Any] = {"format": "pods", "table_size": players} if pods else {}
        service.create_event(session, event, name=event, ruleset=ruleset, profile="mtg", best_of=best_of, seed=7,
                             tables=mode, **options)
        service.register(session, event, list(PLAYERS[:players]))
        if before_pairing is not None:
            before_pairing(session)
        service.pair(session, event)
    return engine


def look(engine: Engine, seat: str | None, *, table: int = 1, since: int = 0, event: str = "ev") -> TableView:
    """The table as `seat` sees it, opening it first if nobody had."""
    with Session(engine) as session, session.begin():
        try:
            return livetable.view(session, event, table, seat, since=since)
        except livetable.NotStarted:
            livetable.open_table(session, event, table)
            return livetable.view(session, event, table, seat, since=since)


Chooser = Callable[[TableView, random.Random], dict[str, Any]]


def any_legal(view: TableView, rng: random.Random) -> dict[str, Any]:
    """One of the records the view offers, its draws named: a paper table offers "a card, not named" too, which
    the games' legal listings cannot follow (they name known cards); `unnamed_draws` choosers pick it."""
    named = [r for r in view.legal if not (r.get("type") == "draw" and "card" not in r and not r.get("dealt"))]
    return rng.choice(named or view.legal)


def play_game(engine: Engine, *, table: int = 1, seed: int = 1, limit: int = 400, event: str = "ev",
              choose: Chooser = any_legal) -> TableView:
    """Each player to act records one of the records their view offers, until the game being played ends (the
    judge calls time if it runs past `limit`); every player confirms the last line. The final judge's view."""
    rng = random.Random(seed)
    start = look(engine, JUDGE, table=table, event=event)
    number = start.game
    for _ in range(limit):
        judge_view = look(engine, JUDGE, table=table, event=event)
        if judge_view.game != number or judge_view.over:
            break
        actors = [p for p in judge_view.players if p in judge_view.to_act] or judge_view.players  # chance: someone draws
        mine = [v for v in (look(engine, p, table=table, event=event) for p in actors) if v.legal]
        assert mine, f"nobody can act: {judge_view.to_act}"
        seat_view = mine[0] if len(mine) == 1 else rng.choice(mine)
        record = choose(seat_view, rng)
        with Session(engine) as session, session.begin():
            livetable.append(session, event, table, seat_view.seat, record, seat_view.seq)
    else:
        with Session(engine) as session, session.begin():
            view = livetable.view(session, event, table, JUDGE)
            livetable.append(session, event, table, JUDGE, {"type": "time", "by": JUDGE}, view.seq)
    with Session(engine) as session, session.begin():
        view = livetable.view(session, event, table, JUDGE)
        played = next(g for g in view.games if g.game == number)
        for player in view.players:
            witness.confirm(session, event, table, player, number, played.seq)
    return look(engine, JUDGE, table=table, event=event)
