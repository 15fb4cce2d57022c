"""What follows by itself in crossover: draws owed, turns, pairings, combat, resolution, leaving, the end.

None of these are records: the record handlers in game.py call them right
after the record that makes them due, and they call each other until the
game waits for a choice or a draw again.
"""

from __future__ import annotations

from itertools import pairwise

from referee import unseen
from referee.ruleset import Illegal
from referee.rulesets.crossover.state import FULL_HIT, HAND_SIZE, State, Waiting
from schemas.log import Record
from schemas.verdict import Result

WINS_NEEDED = 2  # two-player games (XO-9.1)

# -- opening --


def owe(state: State, count: int, then: Waiting) -> None:
    """Chance owes the actor `count` draws (fewer if the deck runs out, XO-3.3); `then` follows."""
    state.waiting = then
    state.owed = min(count, unseen.to_draw(state, state.actor, state.sides[state.actor].deck))
    if not state.owed:
        after_draws(state)


def after_draws(state: State) -> None:
    """The draws owed are made: go on with whatever they were drawn for."""
    side = state.sides[state.actor]
    if state.waiting == "deal":
        leaders = side.groups["leader"] & side.hand
        if not leaders:  # XO-4.2: the hand goes back and five more are drawn
            side.deck |= side.hand
            side.hand = set()
            owe(state, HAND_SIZE, "deal")
        elif len(leaders) == 1:
            (leader,) = leaders
            side.hand.discard(leader)
            side.lead(leader)
            next_opener(state)
        else:
            state.waiting = "lead"
    elif state.waiting == "searched":
        next_opener(state)
    elif state.waiting == "turn":
        turn_progress(state)
    elif state.waiting == "refill":
        next_resolver(state)


def next_opener(state: State) -> None:
    """XO-4.1: the next player opens; after the last, the first round begins."""
    if not state.queue:
        begin_play(state)
        return
    state.actor = state.queue.pop(0)
    side = state.sides[state.actor]
    if len(side.groups["leader"] & side.deck) == 1:
        state.waiting = "opening"
    else:
        owe(state, HAND_SIZE, "deal")

# -- the play phase --


def begin_play(state: State) -> None:
    """XO-5.1: a new round starts with the first player still in."""
    state.phase = "play"
    state.round += 1
    state.passes = 0
    state.stops = set()
    start_turn(state, state.seats[0])


def start_turn(state: State, player: str) -> None:
    """`player`'s turn begins, with no plays made yet."""
    state.actor, state.waiting = player, "turn"
    state.plays, state.turn_over = 0, False


def played(state: State) -> None:
    """A play is made: passes no longer run in succession; the turn ends after play-value plays."""
    state.plays += 1
    state.passes = 0
    state.turn_over = state.plays == state.sides[state.actor].play_value
    if state.turn_over and not state.owed:
        turn_progress(state)


def turn_progress(state: State) -> None:
    """XO-5.6, XO-5.8: once a turn is over, the next begins, unless the play phase ends."""
    if not state.turn_over:
        return
    following = state.next_after(state.actor)
    if state.passes >= len(state.alive) or following in state.stops:
        begin_combat(state)
    else:
        start_turn(state, following)

# -- combat --


def begin_combat(state: State) -> None:
    """XO-6.1 to XO-6.3: order by initiative, pair off, and let the odd player out win."""
    state.phase = "combat"
    state.won = set()
    sides = state.sides
    ranked = sorted(state.seats, key=lambda p: -sides[p].initiative)  # stable: ties keep seat order
    # 1st against 2nd, 3rd against 4th, ...: every other neighbouring pair (zip with `strict=`, a keyword call, costs more)
    state.skirmishes = list(pairwise(ranked))[::2]
    if len(ranked) % 2:
        odd = ranked[-1]
        if state.sides[odd].minions:  # XO-6.4: no minions, no win
            win(state, odd)
    state.skirmish = -1
    next_skirmish(state)


def next_skirmish(state: State) -> None:
    """Fight the next skirmish; one side without minions (or out of the game) decides it at once."""
    state.attack = None
    while True:
        state.skirmish += 1
        if state.skirmish == len(state.skirmishes):
            end_combat(state)
            return
        attacker, defender = state.skirmishes[state.skirmish]
        attacks = attacker in state.alive and bool(state.sides[attacker].minions)
        defends = defender in state.alive and bool(state.sides[defender].minions)
        if attacks and defends:
            state.actor, state.defender, state.waiting = attacker, defender, "attack"
            return
        if attacks or defends:  # XO-6.4, XO-9.6
            win(state, attacker if attacks else defender)


def window(state: State) -> None:
    """Resolve the attack once nobody is left to ask."""
    if not state.asked():
        resolve_attack(state)


def resolve_attack(state: State) -> None:
    """XO-7.3 to XO-7.10: the hits land, the attacker dies, and the skirmish may end."""
    attack = state.attack
    assert attack is not None
    attacker, defender = state.actor, state.defender
    mine, theirs = state.sides[attacker], state.sides[defender]
    hit = FULL_HIT if attack.draw else mine.hit(attack.minion)
    for target in attack.targets:
        if target not in theirs.minions:  # already died together with another (XO-7.9)
            continue
        minion = theirs.minions[target]
        toughness = theirs.toughness(target)
        if target in attack.stopped:
            if toughness > FULL_HIT and not attack.draw:  # the hit counts but cannot kill (XO-7.7)
                minion.damage = min(minion.damage + hit, toughness - 1)
            continue
        minion.damage += hit
        if minion.damage >= (FULL_HIT if attack.draw else toughness):
            theirs.kill(target)
            if theirs.cards[target].dies_together:
                for other in [m for m in theirs.minions if theirs.cards[m].dies_together]:
                    theirs.kill(other)
    mine.kill(attack.minion)
    state.attack = None
    if mine.minions and theirs.minions:
        state.waiting = "attack"
        return
    win(state, defender if theirs.minions else attacker)  # a tie goes to the attacker
    next_skirmish(state)


def win(state: State, player: str) -> None:
    """`player` wins a skirmish (XO-9.5)."""
    state.won.add(player)
    state.sides[player].wins += 1


def end_combat(state: State) -> None:
    """XO-9.1 to XO-9.3: decide who is out or whether the game is won; else resolution."""
    if len(state.players) == 2:
        # a loop, not any(): a generator costs more than the two players it looks at
        for player in state.alive:
            if state.sides[player].wins >= WINS_NEEDED:
                finish(state, "skirmishes")
                return
    else:
        out = [p for p in state.alive if p not in state.won]
        if out:
            eliminate(state, out)
        if len(state.alive) <= 1:
            finish(state, "elimination")
            return
    begin_resolution(state)

# -- resolution --


def begin_resolution(state: State) -> None:
    """XO-8.1: everything in play but the leaders is discarded; players resolve in seat order."""
    state.phase = "resolution"
    for player in state.alive:
        state.sides[player].discard_minions()
    state.queue = state.seat_order()
    next_resolver(state)


def next_resolver(state: State) -> None:
    """XO-8.2 to XO-8.4: the next player resolves; after the last, a new round begins."""
    if not state.queue:
        begin_play(state)
        return
    state.actor = state.queue.pop(0)
    side = state.sides[state.actor]
    if side.holds(side.hand, "leader") or len(side.hand) + unseen.unknown(state, state.actor) > HAND_SIZE:
        state.waiting = "resolve"
    else:
        refill(state)


def refill(state: State) -> None:
    """XO-8.2: draw up to five (XO-3.3: as far as the deck allows)."""
    actor = state.actor
    owe(state, HAND_SIZE - len(state.sides[actor].hand) - unseen.unknown(state, actor), "refill")

# -- leaving the game --


def eliminate(state: State, out: list[str]) -> None:
    """XO-9.3: the players `out` leave together and share the best place left to them."""
    place = len(state.alive) - len(out) + 1
    for player in out:
        state.placements[player] = place
    state.leave(out)


def drop(state: State, player: str, reason: str) -> None:
    """XO-9.6: `player` is out now; the game goes on from where it stood without them."""
    eliminate(state, [player])
    if len(state.alive) == 1:
        finish(state, reason)
        return
    if player in state.queue:
        state.queue.remove(player)
    state.stops.discard(player)
    in_skirmish = state.phase == "combat" and player in state.skirmishes[state.skirmish]
    if player != state.actor and not in_skirmish:
        return
    state.owed = 0
    if state.phase == "opening":
        next_opener(state)
    elif state.phase == "play":
        state.turn_over = True
        turn_progress(state)
    elif state.phase == "combat":
        attacker, defender = state.skirmishes[state.skirmish]
        win(state, defender if player == attacker else attacker)
        next_skirmish(state)
    else:
        next_resolver(state)


def finish(state: State, reason: str) -> None:
    """XO-9.4: the players still in are placed by skirmishes won, ahead of everyone out."""
    sides, placements = state.sides, state.placements
    most_first = sorted([sides[p].wins for p in state.alive], reverse=True)
    for player in state.alive:
        placements[player] = 1 + most_first.index(sides[player].wins)  # 1 + how many won more
    firsts = [p for p in state.players if placements[p] == 1]
    score = {p: float(s.wins) for p, s in sides.items()}
    state.outcome = Result(dict(placements), firsts if len(firsts) == 1 else [], score, reason)
    state.phase, state.waiting, state.owed, state.attack = "over", "", 0, None
    state.handlers.update(dict.fromkeys(state.handlers, over))


def over(state: State, record: Record) -> None:
    """XO-3.4: whatever the record, the game is over."""
    raise Illegal("XO-3.4", "the game is already over; no record may follow")
