"""Self-play properties of basictcg-mtg: bot games are legal and complete, replays agree, mutations never crash."""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.bots import bot_header, play
from referee.logio import setup_decoder
from referee.rulesets import get
from referee.rulesets.basictcg_mtg.state import attacked, fresh
from schemas import basictcg_mtg as bt
from tests import selfplay

BT = get("basictcg-mtg")
GAMES = 2000


def players_for(seed: int) -> int:
    return 2 + seed % 3


def bot_log(seed: int) -> list[bytes]:
    return selfplay.bot_log("basictcg-mtg", seed, players_for(seed))


def playing(seeds: range) -> Iterator[tuple[int, Any, random.Random]]:
    """Each seed's bot game from its start, a step at a time, until it ends: the caller applies one record a step."""
    for seed in seeds:
        _, state = selfplay.bot_start("basictcg-mtg", seed, players_for(seed))
        rng = random.Random(seed)
        while BT.result(state) is None and not BT.turn_limit(state):
            yield seed, state, rng


def test_2000_bot_games_are_complete_and_replay_the_same() -> None:
    reasons: set[str] = set()
    unchecked = 0
    for seed in range(GAMES):
        log = bot_log(seed)
        first = selfplay.judge_twice(log)
        assert first.verdict == "complete", (seed, first.error)
        assert first.records_checked == len(log) - 1
        assert first.result is not None and len(first.result.placements) == players_for(seed)
        reasons.add(first.result.reason)
        unchecked += first.unchecked
    assert "threshold" in reasons  # bots play to the scenario's end, not only to the judge's time
    assert unchecked > 0  # bots log card text, and the verdicts count it


def test_every_sampled_record_is_in_legal_and_accepted() -> None:
    """Each record `sample` draws is accepted by `apply` and is among `legal` (effects are never listed)."""
    checked = 0
    seen: set[type] = set()
    for seed, state, rng in playing(range(120)):
        record = BT.sample(state, rng)
        seen.add(type(record))
        if not isinstance(record, bt.Effect):
            assert any(option == record for option in BT.legal(state)), (seed, record)
            checked += 1
        BT.apply(state, record)
    kinds = len(seen)
    assert checked > 5000 and kinds == len(bt.RECORDS)  # every record type was drawn and checked


def test_every_listed_legal_record_is_accepted() -> None:
    """What `legal` lists, `apply` accepts (tried on copies of states from bot games)."""
    tried = 0
    for _seed, state, rng in playing(range(10)):
        if state.phase != "draw":
            for option in itertools.islice(BT.legal(state), 12):
                BT.apply(copy.deepcopy(state, {id(state.cards): state.cards}), option)  # cards never change
                tried += 1
        BT.apply(state, BT.sample(state, rng))
    assert tried > 5000


def test_seeds_give_different_games() -> None:
    assert len({b"".join(bot_log(seed)[1:]) for seed in range(20)}) == 20


VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.text(max_size=4),
                   st.sampled_from(["ann", "bob", "cat", "chance", "judge", "ann-01", "bob-02", "cat-03"]),
                   st.lists(st.sampled_from(["ann-01", "bob-05", "ann-07"]), max_size=3),
                   st.dictionaries(st.sampled_from(["ann-01", "bob-05"]), st.integers(-1, 3), max_size=2))  # fmt: skip
KEYS = ["seq", "by", "type", "card", "player", "sacrifice", "attacker", "target", "blocker", "creature",
        "discard", "source", "tokens", "boost", "damage", "destroy", "prev", "zzz"]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 300), kind=st.sampled_from(selfplay.MUTATIONS), where=st.floats(0, 1), other=st.floats(0, 1),
       key=st.sampled_from(KEYS), value=VALUES, chained=st.booleans())  # fmt: skip
def test_mutated_logs_get_a_verdict_never_a_crash(seed, kind, where, other, key, value, chained) -> None:  # type: ignore[no-untyped-def]
    log = bot_log(seed) if chained else selfplay.unchain(bot_log(seed))
    selfplay.check_mutated(log, selfplay.mutate(log, kind, where, other, key, value), kind, "BT-")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_render_and_describe_at_every_step(players: int) -> None:
    """`render` and `describe` work at every point of a bot game (describe is JSON-able)."""
    header = bot_header("basictcg-mtg", 7, players)
    state = BT.start(header, setup_decoder("basictcg-mtg").decode(header.setup))
    for record in play(header, 7):
        assert BT.render(state) and msgspec.json.encode(BT.describe(state))
        BT.apply(state, record)
    assert BT.result(state) is not None


def test_what_the_state_keeps_for_the_turn_s_end_matches_the_table() -> None:
    """The turn's end reads things kept as play goes (state.py), not the whole table: each side's level
    total (BT-11.3) must equal the sum worked card by card (a material 1, a face-up card its level and
    tokens); every card in play with a bonus or damage must be in `marked`, with what lies on it; a card
    is fresh exactly when it was not in play as the turn began, and has attacked exactly when an attack
    of this turn named it (BT-5.2, kept as turn numbers); the next seat must be the first player clockwise after the active one who has
    not left (BT-11.4); and no regeneration waits in the main phase (flow.end_turn relies on it). After
    every record of bot games in which players also concede now and then."""
    from schemas.log import Concede

    checked = 0
    turn: tuple[int, int] = (-1, 0)
    for seed, state, rng in playing(range(60)):
        if rng.random() < 0.003:
            record: msgspec.Struct = Concede(by=rng.choice(state.in_game()))
        else:
            record = BT.sample(state, rng)
        BT.apply(state, record)
        if (seed, state.turn) != turn:  # a new turn (or game) has begun: what is in play now is not fresh
            turn, began, swung = (seed, state.turn), {c for side in state.sides.values() for c in side.field}, set()
        if type(record) is bt.Attack:
            swung.add(record.attacker)
        assert state.phase != "main" or not state.doomed, (seed, record)
        seats = state.players
        at = seats.index(state.active)
        later = [seats[(at + step) % len(seats)] for step in range(1, len(seats) + 1)]
        assert state.next_seat[state.active] == next((p for p in later if p not in state.left), state.active)
        for side in state.sides.values():
            worked = sum(1 if on.face_down else state.cards[c].level + on.tokens for c, on in side.field.items())
            assert side.levels == worked, (seed, record)
            assert {c for c, on in side.field.items() if fresh(state, on)} == side.field.keys() - began, (seed, record)
            assert {c for c, on in side.field.items() if attacked(state, on)} == side.field.keys() & swung, (seed, record)
            flagged = {c: on for c, on in side.field.items() if on.boost or on.damage}
            assert all(state.marked.get(c) is on for c, on in flagged.items()), (seed, record)
            checked += 1
    assert checked > 10_000
