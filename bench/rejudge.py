"""Rejudging on a Dask cluster: logs per second here, on 1 and on 2 local workers, and the serial share.

    python bench/rejudge.py                # 2,000 bot logs of every game
    python bench/rejudge.py --logs 20000 --batch 1000

The cluster is started as on several machines (README, "Rejudging on
several machines"), all on 127.0.0.1: `dask scheduler` and `dask worker
--nworkers N --nthreads 1`, each a process of its own. Each run sends the
logs as bytes, in batches (`--batch`, as `referee rejudge --batch`). The
serial share is this process's CPU time in the 2-worker run (reading the
files, sending the batches, taking the outcomes back) against the CPU time of
the serial run: the part no worker can take, whose size caps the speed-up any
number of machines gives (Amdahl). "2, paths" is `--shared-files`: the
workers are sent the paths and read the files themselves.
Wall times are best of --runs, the runs taken in turn.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.bots import bot_header, play
from referee.logio import encode_lines
from referee.rejudge import outcomes, tree
from referee.rulesets import get, ids


def corpus(logs: int, folder: Path) -> None:
    """`logs` bot games, the games taken in turn (each at every player count it allows)."""
    games = ids()
    for seed in range(logs):
        ruleset_id = games[seed % len(games)]
        ruleset = get(ruleset_id)
        counts = list(range(ruleset.min_players, ruleset.max_players + 1))
        header = bot_header(ruleset_id, seed, counts[seed // len(games) % len(counts)])
        (folder / f"{ruleset_id}-{seed}.jsonl").write_bytes(b"".join(line + b"\n" for line in encode_lines(header, play(header, seed))))


@contextmanager
def cluster(workers: int, folder: Path) -> Iterator[str]:
    """A scheduler and `workers` worker processes on 127.0.0.1, started with the dask command; its address."""
    from distributed import Client

    file = folder / f"scheduler-{workers}.json"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", str(file)], **quiet)
    worker = None
    try:
        deadline = time.monotonic() + 60
        while not file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", str(workers),
                                   "--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1"], **quiet)
        with Client(address, set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=120)
            client.run(lambda: None)
        yield address
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.terminate()
                process.wait(timeout=60)


def timed(items: list, **where: object) -> tuple[float, float, object]:
    """Wall seconds, this process's CPU seconds, and the outcomes."""
    wall, cpu = time.perf_counter(), time.process_time()
    judged = {j.log: j.outcome for j in outcomes(items, **where)}  # type: ignore[arg-type]
    return time.perf_counter() - wall, time.process_time() - cpu, judged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--logs", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=1000, help="logs per task")
    parser.add_argument("--runs", type=int, default=2, help="best of this many timings")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        corpus(args.logs, folder)
        items = tree([str(folder)])
        batch = min(args.batch, max(1, args.logs // 4))
        print(f"rejudge {args.logs:,} bot logs ({', '.join(ids())}), batches of {batch:,}")
        with cluster(1, folder) as one, cluster(2, folder) as two:
            walls: dict[str, list[float]] = {"serial": [], "1 worker": [], "2 workers": [], "2, paths": []}
            cpus: dict[str, list[float]] = {name: [] for name in walls}
            reference = None
            for _ in range(args.runs):  # in turn, so every kind meets the machine alike
                wall, cpu, reference = timed(items)
                walls["serial"].append(wall)
                cpus["serial"].append(cpu)
                for name, address, shared in (("1 worker", one, False), ("2 workers", two, False), ("2, paths", two, True)):
                    wall, cpu, judged = timed(items, cluster=address, batch=batch, shared=shared)
                    if judged != reference:
                        raise SystemExit(f"{name}: other outcomes than the serial run")
                    walls[name].append(wall)
                    cpus[name].append(cpu)
    serial = min(walls["serial"])
    for name, times in walls.items():
        best = min(times)
        print(f"  {name:10} {args.logs / best:9,.0f} logs/s   wall {best:6.2f} s (spread {max(times) - best:.2f})   "
              f"speed-up {serial / best:4.2f}x   this process's CPU {min(cpus[name]):6.2f} s")
    for name, how in (("2 workers", "the logs sent as bytes"), ("2, paths", "the workers reading the files (--shared-files)")):
        share = min(cpus[name]) / min(cpus["serial"])
        print(f"  serial share, {how}: {share:.1%} of the serial run's work; Amdahl allows {1 / (share + (1 - share) / 16):.1f}x at 16 workers")
    print("  every outcome on the cluster is the serial run's")


if __name__ == "__main__":
    main()
