"""Registration before the day (issue 26): public sign-up with a cap, a closing time and a waitlist; check-in.

The organiser opens registration (`set_registration`); anyone may then sign up on
`/e/EVENT/register` (`sign_up`) until it closes, the cap is reached (then the
waitlist, if kept) or round 1 is paired. A place freed before round 1 goes to
the first on the waitlist (`roster.promote`). Before round 1 the organiser, or
a player from their page, checks players in (`check_in`), and the organiser's
one action (`leave_out_absent`, T-96) drops who has not come. Each step is an
entry of the event's log (`storage/desklog.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import msgspec
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from schemas.tournament import Registration, WaitingRow
from tournament.service.errors import Conflict, NotFound
from tournament.service.events import registration_set, waitlist_bound
from tournament.service.people import Person, clean_name, slug, taken_ids, unique_ids
from tournament.service.persons import display_names
from tournament.service.queries import check_id, get_event, lock_event, players
from tournament.service.roster import capacity, drop, promote, register_people
from tournament.storage.desklog import (
    CheckedIn,
    RegistrationSet,
    WaitlistJoined,
    WaitlistLeft,
    WaitlistPromoted,
)
from tournament.storage.eventlog import append, as_utc
from tournament.storage.models import Event, LogEntry, Player, Waiting


def set_registration(
    session: Session, event_id: str, *, open: bool, cap: int | None = None, closes_at: datetime | None = None, waitlist: bool = True,
    waitlist_limit: int | None = None,
) -> Registration:
    """Open (or close) public registration with a cap, a closing time (aware), a waitlist or none, and how many
    may wait (None: the default, T-152).

    Raising the cap gives the new places to the waitlist at once, in order. A lower bound than the people already
    waiting keeps them: it only stops more from joining.
    """
    event = lock_event(session, event_id)
    _before_round_one(event, "registration")
    set_to = registration_set(open=open, cap=cap, closes_at=closes_at, waitlist=waitlist, waitlist_limit=waitlist_limit)
    now = RegistrationSet(
        event.registration_open, event.registration_cap, _aware(event.registration_closes_at), event.registration_waitlist,
        event.registration_waitlist_limit,
    )
    if set_to != now:
        append(session, event_id, set_to)
        promote(session, event)
    return registration(session, event_id)


@dataclass(frozen=True)
class SignedUp:
    """A public registration: the player id, and their place on the waitlist (None: they have a place)."""

    player: str
    position: int | None


def sign_up(
    session: Session, event_id: str, name: str, player_id: str | None = None, *, now: datetime | None = None, person: str | None = None,
) -> SignedUp:
    """Register someone from the public page: a place while the event has room, else the waitlist (if kept).

    Refused (nothing written): registration not open or closed, round 1 paired, a full event without a
    waitlist, a bad name or id, an id taken. A new person is made (T-95: the public page never names one),
    unless `person` is given: a person signed in by their player card registers as themselves (T-183).
    """
    event = lock_event(session, event_id)
    if not event.registration_open:
        raise Conflict(f"registration for {event.name} is not open; ask the organiser")
    _before_round_one(event, "registration")
    closes = _aware(event.registration_closes_at)
    if closes is not None and (now or datetime.now(UTC)) >= closes:
        raise Conflict(f"registration for {event.name} closed at {closes:%Y-%m-%d %H:%M} UTC")
    shown = clean_name(name)
    if player_id is not None:
        check_id("player", player_id)
    room = capacity(session, event)
    queue = session.scalar(select(Waiting.player).filter_by(event_id=event_id).limit(1))
    if (room is None or room > 0) and queue is None:  # nobody jumps the waitlist (T-98)
        [player] = register_people(session, event_id, [Person(shown, player_id, person=person)])
        return SignedUp(player.name, None)
    if not event.registration_waitlist:
        raise Conflict(f"{event.name} is full ({event.registration_cap} players) and keeps no waitlist")
    # (a waitlist turned off keeps those already on it: they are promoted as places free)
    taken = taken_ids(session, event_id)
    if player_id is not None and player_id in taken:
        raise Conflict(f"{player_id!r} is already registered in {event_id!r}")
    bound = waitlist_bound(event)
    if (session.scalar(select(func.count()).select_from(Waiting).filter_by(event_id=event_id)) or 0) >= bound:
        # T-152: a waitlist has an end, so made-up names cannot fill the database
        raise Conflict(
            f"{event.name} is full ({event.registration_cap} players) and so is its waitlist ({bound} waiting): "
            "no more names are taken; ask the organiser"
        )
    if person is not None and (
        session.scalar(select(Waiting.player).filter_by(event_id=event_id, person=person)) is not None
        or session.scalar(select(Player.name).filter_by(event_id=event_id, person=person)) is not None
    ):
        raise Conflict(f"you are registered for {event.name} already")
    [chosen] = [player_id] if player_id is not None else unique_ids([person or slug(shown)], taken)
    append(session, event_id, WaitlistJoined(chosen, None if shown == chosen else shown, person))
    waiting = session.get(Waiting, (event_id, chosen))
    assert waiting is not None
    return SignedUp(chosen, _place(session, waiting))


def leave(session: Session, event_id: str, player: str) -> str:
    """The player leaves the event from their page: off the waitlist, or dropped (T-93). What happened, in words."""
    lock_event(session, event_id)
    if session.get(Waiting, (event_id, player)) is not None:
        append(session, event_id, WaitlistLeft(player))
        return "You left the waitlist."
    match = drop(session, event_id, player, own=True)
    event = get_event(session, event_id)
    if match is not None:
        return (f"You are dropped after round {event.rounds}: your table {match.number} still needs its result "
                "(play it out, or tell the judge), and you will not be paired again.")
    return "You are dropped: you will not be paired again." if event.rounds else "You left the event before round 1."


def check_in(session: Session, event_id: str, player: str, *, own: bool = False) -> None:
    """A registered or waiting player is here (before round 1); `own`: they said so themselves."""
    event = lock_event(session, event_id)
    _before_round_one(event, "check-in")
    row = session.get(Waiting, (event_id, player)) or next((p for p in players(session, event_id) if p.name == player), None)
    if row is None:
        raise NotFound(f"unknown player {player!r} in event {event_id!r}")
    if getattr(row, "dropped_round", None) is not None:
        raise Conflict(f"{player!r} has left the event")
    if row.checked_in:
        raise Conflict(f"{player!r} is already checked in")
    append(session, event_id, CheckedIn(player, own))


def leave_out_absent(session: Session, event_id: str) -> tuple[list[str], list[str]]:
    """T-96, before round 1: drop every player who has not checked in, then give the places freed to those on the
    waitlist who have, in order. The dropped and the promoted. Refused while nobody has checked in."""
    event = lock_event(session, event_id)
    _before_round_one(event, "check-in")
    everyone = [p for p in players(session, event_id) if p.dropped_round is None]
    if not any(p.checked_in for p in everyone):
        raise Conflict(f"nobody has checked in to {event_id!r} yet; check players in first")
    absent = [p.name for p in everyone if not p.checked_in]
    for name in absent:
        drop(session, event_id, name, fill=False)
    return absent, promote(session, event, checked_in=True)


def registration(session: Session, event_id: str) -> Registration:
    """The event's registration settings, who has a place, who has checked in, and the waitlist in order."""
    event = get_event(session, event_id)
    playing = [p for p in players(session, event_id) if p.dropped_round is None]
    query = select(Waiting).filter_by(event_id=event_id).order_by(Waiting.position)
    shown = display_names(session, event_id, waiting=True)
    waiting = [WaitingRow(w.player, shown[w.player], place, w.checked_in) for place, w in enumerate(session.scalars(query), start=1)]
    return Registration(
        event_id, event.registration_open, event.registration_cap, _aware(event.registration_closes_at), event.registration_waitlist,
        len(playing), sum(p.checked_in for p in playing), waiting, event.registration_waitlist_limit, waitlist_bound(event),
    )


def waitlist_place(session: Session, event_id: str, player: str) -> int | None:
    """Where `player` stands on the waitlist (1: next), or None when they are not on it."""
    waiting = session.get(Waiting, (event_id, player))
    return None if waiting is None else _place(session, waiting)


def promoted(session: Session, event_id: str, player: str) -> bool:
    """Whether the player got their place from the waitlist (their page says so)."""
    entries = select(LogEntry.payload).filter_by(event_id=event_id, type="waitlist_promoted")
    return any(msgspec.json.decode(payload, type=WaitlistPromoted).player == player for payload in session.scalars(entries))


def _place(session: Session, waiting: Waiting) -> int:
    ahead = select(Waiting.player).filter_by(event_id=waiting.event_id).where(Waiting.position < waiting.position)
    return len(session.scalars(ahead).all()) + 1


def _before_round_one(event: Event, what: str) -> None:
    if event.rounds or event.bracket_round is not None:
        raise Conflict(f"{what} for {event.id!r} ended when round 1 was paired")


def _aware(moment: datetime | None) -> datetime | None:
    return None if moment is None else as_utc(moment)
