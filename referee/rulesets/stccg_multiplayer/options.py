"""The legal records of a stccg-multiplayer position, for `legal` and the bot (the handlers check them).

Free fields (text, span, several cards at once) get one sample value, and a
card's targets one choice for each target the rules read.
"""

from __future__ import annotations

from collections.abc import Iterator

from referee.ruleset import CHANCE
from referee.rulesets.stccg_multiplayer import named
from referee.rulesets.stccg_multiplayer.cards import (
    BORG_OUTPOST,
    DIAL_MARTOK,
    GATEWAY,
    INSERTED,
    NAMED,
    ONE_TARGET,
    OPPOSITE_MOVERS,
    PLASMA_FIRE,
    Q,
)
from referee.rulesets.stccg_multiplayer.grid import Grid
from referee.rulesets.stccg_multiplayer.state import State
from schemas import stccg_multiplayer as sg
from schemas.log import Record


def legal(state: State) -> Iterator[Record]:
    """The legal records here. Free fields (text, span, several cards at once) get one sample value."""
    if state.phase == "over":
        return
    active = state.active
    me = state.seats[active]
    grid = state.grid
    if state.phase == "missions":
        for name, mission in me.missions.items():
            for place, shift in mission_spots(grid, mission):
                yield sg.SeedMission(by=active, mission=name, place=place, shift=shift)
    elif state.phase == "dilemmas":
        yield sg.Pass(by=active)
        for card in sorted(me.seeds):
            for slot, loc in grid.locations():
                if loc.mission:
                    yield sg.SeedDilemmas(by=active, place=slot, cards=[card])
            yield from (sg.SeedCard(by=active, card=card, place=p) for p in seed_places(state, card))
            yield from insert_records(state, active, card)
    elif state.phase == "opening":
        drawer = state.opening[0]
        for card in sorted(state.seats[drawer].draw):
            yield sg.Draw(by=CHANCE, player=drawer, card=card)
    else:
        yield from turn_records(state)


def mission_spots(grid: Grid, mission: sg.Mission) -> list[tuple[str, list[str] | None]]:
    """Every (place, shift) where `mission` may seed now (SG-3.2 to SG-3.10)."""
    empty = grid.empty_fits(mission.quadrant, mission.region)
    if empty:
        return [(s, None) for s in empty]
    shifts = grid.legal_shifts(mission.quadrant, mission.region)
    if shifts:
        return [(p[0], p) for p in shifts]
    return [(s, None) for s, loc in grid.slots.items() if loc is None]


def seed_places(state: State, card: str) -> list[str | None]:
    """Where `card` may seed (SG-4.4 to SG-4.6); the legal listing offers no place for other cards."""
    if card == BORG_OUTPOST:
        return [None] if state.grid.quadrant_present("Delta") else []
    if card == GATEWAY:
        return [spoke[-1] for spoke in state.grid.spokes]
    return [None]


def insert_records(state: State, by: str, card: str) -> Iterator[sg.Insert]:
    """One legal insert of `card` into each edge between two locations of one quadrant (none for a card
    the referee knows is not inserted, SG-6.4)."""
    if card in NAMED and card not in INSERTED:
        return
    grid = state.grid
    for a, loc in grid.locations():
        for b in grid.neighbours(a):
            other = grid.slots[b]
            if a < b and other is not None and other.quadrant == loc.quadrant:
                yield sg.Insert(by=by, card=card, after=a, before=b, span=1)


def turn_records(state: State) -> Iterator[Record]:
    """The legal records of a turn, simplest first (one sample of each kind of choice)."""
    active, grid = state.active, state.grid
    me = state.seats[active]
    if state.phase == "end":
        for burning in sorted(state.fires - state.burnt):
            if burning in state.ships and state.ships[burning].owner == active:
                yield sg.PlasmaFireDamage(by=active, ship=burning)
        if me.draw:
            yield from (sg.Draw(by=CHANCE, player=active, card=c) for c in sorted(me.draw))
        else:
            yield sg.EndTurn(by=active)
        return
    yield sg.EndTurn(by=active)
    for name, tour in state.borgs.items():
        yield from (sg.BorgShipMove(by=active, borg=name, to=to) for to in named.borg_next(state, tour))
    for name, group in state.groups.items():
        if active in (group.owner, group.affected):
            yield sg.MercenariesAttack(by=active, group=name)
    movers = [c for c in OPPOSITE_MOVERS if c in me.hand or c in me.played]
    for name, ship in state.ships.items():
        here = grid.slots[ship.slot]
        assert here is not None
        if ship.owner == active:
            for slot in grid.neighbours(ship.slot):
                there = grid.slots[slot]
                if there is not None and there.quadrant == here.quadrant:
                    yield sg.Move(by=active, ship=name, path=[slot])
        for card in movers:
            yield from (sg.Relocate(by=active, card=card, ships=[name], to=to) for to in sorted(grid.far_ends(ship.slot, False)))
    for slot, loc in grid.locations():
        for card, _ in loc.dilemmas:
            if card != PLASMA_FIRE:
                yield sg.Encounter(by=active, card=card, place=slot)
    hand = sorted(me.hand)
    for card in hand:
        yield from plays(state, active, card)
    yield sg.Action(by=active, text="attempt a mission")
    locations = list(grid.locations())
    for card in hand:
        if card not in state.ships and card not in NAMED:
            yield from (sg.ReportShip(by=active, card=card, place=slot) for slot, _ in locations)
        yield from insert_records(state, active, card)
    if me.qs or Q in me.hand:
        for i, (a, first) in enumerate(locations):
            for b, second in locations[i + 1 :]:
                if first.quadrant == second.quadrant:
                    yield sg.QSwap(by=active, pairs=[(a, b)])
    yield from (sg.Destroy(by=active, ship=name) for name in sorted(state.ships))


def plays(state: State, by: str, card: str) -> Iterator[Record]:
    """Legal plays of `card` from hand, with one choice of targets for each target the rules read."""
    if card == PLASMA_FIRE:
        yield from (sg.Play(by=by, card=card, ship=ship) for ship in sorted(state.ships))
    elif card in ONE_TARGET:
        yield from (sg.Play(by=by, card=card, players=[p]) for p in state.still_in())
    elif card == DIAL_MARTOK:
        yield from (
            sg.Play(by=by, card=card, personnel=[sg.Personnel("Crewman A", p), sg.Personnel("Crewman B", p)])
            for p in state.still_in()
        )
    else:
        yield sg.Play(by=by, card=card)
