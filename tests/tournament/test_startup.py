"""Commands import what they use: a read on a current database never loads alembic, Litestar or Jinja2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tournament.storage.db import open_database, revisions
from tournament.storage.dbinfo import alembic_heads, newest_revisions


def imported(*args: str, cwd: Path) -> set[str]:
    """The modules a `python -m ...` run imports (from -X importtime), after checking it succeeded."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


def test_the_heads_read_from_the_scripts_are_alembics() -> None:
    assert newest_revisions() == alembic_heads()


def test_the_revision_is_read_with_one_query(db_url: str) -> None:
    _url, engine = open_database(db_url)
    try:
        assert revisions(engine) == set(newest_revisions())
    finally:
        engine.dispose()


def test_a_read_command_on_a_current_database_imports_no_migration_or_web_code(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    _url, engine = open_database(str(db))  # created and migrated here
    engine.dispose()
    modules = imported("tournament", "--db", str(db), "events", cwd=tmp_path)
    assert "sqlalchemy" in modules
    assert not {"alembic", "litestar", "jinja2", "pydantic"} & modules


def test_referee_validate_imports_no_progress_bar_or_web_code(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    subprocess.run([sys.executable, "-m", "referee", "play", "cardwars", "--out", str(log)], check=True, capture_output=True)
    modules = imported("referee", "validate", str(log), cwd=tmp_path)
    assert "referee.engine" in modules
    assert not {"rich.console", "rich.progress", "rich.table", "jinja2", "sqlalchemy", "pydantic"} & modules
    assert not {"multiprocessing", "concurrent.futures"} & modules  # one log needs no worker processes


def test_the_standings_table_shows_a_page_and_says_how_many_more(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    run = [sys.executable, "-m", "tournament", "--db", db]
    subprocess.run([*run, "create", "big"], check=True, capture_output=True)
    subprocess.run([*run, "register", "big", *(f"p{n}" for n in range(12))], check=True, capture_output=True)
    page = subprocess.run([*run, "standings", "big", "--limit", "5"], check=True, capture_output=True, text=True).stdout
    assert "... and 7 more" in page and "p9" not in page  # ties sort by id: p0, p1, p10, p11, p2 shown
    every = subprocess.run([*run, "standings", "big", "--limit", "0"], check=True, capture_output=True, text=True).stdout
    assert "more:" not in every and "p9" in every
    csv = subprocess.run([*run, "standings", "big", "--format", "csv", "--limit", "5"], check=True, capture_output=True, text=True).stdout
    assert "p9" in csv
