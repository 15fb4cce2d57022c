"""Dealt games: every chance record follows from a committed seed, and `referee validate` checks it (DL-1 to DL-3).

The procedure is re-implemented here from docs/referee.md's words alone
(`documented_index`), so the dealer is checked against the documentation,
not against itself.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import subprocess
import sys
from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import dealing
from referee.bots import bot_header, play
from referee.engine import judge, start
from referee.logio import encode_lines, record_decoder
from referee.ruleset import CHANCE
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids

SEED = "5eed" * 16
OTHER = "0be7" * 16


def dealt_lines(ruleset_id: str, seed: int = 2, players: int | None = None, deal: str = SEED) -> list[bytes]:
    header = bot_header(ruleset_id, seed, players, deal)
    return list(encode_lines(header, play(header, seed, deal)))


def rechained(lines: list[bytes]) -> list[bytes]:
    """The lines with every seq and prev written again, so only the rules and the deal can object."""
    out = [lines[0]]
    for seq, line in enumerate(lines[1:], start=1):
        body = json.loads(line) | {"seq": seq, "prev": hashlib.sha256(out[-1]).hexdigest()}
        out.append(msgspec.json.encode(body))
    return out


def verdict(lines: list[bytes]) -> Any:
    return judge(io.BytesIO(b"".join(line + b"\n" for line in lines))).verdict


def documented_index(seed: str, seq: int, count: int) -> int:
    """docs/referee.md, "Dealt games", step 3, as an outside verifier would write it."""
    attempt = 0
    while True:
        digest = hmac.new(bytes.fromhex(seed), f"{seq}/{attempt}".encode(), hashlib.sha256).digest()
        x = int.from_bytes(digest, "big")
        if x < count * (2**256 // count):
            return x % count
        attempt += 1


@pytest.mark.parametrize("ruleset_id", ids())
def test_a_dealt_bot_game_of_every_ruleset_validates_at_its_largest_table(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    for players in sorted({ruleset.min_players, ruleset.max_players}):
        lines = dealt_lines(ruleset_id, 4, players)
        v = verdict(lines)
        assert (v.verdict, v.deal, v.error) == ("complete", "verified", None)
        assert json.loads(lines[0])["deal"] == {"scheme": "hmac-sha256/1", "commit": hashlib.sha256(bytes.fromhex(SEED)).hexdigest()}
        assert json.loads(lines[-1]) | {"prev": None} == {"type": "reveal", "seed": SEED, "seq": len(lines) - 1, "by": "chance", "prev": None}


def test_every_draw_is_the_one_the_documented_procedure_gives() -> None:
    """An outside verifier: canonical JSON of each option, sorted, and the documented index, for every chance record."""
    lines = dealt_lines("crossover", 5, 3)
    _header, ruleset, state = start(lines[0])
    decode = record_decoder("crossover").decode
    checked = 0
    for line in lines[1:-1]:
        record = decode(line)
        if record.by == CHANCE:
            options = sorted(
                json.dumps({k: v for k, v in msgspec.to_builtins(r).items() if k not in ("seq", "prev", "at", "note")}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                for r in ruleset.chance_options(state, record)
            )
            chosen = options[documented_index(SEED, record.seq, len(options))]
            made = {k: v for k, v in json.loads(line).items() if k not in ("seq", "prev", "at", "note")}
            assert json.loads(chosen) == made
            checked += 1
        ruleset.apply(state, record)
    assert checked > 20


def test_the_same_seed_gives_the_same_game_and_another_seed_another() -> None:
    assert dealt_lines("cardwars") == dealt_lines("cardwars")
    draws = [line for line in dealt_lines("cardwars") if b'"by":"chance"' in line]
    other = [line for line in dealt_lines("cardwars", deal=OTHER) if b'"by":"chance"' in line]
    assert draws[:5] != other[:5]


def test_the_index_is_uniform_and_stays_in_range() -> None:
    counts = Counter(dealing.index(SEED, seq, 3) for seq in range(3000))
    assert set(counts) == {0, 1, 2}
    assert all(900 < n < 1100 for n in counts.values())  # 3 sigma is about 78
    assert all(dealing.index(OTHER, seq, 7) == documented_index(OTHER, seq, 7) for seq in range(200))


def test_rejection_sampling_skips_a_value_past_the_last_whole_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first attempt's value falls in the incomplete block at the top of the range: the next attempt decides."""
    calls: list[bytes] = []
    top = (2**256 - 1).to_bytes(32, "big")

    def digest(key: bytes, message: bytes, name: str) -> bytes:
        calls.append(message)
        return top if message.endswith(b"/0") else (5).to_bytes(32, "big")

    monkeypatch.setattr(dealing.hmac, "digest", digest)
    assert dealing.index(SEED, 9, 3) == 5 % 3
    assert calls == [b"9/0", b"9/1"]


def _first_legal_misdeal(lines: list[bytes]) -> tuple[int, list[bytes]]:
    """A chance record (from the end) given another of its options, such that the game stays legal by its rules."""
    header, ruleset, state = start(lines[0])
    decode = record_decoder(header.ruleset).decode
    options_at: dict[int, list[Any]] = {}
    for line in lines[1:-1]:
        record = decode(line)
        if record.by == CHANCE:
            options_at[record.seq] = ruleset.chance_options(state, record)
        ruleset.apply(state, record)
    for seq in sorted(options_at, reverse=True):
        original = json.loads(lines[seq])
        for option in options_at[seq]:
            changed = msgspec.to_builtins(option) | {"seq": seq}
            if changed["card"] == original["card"]:
                continue
            mutated = rechained([*lines[:seq], msgspec.json.encode(changed), *lines[seq + 1 :]])
            if verdict(mutated[:-1]).verdict in ("complete", "ongoing"):
                return seq, mutated
    raise AssertionError("no draw could be changed without breaking a rule")


@pytest.mark.parametrize("ruleset_id", ["cardwars", "maginot"])
def test_one_changed_draw_is_refused_with_dl2_naming_the_draw_and_what_the_seed_deals(ruleset_id: str) -> None:
    lines = dealt_lines(ruleset_id)
    seq, mutated = _first_legal_misdeal(lines)
    v = verdict(mutated)
    assert (v.verdict, v.error.rule, v.error.seq, v.error.line) == ("illegal", "DL-2", seq, seq + 1)
    assert v.records_checked == seq - 1
    assert v.error.legal == [{k: v for k, v in json.loads(lines[seq]).items() if k not in ("seq", "prev")}]
    assert "not what the revealed seed deals" in v.error.message


def test_before_the_reveal_the_rules_decide_and_the_deal_is_committed() -> None:
    """Ruling DL-R1: a finished game without its reveal is complete, an unfinished one ongoing; neither is proven dealt."""
    lines = dealt_lines("cardwars")
    assert (verdict(lines[:-1]).verdict, verdict(lines[:-1]).deal) == ("complete", "committed")
    assert (verdict(lines[:20]).verdict, verdict(lines[:20]).deal) == ("ongoing", "committed")
    _seq, mutated = _first_legal_misdeal(lines)
    assert verdict(mutated[:-1]).verdict == "complete"  # a wrong draw cannot be seen before the seed is


def test_a_reveal_of_another_seed_is_refused_with_dl1() -> None:
    lines = dealt_lines("cardwars")
    last = json.loads(lines[-1]) | {"seed": OTHER}
    v = verdict([*lines[:-1], msgspec.json.encode(last)])
    assert (v.verdict, v.error.rule, v.error.line) == ("illegal", "DL-1", len(lines))


def test_draws_from_a_seed_other_than_the_committed_one_are_refused() -> None:
    """A dealer that committed to one seed and dealt from another: revealing either is refused."""
    lines = dealt_lines("cardwars", deal=OTHER)
    header = json.loads(lines[0]) | {"deal": {"scheme": "hmac-sha256/1", "commit": dealing.commitment(SEED)}}
    swapped = [msgspec.json.encode(header), *lines[1:]]
    assert verdict(rechained(swapped)).error.rule == "DL-1"
    honest_reveal = json.loads(lines[-1]) | {"seed": SEED}
    v = verdict(rechained([*swapped[:-1], msgspec.json.encode(honest_reveal)]))
    assert (v.error.rule, v.error.seq) == ("DL-2", next(i for i, line in enumerate(lines) if b'"by":"chance"' in line))


def test_the_reveal_is_chance_s_once_at_the_end_and_only_in_a_dealt_log() -> None:
    lines = dealt_lines("cardwars")
    by_judge = json.loads(lines[-1]) | {"by": "judge"}
    assert verdict([*lines[:-1], msgspec.json.encode(by_judge)]).error.rule == "DL-3"
    again = rechained([*lines, lines[-1]])
    assert (verdict(again).error.rule, verdict(again).error.seq) == ("DL-3", len(lines))
    plain_header = bot_header("cardwars", 2)
    plain = list(encode_lines(plain_header, play(plain_header, 2)))
    stray = rechained([*plain[:10], msgspec.json.encode({"type": "reveal", "seed": SEED, "by": "chance"})])
    assert (verdict(stray).verdict, verdict(stray).error.rule) == ("illegal", "DL-3")


def test_the_verdict_of_a_log_that_is_not_dealt_carries_no_deal_field() -> None:
    plain_header = bot_header("cardwars", 2)
    v = verdict(list(encode_lines(plain_header, play(plain_header, 2))))
    assert "deal" not in msgspec.json.decode(msgspec.json.encode(v))


def test_referee_play_deal_and_append_a_reveal(tmp_path: Any) -> None:
    referee = [sys.executable, "-m", "referee"]
    made = subprocess.run([*referee, "play", "cardwars", "--seed", "2", "--deal", SEED], capture_output=True, check=True)
    assert made.stdout.splitlines() == dealt_lines("cardwars")
    bad = subprocess.run([*referee, "play", "cardwars", "--deal", "xyz"], capture_output=True)
    assert bad.returncode == 2 and b"64 lowercase hex digits" in bad.stderr
    log = tmp_path / "g.jsonl"
    log.write_bytes(b"".join(line + b"\n" for line in dealt_lines("cardwars")[:-1]))
    wrong = subprocess.run([*referee, "append", str(log), json.dumps({"type": "reveal", "seed": OTHER, "by": "chance"})], capture_output=True)
    assert wrong.returncode == 1 and b"DL-1" in wrong.stderr
    right = subprocess.run([*referee, "append", str(log), json.dumps({"type": "reveal", "seed": SEED, "by": "chance"})], capture_output=True)
    assert right.returncode == 0, right.stderr
    checked = subprocess.run([*referee, "validate", "--json", str(log)], capture_output=True)
    assert json.loads(checked.stdout)["deal"] == "verified"


JSON_TEXT = st.text(st.characters(exclude_categories=["Cs"]))
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | JSON_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(JSON_TEXT, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(JSON_TEXT, JSON_VALUES, max_size=6))
def test_the_referees_canonical_bytes_are_the_documented_pythons(fields: dict[str, Any]) -> None:
    # docs/referee.md, step 2, byte for byte: accents, controls, DEL, U+2028 and key order (issue 33).
    documented = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    assert dealing._ENCODE(fields) == documented


@pytest.mark.parametrize("ruleset_id", ids())
def test_a_dealt_log_with_an_unnamed_draw_is_refused_with_dl4_at_that_draw(ruleset_id: str) -> None:
    """DL-4: the dealer names every card it deals, so a dealt log's draw without its card is refused at once,
    before the reveal (the unnamed draw is legal in a log that is not dealt)."""
    lines = dealt_lines(ruleset_id)
    seq = next(i for i, line in enumerate(lines) if i and b'"type":"draw"' in line)
    row = json.loads(lines[seq])
    del row["card"]
    v = verdict(rechained([*lines[:seq], msgspec.json.encode(row), *lines[seq + 1 : -1]]))
    assert (v.verdict, v.error.rule, v.error.seq, v.deal) == ("illegal", "DL-4", seq, "committed")
