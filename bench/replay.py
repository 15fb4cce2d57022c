"""Replay benchmark: records per second for validating bot games, beside the floor.

The floor is the least any validator must do: read the same lines, decode each
with a reused msgspec decoder, and hash each with SHA-256. The referee does
that and the rules too; the ratio says what the rules cost. Times are the CPU
time of this process (best of --runs), so other work on the machine disturbs
them less than wall time would; both sides are measured in the same run.

    python bench/replay.py                 # 200 bot games per ruleset
    python bench/replay.py --games 1000 --rulesets cardwars
    python bench/replay.py --foreign       # also the same logs as json.dumps writes them (not byte for byte msgspec's)
    python bench/replay.py --anchor        # python-chess's PGN reader on random legal chess games, for scale
    python bench/replay.py --jobs          # validate 1,000 logs with 1 and 2 worker processes: serial share, Amdahl,
                                           # and beside it what 2 processes of pure CPU work gain on this machine
    python bench/replay.py --profile       # where the referee's time goes, per ruleset
    python bench/replay.py --million       # stream one million records: time and peak memory

--anchor needs python-chess: pip install -e '.[bench]' (or pip install chess).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.bots import bot_header, play
from referee.engine import judge_file
from referee.logio import encode_lines
from referee.rulesets import get, ids

clock = time.process_time


def corpus(ruleset_id: str, games: int, folder: Path) -> list[Path]:
    """Write `games` bot games of a ruleset (for every player count it allows) and return their paths."""
    ruleset = get(ruleset_id)
    counts = list(range(ruleset.min_players, ruleset.max_players + 1))
    paths = []
    for seed in range(games):
        header = bot_header(ruleset_id, seed, counts[seed % len(counts)])
        path = folder / f"{ruleset_id}-{seed}.jsonl"
        path.write_bytes(b"".join(line + b"\n" for line in encode_lines(header, play(header, seed))))
        paths.append(path)
    return paths


def rewritten(paths: list[Path], folder: Path) -> list[Path]:
    """The same logs as Python's json.dumps writes them (a space after each separator), chain recomputed."""
    out = []
    for path in paths:
        lines = path.read_bytes().splitlines()
        written = [json.dumps(json.loads(lines[0])).encode()]
        for line in lines[1:]:
            record = json.loads(line)
            record["prev"] = hashlib.sha256(written[-1]).hexdigest()
            written.append(json.dumps(record).encode())
        target = folder / f"foreign-{path.name}"
        target.write_bytes(b"".join(line + b"\n" for line in written))
        out.append(target)
    return out


def floor(paths: list[Path]) -> float:
    """Seconds to read, decode and hash every line of every file."""
    decode = msgspec.json.Decoder().decode
    sha256 = hashlib.sha256
    start = clock()
    for path in paths:
        with open(path, "rb") as stream:
            for raw in stream:
                line = raw[:-1]
                decode(line)
                sha256(line).hexdigest()
    return clock() - start


def referee(paths: list[Path]) -> float:
    """Seconds for the referee to judge every file."""
    start = clock()
    for path in paths:
        verdict = judge_file(str(path)).verdict
        if verdict.verdict != "complete":
            raise SystemExit(f"{path}: {verdict.verdict}: {verdict.error}")
    return clock() - start


def best_of(runs: int, paths: list[Path]) -> tuple[float, float]:
    """The floor's and the referee's best times, their runs taken in turn so both meet the same load."""
    times = [(floor(paths), referee(paths)) for _ in range(runs)]
    return min(t[0] for t in times), min(t[1] for t in times)


def chess_corpus(games: int, folder: Path) -> tuple[Path, int]:
    """Random legal chess games (seeded), written as one PGN file; the path and the number of moves."""
    import chess
    import chess.pgn

    rng = random.Random(1)
    moves = 0
    path = folder / "anchor.pgn"
    with open(path, "w") as stream:
        for number in range(games):
            board = chess.Board()
            while not board.is_game_over() and board.ply() < 200:
                board.push(rng.choice(list(board.legal_moves)))
            moves += board.ply()
            game = chess.pgn.Game.from_board(board)
            game.headers["Round"] = str(number + 1)
            print(game, file=stream, end="\n\n")
    return path, moves


def read_pgn(path: Path) -> float:
    """Seconds for python-chess to read every game, checking each move is legal (SAN against the board)."""
    import chess.pgn

    start = clock()
    with open(path) as stream:
        while (game := chess.pgn.read_game(stream)) is not None:
            if game.errors:
                raise SystemExit(f"{path}: python-chess found {game.errors[0]}")
    return clock() - start


def anchor(games: int, runs: int, folder: Path) -> None:
    try:
        import chess  # noqa: F401
    except ImportError:
        raise SystemExit("--anchor needs python-chess: pip install -e '.[bench]' (or pip install chess)") from None
    path, moves = chess_corpus(games, folder)
    seconds = min(read_pgn(path) for _ in range(runs))
    print(f"{'python-chess PGN':<20}{games:>6}{moves:>10}{'':>14}{moves / seconds:>15,.0f}"
          f"{'':>8}   moves/s, every move checked legal")  # fmt: skip


def spin(rounds: int) -> int:
    """Pure CPU work that shares nothing and touches almost no memory."""
    total = 0
    for i in range(rounds):
        total ^= i
    return total


def machine(rounds: int, jobs: int) -> float:
    """Wall seconds for `rounds` of `spin` in this process (1 job), or split over `jobs` forked workers."""
    import multiprocessing

    start = time.perf_counter()
    if jobs == 1:
        spin(rounds)
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            pool.map(spin, [rounds // jobs] * jobs)
    return time.perf_counter() - start


def jobs_scaling(logs: int, runs: int, folder: Path) -> None:
    """1 and 2 jobs over `logs` logs of every game: wall time, the parent's share, and what Amdahl allows at 16 cores."""
    import os

    from referee.validate import as_json, judge_many

    per_game = logs // len(ids())
    paths = [str(p) for ruleset_id in ids() for p in corpus(ruleset_id, per_game, folder)]

    def workers_cpu() -> float:
        """CPU seconds of the finished worker processes so far."""
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    def run(jobs: int) -> tuple[float, float, float]:
        """Wall seconds, CPU seconds spent in this (the parent) process, and in the workers."""
        wall, cpu, workers = time.perf_counter(), time.process_time(), workers_cpu()
        with open(os.devnull, "wb") as sink:
            for judged in judge_many(paths, jobs, as_json):
                sink.write(judged.output)
        return time.perf_counter() - wall, time.process_time() - cpu, workers_cpu() - workers

    # The machine's own speed-up, for scale: pure CPU work as long as a one-job run, in 1 and 2 processes.
    # On a shared host two busy processes need not get two whole cores, and no parallel program beats that.
    rounds = round(10**6 * run(1)[0] / machine(10**6, 1))
    # interleaved, so all see the machine alike when its speed drifts (a shared host's steal)
    pairs, control = [], []
    for _ in range(runs):
        pairs.append((run(1), run(2)))
        control.append(machine(rounds, 1) / machine(rounds, 2))
    one = min(pair[0] for pair in pairs)
    two = min((pair[1] for pair in pairs), key=lambda r: r[0])
    share = two[1] / one[1]  # the parent's work in a parallel run, against all the work done in one process
    amdahl = 1 / (share + (1 - share) / 16)
    print(f"validate {len(paths)} logs ({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}):")
    print(f"  1 job  {one[0]:.2f} s wall ({one[1]:.2f} s CPU)")
    print(f"  2 jobs {two[0]:.2f} s wall: {one[0] / two[0]:.2f}x; parent CPU {two[1]:.3f} s, workers' CPU {two[2]:.2f} s")
    paired = sorted(a[0] / b[0] for a, b in pairs)  # each 2-job run against the 1-job run just before it
    print(f"  speed-up run by run: median {statistics.median(paired):.2f}x (from {paired[0]:.2f}x to {paired[-1]:.2f}x)")
    print(f"  serial share {share:.1%} of the one-job work: Amdahl allows {amdahl:.1f}x at 16 cores")
    control.sort()
    print(f"  this machine, pure CPU work in 1 and 2 processes: median {statistics.median(control):.2f}x"
          f" (from {control[0]:.2f}x to {control[-1]:.2f}x); validate's median is"
          f" {statistics.median(paired) / statistics.median(control):.0%} of it")  # fmt: skip


def million() -> None:
    """Judge a legal one-million-record cardwars log from a file; report time and how much peak RSS grew."""
    from tests.core.test_engine import endless

    with tempfile.NamedTemporaryFile(suffix=".jsonl") as tmp:
        for line in endless(1_000_000):
            tmp.write(line + b"\n")
        tmp.flush()
        size = tmp.tell()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        verdict = judge_file(tmp.name).verdict
        seconds = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"one million records ({size / 2**20:.0f} MiB): {verdict.verdict}, {verdict.records_checked:,} records "
          f"in {seconds:.2f} s ({verdict.records_checked / seconds:,.0f} records/s); "
          f"peak RSS grew by {(after - before) / 1024:.1f} MiB")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3, help="best of this many timings")
    parser.add_argument("--rulesets", nargs="*", default=None)
    parser.add_argument("--foreign", action="store_true", help="also time the logs as json.dumps writes them")
    parser.add_argument("--anchor", action="store_true", help="also time python-chess reading random legal games")
    parser.add_argument("--jobs", action="store_true", help="1 and 2 worker processes over 1,000 logs (with --games: that many)")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--million", action="store_true")
    args = parser.parse_args()
    if args.million:
        million()
        return
    if args.jobs:
        with tempfile.TemporaryDirectory() as tmp:
            jobs_scaling(args.games if args.games != parser.get_default("games") else 1000, args.runs, Path(tmp))
        return
    chosen = args.rulesets if args.rulesets is not None else ids()
    extra = f"{'foreign rec/s':>15}{'ratio':>8}" if args.foreign else ""
    print(f"{'ruleset':<20}{'games':>6}{'records':>10}{'floor rec/s':>14}{'referee rec/s':>15}{'ratio':>8}{extra}")
    total_records = total_seconds = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for ruleset_id in chosen:
            paths = corpus(ruleset_id, args.games, Path(tmp))
            records = sum(p.read_bytes().count(b"\n") - 1 for p in paths)
            fast, slow = best_of(args.runs, paths)
            total_records, total_seconds = total_records + records, total_seconds + slow
            line = f"{ruleset_id:<20}{len(paths):>6}{records:>10}{records / fast:>14,.0f}{records / slow:>15,.0f}{fast / slow:>8.0%}"
            if args.foreign:
                other = rewritten(paths, Path(tmp))
                other_fast, other_slow = best_of(args.runs, other)
                line += f"{records / other_slow:>15,.0f}{other_fast / other_slow:>8.0%}"
            print(line, flush=True)
            if args.profile:
                profiler = cProfile.Profile(clock)
                profiler.runcall(referee, paths)
                pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        if len(chosen) > 1:
            print(f"{'all games':<20}{'':>6}{int(total_records):>10}{'':>14}{total_records / total_seconds:>15,.0f}")
        if args.anchor:
            anchor(args.games, args.runs, Path(tmp))


if __name__ == "__main__":
    main()
