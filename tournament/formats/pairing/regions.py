"""Regions: the rematches that force pairing down, solved exactly, and the lower bound that proves the whole optimal.

Each rematch gets a region of the sorted order bounded by cuts inside larger
score groups; a region is solved by the blossom algorithm (blossom.py), the
rest keeps the cheap matching (repair.py), and a lower bound that splits the
pairs crossing each cut shows that the result costs no more than any other
matching (see `solve_regions`).
"""

from __future__ import annotations

import itertools

from tournament.formats.pairing.blossom import min_cost_matching
from tournament.formats.pairing.costs import Costs
from tournament.formats.pairing.repair import Block, Found, block_tables

# How many players of a cut's score group a region first keeps on its side of
# the cut (then twice as many, and so on), and how many partners it may take
# from the other side (an even number).
FIRST_MARGIN = 8
STUBS = 4


def solve_regions(
    seq: list[str], blocks: list[Block], dirty: list[int], costs: Costs
) -> Found | None:
    """Solve exactly the regions around the rematches and prove the whole optimal, or None.

    When rematches force extra pairing down, the cheap matching's cost is no
    longer a tight bound. Then each rematch gets a region: a stretch of blocks
    from a cut above it to a cut below it, each cut lying inside a score group
    (value g) with players of that group on both sides. A region is solved
    exactly (blossom), where its players may also meet "stubs": players of
    the cut's group just outside the region, at cost SCALE * (p - g)**2. The
    outside blocks that lend them are (g, g) tables of cost 0, so they are
    simply split up. This gives a matching; its optimality is proved by a
    lower bound. For a pair crossing cuts, x above and y below, x >= g >= y,
    so (x - y)**2 >= (x - g)**2 + (g - y)**2: cutting every such pair into two
    "absorptions" at the cut values never costs more. So the sum over the
    pieces between cuts of their cheapest matching, where any player may
    instead be absorbed at a neighbouring cut, bounds every matching from
    below (exactly computed for regions, ignoring rematches for the rest;
    `_lower_bound` adds the parity of the crossings at each cut). If the
    matching meets the bound it is optimal; if not, the regions grow, and
    None once a region would be the whole field.
    """
    points = [costs.entrants[i].points for i in seq]
    margin = FIRST_MARGIN
    while margin < len(seq):
        regions = _regions(points, blocks, dirty, margin)
        if regions != [(0, len(blocks))]:
            found = _certified(seq, points, blocks, regions, costs)
            if found is not None:
                return found
        margin *= 2
    return None


def _regions(
    points: list[int], blocks: list[Block], dirty: list[int], margin: int
) -> list[tuple[int, int]]:
    """Block ranges [lo, hi) around the dirty blocks, each bounded by cuts or the ends."""
    n = len(points)
    # Where each place's run of equal points starts and stops.
    run_start, run_stop = list(range(n)), list(range(1, n + 1))
    for i in range(1, n):
        if points[i] == points[i - 1]:
            run_start[i] = run_start[i - 1]
    for i in range(n - 2, -1, -1):
        if points[i] == points[i + 1]:
            run_stop[i] = run_stop[i + 1]

    def lends(b: int, step: int, group: int) -> bool:
        """Whether the STUBS // 2 blocks from b on (by step) are tables within `group`."""
        for k in range(STUBS // 2):
            c = b + k * step
            if not 0 <= c < len(blocks) or len(blocks[c][0]) != 2:
                return False
            if any(points[i] != group for i in blocks[c][0]):
                return False
        return True

    def cut_above(b: int) -> int:
        while b > 0:
            start = blocks[b][0].start
            if run_stop[start] - start >= margin and lends(b - 1, -1, points[start]):
                return b
            b -= 1
        return 0

    def cut_below(b: int) -> int:
        while b < len(blocks):
            start = blocks[b][0].start
            if start - run_start[start] >= margin and lends(b, 1, points[start]):
                return b
            b += 1
        return len(blocks)

    regions: list[tuple[int, int]] = []
    for d in dirty:
        lo, hi = cut_above(d), cut_below(d + 1)
        # Neighbours too close to lend stubs to both are one region.
        if regions and lo - regions[-1][1] < STUBS:
            lo = regions.pop()[0]
        regions.append((lo, hi))
    return regions


def _certified(
    seq: list[str],
    points: list[int],
    blocks: list[Block],
    regions: list[tuple[int, int]],
    costs: Costs,
) -> Found | None:
    """The matching of `solve_regions` for these regions, if it meets the lower bound."""
    # The pieces between cuts, in order: (first block, end block, is a region).
    pieces: list[tuple[int, int, bool]] = []
    done = 0
    for lo, hi in regions:
        if done < lo:
            pieces.append((done, lo, False))
        pieces.append((lo, hi, True))
        done = hi
    if done < len(blocks):
        pieces.append((done, len(blocks), False))
    tables: list[tuple[str, str]] = []
    bye = None
    lent: set[int] = set()  # blocks outside the regions split up to serve as stubs
    for lo, hi, is_region in pieces:
        if not is_region:
            continue
        upper, lower = _cut_values(points, blocks, lo, hi)
        players = [seq[i] for b in range(lo, hi) for i in blocks[b][0]]
        region_tables, region_bye, stub_users = _solve_region(
            players, len(players) % 2 == 1, upper, lower, costs
        )
        tables += region_tables
        bye = bye or region_bye
        for users, lenders in (
            (stub_users[0], [lo - 1 - k for k in range(STUBS // 2)]),
            (stub_users[1], [hi + k for k in range(STUBS // 2)]),
        ):
            if not users:
                continue
            pairs = [(seq[blocks[b][0][0]], seq[blocks[b][0][1]]) for b in lenders]
            borrowed = _borrow(users, pairs, costs)
            if borrowed is None:
                return None
            tables += borrowed[0]
            lent.update(lenders[k] for k in borrowed[1])
    rest_tables, rest_bye = block_tables(
        seq,
        [blocks[b] for lo, hi, is_region in pieces if not is_region for b in range(lo, hi) if b not in lent],
    )
    tables += rest_tables
    bye = bye or rest_bye
    bound = _lower_bound(seq, points, blocks, pieces, costs)
    if bound is None or costs.total(tables, bye) != bound:
        return None
    return tables, bye


def _cut_values(
    points: list[int], blocks: list[Block], lo: int, hi: int
) -> tuple[int | None, int | None]:
    """The score groups of the cuts above and below blocks [lo, hi); None at the ends."""
    upper = points[blocks[lo][0].start] if lo > 0 else None
    lower = points[blocks[hi][0].start] if hi < len(blocks) else None
    return upper, lower


def _lower_bound(
    seq: list[str],
    points: list[int],
    blocks: list[Block],
    pieces: list[tuple[int, int, bool]],
    costs: Costs,
) -> int | None:
    """The sum of the pieces' bounds, for the best piece to hold the bye (see `solve_regions`).

    How many pairs cross a cut is even or odd as the number of players above
    it, not counting the bye: the pieces' bounds respect that. The cuts lie
    between blocks of the cheap matching, so that number is even unless the
    bye sits on the other side of the cut than in the cheap matching. A pair
    that passes right through a piece counts at both of its cuts, and costs
    at least SCALE * (upper - lower)**2 there.
    """
    cheap_bye = next(
        (k for k, (lo, hi, _) in enumerate(pieces) if any(len(blocks[b][0]) % 2 for b in range(lo, hi))),
        None,
    )

    known: dict[tuple[int, bool, tuple[int, int]], int | None] = {}

    def piece_bound(k: int, bye_piece: int | None) -> int | None:
        # A cut's crossings are odd where exactly one of the two byes is above it.
        odd_above = (cheap_bye is not None and cheap_bye < k) != (
            bye_piece is not None and bye_piece < k
        )
        odd_below = (cheap_bye is not None and cheap_bye <= k) != (
            bye_piece is not None and bye_piece <= k
        )
        key = (k, bye_piece == k, (int(odd_above), int(odd_below)))
        if key not in known:
            lo, hi, is_region = pieces[k]
            upper, lower = _cut_values(points, blocks, lo, hi)
            players = [seq[i] for b in range(lo, hi) for i in blocks[b][0]]
            relaxed = _relaxed_region if is_region else _relaxed_line
            options = [relaxed(players, key[1], upper, lower, key[2], costs)]
            if upper is not None and lower is not None:
                # A pair passing right through the piece crosses both cuts.
                flipped = (1 - key[2][0], 1 - key[2][1])
                through = relaxed(players, key[1], upper, lower, flipped, costs)
                if through is not None:
                    options.append(through + costs.scale * (upper - lower) ** 2)
            known[key] = min((o for o in options if o is not None), default=None)
        return known[key]

    candidates = range(len(pieces)) if len(seq) % 2 else [None]
    best = None
    for bye_piece in candidates:
        parts = [piece_bound(k, bye_piece) for k in range(len(pieces))]
        if all(part is not None for part in parts):
            total = sum(part for part in parts if part is not None)
            best = total if best is None else min(best, total)
    return best


def _borrow(
    users: list[str], lenders: list[tuple[str, str]], costs: Costs
) -> tuple[list[tuple[str, str]], tuple[int, ...]] | None:
    """Partners for the players who met stubs: both players of some lender tables,
    none of them a rematch. The tables, and which lenders were split; None if impossible."""
    for chosen in itertools.combinations(range(len(lenders)), len(users) // 2):
        partners = [p for k in chosen for p in lenders[k]]
        for order in itertools.permutations(partners):
            tables = list(zip(users, order, strict=True))
            if all(costs.table(a, b) < costs.rematch for a, b in tables):
                return tables, chosen
    return None


def _solve_region(
    players: list[str], with_bye: bool, upper: int | None, lower: int | None, costs: Costs
) -> tuple[list[tuple[str, str]], str | None, tuple[list[str], list[str]]]:
    """A region's cheapest matching with stubs: its tables, its bye, and who met the
    stubs above and below."""
    m = len(players)
    points = [costs.entrants[p].points for p in players]
    weights = {(i, j): costs.table(players[i], players[j]) for i in range(m) for j in range(i + 1, m)}
    side: dict[int, int] = {}  # stub node -> 0 above the region, 1 below
    for k, g in enumerate((upper, lower)):
        if g is not None:
            first = m + len(side)
            nodes = range(first, first + STUBS)
            side.update(dict.fromkeys(nodes, k))
            weights.update({(i, s): costs.scale * (points[i] - g) ** 2 for i in range(m) for s in nodes})
            weights.update({(s, t): 0 for s in nodes for t in nodes if s < t})
    bye_node = m + len(side)
    if with_bye:
        weights.update({(i, bye_node): costs.bye(players[i]) for i in range(m)})
    tables: list[tuple[str, str]] = []
    bye = None
    met_stub: tuple[list[str], list[str]] = ([], [])
    for i, j in min_cost_matching(weights):
        if j < m:
            tables.append((players[i], players[j]))
        elif j == bye_node and with_bye:
            bye = players[i]
        elif i < m:
            met_stub[side[j]].append(players[i])
    return tables, bye, met_stub


def _relaxed_region(
    players: list[str],
    with_bye: bool,
    upper: int | None,
    lower: int | None,
    parities: tuple[int, int],
    costs: Costs,
) -> int | None:
    """A region's bound: its cheapest matching where players may instead be absorbed at
    the cuts, as many at each cut as its parity allows (None if impossible)."""
    m = len(players)
    points = [costs.entrants[p].points for p in players]
    weights = {(i, j): costs.table(players[i], players[j]) for i in range(m) for j in range(i + 1, m)}
    # Two players absorbed at the same cut who have not met could meet instead
    # for no more, so some best solution absorbs at each cut only players who
    # have all met each other: at most one more than anyone's rematch count.
    met = [0] * m
    for (i, j), w in weights.items():
        if w >= costs.rematch:
            met[i] += 1
            met[j] += 1
    most = min(m, 1 + max(met, default=0))
    nodes = m
    for g, parity in zip((upper, lower), parities, strict=True):
        if g is None:
            if parity:
                return None
            continue
        # A pool of absorbers for this cut; the unused ones pair off at no cost,
        # so the pool's size fixes the parity of the used ones.
        pool = range(nodes, nodes + most + (most % 2 != parity))
        weights.update({(i, a): costs.scale * (points[i] - g) ** 2 for i in range(m) for a in pool})
        weights.update({(a, b): 0 for a in pool for b in pool if a < b})
        nodes = pool.stop
    if with_bye:
        weights.update({(i, nodes): costs.bye(players[i]) for i in range(m)})
        nodes += 1
    matching = min_cost_matching(weights)
    if 2 * len(matching) != nodes:
        return None
    return sum(weights[edge] for edge in matching)


def _relaxed_line(
    players: list[str],
    with_bye: bool,
    upper: int | None,
    lower: int | None,
    parities: tuple[int, int],
    costs: Costs,
) -> int | None:
    """A piece's bound ignoring rematches: its cheapest matching where players may instead
    be absorbed at the cuts, as many at each cut as its parity allows (None if impossible).

    Without rematches the players who meet each other pair off consecutively
    in the sorted order, so a dynamic programme only needs to know the points
    of the one player waiting for an opponent, if any, whether the bye is
    taken, and the parities of the absorptions so far.
    """
    State = tuple[int | None, bool, int, int]
    layer: dict[State, int] = {(None, False, 0, 0): 0}
    for player in players:
        p = costs.entrants[player].points
        nxt: dict[State, int] = {}
        for (waiting, used, up, down), cost in layer.items():
            moves: list[tuple[State, int]] = []
            if waiting is None:
                moves.append(((p, used, up, down), cost))
            else:
                moves.append(((None, used, up, down), cost + costs.scale * (waiting - p) ** 2))
            if upper is not None:
                moves.append(((waiting, used, 1 - up, down), cost + costs.scale * (p - upper) ** 2))
            if lower is not None:
                moves.append(((waiting, used, up, 1 - down), cost + costs.scale * (p - lower) ** 2))
            if with_bye and not used:
                moves.append(((waiting, True, up, down), cost + costs.bye(player)))
            for state, c in moves:
                if state not in nxt or c < nxt[state]:
                    nxt[state] = c
        layer = nxt
    return layer.get((None, with_bye, *parities))
