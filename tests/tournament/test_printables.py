"""Printables: the alphabetical pairings list, match slips (several to an A4 sheet), pods seat lists."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path

from schemas.tournament import EventInfo, RoundInfo, TableRow
from tests.tournament.tlib import cli, cli_json, tables
from tournament.output import pages, printables

PEOPLE = ["Zoë Ångström", "Álvaro Díaz", "anne O'Neil", "Bob <b>Bold</b>", "Émile Zola"]


def by_name(db: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(cli(db, "pairings", "ev", "--by", "name", "--format", "csv").stdout)))


def test_pairings_by_name_is_alphabetical_with_table_opponent_and_seat(db_url: str) -> None:
    cli(db_url, "create", "ev", "--seed", "8")
    cli(db_url, "register", "ev", *PEOPLE)
    cli(db_url, "pair", "ev")
    rows = by_name(db_url)
    assert rows[0] == ["name", "table", "opponent", "seat"]
    assert [r[0] for r in rows[1:]] == ["Álvaro Díaz", "anne O'Neil", "Bob <b>Bold</b>", "Émile Zola", "Zoë Ångström"]
    info = cli_json(db_url, "pairings", "ev")
    for t in info["tables"]:
        a, b = t["names"]
        assert [a, str(t["table"]), b, "1"] in rows and [b, str(t["table"]), a, "2"] in rows
    assert [info["names"][info["bye"]], "bye", "", ""] in rows


def test_pods_seat_list_by_name(db_url: str) -> None:
    cli(db_url, "create", "ev", "--format", "pods", "--ruleset", "crossover", "--seed", "2", "--table-size", "3")
    cli(db_url, "register", "ev", *PEOPLE, "Ann")
    cli(db_url, "pair", "ev")
    rows = by_name(db_url)[1:]
    pod = tables(db_url, "ev")[0]
    first, second, third = pod["names"]
    assert [first, "1", f"{second}, {third}", "1"] in rows and [third, "1", f"{first}, {second}", "3"] in rows
    assert len(rows) == 6


def test_slips_one_page_several_per_sheet(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev", "--seed", "8", "--best-of", "3", "--name", "Spring <Open>")
    cli(db_url, "register", "ev", *PEOPLE, "Ann", "Cat", "Dan")
    cli(db_url, "pair", "ev")
    cli(db_url, "round", "start", "ev")
    page = tmp_path / "slips.html"
    cli(db_url, "slips", "ev", "-o", str(page))
    html = page.read_text()
    assert html.count('class="slip"') == 4 and "@page { size: A4" in html
    assert html.count("game 3") == 4 and html.count("signature: ") == 8
    assert "Bob &lt;b&gt;Bold&lt;/b&gt;" in html and "<b>Bold" not in html
    assert "Spring &lt;Open&gt;, round 1" in html and "time is up at" in html


def test_the_slip_block_can_be_extended() -> None:
    event = EventInfo("ev", "Ev", "cardwars", "mtg", 1, 1, datetime(2026, 11, 23, tzinfo=UTC), 3)
    table = TableRow(3, 7, ["ann", "bob"], None, None, None, None, [], names=["Ann", "Bob"])
    info = RoundInfo(3, 1, None, [table])
    child = pages.environment().from_string(
        '{% extends "slips.html.j2" %}{% block slip %}{{ super() }}<p class="code">sign in: {{ slip.table }}</p>{% endblock %}'
    )
    html = child.render(**printables.slip_context(event, info))
    assert '<p class="code">sign in: 7</p>' in html and "table 7" in html and "signature: Ann" in html
