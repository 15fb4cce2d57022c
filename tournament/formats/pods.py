"""Swiss pods for games of three to six players a table: table sizes, grouping, seats, points, standings.

Pure functions; the service feeds them the event's history and stores what
they return.

A round (`pair_pods`)
---------------------
1. Byes first, and only when the field cannot be seated (`table_sizes`): to
   the lowest-placed players who have not had one, as in Swiss.
2. Table sizes: as many full tables as possible, the rest one seat short
   (four players a table: 13 players are a 4 and three 3s), so nobody sits
   out when tables of one less can take everyone. Fields too small for that
   (5 players at tables of 4) leave the remainder out with a bye.
3. Grouping: players in order of points, and in a score group in the round's
   random order (from the event seed and the round). Tables are filled from
   the top: each takes the best-placed player left, then the next players in
   that order who have met nobody already at the table; when nobody left
   fits, the earliest one who has met the fewest (looking `LOOKAHEAD` players
   ahead). Then a local search swaps players between tables (up to `NEARBY`
   tables apart) while a swap lowers the number of repeat meetings
   (and, among equal repeats, does not spread scores further), and then a
   seeded random search of `SEARCH_STEPS` swaps that keep or lower the
   repeats keeps the grouping with the fewest it meets. It is a heuristic,
   not a proof of the minimum (the tests compare it with brute force on
   small fields, where it finds the fewest every time); the round's
   `repeats` count is stored with it.
4. Seats (T-12), without adding a repeat or moving anyone to a table of other
   points: up to 64 players, CP-SAT regroups players with the same points
   for the least seat cost (`podsolver.fewest_misfits`); then swaps of
   players with the same points while one lowers it; then each table takes
   its seat order of least seat cost. The seat cost: players not in a
   position they have had least, then by how many rounds (`_Costs.seats`).

Points (`Points`)
-----------------
By place in the referee's result (1 = best; equal places share): a sole
winner scores `win` (default 3), a shared first place `shared` (default 1),
place k > 1 scores `places[k - 2]` (default 0). A bye scores a win.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from tournament.formats import podsolver
from tournament.formats.standings import Standing

MIN_TABLE, MAX_TABLE = 3, 6
SWAP_PASSES = 4  # local-search sweeps over the tables; each sweep only ever lowers the cost
# How far the search looks, so a round of 10,000 stays fast: the next players in order a table may take,
# and the tables on each side a table with a repeat may swap with (further ones hold other score groups).
LOOKAHEAD = 64
NEARBY = 8
SEARCH_STEPS = 5_000  # random sideways swaps tried after the local search, when repeats remain
# Seats last: swaps of players with the same points up to SEAT_NEARBY tables apart (every pair of tables in fields
# up to 4 * SEAT_NEARBY players), for at most SEAT_PASSES sweeps (a bound for huge fields; fewer reach a fixed point).
SEAT_NEARBY = 16
SEAT_PASSES = 20


@dataclass(frozen=True)
class Points:
    win: int = 3
    shared: int = 1
    places: tuple[int, ...] = ()  # place 2, 3, ...

    @classmethod
    def parse(cls, text: str) -> Points:
        """`3,1` or `4,2,2,1,0`: a sole win, a shared win, then place 2, 3, ...; ValueError otherwise."""
        parts = [p.strip() for p in text.split(",")]
        if len(parts) < 2 or not all(re.fullmatch(r"\d{1,9}", p) for p in parts):
            raise ValueError(f"--points {text!r}: give whole numbers: sole win, shared win[, 2nd, 3rd...], like 3,1")
        win, shared, *rest = (int(p) for p in parts)
        return cls(win, shared, tuple(rest))

    def text(self) -> str:
        return ",".join(str(p) for p in (self.win, self.shared, *self.places))

    def scored(self, placements: Mapping[str, int]) -> dict[str, int]:
        """Each player's points for one game."""
        firsts = sum(1 for place in placements.values() if place == 1)
        return {
            player: (self.win if firsts == 1 else self.shared) if place == 1
            else self.places[place - 2] if place - 2 < len(self.places) else 0
            for player, place in placements.items()
        }


def table_sizes(players: int, size: int) -> tuple[list[int], int]:
    """Table sizes (largest first) and how many players get a bye, for `players` at tables of `size`."""
    for short in range(size):
        full = players - short * (size - 1)
        if full >= 0 and full % size == 0:
            return [size] * (full // size) + [size - 1] * short, 0
    return [size] * (players // size), players % size


@dataclass(frozen=True)
class PodEntrant:
    id: str
    points: int
    rank: int  # 1 = best in the current standings
    had_bye: bool
    opponents: frozenset[str]  # everyone this player has shared a table with
    seats: tuple[int, ...] = ()  # rounds this player sat in each position, first to last (`position`)


@dataclass(frozen=True)
class PodPairing:
    tables: list[list[str]]  # seat order, table 1 first
    byes: list[str]
    repeats: int  # pairs of players at one table who had met before
    proven: bool = False  # no grouping of the round has fewer repeats (shown by the solver, or none at all)
    exact: bool = False  # the solver took part (T-168): pairing the round again needs it too


def repeats_text(repeats: int, proven: bool | None) -> str:
    """`repeats: 1 (proven fewest)`, `(best found, not proven)`, or no proof at all for entries from before it was kept."""
    return f"repeats: {repeats}" + {True: " (proven fewest)", False: " (best found, not proven)", None: ""}[proven]


def position(seat: int, players: int, size: int) -> int:
    """Where seat `seat` (0 = first) of a table of `players` sits in the turn order of a full table of `size`.

    Seats keep their number, except that the last seat of a table one short
    is still last: at tables of four, a table of three has first, second and last.
    """
    return size - 1 if seat == players - 1 else seat


def tally_seats(tables: Iterable[Sequence[str]], size: int) -> dict[str, tuple[int, ...]]:
    """Each player's rounds in each position over `tables` (seat order; a bye, a table of one, has no seat)."""
    counts: dict[str, list[int]] = {}
    for table in tables:
        if len(table) > 1:
            for seat, player in enumerate(table):
                counts.setdefault(player, [0] * size)[position(seat, len(table), size)] += 1
    return {player: tuple(c) for player, c in counts.items()}


def seat_balance(seats: Mapping[str, Sequence[int]], size: int) -> int:
    """The event's seat balance: over players, the most rounds in one position minus the fewest in another."""
    return max((_imbalance(c, size) for c in seats.values()), default=0)


def _imbalance(counts: Sequence[int], size: int) -> int:
    padded = _padded(counts, size)
    return max(padded) - min(padded)


def _padded(counts: Sequence[int], size: int) -> list[int]:
    return [*counts, *[0] * (size - len(counts))]


@cache
def best_balance(tables: tuple[int, ...], size: int) -> int:
    """The best balance a player can have after sitting at tables of these sizes (in any order) at tables of
    `size`: a table one short has no second-to-last position, so 13 players at tables of 4 cannot all sit in
    every position once in four rounds."""
    reachable = {(0,) * size}
    for players in sorted(tables):
        reachable = {
            tuple(c + (k == position(seat, players, size)) for k, c in enumerate(counts))
            for counts in reachable
            for seat in range(players)
        }
    return min(max(c) - min(c) for c in reachable)


def pair_pods(entrants: Sequence[PodEntrant], round_number: int, seed: int, size: int, exact: bool = True) -> PodPairing:
    """One Swiss pods round (see the module docstring); `exact=False` skips the solver (the bench; an install
    without OR-Tools, T-168: the search's grouping, proven only when it has no repeat)."""
    if not MIN_TABLE <= size <= MAX_TABLE:
        raise ValueError(f"tables of {size}: pods seat {MIN_TABLE} to {MAX_TABLE}")
    shuffle = list(entrants)
    random.Random(f"{seed}/pods/{round_number}").shuffle(shuffle)
    order = {e.id: k for k, e in enumerate(shuffle)}
    by_id = {e.id: e for e in entrants}
    placed = sorted(entrants, key=lambda e: (-e.points, e.rank if round_number > 1 else 0, order[e.id]))
    sizes, bye_count = table_sizes(len(entrants), size)
    # The lowest-placed players without a bye (then, if need be, with one) sit out.
    byes = sorted(placed[::-1], key=lambda e: e.had_bye)[:bye_count]
    waiting = [e.id for e in placed if e not in byes]
    cost = _Costs(by_id, size)
    tables = _fill(waiting, sizes, cost)
    _improve(tables, cost)
    tables = _search(tables, by_id, random.Random(f"{seed}/pods/{round_number}/search"))
    repeats = sum(_repeats(t, by_id) for t in tables)
    proven = repeats == 0
    exact = exact and len(waiting) <= podsolver.EXACT_PLAYERS
    if not proven and exact:
        solved = podsolver.fewest_repeats(
            waiting, {p: by_id[p].opponents for p in waiting}, {p: by_id[p].points for p in waiting}, sizes, tables
        )
        tables, proven = solved.tables, solved.proven
    _improve(tables, cost)  # after the sideways search or the solver: seats and spread
    if exact:
        tables = _fewest_misfits(tables, cost, order, sum(_repeats(t, by_id) for t in tables))
    _balance_seats(tables, cost)
    repeats = sum(_repeats(t, by_id) for t in tables)
    seated = [_seat(t, cost, order) for t in tables]
    rank = {e.id: k for k, e in enumerate(placed)}
    seated.sort(key=lambda t: min(rank[p] for p in t))
    return PodPairing(seated, [e.id for e in byes], repeats, proven, exact)


def _seat(table: Sequence[str], cost: _Costs, order: Mapping[str, int]) -> list[str]:
    """The table's seat order of least seat cost (`_Costs.seats`); among equals, the first in the round's random order."""
    slots = cost.slots[len(table)]
    return list(min(itertools.permutations(sorted(table, key=lambda p: order[p])),
                    key=lambda seating: _seating_cost([cost.need[p] for p in seating], slots)))


def _fewest_misfits(tables: list[list[str]], cost: _Costs, order: Mapping[str, int], repeats: int) -> list[list[str]]:
    """The solver's regrouping of least seat cost with every table's points kept and no more repeats (T-12)."""
    before = _seat_total(tables, cost)
    if before == (0, 0):
        return tables
    # One number for (misfits, gaps) in that order: a misfit outweighs all the gaps there can be.
    weight = 1 + sum(max(need) for need in cost.need.values())
    costs = {p: [weight * (n > 0) + n for n in need] for p, need in cost.need.items()}
    seated = [_seat(t, cost, order) for t in tables]
    met = {p: e.opponents for p, e in cost.by_id.items()}
    points = {p: e.points for p, e in cost.by_id.items()}
    solved = podsolver.fewest_misfits(seated, met, points, costs, cost.slots, repeats)
    return solved if _seat_total(solved, cost) < before else tables


def _seat_total(tables: Sequence[Sequence[str]], cost: _Costs) -> Seats:
    seats = [cost.seats(t, len(t)) for t in tables]
    return sum(s[0] for s in seats), sum(s[1] for s in seats)


def _fill(waiting: list[str], sizes: list[int], cost: _Costs) -> list[list[str]]:
    """Greedy: each table takes the best-placed player left, then those who have met nobody at it and can
    sit in a position they have had least."""
    left = list(waiting)
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            fits = []
            for p in left[:LOOKAHEAD]:
                fits.append(
                    (sum(p in cost.by_id[q].opponents for q in table), _spread([*table, p], cost.by_id), *cost.seats([*table, p], size))
                )
                if fits[-1][0] == fits[-1][2] == 0:
                    break
            table.append(left.pop(fits.index(min(fits))))  # the earliest that fits, else the one that fits best
        tables.append(table)
    return tables


def _repeats(table: Sequence[str], by_id: Mapping[str, PodEntrant]) -> int:
    return sum(1 for i, p in enumerate(table) for q in table[i + 1 :] if q in by_id[p].opponents)


def _spread(table: Sequence[str], by_id: Mapping[str, PodEntrant]) -> int:
    scores = [by_id[p].points for p in table]
    return max(scores) - min(scores)


Cost = tuple[int, int, int, int]
Seats = tuple[int, int]


class _Costs:
    """A table's cost, compared in order: repeat meetings, the spread of points (highest minus lowest), then
    its seat cost (`seats`)."""

    def __init__(self, by_id: Mapping[str, PodEntrant], size: int) -> None:
        self.by_id = by_id
        # How many more rounds each player has sat in each position than in the one they have had least.
        self.need = {p: tuple(c - min(_padded(e.seats, size)) for c in _padded(e.seats, size)) for p, e in by_id.items()}
        self.slots = {m: tuple(position(k, m, size) for k in range(m)) for m in range(1, size + 1)}

    def __call__(self, table: Sequence[str]) -> Cost:
        return _repeats(table, self.by_id), _spread(table, self.by_id), *self.seats(table, len(table))

    def seats(self, players: Sequence[str], seats: int) -> Seats:
        """The seat cost of `players` at a table of `seats` (they may be fewer: a table being filled)."""
        return _least_seating_cost(tuple(sorted(self.need[p] for p in players)), self.slots[seats])


def _seating_cost(needs: Sequence[tuple[int, ...]], slots: Sequence[int]) -> Seats:
    """Players seated in `slots` in order: how many are not in a position they have had least, then how many
    more rounds in all they have had there than in their least (as the sum of squares of the seat counts)."""
    misfits = gaps = 0
    for need, slot in zip(needs, slots, strict=False):
        misfits += need[slot] > 0
        gaps += need[slot]
    return misfits, gaps


@cache  # few tables differ: at most six players, each with a few small numbers
def _least_seating_cost(needs: tuple[tuple[int, ...], ...], slots: tuple[int, ...]) -> Seats:
    """The seat cost of the best seat order (every order tried: at most 6! = 720)."""
    return min(_seating_cost(needs, chosen) for chosen in itertools.permutations(slots, len(needs)))


def _improve(tables: list[list[str]], cost: _Costs) -> None:
    """Swap players between a table with a repeat or a misfit and a nearby one while that lowers the cost."""
    costs = [cost(t) for t in tables]
    for _ in range(SWAP_PASSES):
        improved = False
        for i, table in enumerate(tables):
            for j in range(max(0, i - NEARBY), min(len(tables), i + NEARBY + 1)):
                if costs[i][0] == costs[i][2] == 0:
                    break
                other = tables[j]
                if i == j:
                    continue
                for a in range(len(table)):
                    for b in range(len(other)):
                        table[a], other[b] = other[b], table[a]
                        after_i, after_j = cost(table), cost(other)
                        if _add(after_i, after_j) < _add(costs[i], costs[j]):
                            costs[i], costs[j], improved = after_i, after_j, True
                        else:
                            table[a], other[b] = other[b], table[a]
        if not improved:
            return


def _add(x: Cost, y: Cost) -> Cost:
    return x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]


def _balance_seats(tables: list[list[str]], cost: _Costs) -> None:
    """Swap players with the same points between tables (so every table keeps its points) while a swap lowers
    the seat cost of the two tables without adding a repeat, until none does between a table with a seat cost
    and one up to `SEAT_NEARBY` tables away or another with a seat cost (T-12)."""
    seats = [cost.seats(t, len(t)) for t in tables]
    held = [{cost.by_id[p].points for p in t} for t in tables]  # swaps keep them
    for _ in range(SEAT_PASSES):
        improved = False
        uneven: dict[int, list[int]] = {}  # by points: the tables holding them that have a seat cost
        for k, s in enumerate(seats):
            for v in held[k] if s != (0, 0) else ():
                uneven.setdefault(v, []).append(k)
        for i in sorted({k for ks in uneven.values() for k in ks}):
            near = range(max(0, i - SEAT_NEARBY), min(len(tables), i + SEAT_NEARBY + 1))
            for j in sorted({*near, *(k for v in held[i] for k in uneven[v])} - {i}):
                if seats[i] == (0, 0):
                    break
                improved |= _swap_seats(tables, i, j, seats, cost)
        if not improved:
            return


def _swap_seats(tables: list[list[str]], i: int, j: int, seats: list[Seats], cost: _Costs) -> bool:
    """Make each swap between tables i and j that lowers their seat cost without adding a repeat."""
    table, other, by_id = tables[i], tables[j], cost.by_id
    improved = False
    repeats = _repeats(table, by_id) + _repeats(other, by_id)
    for a, b in itertools.product(range(len(table)), range(len(other))):
        if by_id[table[a]].points != by_id[other[b]].points or cost.need[table[a]] == cost.need[other[b]]:
            continue  # other points, or alike: the swap would change nothing
        table[a], other[b] = other[b], table[a]
        after_i, after_j = cost.seats(table, len(table)), cost.seats(other, len(other))
        gain = (seats[i][0] + seats[j][0] - after_i[0] - after_j[0], seats[i][1] + seats[j][1] - after_i[1] - after_j[1])
        if gain > (0, 0) and (after := _repeats(table, by_id) + _repeats(other, by_id)) <= repeats:
            seats[i], seats[j], repeats, improved = after_i, after_j, after, True
        else:
            table[a], other[b] = other[b], table[a]
    return improved


def _search(tables: list[list[str]], by_id: Mapping[str, PodEntrant], rng: random.Random) -> list[list[str]]:
    """Random swaps out of tables with a repeat, kept when they do not add repeats; the best grouping seen.

    The swap search above stops at the first grouping no single swap improves;
    moving sideways (swaps that keep the repeat count) gets past those.
    """
    repeats = [_repeats(t, by_id) for t in tables]
    hot = {i for i, r in enumerate(repeats) if r}
    best, best_total, total = [t[:] for t in tables], sum(repeats), sum(repeats)
    for _ in range(SEARCH_STEPS):
        if not hot:
            break
        i = rng.choice(sorted(hot))
        j = rng.randrange(max(0, i - NEARBY), min(len(tables), i + NEARBY + 1))
        if i == j:
            continue
        a, b = rng.randrange(len(tables[i])), rng.randrange(len(tables[j]))
        tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
        after_i, after_j = _repeats(tables[i], by_id), _repeats(tables[j], by_id)
        change = after_i + after_j - repeats[i] - repeats[j]
        if change > 0:
            tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
            continue
        repeats[i], repeats[j], total = after_i, after_j, total + change
        hot.difference_update({i, j})
        hot.update(k for k in (i, j) if repeats[k])
        if total < best_total:
            best, best_total = [t[:] for t in tables], total
    return best


@dataclass(frozen=True)
class PodGame:
    """One table's result (a bye is a table of one, placed first)."""

    round: int
    placements: dict[str, int]


@dataclass
class _Record:
    points: int = 0
    rounds: int = 0
    wins: int = 0
    shared: int = 0
    others: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)


def pod_standings(
    players: Sequence[str], games: Sequence[PodGame], points: Points, dropped: Mapping[str, int] | None = None
) -> list[Standing]:
    """Rank by points, then `opp` (the opponents' average points per round played), then sole wins, then id.

    In the shared `Standing`: wins are sole first places, draws shared first
    places, losses the rest; `game_points` repeats the points.
    """
    dropped = dropped or {}
    records = {p: _Record() for p in players}
    for game in games:
        scored = points.scored(game.placements)
        firsts = sum(1 for place in game.placements.values() if place == 1)
        for player, place in game.placements.items():
            if game.round > dropped.get(player, game.round):
                continue
            record = records.setdefault(player, _Record())
            record.points += scored[player]
            record.rounds += 1
            record.byes += len(game.placements) == 1
            record.wins += place == 1 and firsts == 1
            record.shared += place == 1 and firsts > 1
            record.others += place > 1
            record.opponents.extend(p for p in game.placements if p != player)

    def per_round(p: str) -> Fraction:
        return Fraction(records[p].points, records[p].rounds) if records[p].rounds else Fraction(0)

    opp = {
        p: sum((per_round(o) for o in records[p].opponents), Fraction(0)) / len(records[p].opponents)
        if records[p].opponents else Fraction(0)
        for p in players
    }
    order = sorted(players, key=lambda p: (-records[p].points, -opp[p], -records[p].wins, p))
    return [
        Standing(
            rank=rank, player=p, points=records[p].points, game_points=records[p].points, wins=records[p].wins,
            losses=records[p].others, draws=records[p].shared, byes=records[p].byes,
            tiebreakers={"opp": float(opp[p])}, dropped=p in dropped,
        )
        for rank, p in enumerate(order, start=1)
    ]
