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
problem. That matching usually contains a few rematches; each is repaired by
an exact dynamic programme over a short stretch of the sorted order around
it, which may re-pair any players at most `WINDOW` places apart. If the
repaired matching still costs exactly the lower bound, it is optimal, and
this covers almost every round of a real event, in time linear in the field.
When a repair cannot reach the bound (rematches or floats forced in small
groups), the matching is solved exactly instead, by networkx's blossom
algorithm on the complete graph; that fallback is slower (cubic), and it is
the only use of networkx here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# How far apart (in the sorted order) a repair may pair two players.
WINDOW = 8
# How many of the cheap matching's tables, on each side of a rematch, a
# repair may re-pair; it doubles until the repair succeeds or covers all.
FIRST_REACH = 4


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
        return sum(self.table(a, b) for a, b in tables) + (self.bye(bye) if bye else 0)


def pair_swiss(entrants: Sequence[Entrant], round_number: int, seed: int) -> Pairing:
    """Pair one Swiss round: the matching of least total cost under `Costs`."""
    costs = Costs.for_round(entrants, round_number, seed)
    order = _random_order(costs.entrants, round_number, seed)
    # Sorted by points, best first; the random order inside each score group.
    seq = sorted(costs.entrants, key=lambda i: (-costs.entrants[i].points, order[i]))
    blocks = _cheapest_ignoring_rematches(seq, costs)
    found = _repair_rematches(seq, blocks, costs)
    if found is None:
        found = _exact(seq, costs)
    tables, bye = found
    return _ordered(tables, bye, costs, order)


def _random_order(by_id: Mapping[str, Entrant], round_number: int, seed: int) -> dict[str, int]:
    """Each player's place in the round's random order, reproducible from (seed, round)."""
    ids = sorted(by_id)
    random.Random(f"swiss:{seed}:{round_number}").shuffle(ids)
    return {i: k for k, i in enumerate(ids)}


# A block is a stretch of consecutive places in the sorted order, paired among
# itself by the cheap matching: a table (two places), the bye alone (one place),
# or the bye with the table around it (three places). Blocks tile the order.
Block = tuple[range, int]  # the places, and their cost in the cheap matching


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
    seq: list[str], blocks: list[Block], costs: Costs
) -> tuple[list[tuple[str, str]], str | None] | None:
    """Re-pair the stretches around each rematch at no extra cost, or None if that fails.

    Success means the matching costs exactly the lower bound, so it is optimal.
    """
    dirty = [
        b
        for b, (block, _) in enumerate(blocks)
        if len(block) != 1 and costs.table(seq[block[0]], seq[block[-1]]) >= costs.rematch
    ]
    if not dirty:
        return _block_tables(seq, blocks)
    reach = FIRST_REACH
    while True:
        repaired = _repair(seq, blocks, dirty, reach, costs)
        if repaired is not None:
            return repaired
        if reach >= len(blocks):
            return None
        reach *= 2


def _repair(
    seq: list[str], blocks: list[Block], dirty: list[int], reach: int, costs: Costs
) -> tuple[list[tuple[str, str]], str | None] | None:
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


def _block_tables(seq: list[str], blocks: list[Block]) -> tuple[list[tuple[str, str]], str | None]:
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


def _exact(seq: list[str], costs: Costs) -> tuple[list[tuple[str, str]], str | None]:
    """The minimum-cost matching by a general blossom algorithm (networkx), on the complete graph."""
    import networkx as nx  # only needed for the rare rounds the repair cannot certify

    # Nodes are places in `seq`; with an odd field, place n stands for the bye.
    n = len(seq)
    weights = {
        (i, j): costs.table(seq[i], seq[j]) if j < n else costs.bye(seq[i])
        for i in range(n)
        for j in range(i + 1, n + n % 2)
    }
    top = max(weights.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((i, j, top - w) for (i, j), w in weights.items())
    tables: list[tuple[str, str]] = []
    bye = None
    for i, j in nx.max_weight_matching(graph, maxcardinality=True):
        i, j = min(i, j), max(i, j)
        if j == n:
            bye = seq[i]
        else:
            tables.append((seq[i], seq[j]))
    return tables, bye


def _ordered(
    tables: list[tuple[str, str]], bye: str | None, costs: Costs, order: Mapping[str, int]
) -> Pairing:
    """Best-placed tables first; at each table the better-placed player first."""
    entrants = costs.entrants

    def placing(i: str) -> tuple[int, int, int]:
        return (-entrants[i].points, entrants[i].rank, order[i])

    seated = [tuple(sorted(t, key=placing)) for t in tables]
    seated.sort(key=lambda t: (placing(t[0]), placing(t[1])))
    return Pairing(
        tables=[(a, b) for a, b in seated],
        bye=bye,
        cost=costs.total(tables, bye),
    )
