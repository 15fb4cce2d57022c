"""The replay engine: reads a log, checks each line, and gives the verdict.

Each line is checked in the order docs/referee.md gives: JSON and fields, `seq`, the
hash chain, then the rules. The first failure decides the verdict. The engine
streams: it holds one batch of lines (64 KiB of a file, a few hundred lines given
one by one, or one longer line) and the game state, never the whole log.
"""

from __future__ import annotations

import itertools
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence, Set
from dataclasses import dataclass
from functools import partial
from hashlib import sha256
from operator import attrgetter
from typing import Any

import msgspec

from referee.dealing import Ledger, commitment
from referee.inputs import TooLarge
from referee.linecheck import DECODE_ERRORS, Malformed, explain, repeated, repeated_key
from referee.logio import (
    BATCH_BYTES,
    ENCODER,
    HEADER_DECODER,
    Batch,
    header_as_written,
    raw_lines,
    read_batches,
    read_blocks,
    record_decoder,
    record_to_dict,
    setup_decoder,
    strip_ending,
)
from referee.ruleset import CHANCE, JUDGE, Illegal, Ruleset
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids as ruleset_ids
from referee.takeback import OWN, Rewind, TakeBacks, blamed
from referee.unseen import unnamed_draws
from schemas.log import COMMON_RECORDS, Hash, Header, Record, Reveal
from schemas.verdict import ChainState, Error, Verdict, VerdictKind

LEGAL_SHOWN = 20
LEGAL_COUNTED = 10_000  # blocks and payments can be combinatorial: count the rest only this far
# `\r\n` is a line ending; a `\r` left over after it (`\r\r\n`, or a last line ending in `\r`) is not.
STRAY_CR = "the line ends in a stray carriage return (only \\n or \\r\\n end a line)"
# An error is one line whatever the log holds: control characters are escaped, and
# a message quoting a megabyte-long key or card name is cut short.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
MESSAGE_LIMIT, FIELD_LIMIT = 300, 100
_SEQ, _BY, _PREV = attrgetter("seq"), attrgetter("by"), attrgetter("prev")
# How the records the referee's core judges (a reveal, a take-back, the keeper) start as the project writes them
_OWN = re.compile(rb'\{"type":"(?:reveal|take_back|agree_take_back|withdraw|keeper)"')


@dataclass
class Replay:
    """What a replay leaves behind: the verdict, and the game as it stood at the end."""

    verdict: Verdict
    ruleset: Ruleset | None = None
    header: Header | None = None
    state: Any = None
    last_line: bytes | None = None
    last_seq: int = 0
    ledger: Ledger | None = None  # a dealt game's chance records, until the seed is revealed
    backs: TakeBacks | None = None  # what the take-back rules read (referee/takeback.py)


class Misdealt(Illegal):
    """DL-2: an earlier chance record (at `seq`, on `line`) is not the one the revealed seed gives."""

    def __init__(self, seq: int, line: int, expected: bytes | None) -> None:
        dealt = expected.decode() if expected is not None else "nothing (no card could come there)"
        super().__init__("DL-2", f"record {seq} is not what the revealed seed deals there, which is {dealt}")
        self.seq, self.line = seq, line
        self.expected = [msgspec.json.decode(expected)] if expected is not None else []


def advance(replay: Replay, record: Record, line: int) -> None:
    """Apply `record` (on `line`) to the replay's game, or raise Illegal: the referee's own rules for dealt games
    first (DL-1 to DL-3, docs/referee.md), then the game's. A Misdealt names an earlier record."""
    ledger, ruleset, backs = replay.ledger, replay.ruleset, replay.backs
    assert ruleset is not None and backs is not None
    if type(record) in OWN:  # Rewind when it withdraws a record: the caller judges the log again
        backs.judge(record, ruleset, replay.state)
        return
    backs.note(record)
    if ledger is None:
        if type(record) is Reveal:
            raise Illegal("DL-3", "there is no seed to reveal: the header commits to none (it has no deal)")
        ruleset.apply(replay.state, record)
        return
    if ledger.revealed:
        raise Illegal("DL-3", "the seed was revealed: no record may follow the reveal")
    if type(record) is Reveal:
        if record.by != CHANCE:
            raise Illegal("DL-3", f"{record.by} may not reveal the seed: only chance reveals it")
        if commitment(record.seed) != ledger.commit:
            raise Illegal("DL-1", "this seed is not the one the header committed to (its SHA-256 differs from deal.commit)")
        wrong = ledger.first_wrong(record.seed)
        if wrong is not None:
            raise Misdealt(*wrong)
        ledger.revealed = True
        replay.verdict.deal = "verified"
        return
    if record.by == CHANCE:
        if getattr(record, "card", True) is None:
            raise Illegal("DL-4", "a dealt log names every card it deals: this draw leaves its card out")
        ledger.note(ruleset, replay.state, record, record.seq, line)
    ruleset.apply(replay.state, record)


def legal_listing(ruleset: Ruleset, state: Any, shown: int = LEGAL_SHOWN) -> tuple[list[dict[str, Any]], int]:
    """Up to `shown` legal records as plain data, and how many more there are (at most LEGAL_COUNTED)."""
    legal = ruleset.legal(state)
    listed = [record_to_dict(r) for r in itertools.islice(legal, shown)]
    return listed, sum(1 for _ in itertools.islice(legal, LEGAL_COUNTED))


def _stop(replay: Replay, kind: VerdictKind, error: Error, chain: ChainState) -> Replay:
    """Fill in a failing verdict, with the state and what was legal at the failure."""
    verdict = replay.verdict
    verdict.verdict = kind
    error.message = one_line(error.message, MESSAGE_LIMIT)
    if error.field:
        error.field = one_line(error.field, FIELD_LIMIT)
    verdict.error = error
    verdict.chain = chain
    verdict.records_checked = max(0, (error.seq or 1) - 1)
    if replay.ruleset is not None and replay.state is not None:
        ruleset, state = replay.ruleset, replay.state
        verdict.to_act = list(ruleset.to_act(state))
        verdict.unchecked = ruleset.unchecked(state)
        verdict.unnamed_draws = unnamed_draws(state)
        verdict.state = ruleset.describe(state)
        if kind == "illegal" and error.seq:
            error.legal, more = legal_listing(ruleset, state)
            error.legal_more = more or None
    return replay


def one_line(text: str, limit: int) -> str:
    """`text` on one line (control characters escaped as Python writes them), at most about `limit` characters."""
    text = _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def start(header_line: bytes) -> tuple[Header, Ruleset, Any]:
    """Decode and check the header; raise Malformed or Illegal."""
    header, ruleset, setup = read_header(header_line)
    return header, ruleset, ruleset.start(header, setup)


def read_header(header_line: bytes) -> tuple[Header, Ruleset, Any]:
    """Decode the header and its setup, and check what the rules do not (the ruleset, the player ids); raise Malformed."""
    written = header_as_written(header_line)  # (header, setup) in one pass, for a header as the project writes it
    if written is None:
        try:
            header = HEADER_DECODER.decode(header_line)
            key = repeated_key(header_line, header)
        except DECODE_ERRORS as exc:
            raise explain(exc, line=header_line) from None
        if key:
            raise repeated(key)
    else:
        header = written[0]  # its line is msgspec's encoding of it, the setup aside (checked below): no key repeats
    if header.ruleset not in ruleset_ids():
        raise Malformed(f"unknown ruleset {header.ruleset!r} (known: {', '.join(ruleset_ids())})", "ruleset")
    if len(set(header.players)) != len(header.players):
        raise Malformed("a player is listed twice", "players")
    if {CHANCE, JUDGE} & set(header.players):
        raise Malformed(f"{CHANCE!r} and {JUDGE!r} are not player ids", "players")
    ruleset = get_ruleset(header.ruleset)
    if written is None:
        try:
            setup = setup_decoder(header.ruleset).decode(header.setup)
        except DECODE_ERRORS as exc:
            raise explain(exc, "setup.", header_line) from None
        # The line's own check above passes any setup: the setup is Raw there, re-encoded as it was written.
        if key := repeated_key(bytes(header.setup), setup):
            raise repeated(key)
    else:
        # No key repeats: header_as_written compared the line with the setup re-encoded, all but its
        # remembered parts, and those refuse a repeat when first decoded (patterns.remembered_twin).
        setup = written[1]
    return header, ruleset, setup


def judge(lines: Iterable[bytes], path: str | None = None, *, upto: int | None = None) -> Replay:
    """Replay a log, given as a binary stream or as raw lines (with or without endings), and judge it.

    With `upto`, stop after the record whose seq is `upto` (the state there is
    what `replay --to` and `legal --at` show).
    """
    try:
        (first, batches), again = _again(lines)
        return _replay(first, batches, path, upto, again)
    except TooLarge as exc:
        raise exc.at("stdin" if path == "-" else path or "the log") from None  # named as dispute and show name it


def _replay(raw: bytes | None, batches: Iterable[Batch], path: str | None, upto: int | None,
            again: Callable[[], tuple[bytes | None, Iterator[Batch]]], skip: dict[int, int] | None = None) -> Replay:
    """`judge`, given the log's first raw line and its other lines in batches; `again` reads them anew from the
    start when a withdrawal has the log judged again without the records of `skip` (referee/takeback.py)."""
    verdict = Verdict("ongoing", None, None, 0, "absent", None, [], None, 0, path, None)
    replay = Replay(verdict)
    if raw is None:
        return _stop(replay, "malformed", Error(1, "the log is empty: line 1 must be the header"), "absent")
    header_line = strip_ending(raw)
    if header_line[-1:] == b"\r":
        return _stop(replay, "malformed", Error(1, STRAY_CR, seq=0), "absent")
    try:
        header, ruleset, state = start(header_line)
    except Malformed as exc:
        return _stop(replay, "malformed", Error(1, exc.message, seq=0, field=exc.field), "absent")
    except Illegal as exc:
        verdict.ruleset = get_ruleset_id(header_line)
        return _stop(replay, "illegal", Error(1, exc.message, seq=0, rule=exc.rule), "absent")
    verdict.ruleset, verdict.game = header.ruleset, header.game
    replay.ruleset, replay.header, replay.state = ruleset, header, state
    replay.backs = TakeBacks(list(header.players), header.deal is not None, skip or {})
    if header.deal is not None:
        replay.ledger = Ledger(header.deal)
        verdict.deal = "committed"
    records = _Records(replay, header, header_line, -1 if upto is None else max(upto, 0))
    try:
        if not records.check(batches):
            return replay
    except Rewind as rewind:
        return _replay(*again(), path, upto, again, rewind.skip)
    replay.last_line, replay.last_seq = records.line, records.seq
    verdict.records_checked = records.seq
    verdict.chain = _chain(records.chained)
    verdict.result = ruleset.result(state)
    verdict.verdict = "ongoing" if verdict.result is None else "complete"
    verdict.to_act = list(ruleset.to_act(state))
    verdict.unchecked = ruleset.unchecked(state)
    verdict.unnamed_draws = unnamed_draws(state)
    return replay


class _Records:
    """Checks the records after the header, many lines at a time while they are as the project writes them.

    A batch of lines that msgspec writes back byte for byte (so no key is
    repeated), with every `by`, `seq` and `prev` right, goes straight to the
    rules, each record once its deferred patterns hold (referee/patterns.py).
    Any other batch is checked line by line, in the order docs/referee.md
    gives, and so are the rest of that log's lines (a log written by another
    program, or with CRLF endings, never passes as a batch); so is the rest
    of a batch from a record whose deferred pattern breaks.
    Either way the first failure decides, and is the same failure.
    """

    def __init__(self, replay: Replay, header: Header, header_line: bytes, stop: int) -> None:
        assert replay.ruleset is not None
        self.replay, self.state, self.apply = replay, replay.state, replay.ruleset.apply
        ruleset = replay.ruleset
        # record type -> what applies it: the game's own table (which the game keeps current), or else its `apply`
        handlers = ruleset.handlers(replay.state)
        self.handlers = dict.fromkeys((*ruleset.records, *COMMON_RECORDS), self.apply) if handlers is None else handlers
        self.decoder = record_decoder(header.ruleset)
        self.checks = self.decoder.checks  # record type -> its deferred patterns' check, for types that have some
        self.actors = frozenset({*header.players, CHANCE, JUDGE})
        self.stop = stop  # the seq to stop after; -1 for none
        self.seq = 0  # the last record checked and found good; line seq + 1 holds it
        self.line = header_line
        self.chained: bool | None = None  # decided by record 1
        self.prev_hash = sha256(header_line).hexdigest()
        self.backs = replay.backs
        # a dealt game's chance records are noted one by one, and so is every record of a log judged again
        # without a withdrawn record
        self.batched = replay.ledger is None and not (replay.backs and replay.backs.skip)

    def check(self, batches: Iterable[Batch]) -> bool:
        """Check every batch, in order; False once a line failed (the replay then holds the verdict)."""
        for chunk, raws in batches:
            if self.seq == self.stop:
                break
            if self.batched and chunk is not None:
                passed = self._batch(chunk)
                if passed is not None:
                    if not passed:
                        return False
                    continue
                self.batched = False
            for raw in raws if raws is not None else raw_lines(chunk):  # type: ignore[arg-type]
                if self.seq == self.stop:
                    break
                if not self._line(raw):
                    return False
        return True

    def _batch(self, chunk: bytes) -> bool | None:
        """Check a batch of whole lines at once: True when all pass, False at an illegal record, None to go line by line."""
        if _OWN.search(chunk):  # the referee's own rules judge these (`advance`), line by line
            return None
        try:
            records = self.decoder.decode_lines(chunk)
            if ENCODER.encode_lines(records) != (chunk if chunk[-1:] == b"\n" else chunk + b"\n"):
                return None
        except Exception:  # whatever msgspec cannot read, or write back (a lone surrogate), `_line` explains
            return None
        lines = chunk.split(b"\n")
        if not lines[-1]:
            lines.pop()
        seq = self.seq
        if 0 <= self.stop < seq + len(lines):
            del records[self.stop - seq :], lines[self.stop - seq :]
        count = len(records)
        if list(map(_SEQ, records)) != list(range(seq + 1, seq + count + 1)) or not self.actors.issuperset(
            map(_BY, records)
        ):
            return None
        chained = records[0].prev is not None if self.chained is None else self.chained
        prevs = list(map(_PREV, records))
        if chained:
            hashes = [sha256(line).hexdigest() for line in lines]
            if prevs != [self.prev_hash, *hashes[:-1]]:
                return None
        elif prevs.count(None) != count:
            return None
        self.chained = chained
        applied = self._apply(records, seq)
        if applied is None:
            return False
        if applied < count:  # a deferred pattern breaks: `_line` reads that record again and gives msgspec's error
            return self._resume(applied, lines, hashes if chained else None)
        self.seq, self.line = seq + count, lines[-1]
        if chained:
            self.prev_hash = hashes[-1]
        assert self.backs is not None
        self.backs.run = []  # only the last record matters to a take-back before any withdrawal
        self.backs.note(records[-1])
        return True

    def _apply(self, records: list[Record], seq: int) -> int | None:
        """Apply records that read well, the first being seq + 1, each once its deferred patterns hold.

        How many were applied: all of them, or those before the first whose
        patterns break; None once one breaks a rule (the verdict says which).
        One Python loop does both, as the first failure decides either way; and
        a handler called from Python costs less than one called from a C loop.
        """
        state, handlers, checks = self.state, self.handlers, self.checks
        try:
            for index, record in enumerate(records):
                kind = type(record)
                check = checks.get(kind)
                if check is not None and not check(record):
                    return index
                handlers[kind](state, record)
        except Illegal as exc:
            self.seq = seq + index
            self._fail("illegal", Error(seq + index + 2, exc.message, seq=seq + index + 1, rule=exc.rule))
            return None
        return len(records)

    def _resume(self, index: int, lines: list[bytes], hashes: list[str] | None) -> bool:
        """After the batch's first `index` records were applied, check the rest of its lines one by one."""
        if index:
            self.seq, self.line = self.seq + index, lines[index - 1]
            if hashes is not None:
                self.prev_hash = hashes[index - 1]
        elif self.seq == 0:
            self.chained = None  # record 1 decides the chain only once it reads well
        return all(self._line(line + b"\n") for line in lines[index:])

    def _line(self, raw: bytes) -> bool:
        """Check one raw line (with its ending, if it has one); False if it fails."""
        expected = self.seq + 1
        lineno = expected + 1
        line = raw[:-1] if raw[-1:] == b"\n" else raw
        if line[-1:] == b"\r":
            line = line[:-1]
            if line[-1:] == b"\r" or raw[-1:] != b"\n":
                return self._fail("malformed", Error(lineno, STRAY_CR, seq=expected))
        try:
            record: Record = self.decoder.decode(line)
        except DECODE_ERRORS as exc:
            if not line:
                return self._fail("malformed", Error(lineno, "blank line", seq=expected))
            bad = explain(exc, line=line)
            return self._fail("malformed", Error(lineno, bad.message, seq=expected, field=bad.field))
        chained = self.chained
        # One test for a line as the project writes it: canonical (so no repeated key), the
        # right player, seq and prev. Anything else is looked at in order by `_line_fault`.
        if (
            chained is None
            or ENCODER.encode(record) != line
            or record.by not in self.actors
            or record.seq != expected
            or record.prev != (self.prev_hash if chained else None)
        ):
            fault = _line_fault(line, record, lineno, expected, self.actors, chained, self.prev_hash)
            if fault is not None:
                _stop(self.replay, *fault)
                return False
            if chained is None:
                self.chained = chained = record.prev is not None
        if chained:
            self.prev_hash = sha256(line).hexdigest()
        backs = self.backs
        assert backs is not None
        try:
            if expected in backs.skip:  # withdrawn further on: read and kept in the chain, not played
                backs.skipped(record)
            elif self.replay.ledger is None and type(record) is not Reveal and type(record) not in OWN:
                self.apply(self.state, record)
                backs.note(record)
            else:
                advance(self.replay, record, lineno)
        except Misdealt as exc:
            # found at the reveal: the error names the draw, with what the seed deals there (the state is the end's)
            self._fail("illegal", Error(exc.line, exc.message, seq=exc.seq, rule=exc.rule))
            error = self.replay.verdict.error
            assert error is not None
            error.legal, error.legal_more = exc.expected, None
            return False
        except Illegal as exc:
            found = blamed(backs.skip, expected, exc)
            if found is not None:  # the log was legal until a withdrawal made this record illegal: it is at fault
                at, exc = found
                return self._fail("illegal", Error(at + 1, exc.message, seq=at, rule=exc.rule))
            return self._fail("illegal", Error(lineno, exc.message, seq=expected, rule=exc.rule))
        self.seq, self.line = expected, line
        return True

    def _fail(self, kind: VerdictKind, error: Error) -> bool:
        _stop(self.replay, kind, error, _chain(self.chained))
        return False


def _line_fault(
    line: bytes, record: Record, lineno: int, expected: int, actors: Set[str], chained: bool | None, prev_hash: str
) -> tuple[VerdictKind, Error, ChainState] | None:
    """The first thing wrong with a decoded line, in the order docs/referee.md gives (fields, seq, chain), or None."""
    prev = record.prev
    if prev is not None and prev != prev_hash:  # the decode leaves prev's pattern to here
        try:
            msgspec.convert(prev, Hash)
        except msgspec.ValidationError as exc:
            return "malformed", Error(lineno, explain(exc).message, seq=expected, field="prev"), _chain(chained)
    try:
        key = repeated_key(line, record)
    except DECODE_ERRORS as exc:
        bad = explain(exc, line=line)
        return "malformed", Error(lineno, bad.message, seq=expected, field=bad.field), _chain(chained)
    if key:
        return "malformed", Error(lineno, repeated(key).message, seq=expected, field=key), _chain(chained)
    if record.by not in actors:
        message = f"{record.by!r} is not a player in this game, {CHANCE!r} or {JUDGE!r}"
        return "malformed", Error(lineno, message, seq=expected, field="by"), _chain(chained)
    if record.seq != expected:
        message = f"seq is {record.seq}, expected {expected}"
        return "malformed", Error(lineno, message, seq=expected, field="seq"), _chain(chained)
    if chained is None:
        chained = prev is not None
    if chained and prev != prev_hash:
        message = (
            f"prev does not match the SHA-256 of line {lineno - 1}"
            if prev
            else "prev is missing, but the log's chain started at record 1"
        )
        return "tampered", Error(lineno, message, seq=expected, field="prev"), "broken"
    if not chained and prev is not None:
        message = "prev appears, but record 1 started the log without a chain"
        return "tampered", Error(lineno, message, seq=expected, field="prev"), "broken"
    return None


class _Kept:
    """A source that can be read only once (a pipe, an iterator of lines), kept in a temporary file as it is read,
    so that a withdrawal can have the log judged again from its start (referee/takeback.py); the memory a
    replay holds does not grow with the log."""

    def __init__(self) -> None:
        self.file = tempfile.TemporaryFile()  # noqa: SIM115 (open while the replay reads; closed when dropped)

    def reading(self, read: Callable[[int], bytes]) -> Callable[[int], bytes]:
        def kept(size: int) -> bytes:
            data = read(size)
            self.file.write(data)
            return data

        self.rest: Iterator[bytes] = iter(partial(kept, BATCH_BYTES), b"")
        return kept

    def lines(self, lines: Iterable[bytes]) -> Iterator[bytes]:
        def kept() -> Iterator[bytes]:
            for line in lines:
                self.file.write(line if line[-1:] == b"\n" else line + b"\n")
                yield line

        self.rest = kept()
        return self.rest

    def again(self) -> tuple[bytes | None, Iterator[Batch]]:
        """The whole source from its start: what the first pass left unread is read (and kept) first."""
        for _ in self.rest:
            pass
        self.file.seek(0)
        return read_blocks(self.file.read)


Reading = tuple[bytes | None, Iterator[Batch]]  # a log's first raw line and its other lines in batches


def _again(lines: Iterable[bytes]) -> tuple[Reading, Callable[[], Reading]]:
    """`lines` read (`read_batches`), and what reads them again from the start (a withdrawal's second pass):
    lines given as a list are read again, a file sought back, a stream or an iterator kept as it is read."""
    read = getattr(lines, "read", None)
    if read is None:
        if isinstance(lines, Sequence):
            return read_batches(lines), lambda: read_batches(lines)
        kept = _Kept()
        return read_batches(kept.lines(lines)), kept.again
    seekable = getattr(lines, "seekable", None)
    if seekable is not None and seekable():
        start = lines.tell()  # type: ignore[attr-defined]

        def back() -> Reading:
            lines.seek(start)  # type: ignore[attr-defined]
            return read_batches(lines)

        return read_batches(lines), back
    kept = _Kept()
    return read_blocks(kept.reading(read)), kept.again


def _chain(chained: bool | None) -> ChainState:
    return "verified" if chained else "absent"


def get_ruleset_id(header_line: bytes) -> str | None:
    """The ruleset a header names, or None when it cannot be read."""
    try:
        return HEADER_DECODER.decode(header_line).ruleset
    except DECODE_ERRORS:
        return None


def judge_file(path: str) -> Replay:
    """Judge the log at `path` (`-` is stdin)."""
    if path == "-":
        return judge(sys.stdin.buffer, "-")
    # Read a block at a time with os.read: a file object (open) would cost an fstat and more than
    # the reads themselves for a log of a few kilobytes. Errors are OSErrors, as open raises them
    # (a directory's comes at the first read).
    fd = os.open(path, os.O_RDONLY)
    try:
        read: Callable[[int], bytes] = partial(os.read, fd)

        def again() -> tuple[bytes | None, Iterator[Batch]]:
            os.lseek(fd, 0, os.SEEK_SET)
            return read_blocks(read)

        try:
            os.lseek(fd, 0, os.SEEK_CUR)
        except OSError:  # a pipe named by a path: kept as it is read
            kept = _Kept()
            read, again = kept.reading(read), kept.again
        first, batches = read_blocks(read)
        return _replay(first, batches, path, None, again)
    except TooLarge as exc:
        raise exc.at(path) from None
    finally:
        os.close(fd)
