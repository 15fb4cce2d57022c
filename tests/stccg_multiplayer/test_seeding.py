"""Seeding a mission is checked directly, not by listing every spot: both ways must agree (SG-3)."""

from __future__ import annotations

import copy
import random

from referee.ruleset import Illegal
from referee.rulesets import get as get_ruleset
from referee.rulesets.stccg_multiplayer.grid import CENTRE, Grid, Loc
from referee.rulesets.stccg_multiplayer.options import mission_spots
from schemas import stccg_multiplayer as sg
from tests import selfplay

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
        _, state = selfplay.bot_start(ID, seed, 2 + seed % 5)
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
        _, state = selfplay.bot_start(ID, seed, 2 + seed % 5)
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
    """Forwards from every start (shift_lines): the lines a plain walk finds, cut at each length, on random
    grids of 2 to 6 spokes, some with inserted places."""
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
    assert found > 600  # the grids had lines to find, not only empty or full rings


def plain_fit(grid: Grid, slot: str, quadrant: str, region: str | None) -> bool:
    """SG-3.2 to SG-3.4 read plainly: next to the quadrant once it is on the grid, and to the region once it is."""
    here = [loc for loc in grid.slots.values() if loc is not None]
    near = [loc for s in grid.neighbours(slot) if (loc := grid.slots[s]) is not None]
    if not any(loc.quadrant == quadrant for loc in here):
        return True
    if not any(loc.quadrant == quadrant for loc in near):
        return False
    return not any(loc.region == region for loc in here if region) or any(loc.region == region for loc in near)


def plain_shift_fits(grid: Grid, line: list[str], quadrant: str, region: str | None) -> bool:
    """SG-3.7/3.8 read plainly: no regional location moves; on a copy of the grid shifted along `line`, the start fits."""
    if any(grid.slots[s].region for s in line[:-1]):  # type: ignore[union-attr]
        return False
    shifted = copy.deepcopy(grid)
    shifted.shift(line)
    return plain_fit(shifted, line[0], quadrant, region)


def test_the_quick_searches_answer_as_the_plain_rules() -> None:
    """empty_fit_exists looks only next to the quadrant, shorter_shift (and shift_exists) mostly at lines starting there: on random
    grids of mixed quadrants and regions (some full rings, some with inserted places) both answer as the plain
    rules do for every length of shift, including lines long enough to come back round next to their start."""
    rng = random.Random(31)
    quadrants, regions = ("Alpha", "Gamma", "Delta"), (None, None, "Badlands", "Briar Patch")
    shorter = longer = 0
    for _ in range(400):
        grid = Grid(rng.randint(2, 4))
        for _ in range(rng.choice((0, 0, 1, 2))):
            a = rng.choice(list(grid.slots))
            grid.insert(a, rng.choice(grid.neighbours(a)))
        full = rng.choice((0.3, 0.7, 0.9, 0.97))
        for slot in grid.slots:
            if rng.random() < full:
                grid.slots[slot] = Loc("M", rng.choice(quadrants), 2, "space", rng.choice(regions))
        lines = [line for slot in grid.slots for line in walked(grid, slot)]
        for quadrant in quadrants:
            for region in regions[1:3]:
                empty = [s for s, loc in grid.slots.items() if loc is None and plain_fit(grid, s, quadrant, region)]
                assert grid.empty_fit_exists(quadrant, region) == bool(empty)
                assert grid.empty_fits(quadrant, region) == empty
                fitting = [len(line) for line in lines if plain_shift_fits(grid, line, quadrant, region)]
                for length in range(1, len(grid.slots) + 2):
                    expected = any(n < length for n in fitting)
                    assert grid.shorter_shift(length, quadrant, region) == expected, (quadrant, region, length)
                    shorter += expected and length - 1 < len(grid.ring)
                    longer += expected and length - 1 >= len(grid.ring)
                assert grid.shift_exists(quadrant, region) == bool(fitting) == bool(grid.legal_shifts(quadrant, region))
    assert shorter > 1000 and longer > 100, (shorter, longer)
