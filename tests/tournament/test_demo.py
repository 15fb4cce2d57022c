"""`tournament demo`: a whole bot event, from a fresh directory with no arguments."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from referee.engine import judge_file
from tests.tournament.tlib import cli, cli_json


def test_demo_in_a_fresh_directory_with_no_arguments(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TOURNAMENT_DB"}
    command = [shutil.which("tournament") or "tournament"]
    if command[0] == "tournament":  # no console script on the PATH: run the module's entry point
        command = [sys.executable, "-c", "from tournament.cli.app import main; main()"]
    started = time.monotonic()
    done = subprocess.run([*command, "demo"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert elapsed < 30, f"the demo took {elapsed:.1f}s"
    database = tmp_path / "tournament.db"
    assert f"database: {database}" in done.stdout
    assert "standings after round 3" in done.stdout
    logs = sorted((tmp_path / "tournament-logs" / "demo").glob("*.jsonl"))
    assert len(logs) >= 4 * 3 * 2  # 4 tables, 3 rounds, best of 3: two or three games each
    assert all(judge_file(str(p)).verdict.verdict == "complete" for p in logs)
    again = subprocess.run([*command, "demo", "--json"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert '"event":"demo-2"' in again.stdout
    verified = subprocess.run([*command, "verify", "demo"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert verified.returncode == 0, verified.stderr


def test_demo_on_each_backend(db_url: str, tmp_path: Path) -> None:
    ran = cli_json(db_url, "demo", "--players", "5", "--rounds", "2", "--best-of", "1", "--logs", str(tmp_path))
    assert ran["event"] == "demo" and ran["games"] == 4
    assert len(ran["standings"]) == 5 and sum(s["byes"] for s in ran["standings"]) == 2
    assert len(list((tmp_path / "demo").glob("*.jsonl"))) == 4
    cli(db_url, "verify", "demo")
