"""`referee validate --jobs N`: the same output, byte for byte and in the same order, as one job."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.validate import CHUNK_MOST, chunk_size
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


def test_chunks_keep_every_worker_busy_and_messages_few() -> None:
    assert chunk_size(1, 2) == 1
    assert chunk_size(10_000, 2) == CHUNK_MOST
    assert chunk_size(1000, 2) == 62  # eight messages a worker
    assert chunk_size(100, 4) == 3
