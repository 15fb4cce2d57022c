"""Log heads: an event's log as of one entry, printed where people keep it, and checked against the log later.

A head is `EVENT@SEQ:HASH`, the entry's sequence number and the first 16 hex digits of its hash: since each
entry's hash covers the one before it, a head pins the whole log up to that entry. Pages, slips and exports
print the head of the log they show (`EventInfo.head`); `tournament head EVENT` prints the current one; and
`tournament verify EVENT --against FILE` reports every head in FILE that the log no longer holds
(tournament/README.md, "Log heads": what this proves and what it does not).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tournament.service.errors import Usage

HEAD_DIGITS = 16  # 64 bits of the hash: no search finds another entry with the same first 16 digits
# A head anywhere in a line (copied from a slip, a page or an export with words around it).
HEAD = re.compile(r"(?<![A-Za-z0-9_.@-])([A-Za-z0-9_.-]{1,64})@([0-9]{1,10}):([0-9a-f]{16,64})(?![0-9A-Za-z])")
# What a head looks like at a glance (`EVENT@SEQ:...`): each must be a whole head, or the line is refused
LOOKS_LIKE = re.compile(r"[A-Za-z0-9_.-]+@[0-9]+:[0-9A-Za-z]*")  # the hash's letters only: not a quote or bracket after it


def head_text(event_id: str, seq: int, entry_hash: str) -> str:
    """The head as printed: `spring@42:3f9a1c0b7d2e4a6f`."""
    return f"{event_id}@{seq}:{entry_hash[:HEAD_DIGITS]}"


@dataclass(frozen=True)
class Head:
    """A head read from a file: the event, the entry, the leading digits of its hash, and where it was read."""

    event: str
    seq: int
    digits: str
    where: str

    @property
    def text(self) -> str:
        return f"{self.event}@{self.seq}:{self.digits}"


def read_heads(text: str, source: str) -> list[Head]:
    """Every head of a file (blank lines skipped); Usage naming the line of one that holds none.

    Every head of a line is read, not its first only: a right head must not vouch for a wrong one beside it.
    """
    heads = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        found = list(HEAD.finditer(line))
        if not found:
            raise Usage(f"{source} line {number}: no log head (EVENT@SEQ:HASH, as a slip or a page prints it) in {line.strip()[:60]!r}")
        whole = {one.group() for one in found}
        for token in LOOKS_LIKE.findall(line):
            if token not in whole:  # a head cut short or mistyped beside a good one: not passed over
                raise Usage(f"{source} line {number}: {token[:80]!r} is not a whole log head (EVENT@SEQ:HASH, 16 hex digits or more)")
        for one in found:
            event, seq, digits = one.groups()
            heads.append(Head(event, int(seq), digits, f"{source} line {number}"))
    if not heads:
        raise Usage(f"{source}: no log heads in it")
    return heads


def missing(heads: list[Head], hashes: dict[int, str]) -> list[str]:
    """A finding for each head the log (`hashes`: each entry's hash by seq) no longer holds."""
    found = []
    for head in heads:
        now = hashes.get(head.seq)
        if now is None:
            found.append(f"head {head.text} ({head.where}) is not in the log: it has no entry {head.seq} ({len(hashes)} entries)")
        elif not now.startswith(head.digits):
            found.append(f"head {head.text} ({head.where}) is not in the log: entry {head.seq} is now {now[:HEAD_DIGITS]}")
    return found
