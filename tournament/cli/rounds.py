"""`tournament` commands for rounds: pair (again), unpair, swap, the clock (round start, extend, clock)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Annotated

import typer

from referee.console import INT32_MAX, emit_json, say
from tournament.cli.common import (
    DbOpt,
    EventArg,
    JsonOpt,
    OutOpt,
    export,
    fail,
    reading,
    service,
    show_round,
    transaction,
    write_text,
)
from tournament.output import printables, render

app = typer.Typer()
round_app = typer.Typer(help="The round clock: `round start`.", no_args_is_help=True)
app.add_typer(round_app, name="round", rich_help_panel="Rounds and the clock")
ReasonOpt = Annotated[str | None, typer.Option("--reason", help="Why (kept in the event log).")]


@app.command(rich_help_panel="Rounds and the clock")
def pair(
    event: EventArg,
    reseed: Annotated[
        bool, typer.Option("--reseed", help="Pair with a new random seed (kept in the round's log entry) instead of the event's.")
    ] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Pair the next round (refused while the current round has tables without a result)."""
    seed = random.SystemRandom().getrandbits(32) if reseed else None
    with transaction(db) as session:
        view = export.pairings_view(session, event, service.pair(session, event, seed).number)
    show_round(view.round, "json" if as_json else "table", None, view.event)


@app.command(rich_help_panel="Rounds and the clock")
def unpair(event: EventArg, reason: ReasonOpt = None, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Take back the current round while none of its tables has a result; `pair` then pairs it again."""
    with transaction(db) as session:
        number = service.unpair(session, event, reason)
    if as_json:
        emit_json({"event": event, "unpaired": number})
    else:
        say(f"round {number} of {event} is taken back; `tournament pair {event}` pairs it again (--reseed for another pairing)")


@app.command(rich_help_panel="Rounds and the clock")
def swap(
    event: EventArg,
    player_a: Annotated[str, typer.Argument(metavar="PLAYER_A", help="A player id.")],
    player_b: Annotated[str, typer.Argument(metavar="PLAYER_B", help="The other player id.")],
    reason: Annotated[str, typer.Option("--reason", help="Why the judge swaps them (kept in the event log).")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A judge exchanges two players' seats in the current round, before either table has a result."""
    with transaction(db) as session:
        number = service.swap(session, event, player_a, player_b, reason)
        view = export.pairings_view(session, event, number)
    if as_json:
        emit_json({"event": event, "round": number, "swapped": [player_a, player_b], "pairings": view.round})
    else:
        say(f"swapped {player_a} and {player_b} in round {number}")
        show_round(view.round, "table", None, view.event)


@round_app.command("start")
def round_start(
    event: EventArg,
    minutes: Annotated[
        int | None, typer.Option("--minutes", "-m", min=1, max=INT32_MAX, help="The round's length (default: 50, a Swiss round of Magic).")
    ] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Start the current round's clock now."""
    minutes = service.DEFAULT_MINUTES if minutes is None else minutes
    with transaction(db) as session:
        paired = service.start_round(session, event, minutes)
        number = paired.number
        ends = service.round_ends(session, event, number)
    assert ends is not None
    if as_json:
        emit_json({"event": event, "round": number, "minutes": minutes, "ends_at": ends})
    else:
        say(f"round {number} of {event} started: {minutes} minutes, time is up at {render.clock_text(ends)}")


@app.command(rich_help_panel="Rounds and the clock")
def extend(
    event: EventArg,
    table: Annotated[int, typer.Option("--table", "-t", min=1, max=INT32_MAX, help="The table number.")],
    minutes: Annotated[int, typer.Option("--minutes", "-m", min=1, max=INT32_MAX, help="Extra minutes (they add up).")],
    reason: ReasonOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A judge gives a table of the current round extra time (a judge's record, kept in the log)."""
    with transaction(db) as session:
        ends = service.extend(session, event, table, minutes, reason)
    if as_json:
        emit_json({"event": event, "table": table, "minutes": minutes, "ends_at": ends})
    else:
        say(f"table {table}: {minutes} more minute(s), time is up at {render.clock_text(ends)}")


def left_text(seconds: int) -> str:
    """`12:05 left`, or `time is up (3:10 ago)`."""
    if seconds < 0:
        return f"time is up ({-seconds // 60}:{-seconds % 60:02d} ago)"
    return f"{seconds // 60}:{seconds % 60:02d} left"


@app.command(rich_help_panel="Rounds and the clock")
def clock(event: EventArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """The time left in the current round, and at each unfinished table with extra time."""
    with reading(db) as session:
        found = service.clock(session, event, datetime.now(UTC))
    if as_json:
        emit_json(found)
        return
    if found.ends_at is None or found.seconds_left is None:
        fail(f"round {found.round} of {event} has not started; `tournament round start {event}`", service.EXIT_CONFLICT)
    say(f"round {found.round}: {left_text(found.seconds_left)} (time is up at {render.clock_text(found.ends_at)})")
    for t in found.tables:
        say(f"  table {t.table}: {left_text(t.seconds_left)} (time is up at {render.clock_text(t.ends_at)})")


@app.command(rich_help_panel="Rounds and the clock")
def slips(
    event: EventArg,
    round_number: Annotated[int | None, typer.Option("--round", min=1, max=INT32_MAX, help="The round (default: the current one).")] = None,
    tokens: Annotated[
        bool, typer.Option("--tokens", help="Instead: a sign-in slip per player with a NEW one-time code, link and QR code for `tournament serve` (older codes stop working).")
    ] = False,
    url: Annotated[
        str | None, typer.Option("--url", help="With --tokens: the address players open (default: the one `serve --public-url` stored, else the one the last `serve` published; without either, required).")
    ] = None,
    target: OutOpt = None,
    db: DbOpt = None,
) -> None:
    """Match slips for a round: one printable HTML page, several slips to an A4 sheet (names, game boxes, signatures)."""
    if tokens:
        if url is not None and not url.startswith(("http://", "https://")):
            fail(f"--url must start with http:// or https://, not {url!r}")
        from tournament.web.slips import base_url, signin_slips  # QR codes: loaded only for this

        with transaction(db) as session:
            page = signin_slips(session, event, base_url(session, url))
        write_text(page, target)
        return
    with reading(db) as session:
        view = export.pairings_view(session, event, round_number)
    write_text(printables.slips_html(view.event, view.round), target)


@app.command(rich_help_panel="Rounds and the clock")
def notice(
    event: EventArg,
    text: Annotated[str, typer.Argument(metavar="TEXT", help="One line (at most 200 characters); empty takes the notice down.")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The line the big screen (`/e/EVENT/screen`) shows under the round; `""` takes it down."""
    with transaction(db) as session:
        shown = service.set_notice(session, event, text)
    if as_json:
        emit_json({"event": event, "notice": shown})
    else:
        say(f"the big screen of {event} shows: {shown}" if shown else f"the big screen of {event} shows no notice")


@app.command(rich_help_panel="Rounds and the clock")
def finish(event: EventArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """End the event once every table has a result: no more rounds or players (T-104); results may still be corrected."""
    with transaction(db) as session:
        rounds = service.finish(session, event).rounds
    if as_json:
        emit_json({"event": event, "finished": True, "rounds": rounds})
    else:
        say(f"{event} is finished after round {rounds}")
