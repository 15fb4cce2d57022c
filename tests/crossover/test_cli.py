"""`referee play crossover` and `referee validate` through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app

runner = CliRunner()
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "crossover"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_play_writes_a_complete_game_for_two_to_six_players(players: int, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    played = runner.invoke(app, ["play", "crossover", "--seed", str(players), "--players", str(players), "--out", str(log)])
    assert played.exit_code == 0, played.output
    judged = runner.invoke(app, ["validate", "--json", str(log)])
    verdict = json.loads(judged.stdout)
    assert judged.exit_code == 0 and verdict["verdict"] == "complete" and verdict["chain"] == "verified"
    assert len(verdict["result"]["placements"]) == players


@pytest.mark.parametrize("players", ["1", "7"])
def test_play_refuses_other_player_counts_with_a_usage_error(players: str) -> None:
    played = runner.invoke(app, ["play", "crossover", "--seed", "1", "--players", players])
    assert played.exit_code == 2 and "Traceback" not in played.output


def test_validate_names_the_rule_and_lists_both_players_in_a_window() -> None:
    judged = runner.invoke(app, ["validate", "--json", str(FIXTURES / "illegal-respond-when-not-asked.jsonl")])
    verdict = json.loads(judged.stdout)
    assert judged.exit_code == 1 and verdict["error"]["rule"] == "XO-7.6"
    assert verdict["to_act"] == ["bob"]  # ann said done; only bob is still asked
    legal = runner.invoke(app, ["legal", str(FIXTURES / "illegal-respond-when-not-asked.jsonl"), "--at", "17"])
    assert "after record 17, to act: bob, ann" in legal.output
