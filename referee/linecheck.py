"""What a reader of JSON lines checks beside the schema: the error a malformed line raises, and repeated keys.

`logio` (lines and headers), `patterns` (a remembered setup part, decoded once),
`engine` (records) and `decks` (a deck file) all turn a decoding error into a
`Malformed` naming the field (`explain`) and refuse a key repeated in one JSON
object; both live here, below all of them (and below the rulesets, which `logio` imports).
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

# What decoding a line can raise: msgspec's own errors, and two it lets through
# (bytes that are not UTF-8 inside a string, nesting deeper than the stack).
DECODE_ERRORS = (msgspec.MsgspecError, UnicodeDecodeError, RecursionError)
_AT = re.compile(r" - at `\$\.?([^`]*)`$")
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


def explain(exc: Exception, prefix: str = "", line: bytes | None = None) -> Malformed:
    """Turn a decoding error (one of DECODE_ERRORS) into a Malformed naming the field (`setup.first`, `card`, ...).

    With the `line` it came from, a line that is not UTF-8 is called that first,
    whatever msgspec tripped on (it may meet an unknown key before the bad byte).
    """
    if line is not None and line.startswith(b"\xef\xbb\xbf"):
        return Malformed("the line starts with a byte-order mark, which is not JSON (save the log as UTF-8 without one)")
    bad = _bad_utf8(line) if line is not None else None
    if bad or isinstance(exc, UnicodeDecodeError):
        return Malformed(f"not UTF-8: {bad or 'a string holds bytes that are not UTF-8'}", prefix.rstrip(".") or None)
    if isinstance(exc, RecursionError):
        return Malformed("nested too deeply to read", prefix.rstrip(".") or None)
    text = str(exc)
    if type(exc) is msgspec.DecodeError:  # not JSON at all (ValidationError is a subclass: wrong fields)
        text = f"not valid JSON: {text}"
    match = _AT.search(text)
    field = None
    if match:
        text = text[: match.start()]
        field = prefix + match.group(1) if match.group(1) else (prefix.rstrip(".") or None)
    elif prefix:
        field = prefix.rstrip(".")
    unknown = re.search(r"unknown field `([^`]*)`", text)
    if unknown:
        field = (field + "." if field else "") + unknown.group(1)
    missing = re.search(r"missing required field `([^`]*)`", text)
    if missing:
        field = (field + "." if field else "") + missing.group(1)
    return Malformed(text, field)


def _bad_utf8(line: bytes) -> str | None:
    """Where in `line` the first byte that is not UTF-8 sits, or None (only called once decoding has failed)."""
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"byte 0x{line[exc.start]:02x} at column {exc.start + 1}"
    return None
