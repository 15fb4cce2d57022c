"""A record that loses a race on one head is answered 409 with the head, never a game rule (issue 33).

The server's workers are threads of one process sharing the games it keeps judged (`livetable._cache`); on
PostgreSQL a loser once read the game's row (the head it built on) and then the lines, by which time the
winner's had committed, and judged its record after the winner's: a 422 naming a rule (14 of 300 losers).
"""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from referee.ruleset import JUDGE
from tests.tournament.tablelib import live_event, look
from tournament import service
from tournament.service import livetable, witness

RACERS = 8
HEADS = 12


def race(engine: Engine, seat: str, record: dict[str, object], after: int) -> list[str]:
    """`RACERS` threads append `record` on the head `after` at once: each one's outcome."""
    start = threading.Barrier(RACERS)
    outcomes: list[str] = []

    def racer() -> None:
        start.wait()
        try:
            with Session(engine) as session, session.begin():
                livetable.append(session, "ev", 1, seat, record, after)
            outcomes.append("won")
        except livetable.Stale as exc:
            outcomes.append(f"409 {exc.seq}")
        except livetable.Refused as exc:
            outcomes.append(f"422 {exc.rule}: {exc}")

    threads = [threading.Thread(target=racer) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return outcomes


@pytest.mark.parametrize("ruleset", ["crossover", "cardwars"])
def test_every_loser_of_a_race_on_one_head_is_told_the_head(pg_url: str, ruleset: str) -> None:
    # Fails on the code before the fix: some losers are refused with a rule (the winner's record judged first).
    engine = live_event(pg_url, mode="paper", ruleset=ruleset)
    try:
        for _ in range(HEADS):
            view = look(engine, JUDGE)
            if view.over:
                break
            mine = next(v for v in (look(engine, p) for p in view.players) if v.legal)
            outcomes = race(engine, mine.seat or "", mine.legal[0], mine.seq)
            head = look(engine, JUDGE).seq
            assert outcomes.count("won") == 1, outcomes
            assert sorted(o for o in outcomes if o != "won") == [f"409 {head}"] * (RACERS - 1), outcomes
    finally:
        engine.dispose()


def test_two_players_confirming_the_last_line_at_once_report_the_match(pg_url: str) -> None:
    """Each confirmation must see the other's (CI, stop 41: two phones confirmed at once on PostgreSQL, each
    transaction counted only its own, and the match was never reported). Ann's confirmation is held open while
    bob's is made: bob's waits for it, then reports the match."""
    engine = live_event(pg_url, mode="digital", ruleset="crossover")
    try:
        view = look(engine, JUDGE)
        with Session(engine) as session, session.begin():
            livetable.append(session, "ev", 1, view.players[0], {"type": "concede", "by": view.players[0]}, view.seq)
        played = look(engine, JUDGE)
        assert played.over
        reported: list[bool] = []

        def bob() -> None:
            with Session(engine) as session, session.begin():
                reported.append(witness.confirm(session, "ev", 1, played.players[1], played.game, played.seq))

        with Session(engine) as session, session.begin():
            assert not witness.confirm(session, "ev", 1, played.players[0], played.game, played.seq)
            second = threading.Thread(target=bob)
            second.start()
            second.join(timeout=2)  # bob's confirmation waits for ann's to commit (it would have finished by now)
            assert second.is_alive(), "bob's confirmation did not wait for ann's"
        second.join(timeout=60)
        assert reported == [True]
        with Session(engine) as session:
            (match,) = service.matches(session, "ev", 1)
            assert match.source == "log" and match.games_a is not None
    finally:
        engine.dispose()
