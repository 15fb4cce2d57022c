"""Live pages under load: N phones follow an event's stream while M changes are made (tournament/README.md, T-125).

    python bench/live.py                                   # 5 phones, 5 changes, SQLite (the test's size)
    python bench/live.py --phones 200 --changes 20 --idle 30
    python bench/live.py --phones 200 --changes 20 --idle 30 --pg --workers 2

An event is made through the service (round 1 paired, a table for each
change); `tournament serve` runs as its own process on 127.0.0.1; N phones
(one asyncio client, one connection each) hold `GET /api/events/EVENT/live`
open. Then:

1. idle: nothing changes for `--idle` seconds; the server's CPU time (its
   processes' user and system time, from /proc) is what holding N streams
   costs;
2. changes: the organiser enters one table's result through the API every
   `--gap` seconds, M times. For each change and each phone, the time from
   the request that made it until the phone's stream says the new head
   (`stream`), and until the phone has fetched the public round page again
   as the page's script does (`page`: the reload, a render for each phone;
   `--no-pages` leaves it out, to time the stream alone); the server's CPU
   time over the phase;
3. the old poll, for comparison: N asks of `/api/events/EVENT/version` and N
   renders of the round page, one at a time, the server's CPU time for each.

CPU is given per phone per minute: idle (the streams alone), busy (while a
change comes every `--gap` s, the reloads included), and the old 15-second
poll's (4 asks a minute; `busy`: 4 asks and 4 renders, a page that finds a
change at every ask). Every loop is bounded (phones, changes, seconds, a
timeout for the whole run). The last line:

    phones N changes M p50 X ms p99 Y ms cpu/phone/min idle A ms busy B ms (poll C ms)
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.serve import cpu_seconds, free_port, start_server
from tournament import service
from tournament.storage.db import open_database

EVENT = "bench"
TOKEN = "bench-organiser-token-0123456789"  # bench/serve.py's start_server sets it
MOST_PHONES = 1000
MOST_CHANGES = 200
RUN_TIMEOUT = 900.0  # seconds for the whole load
WAIT = 60.0  # seconds a change may take to reach every phone before the run fails
POLLS_A_MINUTE = 60 / 15  # the old pages' poll


@dataclass
class Phone:
    """One phone's stream: the heads it has been sent, with when each came."""

    heads: dict[int, float] = field(default_factory=dict)
    pages: dict[int, float] = field(default_factory=dict)
    newest: int = 0
    arrived: asyncio.Event = field(default_factory=asyncio.Event)


def prepare(url: str, changes: int) -> None:
    """The event with a table (two players) for each change, round 1 paired."""
    _, engine = open_database(url)
    players = [f"p{n:04d}" for n in range(1, 2 * max(changes, 2) + 1)]
    with Session(engine) as session, session.begin():
        service.create_event(session, EVENT, name="Live pages bench", ruleset="cardwars", profile="mtg", best_of=1, seed=1)
        service.register(session, EVENT, players)
        service.pair(session, EVENT)
    engine.dispose()


async def follow(http: httpx.AsyncClient, phone: Phone, pages: bool) -> None:
    """Read the stream for ever (cancelled at the end); at each new head, fetch the round page as a reload would
    (with `pages`; else note the head as the page's)."""
    async with http.stream("GET", f"/api/events/{EVENT}/live") as stream:
        async for line in stream.aiter_lines():
            if line.startswith("data:"):
                head = int(line[5:])
                if head > phone.newest:
                    phone.heads[head] = time.perf_counter()
                    phone.newest = head
                    phone.arrived.set()
                    if pages and len(phone.heads) > 1:  # not the head at once: the page was drawn at it
                        (await http.get(f"/e/{EVENT}")).raise_for_status()
                    phone.pages[head] = time.perf_counter()


async def wait_all(phones: list[Phone], check: str, head: int) -> None:
    deadline = time.monotonic() + WAIT
    while not all(head in getattr(p, check) for p in phones):
        if time.monotonic() > deadline:
            missing = sum(head not in getattr(p, check) for p in phones)
            raise SystemExit(f"head {head} did not reach {missing} phone(s) ({check}) within {WAIT:.0f} s")
        await asyncio.sleep(0.005)


@dataclass
class Figures:
    stream: list[float] = field(default_factory=list)  # seconds, change x phone
    page: list[float] = field(default_factory=list)
    idle_cpu: float = 0.0  # server CPU seconds over the idle phase
    busy_cpu: float = 0.0
    busy_seconds: float = 0.0
    ask_cpu: float = 0.0  # server CPU seconds for one `version` ask
    render_cpu: float = 0.0  # ... for one render of the round page


async def load(base: str, phones: int, changes: int, idle: float, gap: float, server: int, pages: bool) -> Figures:
    figures = Figures()
    limits = httpx.Limits(max_connections=phones + 10, max_keepalive_connections=phones + 10)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=httpx.Timeout(30, read=None)) as http, \
            httpx.AsyncClient(base_url=base, timeout=30) as organiser:
        login = await organiser.post("/api/admin/login", json={"code": TOKEN})
        login.raise_for_status()
        headers = {"Authorization": f"Bearer {login.json()['session']}"}
        phone_list = [Phone() for _ in range(phones)]
        readers = [asyncio.create_task(follow(http, p, pages)) for p in phone_list]
        try:
            for p in phone_list:  # every phone has its stream and the head at once
                await asyncio.wait_for(p.arrived.wait(), WAIT)
            cpu = cpu_seconds(server)
            await asyncio.sleep(idle)
            figures.idle_cpu = cpu_seconds(server) - cpu
            start, cpu = time.perf_counter(), cpu_seconds(server)
            for table in range(1, changes + 1):  # round 1's tables, each without a result
                made = time.perf_counter()
                answer = await organiser.post(f"/api/admin/events/{EVENT}/results", json={"scores": {str(table): "1-0"}}, headers=headers)
                answer.raise_for_status()
                head = (await organiser.get(f"/api/events/{EVENT}/version")).raise_for_status().json()["seq"]
                await wait_all(phone_list, "pages", head)
                figures.stream += [p.heads[head] - made for p in phone_list]
                figures.page += [p.pages[head] - made for p in phone_list]
                await asyncio.sleep(max(0.0, made + gap - time.perf_counter()))
            figures.busy_seconds = time.perf_counter() - start
            figures.busy_cpu = cpu_seconds(server) - cpu
        finally:
            for task in readers:
                task.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
        figures.ask_cpu = await cost(organiser, server, f"/api/events/{EVENT}/version", phones)
        figures.render_cpu = await cost(organiser, server, f"/e/{EVENT}", phones)
    return figures


async def cost(http: httpx.AsyncClient, server: int, path: str, count: int) -> float:
    """The server's CPU seconds for one GET of `path` (the mean of `count`, one at a time)."""
    cpu = cpu_seconds(server)
    for _ in range(count):
        (await http.get(path)).raise_for_status()
    return (cpu_seconds(server) - cpu) / count


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


@contextmanager
def database(args: argparse.Namespace, scratch: str) -> Iterator[str]:
    """The URL to run on: --db, a throwaway PostgreSQL cluster (--pg), or a fresh SQLite file."""
    if not args.pg:
        yield args.db or f"sqlite:///{Path(scratch) / 'bench.db'}"
        return
    from tests.tournament.conftest import (  # the tests' throwaway cluster (fsync off)
        Cluster,
        pg_tool,
    )

    initdb, pg_ctl = pg_tool("initdb"), pg_tool("pg_ctl")
    if not (initdb and pg_ctl):
        raise SystemExit("--pg needs PostgreSQL's initdb and pg_ctl (Debian: the postgresql package)")
    cluster = Cluster(initdb, pg_ctl)
    try:
        yield cluster.start()
    finally:
        cluster.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=5, help=f"phones holding the stream (1 to {MOST_PHONES})")
    parser.add_argument("--changes", type=int, default=5, help=f"results entered, one at a time (1 to {MOST_CHANGES})")
    parser.add_argument("--idle", type=float, default=2.0, help="seconds with the streams open and nothing changing (0 to 600)")
    parser.add_argument("--gap", type=float, default=2.0, help="seconds from one change to the next (0 to 60)")
    parser.add_argument("--no-pages", dest="pages", action="store_false", help="phones only listen (no reload): the stream alone")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers (PostgreSQL only above 1)")
    parser.add_argument("--db", help="a database URL (default: a fresh SQLite file)")
    parser.add_argument("--pg", action="store_true", help="start a throwaway PostgreSQL cluster (initdb/pg_ctl)")
    args = parser.parse_args()
    for name, value, low, high in (("phones", args.phones, 1, MOST_PHONES), ("changes", args.changes, 1, MOST_CHANGES),
                                   ("idle", args.idle, 0, 600), ("gap", args.gap, 0, 60), ("workers", args.workers, 1, 8)):
        if not low <= value <= high:
            parser.error(f"--{name} must be {low} to {high}, not {value}")
    with tempfile.TemporaryDirectory(prefix="bench-live-") as scratch, database(args, scratch) as url:
        prepare(url, args.changes)
        port = free_port()
        server = start_server(url, port, args.workers)
        try:
            figures = asyncio.run(asyncio.wait_for(
                load(f"http://127.0.0.1:{port}", args.phones, args.changes, args.idle, args.gap, server.pid, args.pages), RUN_TIMEOUT,
            ))
        finally:
            server.terminate()
            server.wait(timeout=30)
    report(args, url, figures)


def report(args: argparse.Namespace, url: str, f: Figures) -> None:
    backend = url.split(":", 1)[0].split("+")[0]
    per_minute = 60_000 / args.phones  # CPU seconds over a minute, shared by the phones, in ms
    idle = f.idle_cpu / args.idle * per_minute if args.idle else float("nan")
    busy = f.busy_cpu / f.busy_seconds * per_minute
    poll, poll_busy = POLLS_A_MINUTE * f.ask_cpu * 1000, POLLS_A_MINUTE * (f.ask_cpu + f.render_cpu) * 1000
    reloads = "each phone fetching the page again at each change" if args.pages else "phones only listening"
    print(f"{args.phones} phones, {args.changes} changes {args.gap:g} s apart, {backend}, {args.workers} worker(s), idle {args.idle:g} s, {reloads}")
    page = f"; page fetched again p50 {percentile(f.page, 0.5):.0f} ms p99 {percentile(f.page, 0.99):.0f} ms" if args.pages else ""
    print(f"a change reaching every phone: stream p50 {percentile(f.stream, 0.5):.0f} ms p99 {percentile(f.stream, 0.99):.0f} ms{page}")
    print(f"server CPU: idle {f.idle_cpu:.2f} s over {args.idle:g} s; busy {f.busy_cpu:.2f} s over {f.busy_seconds:.1f} s "
          f"({f.busy_cpu / args.changes / args.phones * 1000:.1f} ms a phone a change); "
          f"the old poll's ask {f.ask_cpu * 1000:.2f} ms, a render {f.render_cpu * 1000:.2f} ms")
    print(f"the old 15-s poll a phone a minute: {poll:.1f} ms asking, {poll_busy:.1f} ms when every ask finds a change")
    print(f"phones {args.phones} changes {args.changes} p50 {percentile(f.stream, 0.5):.0f} ms p99 {percentile(f.stream, 0.99):.0f} ms "
          f"cpu/phone/min idle {idle:.1f} ms busy {busy:.1f} ms (poll {poll:.1f} ms)")


if __name__ == "__main__":
    main()
