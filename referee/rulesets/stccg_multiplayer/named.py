"""SG-7: the named cards whose effects the referee tracks: Borg Ships on tour, Rogue Borg Mercenaries,
Plasma Fire and Q, met as dilemmas or moved and fired as records.
"""

from __future__ import annotations

from referee.ruleset import Illegal
from referee.rulesets.stccg_multiplayer import checks
from referee.rulesets.stccg_multiplayer.cards import (
    BORG_SHIP,
    PLASMA_FIRE,
    ROGUE_BORG,
    Q,
)
from referee.rulesets.stccg_multiplayer.state import Group, State, Tour
from schemas import stccg_multiplayer as sg


def encounter(state: State, record: sg.Encounter) -> None:
    """SG-7.5: the active player meets a dilemma seeded under a location."""
    checks.in_phase(state, record, "main", "encounter a dilemma")
    loc = checks.location(state.grid, record.place, "SG-7.5")
    seeded = next((d for d in loc.dilemmas if d[0] == record.card), None)
    if seeded is None:
        raise Illegal("SG-7.5", f"no {record.card!r} is seeded under {loc.name} ({record.place})")
    if record.card == PLASMA_FIRE and record.ship not in state.ships:
        raise Illegal("SG-7.6", "Plasma Fire is put on a ship in play: name it")
    # named by the encounter's seq (SG-10); a bot's record gets its seq only once written, after those applied
    name = f"{record.card}#{record.seq or state.applied + 1}"
    loc.dilemmas.remove(seeded)
    if record.card == BORG_SHIP:
        on_ring = state.grid.on_ring(record.place)
        state.borgs[name] = Tour(record.place, record.place if on_ring else None)
    elif record.card == ROGUE_BORG:
        state.groups[name] = Group(seeded[1], record.by)
    elif record.card == PLASMA_FIRE:
        assert record.ship is not None
        state.fires.add(record.ship)
    elif record.card == Q:
        state.seats[record.by].qs += 1  # SG-6.5: one swap for the player who met it
    else:
        state.unchecked += 1


def borg_next(state: State, tour: Tour) -> list[str | None]:
    """SG-7.2: where a Borg Ship goes next (None: it leaves play)."""
    grid = state.grid
    if not grid.on_ring(tour.slot):
        return list(grid.outward(tour.slot))
    if tour.slot == tour.ring_start and tour.lapped:
        return [None]
    return [grid.clockwise(tour.slot)]


def borg_ship_move(state: State, record: sg.BorgShipMove) -> None:
    """SG-7.2: the Borg Ship takes the next step of its tour, or leaves once it is done."""
    checks.in_phase(state, record, "main", "move a Borg Ship")
    tour = state.borgs.get(record.borg)
    if tour is None:
        raise Illegal("SG-7.2", f"no Borg Ship called {record.borg!r} is in play")
    allowed = borg_next(state, tour)
    if record.to not in allowed:
        options = " or ".join("leaving play" if a is None else a for a in allowed)
        raise Illegal("SG-7.2", f"{record.borg} goes next to {options}, not {record.to or 'out of play'}")
    if record.to is None:
        del state.borgs[record.borg]
        return
    was_on_ring = state.grid.on_ring(tour.slot)
    tour.slot = record.to
    if state.grid.on_ring(record.to):
        if tour.ring_start is None:
            tour.ring_start = record.to
        elif was_on_ring:
            tour.lapped = True


def mercenaries_attack(state: State, record: sg.MercenariesAttack) -> None:
    """SG-7.7: Rogue Borg Mercenaries attack only on their owner's or the affected player's turn."""
    checks.in_phase(state, record, "main", "attack with Rogue Borg Mercenaries")
    group = state.groups.get(record.group)
    if group is None:
        raise Illegal("SG-7.7", f"no Rogue Borg Mercenaries called {record.group!r} are in play")
    if state.active not in (group.owner, group.affected):
        raise Illegal("SG-7.7", f"{record.group} attack only on {group.owner}'s or {group.affected}'s turn")


def plasma_fire_damage(state: State, record: sg.PlasmaFireDamage) -> None:
    """SG-7.6: Plasma Fire damages a ship at the end of its owner's turn, once."""
    if record.ship not in state.fires:
        raise Illegal("SG-7.6", f"{record.ship!r} has no Plasma Fire on it")
    owner = state.ships[record.ship].owner if record.ship in state.ships else None
    if state.phase != "end" or state.active != owner:
        raise Illegal("SG-7.6", f"Plasma Fire damages {record.ship} only at the end of {owner}'s turns")
    checks.by(record, state.active, "log Plasma Fire damage")
    if record.ship in state.burnt:
        raise Illegal("SG-7.6", f"Plasma Fire already damaged {record.ship} this turn")
    state.burnt.add(record.ship)
