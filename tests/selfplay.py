"""What every game's self-play property tests share: bot logs, judging twice, and log mutations."""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from referee.bots import bot_header, play
from referee.engine import judge
from referee.logio import encode_lines, setup_decoder
from referee.rulesets import get as get_ruleset
from schemas.log import Header
from schemas.verdict import Verdict
from tests.mutations import INVALID_UTF8

# The last three work on a line's bytes: text that is not UTF-8, a value nested
# 100,000 deep, any byte inserted anywhere.
MUTATIONS = ("delete", "duplicate", "swap", "edit", "bad_utf8", "deep", "insert_byte")
DEEP = b"[" * 100_000 + b"]" * 100_000
KINDS = ("complete", "ongoing", "illegal", "malformed", "tampered")


def bot_log(ruleset_id: str, seed: int, players: int | None = None) -> list[bytes]:
    """The chained lines of the bot game `seed` (header first)."""
    header = bot_header(ruleset_id, seed, players)
    return list(encode_lines(header, play(header, seed)))


def bot_start(ruleset_id: str, seed: int, players: int | None = None) -> tuple[Header, Any]:
    """The header of the bot game `seed` and the game's state before its first record."""
    header = bot_header(ruleset_id, seed, players)
    return header, get_ruleset(ruleset_id).start(header, setup_decoder(ruleset_id).decode(header.setup))


def unchain(log: list[bytes]) -> list[bytes]:
    """The same log without `prev`, so that a mutation reaches the rules instead of the chain."""
    rows = (json.loads(line) for line in log[1:])
    return [log[0], *(json.dumps({k: v for k, v in r.items() if k != "prev"}).encode() for r in rows)]


def judge_twice(log: list[bytes]) -> Verdict:
    """Judge `log` twice and check both verdicts are byte for byte the same."""
    first, second = judge(log).verdict, judge(log).verdict
    assert msgspec.json.encode(first) == msgspec.json.encode(second)
    return first


def mutate(log: list[bytes], kind: str, where: float, other: float, key: str, value: object) -> list[bytes]:
    """A copy of `log` with one record deleted, duplicated, swapped with another, one field edited, or its bytes mutated."""
    log = list(log)
    i = 1 + int(where * (len(log) - 2))
    j = 1 + int(other * (len(log) - 2))
    if kind == "delete":
        del log[i]
    elif kind == "duplicate":
        log.insert(i, log[i])
    elif kind == "swap":
        log[i], log[j] = log[j], log[i]
    elif kind in ("bad_utf8", "insert_byte"):
        at = int(other * len(log[i]))
        piece = INVALID_UTF8[at % len(INVALID_UTF8)] if kind == "bad_utf8" else bytes([int(other * 1e6) % 256])
        log[i] = log[i][:at] + piece + log[i][at:]
    elif kind == "deep":
        colons = [m.end() for m in re.finditer(b":", log[i])]
        at = colons[int(other * (len(colons) - 1))]
        log[i] = log[i][:at] + DEEP + b',"z":' + log[i][at:]
    else:
        record = json.loads(log[i])
        record[key] = value
        log[i] = json.dumps(record).encode()
    return log


def check_mutated(original: list[bytes], mutated: list[bytes], kind: str, rule_prefix: str) -> Verdict:
    """The properties any mutated log has: a verdict (never a crash) that points at a line and a rule."""
    verdict = judge(mutated).verdict
    assert verdict.verdict in KINDS
    if kind in ("delete", "duplicate") or (kind == "swap" and mutated != original):
        assert verdict.verdict != "complete"
    if kind in ("bad_utf8", "deep"):  # the mutated line is the first bad one, and it is not a record
        changed = next(n for n, (a, b) in enumerate(zip(original, mutated, strict=True), start=1) if a != b)
        assert (verdict.verdict, verdict.error and verdict.error.line) == ("malformed", changed), verdict.error
    if verdict.error is not None:
        assert verdict.error.line >= 1 and verdict.error.message
        if verdict.verdict == "illegal":
            assert verdict.error.rule is not None and verdict.error.rule.startswith(rule_prefix)
    return verdict


def paper_game(ruleset_id: str, seed: int, players: int | None = None) -> tuple[Header, list[Any], list[Any]]:
    """The bot game `seed`: its header, its records, and its records as a paper table may record them (every
    draw the game lets stay unnamed left without its card: `referee.bots.unnamed`)."""
    from referee.bots import unnamed

    header = bot_header(ruleset_id, seed, players)
    named = list(play(header, seed))
    return header, named, list(unnamed(header, named))


def state_after(header: Header, records: list[Any]) -> Any:
    """The game's state once `records` are applied (each must be legal)."""
    ruleset = get_ruleset(header.ruleset)
    state = ruleset.start(header, setup_decoder(header.ruleset).decode(header.setup))
    for record in records:
        ruleset.apply(state, record)
    return state
