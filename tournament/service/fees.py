"""Entry fees at the desk (issue 36, T-215): the event's fee and currency, a player marked paid (cash or card)
or the mark taken back, and who has not paid. Each change is an entry of the event's log (`desklog.FeeSet`,
`FeePaid`, `FeeUndone`); no payment provider is involved: money changes hands at the desk."""

from __future__ import annotations

from typing import Literal, cast

from sqlalchemy.orm import Session

from schemas.tournament import FeeRow, Fees
from tournament.formats.fees import AMOUNT_RANGE, CURRENCY, METHODS, money
from tournament.service.errors import EXIT_USAGE, Conflict, NotFound, TournamentError, Usage
from tournament.service.persons import display_names
from tournament.service.queries import get_event, lock_event, players
from tournament.storage.desklog import FeePaid, FeeSet, FeeUndone
from tournament.storage.eventlog import append
from tournament.storage.models import Event, Player

Method = Literal["cash", "card"]


class NotTheDesk(TournamentError):
    """Someone who may not take money said an entry is paid (a public registration form)."""

    code = EXIT_USAGE
    status = 403


def _amount(what: str, amount: int, low: int = AMOUNT_RANGE[0]) -> int:
    if not low <= amount <= AMOUNT_RANGE[1]:
        raise Usage(f"{what}: {low} to {AMOUNT_RANGE[1]} minor units (cents), not {amount}")
    return amount


def set_fee(session: Session, event_id: str, currency: str, amount: int) -> Event:
    """The event's entry fee in `currency`'s minor units; the currency is fixed once someone has paid in it."""
    code = currency.strip().upper()
    if not CURRENCY.fullmatch(code):
        raise Usage(f"currency: three letters of ISO 4217 (EUR, USD, JPY), not {currency!r}")
    _amount("amount", amount)
    event = lock_event(session, event_id)
    if event.fee_currency not in (None, code) and any(p.paid is not None for p in players(session, event_id)):
        raise Conflict(f"{event_id!r} has taken fees in {event.fee_currency}; its currency cannot change now")
    append(session, event_id, FeeSet(code, amount))
    return event


def _player(session: Session, event_id: str, player: str) -> Player:
    row = session.get(Player, (event_id, player))
    if row is None:
        raise NotFound(f"unknown player {player!r} in event {event_id!r} (someone waiting pays once they have a place)")
    return row


def mark_paid(session: Session, event_id: str, player: str, method: str, amount: int | None = None) -> Player:
    """`player` paid at the desk by `method`; `amount` (minor units) defaults to the event's fee."""
    if method not in METHODS:
        raise Usage(f"paid by: {' or '.join(METHODS)}, not {method!r}")
    event = lock_event(session, event_id)
    if event.fee_currency is None or event.fee is None:
        raise Conflict(f"{event_id!r} has no entry fee yet: set it first (tournament fee {event_id} --currency EUR --amount 500)")
    paid = _amount("amount", event.fee if amount is None else amount, low=1)
    row = _player(session, event_id, player)
    if row.paid is not None:
        raise Conflict(f"{row.display_name} has paid already ({money(row.paid, event.fee_currency)} by {row.paid_by})")
    append(session, event_id, FeePaid(player, paid, cast(Method, method)))
    return row


def undo_paid(session: Session, event_id: str, player: str, reason: str) -> Player:
    """Take back a payment marked by mistake (or money handed back); the reason is kept in the log."""
    why = reason.strip()
    if not why or len(why) > 500:
        raise Usage("reason: say in 1 to 500 characters why the payment is taken back")
    lock_event(session, event_id)
    row = _player(session, event_id, player)
    if row.paid is None:
        raise Conflict(f"{row.display_name} has not paid")
    append(session, event_id, FeeUndone(player, why))
    return row


def fees(session: Session, event_id: str) -> Fees:
    """Who paid what, the unpaid first (dropped players last: they owe nothing more), and the total taken."""
    event = get_event(session, event_id)
    shown = display_names(session, event_id)
    rows = [
        FeeRow(p.name, shown[p.name], p.paid, cast(Method | None, p.paid_by), p.checked_in, p.dropped_round is not None)
        for p in players(session, event_id)
    ]
    rows.sort(key=lambda r: (r.dropped, r.paid is not None, r.name.casefold(), r.player))
    unpaid = sum(1 for r in rows if r.paid is None and not r.dropped)
    return Fees(
        event_id, event.fee_currency, event.fee, sum(r.paid or 0 for r in rows), sum(1 for r in rows if r.paid is not None),
        unpaid if event.fee else 0, rows,
    )
