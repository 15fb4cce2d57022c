"""The cheap matching, which ignores rematches, and its repair around each rematch.

Sorted by points, consecutive players meet; the bye goes where it and the
consecutive pairing of the others cost least. That matching's cost is a lower
bound, so a repair that removes its rematches at no extra cost (an exact
dynamic programme over a stretch of the sorted order, pairing nobody more than
WINDOW places apart) is optimal.
"""

from __future__ import annotations

from tournament.formats.pairing.costs import Costs

# How far apart (in the sorted order) a repair may pair two players.
WINDOW = 8
# How many of the cheap matching's tables, on each side of a rematch, a
# repair may re-pair (tried in turn).
REPAIR_REACHES = (4, 16)


# A block is a stretch of consecutive places in the sorted order, paired among
# itself by the cheap matching: a table (two places), the bye alone (one place),
# or the bye with the table around it (three places). Blocks tile the order.
Block = tuple[range, int]  # the places, and their cost in the cheap matching
Found = tuple[list[tuple[str, str]], str | None]  # the tables and the bye


def cheapest_ignoring_rematches(seq: list[str], costs: Costs) -> list[Block]:
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


def repair_rematches(
    seq: list[str], blocks: list[Block], dirty: list[int], costs: Costs
) -> Found | None:
    """Re-pair the stretches around each rematch (`dirty` blocks) at no extra cost, or None.

    Success means the matching costs exactly the lower bound, so it is optimal.
    """
    if not dirty:
        return block_tables(seq, blocks)
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
        tables_before, bye_before = block_tables(seq, blocks[done:lo])
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
    tables_after, bye_after = block_tables(seq, blocks[done:])
    return tables + tables_after, bye or bye_after


def block_tables(seq: list[str], blocks: list[Block]) -> Found:
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
