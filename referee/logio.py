"""Reading and writing `referee-log/1` lines: decoders, line endings, hashes, chaining."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any

import msgspec

from referee.inputs import LINE_LIMIT, blocks
from referee.linecheck import ENCODER
from referee.patterns import Decoder, remembered_twin
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids as ruleset_ids
from schemas.log import FINGERPRINT_SCHEME, SHARED_RECORDS, Header, Record

HEADER_DECODER = Decoder(Header)


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

    What it saves: 3-4% of crossover's replay time (its decks are most of a header), within the
    noise for stccg-multiplayer and basictcg-mtg (CPU time of 100 bot games each, best of 7
    alternating runs with it and with it answering None). Nothing else depends on it: without it
    every header goes step by step, to the same verdicts (tests/core/test_fastpaths.py).
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
    return blocks(read, "the log", LINE_LIMIT, "a line of a log", BATCH_BYTES)


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
    """The hex SHA-256 of the game the referee judges, not of its file: two logs of the same game have the same one.

    The same game is the same ruleset, deal, seats and setup as the game reads them (`Ruleset.identity`: the
    setup decoded with its defaults, in one order wherever the game reads no order) and records as the game
    reads them (`Ruleset.record_identity`), in order. Left out, so they cannot make one game look like two:
    line endings and a missing final newline, JSON spacing and key order, defaults written out or not, the
    header's `game` id, `event` and `started_at`, each record's `seq`, `prev`, `at` and `note`, and whatever
    each game says it does not read. The log must be one the referee reads (a judged, complete game).
    """
    lines = [strip_ending(line) for line in data.splitlines()]
    header = HEADER_DECODER.decode(lines[0])
    ruleset = get_ruleset(header.ruleset)
    players, setup = ruleset.identity(list(header.players), setup_decoder(header.ruleset).decode(header.setup))
    decode = record_decoder(header.ruleset).decode
    records = [ruleset.record_identity(decode(line)) for line in lines[1:] if line]
    game = ["referee-game", FINGERPRINT_SCHEME, header.ruleset, msgspec.to_builtins(header.deal), players, setup, records]
    return hashlib.sha256(msgspec.json.encode(game, order="sorted")).hexdigest()
