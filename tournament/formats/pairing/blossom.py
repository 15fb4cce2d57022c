"""Exact minimum-cost perfect matching by networkx's blossom algorithm, for regions and the whole field.

Cubic in the graph, so only the regions (regions.py) and, when no proof is
found, the whole round use it; networkx is imported only then.
"""

from __future__ import annotations

from tournament.formats.pairing.costs import Costs
from tournament.formats.pairing.repair import Found


def min_cost_matching(weights: dict[tuple[int, int], int]) -> list[tuple[int, int]]:
    """A minimum-cost perfect matching of the graph with these edge costs (i < j),
    by networkx's blossom algorithm: maximum weight BIG - cost among the largest
    matchings. Each edge comes back as (i, j) with i < j."""
    import networkx as nx  # only needed for the rounds the repair cannot settle

    top = max(weights.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((i, j, top - w) for (i, j), w in weights.items())
    return [(min(i, j), max(i, j)) for i, j in nx.max_weight_matching(graph, maxcardinality=True)]


def exact(seq: list[str], costs: Costs) -> Found:
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
    for i, j in min_cost_matching(weights):
        if j == n:
            bye = seq[i]
        else:
            tables.append((seq[i], seq[j]))
    return tables, bye
