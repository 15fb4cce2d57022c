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

Double elimination (`double_elimination`)
-----------------------------------------
The winners' bracket is the single-elimination one. Its losers drop into a
losers' bracket (`double_elimination_nodes` says where), whose winner meets
the winners' bracket's winner in the grand final; if the losers' side wins
it, it is played again (the reset, GF2). Every round plays each match whose
two players are known, winners' side first.
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


# Double elimination -------------------------------------------------------

Source = tuple[str, str]  # ("seed", "3"), ("win", "W1-2") or ("lose", "W1-2")


@dataclass(frozen=True)
class Node:
    """One match of a double-elimination bracket: where its two players come from."""

    id: str  # W<round>-<n> (winners'), L<round>-<n> (losers'), GF, GF2 (the grand final and its reset)
    inputs: tuple[Source, Source]


def double_elimination_nodes(size: int) -> list[Node]:
    """Every match of a double-elimination bracket of `size` places, winners' bracket first.

    Losers' round 1 pairs the losers of winners' round 1. After that the
    losers' bracket alternates: a round where the losers of the next
    winners' round drop in, then (but for the last) a round among its own
    winners. Dropping losers come in reversed on even losers' rounds and with
    their halves swapped on the others, so they meet players from the other
    part of the bracket: in losers' round 2 nobody dropping in meets a player
    they already beat (later losers' rounds can bring a rematch).
    """
    order = seed_order(size)
    nodes = [Node(f"W1-{i + 1}", (("seed", str(order[2 * i])), ("seed", str(order[2 * i + 1])))) for i in range(size // 2)]
    winners_rounds = [[n.id for n in nodes]]
    while len(winners_rounds[-1]) > 1:
        last = winners_rounds[-1]
        number = len(winners_rounds) + 1
        made = [Node(f"W{number}-{i + 1}", (("win", last[2 * i]), ("win", last[2 * i + 1]))) for i in range(len(last) // 2)]
        nodes += made
        winners_rounds.append([n.id for n in made])
    first = winners_rounds[0]
    # The losers' side as it stands: who is left in it, as sources, top to bottom.
    alive: list[Source] = [("lose", n) for n in first]
    number = 0
    for k, dropping in enumerate(winners_rounds[1:], start=2):
        if len(alive) > 1:  # a round among the losers' own players
            number += 1
            made = [Node(f"L{number}-{i + 1}", (alive[2 * i], alive[2 * i + 1])) for i in range(len(alive) // 2)]
            nodes += made
            alive = [("win", n.id) for n in made]
        incoming: list[Source] = [("lose", n) for n in dropping]
        half = len(incoming) // 2
        incoming = incoming[::-1] if k % 2 == 0 else incoming[half:] + incoming[:half]
        number += 1
        made = [Node(f"L{number}-{i + 1}", (a, b)) for i, (a, b) in enumerate(zip(alive, incoming, strict=True))]
        nodes += made
        alive = [("win", n.id) for n in made]
    final = (("win", winners_rounds[-1][0]), alive[0])
    return [*nodes, Node("GF", final), Node("GF2", (("win", "GF"), ("lose", "GF")))]


@dataclass(frozen=True)
class Decided:
    players: tuple[Slot, Slot]
    winner: Slot
    played: bool  # False: a bye (one place empty) or a reset that was not needed


@dataclass(frozen=True)
class DoubleBracket:
    nodes: list[Node]
    decided: dict[str, Decided]
    rounds: list[list[str]]  # the nodes paired in each round (1 = the bracket's first)
    ready: list[tuple[str, str, str]]  # the matches to pair next, or still without a result: (node, player, player)
    champion: str | None
    finished: bool


def double_elimination(
    seeds: Sequence[str], played: Sequence[Sequence[tuple[str, str, str | None]]], absent_from: Mapping[str, int] | None = None
) -> DoubleBracket:
    """The double-elimination bracket after the rounds `played`.

    `played[r]`: round r + 1's matches in table order, as (player, player,
    winner), the winner None while a match has no result. Each round plays every match whose two players are known, in
    bracket order (winners' side first), so the rounds follow from the
    results alone. `absent_from` as in `single_elimination`. The grand final
    is played again (GF2) when the player from the losers' side wins it.
    """
    absent_from = absent_from or {}
    entered = [s for s in seeds if absent_from.get(s, NEVER) > 1]
    nodes = double_elimination_nodes(bracket_size(len(entered)))
    decided: dict[str, Decided] = {}
    rounds: list[list[str]] = []

    def source(src: Source, number: int) -> tuple[bool, Slot]:
        """(known yet?, the player or None) for a node input, when round `number` is paired."""
        kind, ref = src
        if kind == "seed":
            player = entered[int(ref) - 1] if int(ref) <= len(entered) else None
        elif ref not in decided:
            return False, None
        else:
            done = decided[ref]
            loser = next((p for p in done.players if p != done.winner), None) if done.played else None
            player = done.winner if kind == "win" else loser
        return True, player if player is not None and absent_from.get(player, NEVER) > number else None

    def ready(number: int) -> list[tuple[str, str, str]]:
        """Settle every match that needs no play, then list those to play in round `number`."""
        changed = True
        while changed:
            changed = False
            for node in nodes:
                if node.id in decided:
                    continue
                (known_a, a), (known_b, b) = (source(s, number) for s in node.inputs)
                if not (known_a and known_b):
                    continue
                reset_needless = node.id == "GF2" and decided["GF"].played and decided["GF"].winner == decided["GF"].players[0]
                if a is None or b is None or reset_needless:
                    decided[node.id] = Decided((a, b), a or b if not reset_needless else a, played=False)
                    changed = True
        due = []
        for node in nodes:
            if node.id not in decided:
                (known_a, a), (known_b, b) = (source(s, number) for s in node.inputs)
                if known_a and known_b and a is not None and b is not None:
                    due.append((node.id, a, b))
        return due

    for number, matches in enumerate(played, start=1):
        due = ready(number)
        rounds.append([node for node, _, _ in due])
        for (node, a, b), (_, _, winner) in zip(due, matches, strict=True):
            if winner is not None:
                decided[node] = Decided((a, b), winner, played=True)
    upcoming = ready(len(played) + 1)
    champion = decided["GF2"].winner if "GF2" in decided else None
    return DoubleBracket(nodes, decided, rounds, upcoming, champion, finished="GF2" in decided)


def stage(node: str) -> int:
    """How late in a double-elimination bracket a match is, for ranking who lost it: the losers'
    round number, or more for the grand final (winners' matches never knock anyone out)."""
    return int(node[1:].split("-")[0]) if node.startswith("L") else NEVER if node.startswith("GF") else 0


def knocked_out(bracket: DoubleBracket) -> dict[str, int]:
    """Each player out of the bracket -> the `stage` of the match that gave them their second loss."""
    losses: dict[str, int] = {}
    out: dict[str, int] = {}
    for number in bracket.rounds:
        for node in (n for n in number if n in bracket.decided):
            done = bracket.decided[node]
            loser = next(p for p in done.players if p != done.winner)
            assert loser is not None
            losses[loser] = losses.get(loser, 0) + 1
            if losses[loser] == 2:
                out[loser] = stage(node)
    return out
