"""`referee play maginot` for 2 to 6 players, and the state views `replay` and `legal` use."""

from __future__ import annotations

import json
import subprocess
import sys

import msgspec
import pytest

from tests.maginot.mglog import RULESET, armies, battle_ready


@pytest.mark.parametrize("players", [2, 6])
def test_referee_play_writes_a_complete_game(players: int) -> None:
    played = subprocess.run(
        [sys.executable, "-m", "referee", "play", "maginot", "--seed", "7", "--players", str(players)],
        capture_output=True, check=True,
    )
    judged = subprocess.run(
        [sys.executable, "-m", "referee", "validate", "--json", "-"], input=played.stdout, capture_output=True, check=False
    )
    verdict = json.loads(judged.stdout)
    assert judged.returncode == 0 and verdict["verdict"] == "complete" and verdict["chain"] == "verified"
    assert len(verdict["result"]["placements"]) == players


def test_referee_play_refuses_seven_players() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee", "play", "maginot", "--players", "7"], capture_output=True, check=False
    )
    assert done.returncode == 2 and b"Traceback" not in done.stderr


def test_describe_is_json_and_render_is_readable_mid_battle() -> None:
    t = battle_ready(armies(guard=("bob",))).act("attack", target="bob", units=["2H"])
    data = RULESET.describe(t.state)
    assert msgspec.json.decode(msgspec.json.encode(data)) == data
    assert data["battle"]["attacker"] == "ann" and data["players"]["bob"]["units"][0]["zone"] == "guardian"
    text = RULESET.render(t.state)
    assert "battle: ann attacks bob with 2H" in text and len(text.splitlines()) < 10
