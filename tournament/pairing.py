"""Swiss pairings for two-player games, as a minimum-cost perfect matching.

A round's pairing is the matching of least total cost, where every table and
the bye have a cost (`Costs`). With n entrants, match points p, the field's
lowest score p_min and its spread D = max p - min p:

    table(a, b) = REMATCH    * [a and b have met]     + SCALE * (p_a - p_b) ** 2
    bye(a)      = SECOND_BYE * [a has had a bye]      + SCALE * (p_a - p_min) ** 2 + below(a)

    SCALE      = n
    REMATCH    = SCALE * D**2 * (n // 2 + 1) + n
    SECOND_BYE = REMATCH * (n // 2 + 1)

`below(a)` counts the players of a's kind (had a bye, or not) placed below a:
by rank, and among equal ranks by the round's random order; in round 1 by
the random order alone, since there are no standings yet. So the bye goes to
the lowest-placed player who can take it. The weights make the cost
lexicographic, most important first:

1. a second bye: SECOND_BYE exceeds every other term of a matching put
   together, so nobody gets a second bye while someone else can take it;
2. rematches: REMATCH exceeds all score and placement terms together, so
   no rematch happens where any pairing avoids one;
3. pairing down: the squared score difference, so players meet their own
   score group where they can, and one player floating across two groups
   (3 points apart each: 36) costs more than two floating across one
   (9 + 9). The bye counts as an opponent on the lowest score, so it goes
   to the lowest group that can take it;
4. placement of the bye: `below(a)` is at most n - 1 < SCALE, so it only
   decides between matchings that pair down equally.

Round 1 and ties: players are sorted by points and, within a score group, in
a random order drawn from (seed, round_number), so equal-cost choices (who
meets whom inside a group, all of round 1) are random and reproducible.

How the minimum is found
------------------------
Ignoring rematches, the best matching is easy: sorted by points, consecutive
players meet (with a convex cost in the score difference, crossing or nested
pairs never help), and the bye goes where `bye(a)` plus the consecutive
pairing of the others is cheapest. Its cost is a lower bound for the real
problem, and the work is linear in the field. Then, in turn, until one
succeeds:

1. Repair: that matching usually contains a few rematches; each is re-paired
   by an exact dynamic programme over a short stretch of the sorted order
   around it (players at most `WINDOW` places apart may meet). If the result
   still costs exactly the lower bound, it is optimal. This settles most
   rounds of a real event.
2. Regions: when rematches force extra pairing down (small score groups,
   draws), each rematch gets a region bounded by cuts inside larger score
   groups; regions are solved exactly by a blossom algorithm and the whole
   is proved optimal by a lower bound that splits pairs at the cuts (see
   `_solve_regions`). Regions grow until the proof succeeds.
3. Exact: otherwise (small fields, or histories where no proof is found)
   the whole round is solved by the blossom algorithm on the complete graph,
   which is cubic in the field.

So the result is always a minimum-cost matching; only the time varies. The
blossom algorithm is networkx's `max_weight_matching`, imported only when
step 2 or 3 runs.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# How far apart (in the sorted order) a repair may pair two players.
WINDOW = 8
# How many of the cheap matching's tables, on each side of a rematch, a
# repair may re-pair (tried in turn).
REPAIR_REACHES = (4, 16)
# Regions (see `_solve_regions`): how many players of a cut's score group a
# region first keeps on its side of the cut (then twice as many, and so on),
# and how many partners it may take from the other side (an even number).
FIRST_MARGIN = 8
STUBS = 4


@dataclass(frozen=True)
class Entrant:
    id: str
    points: int  # match points so far
    rank: int  # 1 = best in the current standings; the bye goes to the worst-ranked eligible player
    had_bye: bool
    opponents: frozenset[str]  # everyone this player has met


@dataclass(frozen=True)
class Pairing:
    tables: list[tuple[str, str]]  # table 1, 2, ... in order (best-placed tables first)
    bye: str | None
    cost: int = 0  # the matching's total cost under `Costs` (for the bench and tests)


@dataclass(frozen=True)
class Costs:
    """The cost of every possible table and of the bye in one round (see the module docstring)."""

    entrants: Mapping[str, Entrant]
    scale: int
    rematch: int
    second_bye: int
    lowest_points: int
    below: Mapping[str, int]
    order: Mapping[str, int]  # each player's place in the round's random order

    @classmethod
    def for_round(cls, entrants: Sequence[Entrant], round_number: int, seed: int) -> Costs:
        by_id = {e.id: e for e in entrants}
        if len(by_id) != len(entrants):
            raise ValueError("entrant ids must be unique")
        n = len(entrants)
        points = [e.points for e in entrants] or [0]
        scale = n
        rematch = scale * (max(points) - min(points)) ** 2 * (n // 2 + 1) + n
        order = _random_order(by_id, round_number, seed)
        # Best placed first: by rank, then the random order; in round 1 there is no rank yet.
        placed = sorted(
            by_id,
            key=lambda i: (by_id[i].rank if round_number > 1 else 0, order[i]),
        )
        below: dict[str, int] = {}
        for had_bye in (False, True):
            kind = [i for i in placed if by_id[i].had_bye == had_bye]
            below.update({i: len(kind) - 1 - k for k, i in enumerate(kind)})
        return cls(
            entrants=by_id,
            scale=scale,
            rematch=rematch,
            second_bye=rematch * (n // 2 + 1),
            lowest_points=min(points),
            below=below,
            order=order,
        )

    def table(self, a: str, b: str) -> int:
        ea, eb = self.entrants[a], self.entrants[b]
        met = b in ea.opponents or a in eb.opponents
        return self.rematch * met + self.scale * (ea.points - eb.points) ** 2

    def bye(self, a: str) -> int:
        e = self.entrants[a]
        return (
            self.second_bye * e.had_bye
            + self.scale * (e.points - self.lowest_points) ** 2
            + self.below[a]
        )

    def total(self, tables: Sequence[tuple[str, str]], bye: str | None) -> int:
        return sum(self.table(a, b) for a, b in tables) + (self.bye(bye) if bye is not None else 0)


def pair_swiss(entrants: Sequence[Entrant], round_number: int, seed: int) -> Pairing:
    """Pair one Swiss round: the matching of least total cost under `Costs`.

    `entrants` are the players in this round (dropped players left out);
    `round_number` counts from 1, and in round 1 `rank` is not used. The same
    entrants, round and seed always give the same pairing.
    """
    costs = Costs.for_round(entrants, round_number, seed)
    # Sorted by points, best first; the random order inside each score group.
    seq = sorted(costs.entrants, key=lambda i: (-costs.entrants[i].points, costs.order[i]))
    blocks = _cheapest_ignoring_rematches(seq, costs)
    dirty = [
        b
        for b, (block, _) in enumerate(blocks)
        if len(block) != 1 and costs.table(seq[block[0]], seq[block[-1]]) >= costs.rematch
    ]
    found = (
        _repair_rematches(seq, blocks, dirty, costs)
        or _solve_regions(seq, blocks, dirty, costs)
        or _exact(seq, costs)
    )
    tables, bye = found
    return _ordered(tables, bye, costs)


def _random_order(by_id: Mapping[str, Entrant], round_number: int, seed: int) -> dict[str, int]:
    """Each player's place in the round's random order, reproducible from (seed, round)."""
    ids = sorted(by_id)
    random.Random(f"swiss:{seed}:{round_number}").shuffle(ids)
    return {i: k for k, i in enumerate(ids)}


# A block is a stretch of consecutive places in the sorted order, paired among
# itself by the cheap matching: a table (two places), the bye alone (one place),
# or the bye with the table around it (three places). Blocks tile the order.
Block = tuple[range, int]  # the places, and their cost in the cheap matching
Found = tuple[list[tuple[str, str]], str | None]  # the tables and the bye


def _cheapest_ignoring_rematches(seq: list[str], costs: Costs) -> list[Block]:
    """The best matching when rematches cost nothing, as blocks over the sorted order."""
    n = len(seq)

    def score(i: int, j: int) -> int:
        pi, pj = costs.entrants[seq[i]].points, costs.entrants[seq[j]].points
        return costs.scale * (pi - pj) ** 2

    if n % 2 == 0:
        return [(range(i, i + 2), score(i, i + 1)) for i in range(0, n, 2)]
    # Consecutive pairing costs of every even-length prefix and suffix.
    prefix = [0] * (n + 1)
    for i in range(2, n + 1, 2):
        prefix[i] = prefix[i - 2] + score(i - 2, i - 1)
    suffix = [0] * (n + 2)
    for i in range(n - 2, -1, -2):
        suffix[i] = suffix[i + 2] + score(i, i + 1)
    # The bye at place k: at an even k the others pair off on either side; at an
    # odd k the table around it joins k-1 and k+1.
    best_k, best = 0, None
    for k in range(n):
        if k % 2 == 0:
            total = prefix[k] + costs.bye(seq[k]) + suffix[k + 1]
        else:
            total = prefix[k - 1] + score(k - 1, k + 1) + costs.bye(seq[k]) + suffix[k + 2]
        if best is None or total < best:
            best_k, best = k, total
    k = best_k
    start = k if k % 2 == 0 else k - 1
    middle = range(start, k + 1) if k % 2 == 0 else range(k - 1, k + 2)
    middle_cost = costs.bye(seq[k]) + (score(k - 1, k + 1) if k % 2 else 0)
    return (
        [(range(i, i + 2), score(i, i + 1)) for i in range(0, start, 2)]
        + [(middle, middle_cost)]
        + [(range(i, i + 2), score(i, i + 1)) for i in range(middle.stop, n, 2)]
    )


def _repair_rematches(
    seq: list[str], blocks: list[Block], dirty: list[int], costs: Costs
) -> Found | None:
    """Re-pair the stretches around each rematch (`dirty` blocks) at no extra cost, or None.

    Success means the matching costs exactly the lower bound, so it is optimal.
    """
    if not dirty:
        return _block_tables(seq, blocks)
    for reach in REPAIR_REACHES:
        repaired = _repair(seq, blocks, dirty, reach, costs)
        if repaired is not None:
            return repaired
    return None


def _repair(
    seq: list[str], blocks: list[Block], dirty: list[int], reach: int, costs: Costs
) -> Found | None:
    """Re-pair the blocks within `reach` of each dirty block; None if one stretch costs more."""
    # Stretches of blocks [lo, hi), merged where they touch.
    stretches: list[list[int]] = []
    for b in dirty:
        lo, hi = max(0, b - reach), min(len(blocks), b + reach + 1)
        if stretches and lo <= stretches[-1][1]:
            stretches[-1][1] = hi
        else:
            stretches.append([lo, hi])
    tables: list[tuple[str, str]] = []
    bye = None
    done = 0
    for lo, hi in stretches:
        tables_before, bye_before = _block_tables(seq, blocks[done:lo])
        tables += tables_before
        bye = bye or bye_before
        part = blocks[lo:hi]
        places = range(part[0][0].start, part[-1][0].stop)
        solved = _band_dp(
            [seq[i] for i in places],
            with_bye=any(len(block) % 2 for block, _ in part),
            costs=costs,
        )
        if solved is None or solved[0] > sum(cost for _, cost in part):
            return None
        tables += solved[1]
        bye = bye or solved[2]
        done = hi
    tables_after, bye_after = _block_tables(seq, blocks[done:])
    return tables + tables_after, bye or bye_after


def _block_tables(seq: list[str], blocks: list[Block]) -> Found:
    """The tables and bye of the cheap matching in these blocks."""
    tables = []
    bye = None
    for block, _ in blocks:
        if len(block) == 2:
            tables.append((seq[block[0]], seq[block[1]]))
        else:
            bye = seq[block[len(block) // 2]]
            if len(block) == 3:
                tables.append((seq[block[0]], seq[block[2]]))
    return tables, bye


def _solve_regions(
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
    """The matching of `_solve_regions` for these regions, if it meets the lower bound."""
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
    rest_tables, rest_bye = _block_tables(
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
    """The sum of the pieces' bounds, for the best piece to hold the bye (see `_solve_regions`).

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
    for i, j in _min_cost_matching(weights):
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
    matching = _min_cost_matching(weights)
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


def _min_cost_matching(weights: dict[tuple[int, int], int]) -> list[tuple[int, int]]:
    """A minimum-cost perfect matching of the graph with these edge costs (i < j),
    by networkx's blossom algorithm: maximum weight BIG - cost among the largest
    matchings. Each edge comes back as (i, j) with i < j."""
    import networkx as nx  # only needed for the rounds the repair cannot settle

    top = max(weights.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((i, j, top - w) for (i, j), w in weights.items())
    return [(min(i, j), max(i, j)) for i, j in nx.max_weight_matching(graph, maxcardinality=True)]


_State = tuple[tuple[int, ...], bool]  # (the places still waiting, whether the bye is taken)
_WAIT, _TAKE_BYE = -1, -2  # what a place did, besides meeting a waiting place


def _band_dp(
    players: list[str], with_bye: bool, costs: Costs
) -> tuple[int, list[tuple[str, str]], str | None] | None:
    """The cheapest matching of `players` (in order) that pairs nobody more than WINDOW apart.

    Exact for that restriction: a dynamic programme over the places, whose state
    is the set of earlier players still waiting for an opponent (all within
    WINDOW places) and whether the bye is taken. None if no such matching exists.
    """
    n = len(players)
    layer: dict[_State, int] = {((), False): 0}
    # For each place t: state -> (the state before, and what t did: met the
    # waiting place `how`, or _WAIT, or _TAKE_BYE).
    history: list[dict[_State, tuple[_State, int]]] = []
    for t in range(n):
        nxt: dict[_State, int] = {}
        back: dict[_State, tuple[_State, int]] = {}
        for state, cost in layer.items():
            for new, extra, how in _moves(state, t, n, with_bye, players, costs):
                if new not in nxt or cost + extra < nxt[new]:
                    nxt[new] = cost + extra
                    back[new] = (state, how)
        layer = nxt
        history.append(back)
    final = ((), with_bye)
    if final not in layer:
        return None
    tables: list[tuple[str, str]] = []
    bye = None
    state = final
    for t in range(n - 1, -1, -1):
        state, how = history[t][state]
        if how == _TAKE_BYE:
            bye = players[t]
        elif how >= 0:
            tables.append((players[how], players[t]))
    return layer[final], tables[::-1], bye


def _moves(
    state: _State, t: int, n: int, with_bye: bool, players: list[str], costs: Costs
) -> list[tuple[_State, int, int]]:
    """What place t can do from `state`: (the new state, its cost, what t did)."""
    waiting, used = state
    oldest_allowed = t + 1 - WINDOW
    moves = []
    for k, o in enumerate(waiting):
        rest = waiting[:k] + waiting[k + 1 :]
        if not rest or rest[0] >= oldest_allowed:
            moves.append(((rest, used), costs.table(players[o], players[t]), o))
    if waiting and waiting[0] < oldest_allowed:
        return moves  # the oldest waiting player has no one else left to meet
    if len(waiting) < n - 1 - t:
        moves.append((((*waiting, t), used), 0, _WAIT))
    if with_bye and not used:
        moves.append(((waiting, True), costs.bye(players[t]), _TAKE_BYE))
    return moves


def _exact(seq: list[str], costs: Costs) -> Found:
    """The minimum-cost matching of the whole field on the complete graph."""
    # Nodes are places in `seq`; with an odd field, place n stands for the bye.
    n = len(seq)
    weights = {
        (i, j): costs.table(seq[i], seq[j]) if j < n else costs.bye(seq[i])
        for i in range(n)
        for j in range(i + 1, n + n % 2)
    }
    tables: list[tuple[str, str]] = []
    bye = None
    for i, j in _min_cost_matching(weights):
        if j == n:
            bye = seq[i]
        else:
            tables.append((seq[i], seq[j]))
    return tables, bye


def _ordered(tables: list[tuple[str, str]], bye: str | None, costs: Costs) -> Pairing:
    """Best-placed tables first; at each table the better-placed player first."""
    entrants = costs.entrants

    def placing(i: str) -> tuple[int, int, int]:
        return (-entrants[i].points, entrants[i].rank, costs.order[i])

    seated = [(a, b) if placing(a) <= placing(b) else (b, a) for a, b in tables]
    seated.sort(key=lambda t: (placing(t[0]), placing(t[1])))
    return Pairing(tables=seated, bye=bye, cost=costs.total(tables, bye))
