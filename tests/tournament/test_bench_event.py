"""bench/event.py on PostgreSQL, on the tests' own server (the bench takes it as TOURNAMENT_TEST_PG_URL)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_benches import run_bench


@pytest.mark.pg
def test_the_event_bench_runs_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    out = run_bench(["event.py", "--players", "20", "--rounds", "1", "--backends", "postgresql"], tmp_path, {"TOURNAMENT_TEST_PG_URL": pg_url})
    assert "postgresql, 20 players" in out
    assert "verify (rebuild, compare, pair again)" in out
