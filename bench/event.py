"""Event benchmark: a whole Swiss event of N players through the service, on SQLite and PostgreSQL.

Each step is what an organiser does, called as the CLI calls it (one
transaction each, no subprocess): register every player from one CSV import,
pair, enter every result from one CSV import (for each round), the standings
(computed and kept as `standings` keeps them, read back from there on SQLite,
the text a terminal shows, CSV), the HTML export, the JSON export,
and `verify`. Prints each step's wall time, CPU time (this process's; the
steadier figure on a shared machine) and peak memory (the process's peak RSS
during the step, on Linux; tracemalloc's peak elsewhere).

    python bench/event.py                          # 1,000 and 10,000 players, SQLite and PostgreSQL, 3 rounds
    python bench/event.py --players 10000 --backends sqlite --rounds 2

Each event size and backend runs in a fresh process (peak memory is that run's alone).

PostgreSQL comes from TOURNAMENT_TEST_PG_URL (a server where the user may
create databases), or from a throwaway cluster started as the tests start it.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from tournament import service
from tournament.output import render
from tournament.service import export
from tournament.service.verification import verify
from tournament.storage import viewcache
from tournament.storage.db import open_database

EVENT = "big"
PROC_STATUS = Path("/proc/self/status")


def _rss_peak_kib() -> int | None:
    """The process's peak RSS so far (VmHWM), or None off Linux."""
    try:
        for line in PROC_STATUS.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_rss_peak() -> bool:
    """Start a new peak at the current RSS (Linux: write 5 to clear_refs); False where that is not possible."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


class Steps:
    """Times and peak memory of named steps, printed as they finish."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.rows: list[tuple[str, float, float, float]] = []

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        rss = _reset_rss_peak()
        if not rss:
            tracemalloc.start()
        start, cpu = time.perf_counter(), time.process_time()
        yield
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        if rss:
            peak_mib = (_rss_peak_kib() or 0) / 1024
        else:
            peak_mib = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
        self.rows.append((name, seconds, cpu, peak_mib))
        print(f"  {name:<40}{seconds:>7.2f} s{cpu:>7.2f} s CPU{peak_mib:>7.0f} MiB", flush=True)


def players_csv(count: int) -> str:
    lines = ["name,id,rating"] + [f"Player {n},p{n},{1000 + (n * 7919) % 1500}" for n in range(count)]
    return "\n".join(lines) + "\n"


def results_csv(tables: list[int], rng: random.Random) -> str:
    """A whole round's slips: best of one, a draw now and then."""
    scores = ["1-0", "0-1", "1-0", "0-1", "0-0-1"]
    return "table,result\n" + "".join(f"{t},{rng.choice(scores)}\n" for t in tables)


def run_event(url: str, engine: Engine, players: int, rounds: int, steps: Steps) -> None:
    rng = random.Random(players)

    def write(action: Callable[[Session], Any]) -> Any:
        with Session(engine) as session, session.begin():
            return action(session)

    def read(action: Callable[[Session], Any]) -> Any:
        with Session(engine) as session:
            return action(session)

    write(lambda s: service.create_event(s, EVENT, name="Big event", ruleset="cardwars", profile="mtg", best_of=1, seed=1))
    people = service.people_from_csv(players_csv(players), "players.csv")
    with steps.step(f"register {players:,} (one import)"):
        write(lambda s: service.register_people(s, EVENT, people))
    for number in range(1, rounds + 1):
        with steps.step(f"pair round {number}"):
            write(lambda s: service.pair(s, EVENT))
        tables = read(lambda s: service.open_tables(s, EVENT))
        rows = service.results_from_csv(results_csv(tables, rng), "results.csv")
        with steps.step(f"results round {number} ({len(rows):,} tables)"):
            write(lambda s, rows=rows: service.import_results(s, EVENT, rows))

    def kept(session: Session) -> viewcache.Standings:
        view = export.standings_view(session, EVENT)
        export.remember(session, EVENT, view)  # SQLite only, as `standings` does
        return view

    with steps.step("standings (computed and kept)"):
        view = read(kept)
    if engine.dialect.name == "sqlite":
        with steps.step("standings again (the kept view)"):
            assert viewcache.cached(url, viewcache.Standings, EVENT) == view
    info = view.event
    header, cells = render.standing_cells(view.rows)
    title = f"{info.name}: standings after round {info.rounds}"
    with steps.step("standings text (a terminal's page)"):
        from rich.console import Console

        shown = render.TERMINAL_ROWS
        Console(file=io.StringIO(), width=120).print(render.to_rich(title, header, cells[:shown]))
    with steps.step("standings CSV (every row)"):
        render.to_csv(header, cells)
    with steps.step("standings HTML export"):
        render.to_html(title, "Standings", info, header, cells)
    with steps.step("JSON export"):
        msgspec.json.encode(read(lambda s: export.export_event(s, EVENT)))
    with steps.step("verify (rebuild, compare, pair again)"):  # as `tournament verify` does by default (kept views too)
        checked = read(lambda s: verify(s, EVENT, service.repairing_problem))
    if not checked.ok:
        raise SystemExit(f"verify failed: {checked}")


@contextmanager
def database(backend: str, folder: Path) -> Iterator[str]:
    """A fresh database URL on `backend`, removed afterwards."""
    if backend == "sqlite":
        yield str(folder / f"{uuid.uuid4().hex[:8]}.db")
        return
    from tests.tournament.conftest import scratch_database

    with postgres_server() as admin_url, scratch_database(admin_url, "bench") as url:
        yield url


_SERVER: list[str] = []


@contextmanager
def postgres_server() -> Iterator[str]:
    """TOURNAMENT_TEST_PG_URL, or one throwaway cluster for the whole run (started as the tests start theirs)."""
    if os.environ.get("TOURNAMENT_TEST_PG_URL"):
        yield os.environ["TOURNAMENT_TEST_PG_URL"]
        return
    if not _SERVER:
        raise SystemExit("no PostgreSQL server")
    yield _SERVER[0]


@contextmanager
def cluster_if_needed(backends: list[str]) -> Iterator[None]:
    if "postgresql" not in backends or os.environ.get("TOURNAMENT_TEST_PG_URL"):
        yield
        return
    from tests.tournament.conftest import throwaway_cluster

    with throwaway_cluster() as url:
        _SERVER.append(url)
        yield


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="*", default=[1000, 10000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--backends", nargs="*", default=["sqlite", "postgresql"], choices=["sqlite", "postgresql"])
    args = parser.parse_args()
    runs = [(backend, count) for backend in args.backends for count in args.players]
    if len(runs) > 1:  # each in a process of its own, so its peak memory is its own
        with cluster_if_needed(args.backends):
            env = dict(os.environ, **({"TOURNAMENT_TEST_PG_URL": _SERVER[0]} if _SERVER else {}))
            for backend, count in runs:
                one = ["--players", str(count), "--backends", backend, "--rounds", str(args.rounds)]
                subprocess.run([sys.executable, __file__, *one], env=env, check=True)
        return
    print(f"(load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory() as tmp, cluster_if_needed(args.backends):
        for backend, count in runs:
            print(f"{backend}, {count:,} players, {args.rounds} rounds:")
            with database(backend, Path(tmp)) as url:
                _url, engine = open_database(url)
                try:
                    run_event(url, engine, count, args.rounds, Steps(f"{backend} {count}"))
                finally:
                    engine.dispose()


if __name__ == "__main__":
    main()
