"""Self-play properties: bot games with 2 to 6 players are legal and complete, replays agree,
every sampled record is among the legal ones, and mutated logs get a verdict, never a crash."""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.bots import bot_header, play
from referee.engine import judge
from referee.logio import encode_lines, record_decoder, record_to_dict
from referee.ruleset import Illegal
from referee.rulesets import get
from tests import selfplay

MG = get("maginot")
GAMES = 2000  # the slow run
SAMPLE = 40  # the bounded sample of the default run
LEGAL_CAP = 4000


def players(seed: int) -> int:
    """Seeds cycle through 2 to 6 players."""
    return 2 + seed % 5


@functools.lru_cache(maxsize=64)
def _bot_log(seed: int) -> tuple[bytes, ...]:
    return tuple(selfplay.bot_log("maginot", seed, players(seed)))


def bot_log(seed: int) -> list[bytes]:
    return list(_bot_log(seed))


def check_bot_games(seeds: range) -> Counter[str]:
    """Every bot game of `seeds` is complete, judged the same twice, and places every player; the record kinds seen."""
    kinds: Counter[str] = Counter()
    for seed in seeds:
        header = bot_header("maginot", seed, players(seed))
        records = list(play(header, seed))
        log = list(encode_lines(header, records))
        first = selfplay.judge_twice(log)
        assert first.verdict == "complete", (seed, first.error)
        assert first.records_checked == len(records)
        assert first.result is not None and sorted(first.result.placements) == sorted(header.players)
        kinds.update(type(r).__name__ for r in records)
    return kinds


def test_bot_games_are_complete_and_reach_every_part_of_the_game() -> None:
    kinds = check_bot_games(range(SAMPLE))
    for kind in ("Resource", "Tap", "Build", "Assemble", "Move", "Attack", "Engage", "Play", "TapBase", "Time"):
        assert kinds[kind] > 0, kind


@pytest.mark.slow
def test_2000_bot_games_are_complete_and_replay_the_same() -> None:
    check_bot_games(range(GAMES))


def finish(seed: int, count: int) -> tuple[str, list[int]]:
    """Play bot game `seed` with `count` players: how it ended, and the turn at which each player went out."""
    header, state = selfplay.bot_start("maginot", seed, count)
    out_at: list[int] = []
    for record in play(header, seed):
        MG.apply(state, record)
        out_at += [state.turn] * (len(state.out_order) - len(out_at))
    assert state.outcome is not None
    return state.outcome.reason, out_at


def test_most_two_player_bot_games_end_by_elimination() -> None:
    """The bots build and attack, so at least 80% of 200 two-player games end with a player out, not by time."""
    ends = Counter(finish(seed, 2)[0] for seed in range(200))
    assert ends["elimination"] >= 160, ends


def test_multiplayer_bot_games_eliminate_players_one_by_one() -> None:
    """In four-player games players fall on different turns, and placements follow the order they fell."""
    sequences = 0
    for seed in range(10):
        reason, out_at = finish(seed, 4)
        if reason == "elimination" and len(set(out_at)) == 3:
            sequences += 1
    assert sequences >= 5
    header = bot_header("maginot", 0, 4)
    verdict = selfplay.judge_twice(list(encode_lines(header, play(header, 0))))
    assert verdict.result is not None and verdict.result.reason == "elimination"
    assert sorted(verdict.result.placements.values()) == [1, 2, 3, 4]


def test_a_seed_always_gives_the_same_game() -> None:
    assert bot_log(7) == bot_log(7)


def test_every_sampled_record_is_legal_and_accepted() -> None:
    """Draw each record with `sample`; it must be in `legal` (where that is small) and `apply` must take it."""
    checked = 0
    for seed in range(SAMPLE):
        _, state = selfplay.bot_start("maginot", seed, players(seed))
        rng = random.Random(seed)
        while MG.result(state) is None and not MG.turn_limit(state):
            record = MG.sample(state, rng)
            options = []
            for option in MG.legal(state):
                options.append(record_to_dict(option))
                if len(options) > LEGAL_CAP:
                    break
            if len(options) <= LEGAL_CAP:
                assert record_to_dict(record) in options, (seed, record)
                checked += 1
            MG.apply(state, record)
    assert checked > 10000


def test_seeds_give_different_games() -> None:
    assert len({b"".join(bot_log(seed)[1:]) for seed in range(20)}) == 20


VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.text(max_size=4),
                   st.sampled_from(["ann", "bob", "chance", "judge", "JK1", "KD", "2H", "10D", "patrol"]),
                   st.lists(st.sampled_from(["2H", "AS", "JK2", "QD"]), max_size=4),
                   st.dictionaries(st.sampled_from(["2H", "3H"]), st.sampled_from(["2H", "5H"]), max_size=2))  # fmt: skip
KEYS = ["seq", "by", "type", "card", "player", "target", "owner", "units", "pairs", "tokens", "aces", "ace", "zone", "prev", "zzz"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 200), kind=st.sampled_from(selfplay.MUTATIONS), where=st.floats(0, 1), other=st.floats(0, 1),
       key=st.sampled_from(KEYS), value=VALUES)  # fmt: skip
def test_mutated_logs_get_a_verdict_never_a_crash(seed: int, kind: str, where: float, other: float, key: str, value: object) -> None:
    log = bot_log(seed)
    selfplay.check_mutated(log, selfplay.mutate(log, kind, where, other, key, value), kind, "MG-")


def test_unchained_swapped_records_reach_the_rules() -> None:
    """Without the chain, two swapped records are judged by the rules, and the verdict names an MG rule."""
    for seed in range(5):
        log = bot_log(seed)
        rows = [json.loads(x) for x in log[1:]]
        for row in rows:
            del row["prev"]
        k = next(n for n in range(len(rows) - 1) if rows[n]["by"] != rows[n + 1]["by"])  # first change of actor
        rows[k]["seq"], rows[k + 1]["seq"] = rows[k + 1]["seq"], rows[k]["seq"]
        rows[k], rows[k + 1] = rows[k + 1], rows[k]
        verdict = judge([log[0], *(json.dumps(r).encode() for r in rows)]).verdict
        assert verdict.verdict == "illegal" and verdict.error is not None
        assert (verdict.error.rule or "").startswith("MG-")


CARDS = ["2D", "3D", "2H", "2S", "2C", "5H", "7C", "10S", "AS", "AD", "JD", "JC", "JS", "JH", "QS", "QD", "KD", "KS", "KC", "KH", "JK1"]
FIELDS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "base": {"aces": st.permutations(["AS", "AH", "AD", "AC"])},
    "draw": {"player": st.sampled_from(["ann", "bob", "cat"]), "card": st.sampled_from(CARDS)},
    "resource": {"card": st.sampled_from(CARDS)},
    "tap": {"card": st.sampled_from(CARDS)},
    "build": {"card": st.sampled_from(CARDS), "tokens": st.integers(1, 10)},
    "attack": {"target": st.sampled_from(["ann", "bob", "cat"]), "units": st.lists(st.sampled_from(CARDS), max_size=3),
               "ace": st.sampled_from(["AS", "AH", "AD", "AC", None])},
    "engage": {"pairs": st.dictionaries(st.sampled_from(CARDS), st.sampled_from(CARDS), max_size=3)},
    "play": {"card": st.sampled_from(CARDS), "target": st.sampled_from([*CARDS, None]), "owner": st.sampled_from(["ann", "bob", None])},
    "tap_base": {"target": st.sampled_from([*CARDS, None])},
    "move": {"unit": st.sampled_from(CARDS), "zone": st.sampled_from(["patrol", "guardian"])},
    "assemble": {"life": st.sampled_from(CARDS), "armor": st.sampled_from(CARDS), "weapon": st.sampled_from(CARDS)},
    "pass": {},
    "concede": {},
    "time": {},
    "game_loss": {"player": st.sampled_from(["ann", "bob", "zed"])},
}


def snapshot(state: object) -> bytes:
    """Everything a rule reads, as bytes: two equal snapshots mean an untouched state."""
    extra = {k: v for k, v in vars(state).items() if k not in ("sides", "battle", "outcome")}
    battle = state.battle  # type: ignore[attr-defined]
    extra["battle"] = None if battle is None else {k: getattr(battle, k) for k in battle.__slots__}
    return msgspec.json.encode([MG.describe(state), extra], enc_hook=lambda o: sorted(o) if isinstance(o, set) else repr(o))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100), where=st.floats(0, 1), kind=st.sampled_from(sorted(FIELDS)), by=st.sampled_from(["ann", "bob", "cat", "chance", "judge"]), data=st.data())
def test_an_illegal_record_leaves_the_state_untouched(seed: int, where: float, kind: str, by: str, data: st.DataObject) -> None:
    """`apply` checks everything before it changes anything: any record it refuses leaves the state as it was."""
    header, state = selfplay.bot_start("maginot", seed, 3)
    records = list(play(header, seed))
    for record in records[: int(where * (len(records) - 1))]:
        MG.apply(state, record)
    fields = {name: data.draw(strategy) for name, strategy in FIELDS[kind].items()}
    candidate = record_decoder("maginot").decode(json.dumps({"type": kind, "by": by, **fields}))
    before = snapshot(state)
    try:
        MG.apply(state, candidate)
    except Illegal:
        assert snapshot(state) == before
