"""A whole scripted event day, as an organiser runs it, and a small event whose standings are worked by hand."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.tournament.tlib import cli, cli_json, tables

FIRST = ["José", "Zoë", "Anne-Marie", "Łukasz", "Siobhán", "Ngọc", "Ana", "Émile"]
LAST = ["O'Neil", "Ramírez", "D'Angelo", "Müller", "Ó Briain", "Nguyễn", "de la Cruz", "Øvergaard"]


def people() -> list[str]:
    """64 names with accents and apostrophes, the first one twice (two people, one name)."""
    return ["José O'Neil", *(f"{f} {last}" for f in FIRST for last in LAST)][:64]


def results_file(path: Path, rows: list[dict[str, Any]], draw_at: int = 0) -> Path:
    """A slip for every open table: 2-0, 2-1 or 1-2 by table, a 1-1-1 at `draw_at`, an intentional draw at table 2."""
    lines = ["table,result"]
    for row in rows:
        if row["games"] is None:
            n = row["table"]
            lines.append(f"{n},{'1-1-1' if n == draw_at else '0-0' if n == 2 else ('2-0', '2-1', '1-2')[n % 3]}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def seated(info: dict[str, Any]) -> set[str]:
    return {p for t in info["tables"] for p in t["players"]}


def test_a_64_player_event_day(db_url: str, tmp_path: Path) -> None:
    db = db_url
    cli(db, "create", "day", "--seed", "2026", "--best-of", "3", "--name", "Spring Open")
    roster = tmp_path / "players.csv"
    twins = {0: "jose-oneil", 1: "jose-oneil-b"}  # one name, two people: a file tells them apart by id (T-67)
    roster.write_text("name,id,rating\n" + "".join(f'"{n}",{twins.get(k, "")},\n' for k, n in enumerate(people())), encoding="utf-8")
    ids = cli_json(db, "register", "day", "--from", str(roster))["registered"]
    assert len(ids) == 64 and ids[0] == "jose-oneil" and ids[1] == "jose-oneil-b"
    names = {p["name"]: p["display_name"] for p in json.loads(cli(db, "export", "day").stdout)["players"]}
    assert names["anne-marie-dangelo"] == "Anne-Marie D'Angelo"
    cli(db, "bye", "day", "ngoc-nguyen", "--round", "2")  # pre-assigned: round 2
    event = "day"

    # Round 1: paired, taken back (a registration was missing), paired again; a judge swaps two players.
    first = cli_json(db, "pair", event)
    cli(db, "register", event, "--id", "late", "Tomás Ó Sé")  # a late registration before the round starts
    cli(db, "unpair", event, "--reason", "a player was missing from the list")
    again = cli_json(db, "pair", event)
    assert "late" in seated(again) and again["tables"] != first["tables"]
    a, b = again["tables"][0]["players"][0], again["tables"][1]["players"][1]
    cli(db, "swap", event, a, b, "--reason", "seated at each other's table")
    cli(db, "round", "start", event, "--minutes", "50")
    cli(db, "extend", event, "--table", "3", "--minutes", "5", "--reason", "deck check")
    cli(db, "extend", event, "--table", "7", "--minutes", "10", "--reason", "judge call")
    assert [t["extra_minutes"] for t in tables(db, event)[:8]] == [0, 0, 5, 0, 0, 0, 10, 0]
    cli(db, "results", event, "--from", str(results_file(tmp_path / "r1.csv", tables(db, event), draw_at=5)))
    cli(db, "pause", event, "zoe-ramirez")  # has to leave for a round

    # Round 2: the pre-assigned bye and the pause are respected; a late entry for round 2.
    cli(db, "register", event, "Émile Zola")
    second = cli_json(db, "pair", event)
    assert second["byes"] == ["ngoc-nguyen"] and "ngoc-nguyen" not in seated(second)
    assert "zoe-ramirez" not in seated(second) and "emile-zola" in seated(second)
    cli(db, "report", event, "--table", "1", "2-1")  # a scorekeeper takes one slip at the desk...
    cli(db, "results", event, "--from", str(results_file(tmp_path / "r2.csv", tables(db, event))))  # ...and the rest
    cli(db, "resume", event, "zoe-ramirez")

    # Round 3.
    third = cli_json(db, "pair", event)
    assert "zoe-ramirez" in seated(third)
    cli(db, "results", event, "--from", str(results_file(tmp_path / "r3.csv", tables(db, event), draw_at=9)))

    assert "chain intact" in cli(db, "verify", event).stdout  # every change rebuilt from the log, pairings paired again
    standings = {s["player"]: s for s in cli_json(db, "standings", event)}
    assert len(standings) == 66
    ngoc, zoe, zola = standings["ngoc-nguyen"], standings["zoe-ramirez"], standings["emile-zola"]
    assert ngoc["byes"] == 1 and ngoc["wins"] >= 1
    assert zoe["wins"] + zoe["losses"] + zoe["draws"] == 2  # round 2 sat out: no match, no loss
    assert zola["wins"] + zola["losses"] + zola["draws"] == 3  # two matches and round 1 missed: a loss (T-20)
    page = tmp_path / "pairings.html"
    cli(db, "pairings", event, "--format", "html", "-o", str(page))
    assert "Anne-Marie D&#39;Angelo" in page.read_text()
    by_name = list(csv.reader(io.StringIO(cli(db, "pairings", event, "--by", "name", "--format", "csv").stdout)))
    assert len(by_name) == 1 + 66  # the header, then every player once
    log = [e["type"] for e in cli_json(db, "log", event)]
    for kind in ("round_unpaired", "players_swapped", "bye_assigned", "player_paused", "player_resumed", "round_started", "time_extended"):
        assert kind in log


# A small event worked by hand (mtg: 3 points a win, 1 a draw; percentages at least 0.33).
# Round 1: José beats Anne-Marie 2-1, Zoë beats Ludwig 2-0 (a CSV import).
# Round 2: Zoë beats José 2-1; Anne-Marie and Ludwig draw 1-1-1 (one game each and a drawn game).
#
#             points  games won/played  game points  GW%             MW%
#   José        3        3/6             9           9/18  = 0.5     3/6 = 0.5
#   Anne-Marie  1        2/6 (+1 drawn)  7           7/18  = 0.3889  1/6 -> 0.33
#   Zoë         6        4/5            12           12/15 = 0.8     6/6 = 1
#   Ludwig      1        1/5 (+1 drawn)  4           4/15  -> 0.33   1/6 -> 0.33
#
# OMW: José (0.33 + 1)/2 = 0.665; Anne-Marie (0.5 + 0.33)/2 = 0.415; Zoë (0.33 + 0.5)/2 = 0.415;
#      Ludwig (1 + 0.33)/2 = 0.665.
# OGW: José (0.3889 + 0.8)/2 = 0.5944; Anne-Marie (0.5 + 0.33)/2 = 0.415; Zoë (0.33 + 0.5)/2 = 0.415;
#      Ludwig (0.8 + 0.3889)/2 = 0.5944.
# Order: Zoë 6, José 3, then Ludwig and Anne-Marie on 1 point: OMW 0.665 beats 0.415, so Ludwig is third.
HAND = [
    ("zoe", 6, 12, 0.415, 0.8, 0.415),
    ("jose", 3, 9, 0.665, 0.5, 0.594444),
    ("ludwig", 1, 4, 0.665, 0.33, 0.594444),
    ("anne-marie", 1, 7, 0.415, 0.388889, 0.415),
]


def seat_together(db: str, event: str, a: str, b: str) -> None:
    """Swap so that a and b share a table (four players: one swap does it)."""
    rows = tables(db, event)
    table_of = {p: t for t in rows for p in t["players"]}
    if table_of[a] is table_of[b]:
        return
    partner = next(p for p in table_of[a]["players"] if p != a)
    cli(db, "swap", event, partner, b, "--reason", "the hand-worked case")


def test_standings_of_a_small_event_match_the_hand_worked_case(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "small", "--seed", "5", "--best-of", "3")
    assert cli_json(db_url, "register", "small", "José", "Zoë")["registered"] == ["jose", "zoe"]
    cli(db_url, "register", "small", "--id", "anne-marie", "Anne-Marie")  # a name that is an id would be kept as it is
    cli(db_url, "register", "small", "--id", "ludwig", "Ludwig")
    cli(db_url, "pair", "small")
    seat_together(db_url, "small", "jose", "anne-marie")
    results = {("jose", "anne-marie"): (2, 1, 0), ("zoe", "ludwig"): (2, 0, 0)}
    lines = ["table,result"]
    for row in tables(db_url, "small"):
        x, y = row["players"]
        a, b, d = results[(x, y)] if (x, y) in results else (lambda r: (r[1], r[0], r[2]))(results[(y, x)])
        lines.append(f"{row['table']},{a}-{b}-{d}")
    (tmp_path / "r1.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    cli(db_url, "results", "small", "--from", str(tmp_path / "r1.csv"))
    cli(db_url, "pair", "small")
    seat_together(db_url, "small", "zoe", "jose")
    for row in tables(db_url, "small"):
        x, _ = row["players"]
        score = {"zoe": "2-1", "jose": "1-2", "anne-marie": "1-1-1", "ludwig": "1-1-1"}[x]
        cli(db_url, "report", "small", "--table", str(row["table"]), score)
    got = [
        (s["player"], s["points"], s["game_points"], s["tiebreakers"]["omw"], s["tiebreakers"]["gw"], s["tiebreakers"]["ogw"])
        for s in cli_json(db_url, "standings", "small")
    ]
    assert [g[:3] for g in got] == [h[:3] for h in HAND]
    for g, h in zip(got, HAND, strict=True):
        assert g[3:] == pytest.approx(h[3:], abs=1e-6)
    assert "chain intact" in cli(db_url, "verify", "small").stdout
