"""Rejudging on a Dask cluster: logs per second here, on 1 and on 2 local workers, and the serial share.

    python bench/rejudge.py                # 2,000 bot logs of every game
    python bench/rejudge.py --logs 20000 --batch 1000

The cluster is a `LocalCluster` of worker processes on 127.0.0.1, its
scheduler in this process, as `referee rejudge --cluster` meets a real one
(there the scheduler is a process of its own, so the share shown here is an
upper bound). Each run sends the logs as bytes, in batches (`--batch`, as
`referee rejudge --batch`). The serial share is this process's CPU time in
the 2-worker run (reading the files, sending batches, the scheduler, taking
the outcomes back) against the CPU time of the serial run: the part no worker
can take, whose size caps the speed-up any number of machines gives (Amdahl).
Wall times are best of --runs, the runs taken in turn.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
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

    from distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        corpus(args.logs, folder)
        items = tree([str(folder)])
        batch = min(args.batch, max(1, args.logs // 4))
        print(f"rejudge {args.logs:,} bot logs ({', '.join(ids())}), batches of {batch:,}")
        clusters = {n: LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None,
                                    silence_logs=40) for n in (1, 2)}
        try:
            walls: dict[str, list[float]] = {"serial": [], "1 worker": [], "2 workers": []}
            cpus: dict[str, list[float]] = {name: [] for name in walls}
            reference = None
            for _ in range(args.runs):  # in turn, so every kind meets the machine alike
                wall, cpu, reference = timed(items)
                walls["serial"].append(wall)
                cpus["serial"].append(cpu)
                for n, cluster in clusters.items():
                    with Client(cluster, set_as_default=False) as client:
                        client.run(lambda: None)  # the workers are up and have imported the referee
                    wall, cpu, judged = timed(items, cluster=cluster.scheduler_address, batch=batch)
                    if judged != reference:
                        raise SystemExit(f"{n} workers gave other outcomes than the serial run")
                    name = f"{n} worker" + ("s" if n > 1 else "")
                    walls[name].append(wall)
                    cpus[name].append(cpu)
        finally:
            for cluster in clusters.values():
                cluster.close()
    serial = min(walls["serial"])
    for name, times in walls.items():
        best = min(times)
        print(f"  {name:10} {args.logs / best:9,.0f} logs/s   wall {best:6.2f} s (spread {max(times) - best:.2f})   "
              f"speed-up {serial / best:4.2f}x   this process's CPU {min(cpus[name]):6.2f} s")
    share = min(cpus["2 workers"]) / min(cpus["serial"])
    print(f"  serial share {share:.1%} of the serial run's work: Amdahl allows {1 / (share + (1 - share) / 16):.1f}x at 16 workers")
    print("  every outcome on the cluster is the serial run's")


if __name__ == "__main__":
    main()
