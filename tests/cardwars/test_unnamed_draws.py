"""CW-3.4: unnamed draws in cardwars (docs/referee.md, "Unnamed draws")."""

from __future__ import annotations

import copy

import msgspec
import pytest

from referee.engine import judge
from referee.logio import encode_lines
from referee.ruleset import CHANCE, Illegal
from referee.rulesets import get
from schemas import cardwars as cw
from tests.selfplay import paper_game, state_after

CW = get("cardwars")


def test_cw_3_4_every_draw_may_be_unnamed_and_the_game_is_judged_the_same() -> None:
    for seed in range(20):
        header, named, paper = paper_game("cardwars", seed)
        draws = [r for r in named if type(r) is cw.Draw]
        assert all(r.card is None for r in paper if type(r) is cw.Draw)
        got, expected = judge(list(encode_lines(header, paper))).verdict, judge(list(encode_lines(header, named))).verdict
        assert (got.verdict, got.result, got.unnamed_draws) == (expected.verdict, expected.result, len(draws))


def test_cw_3_4_the_unknown_cards_are_known_once_the_deck_runs_out() -> None:
    """UD-R1: with no card left to draw, a player's unseen cards are their unknown cards, in hand; a card the log
    shows elsewhere was never among them."""
    header, _named, _paper = paper_game("cardwars", 1)
    state = state_after(header, [])
    first, second = state.active, state.defender
    state.sides[first].deck = {"2S", "3S", "4S"}  # a deck near its end (as after many turns)
    state.sides[first].grave = {"5S"}
    turn = [cw.Attack(by=first, attackers=[]), cw.Draw(by=CHANCE, player=second), cw.Attack(by=second, attackers=[])]
    CW.apply(state, cw.Draw(by=CHANCE, player=first))
    assert (state.unseen.unknown[first], CW.describe(state)["players"][first]["unknown"]) == (1, 1)
    for record in turn:
        CW.apply(state, record)
    CW.apply(state, cw.Draw(by=CHANCE, player=first))
    assert state.unseen.unknown[first] == 2
    CW.apply(state, cw.PlayResource(by=first, card="3S"))  # one unknown card is played as 3S: known now
    assert (state.unseen.unknown[first], state.sides[first].deck) == (1, {"2S", "4S"})
    for record in turn:
        CW.apply(state, record)
    CW.apply(state, cw.Draw(by=CHANCE, player=first))  # the deck's last card: both unknown cards are known
    assert (state.unseen.unknown[first], state.sides[first].hand, state.sides[first].deck) == (0, {"2S", "4S"}, set())
    assert "unknown" not in CW.describe(state)["players"][first]
    for record in turn:
        CW.apply(state, record)
    assert state.sides[first].deck == {"5S"} and state.phase == "draw"  # CW-3.2: the graveyard, never a card drawn before


def test_cw_3_4_a_refused_play_leaves_the_unknown_cards_as_they_were() -> None:
    """A record refused by a rule after an unknown card became its card puts the card back among the unseen."""
    header, _named, paper = paper_game("cardwars", 1)
    at = next(i for i, r in enumerate(paper) if type(r) is cw.PlayFace)
    state = state_after(header, paper[:at])
    before = copy.deepcopy((CW.describe(state), state.unseen.unknown))
    record = paper[at]
    with pytest.raises(Illegal) as refused:
        CW.apply(state, msgspec.structs.replace(record, pay=[]))  # the face card itself could be unknown
    assert refused.value.rule == "CW-4.5"
    assert (CW.describe(state), state.unseen.unknown) == before


def test_cw_3_4_a_draw_needs_a_card_left_to_draw_and_its_draw_phase() -> None:
    header, _named, paper = paper_game("cardwars", 1)
    first = next(i for i, r in enumerate(paper) if type(r) is cw.Draw)
    state = state_after(header, paper[: first + 1])
    with pytest.raises(Illegal) as refused:
        CW.apply(state, cw.Draw(by=CHANCE, player=paper[first].player))
    assert refused.value.rule == "CW-2.1"
