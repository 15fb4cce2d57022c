"""The PostgreSQL fixture finds Debian's server tools off the PATH, so a bare `tox` runs the PostgreSQL tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.conftest import pg_tool


def fake(root: Path, version: str, name: str = "initdb") -> Path:
    path = root / version / "bin" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_the_newest_debian_version_is_found_off_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    fake(tmp_path, "9.6")
    fake(tmp_path, "15")
    newest = fake(tmp_path, "16")
    fake(tmp_path, "17", "pg_ctl")  # a version without initdb does not count for initdb
    assert pg_tool("initdb", tmp_path) == str(newest)
    assert pg_tool("pg_ctl", tmp_path) == str(tmp_path / "17" / "bin" / "pg_ctl")


def test_nothing_found_is_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert pg_tool("initdb", tmp_path) is None


def test_the_path_comes_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    on_path = fake(tmp_path / "path", ".", "initdb")
    monkeypatch.setenv("PATH", str(on_path.parent))
    fake(tmp_path / "debian", "16")
    assert pg_tool("initdb", tmp_path / "debian") == str(on_path)


def test_this_machine_finds_its_server_tools_without_the_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a Debian with the postgresql package, the tools are found with nothing added to the PATH."""
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        pytest.skip("no Debian PostgreSQL under /usr/lib/postgresql")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    found = pg_tool("initdb")
    assert found is not None and found.startswith("/usr/lib/postgresql/") and pg_tool("pg_ctl") is not None
