"""SG-5.9: unnamed draws in stccg-multiplayer (docs/referee.md, "Unnamed draws")."""

from __future__ import annotations

import pytest

from referee.engine import judge
from referee.logio import encode_lines
from referee.ruleset import CHANCE, Illegal
from referee.rulesets import get
from schemas import stccg_multiplayer as sg
from tests.selfplay import paper_game, state_after

SG = get("stccg-multiplayer")


def test_sg_5_9_every_draw_may_be_unnamed_and_the_game_is_judged_the_same() -> None:
    for players in (2, 3, 6):
        header, named, paper = paper_game("stccg-multiplayer", 2, players)
        assert all(r.card is None for r in paper if type(r) is sg.Draw)
        got, expected = judge(list(encode_lines(header, paper))).verdict, judge(list(encode_lines(header, named))).verdict
        assert (got.verdict, got.result, got.unchecked) == (expected.verdict, expected.result, expected.unchecked)


def test_sg_5_9_an_unnamed_extra_draw_needs_a_card_left_in_the_draw_deck() -> None:
    header, _named, paper = paper_game("stccg-multiplayer", 2)
    at = next(i for i, r in enumerate(paper) if type(r) is sg.EndTurn)
    state = state_after(header, paper[:at])
    player = state.active
    left = sum(state.seats[player].draw.values()) - state.unseen.unknown.get(player, 0)
    for _ in range(left):
        SG.apply(state, sg.Draw(by=CHANCE, player=player, extra=True))
    assert not state.seats[player].draw and state.unseen.unknown[player] == 0  # UD-R1: all known now
    with pytest.raises(Illegal) as refused:
        SG.apply(state, sg.Draw(by=CHANCE, player=player, extra=True))
    assert refused.value.rule == "SG-5.9"


def test_sg_5_9_a_q_swap_by_the_judge_among_unknown_cards_is_refused_by_a_rule() -> None:
    """What a record takes from a hand is asked of a seat only a player has: a judge's q_swap or relocate while
    players hold unknown cards is refused by SG-5.4, never a crash."""
    header, _named, paper = paper_game("stccg-multiplayer", 2)
    at = next(i for i, r in enumerate(paper) if type(r) is sg.EndTurn)
    for record in (sg.QSwap(by="judge", pairs=[("S1.1", "S1.2")]), sg.Relocate(by="judge", card="Lakanta", ships=["x"], to="S1.1")):
        verdict = judge(list(encode_lines(header, [*paper[:at], record]))).verdict
        assert (verdict.verdict, verdict.error.rule) == ("illegal", "SG-5.4"), verdict.error


def test_sg_5_9_a_named_draw_of_a_card_held_twice_that_empties_the_deck_shows_the_unknown_copies() -> None:
    """UD-R1 with copies: the last card drawn named is one copy; the other copy left is among the unknown cards."""
    header, _named, paper = paper_game("stccg-multiplayer", 2)
    at = next(i for i, r in enumerate(paper) if type(r) is sg.EndTurn)
    state = state_after(header, paper[:at])
    player = state.active
    seat = state.seats[player]
    held = state.unseen.unknown[player]
    seat.draw = {"Spore Cloud": 2, **{f"Card {n}": 1 for n in range(held - 1)}}  # the unknown cards' deck, and one more
    SG.apply(state, sg.Draw(by=CHANCE, player=player, card="Spore Cloud", extra=True))
    assert (state.unseen.unknown[player], seat.draw) == (0, {})
    assert seat.hand.get("Spore Cloud", 0) >= 2 and SG.to_act(state) == (player,)  # nothing left to draw
