"""Brackets as they stand: single and double elimination built from their seeds, results and drops."""

from __future__ import annotations

from sqlalchemy.orm import Session

from tournament.formats import brackets
from tournament.service.queries import (
    matches,
    players,
    seeded,
)
from tournament.storage.models import Event, Match


def absent_from(session: Session, event: Event) -> dict[str, int]:
    """Each dropped player -> the first round of the bracket they miss.

    Dropped after d event rounds were paired, they miss event round d + 1 on,
    which is bracket round d - start + 2 for a bracket starting at event round `start`.
    """
    assert event.bracket_round is not None
    return {p.name: p.dropped_round - event.bracket_round + 2 for p in players(session, event.id) if p.dropped_round is not None}


def double_bracket(session: Session, event: Event) -> brackets.DoubleBracket:
    """A double elimination as it stands: its seeds, every bracket round's results in table order, the drops."""
    assert event.bracket_round is not None
    start = event.bracket_round
    played: list[list[tuple[str, str, str | None]]] = [[] for _ in range(start, event.rounds + 1)]
    for m in matches(session, event.id):  # in round and table order
        if m.round >= start:
            played[m.round - start].append((m.player_a, m.player_b, None if m.games_a is None else _winner(m)))
    return brackets.double_elimination(seeded(session, event.id), played, absent_from(session, event))


def _winner(m: Match) -> str:
    return m.player_a if (m.games_a or 0) > (m.games_b or 0) else m.player_b


def is_bracket(event: Event) -> bool:
    """True once an elimination bracket is seeded: single or double elimination, or a Swiss event's top cut."""
    return event.bracket_round is not None and event.format != "roundrobin"


def is_elimination(event: Event, round_number: int) -> bool:
    """Is this round a bracket round (where a match must have a winner)?"""
    return is_bracket(event) and event.bracket_round is not None and round_number >= event.bracket_round


def bracket(session: Session, event: Event) -> brackets.Bracket:
    """A single elimination (or top cut) as it stands, from its seeds, the results and the drops."""
    assert event.bracket_round is not None
    start = event.bracket_round
    winners = {
        frozenset((m.player_a, m.player_b)): _winner(m)
        for m in matches(session, event.id)
        if m.round >= start and m.games_a is not None
    }
    return brackets.single_elimination(seeded(session, event.id), winners, absent_from(session, event))


def is_finished(session: Session, event: Event) -> bool:
    """A bracket with a champion, or a round robin with every round paired. A Swiss event ends when its organiser says."""
    if event.bracket_round is None:
        return False
    if event.format == "roundrobin":
        return event.rounds - event.bracket_round + 1 >= brackets.round_robin_rounds(len(seeded(session, event.id)))
    if event.format == "double":
        return double_bracket(session, event).finished
    return bracket(session, event).finished

