"""The legal records of a crossover position, for `legal` and the bot (game.py applies and checks them).

Draws, the opening choices, a turn's plays, attacks and their targets, the
response window's events, and the leader and discards of resolution, in the
order the decks declare their cards.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from referee import unseen
from referee.ruleset import CHANCE
from referee.rulesets.crossover.state import HAND_SIZE, State
from schemas import crossover as xo
from schemas.log import Record

EVENT_MAX_DRAWS = 2


def legal(state: State) -> Iterator[Record]:
    """Every legal game record here, in the order the decks declare their cards."""
    if state.phase == "over":
        return
    actor = state.actor
    side = state.sides[actor]
    if state.owed:
        for card in side.order(side.deck):
            yield xo.Draw(by=CHANCE, player=actor, card=card)
    elif state.attack is not None:
        yield from responses(state)
    elif state.waiting == "opening":
        yield from (xo.Opening(by=actor, search=s) for s in (True, False))
    elif state.waiting == "lead":
        yield from (xo.Lead(by=actor, card=c) for c in side.of_type(side.hand, "leader"))
    elif state.waiting == "turn":
        yield from plays(state)
    elif state.waiting == "attack":
        defender = state.sides[state.defender]
        theirs = defender.order(defender.minions)
        for minion in side.order(side.minions):
            size = min(side.hits(minion), len(theirs))
            for targets in itertools.combinations(theirs, size):
                yield xo.Attack(by=actor, minion=minion, targets=list(targets))
    elif state.waiting == "resolve":
        for leader in [None, *side.of_type(side.hand, "leader")]:
            rest = side.order(side.hand - {leader})
            for discard in itertools.combinations(rest, max(0, len(rest) - HAND_SIZE)):
                yield xo.Resolve(by=actor, leader=leader, discard=list(discard))


def plays(state: State) -> Iterator[Record]:
    """XO-5: a pass (with or without a draw) before any play, then the plays."""
    actor = state.actor
    side = state.sides[actor]
    if not state.plays:
        yield xo.Pass(by=actor)
        if side.deck:
            yield xo.Pass(by=actor, draw=True)
    value = side.play_value
    if value == 0 or (not state.plays and side.playable(unseen.unknown(state, state.actor)) < value):
        return
    for card in side.of_type(side.hand, "minion"):
        yield xo.Summon(by=actor, card=card)
    for card in side.of_type(side.hand, "equipment"):
        for minion in side.order(side.minions):
            yield xo.Equip(by=actor, card=card, minion=minion)
    for card in side.of_type(side.hand, "event"):
        most = min(EVENT_MAX_DRAWS, len(side.deck)) if side.cards[card].event == "draw" else 0
        for draw in range(most + 1):
            yield xo.PlayEvent(by=actor, card=card, draw=draw)  # type: ignore[arg-type]



def responses(state: State) -> Iterator[Record]:
    """XO-7.6: each asked player's events and `done`."""
    attack = state.attack
    assert attack is not None
    for player in state.asked():
        side = state.sides[player]
        if player == state.actor:
            for card in side.of_type(side.hand, "draw"):
                yield from (xo.Respond(by=player, card=card, minion=t) for t in attack.targets)
        else:
            open_targets = [t for t in attack.targets if t not in attack.stopped]
            for card in side.of_type(side.hand, "stop"):
                yield from (xo.Respond(by=player, card=card, minion=t) for t in open_targets)
        yield xo.Done(by=player)
