"""Take-backs (docs/referee.md, TB-R1 to TB-R3): a withdrawn record's game is judged as if it had not been made.

For each of the five games, a bot game has one record replaced by another legal record of the same player,
taken back (asked and agreed) or withdrawn by the judge, and then the bot game goes on as it went: the log is
judged complete with the bot game's own result. A take-back nobody agreed to, agreed by the wrong seat, or asked
after another seat recorded is refused for its rule.
"""

from __future__ import annotations

import io
import os
import random
from typing import Any

import msgspec
import pytest

from referee.bots import bot_header, play
from referee.engine import judge, judge_file
from referee.logio import encode_lines, setup_decoder
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids as ruleset_ids
from schemas.log import AgreeTakeBack, Header, Keeper, Record, TakeBack, Withdraw

Spot = tuple[Header, list[Record], int, Record]


def spot(ruleset_id: str, seed: int = 1) -> Spot:
    """A bot game, and a place in it (index `k` of its records) where the player who made record k could have
    made another record instead: that other record."""
    header = bot_header(ruleset_id, seed)
    records = list(play(header, seed))
    ruleset = get_ruleset(ruleset_id)
    rng = random.Random(seed)
    for k in sorted(range(2, len(records) - 2), key=lambda _: rng.random()):
        made = records[k]
        if made.by not in header.players:
            continue
        state = ruleset.start(header, setup_decoder(ruleset_id).decode(header.setup))
        for record in records[:k]:
            ruleset.apply(state, record)
        for other in ruleset.legal(state):
            if other.by == made.by and msgspec.to_builtins(other) != msgspec.to_builtins(made):
                return header, records, k, other
    raise AssertionError(f"{ruleset_id}: no record had another one beside it")


def verdict(header: Header, records: list[Record]) -> Any:
    return judge(list(encode_lines(header, records))).verdict


def next_seat(header: Header, player: str) -> str:
    return header.players[(header.players.index(player) + 1) % len(header.players)]


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_a_record_taken_back_is_judged_as_never_made(ruleset_id: str) -> None:
    header, records, k, other = spot(ruleset_id)
    original = verdict(header, records)
    assert original.verdict == "complete"
    asker = other.by
    taken = [*records[:k], other, TakeBack(by=asker, record=k + 1), AgreeTakeBack(by=next_seat(header, asker), record=k + 1),
             *records[k:]]
    found = verdict(header, taken)
    assert found.verdict == "complete", found.error
    assert found.result == original.result and found.records_checked == len(taken)
    withdrawn = [*records[:k], other, Withdraw(by="judge", record=k + 1, reason="the wrong card was tapped"), *records[k:]]
    found = verdict(header, withdrawn)
    assert found.verdict == "complete", found.error
    assert found.result == original.result


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_a_take_back_without_the_next_seats_agreement_is_refused(ruleset_id: str) -> None:
    header, records, k, other = spot(ruleset_id)
    asker = other.by
    ask = TakeBack(by=asker, record=k + 1)
    # agreed by the asker themselves
    found = verdict(header, [*records[:k], other, ask, AgreeTakeBack(by=asker, record=k + 1)])
    assert (found.verdict, found.error.rule, found.error.seq) == ("illegal", "TB-R2", k + 3)
    # asked, not agreed: the record stands, and an agreement later (not right after the ask) is refused
    asked = [*records[:k], other, ask]
    assert verdict(header, asked).verdict == "ongoing"
    found = verdict(header, [*asked, Withdraw(by="judge", record=k + 1, reason="r"), AgreeTakeBack(by=next_seat(header, asker), record=k + 1)])
    assert (found.verdict, found.error.rule) == ("illegal", "TB-R2")
    # a player cannot withdraw by the judge's record
    found = verdict(header, [*records[:k], other, Withdraw(by=asker, record=k + 1, reason="mine")])
    assert (found.verdict, found.error.rule) == ("illegal", "TB-R3")


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_a_take_back_after_another_seat_recorded_is_refused(ruleset_id: str) -> None:
    header, records, _, _ = spot(ruleset_id)
    # the first record of another seat after a record of a player: the player's record is no longer the last
    at = next(i for i in range(1, len(records)) if records[i - 1].by in header.players and records[i].by in header.players
              and records[i].by != records[i - 1].by)
    found = verdict(header, [*records[: at + 1], TakeBack(by=records[at - 1].by, record=at)])
    assert (found.verdict, found.error.rule, found.error.seq) == ("illegal", "TB-R1", at + 2)
    assert "not the last record" in found.error.message
    # nor another seat's record, even the last one
    found = verdict(header, [*records[: at + 1], TakeBack(by=records[at - 1].by, record=at + 1)])
    assert (found.verdict, found.error.rule) == ("illegal", "TB-R1") and "own" in found.error.message


def test_a_judges_withdrawal_that_leaves_a_later_record_illegal_is_at_fault() -> None:
    header, records, _, _ = spot("cardwars")
    # withdraw a draw that a later record played: the withdrawal is refused at its own line, naming the record
    draw = next(i for i, r in enumerate(records) if type(r).__struct_config__.tag == "draw" and i > 0)
    end = len(records) - 1
    found = verdict(header, [*records[:end], Withdraw(by="judge", record=draw + 1, reason="misdrawn")])
    assert found.verdict == "illegal" and found.error.seq == end + 1 and found.error.rule == "TB-R3"
    assert f"without record {draw + 1}" in found.error.message


def test_two_take_backs_in_a_row_and_the_keeper() -> None:
    """A player takes back two records of their turn, one after the other; the keeper changes nothing."""
    header, records, k, other = spot("cardwars", seed=2)
    ruleset = get_ruleset("cardwars")
    state = ruleset.start(header, setup_decoder("cardwars").decode(header.setup))
    for record in [*records[:k], other]:
        ruleset.apply(state, record)
    again = next((r for r in ruleset.legal(state) if r.by == other.by), None)
    if again is None:
        pytest.skip("no second record of the same player there")
    asker, agreeing = other.by, next_seat(header, other.by)
    log = [*records[:k], Keeper(by="judge", device="the featured table's tablet"), other, again,
           TakeBack(by=asker, record=k + 3), AgreeTakeBack(by=agreeing, record=k + 3),
           TakeBack(by=asker, record=k + 2), AgreeTakeBack(by=agreeing, record=k + 2), Keeper(by="judge"), *records[k:]]
    found = verdict(header, log)
    assert found.verdict == "complete", found.error
    assert found.result == verdict(header, records).result
    found = verdict(header, [*records[:k], Keeper(by=asker, device="my phone")])
    assert (found.verdict, found.error.rule) == ("illegal", "KP-1")


def test_a_log_read_once_is_judged_again_from_its_start(tmp_path: Any) -> None:
    """A withdrawal rewinds: a file, a stream that cannot seek, and a named pipe all give the same verdict."""
    header, records, k, other = spot("cardwars")
    log = [*records[:k], other, TakeBack(by=other.by, record=k + 1), AgreeTakeBack(by=next_seat(header, other.by), record=k + 1),
           *records[k:]]
    data = b"\n".join(encode_lines(header, log)) + b"\n"

    class Once(io.RawIOBase):
        def __init__(self) -> None:
            self.inner = io.BytesIO(data)

        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            return self.inner.read(size)

    path = tmp_path / "log.jsonl"
    path.write_bytes(data)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    pid = os.fork()
    if pid == 0:  # the writer of the named pipe
        with open(fifo, "wb") as out:
            out.write(data)
        os._exit(0)
    piped = judge_file(str(fifo)).verdict
    os.waitpid(pid, 0)
    for found in (judge(Once()).verdict, judge(io.BytesIO(data)).verdict, judge_file(str(path)).verdict, piped,
                  judge(iter(data.splitlines())).verdict):
        assert found.verdict == "complete" and found.records_checked == len(log), found.error


def test_referee_show_draws_a_game_with_a_take_back() -> None:
    """The page `referee show` makes steps through the records; a take-back and the record it took back are steps
    too, and the game drawn is the one judged (without the record taken back)."""
    from referee.show import page_context

    header, records, k, other = spot("cardwars")
    log = list(encode_lines(header, [*records[:k], other, TakeBack(by=other.by, record=k + 1),
                                     AgreeTakeBack(by=next_seat(header, other.by), record=k + 1), *records[k:]]))
    context = page_context(log, "game.jsonl")
    assert context["verdict"]["verdict"] == "complete"
