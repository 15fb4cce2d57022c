"""Standings (with a bracket, by how far each player got) and the entrants the pairing functions take."""

from __future__ import annotations

import dataclasses

from sqlalchemy.orm import Session

from tournament import brackets, pairing, pods
from tournament import standings as tiebreaks
from tournament.service.elimination import (
    bracket,
    double_bracket,
    is_bracket,
)
from tournament.service.queries import (
    get_event,
    matches,
    players,
    pod_tables,
    rounds,
)


def _as_matches(session: Session, event_id: str) -> list[tiebreaks.Match]:
    """Every decided match and bye, in the form the standings functions take."""
    done = [
        tiebreaks.Match(m.round, (m.player_a, m.player_b), {m.player_a: m.games_a, m.player_b: m.games_b}, m.draws or 0)
        for m in matches(session, event_id)
        if m.games_a is not None and m.games_b is not None
    ]
    byes = [tiebreaks.Match(r.number, (r.bye,), {r.bye: 2}) for r in rounds(session, event_id) if r.bye]
    return sorted(done + byes, key=lambda m: m.round)


def standings(session: Session, event_id: str) -> list[tiebreaks.Standing]:
    """The event's standings; with a bracket, ordered by how far each player got in it (see `_bracket_order`)."""
    event = get_event(session, event_id)
    everyone = players(session, event_id)
    dropped = {p.name: p.dropped_round for p in everyone if p.dropped_round is not None}
    if event.format == "pods":
        return pods.pod_standings([p.name for p in everyone], _as_pod_games(session, event_id), pods.Points.parse(event.points), dropped)
    played = _as_matches(session, event_id)
    table = tiebreaks.standings([p.name for p in everyone], played, event.profile, dropped)
    if not is_bracket(event):
        return table
    assert event.bracket_round is not None
    before = [m for m in played if m.round < event.bracket_round]
    swiss = tiebreaks.standings([p.name for p in everyone], before, event.profile, dropped)
    seeds = {p.name: p.seed for p in everyone}
    if event.format == "double":
        order = _double_order(double_bracket(session, event), seeds, [s.player for s in swiss])
    else:
        order = _bracket_order(bracket(session, event), seeds, [s.player for s in swiss])
    by_player = {s.player: s for s in table}
    return [dataclasses.replace(by_player[name], rank=rank) for rank, name in enumerate(order, start=1)]


def _as_pod_games(session: Session, event_id: str) -> list[pods.PodGame]:
    """Every reported pod (byes too), in the form the pod standings take."""
    return [pods.PodGame(pod.round, {s.player: s.place for s in seats if s.place is not None}) for pod, seats in pod_tables(session, event_id) if pod.source]


def pod_entrants(session: Session, event_id: str, size: int) -> list[pods.PodEntrant]:
    """The players still in a pods event, with their points, rank, byes, opponents and positions at the table."""
    table = standings(session, event_id)
    met: dict[str, set[str]] = {s.player: set() for s in table}
    seated = [[s.player for s in seats] for _pod, seats in pod_tables(session, event_id)]
    for names in seated:
        for name in names:
            met[name].update(n for n in names if n != name)
    positions = pods.tally_seats(seated, size)
    return [
        pods.PodEntrant(s.player, s.points, s.rank, s.byes > 0, frozenset(met[s.player]), positions.get(s.player, ()))
        for s in table
        if not s.dropped
    ]


def _bracket_order(state: brackets.Bracket, seeds: dict[str, int | None], swiss_order: list[str]) -> list[str]:
    """Players ranked by the last bracket round they reached, then by seed; those outside it by the Swiss standings."""
    reached = state.reached()
    place = {name: k for k, name in enumerate(swiss_order)}
    return sorted(swiss_order, key=lambda p: (-reached.get(p, 0), seeds.get(p) or len(place) + 1, place[p]))


def _double_order(state: brackets.DoubleBracket, seeds: dict[str, int | None], names: list[str]) -> list[str]:
    """Double elimination: the champion, those still in, then the rest by how late they went out, then seed."""
    out = brackets.knocked_out(state)
    top = brackets.NEVER + 1
    return sorted(names, key=lambda p: (p != state.champion, -out.get(p, top), seeds.get(p) or len(names) + 1))


def entrants(session: Session, event_id: str) -> list[pairing.Entrant]:
    """The players still in the event, as the pairing function takes them."""
    table = standings(session, event_id)
    byes = {r.bye for r in rounds(session, event_id) if r.bye}
    opponents: dict[str, set[str]] = {s.player: set() for s in table}
    for m in matches(session, event_id):
        opponents[m.player_a].add(m.player_b)
        opponents[m.player_b].add(m.player_a)
    return [
        pairing.Entrant(s.player, s.points, s.rank, s.player in byes, frozenset(opponents[s.player]))
        for s in table
        if not s.dropped
    ]

