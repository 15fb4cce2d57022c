"""Brackets and round robins as pure functions: who meets whom, from the seeds and the results so far.

Nothing here reads the database. The service passes the seeds (best first),
the winners of the matches played and who has left; these functions say
which tables the next round has. Because the tables follow from the log up to
that point, `tournament verify` can pair every round again and compare.

Single elimination (`single_elimination`)
-----------------------------------------
The bracket has room for the next power of two. Seeds are placed in the
standard order, built recursively so that the two best seeds can meet only in
the final, the four best only in the semifinals, and so on: from [1], each
seed s in a field of n becomes the pair (s, 2n + 1 - s), giving
1-8, 4-5, 2-7, 3-6 for eight. The empty places are the highest seed numbers,
so the byes go to the top seeds. A player who leaves before a round is paired
is an empty place from then on: their next opponent advances without playing.
Players who leave before the bracket's first round are taken out before the
seeds are placed, so the highest remaining seeds get the byes.

Round robin (`round_robin`)
---------------------------
The circle method: the first player stays put, the others rotate one place a
round; with an odd field an empty place joins, and whoever meets it sits the
round out (the bye). Each player meets every other exactly once in n - 1
rounds (n rounds for an odd field). The first player's seat alternates so
that first-seat advantage is shared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Slot = str | None  # a player, or an empty place (a bye)
NEVER = 1 << 30  # "has not left": later than any round


def seed_order(size: int) -> list[int]:
    """The seeds top to bottom in a bracket of `size` places (a power of two): 1, 8, 4, 5, 2, 7, 3, 6 for 8."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power-of-two number of places, not {size}")
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def bracket_size(players: int) -> int:
    """The smallest power of two that holds `players` (at least 2)."""
    size = 2
    while size < players:
        size *= 2
    return size


@dataclass(frozen=True)
class BracketRound:
    """One round of a bracket: its pairs top to bottom; an empty place is a bye."""

    number: int  # 1 = the bracket's first round
    pairs: list[tuple[Slot, Slot]]

    @property
    def tables(self) -> list[tuple[str, str]]:
        """The matches to play, in bracket order (table 1 at the top)."""
        return [(a, b) for a, b in self.pairs if a is not None and b is not None]

    @property
    def advanced(self) -> list[str]:
        """Players who go through without playing."""
        return [a or b for a, b in self.pairs if (a is None) != (b is None)]  # type: ignore[misc]


@dataclass(frozen=True)
class Bracket:
    """Every round known so far; `champion` once the final is decided."""

    rounds: list[BracketRound]
    champion: str | None
    finished: bool

    def reached(self) -> dict[str, int]:
        """How far each player got: the last bracket round they were in (the champion one more)."""
        depth: dict[str, int] = {}
        for r in self.rounds:
            for pair in r.pairs:
                depth.update({p: r.number for p in pair if p is not None})
        if self.champion is not None:
            depth[self.champion] = len(self.rounds) + 1
        return depth


def single_elimination(
    seeds: Sequence[str], winners: Mapping[frozenset[str], str], absent_from: Mapping[str, int] | None = None
) -> Bracket:
    """The bracket so far.

    `seeds`: best first. `winners`: the winner of each match played, keyed by
    its two players (two players meet at most once in a single elimination).
    `absent_from`: a player who left -> the first bracket round they miss.
    The last round returned is the first one not fully decided (or the final).
    """
    absent_from = absent_from or {}

    def present(player: Slot, number: int) -> Slot:
        return player if player is not None and absent_from.get(player, NEVER) > number else None

    entered = [s for s in seeds if present(s, 1)]
    size = bracket_size(len(entered))
    line: list[Slot] = [entered[s - 1] if s <= len(entered) else None for s in seed_order(size)]
    rounds: list[BracketRound] = []
    while len(line) > 1:
        number = len(rounds) + 1
        line = [present(p, number) for p in line]
        pairs = list(zip(line[::2], line[1::2], strict=True))
        rounds.append(BracketRound(number, pairs))
        following: list[Slot] = []
        for a, b in pairs:
            if a is not None and b is not None:
                if frozenset((a, b)) not in winners:
                    return Bracket(rounds, None, finished=False)
                following.append(winners[frozenset((a, b))])
            else:
                following.append(a or b)
        line = following
    return Bracket(rounds, line[0] if line else None, finished=True)


def round_robin_rounds(players: int) -> int:
    """How many rounds a round robin of `players` takes."""
    return players - 1 if players % 2 == 0 else players


def round_robin(players: Sequence[str], number: int, absent: frozenset[str] = frozenset()) -> tuple[list[tuple[str, str]], str | None]:
    """Round `number` (from 1) of the circle method: its tables and the player who sits out.

    A table with a player in `absent` (who dropped) is not played; their
    opponent sits the round out without a result.
    """
    if not 1 <= number <= round_robin_rounds(len(players)):
        raise ValueError(f"a round robin of {len(players)} has no round {number}")
    places: list[Slot] = list(players) + ([None] if len(players) % 2 else [])
    n = len(places)
    shift = (number - 1) % (n - 1)
    others = places[1:]
    circle = [places[0], *others[-shift:], *others[:-shift]] if shift else places
    pairs = [(circle[i], circle[n - 1 - i]) for i in range(n // 2)]
    if number % 2 == 0:  # the fixed player changes seat every round
        pairs[0] = (pairs[0][1], pairs[0][0])
    tables = [(a, b) for a, b in pairs if a is not None and b is not None and a not in absent and b not in absent]
    idle = next((a or b for a, b in pairs if a is None or b is None), None)
    return tables, idle if idle not in absent else None
