"""Standings (with a bracket, by how far each player got) and the entrants the pairing functions take."""

from __future__ import annotations

import dataclasses

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from tournament.formats import brackets, pairing, pods
from tournament.formats import standings as tiebreaks
from tournament.service.decks import without_legal_list
from tournament.service.elimination import (
    bracket,
    double_bracket,
    is_bracket,
)
from tournament.service.queries import (
    get_event,
    pod_tables,
    round_byes,
    rounds,
)
from tournament.storage.models import Event, Match, Player


def _as_matches(session: Session, event_id: str) -> list[tiebreaks.Match]:
    """Every decided match and bye, in the form the standings functions take (a match conceded by a drop is a forfeit)."""
    # Columns, not Match rows: building 5,000 ORM objects a round costs more than the standings themselves.
    decided = select(Match.round, Match.player_a, Match.player_b, Match.games_a, Match.games_b, Match.draws, Match.source)
    decided = decided.filter_by(event_id=event_id).where(Match.games_a.is_not(None), Match.games_b.is_not(None))
    done = []
    # Each row unpacked at once: reading its columns by name costs as much as the query.
    for round_, a, b, games_a, games_b, draws, source in session.execute(decided.order_by(Match.round, Match.number)):
        assert games_a is not None and games_b is not None  # the query keeps decided matches only
        done.append(tiebreaks.Match(round_, (a, b), {a: games_a, b: games_b}, draws or 0, played=source != "drop"))
    byes = [tiebreaks.Match(r.number, (r.bye,), {r.bye: 2}) for r in rounds(session, event_id) if r.bye]
    byes += [tiebreaks.Match(number, (name,), {name: 2}) for number, name in round_byes(session, event_id)]
    return sorted(done + byes, key=lambda m: m.round)


def standings(session: Session, event_id: str, swiss_only: bool = False) -> list[tiebreaks.Standing]:
    """The event's standings; with a bracket, ordered by how far each player got in it (see `_bracket_order`).

    `swiss_only`: after a top cut, the Swiss standings as they were at the cut (the bracket's matches left out).
    """
    event = get_event(session, event_id)
    listed = select(Player.name, Player.dropped_round, Player.registered_round, Player.seed).filter_by(event_id=event_id)
    everyone = session.execute(listed.order_by(Player.name)).all()
    dropped = {p.name: p.dropped_round for p in everyone if p.dropped_round is not None}
    if event.format == "pods":
        return pods.pod_standings([p.name for p in everyone], _as_pod_games(session, event_id), pods.Points.parse(event.points), dropped)
    played = _as_matches(session, event_id)
    # A late entry's missed rounds count as losses only where the event says so (T-20, `--late-entry`).
    joined = {p.name: p.registered_round + 1 for p in everyone if p.registered_round} if event.late_entry == "loss" else {}
    # Unplayed rounds (chess) are counted over the Swiss rounds every table has reported.
    swiss_rounds = _reported_swiss_rounds(session, event)
    if not is_bracket(event):
        return tiebreaks.standings([p.name for p in everyone], played, event.profile, dropped, joined, swiss_rounds)
    assert event.bracket_round is not None
    before = [m for m in played if m.round < event.bracket_round]
    swiss = tiebreaks.standings([p.name for p in everyone], before, event.profile, dropped, joined, swiss_rounds)
    if swiss_only:
        return swiss  # so the whole table is computed only when wanted
    table = tiebreaks.standings([p.name for p in everyone], played, event.profile, dropped, joined, swiss_rounds)
    seeds = {p.name: p.seed for p in everyone}
    if event.format == "double":
        order = _double_order(double_bracket(session, event), seeds, [s.player for s in swiss])
    else:
        order = _bracket_order(bracket(session, event), seeds, [s.player for s in swiss])
    by_player = {s.player: s for s in table}
    return [dataclasses.replace(by_player[name], rank=rank) for rank, name in enumerate(order, start=1)]


def _reported_swiss_rounds(session: Session, event: Event) -> int:
    """The Swiss rounds whose every table has a result (0 for a bracket or round robin from round 1)."""
    if event.format != "swiss":
        return 0
    last = event.rounds if event.bracket_round is None else event.bracket_round - 1
    first_open = session.scalar(
        select(func.min(Match.round)).where(Match.event_id == event.id, Match.games_a.is_(None), Match.round <= last)
    )
    return (last + 1 if first_open is None else first_open) - 1


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
        pods.PodEntrant(s.player, int(s.points), s.rank, s.byes > 0, frozenset(met[s.player]), positions.get(s.player, ()))
        for s in table
        if not s.dropped
    ]


def sitting_out(session: Session, event_id: str, number: int) -> tuple[set[str], list[str]]:
    """Who the pairing of round `number` leaves out: the paused players, and those with a pre-assigned bye for it."""
    paused, byes = set(), []
    query = select(Player.name, Player.paused, Player.bye_round).where(
        Player.event_id == event_id, Player.dropped_round.is_(None), or_(Player.paused, Player.bye_round == number)
    )
    for p in session.execute(query.order_by(Player.name)):
        if p.paused:
            paused.add(p.name)
        else:
            byes.append(p.name)
    event = session.get(Event, event_id)
    # no legal list at the deadline: not paired (T-113); under `dropped`, those left are late places (T-150)
    if event is not None and event.decks_policy is not None:
        missing = without_legal_list(session, event)
        paused |= missing
        byes = [name for name in byes if name not in missing]
    return paused, byes


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
    """The players still in the event, as the pairing function takes them (`sitting_out` says who sits out a round)."""
    table = standings(session, event_id)
    profile = get_event(session, event_id).profile
    byes = {r.bye for r in rounds(session, event_id) if r.bye} | {name for _, name in round_byes(session, event_id)}
    opponents: dict[str, set[str]] = {s.player: set() for s in table}
    for a, b in session.execute(select(Match.player_a, Match.player_b).filter_by(event_id=event_id)):
        opponents[a].add(b)
        opponents[b].add(a)
    return [
        pairing.Entrant(s.player, tiebreaks.pairing_points(profile, s.points), s.rank, s.player in byes, frozenset(opponents[s.player]))
        for s in table
        if not s.dropped
    ]

