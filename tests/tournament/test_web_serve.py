"""`tournament serve` as a command: after `tournament demo`, a real server shows the demo event."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from tests.tournament.conftest import _free_port
from tests.tournament.tlib import cli, cli_json

SERVE = [sys.executable, "-c", "from tournament.cli.app import main; main()", "serve"]


def answer(ask: Callable[[], httpx.Response]) -> httpx.Response:
    """`ask`'s answer once the server just started answers (a minute at most)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return ask()
        except httpx.TransportError:
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.2)


def test_ctrl_c_with_pages_open_prints_no_traceback(tmp_path: Path) -> None:
    """Live pages hold their streams open; at Ctrl+C the server cuts them after its grace and says so in one
    line, not with a traceback per page (web/serverlog.py)."""
    db = str(tmp_path / "tournament.db")
    cli(db, "demo", "--players", "4", "--rounds", "1", "--logs", str(tmp_path / "logs"))
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("TOURNAMENT_DB", "TOURNAMENT_PUBLIC_URL")}
    server = subprocess.Popen([*SERVE, "--db", db, "--port", str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        answer(lambda: httpx.get(f"http://127.0.0.1:{port}/", timeout=5))
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as pages, ExitStack() as open_pages:
            heard = [open_pages.enter_context(pages.stream("GET", "/api/events/demo/live")).iter_lines() for _page in range(3)]
            assert all(next(lines).startswith("id: ") for lines in heard)
            server.send_signal(signal.SIGINT)
            _out, errors = server.communicate(timeout=60)
    finally:
        server.kill()
    assert "Traceback" not in errors and "Exception in ASGI application" not in errors
    assert "3 live page(s) cut at shutdown; they reconnect by themselves when the server is back" in errors


def test_demo_then_serve_shows_the_demo_event_and_prints_the_organiser_token_once(tmp_path: Path) -> None:
    db = str(tmp_path / "tournament.db")
    demo = cli(db, "demo", "--players", "4", "--rounds", "1", "--logs", str(tmp_path / "logs")).stdout
    assert f"  tournament serve --db {db}" in demo.split("next, try:")[1], "the demo's list names serve"
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("TOURNAMENT_ADMIN_TOKEN", "TOURNAMENT_DB")}
    server = subprocess.Popen(
        [*SERVE, "--db", db, "--port", str(port)], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        lines = [server.stdout.readline() for _ in range(4)] if server.stdout else []
        assert lines[0].startswith("the organiser token") and lines[3].startswith(f"serving {db} at http://127.0.0.1:{port}/")
        token = lines[1].strip()
        home = answer(lambda: httpx.get(f"http://127.0.0.1:{port}/", timeout=5))
        assert home.status_code == 200 and "Demo event" in home.text
        assert "Round 1" in httpx.get(f"http://127.0.0.1:{port}/e/demo", timeout=5).text
        login = httpx.post(f"http://127.0.0.1:{port}/api/admin/login", json={"code": token}, timeout=5)
        assert login.status_code == 201 and login.json()["role"] == "organiser"
    finally:
        server.terminate()
        _out, errors = server.communicate(timeout=30)
    assert "warning: serving on this machine only (--host 127.0.0.1): phones cannot open its sign-in links" in errors
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
    cli(db_url, "slips", "ev", "--tokens", "--url", "http://10.0.0.5:8000", "-o", str(out))
    with client(db_url) as c:
        assert c.post("/api/join", json={"code": found[1]}).status_code == 401, "new slips revoke the old codes"
    assert cli(db_url, "slips", "ev", "--tokens", "--url", "10.0.0.5", code=2).stderr.startswith("tournament: --url must start")


def test_serve_in_a_folder_without_a_database_says_so_and_makes_none(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TOURNAMENT_DB"}
    refused = subprocess.run([*SERVE, "--port", str(_free_port())], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 8 and refused.stdout == ""
    [line] = refused.stderr.splitlines()
    assert line.startswith(f"tournament: no database at {tmp_path / 'tournament.db'}: `tournament serve --init` makes an empty one here")
    assert "give --db" in line and "`tournament demo`" in line
    assert list(tmp_path.iterdir()) == [], "no empty database was made"


@pytest.mark.pg
def test_serve_on_an_empty_postgresql_database_names_init(empty_pg_url: str, tmp_path: Path) -> None:
    """An empty PostgreSQL database is the PostgreSQL way to start from nothing: `serve` refuses it as it refuses a
    folder without a file, naming `--init` (it named only `tournament create`, which makes no web day)."""
    env = {k: v for k, v in os.environ.items() if k != "TOURNAMENT_DB"}
    refused = subprocess.run([*SERVE, "--db", empty_pg_url, "--port", str(_free_port())], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 8 and refused.stdout == ""
    [line] = refused.stderr.splitlines()
    assert "holds no tournament database: `tournament serve --init` makes its tables there" in line, line


def test_serve_init_in_an_empty_folder_serves_an_empty_database_and_a_later_start_says_how_to_sign_in(tmp_path: Path) -> None:
    """Issue 34.4: an event day run from the browser starts in an empty folder with `serve --init`; the first start
    prints the organiser token, a later one how to sign in, and `organiser-token --new` replaces a lost token,
    signing out whoever held the old one."""
    env = {k: v for k, v in os.environ.items() if k not in ("TOURNAMENT_ADMIN_TOKEN", "TOURNAMENT_DB", "TOURNAMENT_PUBLIC_URL")}
    port = _free_port()
    base = f"http://127.0.0.1:{port}"

    def start() -> tuple[subprocess.Popen[str], list[str]]:
        server = subprocess.Popen(
            [*SERVE, "--init", "--port", str(port)], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        assert server.stdout is not None
        lines = []
        while not lines or not lines[-1].startswith("serving "):
            lines.append(server.stdout.readline())
            assert lines[-1], server.communicate(timeout=30)[1]
        answer(lambda: httpx.get(f"{base}/", timeout=5))
        return server, lines

    def stop(server: subprocess.Popen[str]) -> None:
        server.terminate()
        server.communicate(timeout=30)

    server, first = start()
    try:
        assert first[0].startswith("the organiser token") and first[2].strip() == f"sign in at {base}/admin"
        signed_in = httpx.post(f"{base}/api/admin/login", json={"code": first[1].strip()}, timeout=5)
        assert signed_in.status_code == 201
        old = {"Authorization": f"Bearer {signed_in.json()['session']}"}
        made = httpx.post(f"{base}/api/admin/events", json={"id": "friday", "name": "Friday Night"}, headers=old, timeout=5)
        assert made.status_code == 201, made.text
    finally:
        stop(server)
    assert [path.name for path in tmp_path.iterdir()] == ["tournament.db"]
    assert [event["id"] for event in cli_json(str(tmp_path / "tournament.db"), "events")] == ["friday"]
    server, second = start()
    try:
        [told, serving] = second
        assert told.startswith(f"the organiser signs in at {base}/admin with the token the first start printed")
        assert "`tournament organiser-token --new` makes a new one" in told and serving.startswith("serving ")
        assert httpx.get(f"{base}/api/admin/events/friday/tables", headers=old, timeout=5).status_code == 200
        asked = subprocess.run([*SERVE[:-1], "organiser-token"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        assert asked.returncode == 2 and "cannot be shown again" in asked.stderr and asked.stdout == ""
        renewed = subprocess.run([*SERVE[:-1], "organiser-token", "--new"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        assert renewed.returncode == 0, renewed.stderr
        token = renewed.stdout.splitlines()[1].strip()
        assert renewed.stdout.splitlines()[2].strip() == f"sign in at {base}/admin"
        assert httpx.get(f"{base}/api/admin/events/friday/tables", headers=old, timeout=5).status_code == 401, "the old session ended"
        assert httpx.post(f"{base}/api/admin/login", json={"code": first[1].strip()}, timeout=5).status_code == 401
        assert httpx.post(f"{base}/api/admin/login", json={"code": token}, timeout=5).status_code == 201
    finally:
        stop(server)
    pinned = subprocess.run([*SERVE[:-1], "organiser-token", "--new"], cwd=tmp_path, env=dict(env, TOURNAMENT_ADMIN_TOKEN="x" * 16),
                            capture_output=True, text=True, timeout=120)
    assert pinned.returncode == 2 and "TOURNAMENT_ADMIN_TOKEN is set" in pinned.stderr


def test_the_public_url_is_kept_and_every_sign_in_link_uses_it(tmp_path: Path) -> None:
    import re

    from tests.tournament.webkit import codes, make_event

    db = str(tmp_path / "tournament.db")
    make_event(f"sqlite:///{db}")
    codes(f"sqlite:///{db}")
    assert "--public-url 'ftp://x'" in subprocess.run(
        [*SERVE, "--db", db, "--public-url", "ftp://x"], capture_output=True, text=True, timeout=120
    ).stderr
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("TOURNAMENT_ADMIN_TOKEN", "TOURNAMENT_DB", "TOURNAMENT_PUBLIC_URL")}
    server = subprocess.Popen(
        [*SERVE, "--db", db, "--port", str(port), "--public-url", "http://10.0.0.5:8000/"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert server.stdout and server.stdout.readline().startswith("the organiser signs in at http://10.0.0.5:8000/admin with")
        assert server.stdout.readline().startswith(f"serving {db} at http://10.0.0.5:8000/ ")
        base = f"http://127.0.0.1:{port}"
        boss = answer(lambda: httpx.post(f"{base}/api/admin/login", json={"code": "organiser-token-for-tests-0123456789"}, timeout=5))
        headers = {"Authorization": f"Bearer {boss.json()['session']}"}
        made = httpx.post(f"{base}/api/admin/events/ev/codes", headers=headers, json={"player": "ann"}, timeout=5).json()
        assert made["link"] == f"http://10.0.0.5:8000/join#code={made['code']}"
    finally:
        server.terminate()
        _out, errors = server.communicate(timeout=30)
    assert "warning" not in errors, "a public address given: nothing to warn of"
    out = tmp_path / "slips.html"
    cli(db, "slips", "ev", "--tokens", "-o", str(out))  # no --url: the stored address
    links = re.findall(r"http://[0-9.:]+/join", out.read_text())
    assert links and set(links) == {"http://10.0.0.5:8000/join"}


def test_links_use_this_machines_network_address_without_a_public_url() -> None:
    from tournament.web import addresses

    assert addresses.for_phones("0.0.0.0", 8000, "https://cup.example.org") == ("https://cup.example.org", None)
    local, warning = addresses.for_phones("127.0.0.1", 8000, None)
    assert local == "http://127.0.0.1:8000" and warning and "phones cannot open" in warning
    found, warning = addresses.for_phones("0.0.0.0", 8123, None)
    lan = addresses.lan_addresses()
    assert found == (f"http://{lan[0]}:8123" if lan else "http://127.0.0.1:8123") and warning
    assert not any(a.startswith("127.") for a in lan)


def test_slips_tokens_without_url_take_the_address_serve_published_not_port_8000(tmp_path: Path) -> None:
    """Issue 34 (T-163): without --url, the slips linked to this machine on port 8000 whatever `serve` used."""
    import re

    from tests.tournament.webkit import codes, make_event

    db = str(tmp_path / "tournament.db")
    make_event(f"sqlite:///{db}")
    codes(f"sqlite:///{db}")
    out = tmp_path / "slips.html"
    refused = cli(db, "slips", "ev", "--tokens", "-o", str(out), code=2).stderr
    assert refused.startswith("tournament: no address for the slips' links") and "--url" in refused and not out.exists()
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("TOURNAMENT_ADMIN_TOKEN", "TOURNAMENT_DB", "TOURNAMENT_PUBLIC_URL")}
    server = subprocess.Popen([*SERVE, "--db", db, "--host", "0.0.0.0", "--port", str(port)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        served = next(line for line in server.stdout if line.startswith("serving "))  # after how the organiser signs in (T-157)
        published = re.search(r" at (http://[0-9.]+:[0-9]+)/ ", served)
        assert published and published.group(1).endswith(f":{port}"), served
    finally:
        server.terminate()
        server.communicate(timeout=30)
    cli(db, "slips", "ev", "--tokens", "-o", str(out))
    links = set(re.findall(r"http://[0-9.:]+/join", out.read_text()))
    assert links == {f"{published.group(1)}/join"}
