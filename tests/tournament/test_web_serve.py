"""`tournament serve` as a command: after `tournament demo`, a real server shows the demo event."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.tournament.conftest import _free_port
from tests.tournament.tlib import cli

SERVE = [sys.executable, "-c", "from tournament.cli.app import main; main()", "serve"]


def test_demo_then_serve_shows_the_demo_event_and_prints_the_organiser_token_once(tmp_path: Path) -> None:
    db = str(tmp_path / "tournament.db")
    cli(db, "demo", "--players", "4", "--rounds", "1", "--logs", str(tmp_path / "logs"))
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("TOURNAMENT_ADMIN_TOKEN", "TOURNAMENT_DB")}
    server = subprocess.Popen([*SERVE, "--db", db, "--port", str(port)], cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True)
    try:
        lines = [server.stdout.readline() for _ in range(4)] if server.stdout else []
        assert lines[0].startswith("the organiser token") and lines[3].startswith(f"serving {db} at http://127.0.0.1:{port}/")
        token = lines[1].strip()
        deadline = time.monotonic() + 60
        while True:
            try:
                home = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
        assert home.status_code == 200 and "Demo event" in home.text
        assert "Round 1" in httpx.get(f"http://127.0.0.1:{port}/e/demo", timeout=5).text
        login = httpx.post(f"http://127.0.0.1:{port}/api/admin/login", json={"code": token}, timeout=5)
        assert login.status_code == 201 and login.json()["role"] == "organiser"
    finally:
        server.terminate()
        server.wait(timeout=30)
    again = subprocess.run([*SERVE, "--db", db, "--port", "1", "--workers", "2"], env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 2 and "SQLite serves one worker" in again.stderr and "organiser token" not in again.stdout


def test_a_short_organiser_token_is_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "tournament.db")
    cli(db, "db", "upgrade")
    env = dict(os.environ, TOURNAMENT_ADMIN_TOKEN="short")
    refused = subprocess.run([*SERVE, "--db", db, "--port", str(_free_port())], env=env, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "at least 16 characters" in refused.stderr


def test_slips_with_tokens_print_each_player_a_code_that_signs_in_once(db_url: str, tmp_path: Path) -> None:
    import re

    from tests.tournament.webkit import HOSTILE_PERSON, client, make_event

    make_event(db_url, display={"ann": HOSTILE_PERSON})
    out = tmp_path / "slips.html"
    cli(db_url, "slips", "ev", "--tokens", "--url", "http://10.0.0.5:8000", "-o", str(out))
    page = out.read_text()
    assert "<img src=x" not in page and "&lt;img src=x" in page
    found = re.findall(r'<p class="code">([^<]+)</p>', page)
    assert len(found) == 4 and len(set(found)) == 4
    assert page.count("<svg") == 4 and "http://10.0.0.5:8000/join" in page
    with client(db_url) as c:
        first = c.post("/api/join", json={"code": found[0]})
        assert first.status_code == 201 and first.json()["player"] == "ann", "slips are in name order"
        assert c.post("/api/join", json={"code": found[0]}).status_code == 401
    cli(db_url, "slips", "ev", "--tokens", "-o", str(out))
    with client(db_url) as c:
        assert c.post("/api/join", json={"code": found[1]}).status_code == 401, "new slips revoke the old codes"
    assert cli(db_url, "slips", "ev", "--tokens", "--url", "10.0.0.5", code=2).stderr.startswith("tournament: --url must start")
