"""A result counts once and cannot be smuggled in (issue 11, part 5).

One game is one game whatever file it comes in (its fingerprint, T-45); CSV
cells a spreadsheet would run are neutralised (T-46); ids are matched whole;
an event that requires chained logs refuses a log whose `prev` fields were
stripped (T-47).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import msgspec
import pytest

from referee.logio import game_fingerprint
from tests.tournament.tlib import cli, cli_json, game_log, tables, winner
from tournament.output.render import inert
from tournament.storage.eventlog import EventCreated, GameRecord


def compact(line: dict[str, object]) -> bytes:
    return json.dumps(line, separators=(",", ":"), ensure_ascii=False).encode()


def with_note_on_last_record(data: bytes) -> bytes:
    # The last record: a note there breaks no chain (no record after it carries its hash).
    *head, last = data.splitlines()
    record = json.loads(last)
    record["note"] = "slip signed by both"
    return b"".join(line + b"\n" for line in [*head, compact(record)])


def unchained(data: bytes, *, dressed: bool = False) -> bytes:
    """The log with every `prev` stripped; `dressed`: also a new game id, notes and times on every record."""
    header, *records = (json.loads(line) for line in data.splitlines())
    for record in records:
        record.pop("prev", None)
        if dressed:
            record["note"], record["at"] = "typed in later", "2026-11-23T12:00:00Z"
    if dressed:
        header["game"] = "a-different-id"
    return b"".join(compact(line) + b"\n" for line in [header, *records])


def decisive_game(a: str, b: str) -> bytes:
    """A bot game between a and b that someone wins."""
    return next(data for seed in range(1, 50) if winner(data := game_log(a, b, seed)) is not None)


@pytest.mark.parametrize(
    "variant",
    [
        lambda d: d.replace(b"\n", b"\r\n"),
        lambda d: d.rstrip(b"\n"),
        with_note_on_last_record,
        lambda d: unchained(d, dressed=True),
    ],
    ids=["crlf", "no-final-newline", "note", "unchained-new-id-notes-times"],
)
def test_the_same_game_cannot_count_twice_in_a_match(tmp_path: Path, variant: object) -> None:
    # Issue 11: one game as two files was a 2-0 win. Now the second is refused (exit 6).
    db = f"sqlite:///{tmp_path / 't.db'}"
    cli(db, "create", "ev", "--best-of", "3", "--seed", "1", "--no-require-chain")
    cli(db, "register", "ev", "ann", "bob")
    cli(db, "pair", "ev")
    (a, b), = (t["players"] for t in tables(db, "ev"))
    first = decisive_game(a, b)
    second = variant(first)  # type: ignore[operator]
    assert second != first and game_fingerprint(second) == game_fingerprint(first)
    (tmp_path / "g1.jsonl").write_bytes(first)
    (tmp_path / "g2.jsonl").write_bytes(second)
    refused = cli(db, "report", "ev", "--table", "1", "--log", str(tmp_path / "g1.jsonl"), "--log", str(tmp_path / "g2.jsonl"), code=6)
    assert "the same game is given twice" in refused.stderr
    assert cli_json(db, "pairings", "ev")["tables"][0]["games"] is None


def test_the_same_game_cannot_decide_another_table(db_url: str, tmp_path: Path) -> None:
    # A game reported at table 1 comes back, CRLF endings, at table 1 of round 2 (a rematch): exit 5.
    cli(db_url, "create", "ev", "--seed", "1")
    cli(db_url, "register", "ev", "ann", "bob")
    cli(db_url, "pair", "ev")
    (a, b), = (t["players"] for t in tables(db_url, "ev"))
    game = decisive_game(a, b)
    (tmp_path / "g.jsonl").write_bytes(game)
    (tmp_path / "again.jsonl").write_bytes(game.replace(b"\n", b"\r\n"))
    cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "g.jsonl"))
    cli(db_url, "pair", "ev")
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "again.jsonl"), code=5)
    assert "table 1, round 1 was already reported with this game's log" in refused.stderr


def test_a_game_with_different_moves_is_another_game() -> None:
    one, other = game_log("ann", "bob", 1), game_log("ann", "bob", 2)
    assert game_fingerprint(one) != game_fingerprint(other)
    # The players are part of the game: the same moves by others are another game.
    assert game_fingerprint(one) != game_fingerprint(one.replace(b'"ann"', b'"amy"'))


# -- CSV exports (OWASP CSV injection) --


@pytest.mark.parametrize(
    ("cell", "shown"),
    [
        ('=HYPERLINK("http://x","click")', '\'=HYPERLINK("http://x","click")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("-1", "-1"),  # a plain number stays a number
        ("2.5", "2.5"),
        ("|pipe", "|pipe"),  # not a formula unless it starts with = + - @
        ("paper game, slip signed", "paper game, slip signed"),
    ],
)
def test_csv_cells_a_spreadsheet_would_run_are_neutralised(cell: str, shown: str) -> None:
    assert inert(cell) == shown


def test_a_judges_reason_cannot_become_a_formula_in_a_csv_export(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev", "--seed", "1")
    cli(db_url, "register", "ev", "ann", "bob")
    cli(db_url, "pair", "ev")
    (a, b), = (t["players"] for t in tables(db_url, "ev"))
    reason = '=HYPERLINK("http://evil.example","slip")'
    cli(db_url, "report", "ev", "--table", "1", "--result", f"{a}=1,{b}=0", "--reason", reason)
    out = tmp_path / "pairings.csv"
    cli(db_url, "pairings", "ev", "--format", "csv", "-o", str(out))
    cells = [cell for row in csv.reader(io.StringIO(out.read_text())) for cell in row]
    assert "'" + reason in cells and reason not in cells
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)


# -- ids are matched whole --


@pytest.mark.parametrize("bad", ["ann\n", "ann\r\n", "\nann", "ann bob"])
def test_ids_are_matched_whole(tmp_path: Path, bad: str) -> None:
    # `$` matched before a final newline, so "ann\n" passed the old check.
    db = f"sqlite:///{tmp_path / 't.db'}"
    cli(db, "create", "ev")
    assert "must be 1 to 64 letters" in cli(db, "register", "ev", "Ann", "--id", bad, code=2).stderr
    assert "must be 1 to 64 letters" in cli(db, "create", bad, code=2).stderr


# -- chained logs (T-47) --


def test_an_event_requires_chained_logs_by_default(db_url: str, tmp_path: Path) -> None:
    created = cli_json(db_url, "create", "ev", "--seed", "1")
    assert created["require_chain"] is True
    cli(db_url, "register", "ev", "ann", "bob")
    cli(db_url, "pair", "ev")
    (a, b), = (t["players"] for t in tables(db_url, "ev"))
    stripped = tmp_path / "stripped.jsonl"
    stripped.write_bytes(unchained(decisive_game(a, b)))
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(stripped), code=6)
    assert "'ev' requires chained logs, and this log's records carry no `prev` hashes" in refused.stderr
    assert tables(db_url, "ev")[0]["games"] is None  # nothing was recorded
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


def test_no_require_chain_accepts_hand_written_logs(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    assert cli_json(db, "create", "ev", "--seed", "1", "--no-require-chain")["require_chain"] is False
    cli(db, "register", "ev", "ann", "bob")
    cli(db, "pair", "ev")
    (a, b), = (t["players"] for t in tables(db, "ev"))
    stripped = tmp_path / "stripped.jsonl"
    game = decisive_game(a, b)
    stripped.write_bytes(unchained(game))
    cli(db, "report", "ev", "--table", "1", "--log", str(stripped))
    won = winner(game)
    assert tables(db, "ev")[0]["games"] == {a: int(won == a), b: int(won == b)}  # the game counted, for its winner
    assert "chain intact" in cli(db, "verify", "ev").stdout


def test_old_payloads_still_read() -> None:
    # An event_created payload written before require_chain, and a game record before fingerprints.
    old = b'{"name":"x","ruleset":"cardwars","profile":"mtg","best_of":1,"seed":5}'
    assert msgspec.json.decode(old, type=EventCreated).require_chain is False
    record = msgspec.json.decode(b'{"sha256":"' + b"0" * 64 + b'","winner":null,"data":""}', type=GameRecord)
    assert record.fingerprint is None


def test_a_display_name_cannot_become_a_formula_in_a_csv_export(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    cli(db, "create", "ev", "--seed", "1")
    cli(db, "register", "ev", "@SUM(1+1)", "+2+3", "=1+1")
    out = tmp_path / "standings.csv"
    cli(db, "standings", "ev", "--format", "csv", "-o", str(out))
    cells = [cell for row in csv.reader(io.StringIO(out.read_text())) for cell in row]
    assert {"'@SUM(1+1)", "'+2+3", "'=1+1"} <= set(cells)
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)
