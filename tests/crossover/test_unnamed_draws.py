"""XO-3.5: unnamed draws in crossover (docs/referee.md, "Unnamed draws")."""

from __future__ import annotations

from pathlib import Path

from referee.engine import judge, judge_file
from referee.logio import encode_lines
from referee.rulesets import get
from schemas import crossover as xo
from tests.selfplay import paper_game, state_after

XO = get("crossover")
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "crossover"


def test_xo_3_5_opening_draws_leaders_and_events_stay_named_the_rest_may_not() -> None:
    left_out = 0
    for players in (2, 4, 6):
        for seed in range(6):
            header, named, paper = paper_game("crossover", seed, players)
            state = state_after(header, [])
            kinds = {c: s.cards[c].type for s in state.sides.values() for c in s.cards}
            unnamed = [n for n, p in zip(named, paper, strict=True) if type(p) is xo.Draw and p.card is None]
            assert {kinds[r.card] for r in unnamed} <= {"minion", "equipment"}
            left_out += len(unnamed)
            got, expected = judge(list(encode_lines(header, paper))).verdict, judge(list(encode_lines(header, named))).verdict
            assert (got.verdict, got.result, got.unnamed_draws) == (expected.verdict, expected.result, len(unnamed))
    assert left_out > 20


def test_xo_3_5_an_opening_draw_unnamed_is_refused_at_the_draw_under_xo_4_2() -> None:
    error = judge_file(str(FIXTURES / "illegal-unnamed-opening-draw.jsonl")).verdict.error
    assert error is not None and (error.rule, error.seq) == ("XO-4.2", 1) and "must name" in error.message


def test_xo_3_5_an_event_drawn_unnamed_is_refused_where_it_shows_itself() -> None:
    error = judge_file(str(FIXTURES / "illegal-unnamed-event-drawn.jsonl")).verdict.error
    assert error is not None and error.rule == "XO-3.5" and "drawn unnamed" in error.message


def test_xo_3_5_unknown_cards_count_in_the_hand_of_five() -> None:
    """XO-8.3 with unknown cards: keeping six (some unknown) is refused; the verdict's state shows them."""
    verdict = judge_file(str(FIXTURES / "illegal-unnamed-hand-over-five.jsonl")).verdict
    assert verdict.error is not None and verdict.error.rule == "XO-8.3"
    side = verdict.state["players"][verdict.to_act[0]]
    assert len(side["hand"]) + side["unknown"] > 5


def test_xo_3_5_xo_5_3_counts_each_unknown_card_as_playable() -> None:
    """UD-R2: an unknown card is a minion or an equipment, so it counts towards the plays a turn needs."""
    header, _named, paper = paper_game("crossover", 1)
    for at in range(len(paper)):
        state = state_after(header, paper[:at])
        unseen = getattr(state, "unseen", None)
        held = {p: n for p, n in (unseen.unknown.items() if unseen else ()) if n}
        if held:
            player, count = next(iter(held.items()))
            side = state.sides[player]
            assert side.playable(count) >= side.playable() + count - len(side.groups["equipment"] & side.hand)
            assert side.playable(count) - count == len(side.hand) - len(side.groups["leader"] & side.hand)
            return
    raise AssertionError("no unknown card was held")
