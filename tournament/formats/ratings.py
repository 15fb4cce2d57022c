"""Ratings from results: Glicko-2 for two-player matches, OpenSkill for pods, one rating period per event.

Pure functions over `Period`s (one rated event each, oldest first); the
service reads them from the database (`service.ratings`). Each ruleset is
rated apart (a person's cardwars rating says nothing of their maginot), and
two-player events apart from pods events of the same game (the two systems
have different scales). tournament/README.md, "Ratings", says which number
is which and why an event is one period.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from tournament.formats import glicko2

System = Literal["glicko2", "openskill"]
GLICKO_SPREAD = 2  # a Glicko-2 leaderboard ranks by r - 2 RD (about 95% sure the player is at least that)
OPENSKILL_SPREAD = 3  # an OpenSkill one by mu - 3 sigma: the package's `ordinal`


@dataclass(frozen=True)
class Period:
    """One rated event: its two-player results (person, person, the first's score: 1, 0.5 or 0), or its
    pods (each person's place, 1 = best), all rated from the ratings at the event's start."""

    event: str
    ruleset: str
    system: System
    games: Sequence[tuple[str, str, float]] = ()
    pods: Sequence[dict[str, int]] = ()


@dataclass
class Rated:
    """A person's rating in one pool (ruleset and system) after the periods so far.

    Glicko-2: `rating` is r (1500 to start), `deviation` RD, `volatility` sigma.
    OpenSkill: `rating` is mu (25 to start), `deviation` sigma; no volatility.
    `low`, what a leaderboard ranks by: r - 2 RD, or mu - 3 sigma.
    """

    person: str
    ruleset: str
    system: System
    rating: float
    deviation: float
    volatility: float | None
    events: int = 0
    games: int = 0
    history: list[tuple[str, float]] = field(default_factory=list)  # (event, rating after it), the events played

    @property
    def low(self) -> float:
        return self.rating - (GLICKO_SPREAD if self.system == "glicko2" else OPENSKILL_SPREAD) * self.deviation


def rate(periods: Iterable[Period]) -> dict[tuple[str, System], dict[str, Rated]]:
    """Every pool's ratings after all `periods` (oldest first): (ruleset, system) -> person -> Rated."""
    pools: dict[tuple[str, System], dict[str, Rated]] = {}
    for period in periods:
        pool = pools.setdefault((period.ruleset, period.system), {})
        if period.system == "glicko2":
            _glicko_period(pool, period)
        else:
            _openskill_period(pool, period)
    return pools


def _glicko_period(pool: dict[str, Rated], period: Period) -> None:
    played: dict[str, list[tuple[str, float]]] = {}
    for a, b, score in period.games:
        played.setdefault(a, []).append((b, score))
        played.setdefault(b, []).append((a, 1 - score))
    for person in played:
        pool.setdefault(person, Rated(person, period.ruleset, "glicko2", glicko2.START, glicko2.START_RD, glicko2.START_VOLATILITY))
    before = {p: glicko2.Rating(r.rating, r.deviation, r.volatility or glicko2.START_VOLATILITY) for p, r in pool.items()}
    for person, rated in pool.items():
        games = played.get(person)
        if games is None:  # did not play this period: only less certain (step 6)
            after = glicko2.idle(before[person])
        else:
            after, _ = glicko2.rate(before[person], [(before[o], s) for o, s in games])
            rated.events, rated.games = rated.events + 1, rated.games + len(games)
        rated.rating, rated.deviation, rated.volatility = after.r, after.rd, after.volatility
        if games is not None:
            rated.history.append((period.event, after.r))


def _openskill_period(pool: dict[str, Rated], period: Period) -> None:
    """Each pod rated by OpenSkill's Plackett-Luce model from the ratings at the event's start; a person's pods
    are then combined as independent evidence about them (their Gaussian updates multiply: precisions add),
    which is what one pod gives alone and does not depend on the order the pods are read in."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    people = {p for pod in period.pods for p in pod}
    for person in people:
        pool.setdefault(person, Rated(person, period.ruleset, "openskill", model.mu, model.sigma, None))
    start = {p: (pool[p].rating, pool[p].deviation) for p in people}
    updates: dict[str, list[tuple[float, float]]] = {p: [] for p in people}
    for pod in period.pods:
        order = sorted(pod)
        teams = [[model.rating(mu=start[p][0], sigma=start[p][1], name=p)] for p in order]
        for person, (after,) in zip(order, model.rate(teams, ranks=[pod[p] for p in order]), strict=True):
            updates[person].append((after.mu, after.sigma))
    for person, seen in updates.items():
        mu, sigma = start[person]
        prior = sigma * sigma + model.tau * model.tau  # the model widens each rating by tau before a game
        mu, sigma = combine(mu, prior, seen)
        rated = pool[person]
        rated.rating, rated.deviation = mu, sigma
        rated.events, rated.games = rated.events + 1, rated.games + len(seen)
        rated.history.append((period.event, mu))


def combine(mu: float, prior_variance: float, updates: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The rating all `updates` (each a (mu, sigma) rated from the same prior) give together: each update over
    the prior is a Gaussian message, and messages multiply (precisions and precision-weighted means add)."""
    if len(updates) == 1:
        return updates[0]  # nothing to combine: the package's answer as it gave it, not one rounded through the sums
    precision, weighted = 1 / prior_variance, mu / prior_variance
    for mu_i, sigma_i in updates:
        precision += 1 / (sigma_i * sigma_i) - 1 / prior_variance
        weighted += mu_i / (sigma_i * sigma_i) - mu / prior_variance
    return weighted / precision, math.sqrt(1 / precision)
