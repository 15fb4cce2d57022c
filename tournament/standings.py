"""Standings: match points, game points and each event's tiebreakers.

A match is a win (3 match points), a draw (1) or a loss (0); the winner is the
player with more games won, and equal games won is a drawn match. A bye is a
2-0 win. Game points are 3 per game won and 1 per drawn game.

Tiebreaker profiles (`PROFILES`), all of them "higher is better":

- `mtg`, as in the Magic Tournament Rules, appendix C:
  `omw` (opponents' match-win percentage), `gw` (game-win percentage),
  `ogw` (opponents' game-win percentage). A player's match-win percentage is
  their match points over 3 per round played, their game-win percentage their
  game points over 3 per game played, each at least 0.33 (exactly 0.33, as
  the rules write it, not a third). Byes count in a
  player's own percentages but are left out of their opponents' averages.
  A player who dropped has their percentages over the rounds they played.
- `pokemon`: `owp` (opponents' win percentage, the same match-win percentage
  with a floor of 0.25) and `oowp` (the average of the opponents' `owp`).
- `chess`: `buchholz` (the sum of the opponents' match points),
  `buchholz_cut1` (the same without the lowest opponent) and
  `sonneborn_berger` (the match points of the opponents beaten, plus half of
  those of the opponents drawn). Scores are the event's match points; byes
  add nothing.

An average over no opponents (a player who only had byes) is 0. Every value
is computed exactly (fractions), so equal tiebreakers compare equal; ties
that remain are broken by player id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

WIN, DRAW, LOSS = 3, 1, 0  # match points
GAME_WIN, GAME_DRAW = 3, 1  # game points
MTG_FLOOR = Fraction(33, 100)
POKEMON_FLOOR = Fraction(1, 4)

PROFILES: dict[str, tuple[str, ...]] = {
    "mtg": ("omw", "gw", "ogw"),
    "pokemon": ("owp", "oowp"),
    "chess": ("buchholz", "buchholz_cut1", "sonneborn_berger"),
}


@dataclass(frozen=True)
class Match:
    round: int
    players: tuple[str, ...]  # two players; one player alone is a bye (a 2-0 win)
    games: dict[str, int]  # games won by each player in the match
    draws: int = 0  # drawn games in the match
    # the match winner has more games won; equal games won is a drawn match


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    points: int  # match points: win 3, draw 1, loss 0 (a bye is a win)
    game_points: int  # 3 per game won, 1 per game drawn
    wins: int
    losses: int
    draws: int
    byes: int
    tiebreakers: dict[str, float]  # name -> value, in the profile's order
    dropped: bool


@dataclass
class _Record:
    """One player's results, built up match by match."""

    points: int = 0
    game_points: int = 0
    games: int = 0
    rounds: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    # One entry per match played against someone (byes left out): the
    # opponent and the match points this player scored in that match.
    played: list[tuple[str, int]] = field(default_factory=list)

    def match_win(self, floor: Fraction) -> Fraction:
        return max(floor, Fraction(self.points, 3 * self.rounds)) if self.rounds else floor

    def game_win(self, floor: Fraction) -> Fraction:
        return max(floor, Fraction(self.game_points, 3 * self.games)) if self.games else floor


def standings(
    players: Sequence[str],
    matches: Sequence[Match],
    profile: str = "mtg",
    dropped: Mapping[str, int] | None = None,
) -> list[Standing]:
    """Rank `players`: by points, then the profile's tiebreakers in order, then player id.

    `dropped` maps a player who left to the last round they played; a match of
    theirs recorded for a later round is left out of their own record (their
    opponent keeps the result).
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown tiebreaker profile {profile!r}; known: {sorted(PROFILES)}")
    dropped = dropped or {}
    records = _records(players, matches, dropped)
    names = PROFILES[profile]
    values = {p: [_TIEBREAKERS[name](records, p) for name in names] for p in players}
    order = sorted(players, key=lambda p: (-records[p].points, *(-v for v in values[p]), p))
    return [
        Standing(
            rank=rank,
            player=p,
            points=records[p].points,
            game_points=records[p].game_points,
            wins=records[p].wins,
            losses=records[p].losses,
            draws=records[p].draws,
            byes=records[p].byes,
            tiebreakers={name: float(v) for name, v in zip(names, values[p], strict=True)},
            dropped=p in dropped,
        )
        for rank, p in enumerate(order, start=1)
    ]


def _records(
    players: Sequence[str], matches: Sequence[Match], dropped: Mapping[str, int]
) -> dict[str, _Record]:
    """Every player's record, including opponents who are not being ranked."""
    records = {p: _Record() for p in players}
    for match in matches:
        if len(match.players) not in (1, 2):
            raise ValueError(f"a match has one player (a bye) or two: {match.players}")
        counted = [p for p in match.players if match.round <= dropped.get(p, match.round)]
        for p in counted:
            record = records.setdefault(p, _Record())
            record.rounds += 1
            if len(match.players) == 1:
                record.byes += 1
                record.wins += 1
                record.points += WIN
                record.game_points += 2 * GAME_WIN
                record.games += 2
                continue
            (other,) = (q for q in match.players if q != p)
            mine, theirs = match.games.get(p, 0), match.games.get(other, 0)
            scored = WIN if mine > theirs else LOSS if mine < theirs else DRAW
            record.points += scored
            record.wins += scored == WIN
            record.losses += scored == LOSS
            record.draws += scored == DRAW
            record.game_points += GAME_WIN * mine + GAME_DRAW * match.draws
            record.games += mine + theirs + match.draws
            record.played.append((other, scored))
    return records


def _average(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def _omw(records: dict[str, _Record], p: str) -> Fraction:
    return _average([records[o].match_win(MTG_FLOOR) for o, _ in records[p].played])


def _gw(records: dict[str, _Record], p: str) -> Fraction:
    return records[p].game_win(MTG_FLOOR)


def _ogw(records: dict[str, _Record], p: str) -> Fraction:
    return _average([records[o].game_win(MTG_FLOOR) for o, _ in records[p].played])


def _owp(records: dict[str, _Record], p: str) -> Fraction:
    return _average([records[o].match_win(POKEMON_FLOOR) for o, _ in records[p].played])


def _oowp(records: dict[str, _Record], p: str) -> Fraction:
    return _average([_owp(records, o) for o, _ in records[p].played])


def _buchholz(records: dict[str, _Record], p: str) -> Fraction:
    return Fraction(sum(records[o].points for o, _ in records[p].played))


def _buchholz_cut1(records: dict[str, _Record], p: str) -> Fraction:
    scores = [records[o].points for o, _ in records[p].played]
    return Fraction(sum(scores) - min(scores, default=0))


def _sonneborn_berger(records: dict[str, _Record], p: str) -> Fraction:
    share = {WIN: Fraction(1), DRAW: Fraction(1, 2), LOSS: Fraction(0)}
    return sum(
        (share[scored] * records[o].points for o, scored in records[p].played), Fraction(0)
    )


_TIEBREAKERS: dict[str, Callable[[dict[str, _Record], str], Fraction]] = {
    "omw": _omw,
    "gw": _gw,
    "ogw": _ogw,
    "owp": _owp,
    "oowp": _oowp,
    "buchholz": _buchholz,
    "buchholz_cut1": _buchholz_cut1,
    "sonneborn_berger": _sonneborn_berger,
}
