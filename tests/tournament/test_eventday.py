"""The event day on both databases: scores and slips, a round from a CSV file, unpair, swap, byes, pauses, the clock."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from tests.tournament.tlib import cli, cli_json, tables
from tournament import service
from tournament.storage.db import make_engine

EIGHT = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]


def started(db: str, *, best_of: int = 3, players: list[str] = EIGHT, late_entry: str = "loss") -> list[dict[str, Any]]:
    cli(db, "create", "ev", "--seed", "11", "--best-of", str(best_of), "--late-entry", late_entry)
    cli(db, "register", "ev", *players)
    cli(db, "pair", "ev")
    return tables(db, "ev")


def log_types(db: str) -> list[str]:
    return [e["type"] for e in cli_json(db, "log", "ev")]


def export(db: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(cli(db, "export", "ev").stdout)
    return data


def test_scores_slips_and_rulings(db_url: str) -> None:
    rows = started(db_url)
    first, second, third, fourth = (r["players"] for r in rows)
    done = cli_json(db_url, "report", "ev", "--table", "1", "2-1")["table"]
    assert done["games"] == {first[0]: 2, first[1]: 1} and done["source"] == "slip" and done["reason"] is None
    done = cli_json(db_url, "report", "ev", "--table", "2", "1-1-1")["table"]
    assert done["games"] == {second[0]: 1, second[1]: 1} and done["draws"] == 1
    cli(db_url, "report", "ev", "--table", "3", "--draw")
    cli(db_url, "report", "ev", "--table", "4", "--judge", "--result", f"{fourth[0]}=0,{fourth[1]}=2", code=service.EXIT_USAGE)
    ruled = cli_json(db_url, "report", "ev", "--table", "4", "--result", f"{fourth[0]}=0,{fourth[1]}=2", "--reason", "deck check")
    assert ruled["table"]["source"] == "judge" and ruled["table"]["reason"] == "deck check"
    shown = list(csv.reader(io.StringIO(cli(db_url, "pairings", "ev", "--format", "csv").stdout)))
    assert [row[3] for row in shown[1:5]] == ["2-1", "1-1-1", "ID", "0-2"]
    assert [row[4] for row in shown[1:5]] == ["slip", "slip", "slip", "judge"]
    # The same slip again changes nothing; another needs a judge's correction with a reason.
    assert cli_json(db_url, "report", "ev", "--table", "1", "2-1")["changed"] is False
    cli(db_url, "report", "ev", "--table", "1", "2-0", code=service.EXIT_CONFLICT)
    cli(db_url, "correct", "ev", "--table", "1", "2-0", code=service.EXIT_USAGE)  # no --reason
    fixed = cli_json(db_url, "correct", "ev", "--table", "1", "2-0", "--reason", "slip misread")["table"]
    assert fixed["games"] == {first[0]: 2, first[1]: 0} and fixed["source"] == "judge"
    standings = {s["player"]: s for s in cli_json(db_url, "standings", "ev")}
    assert standings[third[0]]["points"] == standings[third[1]]["points"] == 1 and standings[third[0]]["game_points"] == 0
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


@pytest.mark.parametrize("score", ["3-0", "2-2", "abc", "2-1-1-1", "-1-2"])
def test_a_score_that_is_no_result_is_refused(db_url: str, score: str) -> None:
    started(db_url)
    before = log_types(db_url)
    failed = cli(db_url, "report", "ev", "--table", "1", "--", score, code=service.EXIT_USAGE)
    assert len(failed.stderr.strip().splitlines()) == 1
    assert log_types(db_url) == before


def test_a_round_from_a_csv_file_in_one_transaction(db_url: str, tmp_path: Path) -> None:
    rows = started(db_url)
    source = tmp_path / "results.csv"
    source.write_text("table,result\n1,2-0\n2,1-2\n3,2-1-0\n", encoding="utf-8")
    assert cli_json(db_url, "results", "ev", "--from", str(source))["entered"] == 3
    assert [t["games"] is not None for t in tables(db_url, "ev")] == [True, True, True, False]
    assert tables(db_url, "ev")[1]["games"] == {rows[1]["players"][0]: 1, rows[1]["players"][1]: 2}
    # The file again changes nothing; with a different result for a reported table it is refused whole.
    assert cli_json(db_url, "results", "ev", "--from", str(source))["entered"] == 0
    before = log_types(db_url)
    source.write_text("table,result\n4,2-0\n1,0-2\n", encoding="utf-8")
    failed = cli(db_url, "results", "ev", "--from", str(source), code=service.EXIT_CONFLICT)
    assert f"{source} line 3, field result" in failed.stderr
    assert log_types(db_url) == before and tables(db_url, "ev")[3]["games"] is None
    source.write_text("table,result\n4,2-0\n", encoding="utf-8")
    assert "every table has a result" in cli(db_url, "results", "ev", "--from", str(source)).stdout
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        ("table,result\n1,2-0\n2,5-0\n", service.EXIT_USAGE, "line 3, field result"),
        ("1,2-0\n9,2-0\n", service.EXIT_NOT_FOUND, "line 2, field table: round 1 has no table 9"),
        ("\ntable,result\n1,2-0\n9,2-0\n", service.EXIT_NOT_FOUND, "line 4, field table"),  # a header after a blank line
        ("1,2-0\n1,2-1\n", service.EXIT_USAGE, "line 2, field table: table 1 is given twice"),
        ("1,2-0\nx,2-1\n", service.EXIT_USAGE, "line 2, field table"),
        ("1,2-0\n2\n", service.EXIT_USAGE, "line 2: 1 fields"),
        ("\n\n", service.EXIT_USAGE, "no results in it"),
        ("1,2-0\n²,2-1\n", service.EXIT_USAGE, "line 2, field table"),  # a digit int() refuses
        ("1,2-0\n" + "1" * 5000 + ",2-1\n", service.EXIT_USAGE, "line 2, field table"),  # over int()'s digit limit
        ("1,2-0\n2," + "9" * 200_000 + "\n", service.EXIT_USAGE, "line 2: field larger than field limit"),
    ],
)
def test_a_bad_results_file_writes_nothing(db_url: str, tmp_path: Path, text: str, code: int, message: str) -> None:
    started(db_url)
    source = tmp_path / "results.csv"
    source.write_text(text, encoding="utf-8")
    before = log_types(db_url)
    failed = cli(db_url, "results", "ev", "--from", str(source), code=code)
    assert message in failed.stderr and len(failed.stderr.strip().splitlines()) == 1
    assert log_types(db_url) == before


def test_unpair_then_pair_again_and_reseed(db_url: str) -> None:
    first = started(db_url)
    cli(db_url, "unpair", "ev", "--reason", "wrong player list")
    assert export(db_url)["rounds"] == []
    cli(db_url, "pair", "ev")
    assert [t["players"] for t in tables(db_url, "ev")] == [t["players"] for t in first]  # same seed, same pairing
    cli(db_url, "unpair", "ev")
    reseeded = cli_json(db_url, "pair", "ev", "--reseed")
    assert reseeded["seed"] != 11
    cli(db_url, "report", "ev", "--table", "1", "2-0")
    cli(db_url, "unpair", "ev", code=service.EXIT_CONFLICT)  # a result is in
    assert log_types(db_url).count("round_unpaired") == 2
    assert "chain intact" in cli(db_url, "verify", "ev").stdout  # pairing checked again with each round's seed


def test_a_late_entry_after_an_unpaired_round_joins_it(db_url: str) -> None:
    started(db_url)
    cli(db_url, "register", "ev", "ida")
    cli(db_url, "unpair", "ev")
    cli(db_url, "pair", "ev")
    info = cli_json(db_url, "pairings", "ev")
    seated = {p for t in info["tables"] for p in t["players"]} | ({info["bye"]} if info["bye"] else set())
    assert "ida" in seated
    assert {p["name"]: p["registered_round"] for p in export(db_url)["players"]}["ida"] == 0
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


def test_swap(db_url: str) -> None:
    rows = started(db_url)
    a, b = rows[0]["players"][0], rows[1]["players"][1]
    cli(db_url, "swap", "ev", a, b, code=service.EXIT_USAGE)  # --reason is required
    cli(db_url, "swap", "ev", a, b, "--reason", "  ", code=service.EXIT_USAGE)
    cli(db_url, "swap", "ev", a, rows[0]["players"][1], "--reason", "x", code=service.EXIT_USAGE)  # same table
    cli(db_url, "swap", "ev", a, "zed", "--reason", "x", code=service.EXIT_NOT_FOUND)
    swapped = cli_json(db_url, "swap", "ev", a, b, "--reason", "seated at the wrong table")
    now = [t["players"] for t in swapped["pairings"]["tables"]]
    assert now[0] == [b, rows[0]["players"][1]] and now[1] == [rows[1]["players"][0], a]
    cli(db_url, "report", "ev", "--table", "1", "2-0")
    cli(db_url, "swap", "ev", b, a, "--reason", "back", code=service.EXIT_CONFLICT)
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


def test_a_pre_assigned_bye_is_the_players_one_bye(db_url: str) -> None:
    cli(db_url, "create", "ev", "--seed", "4")
    cli(db_url, "register", "ev", "ann", "bob", "cat", "dan", "eve")
    cli(db_url, "bye", "ev", "ann", "--round", "1")
    cli(db_url, "bye", "ev", "bob", "--round", "1")
    cli(db_url, "bye", "ev", "ann", "--round", "2", code=service.EXIT_CONFLICT)  # one bye a player
    first = cli_json(db_url, "pair", "ev")
    assert first["byes"] == ["ann", "bob"] and first["bye"] not in (None, "ann", "bob")  # three left: a table and a bye
    seated = {p for t in first["tables"] for p in t["players"]}
    assert "ann" not in seated and "bob" not in seated and len(first["tables"]) == 1
    cli(db_url, "bye", "ev", "cat", "--round", "1", code=service.EXIT_CONFLICT)  # round 1 is paired
    for t in first["tables"]:
        cli(db_url, "report", "ev", "--table", str(t["table"]), "1-0")
    by = {s["player"]: s for s in cli_json(db_url, "standings", "ev")}
    assert (by["ann"]["points"], by["ann"]["byes"], by["ann"]["wins"]) == (3, 1, 1)
    second = cli_json(db_url, "pair", "ev")  # five players: the bye goes to someone without one
    assert second["bye"] not in ("ann", "bob", first["bye"])
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


def test_a_bye_can_be_taken_back_and_brackets_have_none(db_url: str) -> None:
    cli(db_url, "create", "ev", "--seed", "4")
    cli(db_url, "register", "ev", "ann", "bob", "cat", "dan")
    cli(db_url, "bye", "ev", "ann", "--round", "2")
    cli(db_url, "bye", "ev", "ann", "--cancel")
    cli(db_url, "bye", "ev", "ann", "--cancel", code=service.EXIT_CONFLICT)
    cli(db_url, "bye", "ev", "ann", code=service.EXIT_USAGE)
    cli(db_url, "create", "cup", "--format", "single")
    cli(db_url, "register", "cup", "ann", "bob")
    cli(db_url, "bye", "cup", "ann", "--round", "1", code=service.EXIT_USAGE)
    cli(db_url, "pause", "cup", "ann", code=service.EXIT_USAGE)


def test_pause_and_resume(db_url: str) -> None:
    started(db_url, best_of=1)
    cli(db_url, "pause", "ev", "ann")
    cli(db_url, "pause", "ev", "ann", code=service.EXIT_CONFLICT)
    for t in tables(db_url, "ev"):
        cli(db_url, "report", "ev", "--table", str(t["table"]), "1-0")
    cli(db_url, "pair", "ev")
    second = cli_json(db_url, "pairings", "ev")
    assert "ann" not in {p for t in second["tables"] for p in t["players"]} and second["bye"] != "ann"
    for t in second["tables"]:
        cli(db_url, "report", "ev", "--table", str(t["table"]), "1-0")
    cli(db_url, "resume", "ev", "ann")
    cli(db_url, "resume", "ev", "ann", code=service.EXIT_CONFLICT)
    cli(db_url, "pair", "ev")
    assert "ann" in {p for t in tables(db_url, "ev") for p in t["players"]}
    ann = next(s for s in cli_json(db_url, "standings", "ev") if s["player"] == "ann")
    assert ann["wins"] + ann["losses"] + ann["draws"] == 1  # round 2 sat out: no match, no loss
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


@pytest.mark.parametrize(("rule", "losses"), [("loss", 1), ("none", 0)])
def test_a_late_entrys_missed_rounds(db_url: str, rule: str, losses: int) -> None:
    started(db_url, best_of=1, late_entry=rule)
    cli(db_url, "register", "ev", "ida")
    for t in tables(db_url, "ev"):
        cli(db_url, "report", "ev", "--table", str(t["table"]), "1-0")
    late = next(s for s in cli_json(db_url, "standings", "ev") if s["player"] == "ida")
    assert (late["points"], late["losses"]) == (0, losses)
    assert cli_json(db_url, "events")[0]["late_entry"] == rule


def test_the_clock(db_url: str) -> None:
    started(db_url)
    cli(db_url, "clock", "ev", code=service.EXIT_CONFLICT)
    cli(db_url, "extend", "ev", "--table", "1", "--minutes", "5", code=service.EXIT_CONFLICT)
    started_round = cli_json(db_url, "round", "start", "ev", "--minutes", "40")
    cli(db_url, "round", "start", "ev", code=service.EXIT_CONFLICT)
    cli(db_url, "extend", "ev", "--table", "2", "--minutes", "0", code=service.EXIT_USAGE)
    cli(db_url, "extend", "ev", "--table", "9", "--minutes", "3", code=service.EXIT_NOT_FOUND)
    cli(db_url, "extend", "ev", "--table", "2", "--minutes", "3", "--reason", "deck check")
    cli(db_url, "extend", "ev", "--table", "2", "--minutes", "2")
    info = cli_json(db_url, "pairings", "ev")
    ends = datetime.fromisoformat(started_round["ends_at"])
    assert datetime.fromisoformat(info["started_at"]) + timedelta(minutes=40) == ends
    assert [t["extra_minutes"] for t in info["tables"]] == [0, 5, 0, 0]
    assert datetime.fromisoformat(info["tables"][1]["ends_at"]) == ends + timedelta(minutes=5)
    left = cli_json(db_url, "clock", "ev")
    assert 39 * 60 < left["seconds_left"] <= 40 * 60
    assert [(t["table"], t["seconds_left"] - left["seconds_left"]) for t in left["tables"]] == [(2, 300)]
    assert "ends" in cli(db_url, "pairings", "ev", "--format", "csv").stdout.splitlines()[0]
    assert "time is up at" in cli(db_url, "clock", "ev").stdout
    assert "chain intact" in cli(db_url, "verify", "ev").stdout  # the clock is rebuilt from the entries' times


def test_a_pods_round_by_places(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev", "--format", "pods", "--ruleset", "crossover", "--seed", "2")
    cli(db_url, "register", "ev", *EIGHT)
    cli(db_url, "pair", "ev")
    rows = tables(db_url, "ev")
    seats = rows[0]["players"]
    cli(db_url, "report", "ev", "--table", "1", "1-3-2-4")
    assert tables(db_url, "ev")[0]["places"] == dict(zip(seats, [1, 3, 2, 4], strict=True))
    source = tmp_path / "pods.csv"
    source.write_text("table,result\n2,1-2\n", encoding="utf-8")
    assert "gives 2 places for 4 seats" in cli(db_url, "results", "ev", "--from", str(source), code=service.EXIT_USAGE).stderr
    source.write_text("table,result\n2,2-2-1-4\n", encoding="utf-8")
    cli(db_url, "results", "ev", "--from", str(source))
    assert tables(db_url, "ev")[1]["source"] == "slip"
    assert tables(db_url, "ev")[1]["places"] == dict(zip(rows[1]["players"], [2, 2, 1, 4], strict=True))  # a shared place kept
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


def test_no_swap_over_a_players_claim_and_unpair_clears_claims(db_url: str) -> None:
    rows = started(db_url)
    a, b = rows[0]["players"]
    engine = make_engine(db_url)
    try:
        with Session(engine) as session, session.begin():
            service.claim(session, "ev", a, result=service.Tally({a: 2, b: 0}))
    finally:
        engine.dispose()
    refused = cli(db_url, "swap", "ev", b, rows[1]["players"][0], "--reason", "x", code=service.EXIT_CONFLICT)
    assert "claimed a result" in refused.stderr
    cli(db_url, "unpair", "ev")  # no result yet: the round and its claims go
    cli(db_url, "pair", "ev")
    assert [t["players"] for t in tables(db_url, "ev")] == [t["players"] for t in rows]  # same seed, same tables
    cli(db_url, "swap", "ev", b, rows[1]["players"][0], "--reason", "x")  # the claim went with the round
    assert "chain intact" in cli(db_url, "verify", "ev").stdout
