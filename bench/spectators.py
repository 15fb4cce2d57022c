"""Spectators at scale: N watchers follow one live table over SSE while two bots play a game on it.

    python bench/spectators.py                                  # 5 watchers, SQLite (the test's size)
    python bench/spectators.py --watchers 1000
    python bench/spectators.py --watchers 1000 --pg --workers 2

An event with digital cardwars tables is made through the service (round 1
paired, a code per player); `tournament serve` runs as its own process on
127.0.0.1, its cap of streams per address raised past N (every watcher comes
from 127.0.0.1). The table is opened, then N watchers (one asyncio client,
one connection each, no sign-in: spectators) hold
`GET /api/events/EVENT/tables/1/live` open until each has the table as it
stands. Then the two players play the game through the API, as bench/table.py's
players do (each reads their seat's view and records one of the records it
offers, after `--think` seconds), until it ends. For each record and each
watcher, the time from the request that made the record (a player's append;
the server's deals and the reveal come in its answer) until the record
reaches the watcher's stream is its delivery; the server's CPU time (its
processes' user and system time, from /proc) over the play, divided by the
records made, is the CPU a record. `lost` counts (watcher, record) pairs
never delivered, `repeated` records a watcher was sent twice. Every loop is
bounded (watchers, records, a wait per record and a timeout for the run);
the open-file limit is raised to its hard limit for N connections. The last
line:

    watchers N records R delivery p50 X ms p99 Y ms cpu/record Z ms lost 0 repeated 0
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import msgspec
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.serve import cpu_seconds, free_port, start_server
from tournament import service
from tournament.storage.db import open_database

EVENT = "watched"
TABLE = f"/api/events/{EVENT}/tables/1"
MOST_WATCHERS = 2000
MOST_RECORDS = 3000  # a game's records at most, before the bench gives up on it
RUN_TIMEOUT = 900.0  # seconds for the whole run
WAIT = 60.0  # seconds every watcher may take to have a record, or to connect, before the run fails


class Seq(msgspec.Struct):
    seq: int


class Sent(msgspec.Struct):
    """What a watcher reads of an event: the records' places (the rest of the view is skipped, not decoded)."""

    game: int
    seq: int
    records: list[Seq]


SENT = msgspec.json.Decoder(Sent)


@dataclass
class Watcher:
    """One spectator's stream: when each (game, seq) reached it, and how many came again."""

    arrived: dict[tuple[int, int], float] = field(default_factory=dict)
    repeated: int = 0
    head: tuple[int, int] = (0, 0)
    ready: asyncio.Event = field(default_factory=asyncio.Event)


async def watch(http: httpx.AsyncClient, watcher: Watcher) -> None:
    """Read the table's stream (cancelled at the end)."""
    async with http.stream("GET", f"{TABLE}/live") as stream:
        stream.raise_for_status()
        async for line in stream.aiter_lines():
            if not line.startswith("data:"):
                continue
            sent = SENT.decode(line[5:])
            now = time.perf_counter()
            for record in sent.records:
                place = (sent.game, record.seq)
                if place in watcher.arrived:
                    watcher.repeated += 1
                else:
                    watcher.arrived[place] = now
            watcher.head = max(watcher.head, (sent.game, sent.seq))
            watcher.ready.set()


def prepare(url: str) -> dict[str, str]:
    """The event: two players at digital table 1, round 1 paired; their sign-in codes."""
    _, engine = open_database(url)
    with Session(engine) as session, session.begin():
        service.create_event(session, EVENT, name="Spectators bench", ruleset="cardwars", profile="mtg", best_of=1, seed=1, tables="digital")
        service.register(session, EVENT, ["ann", "bob"])
        service.pair(session, EVENT)
        codes = {p: service.issue_code(session, EVENT, p) for p in ("ann", "bob")}
    engine.dispose()
    return codes


@dataclass
class Figures:
    made: dict[tuple[int, int], float] = field(default_factory=dict)  # (game, seq) -> when the request that made it was sent
    records: int = 0
    cpu: float = 0.0  # server CPU seconds over the play
    watchers: list[Watcher] = field(default_factory=list)


async def play(http: httpx.AsyncClient, heads: dict[str, dict[str, str]], think: float, figures: Figures) -> tuple[int, int]:
    """The two players play the game to its end; its last (game, seq)."""
    rng = random.Random(1)
    for _ in range(MOST_RECORDS):
        views = {p: (await http.get(TABLE, headers=h)).raise_for_status().json() for p, h in heads.items()}
        view = views["ann"]
        if view["over"]:
            return view["game"], view["seq"]
        acting = [p for p, v in views.items() if v["legal"]]
        if not acting:
            raise SystemExit(f"nobody can act at record {view['seq']}: {view['to_act']}")
        who = rng.choice(acting)
        if think:
            await asyncio.sleep(think)
        sent = time.perf_counter()
        answer = await http.post(f"{TABLE}/records", json={"after": views[who]["seq"], "record": rng.choice(views[who]["legal"])}, headers=heads[who])
        if answer.status_code != 201:
            raise SystemExit(f"an append was refused ({answer.status_code}): {answer.text}")
        done = answer.json()
        for record in done["records"]:
            figures.made[(done["game"], record["seq"])] = sent
    raise SystemExit(f"the game did not end within {MOST_RECORDS} records")


async def load(base: str, codes: dict[str, str], count: int, think: float, server: int) -> Figures:
    figures = Figures()
    limits = httpx.Limits(max_connections=count + 10, max_keepalive_connections=count + 10)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=httpx.Timeout(60, read=None)) as crowd, \
            httpx.AsyncClient(base_url=base, timeout=60) as players:
        heads = {p: {"Authorization": f"Bearer {(await players.post('/api/join', json={'code': c})).raise_for_status().json()['session']}"}
                 for p, c in codes.items()}
        opened = (await players.get(TABLE, headers=heads["ann"])).raise_for_status().json()  # the table opened: its first deal made
        figures.watchers = [Watcher() for _ in range(count)]
        readers = [asyncio.create_task(watch(crowd, w)) for w in figures.watchers]
        try:
            for watcher in figures.watchers:
                await asyncio.wait_for(watcher.ready.wait(), WAIT)
            start_cpu = cpu_seconds(server)
            last = await play(players, heads, think, figures)
            figures.cpu = cpu_seconds(server) - start_cpu
            figures.records = last[1] - opened["seq"]
            deadline = time.monotonic() + WAIT
            while any(w.head < last for w in figures.watchers) and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            for task in readers:
                if task.done() and task.exception() is not None:
                    raise SystemExit(f"a watcher's stream failed: {task.exception()!r}")
        finally:
            for task in readers:
                task.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
    return figures


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000 if ordered else 0.0


def raise_open_files(count: int) -> None:
    """Each watcher is a socket here and one in the server (a child: it inherits the limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * count + 200
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            raise SystemExit(f"--watchers {count} needs {wanted} open files; the hard limit is {hard} (ulimit -Hn)")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=5, help=f"spectators following the table (0 to {MOST_WATCHERS})")
    parser.add_argument("--think", type=float, default=0.05, help="seconds a player waits before each record (0 to 10)")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers (PostgreSQL only above 1)")
    parser.add_argument("--db", help="a database URL (default: a fresh SQLite file)")
    parser.add_argument("--pg", action="store_true", help="start a throwaway PostgreSQL cluster (initdb/pg_ctl)")
    args = parser.parse_args()
    for name, value, low, high in (("watchers", args.watchers, 0, MOST_WATCHERS), ("think", args.think, 0, 10), ("workers", args.workers, 1, 8)):
        if not low <= value <= high:
            parser.error(f"--{name} must be {low} to {high}, not {value}")
    raise_open_files(args.watchers)
    from tests.tournament.conftest import bench_database  # --pg: the tests' cluster

    with tempfile.TemporaryDirectory(prefix="bench-spectators-") as scratch, bench_database(args.pg, args.db, scratch) as url:
        codes = prepare(url)
        port = free_port()
        os.environ["TOURNAMENT_STREAMS_PER_ADDRESS"] = str(args.watchers + 10)  # every watcher is 127.0.0.1
        server = start_server(url, port, args.workers)
        try:
            figures = asyncio.run(asyncio.wait_for(load(f"http://127.0.0.1:{port}", codes, args.watchers, args.think, server.pid), RUN_TIMEOUT))
        finally:
            server.terminate()
            server.wait(timeout=30)
    report(args, url, figures)


def report(args: argparse.Namespace, url: str, f: Figures) -> None:
    delivery = [w.arrived[place] - made for w in f.watchers for place, made in f.made.items() if place in w.arrived]
    lost = sum(place not in w.arrived for w in f.watchers for place in f.made)
    repeated = sum(w.repeated for w in f.watchers)
    backend = url.split(":", 1)[0].split("+")[0]
    per_record = f.cpu / f.records * 1000 if f.records else 0.0
    print(f"{args.watchers} watchers of one digital cardwars table, {backend}, {args.workers} worker(s), a think of {args.think:g} s; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"server CPU {f.cpu:.2f} s over {f.records} records")
    print(f"watchers {args.watchers} records {f.records} delivery p50 {percentile(delivery, 0.5):.0f} ms p99 {percentile(delivery, 0.99):.0f} ms "
          f"cpu/record {per_record:.1f} ms lost {lost} repeated {repeated}")
    if lost or repeated:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
