"""basictcg-mtg's quick paths, each against the plain rule it stands for, on random input.

`start` works out the cards once per exact declaration (cards.declared) and
checks the decks with one test over all of them, walking them card by card
only to name the first fault (BT-1.4). The turn's end looks only at the cards
that may carry a bonus or damage (none on most turns), skips `settle` when none
leaves, and checks the totals only when one may have reached the threshold; a
draw, and a new turn, call next_draw only when a draw may have to be skipped.
Places at the end come from the totals ranked once.
"""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.ruleset import Illegal
from referee.rulesets.basictcg_mtg import flow
from referee.rulesets.basictcg_mtg.cards import card, declared
from referee.rulesets.basictcg_mtg.state import State, is_creature, overdamaged
from schemas import basictcg_mtg as bt
from tests.basictcg_mtg.btlog import BT, CARDS, setup, start
from tests.basictcg_mtg.test_selfplay import playing

SYMBOLS = ["{1}", "{2}", "{10}", "{G}", "{W}", "{X}", "{W/U}", "{2/B}", "{G/P}"]
COLOURS = ["white", "blue", "black", "red", "green"]
TYPES = ["creature", "land", "artifact", "instant", "sorcery"]
KEYWORDS = ["first_strike", "flying", "reach", "poison", "deathtouch", "defender", "regeneration"]
TERRAIN = ["Forest", "Island", "Swamp"]


def some(items: list[str]) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(items), max_size=3, unique=True)


specs = st.builds(
    bt.CardSpec,
    cost=st.lists(st.sampled_from(SYMBOLS), max_size=4).map("".join),
    types=st.lists(st.sampled_from(TYPES), min_size=1, max_size=2, unique=True),
    power=st.none() | st.integers(0, 99),
    stamina=st.none() | st.integers(0, 99),
    colours=some(COLOURS),
    keywords=some(KEYWORDS),
    walk=some(TERRAIN),
    protection=some(COLOURS),
    terrain=some(TERRAIN),
    text=st.sampled_from(["", "Draw a card.", "ünïcode ✓"]),
)
declarations = st.dictionaries(st.sampled_from(["Bear", "Ox", "Hawk", "Ox Two"]), specs, min_size=1, max_size=4)


@settings(max_examples=300)
@given(declarations, declarations)
def test_declared_cards_are_those_of_the_exact_declaration(one: dict[str, bt.CardSpec], other: dict[str, bt.CardSpec]) -> None:
    """The cached Cards equal the Cards worked from each declaration, whichever declaration came before
    (random declarations often differ in one field only); the cache key reads back as the declaration."""
    for specs_ in (one, other, one):
        assert dict(declared(specs_)) == {name: card(name, spec) for name, spec in specs_.items()}
        assert msgspec.json.decode(msgspec.json.encode(specs_), type=dict[str, bt.CardSpec]) == specs_


def plain_deck_check(players: list[str], decks: dict[str, dict[str, str]]) -> tuple[str, str] | None:
    """BT-1.4 card by card, in deck order: every name declared, no id twice. The first fault, or None."""
    seen: set[str] = set()
    for player in players:
        for card_id, name in decks[player].items():
            if name not in CARDS:
                return "BT-1.4", f"{player}'s card {card_id} is {name!r}, which the setup does not declare"
            if card_id in seen:
                return "BT-1.4", f"card id {card_id} is in two decks; ids must be unique"
            seen.add(card_id)
    return None


deck = st.dictionaries(st.sampled_from([f"c{n}" for n in range(12)]), st.sampled_from(["Bear", "Ox", "Bolt", "Nonesuch"]), max_size=6)


@settings(max_examples=400)
@given(st.lists(deck, min_size=2, max_size=4))
def test_deck_checks_and_owners_match_the_plain_rule(decks_: list[dict[str, str]]) -> None:
    """`start` refuses exactly the decks the card-by-card BT-1.4 check refuses, with its first fault;
    otherwise every card is its declaration's Card, owned by the player whose deck holds it."""
    players = ["ann", "bob", "cat", "dan"][: len(decks_)]
    decks = dict(zip(players, decks_, strict=True))
    data: dict[str, Any] = {"first": "ann", "cards": CARDS, "decks": decks}
    fault = plain_deck_check(players, decks)
    if fault is not None:
        with pytest.raises(Illegal) as caught:
            start(data)
        assert (caught.value.rule, caught.value.message) == fault
        return
    state = start(data)
    every = {card_id: (player, name) for player in players for card_id, name in decks[player].items()}
    assert state.owner == {card_id: player for card_id, (player, _) in every.items()}
    assert state.cards == {card_id: card(name, msgspec.convert(CARDS[name], bt.CardSpec)) for card_id, (_, name) in every.items()}
    assert {p: side.deck | side.hand for p, side in state.sides.items()} == {p: set(decks[p]) for p in players}


def plain_end_turn(state: State) -> None:
    """BT-11.2 over the whole table: every bonus ends, every card in play is checked for damage (BT-8.3);
    then every player's total is checked against the threshold (BT-11.3)."""
    state.reached = True  # as if a total had grown to it: the check looks at every player
    for side in state.sides.values():
        for on in side.field.values():
            on.boost = 0
    flow.settle(state, overdamaged(state, [c for side in state.sides.values() for c in side.field]), resume="end")


def test_the_turn_s_end_matches_the_plain_rule_over_the_whole_table() -> None:
    """The turn's end looks only at `marked`, goes straight to the threshold when no card leaves, and checks
    the totals only when one may have grown to it (`reached`); the plain rule looks at every card, always
    settles and checks every total. Bot games, with random bonuses, damage and tokens dealt before many
    turn ends so that cards also leave at the turn's end (and regenerate) and tokens reach the threshold."""
    leaving = compared = reached = 0
    for _seed, state, rng in playing(range(120)):
        record = BT.sample(state, rng)
        if type(record) is not bt.EndTurn:
            BT.apply(state, record)
            continue
        creatures = [c for side in state.sides.values() for c, on in side.field.items() if is_creature(state, c, on)]
        if creatures and rng.random() < 0.5:
            aim = rng.choice(creatures)
            source = rng.choice([c for c, o in state.owner.items() if o == state.active])
            effect = bt.Effect(by=state.active, source=source, text="t", boost={aim: rng.randint(1, 3)}, damage={aim: rng.randint(1, 3)})
            if rng.random() < 0.3:
                effect.tokens = {aim: rng.randint(1, 2)}
            with contextlib.suppress(Illegal):  # protection (BT-10.3)
                BT.apply(state, effect)
            continue
        plain = copy.deepcopy(state, {id(state.cards): state.cards})
        plain_end_turn(plain)
        leaving += sum(len(s.discard) for s in plain.sides.values()) > sum(len(s.discard) for s in state.sides.values())
        leaving += bool(plain.doomed)
        BT.apply(state, record)
        assert (BT.describe(state), BT.to_act(state), BT.result(state)) == (BT.describe(plain), BT.to_act(plain), BT.result(plain))
        compared += 1
        reached += plain.phase == "over"
    assert compared > 2000 and leaving > 50 and reached > 60


@settings(max_examples=200)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=4), st.integers(0, 3))
def test_draws_follow_the_plain_schedule(sizes: list[int], hand: int) -> None:
    """A draw ends the draws itself when none is owed and calls next_draw only when the player owed the next
    one has an empty deck (BT-3.3): the drawers must be the owed ones in order, skipping each whose deck is
    empty by then, and the main phase must follow."""
    players = ["ann", "bob", "cat", "dan"][: len(sizes)]
    state = start(setup({p: ["Bear"] * n for p, n in zip(players, sizes, strict=True)}, hand=hand))
    left = dict(zip(players, sizes, strict=True))
    expected = []
    for player in [p for p in players for _ in range(hand)] + ["ann"]:
        if left[player]:
            left[player] -= 1
            expected.append(player)
    drawers = []
    while state.phase == "draw":
        drawers.append(state.draws[0])
        BT.apply(state, bt.Draw(by="chance", player=state.draws[0], card=min(state.sides[state.draws[0]].deck)))
    assert drawers == expected and state.phase == "main"


@settings(max_examples=200)
@given(st.lists(st.integers(0, 2), min_size=2, max_size=4), st.lists(st.integers(0, 3), max_size=3))
def test_a_new_turn_owes_its_draw_as_next_draw_does(sizes: list[int], owed: list[int]) -> None:
    """next_turn sets the draw phase itself when the new active player's draw is the only one owed and their
    deck has cards; otherwise next_draw skips the draws of empty decks (BT-3.3). Any decks, any opening
    draws still owed: the same draws, phase and player to act as the plain turn change through next_draw."""
    players = ["ann", "bob", "cat", "dan"][: len(sizes)]
    state = start(setup({p: ["Bear"] * n for p, n in zip(players, sizes, strict=True)}, hand=0))
    state.draws, state.phase = [players[i % len(players)] for i in owed], "main"
    plain = copy.deepcopy(state, {id(state.cards): state.cards})
    flow.next_turn(state)
    plain.active = plain.next_seat[plain.active]
    plain.draws.append(plain.active)
    flow.next_draw(plain)
    assert (state.active, state.draws, state.phase) == (plain.active, plain.draws, plain.phase)


@settings(max_examples=200)
@given(st.lists(st.integers(0, 12), min_size=2, max_size=4), st.integers(0, 3))
def test_placements_count_the_players_with_more(totals: list[int], leavers: int) -> None:
    """BT-12.3: a player's place is 1 + how many players still in have a higher total (flow.finish ranks
    them); those who left come after, the last to leave first."""
    players = ["ann", "bob", "cat", "dan"][: len(totals)]
    state = start(setup({p: ["Bear"] for p in players}, hand=0))
    state.left = players[len(players) - min(leavers, len(players) - 1) :]
    for player, level in zip(players, totals, strict=True):
        state.sides[player].levels = 0 if player in state.left else level
    flow.finish(state, "threshold")
    remaining = [p for p in players if p not in state.left]
    expected = {p: 1 + sum(state.sides[q].levels > state.sides[p].levels for q in remaining) for p in remaining}
    expected |= {p: len(remaining) + 1 + later for later, p in enumerate(reversed(state.left))}
    assert state.outcome is not None and state.outcome.placements == expected
