"""`register --from`: an empty file and a name typed twice are refused, and nothing is registered (issue 23, defect 6; T-67)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tournament.tlib import cli, cli_json
from tournament import service


def registered(db: str) -> list[str]:
    return [p["name"] for p in json.loads(cli(db, "export", "ev").stdout)["players"]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name\n", "no players after the header on line 1"),
        ("name,id,rating\n\n\n", "no players after the header on line 1"),
        ("\nname\n", "no players after the header on line 2"),
        ("name\ncat\nann\ncat\n", "line 4, field name: 'cat' is on line 2 too"),
        ("name\nJosé Ramírez\nJOSÉ RAMÍREZ\n", "line 3, field name: 'JOSÉ RAMÍREZ' is on line 2 too"),
        ("name\nJose\u0301\nJos\u00e9\n", "line 3, field name"),  # one name, composed or not
        ("name,id\ncat,cat-a\ncat,\n", "line 3, field name: 'cat' is on line 2 too"),
        ("name,id\ncat,\ncat,cat-b\n", "line 3, field name: 'cat' is on line 2 too"),
    ],
)
def test_an_empty_file_or_a_name_twice_is_a_usage_error(db_url: str, tmp_path: Path, text: str, message: str) -> None:
    # Issue 23, defect 6: a header alone said "registered  in ev" (exit 0), and `cat` twice registered
    # cat and cat-2 (fails on b515822).
    cli(db_url, "create", "ev")
    source = tmp_path / "players.csv"
    source.write_text(text, encoding="utf-8")
    failed = cli(db_url, "register", "ev", "--from", str(source), code=service.EXIT_USAGE)
    assert failed.stderr.startswith(f"tournament: {source}")
    assert message in failed.stderr and len(failed.stderr.strip().splitlines()) == 1, failed.stderr
    assert registered(db_url) == []


def test_one_name_twice_with_ids_that_tell_them_apart_registers_both(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev")
    source = tmp_path / "players.csv"
    source.write_text("name,id\nCat Lee,cat-a\nCat Lee,cat-b\nAnn,\n", encoding="utf-8")
    done = cli_json(db_url, "register", "ev", "--from", str(source))
    assert done["registered"] == ["cat-a", "cat-b", "ann"]
    assert [p["name"] for p in done["players"]] == ["Cat Lee", "Cat Lee", "Ann"]
