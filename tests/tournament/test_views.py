"""Cached views (T-66): a read served from `view_cache` shows exactly what the full path shows, in every format.

The full path is forced by emptying the cache; a cached view that is stale,
unreadable or stamped by other code is never shown, one that a tamperer made
current is found by `verify`, and PostgreSQL always takes the full path.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.tournament.test_startup import imported
from tests.tournament.tlib import cli
from tournament.storage import viewcache

READS = [
    *(["standings", "EVENT", "--format", f] for f in ("table", "csv", "json", "html")),
    *(["pairings", "EVENT", "--format", f] for f in ("table", "csv", "json", "html")),
    ["pairings", "EVENT", "--by", "name"],
    ["pairings", "EVENT", "--round", "1", "--format", "json"],
]


def sql(url: str, statement: str, **binds: object) -> list[tuple]:
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            result = connection.execute(text(statement), binds)
            return [tuple(row) for row in result] if result.returns_rows else []
    finally:
        engine.dispose()


def shown(db: str, event: str, *, afresh: bool = False) -> list[str]:
    """Every read's output, the printed time of an HTML page set aside; `afresh`: each on the full path."""
    outputs = []
    for read in READS:
        if afresh and db.startswith("sqlite"):
            sql(db, "DELETE FROM view_cache")
        output = cli(db, *(event if a == "EVENT" else a for a in read)).stdout
        outputs.append(re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", "PRINTED", output))
    return outputs


@pytest.mark.parametrize("demo", [[], ["--cut", "4"], ["--format", "pods", "--ruleset", "crossover", "--players", "7"]], ids=["swiss", "cut", "pods"])
def test_a_cached_read_shows_what_the_full_path_shows(db_url: str, tmp_path: Path, demo: list[str]) -> None:
    cli(db_url, "demo", "--players", "8", "--rounds", "2", "--best-of", "1", "--logs", str(tmp_path), *demo)
    first = shown(db_url, "demo", afresh=True)
    assert shown(db_url, "demo") == first  # the first read of each view stores it
    sqlite = db_url.startswith("sqlite")
    assert (viewcache.cached(db_url, viewcache.Standings, "demo") is not None) == sqlite  # PostgreSQL keeps nothing
    assert (viewcache.cached(db_url, viewcache.Pairings, "demo", "1") is not None) == sqlite
    assert shown(db_url, "demo") == first  # every read served from the cache on SQLite
    assert "chain intact" in cli(db_url, "verify", "demo").stdout  # true views are no finding
    assert sql(db_url, "SELECT count(*) FROM view_cache") == [(3 if sqlite else 0,)]  # standings, pairings, round 1
    # A change: the next read computes afresh, and shows it
    cli(db_url, "rename", "demo", "ann", "Ann Lee-Smith")
    assert viewcache.cached(db_url, viewcache.Standings, "demo") is None
    after = shown(db_url, "demo")
    assert after != first and any("Ann Lee-Smith" in out for out in after)
    assert after == shown(db_url, "demo", afresh=True)


def test_a_report_makes_the_next_read_compute_the_standings(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    cli(db, "create", "ev", "--seed", "3", "--best-of", "3")
    cli(db, "register", "ev", "ann", "bob")
    cli(db, "pair", "ev")
    before = cli(db, "standings", "ev", "--json").stdout
    assert viewcache.cached(db, viewcache.Standings, "ev") is not None
    cli(db, "report", "ev", "--table", "1", "2-0")
    after = cli(db, "standings", "ev", "--json").stdout
    assert '"wins":1' in after and '"wins":1' not in before
    assert cli(db, "pairings", "ev", "--format", "csv").stdout.splitlines()[1].endswith(",2-0,slip,")


def stamped(db: str) -> tuple[str, bytes]:
    """A cached standings view's head and data, after a read stored it."""
    cli(db, "standings", "ev")
    [(head, data)] = sql(f"sqlite:///{db}", "SELECT head, data FROM view_cache WHERE kind = 'standings'")
    return head, bytes(data)


@pytest.mark.parametrize(
    "change",
    [
        "UPDATE view_cache SET code = 'another version'",
        "UPDATE view_cache SET head = (SELECT prev FROM event_log WHERE event_id = 'ev' ORDER BY seq DESC LIMIT 1)",
        "UPDATE view_cache SET data = CAST('{\"type\":\"standings\"' AS BLOB)",  # cut short
        "UPDATE view_cache SET data = CAST(data AS TEXT)",
        "UPDATE view_cache SET data = (SELECT data FROM view_cache WHERE kind = 'pairings')",  # another kind of view
        "UPDATE alembic_version SET version_num = '0006'",  # an older schema: the full path would migrate it
    ],
    ids=["other-code", "stale-head", "truncated", "text", "other-kind", "older-schema"],
)
def test_a_view_that_is_not_current_is_never_shown(tmp_path: Path, change: str) -> None:
    db = str(tmp_path / "t.db")
    cli(db, "create", "ev", "--seed", "3", "--best-of", "3")
    cli(db, "register", "ev", "ann", "bob", "cat", "dan")
    cli(db, "pair", "ev")
    cli(db, "pairings", "ev")
    _head, old = stamped(db)
    cli(db, "report", "ev", "--table", "1", "2-1")
    truth = cli(db, "standings", "ev", "--json").stdout
    assert '"wins":1' in truth and b'"wins":1' not in old
    sql(f"sqlite:///{db}", "UPDATE view_cache SET data = :d WHERE kind = 'standings'", d=old)
    assert viewcache.cached(db, viewcache.Standings, "ev") is not None  # stamped current: a read would show it ...
    sql(f"sqlite:///{db}", change)
    assert viewcache.cached(db, viewcache.Standings, "ev") is None  # ... until anything about it is not
    if "alembic_version" not in change:
        assert cli(db, "standings", "ev", "--json").stdout == truth


def test_verify_finds_a_cached_view_made_to_lie(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    cli(db, "create", "ev", "--seed", "3", "--best-of", "3")
    cli(db, "register", "ev", "ann", "bob")
    cli(db, "pair", "ev")
    cli(db, "report", "ev", "--table", "1", "2-0")
    _head, data = stamped(db)
    assert "chain intact" in cli(db, "verify", "ev").stdout  # a true view is no finding
    lie = data.replace(b'"wins":1', b'"wins":7')
    assert lie != data
    sql(f"sqlite:///{db}", "UPDATE view_cache SET data = :d WHERE kind = 'standings'", d=lie)
    assert '"wins":7' in cli(db, "standings", "ev", "--json").stdout  # a read cannot tell (T-66) ...
    found = cli(db, "verify", "ev", code=1)  # ... verify can
    assert found.stderr.splitlines() == ["ev: view_cache: the cached standings differ from what the log gives"]
    cli(db, "pairings", "ev")
    sql(f"sqlite:///{db}", "UPDATE view_cache SET args = '9' WHERE kind = 'pairings'")
    found = cli(db, "verify", "ev", code=1)  # a view of a round that was never paired
    assert any(line.startswith("ev: view_cache: the cached pairings (args '9') show what the log does not give")
               for line in found.stderr.splitlines())


def test_a_read_of_a_missing_file_creates_nothing(tmp_path: Path) -> None:
    for read in (["standings", "ev"], ["pairings", "ev"], ["pairings", "ev", "--round", "2"]):
        cli(str(tmp_path / "none.db"), *read, code=8)
    assert list(tmp_path.iterdir()) == []


def test_a_cached_read_imports_no_sqlalchemy(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    cli(db, "create", "ev", "--seed", "3", "--best-of", "3")
    cli(db, "register", "ev", "ann", "bob")
    cli(db, "pair", "ev")
    run = [sys.executable, "-m", "tournament", "--db", db]
    for read in (["standings", "ev"], ["pairings", "ev", "--by", "name"]):
        assert "sqlalchemy" in imported("tournament", "--db", db, *read, cwd=tmp_path)  # the first read stores it
        assert "sqlalchemy" not in imported("tournament", "--db", db, *read, cwd=tmp_path)
    subprocess.run([*run, "report", "ev", "--table", "1", "2-0"], check=True, capture_output=True)
    assert "sqlalchemy" in imported("tournament", "--db", db, "standings", "ev", cwd=tmp_path)


def test_verify_passes_over_a_cached_row_no_read_can_match(tmp_path: Path) -> None:
    """A row whose args are not text (a BLOB) is never what a read asks for, so it shows nothing false."""
    db = str(tmp_path / "t.db")
    cli(db, "create", "ev", "--seed", "3", "--best-of", "3")
    cli(db, "register", "ev", "ann", "bob")
    cli(db, "pair", "ev")
    cli(db, "standings", "ev")
    sql(f"sqlite:///{db}", "UPDATE view_cache SET args = CAST('' AS BLOB) WHERE kind = 'standings'")
    assert viewcache.cached(db, viewcache.Standings, "ev") is None
    assert "chain intact" in cli(db, "verify", "ev").stdout
