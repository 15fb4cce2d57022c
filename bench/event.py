"""A whole Swiss event of N players through the service, step by step, on SQLite and PostgreSQL.

    python bench/event.py                      # 1,000 and 10,000 players, SQLite
    python bench/event.py --players 2000 --pg  # also a throwaway PostgreSQL cluster (or TOURNAMENT_TEST_PG_URL)
    python bench/event.py --players 10000 --profile pair   # cProfile of one step, top functions

The steps are what an organiser runs, each in its own session and
transaction as the CLI does (service functions in this process, not CLI
subprocesses): `register` N players from one CSV text, then for each round
`pair`, `results` (every table's slip from one CSV text), `standings` (the
rows), `text` (what `tournament standings` prints on a terminal), `html`
(`standings --format html`); finally `verify` (the chain, the rebuilt tables,
and every round paired again).

Each step's wall time and CPU time of this process (the database
server's work on PostgreSQL is in the wall time only) come from a plain run; its peak memory from a second
run of the same event under `tracemalloc` (the most Python-allocated memory
during the step above what was allocated when it began; tracemalloc slows a
run down, so its times are not used). `--no-memory` skips that run.
Timings are wall clock on a shared machine: run a configuration a few times
and compare the minimum.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import sys
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament import export, render, service
from tournament.cli_base import terminal_table
from tournament.db import open_database
from tournament.verification import verify

EVENT = "bench"
SIZES = (1000, 10_000)
# A slip's score by chance: mostly 2-0 and 2-1 either way, sometimes a drawn game or an intentional draw.
SCORES = ("2-0", "2-1", "0-2", "1-2", "2-0", "0-2", "1-1-1", "0-0")


def players_csv(n: int, seed: int) -> str:
    rng = random.Random(seed)
    lines = ["name,rating"] + [f"Player {i:05d},{rng.randint(1000, 2400)}" for i in range(1, n + 1)]
    return "\n".join(lines) + "\n"


def results_csv(tables: int, seed: int) -> str:
    rng = random.Random(seed)
    return "table,result\n" + "".join(f"{t},{rng.choice(SCORES)}\n" for t in range(1, tables + 1))


class Steps:
    """Runs steps, keeping each one's wall time and (under tracemalloc) peak; `profile` names a step to profile."""

    def __init__(self, trace: bool, profile: list[str]) -> None:
        self.trace, self.profile = trace, profile
        self.found: list[tuple[str, float, float, int]] = []

    def run(self, name: str, work: Callable[[], Any]) -> Any:
        base = 0
        if self.trace:
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
        profiler = cProfile.Profile() if name.split(" ")[0] in self.profile and not self.trace else None
        started, cpu = time.perf_counter(), time.process_time()
        if profiler:
            profiler.enable()
        result = work()
        if profiler:
            profiler.disable()
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        peak = tracemalloc.get_traced_memory()[1] - base if self.trace else 0
        self.found.append((name, elapsed, cpu, peak))
        if profiler:
            print(f"--- cProfile of {name} ---", file=sys.stderr)
            pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(25).sort_stats("tottime").print_stats(12)
        return result


def run_event(engine: Engine, n: int, rounds: int, seed: int, steps: Steps) -> None:
    with Session(engine) as session, session.begin():
        service.create_event(session, EVENT, name=f"Bench {n}", ruleset="cardwars", profile="mtg", best_of=3, seed=seed)
    roster = players_csv(n, seed)

    def register() -> None:
        with Session(engine) as session, session.begin():
            service.register_people(session, EVENT, service.people_from_csv(roster, "players.csv"))

    steps.run("register", register)
    for number in range(1, rounds + 1):

        def pair(number: int = number) -> int:
            with Session(engine) as session, session.begin():
                service.pair(session, EVENT)
                return len(service.matches(session, EVENT, number))

        tables = steps.run(f"pair {number}", pair)
        slips = results_csv(tables, seed + number)

        def results(slips: str = slips) -> None:
            with Session(engine) as session, session.begin():
                service.import_results(session, EVENT, service.results_from_csv(slips, "results.csv"))

        steps.run(f"results {number}", results)

    def standings() -> tuple[Any, Any]:
        with Session(engine) as session:
            return export.standing_rows(session, EVENT), export.event_info(service.get_event(session, EVENT))

    rows, info = steps.run("standings", standings)
    title = f"{info.name}: standings after round {info.rounds}"

    def shown() -> int:
        header, cells = render.standing_cells(rows)
        with _terminal() as console:
            terminal_table(title, header, cells, console=console)
            return len(console.file.getvalue())

    steps.run("text", shown)

    def html() -> int:
        header, cells = render.standing_cells(rows)
        return len(render.to_html(title, "Standings", info, header, cells))

    steps.run("html", html)

    def check() -> None:
        with Session(engine) as session:
            found = verify(session, EVENT, service.repairing_problem)
        if not found.ok:
            raise SystemExit(f"verify failed: {found.problems[:3]}")

    steps.run("verify", check)


@contextmanager
def _terminal() -> Iterator[Any]:
    """A rich console writing to memory, as wide as a usual terminal."""
    from rich.console import Console

    yield Console(file=io.StringIO(), width=120, force_terminal=False, color_system=None)


@contextmanager
def fresh_database(backend: str, admin_url: str | None, scratch: Path) -> Iterator[Engine]:
    """A new empty database, migrated: a SQLite file, or a database made on the PostgreSQL server (dropped after)."""
    if backend == "sqlite":
        url = f"sqlite:///{scratch / f'bench-{uuid.uuid4().hex[:8]}.db'}"
    else:
        assert admin_url is not None
        name = f"bench_{uuid.uuid4().hex[:12]}"
        admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    _, engine = open_database(url, create=True)
    try:
        yield engine
    finally:
        engine.dispose()
        if backend != "sqlite":
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()


def measure(backend: str, admin_url: str | None, n: int, rounds: int, seed: int, memory: bool, profile: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-event-") as scratch:
        timed = Steps(trace=False, profile=profile)
        with fresh_database(backend, admin_url, Path(scratch)) as engine:
            run_event(engine, n, rounds, seed, timed)
        traced = Steps(trace=True, profile=[])
        if memory:
            tracemalloc.start()
            with fresh_database(backend, admin_url, Path(scratch)) as engine:
                run_event(engine, n, rounds, seed, traced)
            tracemalloc.stop()
    peaks = {name: peak for name, *_, peak in traced.found}
    print(f"\n{n} players, {rounds} round(s), {backend}")
    print(f"{'step':<12} {'wall s':>8} {'CPU s':>8} {'peak MB':>8}")
    for name, elapsed, cpu, _ in timed.found:
        peak = f"{peaks[name] / 1e6:8.1f}" if name in peaks else f"{'-':>8}"
        print(f"{name:<12} {elapsed:8.2f} {cpu:8.2f} {peak}")
    print(f"{'total':<12} {sum(e for _, e, *_ in timed.found):8.2f} {sum(c for _, _, c, _ in timed.found):8.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, action="append", help=f"players (repeatable; default {', '.join(map(str, SIZES))})")
    parser.add_argument("--rounds", type=int, default=2, help="Swiss rounds to pair and enter (default 2)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pg", action="store_true", help="also PostgreSQL: TOURNAMENT_TEST_PG_URL, else a throwaway cluster")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only (with --pg)")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc run (times only)")
    parser.add_argument("--profile", action="append", default=[], choices=("register", "pair", "results", "standings", "text", "html", "verify"),
                        help="print a cProfile of this step (repeatable; each round's, for pair and results)")
    args = parser.parse_args()
    sizes = args.players or list(SIZES)
    if any(n < 2 or n > 100_000 for n in sizes) or not 1 <= args.rounds <= 20:
        parser.error("--players must be 2 to 100,000 and --rounds 1 to 20")
    backends = ([] if args.no_sqlite else ["sqlite"]) + (["postgresql"] if args.pg else [])
    cluster, admin_url = None, os.environ.get("TOURNAMENT_TEST_PG_URL")
    if args.pg and not admin_url:
        from tests.tournament.conftest import (  # the tests' throwaway cluster (fsync off)
            Cluster,
            pg_tool,
        )

        initdb, pg_ctl = pg_tool("initdb"), pg_tool("pg_ctl")
        if not (initdb and pg_ctl):
            raise SystemExit("--pg needs TOURNAMENT_TEST_PG_URL or PostgreSQL's initdb and pg_ctl (Debian: the postgresql package)")
        cluster = Cluster(initdb, pg_ctl)
        admin_url = cluster.start()
    try:
        for n in sizes:
            for backend in backends:
                measure(backend, admin_url, n, args.rounds, args.seed, not args.no_memory, args.profile)
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    main()
