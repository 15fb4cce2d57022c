"""Any sequence of scorekeeper actions leaves a sound event: refusals write nothing, verify passes."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tournament import service
from tournament.service.verification import verify
from tournament.storage.db import open_database
from tournament.storage.models import LogEntry, Match

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]
ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("register"), st.sampled_from(NAMES)),
        st.tuples(st.just("drop"), st.sampled_from(NAMES)),
        st.tuples(st.just("pair")),
        st.tuples(st.just("report"), st.integers(1, 4), st.integers(0, 2)),
        st.tuples(st.just("correct"), st.integers(1, 4), st.integers(0, 2)),
    ),
    max_size=30,
)
EVENTS = itertools.count(1)


def act(session: Session, event: str, action: tuple[Any, ...]) -> None:
    kind = action[0]
    if kind == "register":
        service.register(session, event, [action[1]])
    elif kind == "drop":
        service.drop(session, event, action[1])
    elif kind == "pair":
        service.pair(session, event)
    else:
        table, outcome = action[1], action[2]
        current = service.get_event(session, event).rounds
        match = session.get(Match, (event, current, table))
        if match is None:  # let the service refuse it
            service.report(session, event, table, result=service.Tally({}), reason="r", correction=kind == "correct")
            return
        games = {0: (1, 0), 1: (0, 1), 2: (0, 0)}[outcome]
        tally = service.Tally({match.player_a: games[0], match.player_b: games[1]}, draws=int(outcome == 2))
        service.report(session, event, table, result=tally, reason="judge", correction=kind == "correct")


def entries(session: Session, event: str) -> int:
    return int(session.scalar(select(func.count()).select_from(LogEntry).filter_by(event_id=event)) or 0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=ACTIONS)
def test_any_actions_leave_a_sound_event(db_url: str, actions: list[tuple[Any, ...]]) -> None:
    event = f"ev{next(EVENTS)}"
    _, engine = open_database(db_url)
    try:
        with Session(engine) as session, session.begin():
            service.create_event(session, event, name=event, ruleset="cardwars", profile="mtg", best_of=1, seed=5)
        for action in actions:
            with Session(engine) as session:
                before = entries(session, event)
            try:
                with Session(engine) as session, session.begin():
                    act(session, event, action)
            except service.TournamentError:
                with Session(engine) as session:
                    assert entries(session, event) == before, f"{action} was refused but wrote"
        with Session(engine) as session:
            found = verify(session, event, service.repairing_problem)
            assert found.ok, found.problems
            for number in range(1, service.get_event(session, event).rounds + 1):
                seated = [p for m in service.matches(session, event, number) for p in (m.player_a, m.player_b)]
                assert len(seated) == len(set(seated)), f"someone plays twice in round {number}"
    finally:
        engine.dispose()
