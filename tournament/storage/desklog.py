"""The front desk's log entries (issue 26): public registration, the waitlist, check-in and judge calls;
and entry fees paid at the desk (issue 36).

Part of the event log like every other entry (`eventlog.PAYLOADS` lists them),
kept apart only because the log module is long; `project` applies them to the
tables, as `eventlog.project` does the rest, and `verify` rebuilds them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import msgspec
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from tournament.storage.models import Event, JudgeCall, Player, Waiting


class RegistrationSet(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The organiser's public registration settings (`tournament registration`): open or not, at most `cap`
    players (None: no cap), until `closes_at` (None: until round 1 is paired), a waitlist once full or not."""

    open: bool
    cap: int | None = None
    closes_at: datetime | None = None
    waitlist: bool = True
    waitlist_limit: int | None = None  # how many may wait once the event is full (None: the default, T-152)


class WaitlistJoined(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Someone registered on `/e/EVENT/register` when the event was full: they wait, in order, under `player`."""

    player: str
    name: str | None = None  # None: the id
    person: str | None = None  # who they are across events: a person signed in by their card (T-183)


class WaitlistLeft(msgspec.Struct, forbid_unknown_fields=True):
    """Someone waiting gave up their place on the waitlist (from their page)."""

    player: str


class WaitlistPromoted(msgspec.Struct, forbid_unknown_fields=True):
    """The first on the waitlist gets a place: their `player_registered` entry follows."""

    player: str


class CheckedIn(msgspec.Struct, forbid_unknown_fields=True):
    """A registered (or waiting) player is at the venue, before round 1: by the organiser or by themselves."""

    player: str
    own: bool = False  # the player checked themselves in from their page


class JudgeCalled(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A player calls a judge to their table of the current round; the call's number is its place in the event.
    `disputes`: the player whose claim the caller says is not right (the table goes to the judge queue, T-151)."""

    round: int
    table: int
    player: str
    text: str = ""
    disputes: str | None = None


class CallAnswered(msgspec.Struct, forbid_unknown_fields=True):
    """The organiser marks judge call `number` answered."""

    number: int


class FeeSet(msgspec.Struct, forbid_unknown_fields=True):
    """The event's entry fee (T-215): `amount` in the minor units of `currency` (ISO 4217 letters: 500 EUR is 5.00)."""

    currency: str
    amount: int


class FeePaid(msgspec.Struct, forbid_unknown_fields=True):
    """A player paid their entry at the desk: `amount` in the event's currency's minor units, by `method`."""

    player: str
    amount: int
    method: Literal["cash", "card"]


class FeeUndone(msgspec.Struct, forbid_unknown_fields=True):
    """A payment marked by mistake is taken back (the money given back, or never taken); `reason` says why."""

    player: str
    reason: str


DeskPayload = (
    RegistrationSet | WaitlistJoined | WaitlistLeft | WaitlistPromoted | CheckedIn | JudgeCalled | CallAnswered
    | FeeSet | FeePaid | FeeUndone
)

DESK_PAYLOADS: dict[str, type[DeskPayload]] = {
    "registration_set": RegistrationSet,
    "waitlist_joined": WaitlistJoined,
    "waitlist_left": WaitlistLeft,
    "waitlist_promoted": WaitlistPromoted,
    "checked_in": CheckedIn,
    "judge_called": JudgeCalled,
    "call_answered": CallAnswered,
    "fee_set": FeeSet,
    "fee_paid": FeePaid,
    "fee_undone": FeeUndone,
}


def project(session: Session, event: Event, at: datetime, payload: DeskPayload) -> None:
    """Apply one front-desk entry (made at `at`) to the tables."""
    key = event.id
    if isinstance(payload, RegistrationSet):
        event.registration_open, event.registration_cap = payload.open, payload.cap
        event.registration_closes_at, event.registration_waitlist = payload.closes_at, payload.waitlist
        event.registration_waitlist_limit = payload.waitlist_limit
    elif isinstance(payload, WaitlistJoined):
        last = session.scalar(select(func.max(Waiting.position)).filter_by(event_id=key)) or 0
        session.add(Waiting(event_id=key, player=payload.player, display_name=payload.name or payload.player, position=last + 1, checked_in=False,
                            person=payload.person))
    elif isinstance(payload, WaitlistLeft | WaitlistPromoted):
        session.execute(delete(Waiting).where(Waiting.event_id == key, Waiting.player == payload.player))
    elif isinstance(payload, CheckedIn):
        row: Player | Waiting | None = session.get(Player, (key, payload.player)) or session.get(Waiting, (key, payload.player))
        assert row is not None, "a check-in names a player or someone waiting"
        row.checked_in = True
    elif isinstance(payload, FeeSet):
        event.fee_currency, event.fee = payload.currency, payload.amount
    elif isinstance(payload, FeePaid | FeeUndone):
        player = session.get(Player, (key, payload.player))
        assert player is not None, "a payment names a player"
        player.paid, player.paid_by = (payload.amount, payload.method) if isinstance(payload, FeePaid) else (None, None)
    elif isinstance(payload, JudgeCalled):
        last = session.scalar(select(func.max(JudgeCall.number)).filter_by(event_id=key)) or 0
        session.add(
            JudgeCall(event_id=key, number=last + 1, round=payload.round, table=payload.table, player=payload.player,
                      text=payload.text, disputes=payload.disputes, called_at=at, answered_at=None)
        )
    else:
        call = session.get(JudgeCall, (key, payload.number))
        assert call is not None, "an answer follows its call"
        call.answered_at = at
