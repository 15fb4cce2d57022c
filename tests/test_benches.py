"""Every script in bench/ runs from a clone, as the README shows it, with its smallest settings.

What is checked is that each one finishes and prints what it promises, and the
facts some of them state (no verdict differs, no write lost, the cached read
imports no SQLAlchemy). Their times are measurements for people to read, never
asserted here (README, "Speed").
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.rulesets import ids

BENCH = Path(__file__).resolve().parent.parent / "bench"

# name: (the script and its arguments, what its output must contain)
CASES: dict[str, tuple[list[str], list[str]]] = {
    "startup": (["cli.py", "--runs", "1"], [
        "python -c pass", "referee validate", "referee --help", "first after a change", "tournament report",
        "read again: the cached view (no SQLAlchemy imported)",
    ]),
    "replay": (["replay.py", "--games", "2", "--runs", "1", "--foreign", "--anchor"], [
        *ids(), "foreign rec/s", "all games", "python-chess PGN",
    ]),
    "replay profile": (["replay.py", "--games", "2", "--runs", "1", "--profile", "--rulesets", "cardwars"], [
        "cardwars", "function calls", "Ordered by: internal time",
    ]),
    "jobs": (["replay.py", "--jobs", "--games", "20", "--runs", "1"], [
        "validate 20 logs", "1 job", "2 jobs", "serial share", "Amdahl allows", "pure CPU work in 1 and 2 processes",
    ]),
    "rejudge": (["rejudge.py", "--logs", "20", "--runs", "1"], [
        "serial", "1 worker", "2 workers", "serial share", "every outcome on the cluster is the serial run's",
    ]),
    "million": (["replay.py", "--million"], ["1,000,000 records", "peak RSS grew by"]),
    "event": (["event.py", "--players", "20", "--rounds", "1", "--backends", "sqlite"], [
        "sqlite, 20 players", "register 20 (one import)", "results round 1 (10 tables)", "standings text",
        "standings HTML export", "JSON export", "verify (rebuild, compare, pair again)",
    ]),
    "event day": (["eventday.py", "--tables", "2", "--repeat", "1"], ["2 tables, SQLite", "results --from", "pairings"]),
    "mutations": (["mutate.py", "--count", "20"], ["answered: 20", "tracebacks: 0"]),
    "verdict pictures": (["show.py"], list(ids())),
    "pods": (["pods.py", "--quick", "--players", "13"], ["players round  search s", "fewest"]),
    "pod solvers": (["pod_solvers.py", "--players", "13", "--limit", "2"], ["total seconds: cp-sat"]),
    "serve": (["serve.py", "--players", "4"], ["lost writes: 0  duplicated writes: 0  log verifies: yes"]),
    "table": (["table.py", "--tables", "2", "--think", "0.2"], ["tables 2 records", "lost 0 forked 0"]),  # a tenth of the default think: the same path, less waiting
    "live pages": (["live.py", "--phones", "5", "--changes", "3", "--idle", "1", "--gap", "0.5"], ["phones 5 changes 3 p50", "cpu/phone/min idle"]),
    "spectators": (["spectators.py", "--watchers", "5"], ["watchers 5 records", "lost 0 repeated 0"]),
    "notify": (["notify.py", "--players", "4", "--decrypt"], ["players 4 messages 4 p50", "lost 0 doubled 0"]),
    "decks": (["decks.py", "--lists", "8", "--repeat", "1"], ["8 crossover lists", "decks --from FOLDER", "verify EVENT", "referee verdicts only"]),
}


def run_bench(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run bench/`args[0]` with the rest of `args` in `cwd` (and `env` added to the environment); its standard
    output, once it has succeeded."""
    done = subprocess.run(
        [sys.executable, str(BENCH / args[0]), *args[1:]], cwd=cwd, env=os.environ | (env or {}), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"bench/{' '.join(args)} exited {done.returncode}:\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.stdout


@pytest.mark.parametrize("name", CASES)
def test_a_bench_runs_and_prints_what_it_promises(name: str, tmp_path: Path) -> None:
    args, expected = CASES[name]
    out = run_bench(args, tmp_path)
    missing = [text for text in expected if text not in out]
    assert not missing, f"bench/{' '.join(args)} printed no {missing}:\n{out}"


def test_the_verdicts_bench_finds_no_difference_against_its_own_save(tmp_path: Path) -> None:
    saved = tmp_path / "before.json"
    run_bench(["verdicts.py", "--games", "1", "--mutants", "1", "--save", str(saved)], tmp_path)
    assert "0 verdicts differ, 0 logs missing" in run_bench(
        ["verdicts.py", "--games", "1", "--mutants", "1", "--check", str(saved)], tmp_path
    )


def test_the_pairing_bench_finds_the_cost_networkx_finds(tmp_path: Path) -> None:
    """Its rows: players, round, our seconds and cost, networkx's seconds and cost ("-" where it is not run)."""
    rows = [line.split() for line in run_bench(["pairing.py", "--quick"], tmp_path).splitlines()[1:] if line.strip()]
    compared = [row for row in rows if row[5] != "-"]
    assert compared, rows
    assert all(row[3] == row[5] for row in compared), rows
