"""Unnamed draws (docs/referee.md, "Unnamed draws"): a game recorded without its draws' cards is judged as the
game itself, and naming those draws again, consistently, gives a legal log.

For every game and player count: a bot game, re-recorded with every draw the game lets stay unnamed left
without its card (`referee.bots.unnamed`), has the named game's verdict and result, and counts its unnamed
draws; naming each unnamed draw with the cards as the referee learns them (first shown, first drawn: another
naming than the bot's own) gives a log that is legal and ends the same.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.bots import bot_header, play, unnamed
from referee.cli import app
from referee.engine import judge, judge_file
from referee.logio import encode_lines, setup_decoder
from referee.ruleset import CHANCE
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids as ruleset_ids
from schemas.log import Header, Record
from tests import selfplay

runner = CliRunner()
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SEATS = [
    (game, players)
    for game in ruleset_ids()
    for players in range(get_ruleset(game).min_players, get_ruleset(game).max_players + 1)
]


def _lines(header: Header, records: list[Record]) -> list[bytes]:
    return list(encode_lines(header, records))


def _pool(state: Any, player: str) -> dict[str, int]:
    """`player`'s unseen cards (their deck container), as counts."""
    deck, _ = state.unseen.spec.zones(state, player)
    return dict(deck) if isinstance(deck, dict) else dict.fromkeys(deck, 1)


def named_again(header: Header, records: list[Record]) -> list[Record]:
    """`records` with every unnamed draw named: each player's unknown cards, as the referee learns them (a card
    played, shown or discarded, or every unseen card once the deck has none left to draw), go to that player's
    earliest unnamed draws still unnamed; those never learnt, to unseen cards at the end that the rules let
    stay unknown."""
    ruleset = get_ruleset(header.ruleset)
    state = ruleset.start(header, setup_decoder(header.ruleset).decode(header.setup))
    waiting: dict[str, deque[int]] = defaultdict(deque)  # player -> indexes of their unnamed draws not yet named
    names: dict[int, str] = {}
    for index, record in enumerate(records):
        player = getattr(record, "player", None)
        unnamed_draw = record.by == CHANCE and getattr(record, "card", "") is None
        before = {p: (_pool(state, p), state.unseen.unknown.get(p, 0)) for p in waiting}
        ruleset.apply(state, record)
        if unnamed_draw:
            waiting[player].append(index)
        for p, (pool, held) in before.items():
            learnt = held - state.unseen.unknown.get(p, 0) + (p == player and unnamed_draw)
            gone = Counter(pool) - Counter(_pool(state, p))  # a deck refilled from a discard pile only grows
            if p == player and not unnamed_draw and getattr(record, "card", None) is not None:
                gone[record.card] -= 1  # the named draw's own card left the deck too
            cards = sorted(gone.elements())
            assert len(cards) == learnt, (index, p, cards, learnt)
            for card in cards:
                names[waiting[p].popleft()] = card
    for p, queue in waiting.items():
        may = state.unseen.spec.read_at_once  # an unknown card is never one the rules read in a hand at once
        rest = sorted(c for c, n in _pool(state, p).items() for _ in range(n) if may(state, p, c) is None)
        for index in queue:
            names[index] = rest.pop()
    return [msgspec.structs.replace(r, card=names[i]) if i in names else r for i, r in enumerate(records)]  # type: ignore[type-var]


def check_game(game: str, players: int, seed: int) -> None:
    header = bot_header(game, seed, players)
    named = list(play(header, seed))
    paper = list(unnamed(header, named))
    draws = sum(1 for r in paper if r.by == CHANCE and getattr(r, "card", "") is None)
    expected = judge(_lines(header, named)).verdict
    got = judge(_lines(header, paper)).verdict
    assert (got.verdict, got.error) == (expected.verdict, expected.error), (game, players, seed)
    assert got.result == expected.result and got.verdict == "complete"
    assert got.unnamed_draws == draws and expected.unnamed_draws == 0
    if draws:
        again = named_again(header, paper)
        verdict = judge(_lines(header, again)).verdict
        assert verdict.verdict == "complete", (game, players, seed, verdict.error)
        assert verdict.result == expected.result and verdict.unnamed_draws == 0


@pytest.mark.parametrize(("game", "players"), SEATS)
def test_every_game_and_player_count_unnamed_is_judged_as_named(game: str, players: int) -> None:
    """A small fixed sample for CI: one seed for each game and player count."""
    check_game(game, players, 1)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seat=st.sampled_from(SEATS), seed=st.integers(0, 10**6))
def test_unnamed_is_judged_as_named_long_run(seat: tuple[str, int], seed: int) -> None:
    check_game(*seat, seed)


def test_each_game_leaves_some_draws_unnamed() -> None:
    """Every game supports unknown cards: its bot game recorded on paper leaves draws unnamed."""
    for game in ruleset_ids():
        header = bot_header(game, 3)
        paper = list(unnamed(header, play(header, 3)))
        assert any(r.by == CHANCE and getattr(r, "card", "") is None for r in paper), game


@pytest.mark.parametrize("game", ruleset_ids())
def test_play_draws_unnamed_writes_a_complete_log(game: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`referee play GAME --draws unnamed` then `referee validate`: complete, with the count in the verdict.
    Every player count is judged the same way by the property above (`play` is `bots.unnamed` of `bots.play`)."""
    out = tmp_path / "g.jsonl"
    players = str(get_ruleset(game).max_players)
    played = runner.invoke(app, ["play", game, "--seed", "4", "--players", players, "--draws", "unnamed", "--out", str(out)])
    assert played.exit_code == 0, played.output
    result = runner.invoke(app, ["validate", str(out)])
    assert result.exit_code == 0 and ": complete; " in result.stdout and " draws unnamed, " in result.stdout
    verdict = runner.invoke(app, ["validate", "--json", str(out)]).stdout
    assert msgspec.json.decode(verdict)["unnamed_draws"] > 0


def test_play_refuses_a_dealt_game_with_unnamed_draws() -> None:
    result = runner.invoke(app, ["play", "cardwars", "--deal", "new", "--draws", "unnamed"])
    assert result.exit_code == 2 and "DL-4" in result.stderr, result.output


def test_a_named_log_keeps_its_verdict_bytes() -> None:
    """The verdict of a log whose draws are all named carries no `unnamed_draws`: it reads as before."""
    header = bot_header("cardwars", 5)
    verdict = judge(_lines(header, list(play(header, 5)))).verdict
    assert b"unnamed_draws" not in msgspec.json.encode(verdict)


@pytest.mark.parametrize("game", ruleset_ids())
def test_a_card_that_cannot_be_unknown_is_refused_saying_why(game: str) -> None:
    """The golden twin `illegal-unnamed-card-not-unseen` is refused by the game's own hand rule, and the message
    says the card cannot be one of the unknown cards (fixtures/GAME/manifest.json names the rule)."""
    error = judge_file(str(FIXTURES / game / "illegal-unnamed-card-not-unseen.jsonl")).verdict.error
    assert error is not None and "cannot be one of" in error.message and "unknown card(s)" in error.message


PAPER_LOGS = {game: _lines(*(lambda h: (h, list(unnamed(h, play(h, 2)))))(bot_header(game, 2))) for game in ruleset_ids()}
PREFIX = {"cardwars": "CW-", "crossover": "XO-", "maginot": "MG-", "basictcg-mtg": "BT-", "stccg-multiplayer": "SG-"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(PAPER_LOGS)), kind=st.sampled_from(selfplay.MUTATIONS), where=st.floats(0, 1),
       other=st.floats(0, 1), key=st.sampled_from(["by", "card", "player", "type", "seq", "discard", "leader", "source"]),
       value=st.one_of(st.none(), st.sampled_from(["ann", "bob", "judge", "chance", "KD", "7S", "Q"]), st.integers(0, 9)))  # fmt: skip
def test_mutated_paper_logs_get_a_verdict_never_a_crash(game: str, kind: str, where: float, other: float, key: str, value: object) -> None:
    """A log with unnamed draws, mutated (a record deleted, swapped, a field edited: a card left out or named),
    is judged, never a crash, and an illegal verdict names a rule of its game."""
    log = selfplay.unchain(PAPER_LOGS[game])
    selfplay.check_mutated(log, selfplay.mutate(log, kind, where, other, key, value), kind, PREFIX[game])
