"""Reading a SQLite file leaves nothing beside it; a read-only one is read, never written (issue 23, defects 7 and 9).

Each command runs as its own process, so SQLAlchemy's warnings reach stderr as a user would see them. As root,
a file's permissions do not stop a write; the commands then run without the capability that overrides them
(`setpriv`), so a file of mode 0444 is read-only to them as it is to any other user.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.tlib import cli

SETPRIV = shutil.which("setpriv", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/bin", "/bin"]))
READS = [
    (["events"], 0),
    (["standings", "ev"], 0),
    (["standings", "ev", "--format", "csv"], 0),  # computed, then again from the cached view
    (["pairings", "ev"], 0),
    (["pairings", "ev", "--round", "1"], 0),
    (["log", "ev"], 0),
    (["export", "ev"], 0),
    (["verify", "ev"], 0),
    (["clock", "ev"], 7),  # the round has not started
    (["game-log", "ev", "--table", "1"], 3),  # no result yet
]
SOME_READS = [READS[1], READS[2], READS[3], READS[7]]  # the cached views and the scratch replay: each way a read opens the file


def run(db: str, args: list[str], *, read_only: bool = False) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "tournament", *args, "--db", db]
    if read_only and os.geteuid() == 0:
        if SETPRIV is None:
            pytest.skip("setpriv (util-linux) is needed to read a file as read-only as root")
        command = [SETPRIV, "--bounding-set=-dac_override,-dac_read_search", "--", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder holding one database, `t.db`, with an event paired and nothing else beside it."""
    db = tmp_path / "t.db"
    cli(str(db), "create", "ev", "--seed", "1")
    cli(str(db), "register", "ev", "ann", "bob", "cat", "dan")
    cli(str(db), "pair", "ev")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.db"]
    return tmp_path


def beside(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_reads_of_a_read_only_file_leave_nothing_behind(folder: Path) -> None:
    # Issue 23, defect 7: every read left t.db-wal and t.db-shm beside a file it could not write (fails on b515822).
    db = folder / "t.db"
    db.chmod(0o444)
    for args, code in READS:
        done = run(str(db), args, read_only=True)
        assert done.returncode == code, (args, done.stderr)
        assert beside(folder) == ["t.db"], (args, beside(folder))
        assert "Warning" not in done.stderr and len(done.stderr.splitlines()) <= 1, done.stderr


def test_a_change_to_a_read_only_file_is_refused_before_touching_it(folder: Path) -> None:
    db = folder / "t.db"
    db.chmod(0o444)
    before = db.read_bytes()
    done = run(str(db), ["register", "ev", "eve"], read_only=True)
    assert done.returncode == 8 and done.stderr == f"tournament: {db} is read-only, and this command changes the database\n"
    assert beside(folder) == ["t.db"] and db.read_bytes() == before


def test_reads_of_a_file_we_may_write_leave_nothing_behind(folder: Path) -> None:
    # A read served from the cached views opened the file read-only, which left -wal and -shm behind it too.
    db = folder / "t.db"
    for args, code in SOME_READS:
        done = run(str(db), args)
        assert done.returncode == code, (args, done.stderr)
        assert beside(folder) == ["t.db"], (args, beside(folder))


def test_a_mode_ro_url_reads_quietly_and_refuses_a_change_in_one_line(folder: Path) -> None:
    # Issue 23, defect 9: `?mode=ro` printed SQLAlchemy's warning that it ignores the option, and went on read-write
    # (fails on b515822).
    url = f"sqlite:///{folder / 't.db'}?mode=ro"
    for args, code in SOME_READS:
        done = run(url, args)
        assert done.returncode == code, (args, done.stderr)
        assert "Warning" not in done.stderr and len(done.stderr.splitlines()) <= 1, done.stderr
        assert beside(folder) == ["t.db"], (args, beside(folder))
    before = (folder / "t.db").read_bytes()
    done = run(url, ["register", "ev", "eve"])
    assert done.returncode == 8
    assert done.stderr == f"tournament: {folder / 't.db'} is read-only (mode=ro), and this command changes the database\n"
    assert (folder / "t.db").read_bytes() == before and beside(folder) == ["t.db"]
