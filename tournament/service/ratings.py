"""The ratings of every person, from every rated event's results (`formats.ratings` does the arithmetic).

Nothing here is stored or typed: each call reads the rated events' results
(the tables their logs are projected into, which `verify` holds to the logs)
and rates them again, oldest event first. What counts (T-91): a two-player
match with a result, as a win, a loss or a draw by games won, except a match
conceded by a drop and an intentional draw (0-0), where no game was played; a
pod with places, except a bye.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from tournament.formats.ratings import Period, Rated, System, rate
from tournament.storage.models import Event, Match, Player, Pod, PodSeat


def periods(session: Session) -> list[Period]:
    """One `Period` a rated event, in the order they were created."""
    events = list(session.scalars(select(Event).where(Event.rated).order_by(Event.created_at, Event.id)))
    ids = [e.id for e in events]
    person_of: dict[tuple[str, str], str | None] = {
        (e, p): person for e, p, person in session.execute(select(Player.event_id, Player.name, Player.person).where(Player.event_id.in_(ids)))
    }
    games: dict[str, list[tuple[str, str, float]]] = {}
    played = select(Match).where(Match.event_id.in_(ids), Match.games_a.is_not(None)).order_by(Match.event_id, Match.round, Match.number)
    for match in session.scalars(played):
        a, b = person_of.get((match.event_id, match.player_a)), person_of.get((match.event_id, match.player_b))
        if a is None or b is None or match.source == "drop" or not (match.games_a or match.games_b or match.draws):
            continue
        assert match.games_a is not None and match.games_b is not None
        score = 1.0 if match.games_a > match.games_b else 0.0 if match.games_a < match.games_b else 0.5
        games.setdefault(match.event_id, []).append((a, b, score))
    pods: dict[tuple[str, int, int], dict[str, int]] = {}
    seats = (
        select(PodSeat).join(Pod, (Pod.event_id == PodSeat.event_id) & (Pod.round == PodSeat.round) & (Pod.number == PodSeat.table))
        .where(PodSeat.event_id.in_(ids), Pod.source.is_not(None), Pod.source != "bye")
        .order_by(PodSeat.event_id, PodSeat.round, PodSeat.table, PodSeat.seat)
    )
    unlinked: set[tuple[str, int, int]] = set()
    for seat in session.scalars(seats):
        key, person = (seat.event_id, seat.round, seat.table), person_of.get((seat.event_id, seat.player))
        if person is None or seat.place is None:
            unlinked.add(key)
        else:
            pods.setdefault(key, {})[person] = seat.place
    by_event: dict[str, list[dict[str, int]]] = {}
    for key, places in pods.items():
        if key not in unlinked and len(places) > 1:
            by_event.setdefault(key[0], []).append(places)
    return [
        Period(e.id, e.ruleset, "openskill", pods=by_event.get(e.id, []))
        if e.format == "pods" else Period(e.id, e.ruleset, "glicko2", games=games.get(e.id, []))
        for e in events
    ]


def ratings(session: Session) -> dict[tuple[str, System], dict[str, Rated]]:
    """Every pool's ratings now: (ruleset, system) -> person -> Rated."""
    return rate(periods(session))
