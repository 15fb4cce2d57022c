"""The checks that stccg-multiplayer's record handlers share: whose turn and phase it is, who makes
the record, places on the grid, and cards taken from a pile.
"""

from __future__ import annotations

from referee.ruleset import Illegal
from referee.rulesets.stccg_multiplayer.grid import Grid, Loc
from referee.rulesets.stccg_multiplayer.state import Pile, State
from schemas.log import Record


def in_phase(state: State, record: Record, phase: str, doing: str, rule: str = "SG-5.4") -> None:
    """Raise unless it is `phase` (the main step: "main") and `record` is the active player's."""
    if state.phase != phase:
        raise Illegal("SG-5.8", f"cannot {doing} now: it is the {state.phase} phase")
    if record.by != state.active:
        by(record, state.active, doing, rule)


def any_time(state: State, record: Record, doing: str) -> None:
    """Raise unless a turn is under way and the record is a player's (SG-5.4)."""
    if state.phase not in ("main", "end"):
        raise Illegal("SG-5.8", f"cannot {doing} now: it is the {state.phase} phase")
    if record.by not in state.seats:
        raise Illegal("SG-5.4", f"only a player may {doing}")


def by(record: Record, expected: str, doing: str, rule: str = "SG-5.4") -> None:
    """Raise unless `record` is made by `expected`."""
    if record.by != expected:
        raise Illegal(rule, f"{record.by} may not {doing} now: it is {expected}'s to do")


def on_grid(grid: Grid, slot: str, rule: str) -> None:
    """Raise unless `slot` is a place on this grid."""
    if slot not in grid.slots:
        raise Illegal(rule, f"there is no place {slot} on this grid of {grid.n} spokes")


def location(grid: Grid, slot: str, rule: str) -> Loc:
    """The location at `slot`; raise if there is none."""
    on_grid(grid, slot, rule)
    loc = grid.slots[slot]
    if loc is None:
        raise Illegal(rule, f"there is no location at {slot}")
    return loc


def take(pile: Pile, cards: list[str], where: str, rule: str) -> None:
    """Remove `cards` from `pile`, or raise if any is not there (counting copies)."""
    if len(cards) == 1:
        take_one(pile, cards[0], where, rule)
        return
    need: dict[str, int] = {}
    for card in cards:
        need[card] = need.get(card, 0) + 1
    for card, count in need.items():
        if pile.get(card, 0) < count:
            raise Illegal(rule, f"{card!r} is not in the {where} ({pile.get(card, 0)} left, {count} named)")
    for card, count in need.items():  # every count is there (above): what is left is 0 or more
        left = pile[card] - count
        if left:
            pile[card] = left
        else:
            pile.pop(card)


def take_one(pile: Pile, card: str, where: str, rule: str) -> None:
    """`take` of one card (most records name one): the same check without counting."""
    left = pile.get(card, 0)
    if left < 1:
        raise Illegal(rule, f"{card!r} is not in the {where} ({left} left, 1 named)")
    if left == 1:
        pile.pop(card)
    else:
        pile[card] = left - 1
