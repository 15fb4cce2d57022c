"""Reading and writing `referee-log/1` lines: decoders, line endings, hashes, chaining."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any

import msgspec

from referee.patterns import Decoder, remembered_twin
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids as ruleset_ids
from schemas.log import SHARED_RECORDS, Header, Record

HEADER_DECODER = Decoder(Header)
# What decoding a line can raise: msgspec's own errors, and two it lets through
# (bytes that are not UTF-8 inside a string, nesting deeper than the stack).
DECODE_ERRORS = (msgspec.MsgspecError, UnicodeDecodeError, RecursionError)
ENCODER = msgspec.json.Encoder()
_PLAIN = msgspec.json.Decoder()
_AT = re.compile(r" - at `\$\.?([^`]*)`$")


class Malformed(Exception):
    """A line is not a valid record: bad JSON, a wrong or unknown field, a bad sequence."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def repeated(key: str) -> Malformed:
    """The error for a key that appears twice in one JSON object (the key is its field)."""
    return Malformed(f"the key {key!r} appears twice in one object", key)


@cache
def record_decoder(ruleset_id: str) -> Decoder:
    """One reusable decoder per ruleset, for the union of its records and those every log shares."""
    ruleset = get_ruleset(ruleset_id)
    union = tuple(ruleset.records) + SHARED_RECORDS
    return Decoder(union[0] if len(union) == 1 else _union(union))


@cache
def setup_decoder(ruleset_id: str) -> Decoder:
    """One reusable decoder for a ruleset's setup."""
    return Decoder(get_ruleset(ruleset_id).setup_type)


# A header line as the project writes it starts so, and the ruleset's id follows.
_HEADER_START = b'{"log":"referee-log/1","ruleset":"'


def header_as_written(line: bytes) -> tuple[Header, Any] | None:
    """The header and its decoded setup, read in one pass, when `line` is a header as the project writes it
    (msgspec's own encoding, its remembered parts aside, which stay as written; every pattern holding) for a
    ruleset whose setup has remembered parts; else None.

    Decoded step by step (engine.start), the setup is skipped twice: once as the header's Raw,
    then its remembered parts (decks of a few kilobytes) again as Raw for their memo. Here the
    header is decoded with the setup's twin, whose remembered parts are the only Raw; for a
    canonical line, the setup's own bytes are that twin's encoding. On None, the caller's step
    by step decode gives any error there is.
    """
    if not line.startswith(_HEADER_START):
        return None
    ruleset_id = line[len(_HEADER_START) : line.find(b'"', len(_HEADER_START))].decode("utf-8", "replace")
    found = _header_twin(ruleset_id) if ruleset_id in ruleset_ids() else None
    if found is None:
        return None
    decoder, convert = found
    try:
        twin = decoder.decode(line)
        header = Header(**(msgspec.structs.asdict(twin) | {"setup": msgspec.Raw(ENCODER.encode(twin.setup))}))
        # the header writes its Raw setup as it is: the line is canonical outside the remembered parts
        # exactly when this holds (a key repeated inside the setup is engine.start's to find)
        if header.ruleset != ruleset_id or ENCODER.encode(header) != line:
            return None
        return header, convert(twin.setup)
    except Exception:  # whatever fails here, the step by step decode explains
        return None


@cache
def _header_twin(ruleset_id: str) -> tuple[Decoder, Callable[[Any], Any]] | None:
    """A decoder of a ruleset's whole header with the twin of its setup, and what turns that twin into the setup;
    None when its setup has no remembered parts."""
    found = remembered_twin(get_ruleset(ruleset_id).setup_type)
    if found is None:
        return None
    twin, convert = found
    header = msgspec.defstruct("Header", [("setup", twin)], bases=(Header,), module=Header.__module__)
    return Decoder(header), convert


def _union(types: tuple[type, ...]) -> Any:
    from typing import Union

    return Union[types]  # noqa: UP007 - built from a runtime tuple


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


def strip_ending(raw: bytes) -> bytes:
    """A line without its `\\n` or `\\r\\n`."""
    if raw.endswith(b"\n"):
        raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
    return raw


# A log comes to the engine in batches of whole lines: (chunk, lines). `chunk` is the
# lines' bytes, each line with its `\n` (only a log's last line may lack it), or None
# when the lines cannot be joined so; `lines` is the lines as given, or None to split `chunk`.
Batch = tuple[bytes | None, list[bytes] | None]
BATCH_BYTES = 1 << 16  # a stream is read this much at a time
BATCH_LINES = 256  # lines given one by one are grouped this many at a time


def read_batches(source: Iterable[bytes]) -> tuple[bytes | None, Iterator[Batch]]:
    """A log's first raw line (None if it has none), and its other lines in batches."""
    read = getattr(source, "read", None)  # a binary stream: a file, stdin, BytesIO
    if read is None:
        lines = iter(source)
        return next(lines, None), _groups(lines)
    return read_blocks(read)


def read_blocks(read: Callable[[int], bytes]) -> tuple[bytes | None, Iterator[Batch]]:
    """A log's first raw line (None if it has none), and its other lines in batches, from `read(size)`."""
    blocks = _blocks(read)
    first = next(blocks, None)
    if first is None:
        return None, iter(())
    cut = first.find(b"\n") + 1 or len(first)
    rest = [(first[cut:], None)] if cut < len(first) else []
    return first[:cut], itertools.chain(rest, ((block, None) for block in blocks))


def _blocks(read: Callable[[int], bytes]) -> Iterator[bytes]:
    """A stream's lines, a block at a time, cut after the block's last `\n`."""
    pending: list[bytes] = []
    while block := read(BATCH_BYTES):
        cut = block.rfind(b"\n") + 1
        if not cut:  # a line longer than a block
            pending.append(block)
            continue
        pending.append(block[:cut])
        yield b"".join(pending)
        pending = [block[cut:]] if cut < len(block) else []
    if pending:
        yield b"".join(pending)


def _groups(lines: Iterator[bytes]) -> Iterator[Batch]:
    """Lines given one by one, in groups; a group has its chunk when each line has no `\n` but a final one."""
    while group := list(itertools.islice(lines, BATCH_LINES)):
        joined = b"".join(group)
        newlines = joined.count(b"\n")
        if not newlines:  # lines without endings (`splitlines()`)
            yield b"\n".join(group) + b"\n", group
        elif newlines == len(group) and all(line[-1:] == b"\n" for line in group):
            yield joined, group
        else:
            yield None, group


def raw_lines(chunk: bytes) -> Iterator[bytes]:
    """A chunk's lines, each with its `\n` (the last may have none)."""
    *lines, last = chunk.split(b"\n")
    for line in lines:
        yield line + b"\n"
    if last:
        yield last


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
