"""`referee deck check` and `referee deck show`: a deck judged on its own, and a player's deck taken out of a game log.

Exit codes as `validate`'s: 0 legal (or a game with a fixed deck), 1 illegal,
2 usage error, 3 malformed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import msgspec
import typer

from referee import console
from referee.console import emit_json, out
from referee.decks import LIST_LIMIT, DeckMalformed, encode_json, judge, rules_of, write_text
from referee.inputs import lines
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids as ruleset_ids
from schemas.deck import DECK_EXIT_CODES, DeckVerdict
from schemas.verdict import EXIT_CODES, EXIT_USAGE

app = typer.Typer(
    name="deck",
    help="Decks on their own: judge a deck list, or print a player's deck from a game log.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=console.UnixGroup,
)


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    console.fail("referee", message, code)


def named(path: str, what: str) -> None:
    """A usage error for a path that is missing or a folder; a pipe (`<(...)`) or a device is read as a file is,
    with its bound, as every other `referee` command reads it (T-161)."""
    if path != "-" and Path(path).is_dir():
        fail(f"{path}: is a directory, not {what}")
    if path != "-" and not Path(path).exists():
        fail(f"{path}: no such file")


def read_limited(path: str) -> bytes:
    """The file's bytes (stdin for -), one byte past LIST_LIMIT at most, so a huge file is refused unread."""
    named(path, "a deck")
    try:
        if path == "-":
            return sys.stdin.buffer.read(LIST_LIMIT + 1)
        with open(path, "rb") as stream:
            return stream.read(LIST_LIMIT + 1)
    except OSError as exc:
        fail(f"{path}: {exc.strerror}")


@app.command()
def check(
    file: Annotated[str, typer.Argument(help="A deck: a text list, or one player's deck as JSON; - reads stdin.", metavar="FILE")],
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="The game the deck is for (see `referee rulesets`).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Judge a deck by the game's deck rules: legal (0), illegal (1: every rule it breaks), malformed (3)."""
    if ruleset not in ruleset_ids():
        fail(f"unknown ruleset {ruleset!r} (known: {', '.join(ruleset_ids())})")
    verdict = judge(get_ruleset(ruleset), read_limited(file), file)
    if as_json:
        emit_json(verdict)
    if verdict.error is not None:
        error = DeckMalformed(verdict.error.message, verdict.error.line, verdict.error.field)
        fail(error.where("stdin" if file == "-" else file), EXIT_CODES["malformed"])
    if not as_json:
        out.print(describe(verdict), markup=False)
    raise typer.Exit(DECK_EXIT_CODES[verdict.verdict])


def describe(verdict: DeckVerdict) -> str:
    """A deck verdict as a few lines of text (not a malformed one: its error is one line on stderr)."""
    where = f"{verdict.path}: " if verdict.path and verdict.path != "-" else ""
    if verdict.verdict == "fixed":
        return f"{where}{verdict.ruleset} is played with {verdict.fixed}: no deck list is needed"
    lines = [f"{where}{verdict.verdict} {verdict.ruleset} deck: {verdict.summary}"]
    lines += [f"  {p.rule}{f' ({p.card})' if p.card else ''}: {p.message}" for p in verdict.problems]
    return "\n".join(lines)


@app.command()
def show(
    log: Annotated[str, typer.Argument(help="A referee-log/1 file; - reads stdin.", metavar="LOG")],
    player: Annotated[str, typer.Argument(help="The player whose deck to print.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the deck as JSON, in the shape the log's setup has it.")] = False,
    as_text: Annotated[bool, typer.Option("--text", help="Print the deck as a text list (the default).")] = False,
) -> None:
    """Print the deck PLAYER brought to a game, as a list `referee deck check` reads back."""
    from referee.engine import read_header
    from referee.linecheck import Malformed
    from referee.logio import strip_ending

    if as_json and as_text:
        fail("--json and --text do not go together")
    named(log, "a log")
    try:
        stream = sys.stdin.buffer if log == "-" else open(log, "rb")  # noqa: SIM115 - closed below unless stdin
        try:
            first = next(lines(stream.read, "stdin" if log == "-" else log, what="a line of a log"), b"")
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
    except OSError as exc:
        fail(f"{log}: {exc.strerror}")
    try:
        header, ruleset, setup = read_header(strip_ending(first))
    except Malformed as exc:
        fail(DeckMalformed(exc.message, 1, exc.field).where("stdin" if log == "-" else log), EXIT_CODES["malformed"])
    try:
        rules = rules_of(ruleset)
    except ValueError as exc:
        fail(f"{log}: {exc}")
    if player not in header.players:
        fail(f"{log}: {player!r} is not a player of this game (players: {', '.join(header.players)})")
    try:
        deck = rules.deck_of(setup, player)
    except KeyError:
        fail(f"{log}: the setup gives {player} no deck", EXIT_CODES["illegal"])
    if as_json:
        sys.stdout.buffer.write(msgspec.json.format(encode_json(deck), indent=2) + b"\n")
        return
    try:
        text = write_text(rules, deck)
    except ValueError as exc:
        fail(f"{log}: {exc}")
    sys.stdout.write(text)
