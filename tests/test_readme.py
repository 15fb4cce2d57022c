"""Every command in README.md's `sh` blocks works as written, in order, in an empty folder.

The commands are read from the README itself, so a tour that drifts from the
program fails here. Three lines cannot run as written inside the test suite;
they are listed in STAND_INS with what runs instead, and the test checks they
are still in the README.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BIN = Path(sys.executable).parent

# README line (without its comment) -> what the test runs instead, and why
STAND_INS = {
    "pip install -e . && tournament demo": "tournament demo",  # headjudge is installed in the test environment already
    "pip install tox && tox": None,  # that is this test suite
    "tournament serve": "serve",  # it runs until stopped: started, asked for its front page, stopped
}
EXITS = {  # README lines whose exit is not 0, and why
    "referee dispute mine.jsonl g.jsonl": 1,  # the two logs part
    "referee dispute mine.jsonl g.jsonl --html -o dispute.html": 1,
}


def tour() -> list[str]:
    """The README's shell commands, in order: every line of every ```sh block."""
    blocks = re.findall(r"^```sh\n(.*?)^```", README.read_text(), flags=re.S | re.M)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def command(line: str) -> str:
    return line.split(" #", 1)[0].strip()


def test_the_stand_ins_and_exits_are_in_the_readme() -> None:
    commands = [command(line) for line in tour()]
    assert set(STAND_INS) | set(EXITS) <= set(commands)


def test_the_readme_points_nowhere_outside_the_repository() -> None:
    text = README.read_text()
    assert "../" not in text and "DESIGN.md" not in text
    for target in re.findall(r"\]\(([^)#]+)", text):
        if not target.startswith("http"):
            assert (README.parent / target).exists(), target


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _serve(folder: Path, env: dict[str, str]) -> None:
    """`tournament serve` as written (on port 8000, or a free one if something else holds 8000), its front page, stopped."""
    args = ["tournament", "serve"]
    port = 8000
    if not _port_free(port):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        args += ["--port", str(port)]
    server = subprocess.Popen(args, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    assert response.status == 200 and b"demo" in response.read()
                    return
            except OSError:
                assert server.poll() is None, server.communicate()[1].decode()
                assert time.monotonic() < deadline, "tournament serve did not answer within 60 s"
                time.sleep(0.3)
    finally:
        server.terminate()
        server.communicate(timeout=30)


def test_the_tour_runs_in_order_in_an_empty_folder(tmp_path: Path) -> None:
    env = {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}", "HOME": str(tmp_path), "NO_COLOR": "1"}
    ran = 0
    for line in tour():
        wanted = STAND_INS.get(command(line), line)
        if wanted is None:
            continue
        if wanted == "serve":
            _serve(tmp_path, env)
            continue
        result = subprocess.run(
            ["bash", "-o", "pipefail", "-c", wanted], cwd=tmp_path, env=env, capture_output=True, timeout=300, check=False
        )
        expected = EXITS.get(command(line), 0)
        assert result.returncode == expected, f"{line}\nexit {result.returncode}\n{result.stderr.decode()[-2000:]}"
        assert b"Traceback" not in result.stderr, line
        ran += 1
    assert ran >= 20 and (tmp_path / "g.html").exists() and (tmp_path / "grid.svg").exists()


@pytest.mark.parametrize("name", ["referee", "tournament"])
def test_the_tour_needs_the_installed_scripts(name: str) -> None:
    assert (BIN / name).exists(), f"{name} is not installed next to {sys.executable}: pip install -e ."
