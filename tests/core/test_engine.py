"""The log reader and replay engine: line endings, fields, seq, the chain, the check order, verdicts."""

from __future__ import annotations

import hashlib
import io
import json
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest

from referee.bots import bot_header, play
from referee.engine import LEGAL_SHOWN, judge
from referee.logio import encode_lines
from tests.cardwars.cwlog import BOARD, attack, draw, lines, res


def chained(seed: int = 3) -> list[bytes]:
    header = bot_header("cardwars", seed)
    return list(encode_lines(header, play(header, seed)))


def verdict_of(data: bytes) -> Any:
    return judge(io.BytesIO(data)).verdict


def error(data: bytes) -> tuple[str, int, int | None, str | None]:
    v = verdict_of(data)
    assert v.error is not None
    return v.verdict, v.error.line, v.error.seq, v.error.field


BASE = lines([draw("ann", "7H"), res("ann", "7H")])


def test_lf_and_one_trailing_newline() -> None:
    assert verdict_of(b"\n".join(BASE) + b"\n").verdict == "ongoing"
    assert verdict_of(b"\n".join(BASE)).verdict == "ongoing"


def test_crlf_tolerated() -> None:
    v = verdict_of(b"\r\n".join(BASE) + b"\r\n")
    assert v.verdict == "ongoing" and v.records_checked == 2


def test_crlf_lines_hash_without_their_ending() -> None:
    data = b"\r\n".join(chained()) + b"\r\n"
    assert verdict_of(data).chain == "verified"


def test_second_trailing_newline_is_a_blank_line() -> None:
    assert error(b"\n".join(BASE) + b"\n\n") == ("malformed", 4, 3, None)


def test_blank_line_in_the_middle() -> None:
    assert error(BASE[0] + b"\n\n" + BASE[1]) == ("malformed", 2, 1, None)


def test_empty_log() -> None:
    v = verdict_of(b"")
    assert v.verdict == "malformed" and v.error.line == 1


def test_not_json() -> None:
    assert error(b"\n".join([*BASE, b'{"seq": 3, "by": "ann"'])) == ("malformed", 4, 3, None)


def test_not_utf8() -> None:
    assert error(b"\n".join([*BASE, b'{"seq": 3, "by": "\xff"}']))[:2] == ("malformed", 4)


def test_unknown_field_is_named() -> None:
    bad = b'{"seq": 3, "by": "ann", "type": "attack", "attackers": [], "colour": "red"}'
    assert error(b"\n".join([*BASE, bad])) == ("malformed", 4, 3, "colour")


def test_missing_field_is_named() -> None:
    assert error(b"\n".join([*BASE, b'{"seq": 3, "by": "ann", "type": "attack"}'])) == ("malformed", 4, 3, "attackers")


def test_wrong_type_is_named() -> None:
    assert error(b"\n".join([*BASE, b'{"seq": "3", "by": "ann", "type": "attack", "attackers": []}']))[3] == "seq"


def test_unknown_record_type() -> None:
    assert error(b"\n".join([*BASE, b'{"seq": 3, "by": "ann", "type": "fly"}']))[3] == "type"


def test_card_that_does_not_exist() -> None:
    assert error(b"\n".join([*BASE, b'{"seq": 3, "by": "ann", "type": "attack", "attackers": ["ZZ"]}']))[3] == "attackers[0]"


def test_by_must_be_someone_in_the_game() -> None:
    assert error(b"\n".join([*BASE, b'{"seq": 3, "by": "zed", "type": "attack", "attackers": []}']))[3] == "by"


@pytest.mark.parametrize("seq", [4, 2, 0])
def test_seq_gap_or_repeat(seq: int) -> None:
    bad = json.dumps({"seq": seq, "by": "ann", "type": "attack", "attackers": []}).encode()
    assert error(b"\n".join([*BASE, bad])) == ("malformed", 4, 3, "seq")


HEADER = {"log": "referee-log/1", "ruleset": "cardwars", "game": "g", "players": ["ann", "bob"],
          "setup": {"first": "ann", "suits": {"ann": ["H", "D"], "bob": ["S", "C"]}}}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"log": "referee-log/2"}, "log"),
        ({"ruleset": "chess"}, "ruleset"),
        ({"players": ["ann", "ann"]}, "players"),
        ({"players": ["ann", "b b"]}, "players[1]"),
        ({"players": ["ann", "chance"]}, "players"),
        ({"setup": {"first": "ann"}}, "setup.suits"),
        ({"setup": {"first": "ann", "suits": {"ann": ["X"]}}}, "setup.suits[...][0]"),
        ({"extra": 1}, "extra"),
    ],
)
def test_header_errors_name_the_field(change: dict, field: str) -> None:
    header = json.dumps(HEADER | change).encode()
    v = verdict_of(header + b"\n")
    assert (v.verdict, v.error.line, v.error.field) == ("malformed", 1, field), v.error


def test_header_not_json() -> None:
    assert verdict_of(b"log: referee\n").error.line == 1


def test_setup_that_breaks_a_rule_is_illegal_at_line_1() -> None:
    header = json.dumps(HEADER | {"players": ["ann", "bob", "cat"]}).encode()
    v = verdict_of(header)
    assert (v.verdict, v.error.line, v.error.rule) == ("illegal", 1, "CW-1.1")


# -- the chain ----------------------------------------------------------------


def test_chain_verified() -> None:
    v = verdict_of(b"\n".join(chained()))
    assert (v.verdict, v.chain) == ("complete", "verified")


def test_chain_absent() -> None:
    assert verdict_of(b"\n".join(BASE)).chain == "absent"


def test_edited_record_breaks_the_chain_at_the_next_line() -> None:
    log = chained()
    log[5] = log[5].replace(b'"by":', b'"note":"x","by":')
    v = verdict_of(b"\n".join(log))
    assert (v.verdict, v.chain, v.error.line, v.error.field) == ("tampered", "broken", 7, "prev")
    assert v.records_checked == 5


def test_removed_prev_breaks_the_chain() -> None:
    log = chained()
    record = json.loads(log[4])
    del record["prev"]
    log[4] = json.dumps(record).encode()
    v = verdict_of(b"\n".join(log))
    assert (v.verdict, v.error.line) == ("tampered", 5) and "missing" in v.error.message


def test_prev_appearing_in_an_unchained_log() -> None:
    record = json.loads(BASE[2]) | {"prev": hashlib.sha256(BASE[1]).hexdigest()}
    v = verdict_of(b"\n".join([*BASE[:2], json.dumps(record).encode()]))
    assert (v.verdict, v.error.line) == ("tampered", 3)


def test_first_record_prev_is_the_header_hash() -> None:
    log = chained()
    record = json.loads(log[1]) | {"prev": "0" * 64}
    log[1] = json.dumps(record).encode()
    v = verdict_of(b"\n".join(log))
    assert (v.verdict, v.error.line, v.records_checked) == ("tampered", 2, 0)


def test_fields_are_checked_before_seq_before_chain_before_rules() -> None:
    log = chained()
    bad_seq_and_chain = json.loads(log[3]) | {"seq": 9, "prev": "0" * 64}
    assert verdict_of(b"\n".join([*log[:3], json.dumps(bad_seq_and_chain).encode()])).verdict == "malformed"
    illegal_and_bad_chain = json.loads(log[3]) | {"type": "concede", "by": "judge", "prev": "0" * 64}
    for key in ("player", "card", "attackers", "blocks", "pay", "attacker", "damage"):
        illegal_and_bad_chain.pop(key, None)
    assert verdict_of(b"\n".join([*log[:3], json.dumps(illegal_and_bad_chain).encode()])).verdict == "tampered"


# -- verdicts -------------------------------------------------------------------


def test_illegal_verdict_carries_state_to_act_and_legal() -> None:
    v = verdict_of(b"\n".join(lines([*BOARD, attack("ann", "QH")])))
    assert v.verdict == "illegal" and v.records_checked == len(BOARD)
    assert v.to_act == ["ann"] and v.state["players"]["ann"]["hand"] == ["3H"]
    assert {"type": "attack", "attackers": ["JH"], "by": "ann"} in v.error.legal


def test_legal_list_is_capped() -> None:
    # 27 possible draws at the start: LEGAL_SHOWN shown, the rest counted
    v = verdict_of(b"\n".join(lines([draw("ann", "7S")])))
    assert len(v.error.legal) == LEGAL_SHOWN and v.error.legal_more == 27 - LEGAL_SHOWN


def test_upto_stops_after_a_record() -> None:
    replay = judge(lines(BOARD), upto=3)
    assert replay.last_seq == 3 and replay.state.active == "bob"


def test_records_checked_on_a_complete_game() -> None:
    log = chained()
    assert verdict_of(b"\n".join(log)).records_checked == len(log) - 1


def endless(records: int) -> Iterator[bytes]:
    """A legal cardwars log of any length: both players pass until the decks run out, then forever."""
    yield json.dumps(HEADER).encode()
    deck = {"ann": [r + s for s in "HD" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")] + ["JK1"],
            "bob": [r + s for s in "SC" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")] + ["JK2"]}  # fmt: skip
    seq, turn = 0, 0
    while seq < records:
        player = ("ann", "bob")[turn % 2]
        if deck[player] and seq + 1 < records:
            seq += 1
            yield json.dumps({"seq": seq, "by": "chance", "type": "draw", "player": player, "card": deck[player].pop()}).encode()
        seq += 1
        yield json.dumps({"seq": seq, "by": player, "type": "attack", "attackers": []}).encode()
        turn += 1


def peak_memory(records: int) -> int:
    tracemalloc.start()
    v = judge(endless(records)).verdict
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert v.verdict == "ongoing" and v.records_checked >= records
    return peak


def test_memory_does_not_grow_with_the_log() -> None:
    small, large = peak_memory(2_000), peak_memory(40_000)
    assert large < small + 64_000, (small, large)


def test_counting_the_rest_of_a_huge_legal_set_stops() -> None:
    """Eight blockers against three attackers is 4**8 blocks: the count stops at LEGAL_COUNTED."""
    from referee.engine import LEGAL_COUNTED, legal_listing
    from referee.rulesets import get

    replay = judge(lines(BOARD))
    state = replay.state
    state.phase, state.attackers = "defense", ["JH", "QH", "KH"]
    state.sides["bob"].field = dict.fromkeys(["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"], False)
    shown, more = legal_listing(get("cardwars"), state)
    assert len(shown) == LEGAL_SHOWN and more == LEGAL_COUNTED


@pytest.mark.parametrize(
    ("line", "key"),
    [
        (b'{"seq": 3, "by": "ann", "type": "attack", "attackers": ["JH"], "attackers": []}', "attackers"),
        (b'{"seq": 3, "seq": 3, "by": "ann", "type": "attack", "attackers": []}', "seq"),
        (b'{"seq":3,"by":"ann","type":"attack","attackers":[],"by":"ann"}', "by"),
    ],
)
def test_a_key_repeated_in_one_object_is_malformed(line: bytes, key: str) -> None:
    """msgspec would keep the last value and another reader the first: the line is ambiguous."""
    assert error(b"\n".join([*BASE, line])) == ("malformed", 4, 3, key)


def test_a_key_repeated_inside_a_nested_object_is_malformed() -> None:
    data = [*lines([*BOARD, attack("ann", "JH")]), b'{"seq": 21, "by": "bob", "type": "block", "blocks": {"5S": "JH", "5S": "JH"}}']
    assert error(b"\n".join(data)) == ("malformed", 22, 21, "5S")


def test_a_key_repeated_in_the_header_is_malformed() -> None:
    header = json.dumps(HEADER)[:-1].encode() + b', "game": "again"}'
    v = verdict_of(header)
    assert (v.verdict, v.error.line, v.error.field) == ("malformed", 1, "game")


@pytest.mark.parametrize(
    ("ruleset_id", "old", "new", "key"),
    [
        ("crossover", b'"first":', b'"first":"bob","first":', "first"),  # in the setup itself
        ("crossover", b'"cards":[', b'"game":"mtg","cards":[', "game"),  # in a deck (remembered)
        ("basictcg-mtg", b'"cost":', b'"cost":"{9}","cost":', "cost"),  # in the card pool (remembered)
    ],
)
def test_a_key_repeated_in_a_canonical_setup_is_malformed(ruleset_id: str, old: bytes, new: bytes, key: str) -> None:
    """The header line's own check re-encodes the setup as written (Raw): the setup is checked on its own."""
    from referee.logio import ENCODER

    line = ENCODER.encode(bot_header(ruleset_id, 3)).replace(old, new, 1)
    v = verdict_of(line + b"\n")
    assert (v.verdict, v.error.line, v.error.field) == ("malformed", 1, key)
    assert v.error.message == f"the key {key!r} appears twice in one object"


def test_the_same_key_in_different_objects_is_fine() -> None:
    """A key may appear once in each object: repeats are judged per object."""
    from referee.linecheck import repeated_key

    assert repeated_key(b'{"a": {"x": 1}, "b": {"x": 2}}', None) is None
    assert repeated_key(b'{"a": {"x": 1, "x": 2}}', None) == "x"
