"""What follows by itself in maginot: draws coming due, combat order, a battle's outcome, turns, leaving, the end.

None of these are records: the handlers in game.py call them right after the
record that makes them due, and they call each other until the game waits for
a record again.
"""

from __future__ import annotations

from referee.ruleset import Illegal
from referee.rulesets.maginot.state import ACE_LIFE, State
from schemas.log import Record
from schemas.verdict import Result

OPENING_HAND = 5
DRAWS_PER_TURN = 2


def continue_draws(state: State) -> None:
    """MG-3.3: the next draw is due unless nothing is left to draw; then the game goes on."""
    while state.draws:
        side = state.sides[state.draws[0]]
        if not side.deck and side.discard:
            side.deck, side.discard = side.discard, set()
        if side.deck:
            state.phase = "draw"
            return
        state.draws.pop(0)
    if state.turn == 0:
        first = state.first if not state.sides[state.first].out else next_player(state, state.first)
        begin_turn(state, first)
    else:
        state.phase = "construction"


def initiative(state: State) -> None:
    """MG-6.4, MG-6.5: the higher initiative reveals last (ties to the attacker); the KD window if due."""
    battle = state.battle
    assert battle is not None
    attacker, defender = battle.attacker, battle.defender
    if state.sides[defender].initiative > state.sides[attacker].initiative:
        battle.order = [attacker, defender]
    else:
        battle.order = [defender, attacker]
    state.phase = "kd" if "KD" in state.sides[battle.order[0]].hand else "combat"


def outcome(state: State) -> None:
    """MG-6.7, MG-6.8: every strike at once; wounds stay; destroyed units and aces leave."""
    battle = state.battle
    assert battle is not None
    attacker, defender = battle.attacker, battle.defender
    engaged_by = {a: g for g, a in battle.pairs.items()}
    wounds: list[tuple[str, str, int]] = []  # owner, unit, wounds; computed before anything leaves
    to_base = 0
    for name in battle.units:
        guard = engaged_by.get(name)
        if guard is None:
            to_base += state.attack(attacker, name)
            continue
        wounds.append((defender, guard, state.attack(attacker, name) - state.armor(defender, guard)))
        wounds.append((attacker, name, state.attack(defender, guard) - state.armor(attacker, name)))
    for owner, name, amount in wounds:
        if amount > 0 and (owner, name) not in battle.shielded:
            wound(state, owner, name, amount)
    ace = battle.ace
    if ace in state.sides[defender].base and (defender, ace) not in battle.shielded:
        hit_ace(state, defender, ace, to_base - state.armor(defender, ace))
    state.battle = None
    state.phase = "battle"


def wound(state: State, owner: str, name: str, amount: int) -> None:
    """MG-6.7: wounds stay; at its life the unit is destroyed and its cards are discarded."""
    side = state.sides[owner]
    unit = side.units[name]
    unit.wounds += amount
    if unit.wounds >= state.life(owner, name):
        del side.units[name]
        side.discard.update(unit.cards())


def hit_ace(state: State, owner: str, ace: str, amount: int) -> None:
    """MG-6.8: damage to the attacked ace; at 16 it is destroyed and the rest is lost."""
    if amount <= 0:
        return
    side = state.sides[owner]
    side.damage[ace] += amount
    if side.damage[ace] >= ACE_LIFE:
        side.base.remove(ace)
        del side.damage[ace]
        side.ruins.append(ace)


def end_turn(state: State) -> None:
    """MG-9.1: a player with no standing ace is out at the end of their own consolidation; then the next turn."""
    player = state.active
    if not state.sides[player].base:
        eliminate(state, player)
        if state.outcome is not None:
            return
    begin_turn(state, next_player(state, player))


def begin_turn(state: State, player: str) -> None:
    """MG-3.1, MG-3.2: the next player untaps everything and draws two."""
    state.turn += 1
    state.active = player
    state.pool = 0
    state.tapped_now = set()
    state.bonus = {}
    state.moved = set()
    state.assembled = False
    side = state.sides[player]
    side.base_tapped = False
    for card in side.resources:
        side.resources[card] = False
    for unit in side.units.values():
        unit.tapped = False
    state.draws = [player] * DRAWS_PER_TURN
    continue_draws(state)


def leave(state: State, player: str) -> None:
    """MG-9.3: `player` is out at once; the game goes on around them."""
    eliminate(state, player)
    if state.outcome is not None:
        return
    state.bases_due = [p for p in state.bases_due if p != player]
    state.draws = [p for p in state.draws if p != player]
    battle = state.battle
    if state.phase == "base":
        if not state.bases_due:
            state.draws = [p for p in state.still_in() for _ in range(OPENING_HAND)]
            continue_draws(state)
    elif player == state.active and state.turn > 0:
        state.battle = None
        begin_turn(state, next_player(state, player))
    elif state.phase == "draw":
        continue_draws(state)
    elif battle is not None and player in (battle.attacker, battle.defender):
        state.battle = None
        state.phase = "battle"


def eliminate(state: State, player: str) -> None:
    """MG-9.1, MG-9.2: `player` is out; with one player left the game is over."""
    side = state.sides[player]
    side.out = True
    side.units.clear()
    state.out_order.append(player)
    if len(state.still_in()) == 1:
        finish(state, "elimination")


def finish(state: State, reason: str) -> None:
    """MG-9.2, MG-9.5, MG-9.6: placements, winners and scores."""
    def standing(p: str) -> tuple[int, int]:
        side = state.sides[p]
        return len(side.base), sum(ACE_LIFE - d for d in side.damage.values())

    still_in = state.still_in()
    places = {p: 1 + sum(standing(q) > standing(p) for q in still_in) for p in still_in}
    for i, p in enumerate(reversed(state.out_order)):
        places[p] = len(still_in) + 1 + i
    score = {p: float(sum(places[q] > places[p] for q in state.players)) for p in state.players}
    winners = [p for p in state.players if places[p] == 1]
    state.outcome = Result({p: places[p] for p in state.players}, winners, score, reason)
    state.phase = "over"
    state.battle = None
    state.handlers.update(dict.fromkeys(state.handlers, over))


def over(state: State, record: Record) -> None:
    """MG-9.7: whatever the record, the game is over."""
    raise Illegal("MG-9.7", "the game is already over; no record may follow")


def next_player(state: State, after: str) -> str:
    """The next player clockwise from `after` who is still in (MG-2.1)."""
    seats = state.players
    i = seats.index(after)
    for player in seats[i + 1 :] + seats[:i]:
        if not state.sides[player].out:
            return player
    return after
