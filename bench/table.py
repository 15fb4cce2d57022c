"""Live tables under load: N tables of bots play whole games record by record over HTTP on loopback.

    python bench/table.py --tables 100                       # SQLite, one worker
    python bench/table.py --tables 100 --pg --workers 2      # a throwaway PostgreSQL cluster, two workers
    python bench/table.py --tables 100 --db postgresql://... --workers 2
    python bench/table.py --tables 100 --think 0             # no thinking: the saturated server's throughput

An event with 2N players and digital tables (crossover: the server deals) is
made through the service, round 1 paired, a code per player; `tournament serve`
runs as its own process on 127.0.0.1. Every player signs in, then all N tables
play at once: at each table the player to act reads their seat's view
(`GET .../tables/T?since=SEQ`) and records one of the records it offers
(`POST .../records` on the head they saw), until the game ends and both
confirm its last line, which reports the result. The latency measured is the
append's: the request, the referee's judgement and the commit.

What the load models (T-128): a player thinks before each record they make,
a time drawn uniformly between half and one and a half times `--think`
(default 2 s, so a record every 2 s at each of the N tables: faster than a
real card game, where a player acts every 10 to 30 s). Each player is its own
HTTP client with its own connection, as each phone is. `--think 0` sends every
record the moment the previous answer arrives: that measures the saturated
server (its appends/s), and its p99 is queueing, not what a player waits at a
table. The client's and the server's CPU seconds are printed too: both run on
the same cores.

The last line: `tables N records R appends/s A p50 X ms p99 Y ms lost 0 forked 0`,
where R counts every record of the finished logs (the players' and the
server's deals), A the players' accepted appends a second of the play, a
`lost` append one answered 201 whose record is not in the table's log at the
seq it was given, and a `forked` table one whose log the referee does not judge
a whole chained game (or one not reported by itself). Every loop is bounded:
at most 500 tables, 3,000 records a table, a timeout per request and for the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
from sqlalchemy import select
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.serve import cpu_seconds, free_port, start_server
from referee.engine import judge
from tournament import service
from tournament.storage.db import open_database
from tournament.storage.models import LiveGame, LiveLine

EVENT = "tables"
MOST_TABLES = 500
MOST_RECORDS = 3000  # a table's records at most, before the bench gives up on it
RUN_TIMEOUT = 1800  # seconds for the whole run


def prepare(url: str, tables: int) -> tuple[dict[str, str], list[tuple[int, str, str]]]:
    _, engine = open_database(url)
    ids = [f"p{n:04d}" for n in range(1, 2 * tables + 1)]
    with Session(engine) as session, session.begin():
        service.create_event(session, EVENT, name="Table load", ruleset="crossover", profile="mtg", best_of=1, seed=1, tables="digital")
        service.register(session, EVENT, ids)
        service.pair(session, EVENT)
        codes = {p: service.issue_code(session, EVENT, p) for p in ids}
        seats = [(m.number, m.player_a, m.player_b) for m in service.matches(session, EVENT, 1)]
    engine.dispose()
    return codes, seats


class Table:
    """One table's bots: their sessions, and what the server accepted from them."""

    def __init__(self, number: int, heads: dict[str, dict[str, str]]) -> None:
        self.number, self.heads = number, heads
        self.accepted: list[tuple[int, str, str]] = []  # (seq, by, type) of each record the server took
        self.latencies: list[float] = []
        self.reads: list[float] = []  # the views' (a phone reads its seat's view after each record)
        self.refused = 0

    async def play(self, phones: dict[str, httpx.AsyncClient], rng: random.Random, think: float) -> None:
        path = f"/api/events/{EVENT}/tables/{self.number}"
        seq = 0
        players = list(self.heads)
        view: dict[str, Any] = {}
        for _ in range(MOST_RECORDS):
            acting = None
            for player in players:
                started = time.perf_counter()
                view = (await phones[player].get(path, params={"since": seq}, headers=self.heads[player])).raise_for_status().json()
                self.reads.append(time.perf_counter() - started)
                seq = view["seq"]
                if view["over"] or view["legal"]:
                    acting = player
                    break
            if view["over"] or acting is None:
                break
            record = rng.choice(view["legal"])
            if think:
                await asyncio.sleep(rng.uniform(think / 2, think * 3 / 2))
            started = time.perf_counter()
            answer = await phones[acting].post(f"{path}/records", json={"after": seq, "record": record}, headers=self.heads[acting])
            self.latencies.append(time.perf_counter() - started)
            if answer.status_code != 201:
                self.refused += 1
                continue
            done = answer.json()
            first = done["records"][0]
            self.accepted.append((seq + 1, first["by"], first["type"]))
            seq = done["seq"]
        for player in players:
            await phones[player].post(f"{path}/confirm", json={"game": view["game"], "seq": view["seq"]}, headers=self.heads[player])


async def load(base: str, codes: dict[str, str], seats: list[tuple[int, str, str]], think: float) -> tuple[list[Table], float]:
    """Every player signs in, then every table plays; each player on a client (one connection) of their own, as a phone."""
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    async with contextlib.AsyncExitStack() as stack:
        phones = {p: await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=60, limits=limits)) for p in codes}

        async def join(player: str) -> tuple[str, dict[str, str]]:
            answer = (await phones[player].post("/api/join", json={"code": codes[player]})).raise_for_status()
            return player, {"Authorization": f"Bearer {answer.json()['session']}"}

        heads = dict(await asyncio.gather(*(join(p) for p in codes)))
        tables = [Table(number, {a: heads[a], b: heads[b]}) for number, a, b in seats]
        started = time.perf_counter()
        await asyncio.gather(*(t.play(phones, random.Random(t.number), think) for t in tables))
        return tables, time.perf_counter() - started


def audit(url: str, tables: list[Table]) -> tuple[int, int, int]:
    """(records in the logs, lost appends, forked tables)."""
    _, engine = open_database(url)
    records = lost = forked = 0
    with Session(engine) as session:
        reported = {m.number for m in service.matches(session, EVENT, 1) if m.source == "log"}
        for table in tables:
            lines = list(session.scalars(select(LiveLine.line).filter_by(event_id=EVENT, round=1, table=table.number, game=1).order_by(LiveLine.seq)))
            records += len(lines) - 1
            decoded = [msgspec.json.decode(line) for line in lines[1:]]
            for seq, by, kind in table.accepted:
                if seq > len(decoded) or (decoded[seq - 1]["by"], decoded[seq - 1]["type"]) != (by, kind):
                    lost += 1
            verdict = judge(io.BytesIO(b"".join(line + b"\n" for line in lines))).verdict
            game = session.get(LiveGame, (EVENT, 1, table.number, 1))
            if verdict.verdict != "complete" or verdict.chain != "verified" or game is None or table.number not in reported:
                forked += 1
    engine.dispose()
    return records, lost, forked


def percentiles(seconds: list[float]) -> tuple[float, float]:
    """p50 and p99 in milliseconds."""
    ordered = sorted(seconds)
    return statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000


def run(url: str, count: int, workers: int, think: float) -> None:
    codes, seats = prepare(url, count)
    port = free_port()
    server = start_server(url, port, workers)
    try:
        server_cpu, client_cpu = cpu_seconds(server.pid), time.process_time()
        tables, elapsed = asyncio.run(asyncio.wait_for(load(f"http://127.0.0.1:{port}", codes, seats, think), RUN_TIMEOUT))
        server_cpu, client_cpu = cpu_seconds(server.pid) - server_cpu, time.process_time() - client_cpu
    finally:
        server.terminate()
        server.wait(timeout=30)
    records, lost, forked = audit(url, tables)
    p50, p99 = percentiles([x for t in tables for x in t.latencies])
    reads50, reads99 = percentiles([x for t in tables for x in t.reads])
    backend = url.split(":", 1)[0].split("+")[0]
    pace = f"a think of {think / 2:g} to {think * 3 / 2:g} s before each record" if think else "no think time (saturated)"
    print(f"{count} tables ({2 * count} players), {backend}, {workers} worker(s), {pace}; {sum(t.refused for t in tables)} appends refused")
    appends = sum(len(t.accepted) for t in tables)
    per_append = 1000 * server_cpu / appends if appends else float("nan")
    print(f"{elapsed:.1f} s of play; CPU seconds: server {server_cpu:.1f} ({per_append:.1f} ms an append with the views around it), "
          f"bench client {client_cpu:.1f}; load average {os.getloadavg()[0]:.2f}")
    print(f"views read: {sum(len(t.reads) for t in tables)}, p50 {reads50:.0f} ms p99 {reads99:.0f} ms")
    print(f"tables {count} records {records} appends/s {appends / elapsed:.0f} p50 {p50:.0f} ms p99 {p99:.0f} ms lost {lost} forked {forked}")
    if lost or forked:
        raise SystemExit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10, help=f"tables playing at once (1 to {MOST_TABLES})")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers (PostgreSQL only above 1)")
    parser.add_argument("--db", help="a database URL (default: a fresh SQLite file)")
    parser.add_argument("--pg", action="store_true", help="start a throwaway PostgreSQL cluster (initdb/pg_ctl)")
    parser.add_argument("--think", type=float, default=2.0, help="a player's mean think time before a record, 0 to 60 s (T-128; 0: saturated)")
    args = parser.parse_args()
    if not 1 <= args.tables <= MOST_TABLES:
        parser.error(f"--tables must be 1 to {MOST_TABLES}")
    if not 0 <= args.think <= 60:
        parser.error("--think must be 0 to 60 seconds")
    from tests.tournament.conftest import bench_database  # --pg: the tests' cluster

    with tempfile.TemporaryDirectory(prefix="bench-table-") as scratch, bench_database(args.pg, args.db, scratch) as url:
        run(url, args.tables, args.workers, args.think)

if __name__ == "__main__":
    main()
