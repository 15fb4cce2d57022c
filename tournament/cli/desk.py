"""`tournament` commands for the front desk (issue 26): judge calls and their answers; public registration,
check-in and leaving out who has not come. The players' side is on `tournament serve` (`/me`)."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.console import INT32_MAX, emit_json, out, say
from tournament.cli.common import (
    CapOpt,
    ClosesOpt,
    DbOpt,
    EventArg,
    JsonOpt,
    closing_time,
    fail,
    reading,
    service,
    transaction,
)
from tournament.formats.fees import AMOUNT_RANGE, money
from tournament.output import render

app = typer.Typer()
PANEL = "Front desk"
MethodOpt = Annotated[str, typer.Option("--by", help="How they paid at the desk: cash or card.")]
AmountOpt = Annotated[int | None, typer.Option(
    "--amount", min=1, max=AMOUNT_RANGE[1], help="In minor units (cents: 500 is 5.00); default: the event's fee.")]


@app.command(rich_help_panel=PANEL)
def calls(
    event: EventArg,
    every: Annotated[bool, typer.Option("--all", help="The answered calls too.")] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The open judge calls, newest first: table, player and their line (`--all`: the answered ones too)."""
    with reading(db) as session:
        rows = service.judge_calls(session, event, answered=every)
    if as_json:
        emit_json(rows)
        return
    if not rows:
        say(f"no {'' if every else 'open '}judge call in {event}")
    for c in rows:
        state = f"answered {c.answered_at:%H:%M}" if c.answered_at else "OPEN"
        text = f": {c.text}" if c.text else ""
        out.print(f"{c.number}. round {c.round}, table {c.table}, {c.name} at {c.called_at:%H:%M} UTC, {state}{text}", markup=False, highlight=False)


@app.command(rich_help_panel=PANEL)
def answer(
    event: EventArg,
    number: Annotated[int, typer.Argument(min=1, max=INT32_MAX, help="The call's number (`tournament calls`).", metavar="CALL")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Mark a judge call answered (a judge went to the table)."""
    with transaction(db) as session:
        call = service.answer_call(session, event, number)
        table = call.table
        left = service.judge_calls(session, event)
    if as_json:
        emit_json(left)
    else:
        say(f"call {number} (table {table}) answered; {len(left)} still open")


@app.command(rich_help_panel=PANEL)
def registration(
    event: EventArg,
    open_: Annotated[bool | None, typer.Option("--open/--close", help="Open or close public registration (/e/EVENT/register).")] = None,
    cap: CapOpt = None,
    no_cap: Annotated[bool, typer.Option("--no-cap", help="Take the cap away.")] = False,
    closes: ClosesOpt = None,
    waitlist: Annotated[bool | None, typer.Option("--waitlist/--no-waitlist", help="A waitlist once full (the default) or none.")] = None,
    waitlist_limit: Annotated[int | None, typer.Option(
        "--waitlist-limit", min=1, max=10_000, help="At most this many may wait (default 64; T-152).")] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Public registration: its settings (options change them), the players with a place, who checked in, the waitlist."""
    changing = open_ is not None or cap is not None or no_cap or closes is not None or waitlist is not None or waitlist_limit is not None
    closes_at = closing_time(closes)
    if changing:
        with transaction(db) as session:
            now = service.registration(session, event)
            info = service.set_registration(
                session, event, open=now.open if open_ is None else open_, cap=None if no_cap else cap if cap is not None else now.cap,
                closes_at=closes_at if closes is not None else now.closes_at, waitlist=now.waitlist if waitlist is None else waitlist,
                waitlist_limit=now.waitlist_limit if waitlist_limit is None else waitlist_limit,
            )
    else:
        with reading(db) as session:
            info = service.registration(session, event)
    if as_json:
        emit_json(info)
        return
    cap_text = "no cap" if info.cap is None else f"cap {info.cap}"
    closes_text = f", closes {info.closes_at:%Y-%m-%d %H:%M} UTC" if info.closes_at else ""
    say(f"registration for {event} is {'open' if info.open else 'closed'}: {cap_text}{closes_text}, "
        f"{f'a waitlist of at most {info.waitlist_bound}' if info.waitlist else 'no waitlist'}; "
        f"{info.registered} registered, {info.checked_in} checked in")
    for w in info.waiting:
        # the id only in the command that takes it: the name, told apart from a namesake's, says who (T-235)
        came = "checked in" if w.checked_in else f"to check in: tournament checkin {event} {w.player}"
        out.print(f"waiting {w.place}. {w.name}; {came}", markup=False, highlight=False)


@app.command(rich_help_panel=PANEL)
def checkin(
    event: EventArg,
    players: Annotated[list[str], typer.Argument(help="The players' ids (or of people on the waitlist).", metavar="PLAYER...")],
    paid_by: Annotated[str | None, typer.Option("--paid", help="They paid the entry fee at the desk too: cash or card.")] = None,
    amount: AmountOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check players in before round 1 (all or none; a second check-in is refused, exit 7); `--paid`: and their fee."""
    from tournament.service import fees

    if amount is not None and paid_by is None:
        fail("--amount is what they paid: give --paid cash or --paid card with it", 2)
    with transaction(db) as session:
        for player in players:
            service.check_in(session, event, player)
            if paid_by is not None:
                fees.mark_paid(session, event, player, paid_by, amount)
        info, names = service.registration(session, event), service.display_names(session, event, waiting=True)
    if as_json:
        emit_json(info)
    else:
        say(f"checked in: {', '.join(names.get(p, p) for p in players)}; {info.checked_in} of {info.registered} players checked in")


@app.command(rich_help_panel=PANEL)
def absent(event: EventArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Before round 1 (T-96): drop every player not checked in, and give their places to the waitlist's checked-in."""
    from schemas.tournament import LeftOut

    with transaction(db) as session:
        dropped, promoted = service.leave_out_absent(session, event)
        names = service.display_names(session, event, waiting=True)
    if as_json:
        emit_json(LeftOut(dropped, promoted))
    else:
        say(f"left out of round 1 (not checked in): {', '.join(names.get(p, p) for p in dropped) or 'nobody'}")
        say(f"from the waitlist: {', '.join(names.get(p, p) for p in promoted) or 'nobody'}")



@app.command(rich_help_panel=PANEL)
def fee(
    event: EventArg,
    currency: Annotated[str, typer.Option("--currency", help="ISO 4217 letters: EUR, USD, GBP, JPY.")],
    amount: Annotated[int, typer.Option("--amount", min=AMOUNT_RANGE[0], max=AMOUNT_RANGE[1], help="The entry fee in minor units (cents).")],
    db: DbOpt = None,
) -> None:
    """Set the event's entry fee, paid at the desk (T-215; the currency is fixed once someone has paid)."""
    from tournament.service import fees

    with transaction(db) as session:
        done = fees.set_fee(session, event, currency, amount)
        assert done.fee_currency is not None and done.fee is not None
        shown = money(done.fee, done.fee_currency)
    say(f"{event}: the entry fee is {shown}")


@app.command(rich_help_panel=PANEL)
def paid(
    event: EventArg,
    players: Annotated[list[str], typer.Argument(help="The players' ids.", metavar="PLAYER...")],
    by: MethodOpt = "cash",
    amount: AmountOpt = None,
    db: DbOpt = None,
) -> None:
    """Mark players' entries paid at the desk (all or none; a second time is refused, exit 7)."""
    from tournament.service import fees

    with transaction(db) as session:
        for player in players:
            fees.mark_paid(session, event, player, by, amount)
        left, names = fees.fees(session, event).unpaid, service.display_names(session, event)
    say(f"paid by {by}: {', '.join(names.get(p, p) for p in players)}; {left} still to pay")


@app.command(rich_help_panel=PANEL)
def unpaid(
    event: EventArg,
    player: Annotated[str, typer.Argument(help="The player's id.", metavar="PLAYER")],
    reason: Annotated[str, typer.Option("--reason", help="Why the payment is taken back (kept in the log).")],
    db: DbOpt = None,
) -> None:
    """Take back a payment marked by mistake, or money handed back."""
    from tournament.service import fees

    with transaction(db) as session:
        fees.undo_paid(session, event, player, reason)
    say(f"{player}: not paid ({reason})")


@app.command(rich_help_panel=PANEL)
def fees(event: EventArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Who has paid the entry fee and who has not (the unpaid first), and the total taken."""
    from tournament.output import seasons as fee_text
    from tournament.service import fees as fee_service

    with reading(db) as session:
        info = fee_service.fees(session, event)
    if as_json:
        emit_json(info)
        return
    if info.currency is None or info.fee is None:
        say(f"{event} has no entry fee (tournament fee {event} --currency EUR --amount 500)")
        return
    header, cells = fee_text.fee_cells(info)
    out.print(render.to_rich(f"{event}: entry fee {money(info.fee, info.currency)}", header, cells, width=out.width))
    say(f"{info.paid} paid, {money(info.total, info.currency)} taken; {info.unpaid} still to pay")
