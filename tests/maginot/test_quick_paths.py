"""Maginot's quick paths against the plain rules they stand for (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from referee.rulesets import get
from referee.rulesets.maginot import flow, options
from referee.rulesets.maginot.state import Battle, State, Unit, value
from tests import selfplay

PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay"]
UNITS = ["2H", "5H", "7H", "9H", "10H"]


@given(guards=st.lists(st.tuples(st.sampled_from(["patrol", "guardian"]), st.booleans()), max_size=5))
def test_any_engager_is_whether_the_defender_has_an_engager(guards: list[tuple[str, bool]]) -> None:
    """MG-6.3: an attack waits for engagements exactly when `engagers` lists a unit."""
    state = State(PLAYERS[:2], "ann")
    for name, (zone, tapped) in zip(UNITS, guards, strict=False):
        unit = state.sides["bob"].units[name] = Unit(name, "2S", "2C")
        unit.zone, unit.tapped = zone, tapped
    state.battle = Battle("ann", "bob", [], None)
    assert options.any_engager(state) == bool(options.engagers(state))


@given(count=st.integers(2, 6), out=st.lists(st.booleans(), min_size=6, max_size=6), seat=st.integers(0, 5))
def test_next_player_walks_the_seats_clockwise(count: int, out: list[bool], seat: int) -> None:
    """MG-2.1: the first player still in after `after`, seat by seat round the table; `after` when none is."""
    players = PLAYERS[:count]
    after = players[seat % count]
    state = State(players, after)
    for player, gone in zip(players, out, strict=False):
        state.sides[player].out = gone
    i = players.index(after)
    walk = [players[(i + step) % count] for step in range(1, count + 1)]
    expected = next((p for p in walk if not state.sides[p].out), after)
    assert flow.next_player(state, after) == expected


def test_the_kept_initiative_is_the_sum_of_the_resources_numbers() -> None:
    """MG-6.4: after every record of 40 bot games (2 to 6 players), each side's kept initiative is the plain sum."""
    mg = get("maginot")
    resources = 0
    for seed in range(40):
        _, state = selfplay.bot_start("maginot", seed, 2 + seed % 5)
        rng = random.Random(seed)
        while mg.result(state) is None and not mg.turn_limit(state):
            mg.apply(state, mg.sample(state, rng))
            for side in state.sides.values():
                assert side.initiative == sum(value(card) or 0 for card in side.resources)
        resources += sum(len(side.resources) for side in state.sides.values())
    assert resources > 200  # resources did come into play
