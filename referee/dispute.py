"""Disputes: two versions of one game, the first record where they part, and who is right there."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from referee.engine import Replay, judge
from referee.inputs import lines
from referee.linecheck import DECODE_ERRORS
from referee.logio import strip_ending

IGNORED = ("seq", "prev", "at", "note")  # where a record sits and what it says aside, not what it does


def _lines(path: str) -> Iterator[bytes]:
    """The lines of `path` (stdin for -), without endings."""
    if path == "-":
        yield from (strip_ending(raw) for raw in lines(sys.stdin.buffer.read, "stdin", what="a line of a log"))
        return
    with open(path, "rb") as stream:
        yield from (strip_ending(raw) for raw in lines(stream.read, path, what="a line of a log"))


def _meaning(line: bytes, header: bool) -> Any:
    """What a line says about the game: its JSON without bookkeeping fields, or its bytes if not JSON."""
    try:
        data = msgspec.json.decode(line)
    except DECODE_ERRORS:
        return line
    if isinstance(data, dict):
        keep = ("ruleset", "players", "setup") if header else None
        data = {k: v for k, v in data.items() if (k in keep if keep else k not in IGNORED)}
    return data


def parting(a: Iterable[bytes], b: Iterable[bytes]) -> int | None:
    """The 1-based line number where two logs first differ in meaning, or None if they agree."""
    ia, ib = iter(a), iter(b)
    line = 1
    while True:
        la, lb = next(ia, None), next(ib, None)
        if la is None and lb is None:
            return None
        if la is None or lb is None or (la != lb and _meaning(la, line == 1) != _meaning(lb, line == 1)):
            return line
        line += 1


def _branch(replay: Replay, line: int, record: bytes | None) -> dict[str, Any]:
    """One branch's record at the parting line and what the referee says of it."""
    v = replay.verdict
    error = v.error
    if record is None:
        judgement = "the log ends here"
    elif error is None or error.line > line:
        judgement = "legal"
    elif error.line == line:
        judgement = f"{v.verdict}: " + (f"{error.rule}: " if error.rule else "") + error.message
    else:
        judgement = f"the log is {v.verdict} before this point (line {error.line})"
    shown: Any = None
    if record is not None:
        meaning = _meaning(record, line == 1)
        shown = meaning if not isinstance(meaning, bytes) else meaning.decode("utf-8", "replace")
    return {"record": shown, "judgement": judgement, "verdict": msgspec.to_builtins(v)}


def _once(path: str, stdin: list[bytes] | None) -> list[bytes] | None:
    """The lines of a log that can be read only once (stdin, a pipe like bash's `<(...)`); None for a file."""
    if path == "-":
        return stdin
    return None if os.path.isfile(path) else list(_lines(path))


def compare(
    path_a: str, path_b: str, lines_a: list[bytes] | None = None, lines_b: list[bytes] | None = None
) -> dict[str, Any]:
    """The dispute report: where the logs part, the state before it, and each branch there and overall.

    `lines_a` and `lines_b`, when given, are the logs already read (the paths then only name them).
    """
    if lines_a is None and lines_b is None:
        stdin = list(_lines("-")) if "-" in (path_a, path_b) else None
        lines_a, lines_b = _once(path_a, stdin), _once(path_b, stdin)

    def lines(path: str, cached: list[bytes] | None) -> Iterable[bytes]:
        return cached if cached is not None else _lines(path)

    line = parting(lines(path_a, lines_a), lines(path_b, lines_b))
    full_a = judge(lines(path_a, lines_a), path_a)
    full_b = judge(lines(path_b, lines_b), path_b)
    report: dict[str, Any] = {"a": path_a, "b": path_b, "parted_at": None}
    if line is None:
        report["summary"] = "the two logs record the same game"
        report["verdict"] = msgspec.to_builtins(full_a.verdict)
        return report
    report["parted_at"] = {"line": line, "seq": line - 1}
    before = judge(lines(path_a, lines_a), path_a, upto=line - 2) if line > 1 else None
    if before is not None and before.verdict.error is None and before.ruleset is not None:
        report["state"] = before.ruleset.describe(before.state)
        report["state_text"] = before.ruleset.render(before.state)
        report["to_act"] = before.verdict.to_act
    rec_a = next((x for i, x in enumerate(lines(path_a, lines_a), 1) if i == line), None)
    rec_b = next((x for i, x in enumerate(lines(path_b, lines_b), 1) if i == line), None)
    report["branch_a"] = _branch(full_a, line, rec_a)
    report["branch_b"] = _branch(full_b, line, rec_b)
    what = "the headers differ" if line == 1 else f"they part at record {line - 1} (line {line})"
    report["summary"] = f"{what}; A: {report['branch_a']['judgement']}; B: {report['branch_b']['judgement']}"
    return report


def render(report: dict[str, Any]) -> str:
    """The dispute report as text."""
    lines = [report["summary"]]
    if report["parted_at"] is None:
        return lines[0]
    if "state_text" in report:
        lines += ["state before the parting record:", report["state_text"]]
    for key, path in (("branch_a", report["a"]), ("branch_b", report["b"])):
        branch = report[key]
        record = msgspec.json.encode(branch["record"]).decode() if branch["record"] is not None else "(none)"
        v = branch["verdict"]
        lines.append(f"{key[-1].upper()} ({path}): {record}")
        lines.append(f"  there: {branch['judgement']}; whole log: {v['verdict']}, {v['records_checked']} records")
    return "\n".join(lines)
