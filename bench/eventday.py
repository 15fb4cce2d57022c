"""How long entering a whole round takes: `results --from` a CSV file against `enter` at the prompt.

    python bench/eventday.py [--tables 32] [--repeat 3]

An event of 2 x TABLES players (best of 3, SQLite in a temporary folder) is
paired; then the round's results go in, timed as command wall time (process
start to exit, as a scorekeeper waits for it):

- `results`: one `tournament results EVENT --from r.csv` (one transaction);
- `enter`: one `tournament enter EVENT` on a pseudo-terminal, each table's
  score typed the moment its prompt shows (so this is the program's share of
  the time, not a person's typing), one transaction per answer;
- `pairings`: one `tournament pairings EVENT`, a command that reads the same
  round: the floor every command pays (starting Python, imports, the database).

Each timing has an event of its own, set up the same way (the same seed,
so the same pairing), so every run enters the same results into an empty
round. On a
machine shared with other work the figures are noisy: compare the two
columns of one run, and take the lowest of the repeats.
"""

from __future__ import annotations

import argparse
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROGRAM = [shutil.which("tournament") or "", "--db"]
if not PROGRAM[0]:
    PROGRAM = [sys.executable, "-c", "from tournament.cli.app import main; main()", "--db"]


def run(db: str, *args: str) -> str:
    done = subprocess.run([*PROGRAM, db, *args], capture_output=True, text=True, timeout=300, check=False)
    if done.returncode:
        raise SystemExit(f"tournament {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def paired(db: str, event: str, tables: int) -> str:
    """A new event of 2 x `tables` players with round 1 paired."""
    run(db, "create", event, "--seed", "1", "--best-of", "3")
    run(db, "register", event, *(f"p{n:03d}" for n in range(2 * tables)))
    run(db, "pair", event)
    return event


def timed_results(db: str, event: str, source: Path) -> float:
    started = time.perf_counter()
    run(db, "results", event, "--from", str(source))
    return time.perf_counter() - started


def timed_enter(db: str, event: str, scores: list[str]) -> float:
    """`enter` on a pty, each answer typed as its prompt shows; bounded to 5 minutes."""
    master, slave = os.openpty()
    started = time.perf_counter()
    proc = subprocess.Popen([*PROGRAM, db, "enter", event], stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    seen, answered, deadline = b"", 0, time.monotonic() + 300
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
            while seen.count(b"> ") > answered and answered < len(scores):
                os.write(master, scores[answered].encode() + b"\n")
                answered += 1
        proc.wait(timeout=60)
    finally:
        os.close(master)
    if answered != len(scores):
        raise SystemExit(f"enter asked for {answered} of {len(scores)} tables")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="eventday-bench-"))
    db = f"sqlite:///{folder / 't.db'}"
    scores = [("2-0", "2-1", "1-2", "0-2", "1-1-1")[n % 5] for n in range(args.tables)]
    source = folder / "r.csv"
    source.write_text("table,result\n" + "".join(f"{n},{s}\n" for n, s in enumerate(scores, start=1)), encoding="utf-8")
    print(f"{args.tables} tables, SQLite, command wall time in seconds")
    print(f"{'run':>4} {'results --from':>15} {'enter':>8} {'pairings':>9}")
    for k in range(1, args.repeat + 1):
        csv_time = timed_results(db, paired(db, f"csv{k}", args.tables), source)
        enter_time = timed_enter(db, paired(db, f"enter{k}", args.tables), scores)
        started = time.perf_counter()
        run(db, "pairings", f"enter{k}")
        floor = time.perf_counter() - started
        print(f"{k:>4} {csv_time:>15.2f} {enter_time:>8.2f} {floor:>9.2f}", flush=True)
        for event in (f"csv{k}", f"enter{k}"):
            run(db, "verify", event)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
