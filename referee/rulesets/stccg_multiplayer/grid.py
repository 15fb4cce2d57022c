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
from functools import cache, partial
from typing import Any

import msgspec

CENTRE = "N"
PLANET_KINDS = ("planet", "dual")
QUADRANT_COLOURS = {"Alpha": "#4a7bd0", "Gamma": "#3ba55c", "Delta": "#d08a2a", "Mirror": "#9a4fc4"}
SVG_SIZE = 760


class Loc(msgspec.Struct):
    """A location card on the grid, with the cards seeded under it as (card, seeder) pairs.

    A Struct because one is made for every seeded mission: it is made in C, faster than a dataclass.
    """

    name: str
    quadrant: str
    span: int
    kind: str
    region: str | None = None
    owner: str | None = None
    mission: bool = True
    dilemmas: list[tuple[str, str]] = msgspec.field(default_factory=list)

    @property
    def planet(self) -> bool:
        """Whether the location counts as a planet (a dual mission does)."""
        return self.kind in PLANET_KINDS


class Grid:
    """The slots, what is on them, and the shape that makes them adjacent."""

    n: int
    spokes: list[list[str]]
    ring: list[str]
    slots: dict[str, Loc | None]
    inserted: int
    _adjacency: dict[str, list[str]]
    _on_ring: set[str]
    _ring_at: dict[str, int]
    _spoke_of: dict[str, int]

    def __init__(self, spokes: int) -> None:
        """An empty grid of `spokes` spokes, copied from the one built for that count (every game builds one)."""
        shape = _empty(spokes)
        self.n = spokes
        self.spokes = [list(spoke) for spoke in shape.spokes]
        self.ring = list(shape.ring)
        self.slots = dict(shape.slots)
        self.inserted = 0
        # shared with the shape: _splice replaces these, nothing changes them in place
        self._adjacency, self._on_ring = shape._adjacency, shape._on_ring
        self._ring_at, self._spoke_of = shape._ring_at, shape._spoke_of

    def _rebuild(self) -> None:
        """Recompute the adjacency lists from the spoke and ring lists."""
        adj: dict[str, list[str]] = {slot: [] for slot in self.slots}
        pairs = [pair for spoke in self.spokes for pair in zip([CENTRE, *spoke], spoke, strict=False)]
        for a, b in [*pairs, *zip(self.ring, self.ring[1:] + self.ring[:1], strict=True)]:
            adj[a].append(b)
            adj[b].append(a)
        self._adjacency = adj
        self._on_ring = set(self.ring)
        self._ring_at = {slot: i for i, slot in enumerate(self.ring)}
        self._spoke_of = {slot: i for i, spoke in enumerate(self.spokes) for slot in spoke}

    # -- shape -------------------------------------------------------------------

    def neighbours(self, slot: str) -> list[str]:
        """The slots adjacent to `slot` (SG-2.2, SG-2.6): a list shared with the empty grid's shape, to read only."""
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
        spoke_of = self._spoke_of
        if CENTRE in (after, before):  # the new slot starts the other one's spoke
            line, at = self.spokes[spoke_of[before if after == CENTRE else after]], 0
        elif after in spoke_of and spoke_of[after] == spoke_of.get(before):
            line = self.spokes[spoke_of[after]]
            at = min(line.index(after), line.index(before)) + 1
        else:  # on the ring, after whichever of the two comes first clockwise
            line, i = self.ring, self._ring_at[after]
            at = i + 1 if line[(i + 1) % len(line)] == before else self._ring_at[before] + 1
        line.insert(at, new)
        self.slots[new] = None
        self._splice(new, line, at, after, before)
        return new

    def _splice(self, new: str, line: list[str], at: int, after: str, before: str) -> None:
        """The shape once `new` is at `at` in `line`, between `after` and `before`: what `_rebuild` gives,
        changing only what the new slot touches (the adjacency lists may be another grid's: changed ones are new)."""
        adjacency = dict(self._adjacency)
        adjacency[after] = [new if s == before else s for s in adjacency[after]]
        adjacency[before] = [new if s == after else s for s in adjacency[before]]
        if line is self.ring:
            adjacency[new] = [line[at - 1], line[(at + 1) % len(line)]]
            self._on_ring = self._on_ring | {new}
            self._ring_at = {slot: i for i, slot in enumerate(line)}
        else:
            adjacency[new] = [CENTRE if at == 0 else line[at - 1], line[at + 1]]
            self._spoke_of = {**self._spoke_of, new: self._spoke_of[line[-1]]}
        self._adjacency = adjacency

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
        slots, around = self.slots, self._adjacency[slot]
        # next to its quadrant and region fits whatever else is on the grid: only other places need the whole grid
        for s in around:
            loc = slots[s]
            if loc is not None and loc.quadrant == quadrant and (region is None or loc.region == region):
                return True
        return _fits([slots[s] for s in around], quadrant, region, self._present(quadrant, region))

    def empty_fits(self, quadrant: str, region: str | None) -> list[str]:
        """The empty slots where the mission may go without a shift."""
        present, slots, adjacency = self._present(quadrant, region), self.slots, self._adjacency
        return [s for s, loc in slots.items() if loc is None and _fits([slots[n] for n in adjacency[s]], quadrant, region, present)]

    def empty_fit_exists(self, quadrant: str, region: str | None) -> bool:
        """Whether `empty_fits` is not empty, asking only the empty places next to the quadrant (and region)."""
        return self._empty_close(self._survey(quadrant, region)[0])

    def _empty_close(self, close: set[str] | None) -> bool:
        """Whether an empty slot is in `close` (from `_survey`), which holds every slot when it is None."""
        if close is None:
            return None in self.slots.values()
        slots = self.slots
        for s in close:  # noqa: SIM110 - a loop: any() over a generator takes about twice the instructions here
            if slots[s] is None:
                return True
        return False

    def _survey(self, quadrant: str, region: str | None) -> tuple[set[str] | None, tuple[bool, bool]]:
        """The slots holding or next to a location of `quadrant`, and of `region` too when the grid has one
        (None when the quadrant has no location yet), and `_present`, in one look at the grid.

        Only an empty slot in this set can fit the mission (SG-3.2 to SG-3.4), and only a shift
        starting in it, as long as the shift cannot come back round next to its start.
        """
        adjacency = self._adjacency
        near_quadrant: set[str] = set()
        near_region: set[str] | None = None
        for s, loc in self.slots.items():
            if loc is None:
                continue
            if loc.quadrant == quadrant:
                near_quadrant.add(s)
                near_quadrant.update(adjacency[s])
            if region is not None and loc.region == region:
                if near_region is None:
                    near_region = set()
                near_region.add(s)
                near_region.update(adjacency[s])
        present = (bool(near_quadrant), near_region is not None)
        if not near_quadrant:
            return None, present
        return (near_quadrant if near_region is None else near_quadrant & near_region), present

    def _present(self, quadrant: str, region: str | None) -> tuple[bool, bool]:
        """Whether the quadrant, and the region (if any), already have a location on the grid."""
        quadrant_here = region_here = False
        for loc in self.slots.values():
            if loc is None:
                continue
            if loc.quadrant == quadrant:
                quadrant_here = True
            if region is not None and loc.region == region:
                region_here = True
            if quadrant_here and (region_here or region is None):
                break
        return quadrant_here, region_here

    def shift_paths(self, start: str, longest: int | None = None) -> list[list[str]]:
        """SG-3.5/3.6: each outward line from `start` up to and including the first empty slot.

        With `longest`, only the lines of at most that many slots.
        """
        return self._lines_from(start, self._ring_text(), len(self.slots) if longest is None else longest)

    def shift_lines(self, longest: int | None = None) -> Iterator[list[str]]:
        """The shift_paths of every location in grid order, at most `longest` slots long.

        The ring's distances to an empty place are worked out once for all the starts,
        so a line longer than `longest` is never walked.
        """
        ring_text, limit = self._ring_text(), len(self.slots) if longest is None else longest
        for start, _ in self.locations():
            yield from self._lines_from(start, ring_text, limit)

    def _ring_text(self) -> str | None:
        """The ring's occupancy as text, twice round (`x` a location, `r` one in a region, `.` empty), for finding
        the nearest empty slot either way, or a location that may not move (SG-3.7), with str.find; None when the
        ring is full."""
        slots = self.slots
        ring = "".join(["." if (loc := slots[s]) is None else "x" if loc.region is None else "r" for s in self.ring])
        return None if "." not in ring else ring + ring

    def _lines_from(
        self, start: str, ring_text: str | None, limit: int, least: int = 0, movable: bool = False
    ) -> list[list[str]]:
        """`shift_paths(start)` of at most `limit` slots and at least `least`, with the ring as `_ring_text` gives it
        (a line too short is never built); with `movable`, only lines that move no location in a region (SG-3.7)."""
        slots = self.slots
        if start == CENTRE:
            return []
        path: list[str] = []
        if start not in self._on_ring:  # along the spoke first, up to its outer end
            spoke = self.spokes[self._spoke_of[start]]
            for slot in spoke[spoke.index(start) : -1]:
                path.append(slot)
                if len(path) > limit:
                    return []
                loc = slots[slot]
                if loc is None:
                    return [path] if len(path) >= least else []
                if movable and loc.region is not None:
                    return []
            end = spoke[-1]
        else:
            end = start
        if len(path) >= limit:
            return []
        if slots[end] is None:
            return [[*path, end]] if len(path) + 1 >= least else []
        if ring_text is None:
            return []
        ring, at = self.ring, self._ring_at[end]
        size = len(ring)
        lines = []
        clockwise, anticlockwise = ring_text.find(".", at) - at, at + size - ring_text.rfind(".", 0, at + size + 1)
        for step, gap, first in ((1, clockwise, at), (-1, anticlockwise, at + size - anticlockwise + 1)):
            # the line moves the `gap` locations of ring_text[first : first + gap] (from `end` on, either way)
            if least <= len(path) + gap + 1 <= limit and not (movable and ring_text.find("r", first, first + gap) >= 0):
                lines.append(path + [ring[(at + step * k) % size] for k in range(gap + 1)])
        return lines

    def legal_shifts(self, quadrant: str, region: str | None) -> list[list[str]]:
        """SG-3.5 to SG-3.9: every shift moving the fewest missions that makes room for the mission."""
        present = self._present(quadrant, region)  # a shift moves locations, never adds or removes one
        found: list[list[str]] = []
        for path in sorted(self.shift_lines(), key=len):
            if found and len(path) > len(found[0]):
                break
            if self._shift_fault(path, quadrant, region, present) is None:
                found.append(path)
        return found

    def shorter_shift(self, length: int, quadrant: str, region: str | None) -> bool:
        """Whether a shift of fewer than `length` places makes room for the mission (SG-3.9)."""
        return self._shorter(length, quadrant, region, *self._survey(quadrant, region), self._ring_text())

    def _shorter(
        self, length: int, quadrant: str, region: str | None, close: set[str] | None, present: tuple[bool, bool], ring_text: str | None
    ) -> bool:
        """`shorter_shift`, with the grid surveyed (`_survey`, `_ring_text`).

        Looks only at the shorter lines, so a shift of the fewest moves is proven so
        without listing every legal shift. A line shorter than the ring never comes back
        next to its start, so the new mission's neighbours are then those of the start now,
        or the start's own card: such a line needs checking only if it starts `close` to
        the mission, from a location that may move (SG-3.7). A ring start whose ring text
        shows no empty place within `longest` slots either way has no such line at all.
        """
        longest, slots, around, ring_at = length - 1, self.slots, len(self.ring), self._ring_at
        if longest < 2:  # a shift moves at least one location into an empty place
            return False
        for start in slots if close is None or longest >= around else close:
            loc = slots[start]
            if loc is None or loc.region is not None:
                continue
            at = ring_at.get(start)
            if at is not None and (
                ring_text is None
                or (ring_text.find(".", at, at + longest) < 0 and ring_text.rfind(".", at + around - longest + 1, at + around + 1) < 0)
            ):
                continue
            least = 0 if close is None or start in close else around  # far from the mission, only a line as long as the ring can come back next to it
            for line in self._lines_from(start, ring_text, longest, least, movable=True):
                if not self._shift_fault(line, quadrant, region, present):
                    return True
        return False

    def shift_exists(self, quadrant: str, region: str | None) -> bool:
        """Whether `legal_shifts` finds any: a shorter shift than one longer than the grid."""
        return self.shorter_shift(len(self.slots) + 1, quadrant, region)

    def shift_problem(self, path: list[str], quadrant: str, region: str | None) -> tuple[str, str] | None:
        """The rule `path` breaks as a shift for the mission, and why (SG-3.5 to SG-3.8); None when it is one."""
        return self._problem(path, quadrant, region, self._present(quadrant, region), self._ring_text())

    def _problem(
        self, path: list[str], quadrant: str, region: str | None, present: tuple[bool, bool], ring_text: str | None
    ) -> tuple[str, str] | None:
        """`shift_problem`, with the grid surveyed (`_present`, `_ring_text`)."""
        if len(path) < 2 or len(set(path)) != len(path):
            return ("SG-3.5", "a shift lists at least two different places, the last one empty")
        if path not in self._lines_from(path[0], ring_text, len(path), len(path)):
            return ("SG-3.6", "a shift moves missions outward in one line, along the spoke then one way round the ring, up to the first empty place")
        return self._shift_fault(path, quadrant, region, present)

    def shift_refusal(self, path: list[str], place: str, name: str, quadrant: str, region: str | None) -> tuple[str, str] | None:
        """SG-3.5 to SG-3.9: why mission `name` may not be seeded on `place` by shifting the missions along
        `path`, or None when it may. The grid is surveyed once for every question."""
        (close, present), ring_text = self._survey(quadrant, region), self._ring_text()
        if self._empty_close(close):
            return ("SG-3.5", f"no shift is allowed while an empty place fits {name}, e.g. {self.empty_fits(quadrant, region)[0]}")
        if path[:1] != [place]:
            return ("SG-3.5", "a shift starts at the place the new mission takes")
        problem = self._problem(path, quadrant, region, present, ring_text)
        if problem is not None:
            return problem
        if self._shorter(len(path), quadrant, region, close, present, ring_text):
            fewest = len(self.legal_shifts(quadrant, region)[0]) - 1
            return ("SG-3.9", f"that shift moves {len(path) - 1} missions; {fewest} would do")
        return None

    def _shift_fault(
        self, path: list[str], quadrant: str, region: str | None, present: tuple[bool, bool]
    ) -> tuple[str, str] | None:
        """SG-3.7/3.8 for a path of the right shape: no regional mission moves, and the mission then fits."""
        slots = self.slots
        for slot in path[:-1]:
            loc = slots[slot]
            if loc is not None and loc.region is not None:
                return ("SG-3.7", f"{loc.name} on {slot} is in a region and may not be shifted")
        # what stands next to path[0] after the shift: a slot on the path holds the location one step back
        near = [slots[path[path.index(s) - 1]] if s in path else slots[s] for s in self._adjacency[path[0]]]
        if _fits(near, quadrant, region, present):
            return None
        return ("SG-3.8", "even after that shift the mission would not be next to its quadrant or region")

    def shift(self, path: list[str]) -> None:
        """Perform a checked shift: each location on path[:-1] one step along the path, leaving path[0] empty."""
        moved = [self.slots[s] for s in path[:-1]]
        for slot, loc in zip(path[1:], moved, strict=True):
            self.slots[slot] = loc
        self.slots[path[0]] = None

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
        where = {s: i for i, s in enumerate(ring)}
        suitable: list[str] | None = None  # the ring's locations that meet the criteria, once step 3 needs them
        found: set[str] = set()
        for entry in self.spoke_end(start):  # step 1
            if entry not in where:
                continue
            for opposite in self._opposites(ring, where[entry]):  # step 2
                if meets(opposite):
                    found.add(opposite)
                else:  # step 3
                    if suitable is None:
                        suitable = [s for s in ring if meets(s)]
                    found |= self._best(suitable, partial(_nearness, where, opposite))
        if found:
            return found
        return self._best([s for s in self.slots if not self.on_ring(s) and meets(s)], self._depth)  # step 4

    def _opposites(self, ring: list[str], i: int) -> set[str]:
        """SG-6.3 step 2: the location opposite `ring[i]` (the higher span of two on an odd ring)."""
        size = len(ring)
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

        ranks = list(map(rank, slots))
        top = max(ranks)
        return {s for s, r in zip(slots, ranks, strict=True) if r == top}

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


@cache
def _empty(spokes: int) -> Grid:
    """The empty grid of `spokes` spokes (SG-2.1), built once: Grid() copies it."""
    grid = Grid.__new__(Grid)
    grid.n = spokes
    grid.spokes = [[f"S{i}.1", f"S{i}.2", f"S{i}.3"] for i in range(1, spokes + 1)]
    grid.ring = [p for i in range(1, spokes + 1) for p in (f"S{i}.3", f"R{i}.1", f"R{i}.2", f"R{i}.3")]
    grid.slots = dict.fromkeys([CENTRE, *(p for s in grid.spokes for p in s), *grid.ring])
    grid.inserted = 0
    grid._rebuild()
    return grid


def _fits(near: list[Loc | None], quadrant: str, region: str | None, present: tuple[bool, bool]) -> bool:
    """SG-3.2 to SG-3.4 for a place whose neighbouring slots hold `near`, with `present` from `Grid._present`."""
    quadrant_here, region_here = present
    if not quadrant_here:
        return True
    near_quadrant = near_region = False
    for loc in near:
        if loc is not None:
            near_quadrant = near_quadrant or loc.quadrant == quadrant
            near_region = near_region or loc.region == region
    return near_quadrant and (not region_here or near_region)


def _nearness(where: dict[str, int], target: str, slot: str) -> int:
    """Minus the number of cards between `slot` and `target` on a ring whose cards stand at `where`, the shorter way round."""
    d = abs(where[slot] - where[target])
    return -min(d, len(where) - d)
