"""Seeding a mission is checked directly, not by listing every spot: both ways must agree (SG-3)."""

from __future__ import annotations

import copy
import random

from referee.bots import bot_header
from referee.logio import setup_decoder
from referee.ruleset import Illegal
from referee.rulesets import get as get_ruleset
from referee.rulesets.stccg_multiplayer.grid import CENTRE, Grid, Loc
from referee.rulesets.stccg_multiplayer.options import mission_spots
from schemas import stccg_multiplayer as sg

ID = "stccg-multiplayer"
RULES = get_ruleset(ID)


def accepted(state: object, record: sg.SeedMission) -> bool:
    try:
        RULES.apply(copy.deepcopy(state), record)
    except Illegal:
        return False
    return True


def test_apply_accepts_a_mission_exactly_where_the_listing_puts_it() -> None:
    """Every empty place and every outward line (and cut-short ones) from every place, in the mission phase of bot games."""
    checked = shifts = 0
    for seed in range(4):
        header = bot_header(ID, seed, 2 + seed % 5)
        state = RULES.start(header, setup_decoder(ID).decode(header.setup))
        rng = random.Random(seed)
        while state.phase == "missions":
            grid, active = state.grid, state.active
            lines = [p for slot in grid.slots for p in grid.shift_paths(slot)]
            lines += [p[:-1] for p in lines if len(p) > 2]
            for name, mission in sorted(state.seats[active].missions.items())[:1]:
                spots = {(place, tuple(shift or ())) for place, shift in mission_spots(grid, mission)}
                for place, shift in [*((slot, None) for slot in grid.slots), *((p[0], p) for p in lines)]:
                    record = sg.SeedMission(by=active, mission=name, place=place, shift=shift)
                    assert accepted(state, record) == ((place, tuple(shift or ())) in spots), (seed, record)
                    checked += 1
                    shifts += shift is not None and (place, tuple(shift)) in spots
            RULES.apply(state, RULES.sample(state, rng))
    assert checked > 3000 and shifts > 5, (checked, shifts)


def test_a_bounded_walk_finds_exactly_the_short_lines() -> None:
    """shift_paths(start, longest) is shift_paths(start) without the lines longer than `longest`."""
    walks = 0
    for seed in range(4):
        header = bot_header(ID, seed, 2 + seed % 5)
        state = RULES.start(header, setup_decoder(ID).decode(header.setup))
        rng = random.Random(seed)
        while state.phase == "missions":
            grid = state.grid
            for slot in grid.slots:
                every = list(grid.shift_paths(slot))
                for longest in range(1, 8):
                    assert list(grid.shift_paths(slot, longest)) == [p for p in every if len(p) <= longest]
                    walks += 1
            RULES.apply(state, RULES.sample(state, rng))
    assert walks > 1000


def walked(grid: Grid, start: str) -> list[list[str]]:
    """SG-3.6 read plainly: from `start` out along its spoke to the first empty place; reaching the
    ring, on round it each way to the first empty place. The oracle for the grid's faster searches."""
    if start == CENTRE or grid.slots[start] is None:
        return []
    path: list[str] = []
    if not grid.on_ring(start):
        spoke = grid.spokes[grid._spoke_of[start]]
        for slot in spoke[spoke.index(start) : -1]:
            path.append(slot)
            if grid.slots[slot] is None:
                return [path]
    ring = grid.ring
    at = ring.index(grid.spoke_end(start)[0])
    if grid.slots[ring[at]] is None:
        return [[*path, ring[at]]]
    lines = []
    for step in (1, -1):
        line = list(path)
        for k in range(len(ring)):
            line.append(ring[(at + step * k) % len(ring)])
            if grid.slots[line[-1]] is None:
                lines.append(line)
                break
    return lines


def test_the_grid_finds_the_same_lines_as_a_plain_walk() -> None:
    """Forwards from every start (shift_lines) and backwards from the empty places (short_lines): the lines
    a plain walk finds, cut at each length, on random grids of 2 to 6 spokes, some with inserted places."""
    rng = random.Random(13)
    found = 0
    for _ in range(600):
        grid = Grid(rng.randint(2, 6))
        for _ in range(rng.choice((0, 0, 1, 3))):
            a = rng.choice(list(grid.slots))
            grid.insert(a, rng.choice(grid.neighbours(a)))
        full = rng.random()
        for slot in grid.slots:
            if rng.random() < full:
                grid.slots[slot] = Loc("Mission", "Alpha", 2, "space")
        every = [line for slot in grid.slots for line in walked(grid, slot)]
        assert list(grid.shift_lines()) == every
        found += len(every)
        for longest in range(12):
            short = [line for line in every if len(line) <= longest]
            assert list(grid.shift_lines(longest)) == short
            assert sorted(grid.short_lines(longest)) == sorted(short)
    assert found > 600  # the grids had lines to find, not only empty or full rings
