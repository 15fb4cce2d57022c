"""The deal recipe as docs/referee.md writes it reproduces a verified log's draws, byte for byte (issue 33).

An outside checker that followed the document's `json.dumps` (which escapes every accented letter) sorted the
options of a deck with accented card names otherwise than the referee, and so rejected a verified log. This
checker is written from the document alone: it takes step 2's Python expression out of docs/referee.md and
evaluates it, and does step 3 from its words; it does not import `referee.dealing`. Step 1 (which records could
stand there) is the game's rules, so the game's own `chance_options` gives the options.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from referee.bots import bot_header, play
from referee.engine import judge, start
from referee.logio import encode_lines, record_decoder
from referee.ruleset import CHANCE

DOC = Path(__file__).parents[2] / "docs" / "referee.md"
SEED = "5eed" * 16
ACCENTS = str.maketrans({"a": "á", "e": "é", "o": "ö", "u": "ü", "n": "ñ", "i": "î"})
ENVELOPE = ("seq", "prev", "at", "note")


def documented_canonical() -> Any:
    """Step 2's Python, as the document writes it, as a function of a record's `fields`."""
    section = DOC.read_text(encoding="utf-8").split("### Dealt games", 1)[1]
    expression = re.search(r"Python:\s*`([^`]+)`", section)
    assert expression is not None, "docs/referee.md no longer gives step 2 in Python"
    code = compile(expression.group(1), "docs/referee.md", "eval")
    return lambda fields: eval(code, {"json": json, "fields": fields})  # the project's own document, as a reader would run it


def documented_index(seed: str, seq: int, count: int) -> int:
    """Step 3, from its words."""
    for attempt in range(1000):
        x = int.from_bytes(hmac.new(bytes.fromhex(seed), f"{seq}/{attempt}".encode("ascii"), hashlib.sha256).digest(), "big")
        if x < count * (2**256 // count):
            return x % count
    raise AssertionError("no attempt below the limit")


def accented_game(seed: int) -> list[bytes]:
    """A dealt bot game of crossover whose decks hold accented card names (every other card's vowels accented)."""
    header = bot_header("crossover", seed, 2, SEED)
    setup = json.loads(bytes(header.setup))
    for deck in setup["decks"].values():
        for n, card in enumerate(deck["cards"]):
            if n % 2:
                card["name"] = card["name"].translate(ACCENTS)
    header = msgspec.structs.replace(header, setup=msgspec.Raw(json.dumps(setup, ensure_ascii=False).encode()))
    return list(encode_lines(header, play(header, seed, SEED)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_documented_recipe_deals_a_deck_with_accented_names_as_the_referee_did(seed: int) -> None:
    # Fails with the document before issue 33 (`json.dumps` escaping non-ASCII): the options sort otherwise.
    lines = accented_game(seed)
    verdict = judge(io.BytesIO(b"".join(line + b"\n" for line in lines))).verdict
    assert (verdict.verdict, verdict.deal) == ("complete", "verified")
    canonical = documented_canonical()
    header, ruleset, state = start(lines[0])
    decode = record_decoder(header.ruleset).decode
    accented = 0
    for line in lines[1:-1]:
        record = decode(line)
        if record.by == CHANCE:
            options = sorted(
                canonical({k: v for k, v in msgspec.to_builtins(r).items() if k not in ENVELOPE})
                for r in ruleset.chance_options(state, record)
            )
            made = canonical({k: v for k, v in json.loads(line).items() if k not in ENVELOPE})
            assert options[documented_index(SEED, record.seq, len(options))] == made, record.seq
            accented += any(not option.isascii() for option in options)
        ruleset.apply(state, record)
    assert accented > 5  # draws whose options had accented names to sort
