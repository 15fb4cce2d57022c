"""Any bytes get an answer: a verdict or a one-line error, never a traceback, over every game.

`bench/mutate.py` runs the same mutations over 100,000 logs; this runs a bounded sample.
"""

from __future__ import annotations

import contextlib
import io
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.bots import bot_header, play
from referee.engine import STRAY_CR, judge
from referee.logio import encode_lines
from referee.rulesets import ids as ruleset_ids
from tests import mutations, selfplay

GAMES = ruleset_ids()
PREFIX = {"cardwars": "CW-", "crossover": "XO-", "maginot": "MG-", "basictcg-mtg": "BT-", "stccg-multiplayer": "SG-"}
SAMPLE, FULL = 2_000, 100_000


@cache
def bot_log(ruleset_id: str, seed: int) -> list[bytes]:
    header = bot_header(ruleset_id, seed)
    return list(encode_lines(header, play(header, seed)))


def no_crashes(count: int, start: int) -> None:
    crashes = [f"{case}: {why}" for case in mutations.cases(count, start) if (why := mutations.crash(case))]
    assert not crashes, f"{len(crashes)} tracebacks; the first:\n" + "\n".join(crashes[:5])


@pytest.mark.parametrize("start", range(0, SAMPLE, SAMPLE // 5))
def test_a_sample_of_mutated_logs_never_crashes(start: int) -> None:
    """Cases 0..1999 of the bench's 100,000: every game, every mutation, one to three at a time."""
    no_crashes(SAMPLE // 5, start)


@pytest.mark.slow
@pytest.mark.parametrize("start", range(SAMPLE, FULL, (FULL - SAMPLE) // 10))
def test_all_the_mutated_logs_never_crash(start: int) -> None:
    """The rest of bench/mutate.py's 100,000 cases, in ten parts (about 15 minutes on one core)."""
    no_crashes((FULL - SAMPLE) // 10, start)


def test_the_judge_s_pages_draw_mutated_logs() -> None:
    """`referee show` and `dispute --html` answer mutated logs too: a page, or their one-line refusal."""
    from referee.show import CannotShow, dispute_page, show_page

    drawn = 0
    for case in mutations.cases(20, 7_000):
        mutated = io.BytesIO(case.data).readlines()
        original = io.BytesIO(mutations.bot_log(case.ruleset, case.seed, case.players)).readlines()
        with contextlib.suppress(CannotShow):  # its one-line refusal (a log it cannot draw at all)
            assert "<html" in show_page(mutated, "mutated.jsonl")
            drawn += 1
        assert "<html" in dispute_page("original.jsonl", original, "mutated.jsonl", mutated), case
    assert drawn > 0  # not every case refused: show_page's assertion ran


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 20), kind=st.sampled_from(selfplay.MUTATIONS),
       where=st.floats(0, 1), other=st.floats(0, 1), key=st.sampled_from(["seq", "by", "type", "card", "player", "prev", "zzz"]),
       value=st.one_of(st.none(), st.integers(-3, 60), st.text(max_size=4), st.sampled_from(["ann", "bob", "chance"])))  # fmt: skip
def test_mutated_logs_of_every_game_get_a_verdict(game, seed, kind, where, other, key, value) -> None:  # type: ignore[no-untyped-def]
    log = bot_log(game, seed)
    selfplay.check_mutated(log, selfplay.mutate(log, kind, where, other, key, value), kind, PREFIX[game])


@settings(max_examples=200, deadline=None)
@given(game=st.sampled_from(GAMES), name=st.sampled_from(sorted(mutations.MUTATORS)), rng=st.randoms(use_true_random=False))
def test_each_byte_mutation_gets_a_verdict(game: str, name: str, rng) -> None:  # type: ignore[no-untyped-def]
    original = b"".join(line + b"\n" for line in bot_log(game, 0))
    verdict = mutations.answer(mutations.MUTATORS[name](original, rng), original)
    assert verdict.verdict in selfplay.KINDS
    if verdict.error is not None:
        assert verdict.error.line >= 1 and verdict.error.message and "\n" not in verdict.error.message + (verdict.error.field or "")


def verdict_of(data: bytes):  # type: ignore[no-untyped-def]
    return judge(io.BytesIO(data)).verdict


LOG = b"".join(line + b"\n" for line in bot_log("cardwars", 1))


@pytest.mark.parametrize("line", [1, 2, 5])
@pytest.mark.parametrize("bad", mutations.INVALID_UTF8)
def test_bytes_that_are_not_utf8_are_malformed_at_their_line(line: int, bad: bytes) -> None:
    lines = LOG.split(b"\n")
    lines[line - 1] = lines[line - 1].replace(b'"', b'"' + bad, 1)
    v = verdict_of(b"\n".join(lines))
    assert (v.verdict, v.error.line) == ("malformed", line) and v.error.message.startswith("not UTF-8: byte 0x")


@pytest.mark.parametrize("depth", [100, 100_000])
def test_deep_nesting_is_malformed_in_a_record_and_in_the_setup(depth: int) -> None:
    lines = LOG.split(b"\n")
    nested = b"[" * depth + b"]" * depth
    record = verdict_of(b"\n".join([*lines[:2], lines[2].replace(b'"by":', b'"note":' + nested + b',"by":'), *lines[3:]]))
    setup = verdict_of(b"\n".join([lines[0].replace(b'"setup":{', b'"setup":{"z":' + nested + b","), *lines[1:]]))
    assert (record.verdict, record.error.line, setup.verdict, setup.error.line) == ("malformed", 3, "malformed", 1)
    if depth > 1_000:
        assert setup.error.message == "nested too deeply to read"
    else:
        assert setup.error.field == "setup.z"


@pytest.mark.parametrize(
    ("number", "field"),
    [(b"9" * 5_000, "seq"), (b"1e400", "seq"), (b"18446744073709551616", "seq"), (b"-9223372036854775809", "seq"), (b"3.0", "seq")],
)
def test_huge_numbers_are_malformed(number: bytes, field: str) -> None:
    lines = LOG.split(b"\n")
    lines[3] = lines[3].replace(b'"seq":3', b'"seq":' + number)
    v = verdict_of(b"\n".join(lines))
    assert (v.verdict, v.error.line, v.error.field) == ("malformed", 4, field)


def test_a_long_string_is_judged_like_any_other() -> None:
    """A megabyte of card name is not a card: malformed at its line, with no crash and no copy of it in the message."""
    lines = LOG.split(b"\n")
    lines[2] = lines[2].replace(b'"card":"', b'"card":"' + b"Q" * 1_000_000, 1)
    v = verdict_of(b"\n".join(lines))
    assert (v.verdict, v.error.line) == ("malformed", 3) and len(v.error.message) < 500


@pytest.mark.parametrize("line", [1, 2, 6])
def test_a_cr_before_the_crlf_is_malformed_not_tampered(line: int) -> None:
    lines = LOG.rstrip(b"\n").split(b"\n")
    crlf = [x + b"\r\n" for x in lines]
    crlf[line - 1] = lines[line - 1] + b"\r\r\n"
    v = verdict_of(b"".join(crlf))
    assert (v.verdict, v.error.line, v.error.message) == ("malformed", line, STRAY_CR)


def test_a_last_line_ending_in_a_bare_cr_is_malformed() -> None:
    v = verdict_of(LOG.rstrip(b"\n") + b"\r")
    assert (v.verdict, v.error.line) == ("malformed", LOG.count(b"\n"))


@pytest.mark.parametrize("line", [1, 3])
def test_a_byte_order_mark_is_named(line: int) -> None:
    lines = LOG.split(b"\n")
    lines[line - 1] = b"\xef\xbb\xbf" + lines[line - 1]
    v = verdict_of(b"\n".join(lines))
    assert (v.verdict, v.error.line) == ("malformed", line) and "byte-order mark" in v.error.message


def test_crlf_alone_is_still_fine() -> None:
    assert verdict_of(LOG.replace(b"\n", b"\r\n")).verdict == "complete"


@pytest.mark.parametrize("where", ["header", "by"])
def test_an_id_with_a_final_newline_is_not_the_id(where: str) -> None:
    """`$` in a Python pattern also matches before a final newline: ids are matched whole."""
    lines = LOG.split(b"\n")
    if where == "header":
        lines[0] = lines[0].replace(b'"players":["ann"', b'"players":["ann\\n"')
        expected = (1, "players[0]")
    else:
        lines[3] = lines[3].replace(b'"by":"ann"', b'"by":"ann\\n"').replace(b'"by":"bob"', b'"by":"bob\\n"')
        expected = (4, "by")
    v = verdict_of(b"\n".join(lines))
    assert (v.verdict, v.error.line, v.error.field) == ("malformed", *expected), v.error


def test_a_prev_with_a_final_newline_is_not_a_hash() -> None:
    lines = LOG.split(b"\n")
    prev_at = lines[3].index(b'"prev":"') + len(b'"prev":"')
    lines[3] = lines[3][: prev_at + 64] + b"\\n" + lines[3][prev_at + 64 :]
    v = verdict_of(b"\n".join(lines))
    assert (v.verdict, v.error.line, v.error.field) == ("malformed", 4, "prev"), v.error
