"""Self-play properties: bot games are legal and complete, replays agree, mutations never crash."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import judge
from referee.logio import record_to_dict
from referee.rulesets import get
from tests import selfplay

CW = get("cardwars")
GAMES = 2000


def bot_log(seed: int) -> list[bytes]:
    return selfplay.bot_log("cardwars", seed)


def test_2000_bot_games_are_complete_and_replay_the_same() -> None:
    reasons = set()
    for seed in range(GAMES):
        log = bot_log(seed)
        first = selfplay.judge_twice(log)
        assert first.verdict == "complete", (seed, first.error)
        assert first.records_checked == len(log) - 1
        reasons.add(first.result.reason)
    assert "life" in reasons  # bots play games to the end, not just to the judge's time


def canonical(record: object) -> dict:
    """A record as `legal` lists it: `pay` and `attackers` in one canonical order (RULES.md, the vocabulary)."""
    data = record_to_dict(record)  # type: ignore[arg-type]
    for key in ("pay", "attackers"):
        if key in data:
            data[key] = sorted(data[key])
    return data


def test_every_sampled_record_is_legal_and_accepted() -> None:
    """Draw each record with `sample`; it must be in `legal` (where that is small) and `apply` must take it."""
    checked = 0
    for seed in range(150):
        _, state = selfplay.bot_start("cardwars", seed)
        rng = random.Random(seed)
        while CW.result(state) is None and not CW.turn_limit(state):
            record = CW.sample(state, rng)
            options = []
            for option in CW.legal(state):
                options.append(canonical(option))
                if len(options) > 4000:
                    break
            if len(options) <= 4000:
                assert canonical(record) in options, (seed, record)
                checked += 1
            CW.apply(state, record)
    assert checked > 5000


def test_seeds_give_different_games() -> None:
    assert len({b"".join(bot_log(seed)[1:]) for seed in range(20)}) == 20


VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.text(max_size=4),
                   st.sampled_from(["ann", "bob", "chance", "judge", "JK1", "KH", "7S", "10D"]),
                   st.lists(st.sampled_from(["KH", "7S", "JK2", "QD"]), max_size=3))  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 300), kind=st.sampled_from(selfplay.MUTATIONS), where=st.floats(0, 1), other=st.floats(0, 1),
       key=st.sampled_from(["seq", "by", "type", "card", "player", "attackers", "blocks", "damage", "pay", "prev", "zzz"]),
       value=VALUES, chained=st.booleans())  # fmt: skip
def test_mutated_logs_get_a_verdict_never_a_crash(seed, kind, where, other, key, value, chained) -> None:  # type: ignore[no-untyped-def]
    log = bot_log(seed) if chained else selfplay.unchain(bot_log(seed))
    selfplay.check_mutated(log, selfplay.mutate(log, kind, where, other, key, value), kind, "CW-")


@pytest.mark.parametrize("seed", range(5))
def test_unchained_mutations_reach_the_rules(seed: int) -> None:
    """Without the chain, a swapped pair of records is judged by the rules, and the verdict names a CW rule."""
    log = selfplay.unchain(bot_log(seed))
    rows = [json.loads(x) for x in log[1:]]
    rows[2]["seq"], rows[3]["seq"] = rows[3]["seq"], rows[2]["seq"]
    rows[2], rows[3] = rows[3], rows[2]
    verdict = judge([log[0], *(json.dumps(r).encode() for r in rows)]).verdict
    assert verdict.verdict == "illegal" and verdict.error.rule.startswith("CW-")
