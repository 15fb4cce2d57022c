"""Creating an event in one of the formats."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import Session

from referee.rulesets import get as get_ruleset
from referee.rulesets import ids as ruleset_ids
from tournament.formats import pods
from tournament.formats import standings as tiebreaks
from tournament.service.errors import (
    Conflict,
    Usage,
)
from tournament.service.queries import (
    check_id,
    get_event,
)
from tournament.storage.desklog import RegistrationSet
from tournament.storage.eventlog import (
    EventCreated,
    append,
)
from tournament.storage.models import Event

# Event formats (tournament/README.md, "Formats"). A Swiss event may end in a top cut (`cut`).
FORMATS = {
    "swiss": "Swiss rounds, optionally followed by a top cut",
    "single": "single elimination",
    "double": "double elimination",
    "roundrobin": "round robin",
    "pods": "Swiss pods (3 to 6 players a table)",
}


# A late entry's missed rounds (ruling T-20): a match loss each (the MTR's way, the default) or not counted.
LATE_ENTRY = ("loss", "none")

# Live tables (service/tables.py): none (results as logs or slips), players recording physical cards, or the server dealing.
TABLES = ("off", "paper", "digital")

SEEDED = ("single", "double", "roundrobin")  # formats seeded before round 1 (by `seed`, or at random by `pair`)

# Ids a web address could mistake for something else: the first words of `tournament serve`'s routes, and the
# path steps `.` and `..` (browsers resolve them). Events made before this keep their ids.
ROUTE_WORDS = frozenset({"api", "admin", "e", "join", "me", "signout", "static", "events", "schema", ".", ".."})

MAX_CAP = 10_000  # players an event may cap public registration at
WAITLIST = 64  # T-152: people who may wait for a place when the organiser sets no bound
CLOSED = RegistrationSet(False)  # a new event's public registration: closed, no cap, no closing time, a waitlist


def registration_set(
    *, open: bool, cap: int | None, closes_at: datetime | None, waitlist: bool, waitlist_limit: int | None = None,
) -> RegistrationSet:
    """Public registration's settings, checked (a cap and a waitlist bound in range, a closing time with its UTC
    offset), as logged."""
    if cap is not None and not 1 <= cap <= MAX_CAP:
        raise Usage(f"cap: write a number of players from 1 to {MAX_CAP}, not {cap}")
    if waitlist_limit is not None and not 1 <= waitlist_limit <= MAX_CAP:
        raise Usage(f"waitlist limit: write a number of people from 1 to {MAX_CAP}, not {waitlist_limit}")
    if closes_at is not None and closes_at.tzinfo is None:
        raise Usage("closes: give the time with its offset from UTC, like 2026-12-05T09:00+01:00")
    return RegistrationSet(open, cap, closes_at.astimezone(UTC) if closes_at else None, waitlist, waitlist_limit)


def waitlist_bound(event: Event) -> int:
    """How many may wait once the event is full (T-152): the organiser's number, else WAITLIST."""
    return WAITLIST if event.registration_waitlist_limit is None else event.registration_waitlist_limit


def create_event(
    session: Session, event_id: str, *, name: str, ruleset: str, profile: str, best_of: int, seed: int,
    format: str = "swiss", table_size: int | None = None, points: str = "3,1", late_entry: str = "loss",
    require_chain: bool = True, rated: bool = False, tables: str = "off", open_registration: bool = False,
    cap: int | None = None, closes_at: datetime | None = None, waitlist: bool = True, waitlist_limit: int | None = None,
) -> Event:
    """A new event; with public registration's settings (`tournament registration`) when any differs from closed."""
    check_id("event id", event_id)
    if event_id.lower() in ROUTE_WORDS:
        raise Usage(f"event id {event_id!r} is a word of the web service's routes; choose another")
    if format not in FORMATS:
        raise Usage(f"unknown format {format!r} (known: {', '.join(FORMATS)})")
    if ruleset not in ruleset_ids():
        raise Usage(f"unknown ruleset {ruleset!r} (known: {', '.join(ruleset_ids())})")
    game = get_ruleset(ruleset)
    size = table_size or (4 if format == "pods" else 2)
    if format == "pods":
        if not pods.MIN_TABLE <= size <= pods.MAX_TABLE:
            raise Usage(f"--table-size {size}: pods seat {pods.MIN_TABLE} to {pods.MAX_TABLE} players")
        if best_of != 1:
            raise Usage("a pod plays one game a round: --best-of 1")
        try:
            points = pods.Points.parse(points).text()
        except ValueError as exc:
            raise Usage(str(exc)) from None
    elif size != 2:
        raise Usage("--table-size goes with --format pods; the other formats seat two players a table")
    smallest = size - 1 if format == "pods" else size  # a pod may be one seat short
    if not (game.min_players <= smallest and size <= game.max_players):
        raise Usage(f"{ruleset} is for {game.min_players} to {game.max_players} players; it cannot seat {size} a table")
    if profile not in tiebreaks.PROFILES:
        raise Usage(f"unknown tiebreaker profile {profile!r} (known: {', '.join(sorted(tiebreaks.PROFILES))})")
    if best_of < 1 or best_of % 2 == 0:
        raise Usage(f"--best-of must be an odd number of games, not {best_of}")
    if late_entry not in LATE_ENTRY:
        raise Usage(f"--late-entry must be {' or '.join(LATE_ENTRY)}, not {late_entry!r}")
    if tables not in TABLES:
        raise Usage(f"--tables must be {', '.join(TABLES)}, not {tables!r}")
    registration = registration_set(
        open=open_registration, cap=cap, closes_at=closes_at, waitlist=waitlist, waitlist_limit=waitlist_limit,
    )
    if session.get(Event, event_id) is not None:
        raise Conflict(f"event {event_id!r} already exists")
    append(
        session, event_id,
        EventCreated(name or event_id, ruleset, profile, best_of, seed, format, size, points, late_entry, require_chain, rated, tables),
    )
    if registration != CLOSED:
        append(session, event_id, registration)
    return get_event(session, event_id)

