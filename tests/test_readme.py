"""Every fenced command block of the docs runs as written, in order, in an empty folder (issue 34, T-158).

The docs are README.md, tournament/README.md and docs/*.md. Each fenced block
is either run (```sh) or only shown (```text, ```json, ```mermaid: a format,
a picture, a deployment on other machines); a block marked neither fails here,
so a new block is run unless its writer says otherwise. A file's ```sh blocks
run in one empty temporary folder, one command after another, in the order the
file gives them; each must exit 0 unless its comment begins with `exit N`
(`referee dispute a.jsonl b.jsonl   # exit 1: they part`). A command that
serves (`tournament serve ...`) is started on a free port, asked for its
front page and stopped. Two lines cannot run inside the test suite; they are
in STAND_INS with what runs instead, and the test checks they are still in
the docs. tournament/README.md, "Tests", describes these markers.
"""

from __future__ import annotations

import os
import re
import resource
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "tournament" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BIN = Path(sys.executable).parent
RUN = "sh"
SHOWN = {"text", "json", "mermaid"}  # only illustrate: not run

CPU_BUDGET = 300  # seconds of the commands' CPU a file's blocks may take (tournament/README.md's took about 100 s)

# a command as the docs write it -> what the test runs instead (None: nothing), and why
STAND_INS = {
    "pip install -e . && tournament demo": "tournament demo",  # headjudge is installed in the test environment already
    "pip install tox && tox": None,  # that is this test suite
}
FENCE = re.compile(r"^( *)```([^\n`]*)\n(.*?)^\1```[ \t]*$", re.S | re.M)
HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1")


@dataclass(frozen=True)
class Command:
    where: str  # FILE:LINE, for the failure message
    text: str  # what bash runs (a heredoc's lines included)
    exit: int  # the exit code the docs declare (0 unless a comment begins `exit N`)


@dataclass(frozen=True)
class Block:
    where: str
    kind: str  # the fence's info string: sh, text, ...
    body: str
    line: int  # the body's first line in the file


def blocks(path: Path) -> list[Block]:
    text = path.read_text()
    found = []
    for match in FENCE.finditer(text):
        indent = len(match.group(1))
        body = "".join(line[indent:] if line[:indent].isspace() else line for line in match.group(3).splitlines(keepends=True))
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(f"{shown(path)}:{line}", match.group(2).strip(), body, line + 1))
    return found


def split_comment(line: str) -> tuple[str, str]:
    """A shell line's command and its comment (a `#` after a space, outside quotes)."""
    quote = ""
    for at, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (at == 0 or line[at - 1].isspace()):
            return line[:at].rstrip(), line[at + 1 :].strip()
    return line.rstrip(), ""


def commands(path: Path) -> list[Command]:
    """Every command of the file's ```sh blocks, in order: continued lines joined, a heredoc kept with its line."""
    found = []
    for block in blocks(path):
        if block.kind != RUN:
            continue
        lines = block.body.splitlines()
        at = 0
        while at < len(lines):
            number, (text, comment) = block.line + at, split_comment(lines[at])
            at += 1
            while text.endswith("\\") and at < len(lines):
                more, comment = split_comment(lines[at])
                text, at = text[:-1].rstrip() + " " + more.strip(), at + 1
            if not text.strip():
                continue
            heredoc = HEREDOC.search(text)
            if heredoc:
                end = lines.index(heredoc.group(2), at)
                text, at = "\n".join([text, *lines[at : end + 1]]), end + 1
            declared = re.match(r"exit (\d+)\b", comment)
            found.append(Command(f"{shown(path)}:{number}", text.strip(), int(declared.group(1)) if declared else 0))
    return found


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve(command: Command, folder: Path, env: dict[str, str]) -> None:
    """A `tournament serve` line: started on a free port (its own --port replaced), its front page asked for, stopped."""
    args = shlex.split(command.text)
    if "--port" in args:
        del args[args.index("--port") : args.index("--port") + 2]
    port = _free_port()
    server = subprocess.Popen([*args, "--port", str(port)], cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    assert response.status == 200, command.where
                    return
            except OSError:
                assert server.poll() is None, f"{command.where}: {command.text}\n{server.communicate()[1].decode()[-2000:]}"
                assert time.monotonic() < deadline, f"{command.where}: {command.text} did not answer within 60 s"
                time.sleep(0.3)
    finally:
        server.terminate()
        server.communicate(timeout=30)


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(path: Path, folder: Path) -> int:
    """Run the file's commands in `folder`; the number run. Their CPU time must stay within CPU_BUDGET (CI's time)."""
    started = _children_cpu()
    env = {
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}", "HOME": str(folder), "NO_COLOR": "1",
        "LANG": "C.UTF-8",
    }
    ran = 0
    for command in commands(path):
        wanted = STAND_INS.get(command.text, command.text)
        if wanted is None:
            continue
        if wanted.startswith("tournament serve"):
            _serve(command, folder, env)
            ran += 1
            continue
        result = subprocess.run(
            ["bash", "-o", "pipefail", "-c", wanted], cwd=folder, env=env, stdin=subprocess.DEVNULL, capture_output=True,
            timeout=300, check=False,
        )
        said = f"{command.where}: {command.text}\nexit {result.returncode}, the docs say {command.exit}\n{result.stderr.decode()[-2000:]}"
        assert result.returncode == command.exit, said
        assert b"Traceback" not in result.stderr, said
        ran += 1
    spent = _children_cpu() - started
    assert spent < CPU_BUDGET, f"{shown(path)}: its commands took {spent:.0f} s of CPU, over the {CPU_BUDGET} s budget: smaller events"
    return ran


@pytest.mark.parametrize("path", DOCS, ids=shown)
def test_every_fenced_block_is_run_or_marked_as_only_shown(path: Path) -> None:
    for block in blocks(path):
        assert block.kind == RUN or block.kind in SHOWN, (
            f"{block.where}: a fenced block is ```{RUN} (run by tests/test_readme.py) or one of "
            f"{', '.join(sorted(SHOWN))} (only shown), not {block.kind or 'unmarked'!r}"
        )


def test_the_stand_ins_are_in_the_docs() -> None:
    assert set(STAND_INS) <= {command.text for path in DOCS for command in commands(path)}


# What a file's tour leaves behind, looked for after it ran: a parser that found no commands would pass
# the run vacuously (the README's tour was checked this way before the runner read every doc)
LEFT = {"README.md": ("g.html", "grid.svg", "dispute.html"), "docs/referee.md": ("mydeck.txt", "mydeck.json")}


@pytest.mark.parametrize("path", DOCS, ids=shown)
def test_the_commands_run_in_order_in_an_empty_folder(path: Path, tmp_path: Path) -> None:
    ran = run(path, tmp_path)
    for name in LEFT.get(shown(path), ()):
        assert ran >= 5, f"{shown(path)}: only {ran} commands ran"
        assert (tmp_path / name).exists(), f"{shown(path)}'s commands ran, but {name} was not made"


def test_the_runner_reads_its_markers(tmp_path: Path) -> None:
    """The markers do what the docs say: a declared exit is required, a heredoc writes its file, `\\` continues."""
    page = tmp_path / "page.md"
    page.write_text(
        "```sh\ncat > a.csv <<'EOF'\nname # not a comment\nEOF\ngrep -q 'name # not' a.csv && \\\n"
        "  false   # exit 1: grep found it, false fails\n```\n\n```text\nnot run\n```\n"
    )
    folder = tmp_path / "run"
    folder.mkdir()
    found = commands(page)
    assert [c.exit for c in found] == [0, 1] and found[1].text == "grep -q 'name # not' a.csv && false"
    assert run(page, folder) == 2 and (folder / "a.csv").read_text() == "name # not a comment\n"
    page.write_text("```sh\ntrue   # exit 1: but it is 0\n```\n")
    with pytest.raises(AssertionError, match="exit 0, the docs say 1"):
        run(page, folder)


def test_the_readme_points_nowhere_outside_the_repository() -> None:
    text = (ROOT / "README.md").read_text()
    assert "../" not in text and "DESIGN.md" not in text
    for target in re.findall(r"\]\(([^)#]+)", text):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


NAMED = re.compile(r"(?<![\w/.])((?:referee|tournament|schemas|tests|bench|docs|migrations|fixtures)/[\w/.-]*\.(?:json|py|md|toml|j2|css|js))\b")


@pytest.mark.parametrize("path", [ROOT / "pyproject.toml", ROOT / "tox.ini", *DOCS], ids=shown)
def test_the_files_named_exist(path: Path) -> None:
    """A file of the repository named in the docs or the packaging (`tournament/formats/ratings.py`) is there:
    from the repository's top, or from the naming file's folder."""
    for named in NAMED.findall(path.read_text()):
        if not named.isupper() and not any(part.isupper() for part in Path(named).stem.split(".")):
            assert (ROOT / named).exists() or (path.parent / named).exists(), f"{shown(path)} names {named}, which is not there"


@pytest.mark.parametrize("name", ["referee", "tournament"])
def test_the_tour_needs_the_installed_scripts(name: str) -> None:
    assert (BIN / name).exists(), f"{name} is not installed next to {sys.executable}: pip install -e ."
