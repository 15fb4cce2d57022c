"""The tournament CLI end to end, on SQLite and PostgreSQL: results, refusals, exit codes, exports."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path

import msgspec
import pytest
from alembic.script import ScriptDirectory

from schemas.log import Event
from schemas.tournament import Export, RoundInfo, StandingRow
from tests.tournament.tlib import cli, cli_json, game_log, tables, winner, write_log
from tournament import service
from tournament.storage.dbinfo import alembic_config

PLAYERS = ["ann", "bob", "cat", "dan"]


def started(db: str, *, players: list[str] = PLAYERS, best_of: int = 1, event: str = "ev") -> list[dict]:
    """An event with players and round 1 paired; its tables."""
    cli(db, "create", event, "--ruleset", "cardwars", "--seed", "7", "--best-of", str(best_of))
    cli(db, "register", event, *players)
    cli(db, "pair", event)
    return tables(db, event)


def report_all(db: str, tmp_path: Path, event: str = "ev", seed: int = 1) -> None:
    """Report every open table of the current round with one bot game each."""
    for row in tables(db, event):
        if row["games"] is None:
            a, b = row["players"]
            path, _ = write_log(tmp_path, a, b, seed + row["table"])
            cli(db, "report", event, "--table", str(row["table"]), "--log", str(path))


def log_length(db: str, event: str = "ev") -> int:
    return len(cli_json(db, "log", event))


def test_a_whole_event_verifies_and_exports(db_url: str, tmp_path: Path) -> None:
    started(db_url)
    for round_number in (1, 2, 3):
        report_all(db_url, tmp_path, seed=10 * round_number)
        if round_number < 3:
            cli(db_url, "pair", "ev")
    assert "chain intact" in cli(db_url, "verify", "ev").stdout
    data = msgspec.json.decode(cli(db_url, "export", "ev").stdout, type=Export)
    assert data.format == "tournament-export/1"
    assert [r.number for r in data.rounds] == [1, 2, 3]
    assert all(t.games is not None and t.source == "log" and len(t.logs) == 1 for r in data.rounds for t in r.tables)
    assert sorted(s.player for s in data.standings) == PLAYERS
    assert sum(2 * s.wins + s.draws for s in data.standings) == 2 * 6  # six matches, each won or drawn
    assert [e.seq for e in data.log] == list(range(1, len(data.log) + 1))
    assert data.log[0].prev == "0" * 64
    assert all(e.prev == p.hash for p, e in zip(data.log, data.log[1:], strict=False))


def test_report_checks_the_log_and_stores_it(db_url: str, tmp_path: Path) -> None:
    row = started(db_url)[0]
    a, b = row["players"]
    path, won = write_log(tmp_path, a, b, 3, event=Event("ev", 1, row["table"]))
    reported = cli_json(db_url, "report", "ev", "--table", str(row["table"]), "--log", str(path))
    assert reported["changed"] is True
    table = reported["table"]
    assert table["source"] == "log"
    assert table["games"][won] == 1
    exported = json.loads(cli(db_url, "export", "ev").stdout)
    logs = exported["rounds"][0]["tables"][0]["logs"]
    assert logs == [{"game": 1, "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "winner": won}]
    stored = tmp_path / "stored.jsonl"
    cli(db_url, "game-log", "ev", "--table", str(row["table"]), "--out", str(stored))
    assert stored.read_bytes() == path.read_bytes()
    assert cli(db_url, "game-log", "ev", "--table", str(row["table"]), "--round", "1").stdout_bytes == path.read_bytes()
    cli(db_url, "game-log", "ev", "--table", str(row["table"]), "--game", "2", code=service.EXIT_NOT_FOUND)


def test_reporting_the_same_result_twice_is_harmless(db_url: str, tmp_path: Path) -> None:
    row = started(db_url)[0]
    a, b = row["players"]
    path, _ = write_log(tmp_path, a, b, 4)
    cli(db_url, "report", "ev", "--table", str(row["table"]), "--log", str(path))
    length = log_length(db_url)
    again = cli_json(db_url, "report", "ev", "--table", str(row["table"]), "--log", str(path))
    assert again["changed"] is False
    assert log_length(db_url) == length


def test_a_different_result_needs_correct_with_a_reason(db_url: str, tmp_path: Path) -> None:
    row = started(db_url)[0]
    a, b = row["players"]
    path, won = write_log(tmp_path, a, b, 5)
    lost = b if won == a else a
    number = str(row["table"])
    cli(db_url, "report", "ev", "--table", number, "--log", str(path))
    flipped = f"{lost}=1,{won}=0"
    refused = cli(db_url, "report", "ev", "--table", number, "--result", flipped, "--reason", "x", code=service.EXIT_CONFLICT)
    assert "tournament correct" in refused.stderr
    cli(db_url, "correct", "ev", "--table", number, "--result", flipped, "--reason", "", code=service.EXIT_USAGE)
    corrected = cli_json(db_url, "correct", "ev", "--table", number, "--result", flipped, "--reason", "slip signed wrong")
    assert corrected["table"]["games"] == {lost: 1, won: 0}
    assert corrected["table"]["source"] == "judge" and corrected["table"]["reason"] == "slip signed wrong"
    assert corrected["table"]["logs"] == []
    assert cli_json(db_url, "log", "ev")[-1]["type"] == "result_corrected"
    cli(db_url, "verify", "ev")


def test_judge_ruling_needs_a_reason_and_the_table_players(db_url: str) -> None:
    row = started(db_url)[0]
    a, b = row["players"]
    number = str(row["table"])
    cli(db_url, "report", "ev", "--table", number, "--result", f"{a}=1,{b}=0", "--judge", code=service.EXIT_USAGE)
    cli(db_url, "report", "ev", "--table", number, "--result", "2-1", "--reason", "r", code=service.EXIT_USAGE)
    wrong = cli(db_url, "report", "ev", "--table", number, "--result", f"{a}=1,zed=0", "--reason", "r", code=service.EXIT_WRONG_TABLE)
    assert "zed" in wrong.stderr
    cli(db_url, "report", "ev", "--table", number, "--result", f"{a}=2,{b}=0", "--reason", "r", code=service.EXIT_USAGE)
    done = cli_json(db_url, "report", "ev", "--table", number, "--result", f"{a}=0,{b}=0", "--draws", "1", "--reason", "time")
    assert done["table"]["draws"] == 1


def test_pairing_refused_while_results_are_missing_names_the_tables(db_url: str, tmp_path: Path) -> None:
    rows = started(db_url)
    before = log_length(db_url)
    refused = cli(db_url, "pair", "ev", code=service.EXIT_RESULTS_MISSING)
    assert "tables 1, 2" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    a, b = rows[0]["players"]
    path, _ = write_log(tmp_path, a, b, 1)
    cli(db_url, "report", "ev", "--table", "1", "--log", str(path))
    refused = cli(db_url, "pair", "ev", code=service.EXIT_RESULTS_MISSING)
    assert "table 2;" in refused.stderr
    assert log_length(db_url) == before + 1


def test_a_log_for_the_wrong_table_is_refused(db_url: str, tmp_path: Path) -> None:
    rows = started(db_url)
    (a, b), (c, _d) = rows[0]["players"], rows[1]["players"]
    strangers, _ = write_log(tmp_path, a, c, 1)
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(strangers), code=service.EXIT_WRONG_TABLE)
    assert "table 1 of round 1" in refused.stderr
    labelled, _ = write_log(tmp_path, a, b, 2, event=Event("ev", 1, 2))
    cli(db_url, "report", "ev", "--table", "1", "--log", str(labelled), code=service.EXIT_WRONG_TABLE)
    other_event, _ = write_log(tmp_path, a, b, 3, event=Event("elsewhere"))
    cli(db_url, "report", "ev", "--table", "1", "--log", str(other_event), code=service.EXIT_WRONG_TABLE)
    good, _ = write_log(tmp_path, a, b, 4)
    cli(db_url, "report", "ev", "--table", "1", "--log", str(good))
    assert tables(db_url, "ev")[1]["games"] is None


def test_an_illegal_or_unfinished_log_is_refused_with_the_referees_reason(db_url: str, tmp_path: Path) -> None:
    a, b = started(db_url)[0]["players"]
    lines = game_log(a, b, 6).splitlines(keepends=True)
    unfinished = tmp_path / "unfinished.jsonl"
    unfinished.write_bytes(b"".join(lines[:10]))
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(unfinished), code=service.EXIT_LOG_REJECTED)
    assert "unfinished" in refused.stderr and "to act" in refused.stderr
    record = json.loads(lines[3])
    record["card"] = "ZZ"
    record.pop("prev", None)
    lines[3] = json.dumps(record).encode() + b"\n"
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_bytes(b"".join(lines))
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(tampered), code=service.EXIT_LOG_REJECTED)
    assert "the referee says" in refused.stderr and "record 3" in refused.stderr
    assert tables(db_url, "ev")[0]["games"] is None


def test_best_of_three_needs_every_game(db_url: str, tmp_path: Path) -> None:
    a, b = started(db_url, best_of=3)[0]["players"]
    by_winner: dict[str | None, list[Path]] = {a: [], b: []}
    for seed in range(1, 200):  # bot games until a has won three and b one
        if len(by_winner[a]) >= 3 and by_winner[b]:
            break
        path, won = write_log(tmp_path, a, b, seed)
        by_winner.setdefault(won, []).append(path)
    first = by_winner[a][0]
    cli(db_url, "report", "ev", "--table", "1", "--log", str(first), code=service.EXIT_LOG_REJECTED)
    sweep = [by_winner[a][0], by_winner[a][1], by_winner[b][0]]
    args = [arg for path in sweep for arg in ("--log", str(path))]
    refused = cli(db_url, "report", "ev", "--table", "1", *args, code=service.EXIT_LOG_REJECTED)
    assert "already decided" in refused.stderr
    three = [by_winner[a][0], by_winner[b][0], by_winner[a][1]]
    args = [arg for path in three for arg in ("--log", str(path))]
    done = cli_json(db_url, "report", "ev", "--table", "1", *args)
    assert done["table"]["games"] == {a: 2, b: 1}
    assert [g["winner"] for g in done["table"]["logs"]] == [a, b, a]
    reused = cli(db_url, "report", "ev", "--table", "2", "--log", str(by_winner[a][2]), code=service.EXIT_WRONG_TABLE)
    assert reused.stderr
    cli(db_url, "create", "bo2", "--best-of", "2", code=service.EXIT_USAGE)


def test_unknown_event_player_table_and_round(db_url: str) -> None:
    started(db_url)
    assert "unknown event 'nope'" in cli(db_url, "standings", "nope", code=service.EXIT_NOT_FOUND).stderr
    cli(db_url, "pair", "nope", code=service.EXIT_NOT_FOUND)
    cli(db_url, "verify", "nope", code=service.EXIT_NOT_FOUND)
    assert "unknown player 'zed'" in cli(db_url, "drop", "ev", "zed", code=service.EXIT_NOT_FOUND).stderr
    cli(db_url, "report", "ev", "--table", "9", "--result", "ann=1,bob=0", "--reason", "r", code=service.EXIT_NOT_FOUND)
    cli(db_url, "pairings", "ev", "--round", "5", code=service.EXIT_NOT_FOUND)


def test_duplicates_are_conflicts_and_nothing_is_half_written(db_url: str) -> None:
    started(db_url)
    cli(db_url, "create", "ev", code=service.EXIT_CONFLICT)
    before = log_length(db_url)
    cli(db_url, "register", "ev", "eve", "ann", code=service.EXIT_CONFLICT)
    cli(db_url, "register", "ev", "eve", "bad\nname", code=service.EXIT_USAGE)
    cli(db_url, "register", "ev", "--id", "judge", "Judge Dredd", code=service.EXIT_USAGE)
    assert log_length(db_url) == before
    assert "eve" not in [s["player"] for s in cli_json(db_url, "standings", "ev")]
    cli(db_url, "create", "x", "--ruleset", "nosuchgame", code=service.EXIT_USAGE)
    cli(db_url, "create", "x", "--profile", "nosuch", code=service.EXIT_USAGE)
    assert [e["id"] for e in cli_json(db_url, "events")] == ["ev"]


def test_late_entry_joins_the_next_round(db_url: str, tmp_path: Path) -> None:
    started(db_url)
    late = cli(db_url, "register", "ev", "eve")
    assert "late entry" in late.stdout
    report_all(db_url, tmp_path)
    cli(db_url, "pair", "ev")
    info = cli_json(db_url, "pairings", "ev")
    seated = {p for t in info["tables"] for p in t["players"]} | {info["bye"]}
    assert "eve" in seated
    eve = next(s for s in cli_json(db_url, "standings", "ev") if s["player"] == "eve")
    assert eve["points"] in (0, 3)  # 3 only when the late entry took the bye
    cli(db_url, "verify", "ev")


def test_drop_mid_round_concedes_the_open_match(db_url: str, tmp_path: Path) -> None:
    rows = started(db_url)
    a, b = rows[0]["players"]
    dropped = cli_json(db_url, "drop", "ev", a)
    assert dropped["conceded"]["games"] == {a: 0, b: 1}
    assert dropped["conceded"]["source"] == "drop"
    cli(db_url, "drop", "ev", a, code=service.EXIT_CONFLICT)
    report_all(db_url, tmp_path)
    cli(db_url, "pair", "ev")
    info = cli_json(db_url, "pairings", "ev")
    assert a not in {p for t in info["tables"] for p in t["players"]} | {info["bye"]}
    standing = {s["player"]: s for s in cli_json(db_url, "standings", "ev")}
    assert standing[a]["dropped"] is True
    c = rows[1]["players"][0]
    cli(db_url, "drop", "ev", c)  # between rounds' results: this round is open for c
    cli(db_url, "verify", "ev")


def test_standings_and_pairings_formats(db_url: str, tmp_path: Path) -> None:
    started(db_url, players=["ann", "bob", "cat", "dan", "eve"])
    report_all(db_url, tmp_path)
    rows = msgspec.json.decode(cli(db_url, "standings", "ev", "--format", "json").stdout, type=list[StandingRow])
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    text = cli(db_url, "standings", "ev", "--format", "csv").stdout
    parsed = list(csv.DictReader(io.StringIO(text)))
    assert {r["player"] for r in parsed} == {"ann", "bob", "cat", "dan", "eve"}
    assert "standings after round 1" in cli(db_url, "standings", "ev").stdout
    info = msgspec.json.decode(cli(db_url, "pairings", "ev", "--round", "1", "--json").stdout, type=RoundInfo)
    assert info.bye is not None and len(info.tables) == 2
    assert "bye" in cli(db_url, "pairings", "ev", "--format", "csv").stdout
    assert "<table>" in cli(db_url, "pairings", "ev", "--format", "html").stdout
    cli(db_url, "standings", "ev", "--format", "pdf", code=service.EXIT_USAGE)
    target = tmp_path / "standings.html"
    cli(db_url, "standings", "ev", "--format", "html", "--out", str(target))
    assert target.read_text().startswith("<!DOCTYPE html>")


def test_html_escapes_names(db_url: str) -> None:
    cli(db_url, "create", "ev", "--name", "<script>alert(1)</script> & co")
    cli(db_url, "register", "ev", "ann", "bob")
    page = cli(db_url, "standings", "ev", "--format", "html").stdout
    assert "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page


def test_event_log_lists_every_change(db_url: str, tmp_path: Path) -> None:
    started(db_url)
    report_all(db_url, tmp_path)
    entries = cli_json(db_url, "log", "ev")
    types = [e["type"] for e in entries]
    assert types == ["event_created"] + ["player_registered"] * 4 + ["round_paired"] + ["result_reported"] * 2
    assert entries[0]["payload"]["seed"] == 7
    assert "data" not in entries[-1]["payload"]["logs"][0]
    assert "round_paired" in cli(db_url, "log", "ev").stdout


def test_pairings_are_reproducible_from_the_stored_seed(db_url: str, tmp_path: Path) -> None:
    first = started(db_url, players=["ann", "bob", "cat", "dan", "eve", "fay"])
    again = started(db_url, players=["ann", "bob", "cat", "dan", "eve", "fay"], event="ev2")
    assert [t["players"] for t in first] == [t["players"] for t in again]


@pytest.mark.parametrize("value", ["ann", "ann=x,bob=1", "ann=1,ann=0", "=1", "ann=²,bob=0", "ann=" + "1" * 5000 + ",bob=0"])
def test_bad_result_text_is_a_usage_error(value: str) -> None:
    with pytest.raises(service.Usage):
        service.parse_result(value)


def test_an_unreachable_database_is_one_line_and_exit_8(tmp_path: Path) -> None:
    dead = "postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2"
    result = cli(dead, "events", code=service.EXIT_DATABASE)
    assert result.stderr.startswith("tournament: cannot use the database") and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    missing = tmp_path / "no" / "such" / "dir" / "t.db"
    cli(str(missing), "events", code=service.EXIT_DATABASE)
    cli("nosuchdriver://x", "events", code=service.EXIT_DATABASE)


def test_bot_log_helper_is_legal() -> None:
    assert winner(game_log("ann", "bob", 1)) in ("ann", "bob", None)


def test_db_upgrade_brings_an_empty_database_to_the_newest_revision(empty_db_url: str) -> None:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()  # not a fixed id: migrations get added
    assert cli_json(empty_db_url, "db", "upgrade", "0001")["revision"] == "0001"
    assert cli_json(empty_db_url, "db", "upgrade")["revision"] == head
    assert cli_json(empty_db_url, "db", "upgrade", "head")["revision"] == head
    assert cli_json(empty_db_url, "events") == []


def test_draws_go_with_a_judges_result(db_url: str, tmp_path: Path) -> None:
    a, b = started(db_url)[0]["players"]
    path, _ = write_log(tmp_path, a, b, 1)
    cli(db_url, "report", "ev", "--table", "1", "--log", str(path), "--draws", "1", code=service.EXIT_USAGE)
    cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "missing.jsonl"), code=service.EXIT_USAGE)
    cli(db_url, "report", "ev", "--table", "1", code=service.EXIT_USAGE)
    cli(db_url, "correct", "ev", "--table", "1", "--result", f"{a}=1,{b}=0", "--reason", "r", code=service.EXIT_CONFLICT)


def test_db_may_come_before_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`tournament --db URL COMMAND` reaches the same database as `tournament COMMAND --db URL`."""
    from tests.tournament.tlib import runner
    from tournament.cli.app import app

    # set it here so that monkeypatch puts back whatever was there before the callback writes it
    monkeypatch.setenv("TOURNAMENT_DB", f"sqlite:///{tmp_path / 'not-this-one.db'}")
    db = f"sqlite:///{tmp_path / 'first.db'}"
    assert runner.invoke(app, ["--db", db, "create", "early", "--ruleset", "cardwars"]).exit_code == 0
    assert [e["id"] for e in cli_json(db, "events")] == ["early"]
