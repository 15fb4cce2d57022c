"""Byte-level mutations of whole logs: what a broken disk, a bad editor or a hostile player could hand the referee.

Shared by the property tests (a bounded sample in every run) and
`bench/mutate.py` (100,000 mutated logs). Each mutation takes the log's bytes
and a seeded `random.Random`, so a failing case is reproduced from its seed.
"""

from __future__ import annotations

import io
import random
import re
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

import msgspec

from referee.bots import bot_header, play
from referee.cli import describe_verdict
from referee.dispute import parting
from referee.engine import judge
from referee.logio import encode_lines, strip_ending
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids as ruleset_ids
from schemas.verdict import Verdict

# Byte sequences that are never UTF-8: stray continuation bytes, a lead byte
# without its continuation, an overlong slash, a UTF-16 surrogate, a code point
# past U+10FFFF, bytes UTF-8 never uses.
INVALID_UTF8 = (b"\x80", b"\xbf", b"\xc3", b"\xe2\x82", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xfe", b"\xff")
DEPTHS = (10, 100, 1_000, 10_000, 100_000)
NUMBERS = (
    b"9" * 30, b"9" * 5_000, b"-" + b"9" * 400, b"1e400", b"-1e400", b"1e-400", b"18446744073709551616",
    b"-9223372036854775809", b"9223372036854775807", b"-0", b"0.5", b"1E2", b"NaN", b"Infinity", b"0x10", b"01",
)  # fmt: skip
LENGTHS = (1_000, 100_000, 1_000_000)
STRING_PIECES = (b"x", b"\\u0000", b"\\ud800", b"\\udc00x", b"\\\"", b"\\n", "é€😀".encode(), b"\\u2028")
ENDINGS = (b"\r\r\n", b"\r", b"\n\n", b"\r\n", b"", b"\n\r", b"\n \n", b"\x00\n")


def _pos(data: bytes, rng: random.Random) -> int:
    return rng.randrange(len(data) + 1)


def _after(data: bytes, pattern: bytes, rng: random.Random) -> int:
    """A position just after a random occurrence of `pattern` (anywhere if there is none)."""
    found = [m.end() for m in re.finditer(re.escape(pattern), data)]
    return rng.choice(found) if found else _pos(data, rng)


def _splice(data: bytes, at: int, piece: bytes, drop: int = 0) -> bytes:
    return data[:at] + piece + data[at + drop :]


def bad_utf8(data: bytes, rng: random.Random) -> bytes:
    """Bytes that are not UTF-8, mostly inside a string (where the JSON reader decodes text)."""
    at = _after(data, b'"', rng) if rng.random() < 0.7 else _pos(data, rng)
    return _splice(data, at, rng.choice(INVALID_UTF8))


def deep(data: bytes, rng: random.Random) -> bytes:
    """A value nested thousands deep, spliced in as a field's value, or a whole line of brackets."""
    n = rng.choice(DEPTHS)
    opener, closer = rng.choice(((b"[", b"]"), (b'{"a":', b"}")))
    nested = opener * n + (b"0" if opener != b"[" else b"") + closer * n * rng.choice((1, 1, 0))
    if rng.random() < 0.2:
        lines = data.split(b"\n")
        lines[rng.randrange(len(lines))] = nested
        return b"\n".join(lines)
    return _splice(data, _after(data, b":", rng), nested + b',"z":')


def insert_bytes(data: bytes, rng: random.Random) -> bytes:
    """A few random bytes (any of the 256) at random places."""
    for _ in range(rng.randint(1, 3)):
        data = _splice(data, _pos(data, rng), bytes([rng.randrange(256)]))
    return data


def replace_byte(data: bytes, rng: random.Random) -> bytes:
    return _splice(data, rng.randrange(len(data)), bytes([rng.randrange(256)]), 1) if data else data


def delete_bytes(data: bytes, rng: random.Random) -> bytes:
    return _splice(data, _pos(data, rng), b"", rng.randint(1, 8))


def huge_number(data: bytes, rng: random.Random) -> bytes:
    """A number replaced by one too big, too small, not an integer or not JSON."""
    numbers = list(re.finditer(rb"-?\d+(\.\d+)?([eE][-+]?\d+)?", data))
    if not numbers:
        return data
    match = rng.choice(numbers)
    return _splice(data, match.start(), rng.choice(NUMBERS), match.end() - match.start())


def long_string(data: bytes, rng: random.Random) -> bytes:
    """A string's text replaced by a very long one, with escapes, lone surrogates and non-ASCII."""
    strings = list(re.finditer(rb'"([^"\\]|\\.)*"', data))
    if not strings:
        return data
    match = rng.choice(strings)
    piece = rng.choice(STRING_PIECES)
    text = piece * (rng.choice(LENGTHS) // len(piece))
    return _splice(data, match.start() + 1, text, match.end() - match.start() - 2)


def line_ending(data: bytes, rng: random.Random) -> bytes:
    """One line ending changed: `\\r\\r\\n`, a bare `\\r`, a blank line, lines joined, a NUL."""
    ends = [m.start() for m in re.finditer(b"\n", data)]
    if not ends or rng.random() < 0.1:
        return data + rng.choice((b"\r", b"\n", b"\r\r\n", b" "))
    at = rng.choice(ends)
    return _splice(data, at, rng.choice(ENDINGS), 1)


def lines_moved(data: bytes, rng: random.Random) -> bytes:
    """A line deleted, repeated, or swapped with another."""
    lines = data.split(b"\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    kind = rng.randrange(3)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: _pos(data, rng)]


def bom(data: bytes, rng: random.Random) -> bytes:
    """A byte-order mark, which some editors write, at the start or at a line's start."""
    return _splice(data, rng.choice((0, _after(data, b"\n", rng))), b"\xef\xbb\xbf")


MUTATORS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    f.__name__: f
    for f in (bad_utf8, deep, insert_bytes, replace_byte, delete_bytes, huge_number, long_string, line_ending,
              lines_moved, truncate, bom)
}  # fmt: skip


@cache
def bot_log(ruleset_id: str, seed: int, players: int) -> bytes:
    """The bytes of a bot game, chained, one `\\n` after each line."""
    header = bot_header(ruleset_id, seed, players)
    return b"".join(line + b"\n" for line in encode_lines(header, play(header, seed)))


@dataclass(frozen=True)
class Case:
    """One mutated log and how to make it again."""

    ruleset: str
    seed: int
    players: int
    mutations: tuple[str, ...]
    rng_seed: int
    data: bytes

    def __str__(self) -> str:
        return f"{self.ruleset} seed {self.seed} players {self.players}: {'+'.join(self.mutations)} (rng {self.rng_seed})"


def make_case(number: int, seeds: int = 20) -> Case:
    """Mutated log number `number`: every game in turn, a few bot games each, one to three mutations."""
    games = ruleset_ids()
    ruleset_id = games[number % len(games)]
    rng = random.Random(number)
    ruleset = get_ruleset(ruleset_id)
    players = rng.randint(ruleset.min_players, min(ruleset.max_players, 4))
    seed = rng.randrange(seeds)
    data = bot_log(ruleset_id, seed, players)
    names = tuple(rng.choice(sorted(MUTATORS)) for _ in range(rng.choice((1, 1, 1, 2, 3))))
    for name in names:
        data = MUTATORS[name](data, rng)
    return Case(ruleset_id, seed, players, names, number, data)


def cases(count: int, start: int = 0) -> Iterator[Case]:
    return (make_case(n) for n in range(start, start + count))


def answer(data: bytes, original: bytes) -> Verdict:
    """Everything the referee does with a log it is handed: judge it, print the verdict both ways, compare it."""
    verdict = judge(io.BytesIO(data)).verdict
    describe_verdict(verdict)
    msgspec.json.encode(verdict)
    parting(map(strip_ending, io.BytesIO(original)), map(strip_ending, io.BytesIO(data)))
    return verdict


def crash(case: Case) -> str | None:
    """None when the referee answered; else the exception and where it was raised."""
    try:
        answer(case.data, bot_log(case.ruleset, case.seed, case.players))
    except Exception as exc:
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        return f"{type(exc).__name__} at {frame.filename}:{frame.lineno}: {str(exc)[:200]}"
    return None
