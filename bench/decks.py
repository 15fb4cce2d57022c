"""How long checking 1,000 registered deck lists takes (issue 25).

    python bench/decks.py [--lists 1000] [--repeat 3]

A crossover event of LISTS players (SQLite in a temporary folder) gets one
list each, written as a player writes it (the four built-in decks in turn),
and the times are command wall time (process start to exit, as an organiser
waits for it), the lowest of the repeats:

- `decks --from FOLDER`: every list read, judged by the referee and
  registered in one transaction (one entry each);
- `decks EVENT`: every player's list and verdict listed;
- `verify EVENT`: the log replayed, every list rebuilt and compared;
- in-process: the referee's verdict on the same lists, read and judged
  (`referee.decks.judge`), without the database: the referee's share.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROGRAM = [shutil.which("tournament") or "", "--db"]
if not PROGRAM[0]:
    PROGRAM = [sys.executable, "-c", "from tournament.cli.app import main; main()", "--db"]


def run(db: str, *args: str) -> float:
    """Run one command; its wall time in seconds."""
    start = time.perf_counter()
    done = subprocess.run([*PROGRAM, db, *args], capture_output=True, text=True, timeout=600, check=False)
    took = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"tournament {' '.join(args)}: {done.stderr.strip()}")
    return took


def lists(folder: Path, count: int) -> list[str]:
    from referee.decks import write_text
    from referee.rulesets.crossover.decks import DECKS, RULES
    from schemas.crossover import Deck

    games = sorted(DECKS)
    texts = [write_text(RULES, Deck(game=g, cards=DECKS[g])) for g in games]
    names = [f"p{n:04d}" for n in range(count)]
    folder.mkdir()
    for n, name in enumerate(names):
        (folder / f"{name}.txt").write_text(texts[n % len(texts)])
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lists", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "lists"
        names = lists(folder, args.lists)
        (Path(tmp) / "players.csv").write_text("name\n" + "\n".join(names) + "\n")
        for k in range(args.repeat):
            db = str(Path(tmp) / f"t{k}.db")
            run(db, "create", "ev", "--ruleset", "crossover", "--seed", "1")
            run(db, "register", "ev", "--from", str(Path(tmp) / "players.csv"))
            for label, command in (
                ("decks --from FOLDER (read, judge, register)", ["decks", "ev", "--from", str(folder)]),
                ("decks EVENT (list every verdict)", ["decks", "ev", "--json"]),
                ("verify EVENT (rebuild every list)", ["verify", "ev"]),
            ):
                took = run(db, *command)
                best[label] = min(best.get(label, took), took)
        from referee.decks import judge
        from referee.rulesets import get

        crossover = get("crossover")
        data = [p.read_bytes() for p in sorted(folder.iterdir())]
        for _ in range(args.repeat):
            start = time.perf_counter()
            verdicts = [judge(crossover, d) for d in data]
            took = time.perf_counter() - start
            best["in-process: referee verdicts only"] = min(best.get("in-process: referee verdicts only", took), took)
        assert all(v.verdict == "legal" for v in verdicts)
    print(f"{args.lists} crossover lists, SQLite, lowest of {args.repeat}")
    for label, took in best.items():
        print(f"  {label:48} {took:8.3f} s  ({took / args.lists * 1000:.2f} ms a list)")


if __name__ == "__main__":
    main()
