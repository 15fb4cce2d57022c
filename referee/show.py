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
import gzip
import importlib.resources
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import msgspec
from markupsafe import Markup

from referee.engine import Replay, judge, start
from referee.logio import DECODE_ERRORS, record_decoder, strip_ending
from referee.pages import game_view, render
from referee.ruleset import Ruleset

RAW_SHOWN = 400  # characters of a line shown when it cannot be read as a record
UNJUDGED_SHOWN = 200  # lines after the first failure listed, unjudged

_RULE_ITEM = re.compile(r"^- \*\*([A-Z]{2,}-[0-9][0-9A-Za-z.]*)\*\*\s*(.*)$")
_RULE_HEADING = re.compile(r"^#+\s+([A-Z]{2,}-[0-9]+)\s+(.*)$")


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
    return {rule: text.replace("**", "") for rule, text in rules.items()}


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


def replay_steps(lines: list[bytes], replay: Replay) -> tuple[list[Step], list[dict[str, Any]], dict[str, Any]]:
    """The steps of a judged log, the state drawn after each accepted record, and the setup as data.

    Only the records the engine accepted are replayed here, so nothing can fail.
    """
    verdict = replay.verdict
    steps = [Step(0, 1, None, raw=_raw(strip_ending(lines[0])) if lines else "")]
    states: list[dict[str, Any]] = []
    setup: dict[str, Any] = {}
    failed_at = verdict.error.line if verdict.error is not None else None
    if failed_at == 1 or not lines:
        steps[0].failed = True
        return steps, states, setup
    header, ruleset, state = start(strip_ending(lines[0]))
    setup = msgspec.json.decode(header.setup)
    steps[0].raw = None
    steps[0].state = 0
    states.append(_drawn(ruleset, state, 0))
    decode = record_decoder(header.ruleset).decode
    for lineno, raw in enumerate(lines[1 : 1 + verdict.records_checked], start=2):
        record = decode(strip_ending(raw))
        ruleset.apply(state, record)
        states.append(_drawn(ruleset, state, record.seq))
        steps.append(_record_step(record, lineno, len(states) - 1))
    if failed_at is not None and verdict.error is not None:
        line = strip_ending(lines[failed_at - 1])
        at = len(states) - 1
        try:  # an illegal or tampered record reads as a record; a malformed one is shown as it is
            steps.append(_record_step(decode(line), failed_at, at, failed=True))
        except DECODE_ERRORS:
            steps.append(Step(verdict.error.seq or failed_at - 1, failed_at, at, raw=_raw(line), failed=True))
    return steps, states, setup


def pack(sections: Sequence[str]) -> str:
    """Drawn states as gzip'd JSON in base64: one state differs little from the next, so this is ~40x smaller."""
    return base64.b64encode(gzip.compress(json.dumps(sections).encode(), mtime=0)).decode("ascii")


def read_lines(path: str) -> list[bytes]:
    """Every line of `path` (stdin for -), endings kept for the engine to judge."""
    if path == "-":
        return sys.stdin.buffer.readlines()
    with open(path, "rb") as stream:
        return stream.readlines()


def _error(replay: Replay) -> dict[str, Any] | None:
    verdict = replay.verdict
    if verdict.error is None:
        return None
    error = msgspec.to_builtins(verdict.error)
    error["rule_text"] = rule_text(verdict.ruleset, verdict.error.rule)
    return error


class NoSuchRecord(Exception):
    """`--at` names a record the log does not have (or that could not be read)."""


def page_context(lines: list[bytes], path: str, at: int | None = None) -> dict[str, Any]:
    """Everything show.html.j2 draws; NoSuchRecord when `at` names no step of the log."""
    replay = judge(lines, path)
    steps, states, setup = replay_steps(lines, replay)
    if at is None:
        start_at = len(steps) - 1  # the failing record, or the end of the game
    else:
        found = [i for i, step in enumerate(steps) if step.seq == at]
        if not found:
            raise NoSuchRecord(f"{path}: record {at} is not among the {steps[-1].seq} records that could be read")
        start_at = found[0]
    verdict = replay.verdict
    last_line = steps[-1].line
    unjudged = [(n, _raw(strip_ending(raw))) for n, raw in enumerate(lines[last_line:last_line + UNJUDGED_SHOWN], start=last_line + 1)]
    view = game_view(verdict.ruleset)
    drawn = [Markup(render("state.html.j2", st=st, view=view, setup=setup)) for st in states]
    shown = steps[start_at].state
    return {
        "path": path,
        "first_state": drawn[shown] if shown is not None else None,
        "packed_states": pack(drawn),
        "verdict": msgspec.to_builtins(verdict),
        "error": _error(replay),
        "players": replay.header.players if replay.header else [],
        "setup": setup,
        "steps": steps,
        "start": start_at,
        "unjudged": unjudged,
        "unjudged_more": max(0, len(lines) - last_line - UNJUDGED_SHOWN),
    }


def show_page(lines: list[bytes], path: str, at: int | None = None) -> str:
    """The judge's view of a log as one HTML document."""
    return render("show.html.j2", **page_context(lines, path, at))


DISPUTE_RECORDS = 60  # records of each branch listed from the parting one


def _branch(path: str, lines: list[bytes], branch: dict[str, Any], parted_seq: int) -> dict[str, Any]:
    """One version of the game from the parting record: its records, its verdict, and the table after its record."""
    replay = judge(lines, path)
    steps, states, setup = replay_steps(lines, replay)
    listed = [s for s in steps if s.seq >= parted_seq][:DISPUTE_RECORDS]
    after = states[parted_seq] if parted_seq < len(states) and listed and not listed[0].failed else None
    return {
        "path": path,
        "judgement": branch["judgement"],
        "verdict": msgspec.to_builtins(replay.verdict),
        "error": _error(replay),
        "steps": listed,
        "more": max(0, len(steps) - parted_seq - len(listed)),
        "after": after,
        "setup": setup,
    }


def dispute_page(path_a: str, lines_a: list[bytes], path_b: str, lines_b: list[bytes]) -> str:
    """Two versions of one game side by side from the record where they part, with each one's verdict."""
    from referee.dispute import compare

    lines_a = [strip_ending(line) for line in lines_a]
    lines_b = [strip_ending(line) for line in lines_b]
    report = compare(path_a, path_b, lines_a, lines_b)
    context: dict[str, Any] = {"report": report, "a": path_a, "b": path_b, "before": None, "branches": []}
    replay = judge(lines_a, path_a)
    context["verdict"] = msgspec.to_builtins(replay.verdict)
    context["view"] = game_view(replay.verdict.ruleset)
    context["error"] = _error(replay)
    if report["parted_at"] is None:
        return render("dispute.html.j2", **context)
    seq = report["parted_at"]["seq"]
    _, states, context["setup"] = replay_steps(lines_a, replay)
    if seq >= 1 and seq - 1 < len(states):
        context["before"] = states[seq - 1]
    context["branches"] = [
        _branch(path_a, lines_a, report["branch_a"], seq),
        _branch(path_b, lines_b, report["branch_b"], seq),
    ]
    return render("dispute.html.j2", **context)
