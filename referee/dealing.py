"""Dealt games: chance records that follow from a committed secret seed, and the check that they did.

A digital table's server holds a secret seed of 32 random bytes. The header
commits to it (`deal`: the seed's SHA-256); each chance record is the one the
procedure below picks, and when the game ends a `reveal` record gives the
seed, so anyone can check that no draw was chosen. The procedure,
`hmac-sha256/1` (docs/referee.md, "Dealt games", states it for other
implementations):

1. The options of a chance record at `seq` are the chance records that could
   stand there: the same event (its type and whose it is), one record for
   each card that could come, a card held twice counted twice
   (`Ruleset.chance_options`).
2. Each option is written as canonical JSON: its fields without `seq`, `prev`,
   `at` and `note`, keys sorted, no spaces, text in raw UTF-8 (never a `\\u`
   escape for a character beyond ASCII; Python's `json.dumps` needs
   `ensure_ascii=False` to give the same bytes). The options are sorted by
   those bytes; `count` is how many there are.
3. For attempt 0, 1, 2, ...: `x` is HMAC-SHA256 with the seed's 32 bytes as
   key and the ASCII text `"<seq>/<attempt>"` as message, read as a 256-bit
   big-endian number. The first `x` below `count * floor(2**256 / count)`
   gives the index `x mod count` (rejection sampling: every index is equally
   likely). The record is the option at that index.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
from typing import Any

import msgspec

from referee.logio import record_to_dict
from referee.ruleset import CHANCE, Ruleset
from schemas.log import DEAL_SCHEME, Deal, Record, Reveal

SEED_BYTES = 32
_SPACE = 1 << 256
_ENCODE = msgspec.json.Encoder(order="sorted").encode


def new_seed() -> str:
    """A fresh secret seed, as 64 lowercase hex digits."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """The hex SHA-256 of the seed's bytes: what the header's `deal.commit` holds."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def header_deal(seed: str) -> Deal:
    """The header's `deal` for `seed`."""
    return Deal(scheme=DEAL_SCHEME, commit=commitment(seed))


def canonical(record: Record) -> bytes:
    """A record's canonical JSON: its fields without its place in a log, keys sorted (step 2)."""
    return _ENCODE(record_to_dict(record))


def options(ruleset: Ruleset, state: Any, record: Record) -> list[tuple[bytes, Record]]:
    """The options of the chance record `record` here, each with its canonical bytes, in the procedure's order."""
    return sorted(((canonical(r), r) for r in ruleset.chance_options(state, record)), key=lambda pair: pair[0])


def index(seed: str, seq: int, count: int) -> int:
    """The index the seed gives at `seq` among `count` options (step 3)."""
    key, limit = bytes.fromhex(seed), _SPACE - _SPACE % count
    for attempt in itertools.count():  # a retry is needed about once in 2**256 / count draws
        x = int.from_bytes(hmac.digest(key, f"{seq}/{attempt}".encode("ascii"), "sha256"), "big")
        if x < limit:
            return x % count
    raise AssertionError("unreachable")  # pragma: no cover


def due_event(ruleset: Ruleset, state: Any) -> Record | None:
    """The chance event due now (the first legal chance record, standing for its options), or None."""
    return next((r for r in ruleset.legal(state) if r.by == CHANCE), None)


def deal(ruleset: Ruleset, state: Any, seed: str, seq: int, event: Record) -> Record:
    """The chance record the seed gives at `seq` for `event` (any record of the event: its options are dealt from)."""
    found = options(ruleset, state, event)
    if not found:
        raise ValueError(f"nothing can come of a {type(event).__name__} here")
    return found[index(seed, seq, len(found))][1]


class Ledger:
    """What a dealt log's check keeps until the seed is revealed: each chance record's place and options.

    The seed is revealed only at the end, so each chance record is noted as
    it is judged (its seq, line, options and its own bytes) and checked
    against the seed when the `reveal` comes.
    """

    def __init__(self, deal: Deal) -> None:
        self.commit = deal.commit
        self.draws: list[tuple[int, int, list[bytes], bytes]] = []  # (seq, line, option bytes in order, the record's)
        self.revealed = False

    def note(self, ruleset: Ruleset, state: Any, record: Record, seq: int, line: int) -> None:
        """Note the chance record `record`, about to be applied to `state` at `seq`."""
        self.draws.append((seq, line, [key for key, _ in options(ruleset, state, record)], canonical(record)))

    def first_wrong(self, seed: str) -> tuple[int, int, bytes | None] | None:
        """The first chance record the seed does not give: (seq, line, the record the seed gives there as
        canonical JSON, or None when nothing could come); None when every one is right."""
        for seq, line, keys, made in self.draws:
            expected = keys[index(seed, seq, len(keys))] if keys else None
            if made != expected:
                return seq, line, expected
        return None


def reveal(seed: str) -> Reveal:
    """The record that ends a dealt log."""
    return Reveal(by=CHANCE, seed=seed)
