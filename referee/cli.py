"""The `referee` command: validate, replay, legal, grid, dispute, show, play, append, rulesets, schema, deck.

Results go to stdout; errors and progress to stderr. Exit codes: 0 complete or
ongoing, 1 illegal, 2 usage error, 3 malformed, 4 tampered.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import msgspec
import typer

from referee import console
from referee.console import INT64_MAX, emit_json, err, out
from referee.deck_cli import app as deck_app
from referee.engine import LEGAL_COUNTED, Replay, advance, judge, judge_file, legal_listing
from referee.inputs import LINE_LIMIT, read_stream
from referee.linecheck import DECODE_ERRORS, Malformed, explain, repeated_key
from referee.logio import ENCODER, line_hash, record_decoder, strip_ending
from referee.rejudge_cli import rejudge as rejudge_cmd
from referee.ruleset import Illegal
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids as ruleset_ids
from schemas.log import PLAYER_ID
from schemas.verdict import EXIT_CODES, EXIT_USAGE, Verdict


class DrawsMode(StrEnum):
    """How `play` records the draws: each naming its card, or unnamed where the game allows."""

    named = "named"
    unnamed = "unnamed"

app = typer.Typer(
    name="referee",
    help="Judge game logs: replay them, check every record against the rules, and give a verdict.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=console.UnixGroup,
)

app.add_typer(deck_app, name="deck")
app.command("rejudge")(rejudge_cmd)

DISPUTE_PART = 1  # as diff and cmp: 0 the same, 1 different, 2 trouble
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
LogArg = Annotated[str, typer.Argument(help="A referee-log/1 file; - reads stdin.", metavar="LOG")]


@app.callback()
def _everywhere(version: Annotated[bool, console.version_option("referee")] = False) -> None:
    """Judge game logs: replay them, check every record against the rules, and give a verdict."""


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """A one-line `referee: ...` error on stderr, then exit with `code`."""
    console.fail("referee", message, code)


def _unreadable(path: str | Path) -> str | None:
    """Why `path` cannot be read as a log, or None (a pipe, like bash's `<(...)`, is readable)."""
    if str(path) == "-":
        return None
    if Path(path).is_dir():
        return f"{path}: is a directory, not a log"
    return None if Path(path).exists() else f"{path}: no such file"


def _readable(path: str | Path) -> None:
    if problem := _unreadable(path):
        fail(problem)


def _judge(path: str, upto: int | None = None) -> Replay:
    """Judge one log, turning an unreadable file into a usage error."""
    _readable(path)
    try:
        if upto is None:
            return judge_file(path)
        if path == "-":
            return judge(sys.stdin.buffer, "-", upto=upto)
        with open(path, "rb") as stream:
            return judge(stream, path, upto=upto)
    except OSError as exc:
        fail(f"{path}: {exc.strerror}")


def describe_verdict(v: Verdict) -> str:
    """A verdict as a few lines of text."""
    where = f"{v.path}: " if v.path else ""
    game = f"{v.ruleset} {v.game}" if v.game else (v.ruleset or "log")
    if v.error is None:
        unnamed = f"; {v.unnamed_draws} draw{'s' if v.unnamed_draws != 1 else ''} unnamed" if v.unnamed_draws else ""
        line = f"{where}{game}: {v.verdict}{unnamed}, {v.records_checked} records checked, chain {v.chain}"
        if v.result:
            winners = ", ".join(v.result.winners) or "nobody (a draw)"
            line += f"\n  result: {winners} won ({v.result.reason}); placements " + ", ".join(
                f"{p} {n}" for p, n in v.result.placements.items()
            )
        elif v.to_act:
            line += f"\n  to act: {', '.join(v.to_act)}"
        if v.unchecked:
            line += f"\n  {v.unchecked} records could not be checked"
        return line
    e = v.error
    label = e.rule or (f"field {e.field}" if e.field else v.verdict)
    record = f"record {e.seq} (line {e.line})" if e.seq else f"line {e.line}"
    lines = [f"{where}{game}: {v.verdict} at {record}: {label}", f"  {e.message}"]
    if v.to_act:
        lines.append(f"  to act: {', '.join(v.to_act)}")
    if e.legal is not None:
        if e.legal:
            lines.append("  legal instead:")
        else:
            lines.append("  legal instead: nothing: the game is over" if not v.to_act else "  legal instead: only concede or a judge record")
        lines += [f"    {json.dumps(r, separators=(',', ':'))}" for r in e.legal]
        if e.legal_more:
            lines.append(f"    ... and {more_text(e.legal_more)} more")
    return "\n".join(lines)


def more_text(more: int) -> str:
    """How many further legal records there are, in words (the count stops at LEGAL_COUNTED)."""
    return f"{more} or" if more >= LEGAL_COUNTED else str(more)


@app.command()
def validate(
    logs: Annotated[list[str], typer.Argument(help="Log files; - reads stdin.", metavar="LOG...")],
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=1024, help="Worker processes.")] = 1,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print only the logs that are not legal (with --json: always an array).")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Judge logs: the first record that broke a rule, or that the game is legal and its result."""
    for path in logs:
        _readable(path)
    if logs.count("-") > 1:
        fail("stdin (-) can be read only once")
    from collections import Counter

    from referee.validate import as_json as json_bytes
    from referee.validate import judge_many

    counts: Counter[str] = Counter()
    single = len(logs) == 1 and not quiet  # one log: one JSON object; otherwise an array
    write = sys.stdout.buffer.write
    with _progress(len(logs) if len(logs) > 1 and err.is_terminal else 0) as advance:
        separator = b"" if single or not as_json else b"["
        try:
            for judged in judge_many(logs, jobs, json_bytes if as_json else _text):
                counts[judged.kind] += 1
                advance()
                if quiet and not judged.failed:
                    continue
                write(separator + judged.output)
                if as_json and not single:
                    separator = b","
        finally:  # a log past its bound stops the run (exit 9); the array of those judged before it still closes
            if as_json:
                write(b"\n" if single else (b"[]\n" if separator == b"[" else b"]\n"))
    if not as_json and len(logs) > 1 and not quiet:
        from rich.table import Table

        sys.stdout.flush()
        summary = Table(title="summary")
        summary.add_column("verdict")
        summary.add_column("logs", justify="right")
        for kind in EXIT_CODES:
            if counts[kind]:
                summary.add_row(kind, str(counts[kind]))
        out.print(summary)
    raise typer.Exit(max((EXIT_CODES[kind] for kind in counts), default=0))


@contextmanager
def _progress(total: int) -> Iterator[Callable[[], None]]:
    """A bar on stderr advanced once per log; with `total` 0, nothing (and rich.progress is not imported)."""
    if not total:
        yield lambda: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("validating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err.made(), transient=True) as progress:
        task = progress.add_task("logs", total=total)
        yield lambda: progress.advance(task)


def _text(verdict: Verdict) -> bytes:
    """A verdict as text lines, for `validate` (a worker renders it)."""
    return (describe_verdict(verdict) + "\n").encode()


def _at_point(path: str, seq: int | None) -> Replay:
    """The replay of `path` up to record `seq` (or the end); fails when the log breaks before it."""
    replay = _judge(path, seq)
    verdict = replay.verdict
    if verdict.error is not None:
        err.print(describe_verdict(verdict), markup=False)
        raise typer.Exit(EXIT_CODES[verdict.verdict])
    if seq is not None and replay.last_seq < seq:
        fail(f"{path}: the log has only {replay.last_seq} records, not {seq}")
    return replay


@app.command()
def replay(
    log: LogArg,
    to: Annotated[int | None, typer.Option("--to", min=0, max=INT64_MAX, help="Stop after this record.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """The state of the game after record SEQ (default: the last record)."""
    replay = _at_point(log, to)
    assert replay.ruleset is not None
    if as_json:
        emit_json({"seq": replay.last_seq, "to_act": replay.verdict.to_act, "state": replay.ruleset.describe(replay.state)})
    else:
        out.print(f"after record {replay.last_seq}:", markup=False)
        out.print(replay.ruleset.render(replay.state), markup=False)
        if replay.verdict.to_act:
            out.print(f"to act: {', '.join(replay.verdict.to_act)}", markup=False)


@app.command()
def legal(
    log: LogArg,
    at: Annotated[int | None, typer.Option("--at", min=0, max=INT64_MAX, help="After this record (default: the last).")] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=INT64_MAX, help="List at most this many records.")] = 50,
    as_json: JsonOpt = False,
) -> None:
    """The records that would be legal next (concede and judge records are always allowed)."""
    replay = _at_point(log, at)
    assert replay.ruleset is not None
    shown, more = legal_listing(replay.ruleset, replay.state, limit)
    if as_json:
        emit_json({"seq": replay.last_seq, "to_act": replay.verdict.to_act, "legal": shown, "more": more})
        return
    out.print(f"after record {replay.last_seq}, to act: {', '.join(replay.verdict.to_act) or 'nobody'}", markup=False)
    for record in shown:
        out.print(json.dumps(record, separators=(",", ":")), markup=False)
    if more:
        out.print(f"... and {more_text(more)} more (--limit)", markup=False)


@app.command()
def grid(
    log: LogArg,
    at: Annotated[int | None, typer.Option("--at", min=0, max=INT64_MAX, help="After this record (default: the last).")] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Also write the map as SVG to this file (- for stdout).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the map as JSON: seq, to_act, text and svg.")] = False,
) -> None:
    """Draw the playing area's map (the spacegrid of stccg-multiplayer) as text, and as SVG with --svg."""
    replay = _at_point(log, at)
    assert replay.ruleset is not None
    text = replay.ruleset.grid_text(replay.state)
    if text is None:
        fail(f"{replay.ruleset.id} has no map to draw")
    if as_json:
        if svg is not None:
            fail("--json and --svg do not go together: the JSON holds the SVG")
        drawing = replay.ruleset.grid_svg(replay.state)
        emit_json({"seq": replay.last_seq, "to_act": replay.verdict.to_act, "text": text, "svg": drawing})
        return
    if svg is None:
        out.print(text, markup=False)
        return
    drawing = replay.ruleset.grid_svg(replay.state) or ""
    if str(svg) != "-":
        out.print(text, markup=False)
    _write(svg, drawing.encode())


@app.command()
def dispute(
    log_a: Annotated[str, typer.Argument(metavar="LOG_A")],
    log_b: Annotated[str, typer.Argument(metavar="LOG_B")],
    as_json: JsonOpt = False,
    html: Annotated[bool, typer.Option("--html", help="Write the two versions side by side as an HTML page.")] = False,
    out_file: Annotated[Path | None, typer.Option("--out", "-o", help="With --html: the page's file (default: stdout).")] = None,
) -> None:
    """Compare two versions of one game: where they part, and each branch's verdict there.

    Exits 0 when the two record the same game, 1 when they part, 2 when a log cannot be read.
    """
    _readable(log_a)
    _readable(log_b)
    if log_a == "-" and log_b == "-":
        fail("stdin (-) can be read only once")
    from referee import dispute as dispute_mod

    if html:
        from referee.show import dispute_page

        lines_a, lines_b = _read_lines(log_a), _read_lines(log_b)
        _write_page(out_file, dispute_page(log_a, lines_a, log_b, lines_b))
        parted = dispute_mod.parting(map(strip_ending, lines_a), map(strip_ending, lines_b))
        raise typer.Exit(0 if parted is None else DISPUTE_PART)
    try:
        report = dispute_mod.compare(log_a, log_b)
    except OSError as exc:
        fail(f"{exc.filename or log_a}: {exc.strerror}")
    if as_json:
        emit_json(report)
    else:
        out.print(dispute_mod.render(report), markup=False)
    raise typer.Exit(DISPUTE_PART if report["parted_at"] else 0)


def _read_lines(path: str) -> list[bytes]:
    """Every line of a log for a page (stdin for -); an unreadable or too long file is a usage error."""
    from referee.show import CannotShow, read_lines

    try:
        return read_lines(path)
    except OSError as exc:
        fail(f"{path}: {exc.strerror}")
    except CannotShow as exc:
        fail(str(exc))


def _write(target: Path, data: bytes, size: bool = False) -> None:
    """Write `data` to `target` whole or not at all (`referee.outfile`; - is stdout), and say so on stderr."""
    from referee.outfile import is_stdout, write_file

    try:
        write_file(target, data)
    except OSError as exc:
        fail(f"{target}: {exc.strerror or exc}")
    if not is_stdout(target):
        err.print(f"wrote {target}" + (f" ({len(data) // 1024} KiB)" if size else ""), markup=False)


def _write_page(target: Path | None, page: str) -> None:
    """An HTML page to `target` (stdout for None or -)."""
    if target is None:
        sys.stdout.write(page)
        return
    _write(target, page.encode(), size=True)


@app.command()
def show(
    log: LogArg,
    out_file: Annotated[Path | None, typer.Option("--out", "-o", help="The page's file (default: LOG with .html; - for stdout).")] = None,
    at: Annotated[int | None, typer.Option("--at", min=0, max=INT64_MAX, help="Open at this record (default: the first failure, else the last).")] = None,
) -> None:
    """Write a judge's view: one self-contained HTML page replaying the game record by record."""
    from referee.show import CannotShow, show_page

    _readable(log)
    try:
        page = show_page(_read_lines(log), log, at)
    except CannotShow as exc:
        fail(str(exc))
    if out_file is None and log != "-":
        out_file = Path(log).with_suffix(".html")
    _write_page(out_file, page)


@app.command()
def play(
    ruleset: Annotated[str, typer.Argument(help="A ruleset id (see `referee rulesets`).")],
    seed: Annotated[int, typer.Option("--seed", min=-INT64_MAX - 1, max=INT64_MAX, help="Seeds the setup and every chance record.")] = 1,
    players: Annotated[int | None, typer.Option("--players", min=1, max=64, help="How many players (default: the fewest).")] = None,
    out_file: Annotated[Path | None, typer.Option("--out", help="Write the log here instead of stdout.")] = None,
    deal: Annotated[
        str | None,
        typer.Option("--deal", metavar="SEED", help="Deal every chance record from this secret seed (64 hex digits; `new` for a random one), committed in the header and revealed at the end."),
    ] = None,
    names: Annotated[
        str | None,
        typer.Option("--names", metavar="ID,ID", help="The players' ids in seat order (default: ann, bob, ...), e.g. a tournament table's."),
    ] = None,
    draws: Annotated[
        DrawsMode,
        typer.Option("--draws", help="`unnamed`: record the game as a paper table may, each draw without its card where the game allows (docs/referee.md, \"Unnamed draws\")."),
    ] = DrawsMode.named,
) -> None:
    """Bots play a whole legal game from the built-in setup; the chained log goes to stdout."""
    import re

    from referee.bots import bot_header, unnamed
    from referee.bots import play as bot_play
    from referee.dealing import new_seed
    from referee.logio import encode_lines

    if ruleset not in ruleset_ids():
        fail(f"unknown ruleset {ruleset!r} (known: {', '.join(ruleset_ids())})")
    if deal is not None and draws is DrawsMode.unnamed:
        fail("--deal and --draws unnamed: a dealt game names every card it deals (DL-4)")
    if deal == "new":
        deal = new_seed()
    elif deal is not None and not re.fullmatch(r"[0-9a-f]{64}", deal):
        fail("--deal: a seed is 64 lowercase hex digits (32 bytes), or `new`")
    seats = names.split(",") if names is not None else None
    if seats is not None:
        if not all(re.fullmatch(PLAYER_ID, seat) for seat in seats) or len(set(seats)) < len(seats):
            fail(f"--names {names!r}: different player ids ([A-Za-z0-9_.-], 1 to 64 characters), separated by commas")
        if players is not None and players != len(seats):
            fail(f"--players {players} and --names with {len(seats)} ids disagree: give one of them")
    try:
        header = bot_header(ruleset, seed, players, deal, seats)
    except ValueError as exc:
        fail(str(exc))
    try:
        records = bot_play(header, seed, deal)
        if draws is DrawsMode.unnamed:
            records = unnamed(header, list(records))
        data = b"".join(line + b"\n" for line in encode_lines(header, records))
    except Illegal as exc:  # a bot only draws legal records, so this is a bug in the ruleset
        fail(f"internal error: a {ruleset} bot drew a record that breaks {exc.rule}: {exc.message}", EXIT_CODES["illegal"])
    if out_file is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    _write(out_file, data)


@app.command()
def append(
    log: Annotated[Path, typer.Argument(help="The log to extend.", metavar="LOG")],
    record: Annotated[str, typer.Argument(help="The record as JSON (seq and prev are filled in); - reads stdin.")],
    as_json: JsonOpt = False,
) -> None:
    """Check RECORD against the game so far, then append it with its seq and prev.

    With --json, a refusal is also a JSON object on stdout: {"appended": null, "error": {...}}.
    """
    import fcntl

    def refuse(message: str, kind: str, *, field: str | None = None, rule: str | None = None, whole: Verdict | None = None) -> NoReturn:
        code = EXIT_CODES.get(kind, EXIT_USAGE)
        if as_json:
            error = {"verdict": kind, "code": code, "message": message, "field": field, "rule": rule}
            emit_json({"appended": None, "error": error, "log": msgspec.to_builtins(whole) if whole else None})
        fail(message, code)

    # bytes, not text: stdin or an argument that is not UTF-8 is a malformed record, not a crash
    text = read_stream(sys.stdin.buffer, "stdin", LINE_LIMIT, "a record") if record == "-" else record.encode("utf-8", "surrogateescape")
    try:
        data = msgspec.json.decode(text)
        key = repeated_key(text, None) if isinstance(data, dict) else None
    except DECODE_ERRORS as exc:
        bad = explain(exc, line=text)
        refuse(f"RECORD: {bad.message}", "malformed", field=bad.field)
    if not isinstance(data, dict):
        refuse("RECORD: must be a JSON object", "malformed")
    if key:
        refuse(f"RECORD: the key {key!r} appears twice", "malformed", field=key)
    if problem := _unreadable(log):
        refuse(problem, "usage")
    with open(log, "r+b") as stream:
        fcntl.flock(stream, fcntl.LOCK_EX)  # one appender at a time; the check and the write are one step
        replay = judge(stream, str(log))
        verdict = replay.verdict
        if verdict.error is not None:
            err.print(describe_verdict(verdict), markup=False)
            refuse(f"{log}: the log is {verdict.verdict}; nothing appended", verdict.verdict, whole=verdict)
        if verdict.result is not None and (replay.ledger is None or replay.ledger.revealed):  # a dealt game's reveal may follow
            refuse(f"{log}: the game is over; nothing appended", "illegal")
        assert replay.ruleset is not None and replay.header is not None and replay.last_line is not None
        seq = replay.last_seq + 1
        if data.setdefault("seq", seq) != seq:
            refuse(f"RECORD: field seq: is {data['seq']}, expected {seq}", "malformed", field="seq")
        chained = replay.last_seq == 0 or verdict.chain == "verified"
        data.pop("prev", None)
        if chained:
            data["prev"] = line_hash(replay.last_line)
        try:
            line = ENCODER.encode(data)
            parsed = record_decoder(replay.header.ruleset).decode(line)
        except (*DECODE_ERRORS, OverflowError) as exc:  # OverflowError: an integer JSON allows but no field does
            bad = explain(exc) if not isinstance(exc, OverflowError) else Malformed(str(exc))
            refuse(f"RECORD: field {bad.field or '?'}: {bad.message}", "malformed", field=bad.field)
        try:
            advance(replay, parsed, seq + 1)
        except Illegal as exc:
            refuse(f"RECORD: illegal ({exc.rule}): {exc.message}", "illegal", rule=exc.rule)
        stream.seek(0, os.SEEK_END)
        if stream.tell() > 0:
            stream.seek(-1, os.SEEK_END)
            if stream.read(1) != b"\n":
                stream.write(b"\n")
        stream.write(line + b"\n")
        stream.flush()
        os.fsync(stream.fileno())
    result = replay.ruleset.result(replay.state)
    if as_json:
        emit_json({"appended": seq, "line": seq + 1, "result": result, "to_act": list(replay.ruleset.to_act(replay.state))})
    else:
        out.print(f"appended record {seq} to {log}", markup=False)
        if result is not None:
            out.print(f"the game is over: {', '.join(result.winners) or 'a draw'} ({result.reason})", markup=False)


@app.command()
def rulesets(as_json: JsonOpt = False) -> None:
    """The games the referee knows."""
    rows: list[dict[str, Any]] = []
    for ruleset_id in ruleset_ids():
        ruleset = get_ruleset(ruleset_id)
        rows.append({"id": ruleset_id, "title": ruleset.title, "min_players": ruleset.min_players, "max_players": ruleset.max_players})
    if as_json:
        emit_json(rows)
        return
    from rich.table import Table

    table = Table(title="rulesets")
    for column in ("id", "players", "title"):
        table.add_column(column)
    for row in rows:
        players = f"{row['min_players']}" if row["min_players"] == row["max_players"] else f"{row['min_players']}-{row['max_players']}"
        table.add_row(row["id"], players, row["title"])
    out.print(table)


@app.command()
def schema(
    directory: Annotated[Path | None, typer.Option("--out", help="Where to write (default: schemas/json).")] = None,
    check: Annotated[bool, typer.Option("--check", help="Only report stale files; exit 1 if any.")] = False,
) -> None:
    """Write the JSON Schema files generated from the Structs in schemas/."""
    from referee.schemagen import SCHEMA_DIR, stale_files, write_schemas

    target = directory or SCHEMA_DIR
    if check:
        stale = stale_files(target)
        for name in stale:
            out.print(f"stale: {target / name}", markup=False)
        raise typer.Exit(1 if stale else 0)
    try:
        written = write_schemas(target)
    except OSError as exc:
        fail(f"{exc.filename or target}: {exc.strerror}")
    for name in written:
        out.print(f"wrote {target / name}", markup=False)


def main() -> None:
    """Entry point of the `referee` console script (and of `python -m referee`)."""
    app(prog_name="referee")

