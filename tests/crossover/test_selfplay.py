"""Self-play properties over 2,000 seeded bot games with 2 to 6 players.

Every record a bot draws through `sample` is made by someone `to_act` names
and is among `legal`; `apply` accepts it (the bot loop applies it); every
game ends `complete`; judging the same log twice gives the same verdict.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import msgspec
import pytest

from referee.bots import bot_header, play
from referee.engine import judge
from referee.logio import encode_lines
from referee.ruleset import Illegal
from referee.rulesets import get
from schemas import crossover as xo
from schemas.log import Concede, GameLoss, Record, Time

XO = get("crossover")
GAMES = 2000
BATCHES = 10


def _checked_sample(original: Any) -> Any:
    """`sample`, also asserting the record is legal and made by a player asked to act."""

    def sample(state: Any, rng: random.Random) -> Record:
        record = original(state, rng)
        assert record.by in XO.to_act(state), (record, XO.to_act(state))
        assert record in list(XO.legal(state)), record
        return record

    return sample


@pytest.mark.parametrize("batch", range(BATCHES))
def test_bot_games_are_legal_complete_and_judged_the_same_twice(batch: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(XO, "sample", _checked_sample(XO.sample))
    for seed in range(batch, GAMES, BATCHES):
        players = 2 + seed % 5
        header = bot_header("crossover", seed, players)
        lines = list(encode_lines(header, play(header, seed)))
        first, second = judge(lines).verdict, judge(lines).verdict
        assert first.verdict == "complete", (seed, first.error)
        assert msgspec.json.encode(first) == msgspec.json.encode(second)
        assert first.result is not None and set(first.result.placements) == set(header.players)


def test_bot_games_cover_every_record_type_and_player_count() -> None:
    """The bots reach every part of the game (so the property above is not vacuous)."""
    seen: set[str] = set()
    for seed in range(200):
        header = bot_header("crossover", seed, 2 + seed % 5)
        seen |= {type(r).__name__ for r in play(header, seed)}
    assert seen >= {"Draw", "Opening", "Lead", "Summon", "Equip", "PlayEvent", "Pass", "Attack", "Respond", "Done", "Resolve"}


@pytest.mark.parametrize("players", [1, 7])
def test_bot_header_refuses_player_counts_outside_two_to_six(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 6"):
        bot_header("crossover", 1, players)


def test_bot_decks_come_from_all_four_translations() -> None:
    games = set()
    for seed in range(20):
        setup = msgspec.json.decode(bot_header("crossover", seed, 2).setup)
        games |= {deck["game"] for deck in setup["decks"].values()}
    assert games == {"dothack", "stccg1e", "stccg2e", "mtg"}


def test_records_from_the_wrong_actor_are_refused_and_change_nothing() -> None:
    """At every step of 100 bot games, the sampled record made by someone not asked is Illegal and leaves the state as it was."""
    for seed in range(100):
        header = bot_header("crossover", seed, 2 + seed % 5)
        state = XO.start(header, msgspec.json.decode(header.setup, type=XO.setup_type))
        rng = random.Random(seed)
        while XO.result(state) is None and not XO.turn_limit(state):
            record = XO.sample(state, rng)
            others = [p for p in (*header.players, "chance") if p not in XO.to_act(state)]
            before = XO.describe(state)
            with pytest.raises(Illegal):
                XO.apply(state, msgspec.structs.replace(record, by=rng.choice(others)))
            assert XO.describe(state) == before
            XO.apply(state, record)


def test_xo_9_6_a_concession_at_any_point_leaves_a_game_that_plays_to_the_end() -> None:
    """In 400 bot games one player concedes (or gets a game loss) at a random step; play goes on legally to a result."""
    for seed in range(400):
        header = bot_header("crossover", seed, 2 + seed % 5)
        state = XO.start(header, msgspec.json.decode(header.setup, type=XO.setup_type))
        rng = random.Random(seed)
        leave_at, step, leaver = rng.randrange(150), 0, None
        while XO.result(state) is None:
            if step == leave_at:
                leaver = rng.choice(state.alive)
                record: Record = rng.choice([Concede(by=leaver), GameLoss(by="judge", player=leaver)])
                still_in = len(state.alive)
            elif XO.turn_limit(state):
                record = Time(by="judge")
            else:
                record = XO.sample(state, rng)
                assert record.by in XO.to_act(state) and record in list(XO.legal(state))
            XO.apply(state, record)
            step += 1
        result = XO.result(state)
        assert result is not None and set(result.placements) == set(header.players)
        if leaver is not None:
            assert result.placements[leaver] == still_in
            assert leaver not in result.winners


def _random_record(state: Any, players: list[str], rng: random.Random) -> Record:
    """A well-formed record of any game type, with random actors and card names from every deck."""
    names = sorted({n for side in state.sides.values() for n in side.cards})
    card, minion = rng.choice(names), rng.choice(names)
    by = rng.choice([*players, "chance"])
    return rng.choice([
        xo.Draw(by=by, player=rng.choice(players), card=card),
        xo.Opening(by=by, search=rng.random() < 0.5),
        xo.Lead(by=by, card=card),
        xo.Summon(by=by, card=card),
        xo.Equip(by=by, card=card, minion=minion),
        xo.PlayEvent(by=by, card=card, draw=rng.choice([0, 1, 2])),
        xo.Pass(by=by, draw=rng.random() < 0.5),
        xo.Attack(by=by, minion=minion, targets=rng.sample(names, rng.randrange(3))),
        xo.Respond(by=by, card=card, minion=minion),
        xo.Done(by=by),
        xo.Resolve(by=by, leader=rng.choice([None, card]), discard=rng.sample(names, rng.randrange(3))),
    ])  # fmt: skip


def test_apply_accepts_exactly_what_legal_lists() -> None:
    """At every step of 40 bot games: random records outside `legal` are refused without a change, and everything in `legal` is accepted."""
    for seed in range(40):
        header = bot_header("crossover", seed, 2 + seed % 5)
        state = XO.start(header, msgspec.json.decode(header.setup, type=XO.setup_type))
        rng = random.Random(seed)
        while XO.result(state) is None and not XO.turn_limit(state):
            legal = list(XO.legal(state))
            before = XO.describe(state)
            for _ in range(4):
                record = _random_record(state, header.players, rng)
                if record in legal:
                    continue
                with pytest.raises(Illegal):
                    XO.apply(state, record)
                assert XO.describe(state) == before, record
            if len(legal) <= 6:
                for record in legal:
                    XO.apply(copy.deepcopy(state), record)
            XO.apply(state, XO.sample(state, rng))
