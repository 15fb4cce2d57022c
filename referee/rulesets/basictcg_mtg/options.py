"""The legal records of a basictcg-mtg position, for `legal` and the bot (game.py applies and checks them).

Who may attack, what they may attack, who may block (flying and landwalk,
BT-6.3 and BT-6.4), and the minimal sacrifices that pay for a summon.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from referee.ruleset import CHANCE, Illegal
from referee.rulesets.basictcg_mtg.state import State, attacked, card_level, fresh, is_creature
from schemas import basictcg_mtg as bt
from schemas.log import Record


def legal(state: State) -> Iterator[Record]:
    """The legal game records here, simplest first.

    `effect` records (free card text) are always open to the player to
    act and are not listed. Summons are listed with their minimal
    sacrifices only (no card could be left out); larger ones are legal too.
    """
    phase = state.phase
    if phase == "draw":
        player = state.draws[0]
        for card in sorted(state.sides[player].deck):
            yield bt.Draw(by=CHANCE, player=player, card=card)
    elif phase == "block":
        yield bt.Block(by=state.defender, blocker=None)
        for blocker in blockers(state):
            yield bt.Block(by=state.defender, blocker=blocker)
    elif phase == "regen":
        creature = state.doomed[0]
        owner = state.owner[creature]
        yield bt.Regenerate(by=owner, creature=creature, discard=None)
        for card in sorted(state.sides[owner].hand):
            yield bt.Regenerate(by=owner, creature=creature, discard=card)
    elif phase == "main":
        active = state.active
        me = state.sides[active]
        yield bt.EndTurn(by=active)
        for attacker in attackers(state):
            for target in targets(state, attacker):
                yield bt.Attack(by=active, attacker=attacker, target=target)
        hand = sorted(me.hand)
        if not state.free_used:
            for card in hand:
                yield bt.Material(by=active, card=card)
        for card in hand:
            for sacrifice in payments(state, card):
                yield bt.Summon(by=active, card=card, sacrifice=sacrifice)


def check_blockable(state: State, attacker: str, blocker: str) -> None:
    """BT-6.3 and BT-6.4: flying and landwalk limit who may block `attacker`."""
    a, b = state.cards[attacker], state.cards[blocker]
    if "flying" in a.keywords and not {"flying", "reach"} & b.keywords:
        raise Illegal("BT-6.3", f"{a.name} has flying; only a creature with flying or reach can block it")
    if not a.walk:
        return
    field = state.sides[state.defender].field
    terrain = {t for c, on in field.items() if not on.face_down for t in state.cards[c].terrain}
    if a.walk & terrain:
        raise Illegal("BT-6.4", f"{a.name} walks {'/'.join(sorted(a.walk & terrain))}, which {state.defender} controls: it cannot be blocked")


def attackers(state: State) -> list[str]:
    """The active player's creatures that may attack now."""
    field = state.sides[state.active].field
    return [
        c for c in sorted(field)
        if is_creature(state, c, field[c]) and not fresh(state, field[c]) and not attacked(state, field[c])
        and "defender" not in state.cards[c].keywords
    ]  # fmt: skip


def targets(state: State, attacker: str) -> list[str]:
    """Other players' creatures that `attacker` may attack."""
    a = state.cards[attacker]
    return [
        c for p in state.in_game() if p != state.active for c, on in sorted(state.sides[p].field.items())
        if is_creature(state, c, on) and not state.cards[c].protected_from(a)
    ]  # fmt: skip


def blockers(state: State) -> list[str]:
    """The defender's creatures that may block the attack now."""
    assert state.attack is not None
    attacker, target = state.attack
    field = state.sides[state.defender].field
    options = []
    for c in sorted(field):
        if c != target and is_creature(state, c, field[c]):
            try:
                check_blockable(state, attacker, c)
            except Illegal:
                continue
            options.append(c)
    return options


def payments(state: State, card: str) -> Iterator[list[str]]:
    """The minimal sacrifices that summon `card` (an empty one when it needs none), smallest first."""
    level = state.cards[card].level
    if level == 0 or (level == 1 and not state.free_used):
        yield []
        return
    # a minimal sacrifice holds no level-0 card, so it has at most `level` cards
    levels = {c: card_level(state, c) for c in sorted(state.sides[state.active].field)}
    field = [c for c in levels if levels[c] > 0]
    for size in range(1, min(level, len(field)) + 1):
        for pay in itertools.combinations(field, size):
            paid = sum(levels[c] for c in pay)
            if paid >= level and paid - min(levels[c] for c in pay) < level:
                yield list(pay)
