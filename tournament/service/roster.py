"""Registering, renaming, pausing and dropping players, pre-assigned byes, and the waitlist's promotions."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tournament.service import persons
from tournament.service.elimination import is_finished
from tournament.service.errors import (
    Conflict,
    Usage,
)
from tournament.service.events import FORMATS
from tournament.service.people import RESERVED, Person, clean_name, slug, taken_ids, unique_ids
from tournament.service.queries import (
    check_id,
    get_player,
    had_bye,
    lock_event,
    lock_open_event,
    open_match,
    players,
)
from tournament.storage.desklog import CheckedIn, WaitlistPromoted
from tournament.storage.eventlog import (
    ByeAssigned,
    PlayerDropped,
    PlayerPaused,
    PlayerRegistered,
    PlayerRenamed,
    PlayerResumed,
    append,
    append_many,
)
from tournament.storage.models import Event, Match, Player, Waiting


def register(session: Session, event_id: str, names: Sequence[str]) -> list[str]:
    """Register players by id (each shown by their id); see `register_people` for names."""
    return [p.name for p in register_people(session, event_id, [Person(n, n) for n in names])]


def register_people(session: Session, event_id: str, people: Sequence[Person]) -> list[Player]:
    """Register people, all or none: ids given are checked, missing ones derived from the names; each is a
    person across events, found or made (T-90: `persons`).

    After round 1 is paired they are late entries joining the next round. One
    query for the ids taken and one flush, however many people.
    """
    event = lock_open_event(session, event_id)
    if event.bracket_round is not None:
        raise Conflict(f"{event_id!r} has seeded its {FORMATS[event.format] if event.format != 'swiss' else 'top cut'}; no more entries")
    found = persons.known_people(session, people)
    taken = taken_ids(session, event_id)
    names, chosen = [], set()
    for person, known in zip(people, found, strict=True):
        at_name, at_id = (f"{person.where}, field name: ", f"{person.where}, field id: ") if person.where else ("", "")
        try:
            names.append(clean_name(person.name if person.name.strip() or known is None else known.name))
        except Usage as exc:
            raise Usage(at_name + exc.message) from None
        if person.id is None:
            continue
        try:
            check_id("player", person.id)
        except Usage as exc:
            raise Usage(at_id + exc.message) from None
        if person.id in RESERVED:
            raise Usage(f"{at_id}{person.id!r} is reserved in game logs and cannot be a player id")
        if person.id in chosen:
            raise Usage(f"{at_id}{person.id!r} is given twice")
        if person.id in taken:
            raise Conflict(f"{at_id}{person.id!r} is already registered in {event_id!r}")
        chosen.add(person.id)
    # A known person plays under their person id where it is free; anyone else under one derived from the name.
    wanted = (known.id if known else slug(n) for p, n, known in zip(people, names, found, strict=True) if p.id is None)
    derived = iter(unique_ids(wanted, taken | chosen))
    ids = [p.id if p.id is not None else next(derived) for p in people]
    who = persons.enrol(session, event_id, people, found, [p.id or slug(n) for p, n in zip(people, names, strict=True)], names)
    append_many(
        session, event.id,
        [
            PlayerRegistered(i, None if n == i else n, p.rating, person)
            for i, n, p, person in zip(ids, names, people, who, strict=True)
        ],
    )
    registered = {p.name: p for p in players(session, event_id)}  # one query, not one per player
    return [registered[i] for i in ids]


def rename(session: Session, event_id: str, player: str, name: str) -> Player:
    """Change a player's display name (their id stays)."""
    lock_event(session, event_id)
    person = get_player(session, event_id, player)
    shown = clean_name(name)
    if shown != person.display_name:
        append(session, event_id, PlayerRenamed(player, shown))
    return person


def drop(session: Session, event_id: str, name: str, *, own: bool = False, fill: bool = True) -> Match | None:
    """Drop a player (the organiser's drop). Mid-round, their unfinished match is conceded; return it then.
    `own`: the player drops themselves (T-93): their match of the current round is not conceded but played and
    reported; it is returned, open, for the caller to say so. Once the event is over, refused (T-120), unless the
    organiser's drop has a match to concede.
    Before round 1, a place freed goes to the first on the waitlist (unless not `fill`: the caller fills it)."""
    event = lock_event(session, event_id)
    player = get_player(session, event_id, name)
    if player.dropped_round is not None:
        raise Conflict(f"{name!r} already dropped (after round {player.dropped_round})")
    match = open_match(session, event, name)
    if (own or match is None) and (event.finished or is_finished(session, event)):  # T-120: nothing left to drop from
        raise Conflict(f"{event_id!r} is over (its last round is paired): there is no later round to drop from")
    conceded = None if own or match is None else match.number
    append(session, event.id, PlayerDropped(name, conceded, own))
    if event.rounds == 0 and fill:
        promote(session, event)
    return match


def promote(session: Session, event: Event, *, checked_in: bool = False) -> list[str]:
    """Before round 1: while the event has room under its cap, the first on its waitlist (with `checked_in`,
    the first who checked in) gets a place: `waitlist_promoted`, their registration, and their check-in kept."""
    if event.rounds or event.bracket_round is not None:
        return []
    promoted = []
    room = capacity(session, event)
    query = select(Waiting).filter_by(event_id=event.id).order_by(Waiting.position)
    for waiting in session.scalars(query.where(Waiting.checked_in) if checked_in else query).all():
        if room is not None and room <= 0:
            break
        name, kept, arrived, person = waiting.player, waiting.display_name, waiting.checked_in, waiting.person
        append(session, event.id, WaitlistPromoted(name))
        register_people(session, event.id, [Person(kept, name, person=person)])
        if arrived:
            append(session, event.id, CheckedIn(name))
        promoted.append(name)
        room = None if room is None else room - 1
    return promoted


def capacity(session: Session, event: Event) -> int | None:
    """Places left under the registration cap (None: no cap): the cap less the players who have not dropped."""
    if event.registration_cap is None:
        return None
    playing = session.scalar(select(func.count()).select_from(Player).filter_by(event_id=event.id, dropped_round=None)) or 0
    return event.registration_cap - playing


def set_paused(session: Session, event_id: str, name: str, paused: bool) -> Player:
    """Pause a player (not paired, no points, from the next round until resumed: T-22) or resume them."""
    event = lock_event(session, event_id)
    if event.format not in ("swiss", "pods") or event.bracket_round is not None:
        raise Usage(f"{event_id!r} is in a bracket or round robin; a player there plays or drops")
    player = get_player(session, event_id, name)
    if player.dropped_round is not None:
        raise Conflict(f"{name!r} dropped after round {player.dropped_round}")
    if player.paused == paused:
        raise Conflict(f"{name!r} is {'already' if paused else 'not'} paused")
    append(session, event_id, PlayerPaused(name) if paused else PlayerResumed(name))
    return player


def assign_bye(session: Session, event_id: str, name: str, round_number: int | None) -> Player:
    """Pre-assign a player's bye for a round not yet paired (None takes it back); it is their one bye."""
    event = lock_event(session, event_id)
    player = get_player(session, event_id, name)
    if event.format not in ("swiss", "pods") or event.bracket_round is not None:
        raise Usage(f"{event_id!r} is in a bracket or round robin; its byes follow from the seeds")
    if round_number is None:
        if player.bye_round is None or player.bye_round <= event.rounds:
            raise Conflict(f"{name!r} has no pre-assigned bye still to come")
    else:
        if round_number <= event.rounds:
            raise Conflict(f"round {round_number} of {event_id!r} is already paired; a bye is assigned before pairing")
        if player.dropped_round is not None:
            raise Conflict(f"{name!r} dropped after round {player.dropped_round}")
        had = had_bye(session, event_id, name) or player.bye_round
        if had is not None:
            raise Conflict(f"{name!r} already has a bye (round {had}); a player gets one")
    append(session, event_id, ByeAssigned(name, round_number))
    return player
