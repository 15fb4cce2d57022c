"""People across events: who each event's players are (T-90), and a person's events, matches and results.

A `Person` (the `people` table; not `service.Person`, someone to register) is
someone on this database; each event's `Player` names one
(`players.person`, written in the event's log: `player_registered` and
`player_linked`). Registration finds the person by what it is told, never by
a name: an existing person's id, or an external id (a federation's number);
otherwise it makes a new person. Two people are never merged silently: a
registration that makes a new person with the name of an existing one says so
(`namesakes`), and `link` moves a player to the right person, in the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tournament.service import people as registering
from tournament.service.errors import Conflict, NotFound, Usage
from tournament.service.people import slug, unique_ids
from tournament.service.queries import check_id, get_player, lock_event
from tournament.storage.eventlog import PlayerLinked, append
from tournament.storage.models import Event, Person, Player, Waiting


def get_person(session: Session, person_id: str) -> Person:
    person = session.get(Person, person_id)
    if person is None:
        raise NotFound(f"unknown person {person_id!r} (`tournament people` lists them)")
    return person


def known_people(session: Session, people: Sequence[registering.Person]) -> list[Person | None]:
    """Each registrant's existing person (by `person`, else by `external_id`), or None for one to be made.

    A `person` given must exist; one given with an `external_id` must have that external id or none
    (it then takes it), and the external id may be no one else's.
    """
    wanted = {p.person for p in people if p.person} | {p.external_id for p in people if p.external_id}
    given: set[str] = set()
    for registrant in people:
        at = f"{registrant.where}, field " if registrant.where else ""
        if registrant.person is not None:
            _checked(f"{at}person: " if at else "", "person", registrant.person)
        if registrant.external_id is not None:
            _checked(f"{at}external_id: " if at else "", "external id", registrant.external_id)
            if registrant.external_id in given:
                raise Usage((f"{at}external_id: " if at else "") + f"external id {registrant.external_id!r} is given twice")
            given.add(registrant.external_id)
    rows = session.scalars(select(Person).where(Person.id.in_(wanted) | Person.external_id.in_(wanted))).all() if wanted else []
    by_id, by_external = {p.id: p for p in rows}, {p.external_id: p for p in rows if p.external_id}
    found: list[Person | None] = []
    for registrant in people:
        at = f"{registrant.where}: " if registrant.where else ""
        holder = by_external.get(registrant.external_id) if registrant.external_id else None
        if registrant.person is None:
            found.append(holder)
            continue
        person = by_id.get(registrant.person)
        if person is None:
            raise NotFound(f"{at}unknown person {registrant.person!r} (`tournament people` lists them)")
        if registrant.external_id is not None:
            if holder is not None and holder is not person:
                raise Conflict(f"{at}external id {registrant.external_id!r} is person {holder.id!r}'s, not {person.id!r}'s")
            if person.external_id not in (None, registrant.external_id):
                raise Conflict(f"{at}person {person.id!r} has external id {person.external_id!r}, not {registrant.external_id!r}")
        found.append(person)
    return found


def _checked(at: str, kind: str, value: str) -> None:
    try:
        check_id(kind, value)
    except Usage as exc:
        raise Usage(at + exc.message) from None


def enrol(
    session: Session, event_id: str, people: Sequence[registering.Person], found: Sequence[Person | None], ids: Sequence[str],
    names: Sequence[str],
) -> list[str]:
    """The person of each registrant, as `known_people` found them, making the new ones (their id from `ids`:
    the player id given, else the name's; `-2`, `-3`, ... when taken). A person plays an event once."""
    here = set(session.scalars(select(Player.person).filter_by(event_id=event_id).where(Player.person.is_not(None))))
    here |= set(session.scalars(select(Waiting.person).filter_by(event_id=event_id).where(Waiting.person.is_not(None))))
    seen: set[str] = set()
    for registrant, person in zip(people, found, strict=True):
        if person is None:
            continue
        at = f"{registrant.where}: " if registrant.where else ""
        if person.id in here or person.id in seen:
            raise Conflict(f"{at}person {person.id!r} ({person.name}) is already registered in {event_id!r}")
        seen.add(person.id)
    fresh = [i for i, person in zip(ids, found, strict=True) if person is None]
    if not fresh:
        return [p.id for p in found if p is not None]
    taken = set(session.scalars(select(Person.id)))
    made = iter(unique_ids(fresh, taken))
    now = datetime.now(UTC)
    result = []
    for registrant, person, name in zip(people, found, names, strict=True):
        if person is None:
            person = Person(id=next(made), name=name, external_id=registrant.external_id, created_at=now)
            session.add(person)
        elif person.external_id is None and registrant.external_id is not None:
            person.external_id = registrant.external_id  # told both: the person now has the external id
        result.append(person.id)
    session.flush()  # the players about to be registered point to these rows
    return result


def namesakes(session: Session, players: Sequence[Player]) -> dict[str, list[Person]]:
    """For each player whose person plays their first event, the other people with the same name (accents and
    case aside): a hint that the organiser may have meant one of them (`link`)."""
    mine = [p.person for p in players if p.person]
    if not mine:
        return {}
    query = select(Player.person, func.count()).where(Player.person.in_(mine)).group_by(Player.person)
    counts = {person: n for person, n in session.execute(query)}
    new = {p.person: p for p in players if p.person and counts.get(p.person) == 1}
    if not new:
        return {}
    wanted = {slug(p.display_name) for p in new.values()}
    others: dict[str, list[Person]] = {}
    for person in session.scalars(select(Person).order_by(Person.id)):
        if person.id not in new and slug(person.name) in wanted:
            others.setdefault(slug(person.name), []).append(person)
    return {p.name: others[slug(p.display_name)] for p in new.values() if slug(p.display_name) in others}


def link(session: Session, event_id: str, player: str, person_id: str, reason: str | None = None) -> Player:
    """The player is `person_id` (an existing person): a `player_linked` entry in the event's log."""
    lock_event(session, event_id)
    row = get_player(session, event_id, player)
    person = get_person(session, person_id)
    if row.person == person.id:
        raise Conflict(f"{player!r} is person {person.id!r} already")
    other = session.scalars(select(Player.name).filter_by(event_id=event_id, person=person.id)).first()
    if other is not None:
        raise Conflict(f"person {person.id!r} is player {other!r} in {event_id!r}; a person plays an event once")
    append(session, event_id, PlayerLinked(player, person.id, reason or None))
    return row


@dataclass(frozen=True)
class Played:
    """One player of one event: the person's row there, and the event."""

    event: Event
    player: Player


def careers(session: Session, person_ids: Sequence[str] | None = None) -> dict[str, list[Played]]:
    """Each person's events (oldest first), or only those of `person_ids`."""
    query = select(Player, Event).join(Event, Event.id == Player.event_id).where(Player.person.is_not(None))
    if person_ids is not None:
        query = query.where(Player.person.in_(person_ids))
    found: dict[str, list[Played]] = {}
    for player, event in session.execute(query.order_by(Event.created_at, Event.id)):
        assert player.person is not None
        found.setdefault(player.person, []).append(Played(event, player))
    return found


def people(session: Session) -> list[Person]:
    """Everyone, alphabetically: accents and case set aside (the name's id form, T-27), then as written."""
    return sorted(session.scalars(select(Person)), key=lambda p: (slug(p.name), p.name, p.id))
