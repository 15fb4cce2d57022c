"""Swiss pairing's cost model: the entrants, the result, and what every table and the bye cost.

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
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Entrant:
    """One player as pairing sees them: points, standing, bye and past opponents."""

    id: str
    points: int  # match points so far
    rank: int  # 1 = best in the current standings; the bye goes to the worst-ranked eligible player
    had_bye: bool
    opponents: frozenset[str]  # everyone this player has met


@dataclass(frozen=True)
class Pairing:
    """A round's tables and bye."""

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
        """The costs of round `round_number` for these entrants, with the random order drawn from `seed`."""
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
        """What a table of `a` and `b` costs: a rematch, then the squared score difference."""
        ea, eb = self.entrants[a], self.entrants[b]
        met = b in ea.opponents or a in eb.opponents
        return self.rematch * met + self.scale * (ea.points - eb.points) ** 2

    def bye(self, a: str) -> int:
        """What the bye costs if `a` takes it: a second bye, then pairing down, then placement."""
        e = self.entrants[a]
        return (
            self.second_bye * e.had_bye
            + self.scale * (e.points - self.lowest_points) ** 2
            + self.below[a]
        )

    def total(self, tables: Sequence[tuple[str, str]], bye: str | None) -> int:
        """The cost of a whole pairing."""
        return sum(self.table(a, b) for a, b in tables) + (self.bye(bye) if bye is not None else 0)


def _random_order(by_id: Mapping[str, Entrant], round_number: int, seed: int) -> dict[str, int]:
    """Each player's place in the round's random order, reproducible from (seed, round)."""
    ids = sorted(by_id)
    random.Random(f"swiss:{seed}:{round_number}").shuffle(ids)
    return {i: k for k, i in enumerate(ids)}
