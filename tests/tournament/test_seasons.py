"""Seasons (issue 36, T-210..T-214): the README's worked example, the rule's ranges and refusals, shared places,
unlinked entries, the files, a person's seasons, and the season's page and big screen in Chromium."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from tests.tournament.tlib import cli, cli_json
from tests.tournament.webkit import HOSTILE_PERSON, client, database, looks_right, serving
from tournament import service
from tournament.formats import season as rules
from tournament.storage.models import Person

NAMES = {"ann": "Ann Lee", "bob": "Bob Marsh", "cat": "Cat Diaz", "dan": "Dan Okafor", "eve": "Eve Park"}
# The README's six Thursdays ("A worked example"): each week's places, best first, and its drawn pairs.
WEEKS: list[tuple[list[str], list[tuple[str, str]]]] = [
    (["ann", "dan", "bob", "cat"], []),
    (["eve", "dan", "cat", "bob"], []),
    (["ann", "cat", "eve", "bob"], []),
    (["cat", "dan", "ann", "eve"], []),
    (["bob", "eve", "cat", "dan"], [("bob", "cat")]),
    (["eve", "dan", "ann", "bob"], []),
]


def play_week(db: str, number: int, *, finish: bool = True, names: dict[str, str] = NAMES) -> str:
    """Week `number` as a round robin of its four, every result from the README's table; finished unless told.
    Through the service in one transaction (the CLI's start-up, 60 times over, was most of the test's time)."""
    event = f"week{number}"
    order, draws = WEEKS[number - 1]
    with database(db) as engine, Session(engine) as session, session.begin():
        service.create_event(
            session, event, name=f"Thursday {number}", ruleset="cardwars", profile="mtg", best_of=1, seed=number, format="roundrobin",
        )
        known = set(session.scalars(select(Person.id)))
        service.register_people(
            session, event, [service.Person("", person=p) if p in known else service.Person(names[p], p) for p in order],
        )
        for _ in range(3):
            round_ = service.pair(session, event)
            for m in service.matches(session, event, round_.number):
                a, b = m.player_a, m.player_b
                drawn = (a, b) in draws or (b, a) in draws
                games = {a: 0, b: 0} if drawn else {a: 1, b: 0} if order.index(a) < order.index(b) else {a: 0, b: 1}
                service.report(session, event, m.number, result=service.Tally(games, 1 if drawn else 0))
        assert [s.player for s in service.standings(session, event)] == order, "the week's places are the README's"
        if finish:
            service.finish(session, event)
    return event


def six_weeks(db: str, *, finish_last: bool = True) -> None:
    cli(db, "season", "create", "thursdays", "--name", "Thursday League", "--best", "4")
    for number in range(1, 7):
        cli(db, "season", "add", "thursdays", play_week(db, number, finish=number < 6 or finish_last))


def by_person(table: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["person"]: row for row in table["standings"]}


def test_the_readme_worked_example(tmp_path: Path) -> None:
    """Every figure typed from the README's hand computation; week 6 counts only once it is finished (T-213)."""
    db = f"sqlite:///{tmp_path / 't.db'}"
    six_weeks(db, finish_last=False)
    before = by_person(cli_json(db, "season", "standings", "thursdays"))
    assert before["eve"]["points"] == 22 and before["ann"]["points"] == 24  # "After week 5, ... Eve had 22 ... Ann 24"
    assert "week6" not in before["eve"]["results"]
    cli(db, "finish", "week6")  # the season moves when the event finishes
    table = cli_json(db, "season", "standings", "thursdays")
    rows = by_person(table)
    # The README's second table: week by week, counted, points, wins, best place; and the places.
    weeks = {
        "eve": [None, 10, 4, 1, 7, 10], "ann": [10, None, 10, 4, None, 4], "dan": [7, 7, None, 7, 1, 7],
        "cat": [1, 4, 7, 10, 5, None], "bob": [4, 1, 1, None, 8, 1],
    }
    counted = {
        "eve": [2, 3, 5, 6], "ann": [1, 3, 4, 6], "dan": [1, 2, 4, 6], "cat": [2, 3, 4, 5], "bob": [1, 2, 3, 5],
    }
    expected = {"eve": (31, 9, 1), "ann": (28, 8, 1), "dan": (28, 8, 2), "cat": (26, 7, 1), "bob": (14, 3, 1)}
    for person, (points, wins, place) in expected.items():
        row = rows[person]
        assert [row["results"].get(f"week{n}") for n in range(1, 7)] == weeks[person], person
        assert row["counted"] == [f"week{n}" for n in counted[person]], person
        assert (row["points"], row["wins"], row["place"]) == (points, wins, place), person
        assert row["name"] == NAMES[person]
    assert [(r["rank"], r["person"]) for r in table["standings"]] == [(1, "eve"), (2, "ann"), (3, "dan"), (4, "cat"), (5, "bob")]
    assert table["unlinked"] == 0 and table["season"]["best"] == 4
    # "Had every event counted, Dan (29) would be ahead of Ann (28)"
    cli(db, "season", "create", "everything", "--name", "All weeks")
    cli(db, "season", "add", "everything", *[f"week{n}" for n in range(1, 7)])
    every = cli_json(db, "season", "standings", "everything")["standings"]
    assert [(r["person"], r["points"]) for r in every if r["person"] in ("ann", "dan")] == [("dan", 29), ("ann", 28)]
    for event in [f"week{n}" for n in range(1, 7)]:
        cli(db, "verify", event)


def test_the_rule_is_range_checked_and_written_down(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    for bad in (["--win", "101"], ["--draw", "-1"], ["--best", "0"], ["--tiebreakers", "wins,luck"], ["--tiebreakers", "wins,wins"]):
        refused = cli(db, "season", "create", "s", "--name", "S", *bad, code=service.EXIT_USAGE)
        assert "Traceback" not in refused.stderr and refused.stderr.strip().count("\n") <= 12
    assert cli(db, "season", "list", "--json").stdout.strip() == "[]", "a refused season is not made"
    cli(db, "season", "create", "s", "--name", "S", "--ruleset", "nosuchgame", code=service.EXIT_USAGE)
    info = cli_json(db, "season", "create", "t", "--name", "T", "--win", "2", "--attend", "0")
    assert info["rule"].startswith("2 a match won (a bye too), 1 drawn, 0 lost, 0 an event played; every event counts")
    cli(db, "season", "create", "t", "--name", "Again", code=service.EXIT_CONFLICT)
    play_week(db, 1)
    cli(db, "create", "mg", "--ruleset", "maginot", "--format", "pods")
    assert "maginot" in cli(db, "season", "add", "t", "week1", "mg", code=service.EXIT_CONFLICT).stderr
    assert cli_json(db, "season", "standings", "t")["events"] == [], "all or none"
    cli(db, "season", "add", "t", "week1")
    cli(db, "season", "add", "t", "week1", code=service.EXIT_CONFLICT)
    refused = cli(db, "season", "rule", "t", "--win", "3", code=service.EXIT_CONFLICT)  # week1 is finished (T-212)
    assert "written down" in refused.stderr
    assert cli_json(db, "season", "rule", "t")["win"] == 2


def test_the_rule_changes_until_an_event_finishes(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    cli(db, "season", "create", "s", "--name", "S", "--best", "2")
    cli(db, "season", "add", "s", play_week(db, 1, finish=False))
    assert cli_json(db, "season", "standings", "s")["standings"] == []  # nothing finished: nothing counts
    changed = cli_json(db, "season", "rule", "s", "--all-count", "--tiebreakers", "events,place")
    assert changed["best"] is None and changed["tiebreakers"] == ["events", "place"]
    cli(db, "finish", "week1")
    assert [r["points"] for r in cli_json(db, "season", "standings", "s")["standings"]] == [10, 7, 4, 1]


def test_equal_people_share_a_place_and_are_listed_by_name() -> None:
    rule = rules.Rule(tiebreakers=("wins",))
    results = {
        "zed": [rules.Played("e1", 1, 0, 1, 2)], "amy": [rules.Played("e1", 1, 0, 1, 3)], "top": [rules.Played("e1", 2, 0, 0, 1)],
    }
    lines = rules.standings(rule, ["e1"], results, {"zed": "Ábel", "amy": "Zoë", "top": "Top"})
    assert [(li.rank, li.person) for li in lines] == [(1, "top"), (2, "zed"), (2, "amy")]  # Ábel before Zoë, one place
    assert [li.points for li in lines] == [7, 4, 4]
    with pytest.raises(rules.RuleError, match="best: 1 to 1000"):
        rules.Rule(best=1001)


def test_unlinked_entries_do_not_count_and_are_told(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    cli(db, "season", "create", "s", "--name", "S")
    cli(db, "season", "add", "s", play_week(db, 1))
    from sqlalchemy import text

    from tournament.storage.db import make_engine

    engine = make_engine(db)
    with engine.begin() as connection:  # as an event from before people were kept: its players name nobody
        connection.execute(text("UPDATE players SET person = NULL WHERE name = 'cat'"))
    engine.dispose()
    table = cli_json(db, "season", "standings", "s")
    assert table["unlinked"] == 1 and "cat" not in by_person(table)
    assert "linked to no person" in cli(db, "season", "standings", "s").stderr


def test_the_files_the_person_and_the_pages(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    hostile = dict(NAMES, cat=HOSTILE_PERSON)
    cli(db, "season", "create", "s", "--name", "Winter <League>")
    cli(db, "season", "add", "s", play_week(db, 1, names=hostile), play_week(db, 2, names=hostile))
    written = cli(db, "season", "standings", "s", "--format", "csv").stdout
    rows = list(csv.reader(io.StringIO(written)))
    assert rows[0] == ["rank", "person", "name", "points", "Thursday 1", "Thursday 2", "wins", "best place", "played"]
    assert rows[1] == ["1", "dan", "Dan Okafor", "14", "7", "7", "4", "2", "2"]  # 2W + 1 twice; both count
    assert json.loads(cli(db, "season", "standings", "s", "--format", "json").stdout) == cli_json(db, "season", "standings", "s")
    ann = cli_json(db, "person", "ann")["seasons"]
    assert ann == [{"season": "s", "name": "Winter <League>", "rank": 2, "of": 5, "points": 10, "played": 1, "events": 2}]
    with client(db) as c:
        assert c.get("/api/seasons/s").json() == cli_json(db, "season", "standings", "s")
        got = c.get("/seasons/s/files/standings.csv")
        assert got.status_code == 200 and got.text == written and "attachment" in got.headers["content-disposition"]
        assert c.get("/seasons/s/files/passwords.txt").status_code == 404
        assert c.get("/seasons/nope").status_code == 404
        assert c.get("/seasons/s/screen", params={"seconds": 1}).status_code == 400
        page = c.get("/seasons/s").text
        assert "Winter &lt;League&gt;" in page and ">Dan Okafor<" in page and ">dan<" not in page
        assert "/seasons/s" in c.get("/people/ann").text


@pytest.mark.browser
def test_the_season_page_and_big_screen_in_chromium(page: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    hostile = dict(NAMES, cat=HOSTILE_PERSON)
    cli(db, "season", "create", "s", "--name", "Thursday League")
    cli(db, "season", "add", "s", play_week(db, 1, names=hostile), play_week(db, 2, names=hostile))
    with serving(db) as base:
        page.goto(base + "/seasons/s")
        assert page.locator("h1").inner_text() == "Thursday League"
        first = page.locator("tbody tr").first.inner_text().split("\t")
        assert first[:3] == ["1", "Dan Okafor", "14"]
        looks_right(page, tmp_path / "season.png")
        page.click("text=Dan Okafor")
        assert page.locator("h1").inner_text() == "Dan Okafor" and page.locator("text=1 of 5").count() == 1
        looks_right(page, tmp_path / "person.png")
        page.set_viewport_size({"width": 1280, "height": 720})
        page.goto(base + "/seasons/s/screen")
        assert page.locator(".screen-list li").first.inner_text().split("\n")[:2] == ["1", "Dan Okafor"]
        assert page.evaluate("window.__injected === undefined")


def test_namesakes_are_told_apart_by_a_label_not_an_id(tmp_path: Path) -> None:
    """Two people of one name (T-185): the season's standings, page and table show each with a label a person
    reads, as the event's standings do, and never the person ids that are all that tell them apart otherwise."""
    db = f"sqlite:///{tmp_path / 't.db'}"
    cli(db, "season", "create", "s", "--name", "S")
    cli(db, "season", "add", "s", play_week(db, 1, names=dict(NAMES, dan="Ann Lee")))
    shown = {row["person"]: row["name"] for row in cli_json(db, "season", "standings", "s")["standings"]}
    assert shown["ann"] != shown["dan"] and shown["ann"].startswith("Ann Lee (") and shown["dan"].startswith("Ann Lee (")
    assert shown["bob"] == "Bob Marsh"  # no namesake: the name alone
    table = cli(db, "season", "standings", "s").stdout
    assert shown["ann"] in table and shown["dan"] in table
    with client(db) as c:
        page = c.get("/seasons/s").text
    assert f">{shown['ann']}<" in page and f">{shown['dan']}<" in page
