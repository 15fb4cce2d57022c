"""The state's quick answers equal the plain rules: a side's card questions (answered from its deck's Roster
sets) on random hands, decks and minions of every built-in and test deck, and the seat order and next player
(kept as players leave) on random tables."""

from __future__ import annotations

import random
from typing import Annotated

import msgspec
import pytest

from referee.bots import bot_header, play
from referee.logio import setup_decoder
from referee.patterns import Decoder
from referee.ruleset import Illegal
from referee.rulesets import get as get_ruleset
from referee.rulesets.crossover import decks, flow
from referee.rulesets.crossover.state import Roster, Side, State
from referee.rulesets.crossover.translations import translate
from schemas.crossover import Card, Deck
from schemas.log import remembered
from tests.crossover import xolog

KINDS = ("leader", "minion", "equipment", "event")
EVENTS = ("draw", "stop")


def _decks() -> list[tuple[str, list[Card]]]:
    test_decks = [(game, msgspec.convert(cards, list[Card])) for game, cards in xolog.DECKS.items()]
    return list(decks.DECKS.items()) + test_decks


# The plain rules, as they read before the sets: one translated card at a time.


def plain_of_type(side: Side, names: set[str], kind: str) -> list[str]:
    """Cards of crossover type `kind`, or events of kind `kind`."""
    chosen = [n for n in names if side.cards[n].type == kind or (side.cards[n].type == "event" and side.cards[n].event == kind)]
    return sorted(chosen, key=list(side.cards).index)


def plain_playable(side: Side) -> int:
    kinds = [side.cards[c].type for c in side.hand]
    count = kinds.count("minion") + kinds.count("event")
    if side.minions or "minion" in kinds:
        count += kinds.count("equipment")
    return count


def plain_has(side: Side, minion: str, ability: str) -> bool:
    return any(getattr(side.cards[c], ability) for c in [minion, *side.minions[minion].equipment])


@pytest.mark.parametrize(("game", "cards"), _decks(), ids=[f"{g}-{i}" for i, (g, _) in enumerate(_decks())])
def test_side_sets_answer_as_the_plain_rules(game: str, cards: list[Card]) -> None:
    rng = random.Random(game + str(len(cards)))
    translated = {c.name: translate(game, c) for c in cards}
    names = list(translated)
    for _ in range(300):
        side = Side(game, Roster(translated))
        rng.shuffle(names)
        cut = [rng.randrange(len(names) + 1) for _ in range(3)]
        side.hand = set(names[: cut[0]])
        side.deck = set(names[cut[0] :])
        for minion in rng.sample(names, cut[1] % 6):  # any card may stand in: the sets must not care
            side.summon(minion)
            side.minions[minion].equipment = rng.sample(names, rng.randrange(3))
        for zone in (side.hand, side.deck, set(side.minions)):
            for kind in KINDS + EVENTS:
                expected = plain_of_type(side, zone, kind)
                assert side.of_type(zone, kind) == expected  # type: ignore[arg-type]
                assert side.holds(zone, kind) == bool(expected)  # type: ignore[arg-type]
        assert side.playable() == plain_playable(side)
        assert side.initiative == sum(side.cards[m].initiative for m in side.minions)
        leader = rng.choice(names)
        side.lead(leader)
        assert side.leader == leader and side.play_value == side.cards[leader].play_value
        for minion in side.minions:
            for ability in ("double_attack", "endurance"):
                assert side.has(minion, ability) == plain_has(side, minion, ability)  # type: ignore[arg-type]
        assert side.order(side.deck) == sorted(side.deck, key=list(side.cards).index)
        # XO-8.1 in one pass: what killing each minion (XO-7.10) would leave
        plain = set(side.discard).union(side.minions, *(m.equipment for m in side.minions.values()))
        side.discard_minions()
        assert side.discard == plain and not side.minions and side.initiative == 0


def _roster_facts(roster: Roster | Side) -> tuple[object, ...]:
    return roster.cards, list(roster.cards), roster.rank, roster.groups, roster.abilities


def test_the_deck_memo_answers_what_a_fresh_translation_does_for_every_deck() -> None:
    decoder = Decoder(msgspec.defstruct("Decks", [("decks", dict[str, Annotated[Deck, remembered]])]))
    for game, cards in _decks():
        text = msgspec.json.encode({"decks": {"ann": Deck(game=game, cards=tuple(cards))}})
        deck = decoder.decode(text).decks["ann"]
        fresh = _roster_facts(Roster({card.name: translate(game, card) for card in deck.cards}))
        first = decks.check("ann", deck)
        assert _roster_facts(first) == fresh
        # the decoder gives the same Deck object for the same text: the memo answers the same Roster
        again = decoder.decode(text).decks["ann"]
        assert again is deck and decks.check("bob", again).cards is first.cards
        # a different Deck object with equal content: an equal Roster
        equal = msgspec.json.decode(msgspec.json.encode(deck), type=Deck)
        assert equal is not deck and _roster_facts(decks.check("bob", equal)) == fresh


def test_a_remembered_deck_cannot_change_and_a_changed_copy_is_a_new_deck() -> None:
    deck = Deck(game="dothack", cards=decks.DECKS["dothack"])
    first = decks.check("ann", deck)
    with pytest.raises(AttributeError):
        deck.cards = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        deck.cards[0].name = "Other"  # type: ignore[misc]
    decoded = msgspec.json.decode(msgspec.json.encode(deck), type=Deck)
    assert isinstance(decoded.cards, tuple) and isinstance(decoded.cards[0].traits, tuple)
    item = next(i for i, c in enumerate(deck.cards) if c.name == "Ember Gauntlet")  # strength 2: double attack
    changed = msgspec.structs.replace(deck.cards[item], stats={"strength": 0, "endurance": 0})
    other = decks.check("ann", msgspec.structs.replace(deck, cards=(*deck.cards[:item], changed, *deck.cards[item + 1 :])))
    assert other.cards is not first.cards
    assert first.cards["Ember Gauntlet"].double_attack and not other.cards["Ember Gauntlet"].double_attack
    assert "Ember Gauntlet" in first.abilities["double_attack"] and "Ember Gauntlet" not in other.abilities["double_attack"]


def plain_next_after(players: list[str], alive: list[str], player: str) -> str:
    seat = players.index(player)
    return next(players[(seat + step) % len(players)] for step in range(1, len(players) + 1) if players[(seat + step) % len(players)] in alive)


def plain_seat_order(players: list[str], alive: list[str], first: str) -> list[str]:
    start = players.index(first)
    return [p for p in players[start:] + players[:start] if p in alive]


def test_seat_order_and_next_player_follow_every_leaving() -> None:
    rng = random.Random(5)
    for _ in range(300):
        players = [f"p{i}" for i in range(rng.randint(2, 6))]
        state = State(players, rng.choice(players), {})
        alive = list(players)
        while len(alive) > 1:
            for player in rng.sample(players, len(players)):  # asked in any order, of players in or out
                assert state.next_after(player) == plain_next_after(players, alive, player)
            assert state.seat_order() == plain_seat_order(players, alive, state.first)
            state.seat_order().pop()  # a caller's list is its own
            leavers = rng.sample(alive, rng.randint(1, len(alive) - 1))  # one, or several together
            for leaver in leavers:
                alive.remove(leaver)
            state.leave(leavers)
        assert state.alive == alive


def test_places_at_the_end_are_one_plus_how_many_won_more() -> None:
    rng = random.Random(9)
    roster = decks.check("x", Deck(game="mtg", cards=decks.DECKS["mtg"]))
    for _ in range(300):
        players = [f"p{i}" for i in range(rng.randint(2, 6))]
        state = State(players, players[0], {p: Side("mtg", Roster(roster.cards)) for p in players})
        for side in state.sides.values():
            side.wins = rng.randint(0, 3)
        out = rng.sample(players, rng.randint(0, len(players) - 1))
        flow.eliminate(state, out)
        wins = {p: state.sides[p].wins for p in state.alive}
        flow.finish(state, "time")
        for player in state.alive:  # XO-9.4, the plain rule
            assert state.placements[player] == 1 + sum(w > wins[player] for w in wins.values())
        assert state.outcome is not None and state.outcome.placements == state.placements


def test_the_deck_memo_forgets_the_oldest_and_never_keeps_a_refused_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decks, "_seen", {})
    monkeypatch.setattr(decks, "SEEN_LIMIT", 2)
    for game in ("dothack", "mtg", "stccg1e"):
        side = decks.check("ann", decks.Deck(game=game, cards=decks.DECKS[game]))
        assert side.game == game and len(side.cards) == decks.DECK_SIZE
    assert len(decks._seen) == 2
    twice = [*decks.DECKS["mtg"][:19], decks.DECKS["mtg"][0]]
    for _ in range(2):  # refused both times: the refusal is not remembered as a deck
        with pytest.raises(Illegal, match="twice"):
            decks.check("bob", decks.Deck(game="mtg", cards=twice))
    assert len(decks._seen) == 2


def test_the_defender_kept_is_the_pairing_of_the_skirmish_fought_in_bot_games() -> None:
    ruleset = get_ruleset("crossover")
    fights = 0
    for seed in range(60):
        header = bot_header("crossover", seed, 2 + seed % 5)
        state = ruleset.start(header, setup_decoder("crossover").decode(header.setup))
        for record in play(header, seed):
            ruleset.apply(state, record)
            if state.phase == "combat" and (state.waiting == "attack" or state.attack is not None):
                fights += 1
                assert (state.actor, state.defender) == state.skirmishes[state.skirmish]
            for side in state.sides.values():  # XO-2.6, the plain sum, after every record
                assert side.initiative == sum(side.cards[m].initiative for m in side.minions)
    assert fights > 100


def test_the_deck_memo_is_keyed_by_the_deck_not_the_object(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two equal decks decoded apart (another round's setup, spaced otherwise) share one entry (fails on the memo keyed by id(): two entries)."""
    monkeypatch.setattr(decks, "_seen", {})
    first = decks.Deck(game="mtg", cards=decks.DECKS["mtg"])
    again = msgspec.json.decode(b" " + msgspec.json.encode(first), type=decks.Deck)
    assert again is not first and msgspec.json.encode(again) == msgspec.json.encode(first)
    assert decks.check("ann", first).cards is decks.check("bob", again).cards
    assert len(decks._seen) == 1
