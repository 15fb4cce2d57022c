"""A judge's view: one self-contained HTML page that replays a log step by step.

The engine judges the log first. The records it accepted are then replayed
once more, and the state after each is drawn by the game's own template
(`referee/rulesets/<game>/view.html.j2`, reading `Ruleset.view`); the core
draws the page around it: the record list, the slider, and the verdict with
the rule's own text from the game's RULES.md. Every state is drawn into a
hidden section, so the page needs no server, works offline, and prints.
"""

from __future__ import annotations

import base64
import importlib.resources
import itertools
import json
import re
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import msgspec
from markupsafe import Markup

from referee.engine import Replay, judge, start
from referee.inputs import lines as bounded_lines
from referee.linecheck import DECODE_ERRORS
from referee.logio import record_decoder, strip_ending
from referee.pages import game_view, render
from referee.ruleset import Ruleset
from referee.takeback import OWN
from schemas.log import Reveal

RAW_SHOWN = 400  # characters of a line shown when it cannot be read as a record
UNJUDGED_SHOWN = 200  # lines after the first failure listed, unjudged
MAX_RECORDS = 20_000  # a page draws every state; longer logs are not a table a judge pages through

_RULE_ITEM = re.compile(r"^- \*\*([A-Z]{2,}-[0-9][0-9A-Za-z.]*)\*\*\s*(.*)$")
_RULE_HEADING = re.compile(r"^#+\s+([A-Z]{2,}-[0-9]+)\s+(.*)$")
_EMPHASIS = re.compile(r"\*\*?([^*]+)\*\*?")  # **bold** and *italic* read as plain words


@cache
def rulebook(ruleset_id: str) -> dict[str, str]:
    """Every numbered rule of a game's RULES.md, as plain text: `- **CW-6.1** ...` items and `## CW-6 ...` headings."""
    package = f"referee.rulesets.{ruleset_id.replace('-', '_')}"
    try:
        text = importlib.resources.files(package).joinpath("RULES.md").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    rules: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        if heading := _RULE_HEADING.match(line):
            rules[heading[1]], current = heading[2], None
        elif item := _RULE_ITEM.match(line):
            current = item[1]
            rules[current] = item[2]
        elif current and line[:1].isspace() and line.strip():
            rules[current] += " " + line.strip()  # the item's wrapped lines
        else:
            current = None
    return {rule: _EMPHASIS.sub(r"\1", text) for rule, text in rules.items()}


def rule_text(ruleset_id: str | None, rule: str | None) -> list[tuple[str, bool]] | None:
    """The rule's text as (text, is_code) pieces, split at `backticks`; None when the rulebook lacks it."""
    if not ruleset_id or not rule:
        return None
    text = rulebook(ruleset_id).get(rule)
    if text is None:
        return None
    return [(piece, i % 2 == 1) for i, piece in enumerate(re.split(r"`([^`]*)`", text)) if piece]


@dataclass
class Step:
    """One stop of the slider: the header (seq 0) or a record, and the state drawn for it."""

    seq: int
    line: int
    state: int | None  # index into the drawn states; a failing record shows the state it was made in
    by: str = ""
    type: str = ""
    fields: dict[str, Any] = field(default_factory=dict)
    note: str | None = None
    raw: str | None = None  # the line as text when it could not be read as a record
    failed: bool = False


def _raw(line: bytes) -> str:
    text = line.decode("utf-8", "replace")
    return text if len(text) <= RAW_SHOWN else text[:RAW_SHOWN] + "…"


def _record_step(record: Any, line: int, state: int | None, failed: bool = False) -> Step:
    data = msgspec.to_builtins(record)
    fields = {k: v for k, v in data.items() if k not in ("seq", "by", "type", "prev", "at", "note")}
    return Step(record.seq, line, state, data["by"], data["type"], fields, data.get("note"), failed=failed)


def _drawn(ruleset: Ruleset, state: Any, seq: int) -> dict[str, Any]:
    result = ruleset.result(state)
    return {
        "seq": seq,
        "view": ruleset.view(state),
        "to_act": list(ruleset.to_act(state)),
        "result": msgspec.to_builtins(result) if result is not None else None,
    }


Draw = Callable[[int, dict[str, Any], dict[str, Any]], None]


def replay_steps(lines: list[bytes], replay: Replay, draw: Draw) -> list[Step]:
    """The steps of a judged log; `draw(i, state, setup)` gets the i-th state, in order, and the setup as data.

    State 0 is the setup, state k the game after record k. Only the records the
    engine accepted are replayed here, so nothing can fail; states are handed
    over one by one, so a long game is never held whole.
    """
    verdict = replay.verdict
    steps = [Step(0, 1, None, raw=_raw(strip_ending(lines[0])) if lines else "")]
    failed_at = verdict.error.line if verdict.error is not None else None
    if failed_at == 1 or not lines:
        steps[0].failed = True
        return steps
    header, ruleset, state = start(strip_ending(lines[0]))
    setup = msgspec.json.decode(header.setup)
    steps[0].raw = None
    steps[0].state = 0
    draw(0, _drawn(ruleset, state, 0), setup)
    decode = record_decoder(header.ruleset).decode
    withdrawn = replay.backs.withdrawn if replay.backs is not None else set()
    for lineno, raw in enumerate(lines[1 : 1 + verdict.records_checked], start=2):
        record = decode(strip_ending(raw))
        # the seed's reveal and the take-backs are the referee's, not the game's; a record taken back is not played
        if type(record) is not Reveal and type(record) not in OWN and record.seq not in withdrawn:
            ruleset.apply(state, record)
        steps.append(_record_step(record, lineno, len(steps)))
        draw(len(steps) - 1, _drawn(ruleset, state, record.seq), setup)
    if failed_at is not None and verdict.error is not None:
        line = strip_ending(lines[failed_at - 1])
        at = len(steps) - 1
        try:  # an illegal or tampered record reads as a record; a malformed one is shown as it is
            steps.append(_record_step(decode(line), failed_at, at, failed=True))
        except DECODE_ERRORS:
            steps.append(Step(verdict.error.seq or failed_at - 1, failed_at, at, raw=_raw(line), failed=True))
    return steps


class Packer:
    """Drawn states as one gzip'd JSON array in base64, compressed as they come.

    One state differs little from the next, so the page carries a small
    fraction of what it draws (bench/show.py: 165 KiB for 2.4 MiB of states).
    """

    def __init__(self) -> None:
        self._gzip = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: a gzip member, what DecompressionStream("gzip") reads
        self._parts = [self._gzip.compress(b"[")]
        self.count = 0

    def add(self, html: str) -> None:
        self._parts.append(self._gzip.compress((b"," if self.count else b"") + json.dumps(html).encode()))
        self.count += 1

    def done(self) -> str:
        self._parts += [self._gzip.compress(b"]"), self._gzip.flush()]
        return base64.b64encode(b"".join(self._parts)).decode("ascii")


class CannotShow(Exception):
    """The page cannot be made: `--at` names a record the log lacks, or the log is too long for one page."""


def read_lines(path: str) -> list[bytes]:
    """Every line of `path` (stdin for -), endings kept for the engine to judge; CannotShow past MAX_RECORDS."""
    stream = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115 - closed below unless stdin
    try:
        where = "stdin" if path == "-" else path
        lines = list(itertools.islice(bounded_lines(stream.read, where, what="a line of a log"), MAX_RECORDS + 2))
        if len(lines) > MAX_RECORDS + 1:
            raise CannotShow(f"{path}: more than {MAX_RECORDS} records, too many for one page (referee replay --to shows any point)")
        return lines
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _error(replay: Replay) -> dict[str, Any] | None:
    verdict = replay.verdict
    if verdict.error is None:
        return None
    error = msgspec.structs.asdict(verdict.error)  # every field, unset ones as None (to_builtins would drop them)
    error["rule_text"] = rule_text(verdict.ruleset, verdict.error.rule)
    return error


def page_context(lines: list[bytes], path: str, at: int | None = None) -> dict[str, Any]:
    """Everything show.html.j2 draws; CannotShow when `at` names no record of the log."""
    replay = judge(lines, path)
    verdict = replay.verdict
    packer = Packer()
    view = game_view(verdict.ruleset)
    kept: dict[int, Markup] = {}  # the states the page may open at: the one `at` names, and the latest

    def draw(index: int, st: dict[str, Any], setup: dict[str, Any]) -> None:
        html = Markup(render("state.html.j2", st=st, view=view, setup=setup))
        packer.add(html)
        if index - 1 != at:
            kept.pop(index - 1, None)
        kept[index] = html

    steps = replay_steps(lines, replay, draw)
    found = [i for i, step in enumerate(steps) if step.seq == at] if at is not None else [len(steps) - 1]
    if not found:
        raise CannotShow(f"{path}: record {at} is not among the {steps[-1].seq} records that could be read")
    start_at = found[0]  # default: the failing record, or the end of the game
    shown = steps[start_at].state
    last_line = steps[-1].line
    unjudged = lines[last_line : last_line + UNJUDGED_SHOWN]
    return {
        "path": path,
        "first_state": kept.get(shown) if shown is not None else None,
        "packed_states": packer.done(),
        "verdict": msgspec.to_builtins(verdict),
        "error": _error(replay),
        "players": replay.header.players if replay.header else [],
        "steps": steps,
        "start": start_at,
        "unjudged": [(n, _raw(strip_ending(raw))) for n, raw in enumerate(unjudged, start=last_line + 1)],
        "unjudged_more": max(0, len(lines) - last_line - UNJUDGED_SHOWN),
    }


def show_page(lines: list[bytes], path: str, at: int | None = None) -> str:
    """The judge's view of a log as one HTML document."""
    return render("show.html.j2", **page_context(lines, path, at))


DISPUTE_RECORDS = 60  # records of each branch listed from the parting one


def _kept(lines: list[bytes], replay: Replay, wanted: set[int]) -> tuple[list[Step], dict[int, dict[str, Any]]]:
    """The steps of a log, and the states whose index is in `wanted` (with the setup, for drawing)."""
    kept: dict[int, dict[str, Any]] = {}

    def draw(index: int, st: dict[str, Any], setup: dict[str, Any]) -> None:
        if index in wanted:
            kept[index] = {**st, "setup": setup}

    return replay_steps(lines, replay, draw), kept


def _branch(path: str, lines: list[bytes], branch: dict[str, Any], parted_seq: int) -> dict[str, Any]:
    """One version of the game from the parting record: its records, its verdict, and the table after its record."""
    replay = judge(lines, path)
    steps, kept = _kept(lines, replay, {parted_seq})
    listed = [s for s in steps if s.seq >= parted_seq][:DISPUTE_RECORDS]
    return {
        "path": path,
        "judgement": branch["judgement"],
        "verdict": msgspec.to_builtins(replay.verdict),
        "error": _error(replay),
        "steps": listed,
        "more": max(0, len(steps) - parted_seq - len(listed)),
        "after": kept.get(parted_seq) if listed and not listed[0].failed else None,
    }


def dispute_page(path_a: str, lines_a: list[bytes], path_b: str, lines_b: list[bytes]) -> str:
    """Two versions of one game side by side from the record where they part, with each one's verdict."""
    from referee.dispute import compare

    lines_a = [strip_ending(line) for line in lines_a]
    lines_b = [strip_ending(line) for line in lines_b]
    report = compare(path_a, path_b, lines_a, lines_b)
    replay = judge(lines_a, path_a)
    context: dict[str, Any] = {
        "report": report,
        "a": path_a,
        "b": path_b,
        "before": None,
        "branches": [],
        "verdict": msgspec.to_builtins(replay.verdict),
        "view": game_view(replay.verdict.ruleset),
        "error": _error(replay),
    }
    if report["parted_at"] is not None:
        seq = report["parted_at"]["seq"]
        context["before"] = _kept(lines_a, replay, {seq - 1})[1].get(seq - 1)
        context["branches"] = [
            _branch(path_a, lines_a, report["branch_a"], seq),
            _branch(path_b, lines_b, report["branch_b"], seq),
        ]
    return render("dispute.html.j2", **context)
