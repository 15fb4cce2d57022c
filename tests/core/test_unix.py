"""Both command lines keep Unix conventions: one-line usage errors, quiet closed pipes, scriptable exit codes."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app as referee_app
from tournament.cli.app import app as tournament_app

runner = CliRunner()
BIN = Path(sys.executable).parent


def referee(*args: str, stdin: bytes | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(referee_app, list(args), input=stdin)


def run(*command: str, close_stdout: bool = False) -> subprocess.CompletedProcess[bytes]:
    """A real process (pipes and `python -m` need one), with the venv's scripts first on the PATH."""
    env = {"PATH": f"{BIN}:/usr/bin:/bin", "NO_COLOR": "1"}
    if not close_stdout:
        return subprocess.run(list(command), capture_output=True, env=env, timeout=120, check=False)
    proc = subprocess.Popen(list(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    proc.stdout.close()  # the reader is gone before the first write, as `| head -0` would leave it
    _, stderr = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(command, proc.returncode, b"", stderr)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("logs")
    paths = {}
    for name, args in {"game": ["cardwars", "--seed", "7"], "other": ["cardwars", "--seed", "8"],
                       "sg": ["stccg-multiplayer", "--seed", "3", "--players", "3"]}.items():  # fmt: skip
        paths[name] = folder / f"{name}.jsonl"
        assert referee("play", *args, "--out", str(paths[name])).exit_code == 0
    lines = paths["game"].read_bytes().splitlines(keepends=True)
    paths["prefix"] = folder / "prefix.jsonl"
    paths["prefix"].write_bytes(b"".join(lines[:13]))
    paths["illegal"] = folder / "illegal.jsonl"
    wrong = {"seq": 13, "by": "ann", "type": "play_resource", "card": "JK2", "prev": hashlib.sha256(lines[12].rstrip(b"\n")).hexdigest()}
    paths["illegal"].write_bytes(b"".join(lines[:13]) + json.dumps(wrong).encode() + b"\n")  # JK2 is bob's
    return paths


# -- usage errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("app", "args", "start"),
    [
        (referee_app, ["validate"], "referee validate: Missing argument 'LOG...'."),
        (referee_app, ["validate", "--jobs", "x", "a"], "referee validate: Invalid value for '--jobs'"),
        (referee_app, ["validate", "--nope", "a"], "referee validate: No such option: --nope"),
        (referee_app, ["fly"], "referee: No such command 'fly'."),
        (tournament_app, ["standings"], "tournament standings: Missing argument 'EVENT'."),
        (tournament_app, ["db", "upgrade", "--nope"], "tournament db upgrade: No such option: --nope"),
    ],
)
def test_a_usage_error_is_one_line_with_exit_2(app, args: list[str], start: str) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(start), result.stderr
    assert "╭" not in result.stderr and "--help" in result.stderr


def test_a_usage_error_from_the_installed_script_is_one_line() -> None:
    result = run("referee", "validate")
    assert result.returncode == 2 and result.stderr.decode().count("\n") == 1 and result.stdout == b""


def test_an_unexpected_error_is_one_line_with_exit_70(monkeypatch: pytest.MonkeyPatch, logs: dict[str, Path]) -> None:
    def broken(path: str) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr("referee.validate.judge_file", broken)
    result = referee("validate", str(logs["game"]))
    assert result.exit_code == 70 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("referee: internal error") and "KeyError" in result.stderr


# -- closed pipes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [["validate", "game"], ["validate", "--json", "game", "other", "illegal"], ["validate", *["game"] * 200],
     ["play", "cardwars"], ["rulesets"], ["replay", "game"]],
)  # fmt: skip
def test_a_closed_pipe_ends_quietly_and_never_says_illegal(args: list[str], logs: dict[str, Path]) -> None:
    """`referee validate *.jsonl | head`: the reader left; the exit is 141 (SIGPIPE's), not 1, and nothing on stderr."""
    result = run("referee", *(str(logs[a]) if a in logs else a for a in args), close_stdout=True)
    assert (result.returncode, result.stderr) == (141, b"")


@pytest.mark.parametrize("command", [["referee", "--help"], ["referee", "validate", "--help"], ["tournament", "--help"], ["referee"]])
def test_help_into_a_closed_pipe_ends_by_sigpipe(command: list[str]) -> None:
    result = run(*command, close_stdout=True)
    assert result.returncode == -13 and result.stderr == b""  # killed by SIGPIPE: a shell reports 141


def test_help_in_process_leaves_the_sigpipe_handler_alone() -> None:
    """Only the real command line lets SIGPIPE end the process; a test runner (or any caller) keeps its own handler."""
    import signal

    before = signal.getsignal(signal.SIGPIPE)
    assert referee("--help").exit_code == 0 and referee().exit_code == 2
    assert signal.getsignal(signal.SIGPIPE) == before


def test_tournament_into_a_closed_pipe(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    assert run("tournament", "--db", db, "create", "e1").returncode == 0
    result = run("tournament", "--db", db, "events", close_stdout=True)
    assert (result.returncode, result.stderr) == (141, b"")


# -- versions and python -m ---------------------------------------------------------------------


@pytest.mark.parametrize("program", ["referee", "tournament"])
def test_version(program: str) -> None:
    from importlib.metadata import version

    app = referee_app if program == "referee" else tournament_app
    result = runner.invoke(app, ["--version"])
    assert (result.exit_code, result.stdout) == (0, f"{program} {version('headjudge')}\n")


@pytest.mark.parametrize("program", ["referee", "tournament"])
def test_python_dash_m_runs_each_program(program: str) -> None:
    result = run(sys.executable, "-m", program, "--version")
    assert result.returncode == 0 and result.stdout.decode().startswith(f"{program} ")
    usage = run(sys.executable, "-m", program, "no-such-command")
    assert usage.returncode == 2 and usage.stderr.decode().startswith(f"{program}: No such command")


# -- the exit codes a script reads -----------------------------------------------------------------


def test_dispute_exit_codes_tell_agree_part_and_unreadable(logs: dict[str, Path], tmp_path: Path) -> None:
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(logs["game"].read_bytes())
    assert referee("dispute", str(logs["game"]), str(copy)).exit_code == 0
    assert referee("dispute", str(logs["game"]), str(logs["other"])).exit_code == 1
    assert referee("dispute", str(logs["game"]), str(logs["prefix"]), "--json").exit_code == 1
    missing = referee("dispute", str(logs["game"]), str(tmp_path / "nope.jsonl"))
    folder = referee("dispute", str(tmp_path), str(logs["game"]))
    assert (missing.exit_code, folder.exit_code) == (2, 2) and "is a directory" in folder.stderr


@pytest.mark.parametrize("command", [["validate"], ["replay"], ["legal"], ["grid"], ["append", "-", '{"by": "ann", "type": "concede"}']])
def test_a_directory_is_called_a_directory(command: list[str], tmp_path: Path) -> None:
    args = [command[0], str(tmp_path), *command[2:]]
    result = referee(*args)
    assert result.exit_code == 2 and result.stderr == f"referee: {tmp_path}: is a directory, not a log\n"


def test_a_pipe_is_a_log(logs: dict[str, Path]) -> None:
    """bash's process substitution names a pipe (/dev/fd/63): it is read like a file."""
    result = run("bash", "-c", f"referee validate <(cat {logs['game']}) && referee dispute {logs['game']} <(cat {logs['game']})")
    assert result.returncode == 0 and b"complete" in result.stdout and result.stderr == b""


def test_tournament_calls_a_directory_a_directory(tmp_path: Path) -> None:
    result = runner.invoke(tournament_app, ["--db", f"sqlite:///{tmp_path / 't.db'}", "report", "e", "--table", "1", "--log", str(tmp_path)])
    assert result.exit_code == 2 and result.stderr == f"tournament: {tmp_path}: Is a directory\n"


def test_validate_quiet_prints_only_the_logs_that_are_not_legal(logs: dict[str, Path]) -> None:
    result = referee("validate", "--quiet", str(logs["game"]), str(logs["illegal"]), str(logs["prefix"]))
    assert result.exit_code == 1 and str(logs["illegal"]) in result.stdout
    assert str(logs["game"]) not in result.stdout and "summary" not in result.stdout
    quiet = referee("validate", "-q", "--json", str(logs["game"]), str(logs["illegal"]))
    assert [v["path"] for v in json.loads(quiet.stdout)] == [str(logs["illegal"])]


def test_validate_quiet_on_legal_logs_prints_nothing(logs: dict[str, Path]) -> None:
    assert (referee("validate", "-q", str(logs["game"]), str(logs["prefix"])).stdout, referee("validate", "-q", str(logs["game"])).exit_code) == ("", 0)
    assert json.loads(referee("validate", "-q", "--json", str(logs["game"])).stdout) == []


def test_grid_json(logs: dict[str, Path]) -> None:
    result = referee("grid", str(logs["sg"]), "--at", "20", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["seq"] == 20 and data["text"].startswith("centre: N")
    assert data["svg"].startswith("<svg") and isinstance(data["to_act"], list)
    assert referee("grid", str(logs["game"]), "--json").exit_code == 2


# -- append --json ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("record", "code", "field"),
    [
        ('{"by": "ann", "type": "attack", "attackers": [], "seq": 99}', 3, "seq"),
        ('{"by": "ann", "type": "fly"}', 3, "type"),
        ("[1]", 3, None),
        ("{nope", 3, None),
        ('{"by": "ann", "by": "bob", "type": "concede"}', 3, "by"),
        ('{"by": "ann", "type": "play_resource", "card": "KS"}', 1, None),
    ],
)
def test_append_json_prints_a_json_error(record: str, code: int, field: str | None, logs: dict[str, Path], tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(logs["prefix"].read_bytes())
    result = referee("append", "--json", str(log), record)
    error = json.loads(result.stdout)["error"]
    assert result.exit_code == code == error["code"] and error["field"] == field and error["message"]
    assert error["verdict"] == {1: "illegal", 3: "malformed"}[code] and result.stderr.startswith("referee: ")
    assert log.read_bytes() == logs["prefix"].read_bytes()


def test_append_json_on_a_finished_game_and_a_broken_log(logs: dict[str, Path]) -> None:
    over = json.loads(referee("append", "--json", str(logs["game"]), '{"by": "ann", "type": "concede"}').stdout)
    assert over["appended"] is None and over["error"]["verdict"] == "illegal"
    broken = json.loads(referee("append", "--json", str(logs["illegal"]), '{"by": "ann", "type": "concede"}').stdout)
    assert broken["error"]["code"] == 1 and broken["log"]["verdict"] == "illegal" and broken["log"]["error"]["line"] == 14


def test_append_json_success_is_unchanged(logs: dict[str, Path], tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(logs["prefix"].read_bytes())
    legal = json.loads(referee("legal", "--json", str(log)).stdout)["legal"][0]
    data = json.loads(referee("append", "--json", str(log), json.dumps(legal)).stdout)
    assert data["appended"] == 13 and data["line"] == 14 and "error" not in data


@pytest.mark.parametrize(
    "record",
    [b'{"by": "\xff", "type": "concede"}', b"[" * 100_000, b'{"by": "ann", "type": "concede", "note": 1e999}',
     b'{"by": "ann", "type": "concede", "seq": 123456789012345678901234567890}'],
)  # fmt: skip
def test_append_answers_any_bytes_on_stdin(record: bytes, logs: dict[str, Path], tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(logs["prefix"].read_bytes())
    result = referee("append", str(log), "-", stdin=record)
    assert result.exit_code == 3 and result.stderr.count("\n") == 1 and log.read_bytes() == logs["prefix"].read_bytes()


def test_validate_of_bytes_that_are_not_utf8_exits_3_without_a_traceback(tmp_path: Path, logs: dict[str, Path]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(logs["prefix"].read_bytes().replace(b'"by":"ann"', b'"by":"a\xffn"', 1))
    result = run("referee", "validate", str(bad))
    assert result.returncode == 3 and result.stderr == b"" and b"not UTF-8" in result.stdout
