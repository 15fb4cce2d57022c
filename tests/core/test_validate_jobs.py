"""`referee validate --jobs N`: the same output, byte for byte and in the same order, as one job."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.validate import BATCH_MOST, as_json, batches, judge_many
from tests.selfplay import bot_log

runner = CliRunner()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """40 logs whose verdicts differ from one to the next: complete, tampered, malformed, malformed again."""
    folder = tmp_path_factory.mktemp("logs")
    paths = []
    for seed in range(40):
        log = bot_log("cardwars", seed)
        if seed % 4 == 1:
            log[5] = json.dumps(json.loads(log[5]) | {"note": "edited"}).encode()  # the next prev no longer matches
        elif seed % 4 == 2:
            log[-1] = json.dumps(json.loads(log[-1]) | {"by": "nobody"}).encode()
        elif seed % 4 == 3:
            log = [*log, b"{not json"]
        path = folder / f"{seed:02d}.jsonl"
        path.write_bytes(b"\n".join(log) + b"\n")
        paths.append(str(path))
    return paths


@pytest.mark.parametrize("options", [[], ["--json"], ["--quiet"], ["--json", "--quiet"]])
def test_two_and_three_jobs_print_what_one_job_prints(logs: list[str], options: list[str]) -> None:
    one = runner.invoke(app, ["validate", *options, *logs])
    assert one.exit_code == 4 and one.stdout  # tampered is the worst verdict among them
    for jobs in ("2", "3"):
        many = runner.invoke(app, ["validate", "--jobs", jobs, *options, *logs])
        assert (many.exit_code, many.stdout) == (one.exit_code, one.stdout)


def test_json_is_an_object_for_one_log_and_an_array_otherwise(logs: list[str]) -> None:
    assert isinstance(json.loads(runner.invoke(app, ["validate", "--json", "--jobs", "2", logs[0]]).stdout), dict)
    quiet = json.loads(runner.invoke(app, ["validate", "--json", "--quiet", "--jobs", "2", logs[0]]).stdout)
    assert quiet == []  # the first log is complete, and --quiet always gives an array


def test_a_reader_that_stops_early_leaves_no_worker_behind(logs: list[str]) -> None:
    verdicts = judge_many(logs * 25, 2, as_json)
    assert next(verdicts).kind == "complete"
    verdicts.close()
    assert multiprocessing.active_children() == []


# A worker that dies as the system's out-of-memory killer would end it, at its first verdict.
DYING_WORKER = """
import os, signal, sys
from referee.validate import judge_many
try:
    list(judge_many(sys.argv[1:], 2, lambda verdict: os.kill(os.getpid(), signal.SIGKILL)))
except Exception as exc:
    print(type(exc).__name__)
"""


def test_a_worker_that_dies_ends_the_run_with_an_error_not_a_hang(logs: list[str]) -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", DYING_WORKER, *logs], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "BrokenProcessPool", done.stderr[-2000:]


def test_batches_keep_the_order_and_every_path_once() -> None:
    paths = [f"{i}.jsonl" for i in range(1000)]
    assert [p for batch in batches(paths, 2) for p in batch] == paths
    assert [list(batch) for batch in batches(["a.jsonl"], 4)] == [["a.jsonl"]]
    assert list(batches([], 2)) == []


def test_batches_are_large_while_much_is_left_and_shrink_to_one_at_the_end() -> None:
    sizes = [len(batch) for batch in batches([str(i) for i in range(10_000)], 2)]
    assert max(sizes) == sizes[0] == BATCH_MOST  # a message carries many paths while there are many
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] == 1  # the last ones are single paths
    assert len(sizes) < 10_000 // BATCH_MOST + 40  # few messages in all: the shrinking tail adds a few dozen
    first = [len(batch) for batch in batches([str(i) for i in range(100)], 4)][:3]
    assert first == [12, 11, 9]  # an eighth of what is left (4 jobs x BATCHES_AHEAD 2): 100 // 8, 88 // 8, 77 // 8
