"""`tournament enter`, the scorekeeper's prompt, driven through a real pseudo-terminal."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import time

from tests.tournament.tlib import cli, tables


class Terminal:
    """A command on a pty: read until a text shows, type a line. Every wait is bounded."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.seen = ""

    def expect(self, text: str, timeout: float = 60) -> str:
        """Everything shown until `text` (which is consumed)."""
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"waited {timeout}s for {text!r}; the screen shows:\n{self.seen}"
            ready, _, _ = select.select([self.master], [], [], min(left, 1))
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the other end closed: the program ended
                    chunk = b""
                assert chunk or text in self.seen, f"the program ended before {text!r}:\n{self.seen}"
                self.seen += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
        shown, _, self.seen = self.seen.partition(text)
        return shown + text

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    def close(self) -> int:
        try:
            code = self.proc.wait(timeout=60)
        finally:
            os.close(self.master)
        return code


def enter(db: str) -> Terminal:
    command = [shutil.which("tournament") or "", "enter", "ev", "--db", db]
    if not command[0]:
        command = [sys.executable, "-c", "from tournament.cli.app import main; main()", *command[1:]]
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    return Terminal(command, env)


def test_enter_asks_table_by_table(db_url: str) -> None:
    db = db_url
    cli(db, "create", "ev", "--seed", "3", "--best-of", "3")
    cli(db, "register", "ev", "José Ramírez", "Anne-Marie O'Neil", "ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")
    cli(db, "pair", "ev")
    rows = tables(db, "ev")
    cli(db, "report", "ev", "--table", "2", "2-0")  # already in: not asked
    term = enter(db)
    first = term.expect("> ")
    assert f"table 1: {rows[0]['names'][0]} vs {rows[0]['names'][1]}" in first
    term.type("2-1")
    assert "table 3:" in term.expect("> ")
    term.type("9-9")  # not a best-of-3 result: said, and asked again
    assert "is not a result of a best of 3" in term.expect("table 3:")
    term.expect("> ")
    term.type("")  # skipped
    term.expect("table 4:")
    term.expect("> ")
    term.type("id")
    term.expect("table 5:")
    term.expect("> ")
    term.type("q")
    assert "entered 2 result(s) in round 1; tables still open: 3, 5" in term.expect("5\n")
    assert term.close() == 0
    done = tables(db, "ev")
    assert done[0]["games"] == {rows[0]["players"][0]: 2, rows[0]["players"][1]: 1} and done[0]["source"] == "slip"
    assert done[3]["games"] == {p: 0 for p in rows[3]["players"]}  # the intentional draw
    assert done[2]["games"] is None and done[4]["games"] is None
    # Again: only the open tables are asked; end of input stops it.
    again = enter(db)
    assert "table 3:" in again.expect("> ")
    again.type("0-2")
    again.expect("table 5:")
    again.expect("> ")
    os.write(again.master, b"\x04")  # Ctrl-D: end of input
    assert "entered 1 result(s)" in again.expect("tables still open: 5")
    assert again.close() == 0
    assert "chain intact" in cli(db, "verify", "ev").stdout
