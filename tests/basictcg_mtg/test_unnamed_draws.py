"""BT-3.4: unnamed draws in basictcg-mtg (docs/referee.md, "Unnamed draws")."""

from __future__ import annotations

from referee.engine import judge
from referee.logio import encode_lines
from referee.rulesets import get
from schemas import basictcg_mtg as bt
from tests.selfplay import paper_game, state_after

BT = get("basictcg-mtg")


def test_bt_3_4_every_draw_may_be_unnamed_and_the_game_is_judged_the_same() -> None:
    for players in (2, 4):
        for seed in range(5):
            header, named, paper = paper_game("basictcg-mtg", seed, players)
            assert all(r.card is None for r in paper if type(r) is bt.Draw)
            got, expected = judge(list(encode_lines(header, paper))).verdict, judge(list(encode_lines(header, named))).verdict
            assert (got.verdict, got.result, got.unchecked) == (expected.verdict, expected.result, expected.unchecked)


def test_bt_3_4_unknown_cards_are_cards_in_hand_and_left_out_of_the_deck() -> None:
    header, named, paper = paper_game("basictcg-mtg", 1)
    at = len(paper) // 2
    on_paper, truth = state_after(header, paper[:at]), state_after(header, named[:at])
    for player, side in BT.describe(truth)["players"].items():
        seen = BT.describe(on_paper)["players"][player]
        assert seen["deck"] == side["deck"]  # cards left to draw: the unseen ones less the unknown ones
        assert len(seen["hand"]) + seen.get("unknown", 0) == len(side["hand"])
