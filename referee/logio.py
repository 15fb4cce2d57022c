"""Reading and writing `referee-log/1` lines: decoders, line endings, hashes, chaining."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

import msgspec

from referee.rulesets import get as get_ruleset
from schemas.log import COMMON_RECORDS, Header, Record

HEADER_DECODER = msgspec.json.Decoder(Header)
ENCODER = msgspec.json.Encoder()
_AT = re.compile(r" - at `\$\.?([^`]*)`$")


class Malformed(Exception):
    """A line is not a valid record: bad JSON, a wrong or unknown field, a bad sequence."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@cache
def record_decoder(ruleset_id: str) -> msgspec.json.Decoder[Any]:
    """One reusable decoder per ruleset, for the union of its records and the common ones."""
    ruleset = get_ruleset(ruleset_id)
    union = tuple(ruleset.records) + COMMON_RECORDS
    return msgspec.json.Decoder(union[0] if len(union) == 1 else _union(union))


@cache
def setup_decoder(ruleset_id: str) -> msgspec.json.Decoder[Any]:
    """One reusable decoder for a ruleset's setup."""
    return msgspec.json.Decoder(get_ruleset(ruleset_id).setup_type)


def _union(types: tuple[type, ...]) -> Any:
    from typing import Union

    return Union[types]  # noqa: UP007 - built from a runtime tuple


def explain(exc: msgspec.MsgspecError, prefix: str = "") -> Malformed:
    """Turn a msgspec error into a Malformed naming the field (`setup.first`, `card`, ...)."""
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
    has no repeats; only other lines pay for the exact check.
    """
    if ENCODER.encode(decoded) == line:
        return None
    try:
        json.loads(line, object_pairs_hook=_no_repeats)
    except _Repeated as exc:
        return str(exc)
    except ValueError:
        pass  # msgspec accepted it; any other disagreement is not about repeated keys
    return None


def strip_ending(raw: bytes) -> bytes:
    """A line without its `\\n` or `\\r\\n`."""
    if raw.endswith(b"\n"):
        raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
    return raw


def line_hash(line: bytes) -> str:
    """The hex SHA-256 that the next record's `prev` must carry."""
    return hashlib.sha256(line).hexdigest()


def record_to_dict(record: Record) -> dict[str, Any]:
    """A record as plain JSON data, without its place in a log (`seq`, `prev`, `at`, `note`)."""
    data: dict[str, Any] = msgspec.to_builtins(record)
    for key in ("seq", "prev", "at", "note"):
        data.pop(key, None)
    return data


def encode_lines(header: Header, records: Iterable[Record]) -> Iterator[bytes]:
    """Header then records as chained lines (no line endings), numbering `seq` from 1."""
    line = ENCODER.encode(header)
    yield line
    for seq, record in enumerate(records, start=1):
        line = ENCODER.encode(msgspec.structs.replace(record, seq=seq, prev=line_hash(line)))
        yield line


def game_fingerprint(data: bytes) -> str:
    """The hex SHA-256 of the game itself, not of its file: two logs of the same game have the same one.

    The same game is the same ruleset, players (in order), setup and records
    (in order, each by its fields). Left out, so they cannot make one game
    look like two: line endings and a missing final newline, JSON spacing
    and key order, the header's `game` id, `event` and `started_at`, and each
    record's `seq`, `prev`, `at` and `note`. The log must be one the referee
    reads (a judged, complete game).
    """
    lines = [strip_ending(line) for line in data.splitlines()]
    header = HEADER_DECODER.decode(lines[0])
    decode = record_decoder(header.ruleset).decode
    records = [record_to_dict(decode(line)) for line in lines[1:] if line]
    game = [header.ruleset, header.players, msgspec.json.decode(header.setup), records]
    return hashlib.sha256(msgspec.json.encode(game, order="sorted")).hexdigest()
