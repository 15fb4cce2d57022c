"""The spacegrid (RULES.md SG-2): places, adjacency, shifting, the far end, and drawings.

The grid is a set of slots: the Nebula `N`, the spoke places `Si.k`, the ring
places `Ri.k`, and inserted locations `Xn`. Each slot holds a location card
(`Loc`) or nothing. Its shape is kept as lists: each spoke from the centre
outwards (ending at its outer end `Si.3`, which is also on the ring) and the
ring clockwise from `S1.3`. Inserting a card splices a new slot into one list.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

CENTRE = "N"
PLANET_KINDS = ("planet", "dual")
QUADRANT_COLOURS = {"Alpha": "#4a7bd0", "Gamma": "#3ba55c", "Delta": "#d08a2a", "Mirror": "#9a4fc4"}
SVG_SIZE = 760


@dataclass
class Loc:
    """A location card on the grid, with the cards seeded under it as (card, seeder) pairs."""

    name: str
    quadrant: str
    span: int
    kind: str
    region: str | None = None
    owner: str | None = None
    mission: bool = True
    dilemmas: list[tuple[str, str]] = field(default_factory=list)

    @property
    def planet(self) -> bool:
        """Whether the location counts as a planet (a dual mission does)."""
        return self.kind in PLANET_KINDS


class Grid:
    """The slots, what is on them, and the shape that makes them adjacent."""

    def __init__(self, spokes: int) -> None:
        self.n = spokes
        self.spokes = [[f"S{i}.1", f"S{i}.2", f"S{i}.3"] for i in range(1, spokes + 1)]
        self.ring = [p for i in range(1, spokes + 1) for p in (f"S{i}.3", f"R{i}.1", f"R{i}.2", f"R{i}.3")]
        self.slots: dict[str, Loc | None] = dict.fromkeys([CENTRE, *(p for s in self.spokes for p in s), *self.ring])
        self.inserted = 0
        self._adjacency: dict[str, list[str]] = {}
        self._rebuild()

    def _rebuild(self) -> None:
        """Recompute the adjacency lists from the spoke and ring lists."""
        adj: dict[str, list[str]] = {slot: [] for slot in self.slots}

        def link(a: str, b: str) -> None:
            adj[a].append(b)
            adj[b].append(a)

        for spoke in self.spokes:
            for a, b in zip([CENTRE, *spoke], spoke, strict=False):
                link(a, b)
        for a, b in zip(self.ring, self.ring[1:] + self.ring[:1], strict=True):
            link(a, b)
        self._adjacency = adj
        self._on_ring = set(self.ring)
        self._spoke_of = {slot: i for i, spoke in enumerate(self.spokes) for slot in spoke}

    # -- shape -------------------------------------------------------------------

    def neighbours(self, slot: str) -> list[str]:
        """The slots adjacent to `slot` (SG-2.2, SG-2.6)."""
        return self._adjacency[slot]

    def on_ring(self, slot: str) -> bool:
        """Whether `slot` is on the outer ring (spoke ends included)."""
        return slot in self._on_ring

    def spoke_end(self, slot: str) -> list[str]:
        """The ring slots reached by the most direct path off a spoke (every spoke end from the centre)."""
        if self.on_ring(slot):
            return [slot]
        if slot == CENTRE:
            return [spoke[-1] for spoke in self.spokes]
        return [self.spokes[self._spoke_of[slot]][-1]]

    def outward(self, slot: str) -> list[str]:
        """The next slots a Borg Ship takes towards the ring from a spoke slot or the centre."""
        if slot == CENTRE:
            return [spoke[0] for spoke in self.spokes]
        spoke = self.spokes[self._spoke_of[slot]]
        return [spoke[spoke.index(slot) + 1]]

    def clockwise(self, slot: str) -> str:
        """The next ring slot clockwise from ring slot `slot`."""
        return self.ring[(self.ring.index(slot) + 1) % len(self.ring)]

    def insert(self, after: str, before: str) -> str:
        """Splice a new slot between adjacent slots `after` and `before`; return its name (SG-2.6)."""
        self.inserted += 1
        new = f"X{self.inserted}"
        pair = {after, before}
        if CENTRE in pair:
            next(s for s in self.spokes if s[0] in pair).insert(0, new)
        else:
            for line in [*self.spokes, self.ring]:
                ends = line + line[:1] if line is self.ring else line
                hit = next((i for i in range(len(ends) - 1) if {ends[i], ends[i + 1]} == pair), None)
                if hit is not None:
                    line.insert(hit + 1, new)
                    break
        self.slots[new] = None
        self._rebuild()
        return new

    # -- what is where -----------------------------------------------------------

    def locations(self) -> Iterator[tuple[str, Loc]]:
        """Every occupied slot and its location, in grid order."""
        for slot, loc in self.slots.items():
            if loc is not None:
                yield slot, loc

    def quadrant_present(self, quadrant: str) -> bool:
        """Whether any location of `quadrant` is on the grid."""
        return any(loc.quadrant == quadrant for _, loc in self.locations())

    # -- seeding (SG-3) ----------------------------------------------------------

    def fits(self, slot: str, quadrant: str, region: str | None) -> bool:
        """SG-3.2 to SG-3.4: may a mission of `quadrant`/`region` go on `slot` as the grid stands?"""
        return self._fits(slot, quadrant, region, *self._present(quadrant, region))

    def empty_fits(self, quadrant: str, region: str | None) -> list[str]:
        """The empty slots where the mission may go without a shift."""
        return list(self._empty_fits(quadrant, region))

    def first_empty_fit(self, quadrant: str, region: str | None) -> str | None:
        """The first of `empty_fits`, or None, found without looking at the rest."""
        return next(self._empty_fits(quadrant, region), None)

    def _empty_fits(self, quadrant: str, region: str | None) -> Iterator[str]:
        present = self._present(quadrant, region)
        return (s for s, loc in self.slots.items() if loc is None and self._fits(s, quadrant, region, *present))

    def _present(self, quadrant: str, region: str | None) -> tuple[bool, bool]:
        """Whether the quadrant, and the region (if any), already have a location on the grid."""
        quadrant_here = region_here = False
        for _, loc in self.locations():
            quadrant_here = quadrant_here or loc.quadrant == quadrant
            region_here = region_here or (region is not None and loc.region == region)
        return quadrant_here, region_here

    def _fits(self, slot: str, quadrant: str, region: str | None, quadrant_here: bool, region_here: bool) -> bool:
        """`fits`, with the presence of quadrant and region worked out once by the caller."""
        if not quadrant_here:
            return True
        near = [loc for s in self.neighbours(slot) if (loc := self.slots[s]) is not None]
        if not any(loc.quadrant == quadrant for loc in near):
            return False
        return not region_here or any(loc.region == region for loc in near)

    def shift_paths(self, start: str, longest: int | None = None) -> Iterator[list[str]]:
        """SG-3.5/3.6: each outward line from `start` up to and including the first empty slot.

        With `longest`, only the lines of at most that many slots (the walk stops there).
        """
        if start == CENTRE:
            return
        limit = len(self.slots) if longest is None else longest
        path: list[str] = []
        if not self.on_ring(start):
            spoke = self.spokes[self._spoke_of[start]]
            for slot in spoke[spoke.index(start) : -1]:
                path.append(slot)
                if len(path) > limit:
                    return
                if self.slots[slot] is None:
                    yield path
                    return
        ring = self.ring
        at = ring.index(self.spoke_end(start)[0])
        if len(path) >= limit:
            return
        if self.slots[ring[at]] is None:
            yield [*path, ring[at]]
            return
        for step in (1, -1):
            line = list(path)
            for k in range(min(len(ring), limit - len(path))):
                line.append(ring[(at + step * k) % len(ring)])
                if self.slots[line[-1]] is None:
                    yield line
                    break

    def legal_shifts(self, quadrant: str, region: str | None) -> list[list[str]]:
        """SG-3.5 to SG-3.9: every shift moving the fewest missions that makes room for the mission."""
        present = self._present(quadrant, region)  # a shift moves locations, never adds or removes one
        found: list[list[str]] = []
        for path in sorted((p for start, _ in self.locations() for p in self.shift_paths(start)), key=len):
            if found and len(path) > len(found[0]):
                break
            if self._shift_fault(path, quadrant, region, present) is None:
                found.append(path)
        return found

    def shorter_shift(self, length: int, quadrant: str, region: str | None) -> bool:
        """Whether a shift of fewer than `length` places makes room for the mission (SG-3.9).

        Walks only the shorter lines, so a shift of the fewest moves is proven so
        without listing every legal shift.
        """
        present = self._present(quadrant, region)
        shorter = (p for start, _ in self.locations() for p in self.shift_paths(start, length - 1))
        return any(self._shift_fault(path, quadrant, region, present) is None for path in shorter)

    def shift_problem(self, path: list[str], quadrant: str, region: str | None) -> tuple[str, str] | None:
        """The rule `path` breaks as a shift for the mission, and why (SG-3.5 to SG-3.8); None when it is one."""
        if len(path) < 2 or len(set(path)) != len(path):
            return ("SG-3.5", "a shift lists at least two different places, the last one empty")
        if path not in list(self.shift_paths(path[0])):
            return ("SG-3.6", "a shift moves missions outward in one line, along the spoke then one way round the ring, up to the first empty place")
        return self._shift_fault(path, quadrant, region, self._present(quadrant, region))

    def _shift_fault(
        self, path: list[str], quadrant: str, region: str | None, present: tuple[bool, bool]
    ) -> tuple[str, str] | None:
        """SG-3.7/3.8 for a path of the right shape: no regional mission moves, and the mission then fits."""
        for slot in path[:-1]:
            loc = self.slots[slot]
            if loc is not None and loc.region is not None:
                return ("SG-3.7", f"{loc.name} on {slot} is in a region and may not be shifted")
        moved = [self.slots[s] for s in path[:-1]]
        self._move_line(path, moved)
        try:
            fits = self._fits(path[0], quadrant, region, *present)
        finally:
            self._unmove_line(path, moved)
        return None if fits else ("SG-3.8", "even after that shift the mission would not be next to its quadrant or region")

    def _move_line(self, path: list[str], moved: list[Loc | None]) -> None:
        """Move each location on path[:-1] one step along the path, leaving path[0] empty."""
        for slot, loc in zip(path[1:], moved, strict=True):
            self.slots[slot] = loc
        self.slots[path[0]] = None

    def _unmove_line(self, path: list[str], moved: list[Loc | None]) -> None:
        """Undo `_move_line`."""
        for slot, loc in zip(path, moved, strict=False):
            self.slots[slot] = loc
        self.slots[path[-1]] = None

    def shift(self, path: list[str]) -> None:
        """Perform a checked shift."""
        self._move_line(path, [self.slots[s] for s in path[:-1]])

    # -- the far end (SG-6.3) ----------------------------------------------------

    def far_ends(self, start: str, planet: bool) -> set[str]:
        """SG-6.3: every location a far-end effect from `start` may choose (several only on a tie)."""
        here = self.slots[start]
        assert here is not None
        quadrant = here.quadrant

        def meets(slot: str) -> bool:
            loc = self.slots[slot]
            return loc is not None and loc.quadrant == quadrant and (loc.planet or not planet)

        ring = [s for s in self.ring if self.slots[s] is not None]  # cards are counted, empty places not
        suitable = [s for s in ring if meets(s)]
        found: set[str] = set()
        for entry in self.spoke_end(start):  # step 1
            if entry not in ring:
                continue
            for opposite in self._opposites(ring, entry):  # step 2
                if meets(opposite):
                    found.add(opposite)
                else:  # step 3
                    found |= self._best(suitable, partial(_nearness, ring, opposite))
        if found:
            return found
        return self._best([s for s in self.slots if not self.on_ring(s) and meets(s)], self._depth)  # step 4

    def _opposites(self, ring: list[str], entry: str) -> set[str]:
        """SG-6.3 step 2: the location opposite `entry` (the higher span of two on an odd ring)."""
        size, i = len(ring), ring.index(entry)
        if size % 2 == 0:
            return {ring[(i + size // 2) % size]}
        return self._best([ring[(i + size // 2) % size], ring[(i + size // 2 + 1) % size]], lambda s: 0)

    def _best(self, slots: list[str], key: Callable[[str], int]) -> set[str]:
        """The slots with the highest `key`, ties going to the higher span (SG-6.3 steps 3 and 4)."""
        if not slots:
            return set()

        def rank(slot: str) -> tuple[int, int]:
            loc = self.slots[slot]
            return (key(slot), loc.span if loc else 0)

        top = max(rank(s) for s in slots)
        return {s for s in slots if rank(s) == top}

    def _depth(self, slot: str) -> int:
        """How many location cards lie from the centre to `slot` along its spoke (the centre is 0)."""
        if slot == CENTRE:
            return 0
        spoke = self.spokes[self._spoke_of[slot]]
        return sum(1 for s in spoke[: spoke.index(slot) + 1] if self.slots[s] is not None)

    # -- drawings ----------------------------------------------------------------

    def text(self, ships: dict[str, list[str]]) -> str:
        """The grid as lines: the centre, each spoke outwards, then the ring clockwise."""

        def show(slot: str) -> str:
            loc = self.slots[slot]
            if loc is None:
                return f"{slot} (empty)"
            bits = [loc.quadrant, f"span {loc.span}", loc.kind]
            if loc.region:
                bits.append(loc.region)
            here = f" ships: {', '.join(ships[slot])}" if ships.get(slot) else ""
            return f"{slot} {loc.name} [{', '.join(bits)}]{here}"

        lines = [f"centre: {show(CENTRE)}"]
        for i, spoke in enumerate(self.spokes, start=1):
            lines.append(f"spoke {i}: " + " | ".join(show(s) for s in spoke))
        lines.append("ring (clockwise): " + " | ".join(show(s) for s in self.ring))
        return "\n".join(lines)

    def drawing(self, ships: dict[str, list[str]]) -> dict[str, Any]:
        """What `spacegrid.svg.j2` draws: the links and the places, at drawing coordinates."""
        pos = self._positions()
        half = SVG_SIZE / 2
        drawn: set[tuple[str, str]] = set()
        links = []
        for a in self.slots:
            for b in self.neighbours(a):
                if (b, a) in drawn:
                    continue
                drawn.add((a, b))
                (x1, y1), (x2, y2) = pos[a], pos[b]
                links.append((half + x1, half + y1, half + x2, half + y2))
        places = []
        for slot, (x, y) in pos.items():
            loc = self.slots[slot]
            places.append(
                {
                    "slot": slot,
                    "x": half + x,
                    "y": half + y,
                    "fill": QUADRANT_COLOURS.get(loc.quadrant, "#777") if loc else "white",
                    "name": loc.name if loc else "(empty)",
                    "owner": loc.owner if loc else None,
                    "ships": ships.get(slot, []),
                }
            )
        return {"size": SVG_SIZE, "links": links, "places": places}

    def svg(self, ships: dict[str, list[str]]) -> str:
        """The grid as a self-contained SVG document: a wheel of circles coloured by quadrant."""
        from referee.pages import render

        return render("stccg-multiplayer/spacegrid.svg.j2", grid=self.drawing(ships), document=True)

    def _positions(self) -> dict[str, tuple[float, float]]:
        """Drawing coordinates: spokes as rays, the ring as a circle, inserted slots between neighbours."""
        unit = 100.0
        places = 4 * self.n
        pos: dict[str, tuple[float, float]] = {CENTRE: (0.0, 0.0)}

        def polar(radius: float, index: float) -> tuple[float, float]:
            angle = -math.pi / 2 + 2 * math.pi * index / places
            return (radius * math.cos(angle), radius * math.sin(angle))

        for i in range(self.n):
            for k in range(3):
                pos[f"S{i + 1}.{k + 1}"] = polar(unit * (k + 1), 4 * i)
            for k in range(3):
                pos[f"R{i + 1}.{k + 1}"] = polar(unit * 3, 4 * i + k + 1)
        for line in [*([CENTRE, *s] for s in self.spokes), self.ring + self.ring[:1]]:
            known = [i for i, s in enumerate(line) if s in pos]
            for a, b in itertools.pairwise(known):
                for j in range(a + 1, b):
                    t = (j - a) / (b - a)
                    (x1, y1), (x2, y2) = pos[line[a]], pos[line[b]]
                    pos[line[j]] = (x1 + t * (x2 - x1) + 12, y1 + t * (y2 - y1) + 12)
        return pos


def _nearness(ring: list[str], target: str, slot: str) -> int:
    """Minus the number of cards between `slot` and `target` on the ring, the shorter way round."""
    d = abs(ring.index(slot) - ring.index(target))
    return -min(d, len(ring) - d)
