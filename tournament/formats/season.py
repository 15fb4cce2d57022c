"""Season standings: points over a series of events, by a rule the season writes down (T-210, T-212).

Each event a person played gives them `win` points a match won (a bye is a win, as in the event's own
standings), `draw` a match drawn, `loss` a match lost and `attend` for coming at all. With `best` N, only
their N best events count (the best by points, then by wins, then the earlier event). Ties on points go by
the season's tiebreakers in order (`TIEBREAKERS`); people still equal share a rank.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

POINTS_RANGE = (0, 100)  # each of win, draw, loss and attend
BEST_RANGE = (1, 1000)  # the best N events counted
TIEBREAKERS: dict[str, str] = {
    "wins": "more matches won in the events counted",
    "place": "the better best place in one event",
    "events": "more events played",
}


class RuleError(ValueError):
    """A rule out of range, or a tiebreaker nobody knows."""


@dataclass(frozen=True)
class Rule:
    win: int = 3
    draw: int = 1
    loss: int = 0
    attend: int = 1
    best: int | None = None  # None: every event counts
    tiebreakers: tuple[str, ...] = ("wins", "place", "events")

    def __post_init__(self) -> None:
        low, high = POINTS_RANGE
        for name in ("win", "draw", "loss", "attend"):
            value = getattr(self, name)
            if not low <= value <= high:
                raise RuleError(f"{name}: {low} to {high} points, not {value}")
        if self.best is not None and not BEST_RANGE[0] <= self.best <= BEST_RANGE[1]:
            raise RuleError(f"best: {BEST_RANGE[0]} to {BEST_RANGE[1]} events, not {self.best}")
        unknown = [t for t in self.tiebreakers if t not in TIEBREAKERS]
        if unknown or len(set(self.tiebreakers)) != len(self.tiebreakers):
            raise RuleError(f"tiebreakers: each at most once, of {', '.join(TIEBREAKERS)}; not {','.join(self.tiebreakers)}")

    def text(self) -> str:
        """The rule in words, as pages and exports write it down."""
        counted = "every event counts" if self.best is None else f"the best {self.best} event{'s' if self.best > 1 else ''} count"
        ties = "; ".join(TIEBREAKERS[t] for t in self.tiebreakers) or "none"
        return (f"{self.win} a match won (a bye too), {self.draw} drawn, {self.loss} lost, {self.attend} an event played; "
                f"{counted}; ties: {ties}; then a shared place")


@dataclass(frozen=True)
class Played:
    """One person's record in one finished event: matches won (byes included), drawn and lost, and their place."""

    event: str
    wins: int
    draws: int
    losses: int
    place: int


@dataclass(frozen=True)
class Line:
    """One person's season: `points` (counted events only), and each event's points by event id."""

    rank: int
    person: str
    points: int
    by_event: dict[str, int]
    counted: tuple[str, ...]  # the events that count, in season order
    wins: int  # in the counted events
    place: int  # their best place in one event
    events: int  # events played


def _folded(name: str) -> str:
    """A name as an alphabetical list orders it: accents and case set aside (Ábel before Zoë)."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


def event_points(rule: Rule, played: Played) -> int:
    return rule.win * played.wins + rule.draw * played.draws + rule.loss * played.losses + rule.attend


def standings(rule: Rule, events: Sequence[str], results: Mapping[str, Sequence[Played]], names: Mapping[str, str]) -> list[Line]:
    """Rank every person with a result in `events` (season order); equal people are listed by name."""
    order = {e: i for i, e in enumerate(events)}
    lines = []
    for person, played in results.items():
        by_event = {p.event: event_points(rule, p) for p in played}
        best_first = sorted(played, key=lambda p: (-by_event[p.event], -p.wins, order[p.event]))
        kept = best_first if rule.best is None else best_first[: rule.best]
        counted = tuple(sorted((p.event for p in kept), key=order.__getitem__))
        lines.append(Line(
            0, person, sum(by_event[e] for e in counted), by_event, counted, sum(p.wins for p in kept),
            min(p.place for p in played), len(played),
        ))

    def key(line: Line) -> tuple[int, ...]:
        ties = {"wins": -line.wins, "place": line.place, "events": -line.events}
        return (-line.points, *(ties[t] for t in rule.tiebreakers))

    lines.sort(key=lambda line: (key(line), _folded(names.get(line.person, line.person)), line.person))
    ranked: list[Line] = []
    for i, line in enumerate(lines):
        shared = ranked and key(ranked[-1]) == key(line)
        ranked.append(dataclasses.replace(line, rank=ranked[-1].rank if shared else i + 1))
    return ranked
