"""People across events as data: the people, one person's events, matches and ratings, the leaderboards.

The Structs are schemas/tournament.py's (`PersonRow`, `PersonInfo`,
`RatingRow`), as `tournament people`, `person` and `ratings` print them with
`--json` and the web serves them; `output.people` puts them in words.
"""

from __future__ import annotations

from typing import cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from schemas.tournament import (
    Outcome,
    PersonEvent,
    PersonInfo,
    PersonMatch,
    PersonRow,
    RatingPoint,
    RatingRow,
    Source,
)
from tournament.formats.ratings import Rated, System
from tournament.output import render
from tournament.service import export, persons, seasons
from tournament.service import ratings as rating_service
from tournament.service.persons import display_names
from tournament.service.queries import find_pod, get_event
from tournament.storage.models import Event, Match, Person, PodSeat, Round, RoundBye


def people_rows(session: Session) -> list[PersonRow]:
    """Everyone, by name."""
    played, labels = persons.careers(session), persons.labels(session)
    return [
        PersonRow(
            p.id, p.name, p.external_id, len(played.get(p.id, [])), played[p.id][-1].event.id if played.get(p.id) else None, labels.get(p.id),
        )
        for p in persons.people(session)
    ]


def person_texts(session: Session) -> dict[str, str]:
    """Each person's name as pages and files show it: with what tells them from a namesake (T-185), if any."""
    labels = persons.labels(session)
    return {i: render.labelled(n, labels.get(i)) for i, n in session.execute(select(Person.id, Person.name))}


def leaderboard(session: Session, ruleset: str | None = None, system: str | None = None) -> list[RatingRow]:
    """Every pool's leaderboard (ruleset, then Glicko-2 before OpenSkill), each ranked by `low`, best first."""
    return _ranked(session, rating_service.ratings(session), ruleset, system)


def _ranked(
    session: Session, pools: dict[tuple[str, System], dict[str, Rated]], ruleset: str | None = None, system: str | None = None,
) -> list[RatingRow]:
    names, labels = {i: n for i, n in session.execute(select(Person.id, Person.name))}, persons.labels(session)
    rows = []
    for (pool_ruleset, pool_system), rated in sorted(pools.items()):
        if (ruleset is None or ruleset == pool_ruleset) and (system is None or system == pool_system):
            ranked = sorted(rated.values(), key=lambda r: (-r.low, -r.rating, r.person))
            rows += [_row(rank, r, names.get(r.person, r.person), labels.get(r.person)) for rank, r in enumerate(ranked, start=1)]
    return rows


def _row(rank: int, r: Rated, name: str, label: str | None) -> RatingRow:
    """Full precision (JSON is read by programs, which compare and compute: a rounded 1512.35 is not the rating);
    the text and the pages round as they show it (`people.rating_text`)."""
    return RatingRow(rank, r.person, name, r.ruleset, r.system, r.rating, r.deviation, r.volatility, r.low, r.events, r.games, label)


def person_info(session: Session, person_id: str) -> PersonInfo:
    """One person: their events with where they finished, every table they sat at, and their ratings."""
    person = persons.get_person(session, person_id)
    played = persons.careers(session, [person_id]).get(person_id, [])
    events, matches = [], []
    for entry in played:
        event, player = entry.event, entry.player
        row = next((s for s in export.standing_rows(session, event.id) if s.player == player.name), None)
        events.append(
            PersonEvent(
                event.id, event.name, event.ruleset, event.format, event.rated, player.name, player.display_name,
                row.rank if row else None, row.points if row else None, row.wins if row else 0, row.losses if row else 0,
                row.draws if row else 0, player.dropped_round is not None,
            )
        )
        matches += event_tables(session, event.id, player.name)
    pools = rating_service.ratings(session)
    ratings = [r for r in _ranked(session, pools) if r.person == person_id]
    names = {e.id: e.name for e in session.scalars(select(Event).where(Event.rated))}
    points = [
        RatingPoint(ruleset, system, event, names.get(event, event), after)
        for (ruleset, system), rated in sorted(pools.items()) if person_id in rated
        for event, after in rated[person_id].history
    ]
    return PersonInfo(
        person.id, person.name, person.external_id, events, matches, ratings, seasons.person_seasons(session, person_id), points,
        persons.labels(session).get(person.id),
    )


def event_tables(session: Session, event_id: str, player: str) -> list[PersonMatch]:
    """Every table `player` sat at in the event, byes included, in round order."""
    names = display_names(session, event_id)
    found: list[tuple[int, int, PersonMatch]] = []
    mine = select(Match).filter_by(event_id=event_id).where((Match.player_a == player) | (Match.player_b == player))
    for m in session.scalars(mine):
        other = m.player_b if m.player_a == player else m.player_a
        games = None if m.games_a is None or m.games_b is None else (
            [m.games_a, m.games_b] if m.player_a == player else [m.games_b, m.games_a]
        )
        outcome: Outcome | None = None if games is None else "win" if games[0] > games[1] else "loss" if games[0] < games[1] else "draw"
        found.append((m.round, m.number, PersonMatch(event_id, m.round, m.number, [other], [names.get(other, other)], outcome, games, m.draws, source=m.source)))
    byes = select(Round.number).filter_by(event_id=event_id, bye=player).union(
        select(RoundBye.round).filter_by(event_id=event_id, player=player)
    )
    for number in session.scalars(byes):
        found.append((number, 0, PersonMatch(event_id, number, None, [], [], "bye", source="bye")))
    seated = select(PodSeat.round, PodSeat.table).filter_by(event_id=event_id, player=player)
    for number, table in session.execute(seated):
        pod, seats = find_pod(session, get_event(session, event_id), table, number)
        others = [s.player for s in seats if s.player != player]
        place = next(s.place for s in seats if s.player == player)
        if pod.source == "bye":
            found.append((number, table, PersonMatch(event_id, number, None, [], [], "bye", source="bye")))
            continue
        firsts = sum(1 for s in seats if s.place == 1)
        outcome = None if place is None else "win" if place == 1 and firsts == 1 else "draw" if place == 1 else "loss"
        found.append(
            (number, table, PersonMatch(event_id, number, table, others, [names.get(o, o) for o in others], outcome,
                                        place=place, seats=len(seats), source=cast(Source | None, pod.source)))
        )
    return [m for *_, m in sorted(found, key=lambda f: (f[0], f[1]))]

