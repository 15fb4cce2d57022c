"""Every input is read with a bound (issue 34, T-161): one line naming the file and the limit, exit 9.

`/dev/zero` never ends and holds no end of line; before, `validate` read 583 MB of it and `rejudge --against`
319 MB before anyone stopped them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app as referee_app
from referee.inputs import EXIT_TOO_LARGE, LINE_LIMIT

runner = CliRunner()


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def test_validate_reads_a_log_line_with_a_bound() -> None:
    result = runner.invoke(referee_app, ["validate", "/dev/zero"])
    assert result.exit_code == EXIT_TOO_LARGE
    assert one_line(result.stderr) == "referee: /dev/zero: more than 16 MiB, the most a line of a log may hold; nothing was read past it"


def test_rejudge_against_reads_the_save_file_with_a_bound(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    result = runner.invoke(referee_app, ["rejudge", str(tmp_path / "logs"), "--against", "/dev/zero"])
    assert result.exit_code == EXIT_TOO_LARGE
    assert one_line(result.stderr).startswith("referee: /dev/zero: more than 16 MiB, the most a line of a --save file may hold")


def test_a_log_line_past_the_bound_in_a_regular_file_is_refused_too(tmp_path: Path) -> None:
    log = tmp_path / "huge.jsonl"
    with log.open("wb") as stream:
        os.truncate(stream.fileno(), LINE_LIMIT + (1 << 16) + 1)  # sparse: no disk, all zeros, no line end
    for command in (["validate", str(log)], ["dispute", str(log), str(log)], ["replay", str(log), "--to", "1"]):
        result = runner.invoke(referee_app, command)
        assert result.exit_code == EXIT_TOO_LARGE, (command, result.stderr)
        assert f"{log}: more than 16 MiB" in one_line(result.stderr)


def test_lines_are_cut_the_same_across_blocks_and_bounded_alike() -> None:
    """`lines` (dispute, show, deck show, rejudge --against) reads through the engine's `blocks`: lines that
    straddle its 64 KiB reads come back whole, with their endings, and the last without one."""
    import io

    from referee.inputs import TooLarge, lines

    data = b"".join(b"x" * n + (b"\r\n" if n % 2 else b"\n") for n in (0, 1, 65_533, 65_536, 3, 200_000, 7)) + b"tail"
    expected = [part + b"\n" for part in data.split(b"\n")[:-1]] + [b"tail"]
    assert list(lines(io.BytesIO(data).read, "here")) == expected
    with pytest.raises(TooLarge, match="here: more than 100,000 bytes"):
        list(lines(io.BytesIO(data).read, "here", limit=100_000))


def test_stdin_past_the_bound_is_named_stdin_by_every_command() -> None:
    # validate said "-:", where dispute, show and deck show say "stdin:"
    import subprocess
    import sys

    for command in (["validate", "-"], ["dispute", "-", "/dev/null"], ["show", "-", "-o", "/dev/null"]):
        with open("/dev/zero", "rb") as zeros:
            result = subprocess.run([sys.executable, "-m", "referee", *command], stdin=zeros, capture_output=True, text=True, timeout=120)
        assert result.returncode == EXIT_TOO_LARGE, (command, result.stderr)
        assert one_line(result.stderr).startswith("referee: stdin: more than 16 MiB"), (command, result.stderr)


def test_validate_json_of_many_logs_stays_an_array_when_one_is_past_its_bound(tmp_path: Path) -> None:
    """A log past its bound ends the run with exit 9; the JSON array of the logs judged before it still closes."""
    import json

    good = next(Path("fixtures").rglob("*.jsonl"))
    huge = tmp_path / "huge.jsonl"
    with huge.open("wb") as stream:
        os.truncate(stream.fileno(), LINE_LIMIT + (1 << 16) + 1)
    result = runner.invoke(referee_app, ["validate", "--json", str(good), str(huge)])
    assert result.exit_code == EXIT_TOO_LARGE
    assert len(json.loads(result.stdout)) == 1
