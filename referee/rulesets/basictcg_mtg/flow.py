"""What follows by itself in basictcg-mtg: fights, cards leaving play, turn ends, players leaving, the end.

None of these are records: `apply` in game.py performs them when the record
before them makes them due. A card that may regenerate waits in
`state.doomed` for its controller's `regenerate` record.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee import unseen
from referee.ruleset import Illegal
from referee.rulesets.basictcg_mtg.state import (
    State,
    is_creature,
    level,
    on_table,
    overdamaged,
    power,
    seats_after,
    stamina,
    to_discard,
    total,
)
from schemas.log import Record
from schemas.verdict import Result


def fight(state: State, attacker: str, defender: str) -> None:
    """BT-7: compare power with stamina both ways, with first strike, poison and deathtouch."""
    a_on = state.sides[state.owner[attacker]].field.get(attacker)
    d_on = state.sides[state.owner[defender]].field.get(defender)
    if a_on is None or d_on is None:
        state.phase = "main"  # BT-7.1: one of them has left play; no fight
        return
    a, d = state.cards[attacker], state.cards[defender]
    shielded = d.protected_from(a)  # BT-7.8: nothing of the attacker's reaches the defender
    a_wins = power(a, a_on) >= stamina(d, d_on) and not shielded
    d_wins = power(d, d_on) >= stamina(a, a_on) and not a.protected_from(d)
    if "first_strike" in a.keywords and "first_strike" not in d.keywords and a_wins:
        d_wins = False  # BT-7.5: only the attacker's first strike spares it the check back
    doomed = []
    if a_wins:
        doomed.append(defender)
    if d_wins:
        doomed.append(attacker)
    if not shielded:  # poison and deathtouch happen even when the attacker is removed
        if "poison" in a.keywords:
            d_on.damage += power(a, a_on)
            state.marked[defender] = d_on
            doomed += overdamaged(state, [defender])
        if "deathtouch" in a.keywords:
            to_discard(state, defender)  # a sacrifice: no regeneration (BT-7.7)
            doomed = [c for c in doomed if c != defender]
    settle(state, doomed, resume="main")


def settle(state: State, leaving: Iterable[str], resume: str) -> None:
    """Send `leaving` to the discard pile, asking first about each that may regenerate (BT-9)."""
    for card in sorted(set(leaving)):
        if "regeneration" in state.cards[card].keywords and is_creature(state, card, on_table(state, card)):
            state.doomed.append(card)
        else:
            to_discard(state, card)
    state.resume = resume
    next_doomed(state)


def next_doomed(state: State) -> None:
    """Ask about the next regenerating creature whose controller has a card in hand; else resume."""
    while state.doomed:
        card = state.doomed[0]
        owner = state.owner[card]
        if state.sides[owner].hand or unseen.unknown(state, owner):  # an unknown card may be discarded (BT-9.1)
            state.phase = "regen"
            return
        to_discard(state, card)
        state.doomed.pop(0)
    if state.resume == "end":
        finish_turn(state)
    elif state.resume == "block" and state.attack is None:
        state.phase = "main"  # the defender left while the attack waited (BT-12.1)
    else:
        state.phase = state.resume


def end_turn(state: State) -> None:
    """BT-11.2: this turn's bonuses end, damage is checked again (BT-8.3, now without them), then the turn finishes."""
    if state.marked:  # only these can carry a bonus or damage; most turns none does
        cards, owner, sides = state.cards, state.owner, state.sides
        doomed = []
        for card, on in state.marked.items():
            on.boost = 0
            damaged = on.damage and on.damage >= level(cards[card], on)
            if damaged and sides[owner[card]].field.get(card) is on:  # and still in play
                doomed.append(card)
        if doomed:
            settle(state, doomed, resume="end")
            return
    # settle() with no card leaving: in the main phase no regeneration waits (state.doomed is empty)
    finish_turn(state)


def finish_turn(state: State) -> None:
    """BT-11.3/BT-11.4: the Act Threshold is checked, else the next turn begins (and clears damage)."""
    if state.reached:  # only then can a total be at the threshold (state.py)
        threshold, sides, left = state.threshold, state.sides, state.left
        for player in state.players:
            if sides[player].levels >= threshold and player not in left:
                finish(state, "threshold")
                return
        state.reached = False  # every total is below it
    next_turn(state)


def next_turn(state: State) -> None:
    """BT-11.4: the next player clockwise still in the game draws and plays."""
    if state.marked:  # the others carry neither (fresh and attacked go by the turn)
        for on in state.marked.values():
            on.boost = on.damage = 0
        state.marked.clear()
    active = state.active = state.next_seat[state.active]
    state.turn += 1
    state.free_used = False
    state.attack = None
    draws = state.draws
    draws.append(active)  # after any opening draws still owed (a leaver in turn 1)
    if len(draws) == 1 and state.sides[active].deck:
        state.phase = "draw"  # the usual case, where next_draw would skip nothing
    else:
        next_draw(state)


def next_draw(state: State) -> None:
    """BT-3.3: skip draws owed by players whose deck is empty; the main phase follows the last."""
    draws, sides = state.draws, state.sides
    while draws and not sides[draws[0]].deck:
        draws.pop(0)
    state.phase = "draw" if draws else "main"


def leave(state: State, player: str, reason: str) -> None:
    """BT-12.1: the player and their cards leave; the rest play on, or the last one wins."""
    state.left.append(player)
    state.next_seat = seats_after(state.players, state.left)
    state.sides[player].field.clear()
    state.sides[player].levels = 0
    state.draws = [p for p in state.draws if p != player]
    state.doomed = [c for c in state.doomed if state.owner[c] != player]
    if state.attack and state.defender == player:
        state.attack = None
    if len(state.in_game()) == 1:
        finish(state, reason)
    elif player == state.active:
        state.doomed = []  # whatever waited in the leaver's turn is dropped
        next_turn(state)
    elif state.phase == "draw":
        next_draw(state)
    elif state.phase == "regen":
        next_doomed(state)
    elif state.phase == "block" and state.attack is None:
        state.phase = "main"


def finish(state: State, reason: str) -> None:
    """BT-12.2/12.3: place the players, name the winners, score each one's total level."""
    remaining = state.in_game()
    totals = {p: total(state, p) if p in remaining else 0 for p in state.players}
    if reason == "time":
        placements = dict.fromkeys(remaining, 1)
    else:  # 1 + how many have more: where a player's total first comes among them, highest first
        ranked = sorted(map(totals.__getitem__, remaining), reverse=True)
        placements = {p: 1 + ranked.index(totals[p]) for p in remaining}
    for later, player in enumerate(reversed(state.left)):
        placements[player] = len(remaining) + 1 + later
    winners = [] if reason == "time" else [p for p in remaining if placements[p] == 1]
    state.outcome = Result(placements, winners, {p: float(t) for p, t in totals.items()}, reason)
    state.phase = "over"
    state.handlers.update(dict.fromkeys(state.handlers, over))


def over(state: State, record: Record) -> None:
    """BT-12.4: whatever the record, the game is over."""
    raise Illegal("BT-12.4", "the game is already over; no record may follow")
