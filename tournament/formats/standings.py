"""Standings: points and each event's tiebreakers, as each profile's rulebook defines them.

A match is a win, a draw or a loss: the winner is the player with more games
won, and equal games won is a drawn match. A bye is a 2-0 win. Game points are
3 per game won and 1 per drawn game. Points per match (`POINTS`): 3/1/0 in
`mtg` and `pokemon`, 1/½/0 in `chess`.

Tiebreaker profiles (`PROFILES`), all of them "higher is better"; the sources
and rulings are in tournament/README.md ("Standings and tiebreakers"):

- `mtg`, the Magic Tournament Rules, appendix C: `omw` (opponents' match-win
  percentage), `gw` (game-win percentage), `ogw` (opponents' game-win
  percentage). A match-win percentage is match points over 3 per round played,
  a game-win percentage game points over 3 per game played, each at least
  0.33 (exactly, as the rules write it). Byes count in a player's own
  percentages but are left out of their opponents' averages. A player who
  dropped has their percentages over the rounds they played.
- `pokemon`, the Play! Pokémon tournament rules: `owp` (the average of the
  opponents' win percentages) and `oowp` (the average of the opponents'
  `owp`). A win percentage is (wins + ½ ties) over the rounds counted: byes
  are left out (neither the round nor the win counts), a late entry's missed
  rounds count as losses, a dropped player's record ends when they dropped.
  At least 25%; at most 75% for a player who left before the event's last
  round. Byes are not opponents. Ties on points put a late entry last; two
  players still tied after `oowp` go by their head-to-head result.
- `chess`, the FIDE Tie-Break Regulations (C.07): `buchholz` (8.1),
  `buchholz_cut1` (14.1), `sonneborn_berger` (9.1), with article 16's
  handling of unplayed rounds (see `_chess_tiebreakers`).

An average over no opponents (a player who only had byes) is 0. Every value
is computed exactly, so equal tiebreakers compare equal; ties that remain are
broken by player id. Each player's own percentage is one fraction, computed
once; the averages and the ranking work on whole numbers over a denominator
shared by everyone (`_Column`), since Fraction arithmetic on every pair of
opponents was most of the time at 10,000 players.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

GAME_WIN, GAME_DRAW = 3, 1  # game points
MTG_FLOOR = Fraction(33, 100)
POKEMON_FLOOR, POKEMON_DROPPED_CAP = Fraction(1, 4), Fraction(3, 4)
HALF = Fraction(1, 2)

PROFILES: dict[str, tuple[str, ...]] = {
    "mtg": ("omw", "gw", "ogw"),
    "pokemon": ("owp", "oowp"),
    "chess": ("buchholz", "buchholz_cut1", "sonneborn_berger"),
}
# Points for a won and a drawn match (a loss scores 0), per profile.
POINTS: dict[str, tuple[Fraction, Fraction]] = {
    "mtg": (Fraction(3), Fraction(1)),
    "pokemon": (Fraction(3), Fraction(1)),
    "chess": (Fraction(1), HALF),
}


@dataclass(frozen=True)
class Match:
    round: int
    players: tuple[str, ...]  # two players; one player alone is a bye (a 2-0 win)
    games: dict[str, int]  # games won by each player in the match
    draws: int = 0  # drawn games in the match
    # False: not played over the table but conceded by a player who dropped mid-round (a forfeit)
    played: bool = True
    # the match winner has more games won; equal games won is a drawn match


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    points: int | float  # the profile's points (a bye is a win); whole numbers as int
    game_points: int  # 3 per game won, 1 per game drawn
    wins: int
    losses: int
    draws: int
    byes: int
    tiebreakers: dict[str, float | None]  # name -> value, in the profile's order; gw None without a game (T-162)
    dropped: bool


def _shown(name: str, column: _Column, record: _Record, player: str) -> float | None:
    """A tiebreaker as the standings show it: none where the player has nothing it measures (T-162), GW% without
    a game, an opponents' percentage without an opponent; ranked all the same by the value (the rulebook's floor)."""
    if (name == "gw" and not record.games) or (name in OPPONENTS and not record.played):
        return None
    return column.value(player)


OPPONENTS = ("omw", "ogw", "owp", "oowp")


class _Slot(NamedTuple):  # a tuple: made 30,000 times a call at 10,000 players
    """One round of a player's record: what they scored and against whom (FIDE C.07 article 16)."""

    scored: str  # "W", "D" or "L"
    opponent: str | None  # the opponent met, or the scheduled one of a forfeit
    kind: str  # "game", "bye", "forfeit", or "absent" (not entered yet, withdrawn, or unpaired)


Counts = tuple[int | bool, ...]  # a record's counts (`_Record.counts`): a memo key


@dataclass
class _Record:
    """One player's results, built up match by match."""

    points: Fraction = Fraction(0)  # set from wins and draws once every match is counted
    game_points: int = 0
    games: int = 0
    rounds: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    missed: int = 0  # rounds before a late entry's first
    dropped: bool = False  # left before the event's last round (the Pokémon 75% cap, T-50)
    # One entry per match against someone (byes left out): the opponent and W, D or L.
    played: list[tuple[str, str]] = field(default_factory=list)
    slots: dict[int, _Slot] = field(default_factory=dict)  # round -> what happened in it

    def counts(self) -> Counts:
        """Every count of the record, not whom it met: what its points and percentages are worked out from
        (its points follow from its wins and draws; a Fraction would also be slow to hash)."""
        return (self.game_points, self.games, self.rounds, self.wins, self.losses, self.draws, self.byes, self.missed, self.dropped)

    def match_win(self, floor: Fraction) -> Fraction:
        counted = self.rounds + self.missed  # a late entry's missed rounds are matches lost (T-20)
        return max(floor, self.points / (3 * counted)) if counted else floor

    def game_win(self, floor: Fraction) -> Fraction:
        return max(floor, Fraction(self.game_points, 3 * self.games)) if self.games else floor


@dataclass(frozen=True)
class _Column:
    """One exact value per player, as whole numbers over one denominator: compared as ints, shown as floats."""

    numerators: dict[str, int]
    denominator: int

    @classmethod
    def of(cls, records: Mapping[str, _Record], value: Callable[[_Record], Fraction], counts: Mapping[str, Counts]) -> _Column:
        """`value` of each record, computed once for each distinct `counts` (each player's `_Record.counts`).

        10,000 players have a few dozen distinct records, so this is a few dozen
        Fractions instead of tens of thousands (most of the time of `standings`).
        """
        keys = {p: counts[p] for p in records}
        distinct: dict[Counts, Fraction] = {}
        for p, k in keys.items():
            if k not in distinct:
                distinct[k] = value(records[p])
        denominator = math.lcm(*{v.denominator for v in distinct.values()})
        scaled = {k: v.numerator * (denominator // v.denominator) for k, v in distinct.items()}
        return cls({p: scaled[k] for p, k in keys.items()}, denominator)

    def averaged(self, over: Mapping[str, list[str]], players: Sequence[str]) -> _Column:
        """Each of `players`' average of the values of the players `over` lists for them (0 over nobody).

        Over the least common multiple K of the list lengths, an average of k values is their sum times K/k.
        """
        sizes = math.lcm(*{len(over[p]) for p in players} - {0})
        sums = {p: sum(self.numerators[o] for o in over[p]) * (sizes // len(over[p])) if over[p] else 0 for p in players}
        return _Column(sums, self.denominator * sizes)

    def value(self, player: str) -> float:
        return self.numerators[player] / self.denominator  # int / int rounds correctly, as float(Fraction) does


def standings(
    players: Sequence[str],
    matches: Sequence[Match],
    profile: str = "mtg",
    dropped: Mapping[str, int] | None = None,
    joined: Mapping[str, int] | None = None,
    rounds: int | None = None,
) -> list[Standing]:
    """Rank `players`: by points, then the profile's tiebreakers in order, then player id.

    `dropped` maps a player who left to the last round they played; a match of
    theirs recorded for a later round is left out of their own record (their
    opponent keeps the result). `joined` maps a late entry to their first
    round; the rounds before it are matches they lost (in their W/L and
    match-win percentage, never as anyone's opponent). `rounds` is how many
    rounds the event has played (default: the last round of `matches`): a
    player without a match or bye in one of them has an unplayed round (chess).
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown tiebreaker profile {profile!r}; known: {sorted(PROFILES)}")
    dropped, joined = dropped or {}, joined or {}
    records = _records(players, matches, dropped, POINTS[profile])
    played_rounds = max((m.round for m in matches), default=0) if rounds is None else rounds
    for p, last in dropped.items():
        if p in records:
            records[p].dropped = last < played_rounds
    for p, first in joined.items():
        if p in records:
            records[p].missed = max(0, first - 1)
    counts = {p: record.counts() for p, record in records.items()}  # what each value below is memoised by
    columns = _chess_tiebreakers(records, played_rounds) if profile == "chess" else _percentages(profile, records, players, counts)
    points = _Column.of({p: records[p] for p in players}, lambda record: record.points, counts)
    # Pokémon ranks a late entry below everyone else on the same points (T-51).
    late = {p for p, first in joined.items() if first > 1} if profile == "pokemon" else set()

    def rank_key(p: str) -> tuple[int, bool, tuple[int, ...]]:
        return -points.numerators[p], p in late, tuple(-c.numerators[p] for c in columns)

    order = sorted(players, key=lambda p: (*rank_key(p), p))
    if profile == "pokemon":
        order = _head_to_head(order, rank_key, records)
    names = PROFILES[profile]
    return [
        Standing(
            rank=rank,
            player=p,
            points=_number(records[p].points),
            game_points=records[p].game_points,
            wins=records[p].wins,
            # A late entry's missed rounds are losses on their record (T-20; Pokémon's rules too).
            losses=records[p].losses + records[p].missed,
            draws=records[p].draws,
            byes=records[p].byes,
            tiebreakers={name: _shown(name, column, records[p], p) for name, column in zip(names, columns, strict=True)},
            dropped=p in dropped,
        )
        for rank, p in enumerate(order, start=1)
    ]


def _head_to_head(order: list[str], tied_on: Callable[[str], object], records: dict[str, _Record]) -> list[str]:
    """Two players (exactly two) still tied after every tiebreaker: the one who won more of their meetings first (T-52)."""
    order = list(order)
    k = 0
    while k < len(order):
        end = k + 1
        while end < len(order) and tied_on(order[end]) == tied_on(order[k]):
            end += 1
        if end - k == 2:
            first, second = order[k], order[k + 1]
            net = sum({"W": 1, "L": -1}.get(scored, 0) for o, scored in records[first].played if o == second)
            if net < 0:
                order[k], order[k + 1] = second, first
        k = end
    return order


@functools.lru_cache(maxsize=1024)  # 10,000 entrants have a few dozen distinct points: a Fraction each, not one a player
def pairing_points(profile: str, points: float) -> int:
    """Points as the whole numbers the pairing functions take: in steps of a drawn match (chess: half-points)."""
    return int(Fraction(points) / POINTS[profile][1])


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def _records(
    players: Sequence[str], matches: Sequence[Match], dropped: Mapping[str, int], points: tuple[Fraction, Fraction]
) -> dict[str, _Record]:
    """Every player's record, including opponents who are not being ranked; `points`: a won and a drawn match's."""
    records = {p: _Record(dropped=p in dropped) for p in players}
    for match in matches:
        if len(match.players) not in (1, 2):
            raise ValueError(f"a match has one player (a bye) or two: {match.players}")
        counted = [p for p in match.players if match.round <= dropped.get(p, match.round)] if dropped else match.players
        for p in counted:
            record = records.get(p)
            if record is None:
                record = records[p] = _Record(dropped=p in dropped)
            record.rounds += 1
            if len(match.players) == 1:
                record.byes += 1
                record.wins += 1
                record.game_points += 2 * GAME_WIN
                record.games += 2
                record.slots[match.round] = _Slot("W", None, "bye")
                continue
            other = match.players[1] if p == match.players[0] else match.players[0]
            mine, theirs = match.games.get(p, 0), match.games.get(other, 0)
            scored = "W" if mine > theirs else "L" if mine < theirs else "D"
            record.wins += scored == "W"
            record.losses += scored == "L"
            record.draws += scored == "D"
            record.game_points += GAME_WIN * mine + GAME_DRAW * match.draws
            record.games += mine + theirs + match.draws
            record.played.append((other, scored))
            # A match its opponent had already left (or conceded by dropping) was not played over the table.
            over_the_table = match.played and len(counted) == 2
            record.slots[match.round] = _Slot(scored, other, "game" if over_the_table else "forfeit")
    win, draw = points
    points_of: dict[tuple[int, int], Fraction] = {}  # the points of each distinct record, computed once (Fractions are slow)
    for record in records.values():
        key = record.wins, record.draws
        if key not in points_of:
            points_of[key] = win * record.wins + draw * record.draws  # a bye is a won match
        record.points = points_of[key]
    return records


def _percentages(profile: str, records: dict[str, _Record], players: Sequence[str], counts: Mapping[str, Counts]) -> list[_Column]:
    """`mtg`: OMW, GW, OGW; `pokemon`: OWP, OOWP (each player's own percentage computed once)."""
    opponents = {p: [o for o, _ in record.played] for p, record in records.items()}
    if profile == "mtg":
        match_win = _Column.of(records, lambda record: record.match_win(MTG_FLOOR), counts)
        game_win = _Column.of(records, lambda record: record.game_win(MTG_FLOOR), counts)
        return [match_win.averaged(opponents, players), game_win, game_win.averaged(opponents, players)]
    # OOWP averages the OWP of opponents who may not be ranked themselves: OWP for every record.
    owp = _Column.of(records, _pokemon_win, counts).averaged(opponents, list(records))
    return [owp, owp.averaged(opponents, players)]


def _pokemon_win(record: _Record) -> Fraction:
    """A player's win percentage as their opponents see it: byes left out, missed rounds lost, 25% to 75%/100%."""
    counted = record.rounds - record.byes + record.missed
    won = record.wins - record.byes + HALF * record.draws
    share = max(POKEMON_FLOOR, won / counted) if counted else POKEMON_FLOOR
    return min(share, POKEMON_DROPPED_CAP) if record.dropped else share


def _chess_tiebreakers(records: dict[str, _Record], rounds: int) -> list[_Column]:
    """Buchholz, Buchholz cut-1 and Sonneborn-Berger of every player, by FIDE C.07 (articles 8.1, 9.1, 14.1, 16).

    Each of rounds 1..`rounds` a player has no match or bye in is unplayed: a
    zero-point bye (a late entry's rounds before their first, a withdrawn
    player's after they left). A voluntary unplayed round (VUR, 16.1.2) is such
    a round or a forfeit loss. For the opponents' tiebreakers a player's score
    counts a VUR followed only by VURs as a draw (16.3.2), every other round as
    scored (16.3.1). For the player's own, each unplayed round is a game
    against a dummy whose score is the player's own, at most the scheduled
    opponent's adjusted score for a forfeit and half a point a round
    otherwise (16.4). Cut-1 drops the lowest value, or, for a player with
    VURs, the lowest value from a VUR (16.5).

    Scores are counted in half-points, so Buchholz is in halves and Sonneborn-Berger (a score times a score) in quarters.
    """
    value = {"W": 2, "D": 1, "L": 0}
    for record in records.values():
        for r in range(1, rounds + 1):
            record.slots.setdefault(r, _Slot("L", None, "absent"))

    def vur(slot: _Slot) -> bool:
        return slot.kind == "absent" or (slot.kind == "forfeit" and slot.scored == "L")

    own = {p: 2 * record.wins + record.draws for p, record in records.items()}
    adjusted: dict[str, int] = {}
    for p, record in records.items():
        ordered = [record.slots[r] for r in sorted(record.slots)]
        # A zero-point bye followed only by VURs counts as a draw for the opponents (16.2.5, 16.3.2).
        tail = next((k for k in range(len(ordered), 0, -1) if not vur(ordered[k - 1])), 0)
        adjusted[p] = own[p] + sum(1 for slot in ordered[tail:] if slot.kind == "absent")
    buchholz, cut, sonneborn_berger = {}, {}, {}
    for p, record in records.items():
        contributions: list[tuple[int, int, bool]] = []  # (Buchholz part, Sonneborn-Berger part, VUR)
        for slot in record.slots.values():
            if slot.kind == "game":
                assert slot.opponent is not None
                opponent = adjusted[slot.opponent]
            elif slot.kind == "forfeit":
                assert slot.opponent is not None
                opponent = min(own[p], adjusted[slot.opponent])
            else:
                opponent = min(own[p], rounds)  # half a point a round
            contributions.append((opponent, value[slot.scored] * opponent, vur(slot)))
        buchholz[p] = sum(c[0] for c in contributions)
        cuttable = [c[0] for c in contributions if c[2]] or [c[0] for c in contributions]
        cut[p] = buchholz[p] - min(cuttable, default=0)
        sonneborn_berger[p] = sum(c[1] for c in contributions)
    return [_Column(buchholz, 2), _Column(cut, 2), _Column(sonneborn_berger, 4)]
