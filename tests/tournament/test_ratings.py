"""Ratings: Glicko-2 against Glickman's worked example, OpenSkill against the package, and what counts (T-91).

The Glicko-2 figures come from Mark Glickman, "Example of the Glicko-2 system"
(Boston University, 2013): a player rated 1500, RD 200, volatility 0.06, with
tau 0.5, beats an opponent rated 1400 (RD 30) and loses to 1550 (RD 100) and
1700 (RD 300).
"""

from __future__ import annotations

import math
import random

import pytest
from openskill.models import PlackettLuce

from tests.tournament.tlib import cli, cli_json
from tournament.formats import glicko2
from tournament.formats.ratings import Period, combine, rate

EXAMPLE = [(glicko2.Rating(1400, 30), 1.0), (glicko2.Rating(1550, 100), 0.0), (glicko2.Rating(1700, 300), 0.0)]


def test_glicko2_reproduces_glickmans_worked_example() -> None:
    after, steps = glicko2.rate(glicko2.Rating(1500, 200, 0.06), EXAMPLE, tau=0.5)
    # Step 7 as printed, on the Glicko-2 scale: mu' = -0.2069, phi' = 0.8722.
    assert round(steps.mu, 4) == -0.2069
    assert round(steps.phi, 4) == 0.8722
    # Step 8 as printed converts those four-decimal values: 173.7178 x -0.2069 + 1500 = 1464.06, 173.7178 x 0.8722 = 151.52.
    assert round(glicko2.SCALE * round(steps.mu, 4) + glicko2.START, 2) == 1464.06
    assert round(glicko2.SCALE * round(steps.phi, 4), 2) == 151.52
    # Unrounded, r' is 1464.0507: within the paper's rounding of mu' (173.7178 x 0.00005 = 0.0087) of its 1464.06.
    assert abs(after.r - 1464.06) < 0.01
    assert round(after.rd, 2) == 151.52
    # Step 5: sigma' = 0.0599960, which the paper prints to five decimals as 0.05999 (cut, not rounded).
    assert math.floor(after.volatility * 1e5) / 1e5 == 0.05999
    # Steps 3 and 4: v = 1.7785 and Delta = -0.4834 in the paper, whose E values are cut to three decimals
    # (0.639, 0.432, 0.303); ours to full precision are within that: 1.7790 and -0.4839.
    assert abs(steps.v - 1.7785) < 0.001 and abs(steps.delta - -0.4834) < 0.001


def test_a_player_who_does_not_compete_only_grows_less_certain() -> None:
    # Step 6 alone: phi' = sqrt(phi^2 + sigma^2); on the Glicko scale sqrt(200^2 + (173.7178 x 0.06)^2) = 200.2714.
    after = glicko2.idle(glicko2.Rating(1500, 200, 0.06))
    assert (after.r, after.volatility) == (1500, 0.06)
    assert round(after.rd, 4) == 200.2714
    # rate() with no games is the same step.
    assert glicko2.rate(glicko2.Rating(1500, 200, 0.06), [])[0] == after


def test_a_period_rates_from_the_ratings_at_its_start() -> None:
    """Glickman's example as one event among four people: everyone is rated from where they began it."""
    pools = rate([Period("e", "cardwars", "glicko2", games=[("ann", "bob", 1.0), ("ann", "cat", 0.0), ("dan", "ann", 1.0)])])
    ann = pools[("cardwars", "glicko2")]["ann"]
    start = glicko2.Rating()
    wanted, _ = glicko2.rate(start, [(start, 1.0), (start, 0.0), (start, 0.0)])
    assert (ann.rating, ann.deviation, ann.volatility) == (wanted.r, wanted.rd, wanted.volatility)
    assert (ann.events, ann.games) == (1, 3)


def test_an_openskill_pod_matches_the_package() -> None:
    """One pod, places 1, 2, 2, 4 (two share second): the package's own answer, to the last bit."""
    places = {"ann": 1, "bob": 2, "cat": 2, "dan": 4}
    pools = rate([Period("night", "crossover", "openskill", pods=[places])])
    model = PlackettLuce()
    order = sorted(places)
    teams = [[model.rating(name=p)] for p in order]
    answer = {p: team[0] for p, team in zip(order, model.rate(teams, ranks=[places[p] for p in order]), strict=True)}
    for person, rated in pools[("crossover", "openskill")].items():
        assert (rated.rating, rated.deviation) == (answer[person].mu, answer[person].sigma)
        assert rated.low == pytest.approx(answer[person].ordinal())
    assert pools[("crossover", "openskill")]["ann"].rating > pools[("crossover", "openskill")]["bob"].rating


def test_pods_of_one_event_combine_in_any_order() -> None:
    rng = random.Random(4)
    names = [f"p{i}" for i in range(12)]
    pods = []
    for _ in range(3):  # three rounds of three pods of four
        rng.shuffle(names)
        for t in range(3):
            pod = names[4 * t : 4 * t + 4]
            pods.append({p: place for place, p in enumerate(pod, start=1)})
    first = rate([Period("e", "crossover", "openskill", pods=pods)])
    rng.shuffle(pods)
    again = rate([Period("e", "crossover", "openskill", pods=pods)])
    for person, rated in first[("crossover", "openskill")].items():
        other = again[("crossover", "openskill")][person]
        assert rated.rating == pytest.approx(other.rating, abs=1e-12)
        assert rated.deviation == pytest.approx(other.deviation, abs=1e-12)
        assert rated.games == 3


def test_combining_gaussian_updates_by_hand() -> None:
    # Prior N(25, 4): an update to N(27, 2) is evidence of precision 1/2 - 1/4 = 1/4 at mean 29 (27/2 - 25/4 = 29/4);
    # two of them: precision 1/4 + 2/4 = 3/4, mean (25/4 + 2 x 29/4) / (3/4) = 83/3.
    mu, sigma = combine(25, 4, [(27, math.sqrt(2)), (27, math.sqrt(2))])
    assert mu == pytest.approx(83 / 3) and sigma == pytest.approx(math.sqrt(4 / 3))
    assert combine(25, 4, [(27, math.sqrt(2))]) == pytest.approx((27, math.sqrt(2)))


def _event(db: str, event: str, rated: bool, people: tuple[str, ...] = ("ann", "bob", "cat", "dan")) -> list[list[str]]:
    """An event of these people (the same people again: `--person`), round 1 paired: its tables' players."""
    cli(db, "create", event, "--best-of", "3", "--seed", "1", *(["--rated"] if rated else []))
    known = {p["id"] for p in cli_json(db, "people")}
    for person in people:
        cli(db, "register", event, *(["--person", person] if person in known else [person]))
    return [t["players"] for t in cli_json(db, "pair", event)["tables"]]


def test_what_counts_for_the_ratings(db_url: str) -> None:
    """T-91: rated events only; a drop's concession and an intentional draw are no game; a drawn match is half."""
    for number, _ in enumerate(_event(db_url, "unrated", False), start=1):
        cli(db_url, "report", "unrated", "--table", str(number), "2-0")
    assert cli_json(db_url, "ratings") == []
    (a, b), (c, d) = _event(db_url, "rated", True)
    cli(db_url, "report", "rated", "--table", "1", "1-1-1")
    cli(db_url, "report", "rated", "--table", "2", "0-0")  # an intentional draw
    rows = {r["person"]: r for r in cli_json(db_url, "ratings")}
    assert set(rows) == {a, b}
    start = glicko2.Rating()
    drew, _ = glicko2.rate(start, [(start, 0.5)])
    assert rows[a]["rating"] == drew.r == 1500.0
    assert (rows[a]["deviation"], rows[a]["games"]) == (pytest.approx(drew.rd, abs=1e-9), 1)
    # A drop mid-round concedes the table: the match stands in the standings, but no game was played.
    first, second = _event(db_url, "drops", True)
    cli(db_url, "drop", "drops", first[0])
    cli(db_url, "report", "drops", "--table", "2", "2-0")
    games = {r["person"]: r["games"] for r in cli_json(db_url, "ratings")}
    wanted = {p: 0 for p in (a, b, c, d)}
    for person in (a, b, *second):
        wanted[person] += 1
    assert games == {p: n for p, n in wanted.items() if n}


def test_a_person_away_from_an_event_grows_less_certain(db_url: str) -> None:
    _event(db_url, "one", True)
    cli(db_url, "report", "one", "--table", "1", "2-0")
    cli(db_url, "report", "one", "--table", "2", "2-1")
    before = {r["person"]: r for r in cli_json(db_url, "ratings")}
    _event(db_url, "two", True, people=("ann", "bob"))
    cli(db_url, "report", "two", "--table", "1", "2-0")
    after = {r["person"]: r for r in cli_json(db_url, "ratings")}
    cat = glicko2.idle(glicko2.Rating(before["cat"]["rating"], before["cat"]["deviation"], before["cat"]["volatility"]))
    assert after["cat"]["rating"] == before["cat"]["rating"]
    assert after["cat"]["deviation"] == pytest.approx(cat.rd, abs=0.01) and cat.rd > before["cat"]["deviation"]
    assert after["cat"]["events"] == 1 and after["ann"]["events"] == 2
    lows = [r["low"] for r in cli_json(db_url, "ratings")]  # the leaderboard: by r - 2 RD, best first
    assert lows == sorted(lows, reverse=True)
    info = cli_json(db_url, "person", "ann")
    assert [e["event"] for e in info["events"]] == ["one", "two"]
    assert len(info["matches"]) == 2 and info["ratings"][0]["system"] == "glicko2"


def test_pods_events_are_rated_by_openskill(db_url: str) -> None:
    cli(db_url, "create", "night", "--format", "pods", "--ruleset", "crossover", "--rated", "--seed", "2")
    cli(db_url, "register", "night", "ann", "bob", "cat", "dan")
    (pod,) = cli_json(db_url, "pair", "night")["tables"]
    seats = pod["players"]
    cli(db_url, "report", "night", "--table", "1", "-".join(str(i) for i in (1, 2, 2, 4)))
    model = PlackettLuce()
    answer = model.rate([[model.rating()] for _ in seats], ranks=[1, 2, 2, 4])
    rows = {r["person"]: r for r in cli_json(db_url, "ratings", "--system", "openskill")}
    for person, (after,) in zip(seats, answer, strict=True):
        assert rows[person]["rating"] == pytest.approx(after.mu, abs=1e-9)
        assert rows[person]["deviation"] == pytest.approx(after.sigma, abs=1e-9)
    assert cli_json(db_url, "ratings", "--system", "glicko2") == []
    cli(db_url, "ratings", "--system", "elo", code=2)


def test_ratings_and_person_json_keep_full_precision(db: str) -> None:
    """Issue 34: `--json` is read by programs; the 2 decimals are the text's and the pages', not the data's."""
    cli(db, "create", "night", "--format", "pods", "--ruleset", "crossover", "--rated", "--seed", "2")
    cli(db, "register", "night", "ann", "bob", "cat", "dan")
    (pod,) = cli_json(db, "pair", "night")["tables"]
    cli(db, "report", "night", "--table", "1", "1-2-3-4")
    answer = PlackettLuce().rate([[PlackettLuce().rating()] for _ in pod["players"]], ranks=[1, 2, 3, 4])
    rows = {r["person"]: r for r in cli_json(db, "ratings")}
    first = pod["players"][0]
    assert rows[first]["rating"] == pytest.approx(answer[0][0].mu, abs=1e-9) != round(answer[0][0].mu, 2)
    (kept,) = cli_json(db, "person", first)["ratings"]
    assert (kept["rating"], kept["deviation"], kept["low"]) == (rows[first]["rating"], rows[first]["deviation"], rows[first]["low"])
    assert kept["deviation"] != round(kept["deviation"], 2)
    assert "ann" in cli(db, "ratings").stdout  # the text still rounds as it shows
