"""A server restarted mid-event answers every phone: 40 simultaneous first requests to a fresh `tournament serve`.

The server runs as the command runs it (`tournament serve`, a process of its
own), so the modules the command line loads lazily are in play (issue 22,
defect 8: `module 'tournament.service.export' has no attribute 'round_info'` when
threads raced to load one).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.tournament.conftest import _free_port
from tests.tournament.tlib import cli

# Threads switch every microsecond rather than every 5 ms, so a race between them shows in a few starts.
SERVE = [sys.executable, "-c", "import sys; sys.setswitchinterval(1e-6); from tournament.cli.app import main; main()", "serve"]
PAGES = [
    "/api/events/demo/rounds/1", "/api/events/demo/standings", "/e/demo/bracket", "/e/demo/standings",
    "/", "/e/demo", "/e/demo/round/1", "/admin", "/join", "/api/events/demo/version",
]
AT_ONCE = 40


def _listening(port: int, server: subprocess.Popen[str], deadline: float) -> None:
    """Wait until the port takes connections, without sending a request (the first requests are the test's)."""
    while True:
        assert server.poll() is None, "the server stopped"
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        assert time.monotonic() < deadline, "the server did not listen"
        time.sleep(0.02)


def _first_requests(base: str) -> list[tuple[str, int]]:
    """AT_ONCE requests released together from as many threads: each one's path and status."""
    start = threading.Barrier(AT_ONCE)
    answers: list[tuple[str, int]] = []

    def ask(path: str) -> None:
        with httpx.Client(timeout=30) as c:
            start.wait()
            answers.append((path, c.get(base + path).status_code))

    threads = [threading.Thread(target=ask, args=(PAGES[n % len(PAGES)],)) for n in range(AT_ONCE)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return answers


# Ten starts in all (-m slow), three in CI: threads switching every microsecond show a race in a few starts.
@pytest.mark.parametrize("starts", [pytest.param(10, marks=pytest.mark.slow), 3])
def test_forty_simultaneous_first_requests_to_a_fresh_server_all_answer(tmp_path: Path, starts: int) -> None:
    db = str(tmp_path / "tournament.db")
    cli(db, "demo", "--players", "4", "--rounds", "1", "--logs", str(tmp_path / "logs"))
    env = {k: v for k, v in os.environ.items() if k != "TOURNAMENT_DB"} | {"TOURNAMENT_ADMIN_TOKEN": "x" * 20}
    failed: list[str] = []
    for start in range(starts):
        port = _free_port()
        server = subprocess.Popen([*SERVE, "--db", db, "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            _listening(port, server, time.monotonic() + 60)
            answers = _first_requests(f"http://127.0.0.1:{port}")
        finally:
            server.terminate()
            _out, errors = server.communicate(timeout=30)
        assert len(answers) == AT_ONCE, "every request was answered"
        failed += [f"start {start}: {path} {status}" for path, status in answers if status != 200]
        assert not failed, "\n".join([*failed, errors[-3000:]])
