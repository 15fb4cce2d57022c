"""Swiss pairings for two-player games, as a minimum-cost perfect matching.

A round's pairing is the matching of least total cost, where every table and
the bye have a cost: the cost model is in costs.py.

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
   regions.py). Regions grow until the proof succeeds.
3. Exact: otherwise (small fields, or histories where no proof is found)
   the whole round is solved by the blossom algorithm on the complete graph,
   which is cubic in the field.

So the result is always a minimum-cost matching; only the time varies. The
blossom algorithm is networkx's `max_weight_matching` (blossom.py), imported
only when step 2 or 3 runs.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournament.formats.pairing import blossom, regions, repair
from tournament.formats.pairing.costs import Costs, Entrant, Pairing

__all__ = ["Costs", "Entrant", "Pairing", "pair_swiss"]


def pair_swiss(entrants: Sequence[Entrant], round_number: int, seed: int) -> Pairing:
    """Pair one Swiss round: the matching of least total cost under `Costs`.

    `entrants` are the players in this round (dropped players left out);
    `round_number` counts from 1, and in round 1 `rank` is not used. The same
    entrants, round and seed always give the same pairing.
    """
    costs = Costs.for_round(entrants, round_number, seed)
    # Sorted by points, best first; the random order inside each score group.
    seq = sorted(costs.entrants, key=lambda i: (-costs.entrants[i].points, costs.order[i]))
    blocks = repair.cheapest_ignoring_rematches(seq, costs)
    dirty = [
        b
        for b, (block, _) in enumerate(blocks)
        if len(block) != 1 and costs.table(seq[block[0]], seq[block[-1]]) >= costs.rematch
    ]
    found = (
        repair.repair_rematches(seq, blocks, dirty, costs)
        or regions.solve_regions(seq, blocks, dirty, costs)
        or blossom.exact(seq, costs)
    )
    tables, bye = found
    return _ordered(tables, bye, costs)


def _ordered(tables: list[tuple[str, str]], bye: str | None, costs: Costs) -> Pairing:
    """Best-placed tables first; at each table the better-placed player first."""
    entrants = costs.entrants

    def placing(i: str) -> tuple[int, int, int]:
        return (-entrants[i].points, entrants[i].rank, costs.order[i])

    seated = [(a, b) if placing(a) <= placing(b) else (b, a) for a, b in tables]
    seated.sort(key=lambda t: (placing(t[0]), placing(t[1])))
    return Pairing(tables=seated, bye=bye, cost=costs.total(tables, bye))
