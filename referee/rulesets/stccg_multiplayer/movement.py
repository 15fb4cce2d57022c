"""SG-6: locations and movement: normal movement, cards inserted into the spaceline, Q's swaps, and
ships sent to a far end.
"""

from __future__ import annotations

from referee.ruleset import Illegal
from referee.rulesets.stccg_multiplayer import checks, flow
from referee.rulesets.stccg_multiplayer.cards import (
    INSERTED,
    NAMED,
    OPPOSITE_MOVERS,
    Q,
)
from referee.rulesets.stccg_multiplayer.grid import Loc
from referee.rulesets.stccg_multiplayer.state import Ship, State, Tour
from schemas import stccg_multiplayer as sg


def move(state: State, record: sg.Move) -> None:
    """SG-6.1/6.2: normal movement steps between adjacent locations of one quadrant."""
    checks.in_phase(state, record, "main", "move a ship")
    ship = state.ships.get(record.ship)
    if ship is None or ship.owner != record.by:
        raise Illegal("SG-6.1", f"{record.by} has no ship named {record.ship!r} in play")
    if not record.path:
        raise Illegal("SG-6.1", "a move names at least one location to go to")
    grid = state.grid
    start = grid.slots[ship.slot]
    assert start is not None
    here = ship.slot
    for slot in record.path:
        loc = checks.location(grid, slot, "SG-6.1")
        if record.card is not None:
            continue
        if slot not in grid.neighbours(here):
            raise Illegal("SG-6.1", f"{slot} is not next to {here}: normal movement goes one adjacent location at a time")
        if loc.quadrant != start.quadrant:
            raise Illegal("SG-6.2", f"{slot} is in the {loc.quadrant} Quadrant: normal movement stays in the {start.quadrant} Quadrant")
        here = slot
    if record.card is not None:
        state.unchecked += 1
    ship.slot = record.path[-1]


def insert(state: State, record: sg.Insert) -> None:
    """SG-6.4: a card goes between two adjacent locations of one quadrant, shifting nothing."""
    if state.phase == "dilemmas":
        checks.in_phase(state, record, "dilemmas", "insert a card", "SG-4.1")
        pile, where = state.seats[record.by].seeds, "seed deck"
    else:
        checks.any_time(state, record, "insert a card")
        pile, where = state.seats[record.by].hand, "hand"
    if record.card in NAMED and record.card not in INSERTED:
        raise Illegal("SG-6.4", f"{record.card} is not a card that is inserted into the spaceline")
    grid = state.grid
    first = checks.location(grid, record.after, "SG-6.4")
    second = checks.location(grid, record.before, "SG-6.4")
    if record.before not in grid.neighbours(record.after):
        raise Illegal("SG-6.4", f"{record.after} and {record.before} are not next to each other")
    if first.quadrant != second.quadrant:
        raise Illegal("SG-6.4", "a card is inserted between two locations of the same quadrant")
    checks.take_one(pile, record.card, where, "SG-4.3" if where == "seed deck" else "SG-5.5")
    slot = grid.insert(record.after, record.before)
    kind = "planet" if record.planet else "space"
    grid.slots[slot] = Loc(record.card, first.quadrant, record.span, kind, None, record.by, mission=False)
    if record.card not in INSERTED:
        state.unchecked += 1  # SG-9: that an unnamed card is inserted is taken on trust
    if state.phase == "dilemmas":
        flow.next_seeder(state, passed=False)


def q_swap(state: State, record: sg.QSwap) -> None:
    """SG-6.5: Q swaps locations pairwise, each pair within one quadrant."""
    checks.any_time(state, record, "swap locations")
    seat = state.seats[record.by]
    if not seat.qs and not seat.hand.get(Q):
        raise Illegal("SG-6.5", f"{record.by} holds no Q: a swap needs a Q they encountered or one in their hand")
    grid = state.grid
    if not record.pairs:
        raise Illegal("SG-6.5", "Q swaps at least one pair of locations")
    seen: set[str] = set()
    for a, b in record.pairs:
        first = checks.location(grid, a, "SG-6.5")
        second = checks.location(grid, b, "SG-6.5")
        if a == b or a in seen or b in seen:
            raise Illegal("SG-6.5", "each location is swapped at most once, with another location")
        seen |= {a, b}
        if first.quadrant != second.quadrant:
            raise Illegal("SG-6.5", f"{a} ({first.quadrant}) and {b} ({second.quadrant}) are in different quadrants")
    if seat.qs:
        seat.qs -= 1
    else:
        checks.take_one(seat.hand, Q, "hand", "SG-6.5")
    for a, b in record.pairs:
        grid.slots[a], grid.slots[b] = grid.slots[b], grid.slots[a]
        swap = {a: b, b: a}
        movers: list[Ship | Tour] = [*state.ships.values(), *state.borgs.values()]
        for mover in movers:
            mover.slot = swap.get(mover.slot, mover.slot)


def relocate(state: State, record: sg.Relocate) -> None:
    """SG-6.6 and SG-7.10: ships go to a far end of their location."""
    checks.any_time(state, record, "relocate ships")
    seat = state.seats[record.by]
    if record.card in NAMED and record.card not in OPPOSITE_MOVERS:
        raise Illegal("SG-6.6", f"{record.card} does not send ships to the far end of the spaceline")
    if record.card not in seat.hand and record.card not in seat.played:
        raise Illegal("SG-6.6", f"{record.card} is neither in {record.by}'s hand nor among the cards they put into play")
    if not record.ships:
        raise Illegal("SG-6.6", "name the ships to relocate")
    missing = [s for s in record.ships if s not in state.ships]
    if missing:
        raise Illegal("SG-6.6", f"no ship named {missing[0]!r} is in play")
    starts = {state.ships[s].slot for s in record.ships}
    if len(starts) != 1:
        raise Illegal("SG-6.6", "the relocated ships must all be at one location")
    if record.card in OPPOSITE_MOVERS and record.planet:
        raise Illegal("SG-7.10", f"{record.card} moves ships to the opposite location, with no planet criterion")
    (start,) = starts
    allowed = state.grid.far_ends(start, record.planet)
    if record.to not in allowed:
        if not allowed:
            raise Illegal("SG-6.3", f"there is no far end from {start} that meets the criteria")
        raise Illegal("SG-6.3", f"the far end from {start} is {' or '.join(sorted(allowed))}, not {record.to}")
    from_hand = record.card in seat.hand
    if from_hand:
        checks.take_one(seat.hand, record.card, "hand", "SG-6.6")  # used up, as an interrupt is
    if record.card not in OPPOSITE_MOVERS or not from_hand:
        state.unchecked += 1  # SG-9: an unnamed card's effect, or a card still in play, is taken on trust
    for name in record.ships:
        state.ships[name].slot = record.to
