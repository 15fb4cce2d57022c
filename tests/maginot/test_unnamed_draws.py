"""MG-3.4: unnamed draws in maginot (docs/referee.md, "Unnamed draws")."""

from __future__ import annotations

from pathlib import Path

from referee.engine import judge, judge_file
from referee.logio import encode_lines
from schemas import maginot as mg
from tests.selfplay import paper_game

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "maginot"


def test_mg_3_4_every_draw_but_the_king_of_diamonds_may_be_unnamed() -> None:
    for players in (2, 3, 6):
        header, named, paper = paper_game("maginot", 2, players)
        kept = {n.card for n, p in zip(named, paper, strict=True) if type(p) is mg.Draw and p.card is not None}
        assert kept <= {"KD"}
        got, expected = judge(list(encode_lines(header, paper))).verdict, judge(list(encode_lines(header, named))).verdict
        assert (got.verdict, got.result) == (expected.verdict, expected.result) and got.unnamed_draws > 0


def test_mg_3_4_a_king_of_diamonds_drawn_unnamed_is_refused_under_mg_6_5() -> None:
    error = judge_file(str(FIXTURES / "illegal-unnamed-kd-drawn.jsonl")).verdict.error
    assert error is not None and error.rule == "MG-6.5" and "KD was drawn unnamed" in error.message
