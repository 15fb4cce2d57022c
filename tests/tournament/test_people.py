"""Players as people: display names, derived ids, CSV registration, renaming; and the database's hygiene."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tournament.tlib import cli, cli_json
from tournament import service
from tournament.service.people import slug, unique_ids


@pytest.mark.parametrize(
    ("name", "wanted"),
    [
        ("José Ramírez", "jose-ramirez"),
        ("Anne-Marie O'Neil", "anne-marie-oneil"),
        ("  Zoë  Ångström ", "zoe-angstrom"),
        ("Straße Øvergaard", "strasse-overgaard"),
        ("Łukasz Żółć", "lukasz-zolc"),
        ("李小龍", "player"),  # nothing Latin is left: a neutral id
        ("x" * 80, "x" * 58),  # room for a -N suffix within 64 characters
    ],
)
def test_an_id_is_derived_from_the_name(name: str, wanted: str) -> None:
    assert slug(name) == wanted


def test_derived_ids_are_made_unique() -> None:
    taken = {"ann", "judge"}
    assert unique_ids(["ann", "bob", "bob", "judge", "chance"], taken) == ["ann-2", "bob", "bob-2", "judge-2", "chance-2"]


def names_of(db: str, event: str = "ev") -> dict[str, str]:
    return {p["name"]: p["display_name"] for p in json.loads(cli(db, "export", event).stdout)["players"]}


def test_register_by_name_by_id_and_rename(db_url: str) -> None:
    cli(db_url, "create", "ev", "--seed", "3")
    out = cli_json(db_url, "register", "ev", "José Ramírez", "josé ramírez", "Anne-Marie O'Neil", "ann")
    assert out["registered"] == ["jose-ramirez", "jose-ramirez-2", "anne-marie-oneil", "ann"]
    assert out["players"][0] == {"id": "jose-ramirez", "name": "José Ramírez", "rating": None, "person": "jose-ramirez"}
    cli(db_url, "register", "ev", "--id", "bob", "Bob Ñúñez", "--rating", "1800")
    cli(db_url, "register", "ev", "--id", "bob", "Another Bob", code=service.EXIT_CONFLICT)
    cli(db_url, "register", "ev", "--id", "no spaces", "X", code=service.EXIT_USAGE)
    cli(db_url, "register", "ev", "x" * 101, code=service.EXIT_USAGE)
    cli(db_url, "rename", "ev", "ann", "Ann Lee")
    cli(db_url, "rename", "ev", "zed", "Zed", code=service.EXIT_NOT_FOUND)
    assert names_of(db_url) == {
        "jose-ramirez": "José Ramírez", "jose-ramirez-2": "josé ramírez", "anne-marie-oneil": "Anne-Marie O'Neil",
        "ann": "Ann Lee", "bob": "Bob Ñúñez",
    }
    cli(db_url, "pair", "ev")
    shown = cli(db_url, "pairings", "ev", "--format", "csv").stdout
    assert "Ann Lee" in shown and "Bob Ñúñez" in shown and ",ann," not in shown
    standings = cli_json(db_url, "standings", "ev")
    assert {s["player"]: s["name"] for s in standings}["anne-marie-oneil"] == "Anne-Marie O'Neil"
    types = [e["type"] for e in cli_json(db_url, "log", "ev")]
    assert types.count("player_renamed") == 1
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


def test_a_bracket_shows_names(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "cup", "--format", "single", "--seed", "2")
    cli(db_url, "register", "cup", "José Ramírez", "Zoë Ångström", "Ann")
    cli(db_url, "pair", "cup")
    drawing = cli(db_url, "bracket", "cup").stdout
    assert "José Ramírez" in drawing and "Zoë Ångström" in drawing and "jose-ramirez" not in drawing
    page = tmp_path / "b.html"
    cli(db_url, "bracket", "cup", "--format", "html", "-o", str(page))
    assert "Zoë Ångström" in page.read_text()


def test_names_are_escaped_in_html(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev", "--seed", "3")
    cli(db_url, "register", "ev", "<script>alert(1)</script>", "Tom & Jerry")
    cli(db_url, "pair", "ev")
    page = tmp_path / "p.html"
    cli(db_url, "pairings", "ev", "--format", "html", "-o", str(page))
    html = page.read_text()
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Tom &amp; Jerry" in html


PLAYERS_CSV = "name,id,rating\nJosé Ramírez,,1650\nAnne-Marie O'Neil,amo,\n\nZoë Ångström,,1700\n"


def test_register_from_csv(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev", "--format", "single", "--seed", "5")
    source = tmp_path / "players.csv"
    source.write_bytes(b"\xef\xbb\xbf" + PLAYERS_CSV.encode())  # as a spreadsheet saves it, with a BOM
    out = cli_json(db_url, "register", "ev", "--from", str(source))
    assert out["registered"] == ["jose-ramirez", "amo", "zoe-angstrom"]
    assert [p["rating"] for p in out["players"]] == [1650, None, 1700]
    cli(db_url, "register", "ev", "Dan")
    cli(db_url, "pair", "ev")  # a bracket not seeded by hand is seeded by rating, the unrated after
    seeds = json.loads(cli(db_url, "export", "ev").stdout)["bracket"]["seeds"]
    assert seeds[:2] == ["zoe-angstrom", "jose-ramirez"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,id\nAnn,ann\nBob,bad id\n", "line 3, field id"),
        ("name,rating\nAnn,12\nBob,strong\n", "line 3, field rating"),
        ("name\nAnn\n\n\n", None),  # fine: blank lines are skipped
        ("name,id\nAnn,ann\nBob,ann\n", "line 3, field id: 'ann' is given twice"),
        ("name,id\nAnn,ann\nBob\n", "line 3: 1 fields"),
        ("id,rating\nann,1\n", "line 1"),
        ("name,seed\nAnn,1\n", "line 1: columns are name, id and rating"),
        ("name\nAnn\n\x07Bob\n", "line 3, field name"),
        ("name\nAnn\n" + "B" * 200_000 + "\n", "line 3: field larger than field limit"),  # csv's own limit
        ("\nname,seed\nAnn,1\n", "line 2: columns are"),  # the header is the first line that is not blank
    ],
)
def test_a_bad_csv_row_is_named_and_nothing_is_registered(db_url: str, tmp_path: Path, text: str, message: str | None) -> None:
    cli(db_url, "create", "ev")
    source = tmp_path / "players.csv"
    source.write_text(text, encoding="utf-8")
    if message is None:
        cli(db_url, "register", "ev", "--from", str(source))
        return
    failed = cli(db_url, "register", "ev", "--from", str(source), code=service.EXIT_USAGE)
    assert failed.stderr.startswith(f"tournament: {source} ") and message in failed.stderr
    assert len(failed.stderr.strip().splitlines()) == 1
    assert json.loads(cli(db_url, "export", "ev").stdout)["players"] == []


def test_csv_ids_already_taken_conflict(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev")
    cli(db_url, "register", "ev", "ann")
    source = tmp_path / "players.csv"
    source.write_text("name,id\nBob,bob\nAnn Again,ann\n", encoding="utf-8")
    failed = cli(db_url, "register", "ev", "--from", str(source), code=service.EXIT_CONFLICT)
    assert "line 3, field id: 'ann' is already registered" in failed.stderr
    assert [p["name"] for p in json.loads(cli(db_url, "export", "ev").stdout)["players"]] == ["ann"]
    cli(db_url, "register", "ev", "--from", str(tmp_path / "nope.csv"), code=service.EXIT_USAGE)


# Database hygiene ------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["events"], ["standings", "ev"], ["pairings", "ev"], ["log", "ev"], ["verify", "ev"]])
def test_a_read_only_command_never_creates_a_database(tmp_path: Path, command: list[str]) -> None:
    target = tmp_path / "typo.db"
    failed = cli(str(target), *command, code=service.EXIT_DATABASE)
    assert failed.stderr.strip() == (
        f"tournament: no database at {target}: give --db a SQLite file or a postgresql+psycopg://user@host/dbname URL, "
        "or start one with `tournament create`"
    )
    assert not target.exists()


def test_a_writing_command_other_than_create_does_not_create_one_either(tmp_path: Path) -> None:
    target = tmp_path / "typo.db"
    cli(str(target), "register", "ev", "ann", code=service.EXIT_DATABASE)
    assert not target.exists()
    cli(str(target), "create", "ev")
    assert target.exists()


@pytest.mark.parametrize(
    "url", ["mysql://u@host/db", "postgresql+psycopg://x@[::1", "oracle://a", "postgresql+asyncpg://u@h/d", "sqlite+nope:///x", "://"]
)
def test_a_foreign_or_malformed_url_is_one_line(url: str) -> None:
    failed = cli(url, "events", code=service.EXIT_DATABASE)
    assert failed.stderr.startswith("tournament: ") and len(failed.stderr.strip().splitlines()) == 1
    assert "Traceback" not in failed.stderr + failed.stdout


def test_a_failed_out_leaves_no_temporary_file(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    cli(db, "create", "ev")
    cli(db, "register", "ev", "ann", "bob")
    cli(db, "pair", "ev")
    target = tmp_path / "a-directory"
    target.mkdir()
    failed = cli(db, "pairings", "ev", "--format", "csv", "-o", str(target), code=service.EXIT_USAGE)
    assert str(target) in failed.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-directory", "t.db"]
