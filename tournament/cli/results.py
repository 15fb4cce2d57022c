"""`tournament` commands for results: report (logs, a 2-1 score, a judge's ruling), correct, results --from, enter."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from referee.console import INT32_MAX, emit_json, err, say
from referee.inputs import LOG_LIMIT
from schemas.deck import Difference
from schemas.tournament import TableRow
from tournament.cli.common import (
    DbOpt,
    EventArg,
    JsonOpt,
    database,
    export,
    fail,
    new_session,
    read_bytes,
    read_text,
    service,
    transaction,
)
from tournament.output import render

if TYPE_CHECKING:
    from sqlalchemy import Engine

app = typer.Typer()
TableOpt = Annotated[int, typer.Option("--table", "-t", min=1, max=INT32_MAX, help="The table number.")]
LogsOpt = Annotated[list[Path] | None, typer.Option("--log", help="A game's referee log; repeat once per game, in order.")]
DrawsOpt = Annotated[int, typer.Option("--draws", min=0, max=INT32_MAX, help="Drawn games, with --result.")]
RoundOpt = Annotated[int | None, typer.Option("--round", min=1, max=INT32_MAX, help="The round (default: the current one).")]
SOURCES = {"judge": "a judge's ruling", "slip": "slip", "players": "confirmed by the players", "drop": "a drop"}


@app.command(rich_help_panel="Results")
def report(
    event: EventArg,
    table: TableOpt,
    score: Annotated[
        str | None,
        typer.Argument(
            help="The result as the slip says: the first player's games first, as the pairing lists them (2-1; 1-1-1 "
            "with a drawn game); a pod: each seat's place in seat order (1-3-2-4).",
            metavar="[SCORE]",
        ),
    ] = None,
    logs: LogsOpt = None,
    result: Annotated[
        str | None, typer.Option("--result", help="Games won by each player, like ann=2,bob=1 (a pod: places, like ann=1,bob=2).")
    ] = None,
    draws: DrawsOpt = 0,
    draw: Annotated[bool, typer.Option("--draw", help="An intentional draw (0-0, no game played).")] = False,
    judge: Annotated[bool, typer.Option("--judge", help="A judge's ruling (needs --reason; any --reason also marks one).")] = False,
    reason: Annotated[str | None, typer.Option("--reason", help="Why a judge rules this result (kept in the log).")] = None,
    round_number: RoundOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Report a table's result: the games' logs (checked by the referee), the slip's score, or a judge's ruling."""
    _record(event, table, logs or [], score, result, draws, draw, reason, judge, round_number, db, as_json, correction=False)


@app.command(rich_help_panel="Results")
def correct(
    event: EventArg,
    table: TableOpt,
    reason: Annotated[str, typer.Option("--reason", help="Why the result changes (kept in the event log).")],
    score: Annotated[str | None, typer.Argument(help="The corrected score, as for `report`.", metavar="[SCORE]")] = None,
    logs: LogsOpt = None,
    result: Annotated[
        str | None, typer.Option("--result", help="The corrected result: games won, like ann=2,bob=1 (a pod: places).")
    ] = None,
    draws: DrawsOpt = 0,
    round_number: RoundOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A judge changes a reported result, with a reason."""
    _record(event, table, logs or [], score, result, draws, False, reason, True, round_number, db, as_json, correction=True)


def _record(
    event: str, table: int, logs: list[Path], score: str | None, result: str | None, draws: int, draw: bool,
    reason: str | None, judge: bool, round_number: int | None, db: str | None, as_json: bool, *, correction: bool,
) -> None:
    """Shared by report and correct: read the files, then one transaction."""
    if sum((bool(logs), score is not None, result is not None, draw)) > 1:
        fail("give one of: --log files, a SCORE, --result or --draw")
    contents = []
    for path in logs:
        contents.append((str(path), read_bytes(path, LOG_LIMIT, "a log")))
    if draws and result is None:
        fail("--draws goes with --result (a score says its drawn games: 1-1-1)")
    try:
        tally = service.parse_result(result, draws) if result is not None else None
    except service.Usage as exc:
        fail(exc.message, exc.code)
    with transaction(db) as session:
        found = service.get_event(session, event)
        if found.format == "pods":
            if draws or draw:
                fail("a pod has no drawn games: give each player's place (equal places share)")
            places = tally.games if tally else None
            if score is not None:
                places = service.score_places(service.find_pod(session, found, table, round_number)[1], score)
            pod = service.report_pod(
                session, event, table, round_number=round_number, logs=contents, places=places,
                reason=reason, correction=correction, judge=judge,
            )
            row, changed = export.pod_row(pod.pod, pod.seats, service.display_names(session, event)), pod.changed
            text, refused = render.places_text(row), pod.differences
        else:
            if score is not None or draw:
                match = service.find_match(session, found, table, round_number)
                tally = service.score_tally(match, "0-0" if draw else score or "")
            done = service.report(
                session, event, table, round_number=round_number, logs=contents, result=tally, reason=reason,
                correction=correction, judge=judge,
            )
            row, changed = export.table_row(session, done.match), done.changed
            text, refused = table_text(row), done.differences
    if refused:  # logged and committed: the table waits in the judge queue
        _refused(event, row, refused, as_json)
    _said(event, row, changed, correction, as_json, text)


def _refused(event: str, row: TableRow, found: dict[str, list[Difference]], as_json: bool) -> NoReturn:
    """The logs were refused for their decks: the differences card by card, then exit 6."""
    if as_json:
        emit_json({"event": event, "changed": False, "table": row, "deck_differences": found})
    else:
        for line in service.difference_lines(found):
            err.print(f"  {line}", markup=False)
    fail(
        f"table {row.table} of round {row.round}: the decks in the logs are not the registered lists "
        f"({', '.join(sorted(found))}); the table waits for a judge (`tournament deck-ruling`)",
        service.EXIT_LOG_REJECTED,
    )


def table_text(row: TableRow) -> str:
    """`José Ramírez 2-1 Ann Lee`, `... ID ...` for an intentional draw."""
    a, b = render.shown_names(row)
    return f"{a} {render.result_text(row)} {b}"


def _said(event: str, row: TableRow, changed: bool, correction: bool, as_json: bool, text: str) -> None:
    """What report and correct print: the table's new result, or that nothing changed."""
    if as_json:
        emit_json({"event": event, "changed": changed, "table": row})
        return
    if not changed:
        say(f"table {row.table} of round {row.round} already has this result ({text}); nothing changed")
    else:
        verb = "corrected" if correction else "reported"
        source = f"{len(row.logs)} game log(s) checked by the referee" if row.source == "log" else SOURCES.get(row.source or "", "")
        say(f"{verb} table {row.table} of round {row.round}: {text} ({source})")


@app.command(rich_help_panel="Results")
def results(
    event: EventArg,
    source: Annotated[Path, typer.Option("--from", help="A CSV file: table,result per line (2-1, 1-1-1, 0-0; a pod: 1-3-2-4).")],
    round_number: RoundOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Enter a whole round's slips from a file in one transaction: every row or none (a bad row is named)."""
    rows = _rows(source)
    with transaction(db) as session:
        added = service.import_results(session, event, rows, round_number)
        remaining = service.open_tables(session, event)
        number = service.get_event(session, event).rounds if round_number is None else round_number
    if as_json:
        emit_json({"event": event, "round": number, "rows": len(rows), "entered": added, "open_tables": remaining})
        return
    same = f", {len(rows) - added} already there" if added < len(rows) else ""
    still = f"; tables still open: {', '.join(map(str, remaining))}" if remaining else "; every table has a result"
    say(f"entered {added} result(s) from {source} into round {number}{same}{still}")


def _rows(source: Path) -> list[service.ResultRow]:
    try:
        return service.results_from_csv(read_text(source), str(source))
    except service.Usage as exc:
        fail(exc.message, exc.code)


@app.command(rich_help_panel="Results")
def enter(event: EventArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Ask table by table for the current round's results still missing: 2-1, 1-1-1, id (an intentional draw);
    a pod's places in seat order (1-3-2-4). Enter skips a table, q stops. Each answer is saved at once."""
    with database(db) as (_url, engine):
        with new_session(engine) as session:
            found = service.get_event(session, event)
            rows = [r for r in export.round_rows(session, found, found.rounds) if r.games is None and r.places is None]
        entered = 0
        for row in rows:
            answer = _ask_until_saved(engine, event, found.format == "pods", row)
            if answer is None:
                break
            entered += answer
        with new_session(engine) as session:
            remaining = service.open_tables(session, event)
    if as_json:
        emit_json({"event": event, "round": found.rounds, "entered": entered, "open_tables": remaining})
        return
    left = f"tables still open: {', '.join(map(str, remaining))}" if remaining else "every table has a result"
    say(f"entered {entered} result(s) in round {found.rounds}; {left}")


def _ask_until_saved(engine: Engine, event: str, pods: bool, row: TableRow) -> int | None:
    """One table's prompt until it is saved (1), skipped (0), or the scorekeeper stops (None)."""
    names = render.shown_names(row)
    seats = " | ".join(names) + "  (places in seat order)" if pods else f"{names[0]} vs {names[1]}"
    while True:
        try:
            answer = input(f"table {row.table}: {seats} > ").strip()
        except EOFError:
            return None
        if answer.lower() in ("q", "quit"):
            return None
        if not answer:
            return 0
        try:
            with new_session(engine) as session, session.begin():
                if pods:
                    _pod, seated = service.find_pod(session, service.get_event(session, event), row.table, row.round)
                    service.report_pod(session, event, row.table, round_number=row.round, places=service.score_places(seated, answer))
                else:
                    match = service.find_match(session, service.get_event(session, event), row.table, row.round)
                    score = "0-0" if answer.lower() == "id" else answer
                    service.report(session, event, row.table, round_number=row.round, result=service.score_tally(match, score))
        except service.TournamentError as exc:
            err.print(f"  {exc.message} (Enter skips the table, q stops)", markup=False)
            continue
        return 1
