"""`referee rejudge` on a Dask cluster gives each log the serial run's outcome, once, even when a worker dies.

The cluster is a `LocalCluster` of two worker processes on 127.0.0.1; the logs
are 2,000 bot games, a seventh of them made illegal on purpose (a record taken
from another game at the same turn) and a tenth mangled by tests/mutations.py.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from referee.bots import bot_header, play
from referee.logio import encode_lines
from referee.rejudge import Judged, Outcome, outcomes, read_record, tree
from tests.mutations import bad_utf8, delete_bytes, lines_moved, replace_byte, truncate

LOGS = 2000
MUTATIONS = (bad_utf8, delete_bytes, lines_moved, replace_byte, truncate)


def _game(seed: int) -> tuple[object, list[object]]:
    header = bot_header("cardwars", seed, 2)
    return header, list(play(header, seed))


def _corpus(folder: Path, count: int) -> None:
    rng = random.Random(7)
    for seed in range(count):
        header, records = _game(seed)
        if seed % 7 == 3:  # illegal on purpose: one record of another game, at the same turn, chain made anew
            _, other = _game(seed + LOGS)
            at = rng.randrange(1, min(len(records), len(other)))
            records = [*records[:at], other[at], *records[at + 1 :]]
        data = b"".join(line + b"\n" for line in encode_lines(header, records))  # type: ignore[arg-type]
        if seed % 10 == 5:
            data = rng.choice(MUTATIONS)(data, rng)
        (folder / f"{seed // 500}").mkdir(exist_ok=True)
        (folder / f"{seed // 500}" / f"g{seed}.jsonl").write_bytes(data)


def _serial(folder: Path) -> dict[str, Outcome]:
    """Every log's outcome judged here, one after another: the reference."""
    return {judged.log: judged.outcome for judged in outcomes(tree([str(folder)]))}


def test_a_local_cluster_gives_every_log_the_serial_outcome_once_even_when_a_worker_is_killed(tmp_path: Path) -> None:
    from distributed import Client, LocalCluster

    logs = tmp_path / "logs"
    logs.mkdir()
    _corpus(logs, LOGS)
    serial = _serial(logs)
    kinds = Counter(outcome.verdict for outcome in serial.values())
    assert len(serial) == LOGS and kinds["complete"] > LOGS // 2 and kinds["illegal"] > 100 and kinds["malformed"] > 20, kinds
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, silence_logs=40
    ) as cluster:
        address = cluster.scheduler_address
        on_cluster = list(outcomes(tree([str(logs)]), cluster=address, batch=250))
        assert Counter(j.log for j in on_cluster) == Counter(serial.keys())  # each log once
        assert {j.log: j.outcome for j in on_cluster} == serial
        # the command: on the cluster, every outcome saved, each log printed once against an empty record
        record = tmp_path / "record.jsonl"
        done = subprocess.run(
            [sys.executable, "-m", "referee", "rejudge", str(logs), "--cluster", address, "--save", str(record)],
            capture_output=True, text=True, timeout=300,
        )
        assert done.returncode == 0 and f"rejudged {LOGS:,} logs on {address}" in done.stderr, done.stderr
        saved = {j.log: j.outcome for j in read_record(record.read_bytes()).values()}
        assert saved == serial and len(done.stdout.splitlines()) == LOGS
        # a worker killed once the first batch is back: its batch goes to another, and no log is lost or doubled
        with Client(address, set_as_default=False) as client:
            pids = client.run(os.getpid)
        got: list[Judged] = []
        started = time.monotonic()
        for judged in outcomes(tree([str(logs)]), cluster=address, batch=100):
            got.append(judged)
            if len(got) == 100:
                os.kill(next(iter(pids.values())), signal.SIGKILL)
            assert time.monotonic() - started < 240
        assert Counter(j.log for j in got) == Counter(serial.keys())
        assert {j.log: j.outcome for j in got} == serial


def test_rejudge_against_a_record_prints_exactly_the_logs_whose_outcome_differs(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    _corpus(logs, 40)
    referee = [sys.executable, "-m", "referee", "rejudge", str(logs)]
    first = subprocess.run([*referee, "--save", str(tmp_path / "before.jsonl")], capture_output=True, text=True, timeout=120)
    assert first.returncode == 0 and len(first.stdout.splitlines()) == 40  # nothing recorded yet: every log listed, none differs (T-159)
    edited = [json.loads(line) for line in (tmp_path / "before.jsonl").read_text().splitlines()]
    for entry in edited[:3]:  # as if an older referee had said otherwise
        entry["outcome"] = {"verdict": "illegal", "rule": "CW-0.0", "result": None}
    (tmp_path / "old.jsonl").write_text("".join(json.dumps(e) + "\n" for e in edited[:-1]))  # the last never recorded
    (logs / "0" / "g0.jsonl").unlink()  # and one recorded log gone
    again = subprocess.run([*referee, "--jobs", "2", "--against", str(tmp_path / "old.jsonl")], capture_output=True, text=True, timeout=120)
    assert again.returncode == 1, again.stderr
    changes = {c["log"]: c for c in map(json.loads, again.stdout.splitlines())}
    assert set(changes) == {e["log"] for e in edited[:3]} | {edited[-1]["log"]}
    assert changes[edited[-1]["log"]]["before"] is None and changes["0/g0.jsonl"]["after"] is None
    assert changes[edited[1]["log"]]["before"]["rule"] == "CW-0.0" and changes[edited[1]["log"]]["after"] == json.loads((tmp_path / "before.jsonl").read_text().splitlines()[1])["outcome"]
    same = subprocess.run([*referee, "--against", str(tmp_path / "before.jsonl")], capture_output=True, text=True, timeout=120)
    assert same.returncode == 1 and same.stdout.count("\n") == 1  # only the removed log
    (tmp_path / "bad.jsonl").write_text(json.dumps(edited[1]) + "\n" + '{"log": "x", "sha256": "", "outcome": {"verdict": 3}}\n')
    bad = subprocess.run([*referee, "--against", str(tmp_path / "bad.jsonl")], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stdout == "" and "bad.jsonl: line 2:" in bad.stderr and "outcome.verdict" in bad.stderr
    assert "Traceback" not in bad.stderr


WITHOUT_DASK = "import sys; sys.modules['distributed'] = None; from {0}.cli{1} import main; main()"  # as an install without the extra


def test_cluster_without_the_cluster_extra_says_how_to_install_it(tmp_path: Path) -> None:
    """`--cluster` where Dask distributed is not installed is a usage error naming the extra, never exit 70's
    "internal error", for `referee rejudge` and `tournament rejudge` alike."""
    logs = tmp_path / "logs"
    logs.mkdir()
    _corpus(logs, 2)
    db = str(tmp_path / "t.db")
    subprocess.run([sys.executable, "-m", "tournament", "--db", db, "demo", "--players", "2", "--rounds", "1", "--best-of", "1",
                    "--logs", str(tmp_path / "demo-logs")], capture_output=True, check=True, timeout=120)
    for command in (
        [sys.executable, "-c", WITHOUT_DASK.format("referee", ""), "rejudge", str(logs), "--cluster", "tcp://127.0.0.1:9"],
        [sys.executable, "-c", WITHOUT_DASK.format("tournament", ".app"), "rejudge", "demo", "--db", db, "--cluster", "tcp://127.0.0.1:9"],
    ):
        refused = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert refused.returncode == 2 and refused.stdout == "", refused.stderr
        [line] = refused.stderr.splitlines()
        assert "pip install 'headjudge[cluster]'" in line and "internal error" not in line


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_scheduler_lost_mid_rejudge_is_one_line_not_dask_tracebacks(tmp_path: Path) -> None:
    """Issue 34: a scheduler that dies mid-run printed 37 lines of Dask's tracebacks before the message."""
    import socket

    logs = tmp_path / "logs"
    logs.mkdir()
    _corpus(logs, 200)
    dask = str(Path(sys.executable).parent / "dask")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], **quiet)  # type: ignore[call-overload]
    worker = None
    try:
        for _ in range(240):  # the scheduler listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.25)
        worker = subprocess.Popen([dask, "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard"], **quiet)  # type: ignore[call-overload]
        env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "5s"}
        run = subprocess.Popen(
            [sys.executable, "-m", "referee", "rejudge", str(logs), "--cluster", address, "--batch", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        )
        assert run.stdout is not None
        assert run.stdout.readline()  # the first outcome is back: the run is under way
        scheduler.kill()
        _, stderr = run.communicate(timeout=180)
    finally:
        for process in (scheduler, worker):
            if process is not None:
                process.kill()
                process.wait()
    lines = stderr.decode().strip().splitlines()
    assert run.returncode == 5, stderr.decode()
    assert len(lines) == 1 and "Traceback" not in lines[0], stderr.decode()
    assert lines[0].startswith(f"referee: lost the Dask scheduler at {address} mid-run, after ") and "of 200 logs" in lines[0]


def test_a_log_past_its_bound_on_a_cluster_is_exit_9_as_without_one_and_dask_logs_again_after(tmp_path: Path) -> None:
    """A log over 64 MiB is exit 9 naming it (T-161), with `--cluster` too: read here for a batch, or by a worker
    (`--shared-files`), it was reported as exit 5, "a batch failed on the cluster", a fault of no cluster. And the
    filter that keeps Dask's tracebacks off stderr while a run lasts is gone once it has failed."""
    import logging

    from distributed import LocalCluster

    from referee.inputs import LOG_LIMIT, TooLarge

    logs = tmp_path / "logs"
    logs.mkdir()
    _corpus(logs, 3)
    huge = logs / "huge.jsonl"
    with huge.open("wb") as stream:
        os.truncate(stream.fileno(), LOG_LIMIT + 1)  # sparse: no disk
    handlers = [h for name in ("distributed", "") for h in logging.getLogger(name).handlers]
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=None) as cluster:
        for shared in (False, True):
            with pytest.raises(TooLarge, match=r"huge\.jsonl: more than 64 MiB, the most a log may hold"):
                list(outcomes(tree([str(logs)]), cluster=cluster.scheduler_address, batch=1, shared=shared))
            assert all(not h.filters for h in handlers), "Dask's log records still dropped after the run"


def test_a_cluster_run_drops_only_dasks_log_records(caplog: pytest.LogCaptureFixture) -> None:
    """While a --cluster run lasts, Dask's records (and its event loop's) are dropped; another logger's warning,
    the caller's own, still reaches the handlers (it was dropped too: the filter passed no logger at all)."""
    import logging

    from referee.rejudge import _dask_quiet

    with caplog.at_level(logging.WARNING), _dask_quiet():
        logging.getLogger("tournament.rejudge").warning("kept")
        logging.getLogger("asyncio").warning("dropped: the client's loop")
        logging.getLogger("distributed.client").warning("dropped: Dask's")
    assert [r.getMessage() for r in caplog.records] == ["kept"]
