"""The engine's shortcuts give the verdicts the slow, obvious checks give."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.bots import bot_header, play
from referee.engine import judge
from referee.linecheck import repeated_key
from referee.logio import encode_lines
from tests.cardwars.cwlog import lines


def _has_repeat(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise KeyError
    return dict(pairs)


def reference_repeats(line: bytes) -> bool:
    """The obvious check: the standard library's parser sees every key of every object."""
    try:
        json.loads(line, object_pairs_hook=_has_repeat)
    except KeyError:
        return True
    return False


# keys and strings drawn from few characters, colons, quotes and escapes among them, so repeats are common
text = st.text(alphabet='ab:"\\\u00e9 ', max_size=4)
value = st.recursive(
    st.none() | st.integers(-5, 5) | text,
    lambda inner: st.lists(inner, max_size=3) | st.lists(st.tuples(text, inner), max_size=4),
    max_leaves=8,
)


def dump(data: Any, separators: tuple[str, str], escaped: bool) -> str:
    """JSON text keeping every pair of a list of pairs as written, repeats included.

    `escaped` writes non-ASCII and colons inside strings as \\u escapes.
    """
    if isinstance(data, list) and data and all(isinstance(p, tuple) for p in data):
        inner = separators[0].join(dump(k, separators, escaped) + separators[1] + dump(v, separators, escaped) for k, v in data)
        return "{" + inner + "}"
    if isinstance(data, list):
        return "[" + separators[0].join(dump(v, separators, escaped) for v in data) + "]"
    token = json.dumps(data, ensure_ascii=escaped)
    return token.replace(":", "\\u003a") if escaped else token


@settings(max_examples=300, deadline=None)
@given(
    pairs=st.lists(st.tuples(text, value), min_size=1, max_size=5),
    separators=st.sampled_from([(",", ":"), (", ", ": "), (" ,", " : ")]),
    escaped=st.booleans(),
)
def test_repeated_key_agrees_with_the_standard_parser(pairs: list[tuple[str, Any]], separators: tuple[str, str], escaped: bool) -> None:
    line = dump(pairs, separators, escaped).encode()
    assert (repeated_key(line, None) is not None) == reference_repeats(line)


def test_a_repeat_is_found_among_colons_inside_strings() -> None:
    line = b'{"seq": 3, "by": "ann", "note": "a: b", "type": "attack", "attackers": [], "note": "c"}'
    v = judge(io.BytesIO(b"\n".join([*lines([]), line]))).verdict
    assert v.error is not None and (v.verdict, v.error.field) == ("malformed", "note")


def test_a_foreign_line_without_repeats_passes() -> None:
    """Spaces after separators and colons inside strings: not the canonical encoding, but no repeats."""
    assert repeated_key(b'{"a": "x:y", "b": {"c": "::", "d": [":", {"e": 1}]}}', None) is None


def chained() -> list[bytes]:
    header = bot_header("cardwars", 3)
    return list(encode_lines(header, play(header, 3)))


def test_a_prev_that_is_not_a_hash_is_malformed_and_named() -> None:
    """The decode no longer checks prev's pattern; the engine still says what is wrong with it, first."""
    log = chained()
    record = json.loads(log[3]) | {"prev": "not a hash", "seq": 99}
    v = judge(io.BytesIO(b"\n".join([*log[:3], json.dumps(record).encode()]))).verdict
    assert v.error is not None
    assert (v.verdict, v.error.line, v.error.field) == ("malformed", 4, "prev")
    assert "[0-9a-f]{64}" in v.error.message


def test_a_well_formed_wrong_prev_is_tampered() -> None:
    log = chained()
    record = json.loads(log[3]) | {"prev": "0" * 64}
    v = judge(io.BytesIO(b"\n".join([*log[:3], json.dumps(record).encode()]))).verdict
    assert v.error is not None and (v.verdict, v.error.line, v.error.field) == ("tampered", 4, "prev")


def spliced(ruleset_id: str, seed: int) -> bytes:
    """A chained log whose records switch from one bot game to another partway: legal up to a point, then mostly illegal."""
    from referee.logio import record_decoder

    decode = record_decoder(ruleset_id).decode
    header = bot_header(ruleset_id, seed)
    first, second = (list(encode_lines(header, play(header, s)))[1:] for s in (seed, seed + 1))
    cut = len(first) * (seed % 5 + 1) // 6
    records = [decode(line) for line in first[:cut] + second[cut:]]
    return b"".join(line + b"\n" for line in encode_lines(header, records))


def test_batches_give_the_verdicts_line_by_line_checks_give(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine checks a batch of lines at once only when all are as msgspec writes them; whole verdicts agree."""
    from referee import engine
    from referee.rulesets import ids
    from tests import mutations

    logs = [case.data for case in mutations.cases(150, 40_000)]
    logs += [spliced(ruleset_id, seed) for ruleset_id in ids() for seed in range(6)]
    logs += [mutations.bot_log(ruleset_id, 1, 2) for ruleset_id in ids()]
    uptos = (None, 0, 7, 200)

    def verdicts() -> list[Any]:
        return [
            (judge(io.BytesIO(data), upto=upto).verdict, judge(data.splitlines(), upto=upto).last_seq)
            for data in logs
            for upto in uptos
        ]

    batch, answers = engine._Records._batch, []

    def noted(self: Any, chunk: bytes) -> bool | None:
        answers.append(batch(self, chunk))
        return answers[-1]

    monkeypatch.setattr(engine._Records, "_batch", noted)
    batched = verdicts()
    assert True in answers and False in answers  # the batch path passed whole batches and caught an illegal record
    monkeypatch.setattr(engine._Records, "_batch", lambda self, chunk: None)
    assert verdicts() == batched
    assert {v.verdict for v, _ in batched} >= {"complete", "ongoing", "illegal", "malformed", "tampered"}


@pytest.mark.parametrize("ruleset_id", ["basictcg-mtg", "crossover", "maginot", "stccg-multiplayer"])
def test_a_record_breaking_a_deferred_pattern_fails_in_a_batch_as_line_by_line(
    ruleset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A canonical line whose string breaks its deferred pattern (referee/patterns.py) is malformed, with msgspec's error."""
    import msgspec

    from referee import engine
    from referee.logio import record_decoder

    decoder = record_decoder(ruleset_id)
    header = bot_header(ruleset_id, 2)
    records = list(play(header, 2))
    broken = None
    for index in reversed(range(1, len(records))):  # the last such record: the batch applies all before it
        record = records[index]
        for name in type(record).__struct_fields__:
            value = getattr(record, name)
            if name not in ("by", "note") and isinstance(value, str) and not decoder.valid(bad := msgspec.structs.replace(record, **{name: " x"})):
                records[index], broken = bad, (index, name)
                break
        if broken:
            break
    assert broken is not None
    data = b"".join(line + b"\n" for line in encode_lines(header, records))
    batched = judge(io.BytesIO(data)).verdict
    monkeypatch.setattr(engine._Records, "_batch", lambda self, chunk: None)
    assert judge(io.BytesIO(data)).verdict == batched
    assert batched.error is not None
    assert (batched.verdict, batched.error.line, batched.error.field) == ("malformed", broken[0] + 2, broken[1])
    assert "matching regex" in batched.error.message


def test_a_header_read_in_one_pass_is_the_header_read_step_by_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """logio.header_as_written: the same header and setup as the step by step decode, and the same verdicts."""
    from referee import engine
    from referee.logio import ENCODER, HEADER_DECODER, header_as_written, setup_decoder
    from referee.patterns import remembered_twin
    from referee.rulesets import get, ids
    from tests import mutations

    one_pass_games = [i for i in ids() if remembered_twin(get(i).setup_type) is not None]
    assert one_pass_games  # else the comparisons below would only compare the step by step path with itself
    for ruleset_id in ids():
        line = ENCODER.encode(bot_header(ruleset_id, 3))
        written = header_as_written(line)
        if ruleset_id not in one_pass_games:  # a setup without remembered parts is read step by step
            assert written is None
            continue
        assert written is not None  # a bot's header is written as the project writes it
        header = HEADER_DECODER.decode(line)
        assert written == (header, setup_decoder(ruleset_id).decode(header.setup))
        assert bytes(written[0].setup) == bytes(header.setup)
        assert header_as_written(json.dumps(json.loads(line)).encode()) is None  # not canonical: step by step
    logs = [case.data for case in mutations.cases(150, 40_000)]
    logs += [data.replace(b'"first":"', b'"first":" ', 1) for data in logs[:40]]  # a setup pattern broken
    assert sum(header_as_written(data.split(b"\n", 1)[0]) is not None for data in logs) >= 20  # both paths are compared
    one_pass = [judge(io.BytesIO(data)).verdict for data in logs]
    monkeypatch.setattr(engine, "header_as_written", lambda line: None)
    assert [judge(io.BytesIO(data)).verdict for data in logs] == one_pass
