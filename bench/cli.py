"""Start-up benchmark: whole-process wall time of the commands people wait for, beside `python -c pass`.

Each command runs as a new process several times; the floor (the interpreter
starting and stopping) is timed in the same run, interleaved, so a busy
machine slows both alike. Prints the minimum and the median wall time, each
command's minimum above the floor's, and the least CPU time (user + system),
which a busy machine disturbs less than wall time.

`tournament standings` is timed twice a round, as people meet it: read
again, from the view the read before cached (T-66), and first after a change
to the event (a rename, not timed), when it computes the view and caches it;
the output says whether the repeated read really skipped SQLAlchemy.

    python bench/cli.py               # 7 runs of each
    python bench/cli.py --runs 15
    python bench/cli.py --importtime  # also the slowest imports of `referee validate` and `tournament standings`
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HIT, CHANGED = "tournament standings", "  first after a change"
AIMS = {"referee validate": 0.120, HIT: 0.200}  # seconds above the floor (issue 13)


def run(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) for one process; it must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode().strip()}")
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def prepare(folder: Path, env: dict[str, str], reports: int) -> tuple[Path, list[list[str]]]:
    """A small log, the demo database, and `reports` open tables each with its game log ready to report."""
    import random

    import msgspec

    from referee.bots import bot_header, play
    from referee.logio import encode_lines
    from referee.rulesets import get
    from schemas.log import Event as LogEvent

    tournament = [sys.executable, "-m", "tournament", "--db", str(folder / "t.db")]
    header = bot_header("cardwars", 1)
    log = folder / "one.jsonl"
    log.write_bytes(b"".join(line + b"\n" for line in encode_lines(header, play(header, 1))))
    subprocess.run([*tournament, "demo"], cwd=folder, env=env, check=True, capture_output=True)
    subprocess.run([*tournament, "standings", "demo"], cwd=folder, env=env, check=True, capture_output=True)  # cached
    subprocess.run([*tournament, "create", "bench", "--seed", "1"], cwd=folder, env=env, check=True, capture_output=True)
    names = [f"p{n}" for n in range(2 * reports)]
    subprocess.run([*tournament, "register", "bench", *names], cwd=folder, env=env, check=True, capture_output=True)
    subprocess.run([*tournament, "pair", "bench"], cwd=folder, env=env, check=True, capture_output=True)
    listing = subprocess.run([*tournament, "pairings", "bench", "--json"], cwd=folder, env=env, check=True, capture_output=True)
    commands = []
    for table in json.loads(listing.stdout)["tables"]:
        number, seats = table["table"], table["players"]
        setup = get("cardwars").default_setup(seats, random.Random(number))
        game = msgspec.structs.replace(
            bot_header("cardwars", number), players=seats, setup=msgspec.Raw(msgspec.json.encode(setup)), event=LogEvent("bench", 1, number)
        )
        path = folder / f"t{number}.jsonl"
        path.write_bytes(b"".join(line + b"\n" for line in encode_lines(game, play(game, number))))
        commands.append([*tournament, "report", "bench", "--table", str(table["table"]), "--log", str(path)])
    return log, commands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        log, reports = prepare(folder, env, args.runs)
        db = str(folder / "t.db")
        tournament = [sys.executable, "-m", "tournament", "--db", db]
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "referee validate": [sys.executable, "-m", "referee", "validate", str(log)],
            "referee --help": [sys.executable, "-m", "referee", "--help"],
            HIT: [*tournament, "standings", "demo"],  # cached by the read before
            CHANGED: [*tournament, "standings", "demo"],
        }
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in [*commands, "tournament report"]}
        for n in range(args.runs):  # interleaved: each round times every command once
            for name, command in commands.items():
                if name == CHANGED:
                    run([*tournament, "rename", "demo", "ann", f"Ann {n}"], folder, env)
                times[name].append(run(command, folder, env))
            times["tournament report"].append(run(reports[n], folder, env))
        floor = min(wall for wall, _ in times["python -c pass"])
        floor_cpu = min(cpu for _, cpu in times["python -c pass"])
        print(f"{'command':<24}{'min ms':>8}{'median ms':>11}{'above floor':>13}{'CPU ms':>8}{'above':>7}"
              f"   ({args.runs} runs, load average {os.getloadavg()[0]:.1f})")  # fmt: skip
        for name, values in times.items():
            walls, cpus = [w for w, _ in values], [c for _, c in values]
            above = "" if name == "python -c pass" else f"{(min(walls) - floor) * 1000:>13.0f}"
            cpu_above = "" if name == "python -c pass" else f"{(min(cpus) - floor_cpu) * 1000:>7.0f}"
            aim = f"   aim < {AIMS[name] * 1000:.0f} above" if name in AIMS else ""
            print(f"{name:<24}{min(walls) * 1000:>8.0f}{statistics.median(walls) * 1000:>11.0f}{above:>13}"
                  f"{min(cpus) * 1000:>8.0f}{cpu_above:>7}{aim}")  # fmt: skip
        modules = imported(commands[HIT], folder, env)
        print(f"\n{HIT}, read again: " + ("the cached view (no SQLAlchemy imported)" if "sqlalchemy" not in modules
              else "NOT from the cache: SQLAlchemy was imported"))
        if args.importtime:
            for name in ("referee validate", HIT):
                print(f"\nslowest imports of {name} (cumulative microseconds):")
                done = subprocess.run([sys.executable, "-X", "importtime", *commands[name][1:]], cwd=folder, env=env, capture_output=True, text=True)
                rows = [line.split("|") for line in done.stderr.splitlines() if line.startswith("import time:") and "cumulative" not in line]
                top = sorted(rows, key=lambda r: -int(r[1]))[:12]
                for row in top:
                    print(f"  {int(row[1]):>8}  {row[2].rstrip()}")


def imported(command: list[str], cwd: Path, env: dict[str, str]) -> set[str]:
    """The modules a command imports (-X importtime)."""
    done = subprocess.run([command[0], "-X", "importtime", *command[1:]], cwd=cwd, env=env, capture_output=True, text=True)
    return {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


if __name__ == "__main__":
    main()
