"""Event cards, jokers and the base tap (MG-7): when each may be played and on what.

`check_play` and `check_tap_base` check a record without touching the state
and return the function that performs it. `apply` calls that function; `legal`
uses the check alone to keep only the candidates that pass.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.ruleset import Illegal
from referee.rulesets.maginot.state import State, sort_cards, suit
from schemas import maginot as mg

Effect = Callable[[], None]

ANY = frozenset({"construction", "consolidation", "combat"})
WINDOWS: dict[str, frozenset[str]] = {
    "JD": frozenset({"construction"}),
    "JC": frozenset({"combat"}),
    "JS": frozenset({"combat"}),
    "JH": ANY,
    "QS": ANY,
    "QH": ANY,
    "QC": ANY,
    "QD": ANY,
    "KD": frozenset({"construction", "kd"}),
    "KS": frozenset({"combat"}),
    "KC": frozenset({"combat"}),
    "KH": ANY,
    "JK1": frozenset({"construction", "consolidation"}),
    "JK2": frozenset({"construction", "consolidation"}),
}
WINDOW_NAMES = {
    "construction": "your construction phase",
    "consolidation": "your consolidation phase",
    "combat": "your combat step",
    "kd": "the king of diamonds window",
}


KING_RULES = {"KD": "MG-7.4", "KS": "MG-7.5", "KC": "MG-7.6", "KH": "MG-7.7", "JK1": "MG-7.8", "JK2": "MG-7.8"}


def card_rule(card: str) -> str:
    """The rule that governs an event card: MG-7.2 for jacks, MG-7.3 for queens, its own for the rest."""
    return KING_RULES.get(card) or ("MG-7.2" if card[0] == "J" else "MG-7.3")


def window_of(state: State, player: str) -> str | None:
    """Which of `player`'s windows is open now (MG-7.1), or None."""
    phase = state.phase
    if phase in ("construction", "consolidation"):
        return phase if player == state.active else None
    if phase in ("combat", "kd") and state.battle is not None and state.battle.order[0] == player:
        return phase
    return None


def targets(state: State, player: str, card: str) -> list[tuple[str | None, str | None]]:
    """The (target, owner) pairs worth trying for `card` now: a superset of the legal ones, for `legal`."""
    side, battle = state.sides[player], state.battle
    if card == "KC":
        enemy = battle.other(player) if battle is not None else player
        return [(t, enemy) for t in battle.fighters(enemy)] if battle is not None else []
    if card == "KD":
        return [(None, None), *((t, None) for t in side.building)]
    names: list[str]
    if card in ("JC", "JS", "KS"):
        names = [] if battle is None else [*battle.fighters(player), *([battle.ace] if battle.ace else [])]
    elif card in ("JH", "KH"):
        names = [*side.units, *side.base]
    elif card == "JD":
        names = sort_cards(state.tapped_now)
    elif card == "QD":
        names = list(side.resources)
    elif card in ("JK1", "JK2"):
        names = side.ruins
    else:  # QS, QH, QC attach to units
        names = list(side.units)
    return [(t, None) for t in names]


def check_play(state: State, record: mg.Play) -> Effect:
    """Check a `play` record (MG-7.1 to MG-7.8); return what performs it."""
    player, card = record.by, record.card
    window = window_of(state, player)
    if window is None:
        raise Illegal("MG-2.2", f"{player} cannot play a card now: it is {state.active}'s {state.phase} phase")
    if card not in WINDOWS:
        raise Illegal("MG-7.1", f"{card} is not an event card or a joker, so it cannot be played")
    side = state.sides[player]
    if card not in side.hand:
        raise Illegal("MG-2.4", f"{card} is not in {player}'s hand")
    if window not in WINDOWS[card]:
        raise Illegal("MG-7.1", f"{card} cannot be played in {WINDOW_NAMES[window]}")
    rule = card_rule(card)
    owner = record.owner or player
    if owner != player and card != "KC":
        raise Illegal(rule, f"{card} only targets your own cards; owner must be {player}")
    target = record.target
    if card == "KD" and window == "kd":
        if target is not None:
            raise Illegal(rule, "a king of diamonds played for initiative takes no target")
        effect = _take_initiative(state, player)
    else:
        if target is None:
            raise Illegal(rule, f"{card} needs a target")
        effect = _EFFECTS[card[0] if card[0] == "Q" else card](state, player, card, owner, target)

    def perform() -> None:
        side.hand.discard(card)
        if card[0] != "Q":  # a queen stays attached to its target instead (MG-7.3)
            side.discard.add(card)
        effect()

    return perform


def check_tap_base(state: State, record: mg.TapBase) -> Effect:
    """Check a `tap_base` record (MG-7.9); return what performs it."""
    player, target = record.by, record.target
    window = window_of(state, player)
    if window is None or window == "kd":
        raise Illegal("MG-2.2", f"{player} cannot tap their base now: it is {state.active}'s {state.phase} phase")
    side = state.sides[player]
    if side.base_tapped:
        raise Illegal("MG-7.9", f"{player}'s base is already tapped")
    if not side.base:
        raise Illegal("MG-7.9", f"{player} has no standing ace to tap")
    top = suit(side.base[0])
    if top == "D":
        if window != "construction":
            raise Illegal("MG-7.9", "a base topped by diamonds gives tokens only in your construction phase")
        if target is not None:
            raise Illegal("MG-7.9", "a base topped by diamonds takes no target")
        effect: Effect = _add_tokens(state, 2)
    elif target is None:
        raise Illegal("MG-7.9", f"a base topped by {side.base[0]} needs a target unit")
    elif top == "H":
        effect = _heal(state, player, target, "MG-7.9", 2, ace_ok=False)
    else:
        if window != "combat":
            raise Illegal("MG-7.9", f"a base topped by {side.base[0]} helps only a unit in your combat step")
        effect = _bonus(state, player, target, "MG-7.9", "armor" if top == "S" else "attack", 2, ace_ok=False)

    def perform() -> None:
        side.base_tapped = True
        effect()

    return perform


# -- the effects: each checks its target, then returns what performs it -------------


def _jack_of_diamonds(state: State, player: str, card: str, owner: str, target: str) -> Effect:
    """JD: +3 production to a resource tapped this turn, i.e. +3 tokens (MG-7.2)."""
    if target not in state.sides[player].resources:
        raise Illegal("MG-7.2", f"{target} is not in {player}'s resource area")
    if target not in state.tapped_now:
        raise Illegal("MG-7.2", f"{target} has not been tapped this turn, so it produces nothing to add to")
    return _add_tokens(state, 3)


def _jack_of_clubs(state: State, player: str, card: str, owner: str, target: str) -> Effect:
    """JC: +3 attack for the turn to a unit of yours in this battle (MG-7.2)."""
    return _bonus(state, player, target, "MG-7.2", "attack", 3, ace_ok=False)


def _jack_of_spades(state: State, player: str, card: str, owner: str, target: str) -> Effect:
    """JS: +3 armor for the turn to a unit of yours in this battle, or to the ace you defend (MG-7.2)."""
    return _bonus(state, player, target, "MG-7.2", "armor", 3, ace_ok=True)


def _jack_of_hearts(state: State, player: str, card: str, owner: str, target: str) -> Effect:
    """JH: up to 3 wounds healed on your unit or standing ace (MG-7.2)."""
    return _heal(state, player, target, "MG-7.2", 3, ace_ok=True)


def _king_of_hearts(state: State, player: str, card: str, owner: str, target: str) -> Effect:
    """KH: every wound healed on your unit or standing ace (MG-7.7)."""
    return _heal(state, player, target, "MG-7.7", None, ace_ok=True)


def _queen(state: State, player: str, card: str, owner: str, target: str) -> Effect:
    """Queens attach for good: QD to a resource, the others to a unit; one queen each (MG-7.3)."""
    side = state.sides[player]
    if card == "QD":
        if target not in side.resources:
            raise Illegal("MG-7.3", f"QD attaches to a resource, and {target} is not in {player}'s resource area")
        if target in side.queens:
            raise Illegal("MG-7.3", f"{target} already has a queen attached")
        return lambda: side.queens.__setitem__(target, card)
    unit = side.units.get(target)
    if unit is None:
        raise Illegal("MG-7.3", f"{card} attaches to a unit, and {player} has no unit {target}")
    if unit.queen is not None:
        raise Illegal("MG-7.3", f"{target} already has a queen ({unit.queen}): one queen per unit")
    return lambda: setattr(unit, "queen", card)


def _king_of_diamonds(state: State, player: str, card: str, owner: str, target: str) -> Effect:
    """KD in construction: a component under construction is complete at once (MG-7.4)."""
    side = state.sides[player]
    if target not in side.building:
        raise Illegal("MG-7.4", f"{target} is not under construction in {player}'s construction area")

    def complete() -> None:
        del side.building[target]
        side.built.add(target)

    return complete


def _take_initiative(state: State, player: str) -> Effect:
    """KD in the KD window: `player` takes the initiative, so reveals last (MG-6.5)."""
    battle = state.battle
    assert battle is not None

    def take() -> None:
        battle.order = [battle.other(player), player]
        state.phase = "combat"

    return take


def _king_of_spades(state: State, player: str, card: str, owner: str, target: str) -> Effect:
    """KS: a unit of yours in this battle, or the ace you defend, takes no damage this battle (MG-7.5)."""
    _fighter_or_ace(state, player, target, "MG-7.5")
    battle = state.battle
    assert battle is not None
    return lambda: battle.shielded.add((player, target))


def _king_of_clubs(state: State, player: str, card: str, owner: str, target: str) -> Effect:
    """KC: an opposing unit's armor counts as 0 this battle (MG-7.6)."""
    battle = state.battle
    assert battle is not None
    enemy = battle.other(player)
    if owner != enemy:
        raise Illegal("MG-7.6", f"KC targets a unit of your opponent in this battle, {enemy}: set owner to {enemy}")
    if target not in battle.fighters(enemy):
        raise Illegal("MG-7.6", f"{enemy}'s {target} is not a unit fighting in this battle")
    return lambda: battle.exposed.add((enemy, target))


def _joker(state: State, player: str, card: str, owner: str, target: str) -> Effect:
    """Jokers restore a destroyed ace to the bottom of the base, undamaged (MG-7.8)."""
    side = state.sides[player]
    if target not in side.ruins:
        raise Illegal("MG-7.8", f"{target} is not one of {player}'s destroyed aces")

    def revive() -> None:
        side.ruins.remove(target)
        side.base.append(target)
        side.damage[target] = 0

    return revive


_EFFECTS: dict[str, Callable[[State, str, str, str, str], Effect]] = {
    "JD": _jack_of_diamonds,
    "JC": _jack_of_clubs,
    "JS": _jack_of_spades,
    "JH": _jack_of_hearts,
    "Q": _queen,
    "KD": _king_of_diamonds,
    "KS": _king_of_spades,
    "KC": _king_of_clubs,
    "KH": _king_of_hearts,
    "JK1": _joker,
    "JK2": _joker,
}


# -- shared checks -------------------------------------------------------------


def _add_tokens(state: State, count: int) -> Effect:
    """Tokens into the construction pool."""

    def add() -> None:
        state.pool += count

    return add


def _fighter_or_ace(state: State, player: str, target: str, rule: str) -> None:
    """Raise unless `target` is `player`'s unit in this battle, or the ace they defend in it."""
    battle = state.battle
    assert battle is not None
    if target in battle.fighters(player):
        return
    if player == battle.defender and target == battle.ace:
        return
    raise Illegal(rule, f"{target} is not {player}'s unit in this battle, nor the ace they defend in it")


def _bonus(state: State, player: str, target: str, rule: str, stat: str, amount: int, *, ace_ok: bool) -> Effect:
    """+`amount` `stat` for the rest of the turn to a fighter of `player` (or the defended ace)."""
    battle = state.battle
    assert battle is not None
    if ace_ok:
        _fighter_or_ace(state, player, target, rule)
    elif target not in battle.fighters(player):
        raise Illegal(rule, f"{target} is not {player}'s unit in this battle")

    def add() -> None:
        bonus = state.bonus.setdefault((player, target), {})
        bonus[stat] = bonus.get(stat, 0) + amount

    return add


def _heal(state: State, player: str, target: str, rule: str, amount: int | None, *, ace_ok: bool) -> Effect:
    """Remove up to `amount` wounds (all when None) from `player`'s wounded unit or damaged standing ace."""
    side = state.sides[player]
    unit = side.units.get(target)
    if unit is not None:
        if unit.wounds == 0:
            raise Illegal(rule, f"{player}'s {target} has no wounds to heal")
        return lambda: setattr(unit, "wounds", max(0, unit.wounds - amount) if amount else 0)
    if ace_ok and target in side.base:
        if side.damage[target] == 0:
            raise Illegal(rule, f"{player}'s {target} has no damage to repair")
        return lambda: side.damage.__setitem__(target, max(0, side.damage[target] - amount) if amount else 0)
    where = "units or standing aces" if ace_ok else "units"
    raise Illegal(rule, f"{target} is not one of {player}'s {where}")
