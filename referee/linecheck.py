"""What a reader of log lines checks beside the schema: the error a malformed line raises, and repeated keys.

`logio` (lines and headers), `patterns` (a remembered setup part, decoded once)
and `engine` (records) all refuse a key repeated in one JSON object, and all
raise `Malformed`; both live here, below all three.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

ENCODER = msgspec.json.Encoder()
_PLAIN = msgspec.json.Decoder()


class Malformed(Exception):
    """A line is not a valid record: bad JSON, a wrong or unknown field, a bad sequence."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def repeated(key: str) -> Malformed:
    """The error for a key that appears twice in one JSON object (the key is its field)."""
    return Malformed(f"the key {key!r} appears twice in one object", key)


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _Repeated(key)
        seen.add(key)
    return dict(pairs)


class _Repeated(Exception):
    pass


def repeated_key(line: bytes, decoded: Any) -> str | None:
    """A key that appears twice in one JSON object of `line`, or None.

    msgspec keeps the last of repeated keys; another reader may keep the first,
    so a log with repeats could be read two ways. A line that is exactly the
    canonical encoding of what it decoded to (every line the project writes)
    has no repeats. For other lines without escapes, the colons decide: each
    key in the text brings one colon, every other colon sits inside a string,
    and re-encoding the plain decode keeps every key and string that survived,
    so the counts are equal exactly when no key was dropped. Only a line that
    has escapes or a repeat pays for the parse that names the key.
    """
    if ENCODER.encode(decoded) == line:
        return None
    if b"\\" not in line and ENCODER.encode(_PLAIN.decode(line)).count(b":") == line.count(b":"):
        return None
    try:
        json.loads(line, object_pairs_hook=_no_repeats)
    except _Repeated as exc:
        return str(exc)
    except ValueError:
        pass  # msgspec accepted it; any other disagreement is not about repeated keys
    return None
