"""Glicko-2, as Mark Glickman's "Example of the Glicko-2 system" (Boston University, 2013) sets it out.

One call rates one player over one rating period (`rate`) from their rating at
the period's start and their games against opponents rated at the period's
start; a player without a game in the period only grows less certain (`idle`).
The steps are numbered as in the paper. Why not the `glicko2` package from
PyPI (2.1.0): its step 5 puts the player's rating mu where the paper has phi,
so a volatility moves less than the paper's the further a player is from 1500
(tournament/README.md, "Ratings").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # the Glicko scale over the Glicko-2 scale (step 2)
START = 1500.0  # an unrated player: r 1500, RD 350, sigma 0.06 (step 1)
START_RD = 350.0
START_VOLATILITY = 0.06
TAU = 0.5  # the system constant: how fast volatility may change (the paper suggests 0.3 to 1.2)
EPSILON = 0.000001  # the convergence tolerance of step 5


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: `r` the rating, `rd` its deviation, `volatility` sigma."""

    r: float = START
    rd: float = START_RD
    volatility: float = START_VOLATILITY


@dataclass(frozen=True)
class Steps:
    """The quantities the paper prints along the way, on the Glicko-2 scale (for its worked example)."""

    v: float
    delta: float
    a: float  # the root of f that step 5 finds: sigma' is exp(a / 2)
    mu: float
    phi: float


def g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """E(mu, mu_j, phi_j): the expected score against opponent j."""
    return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))


def rate(player: Rating, games: list[tuple[Rating, float]], tau: float = TAU) -> tuple[Rating, Steps]:
    """The player's rating after a period with `games` (opponent at the period's start, score 1, 0.5 or 0)."""
    if not games:
        return idle(player), Steps(0.0, 0.0, math.log(player.volatility**2), (player.r - START) / SCALE, player.rd / SCALE)
    # Step 2: to the Glicko-2 scale.
    mu, phi, sigma = (player.r - START) / SCALE, player.rd / SCALE, player.volatility
    opponents = [((o.r - START) / SCALE, o.rd / SCALE, score) for o, score in games]
    # Steps 3 and 4: the estimated variance and the estimated improvement.
    terms = [(g(phi_j), expected(mu, mu_j, phi_j), score) for mu_j, phi_j, score in opponents]
    v = 1 / sum(gj * gj * e * (1 - e) for gj, e, _ in terms)
    improvement = sum(gj * (score - e) for gj, e, score in terms)
    delta = v * improvement
    # Step 5: the new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = c, f_c
    new_sigma = math.exp(low / 2)
    # Steps 6 and 7: the pre-period deviation, then the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    # Step 8: back to the Glicko scale.
    return Rating(SCALE * new_mu + START, SCALE * new_phi, new_sigma), Steps(v, delta, low, new_mu, new_phi)


def idle(player: Rating) -> Rating:
    """A player who did not compete in the period: only the deviation grows (step 6), rating and volatility stay."""
    phi = player.rd / SCALE
    return Rating(player.r, SCALE * math.sqrt(phi * phi + player.volatility**2), player.volatility)
