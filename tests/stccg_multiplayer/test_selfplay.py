"""Self-play properties over 2,000 seeded bot games of 2 to 6 players."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import msgspec
import pytest

from referee.bots import bot_header, play
from referee.engine import judge
from referee.logio import encode_lines, record_to_dict
from referee.rulesets import get as get_ruleset
from schemas import stccg_multiplayer as sg
from tests import selfplay

ID = "stccg-multiplayer"
RULES = get_ruleset(ID)
GAMES, CHUNK = 2000, 250
# records whose whole legal set `legal` lists (the others it samples: free text, spans, card choices)
ENUMERATED = (sg.SeedMission, sg.Draw, sg.Pass, sg.BorgShipMove, sg.MercenariesAttack, sg.PlasmaFireDamage, sg.EndTurn)


@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_bot_games_end_complete_and_judge_the_same_twice(first: int) -> None:
    """Every record a bot draws is applied (bots.play applies it); every game ends; verdicts repeat."""
    for seed in range(first, first + CHUNK):
        header = bot_header(ID, seed, 2 + seed % 5)
        lines = list(encode_lines(header, play(header, seed)))
        once, twice = judge(lines).verdict, judge(lines).verdict
        assert once.verdict == "complete", (seed, once.error)
        assert msgspec.to_builtins(once) == msgspec.to_builtins(twice)


def test_sampled_records_are_among_the_legal_ones() -> None:
    """Where `legal` enumerates a kind of record in full, every sampled record of that kind is in it."""
    checked = 0
    for seed in range(60):
        _, state = selfplay.bot_start(ID, seed, 2 + seed % 5)
        rng = random.Random(seed)
        while RULES.result(state) is None:
            record = RULES.sample(state, rng) if not RULES.turn_limit(state) else sg.Final(by="judge", scores={p: 0 for p in state.still_in()})
            if isinstance(record, ENUMERATED) and not getattr(record, "extra", False):
                assert record_to_dict(record) in [record_to_dict(r) for r in RULES.legal(state)], (seed, record)
                checked += 1
            RULES.apply(state, record)
    assert checked > 1000


@pytest.mark.parametrize("players", [2, 6])
def test_referee_play_writes_a_complete_game(players: int) -> None:
    """`referee play stccg-multiplayer --players K` writes a log that `referee validate` finds complete."""
    log = subprocess.run(
        [sys.executable, "-m", "referee", "play", ID, "--seed", "7", "--players", str(players)],
        capture_output=True, check=True,
    ).stdout
    verdict = judge(log.splitlines()).verdict
    assert verdict.verdict == "complete" and len(json.loads(log.splitlines()[0])["players"]) == players
