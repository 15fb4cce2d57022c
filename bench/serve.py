"""`tournament serve` under load: N simulated players sign in and report at once over HTTP on loopback.

    python bench/serve.py --players 64                       # SQLite, one worker
    python bench/serve.py --players 512 --pg --workers 2     # a throwaway PostgreSQL cluster, two workers
    python bench/serve.py --players 512 --db postgresql://... --workers 2

An event with N players (round 1 paired: N/2 tables) is made through the
service, with a one-time code per player; then `tournament serve` runs as its
own process (real uvicorn workers) on 127.0.0.1, and N simulated players, all
at once in each phase:

1. `join`: every player spends their code (`POST /api/join`);
2. `claim`: the first player of each table claims a result (`POST /api/me/claim`);
3. `poll`: every player's page asks whether the event moved (`GET .../version`), as the pages do;
4. `confirm`: the second player of each table confirms (`POST /api/me/confirm`), which reports the result.

For each phase and overall: requests, failed requests, requests/s, p50 and
p99 latency, and the server's CPU time per request (its processes' user and
system time, which a busy machine stretches less than wall-clock time). Then
the database is read: a `lost` write is an answered claim
or confirmation (2xx) missing from the event log, a `duplicated` one an entry
or result there twice; both must be 0, and the log's chain must verify.
Every request loop is bounded: at most 2,000 players, a timeout per request
and for the whole run. Timings are wall clock on a shared machine: compare
runs made together, not across days.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from sqlalchemy import select
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament import service
from tournament.service.verification import verify
from tournament.storage.db import open_database
from tournament.storage.eventlog import decode
from tournament.storage.models import LogEntry

EVENT = "bench"
MOST_PLAYERS = 2000
REQUEST_TIMEOUT = 120.0  # seconds for one request
RUN_TIMEOUT = 900.0  # seconds for the whole load


@dataclass
class Phase:
    name: str
    latencies: list[float] = field(default_factory=list)
    failures: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def line(self) -> str:
        ok = sorted(self.latencies)
        p50 = statistics.median(ok) * 1000 if ok else float("nan")
        p99 = ok[min(len(ok) - 1, int(0.99 * len(ok)))] * 1000 if ok else float("nan")
        total = len(ok) + sum(self.failures.values())
        rate = total / self.seconds if self.seconds else 0.0
        failed = sum(self.failures.values())
        detail = f"  ({', '.join(f'{k}: {v}' for k, v in self.failures.items())})" if failed else ""
        return f"{self.name:>8}  {total:6d}  {failed:6d}  {rate:8.1f}  {p50:8.1f}  {p99:8.1f}{detail}"


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process and its live descendants, from /proc (the server's workers)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = [int(c) for t in Path(f"/proc/{pid}/task").iterdir() for c in (t / "children").read_text().split()]
    except OSError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(c) for c in children)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def prepare(url: str, players: int) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The event, round 1 paired, and a code per player; the tables as (first, second)."""
    _, engine = open_database(url)
    ids = [f"p{n:04d}" for n in range(1, players + 1)]
    with Session(engine) as session, session.begin():
        service.create_event(session, EVENT, name="Load test", ruleset="cardwars", profile="mtg", best_of=1, seed=1)
        service.register(session, EVENT, ids)
        service.pair(session, EVENT)
        codes = {p: service.issue_code(session, EVENT, p) for p in ids}
        tables = [(m.player_a, m.player_b) for m in service.matches(session, EVENT, 1)]
    engine.dispose()
    return codes, tables


def start_server(url: str, port: int, workers: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, TOURNAMENT_DB=url, TOURNAMENT_ADMIN_TOKEN="bench-organiser-token-0123456789")
    command = [sys.executable, "-c", "from tournament.cli.app import main; main()", "serve", "--port", str(port), "--workers", str(workers)]
    # stderr to a file, not a pipe nobody reads while the load runs: a full pipe would stall the server
    errors = tempfile.TemporaryFile()  # noqa: SIM115 (open as long as the server runs)
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=errors)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            errors.seek(0)
            raise SystemExit(f"the server stopped: {errors.read(1 << 16).decode(errors='replace')}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/events", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("the server did not answer within 60 s")


async def phase(name: str, jobs: list[Callable[[], Awaitable[httpx.Response]]]) -> Phase:
    """Run every job at once; time each."""
    result = Phase(name)

    async def timed(job: Callable[[], Awaitable[httpx.Response]]) -> None:
        started = time.perf_counter()
        try:
            answer = await job()
        except httpx.HTTPError as exc:
            result.failures[type(exc).__name__] += 1
            return
        if answer.is_success:
            result.latencies.append(time.perf_counter() - started)
        else:
            result.failures[str(answer.status_code)] += 1

    started = time.perf_counter()
    await asyncio.gather(*(timed(job) for job in jobs))
    result.seconds = time.perf_counter() - started
    return result


async def load(base: str, codes: dict[str, str], tables: list[tuple[str, str]]) -> tuple[list[Phase], set[str], set[str]]:
    """The four phases; the players whose claim and whose confirmation were answered 2xx."""
    limits = httpx.Limits(max_connections=len(codes), max_keepalive_connections=len(codes))
    async with httpx.AsyncClient(base_url=base, timeout=REQUEST_TIMEOUT, limits=limits) as client:
        sessions: dict[str, str] = {}

        def join(player: str) -> Callable[[], Awaitable[httpx.Response]]:
            async def go() -> httpx.Response:
                answer = await client.post("/api/join", json={"code": codes[player]})
                if answer.is_success:
                    sessions[player] = answer.json()["session"]
                return answer
            return go

        def as_player(player: str, method: str, path: str, body: object = None) -> Callable[[], Awaitable[httpx.Response]]:
            async def go() -> httpx.Response:
                headers = {"Authorization": f"Bearer {sessions.get(player, 'none.none')}"}
                return await client.request(method, path, json=body, headers=headers)
            return go

        claimed: set[str] = set()
        confirmed: set[str] = set()

        def noting(done: set[str], player: str, job: Callable[[], Awaitable[httpx.Response]]) -> Callable[[], Awaitable[httpx.Response]]:
            async def go() -> httpx.Response:
                answer = await job()
                if answer.is_success:
                    done.add(player)
                return answer
            return go

        phases = [await phase("join", [join(p) for p in codes])]
        phases.append(await phase("claim", [
            noting(claimed, a, as_player(a, "POST", "/api/me/claim", {"games": {a: 1, b: 0}})) for a, b in tables
        ]))
        phases.append(await phase("poll", [as_player(p, "GET", f"/api/events/{EVENT}/version") for p in codes]))
        phases.append(await phase("confirm", [
            noting(confirmed, b, as_player(b, "POST", "/api/me/confirm", {"claimant": a})) for a, b in tables
        ]))
    return phases, claimed, confirmed


def audit(url: str, tables: list[tuple[str, str]], claimed: set[str], confirmed: set[str]) -> tuple[int, int, bool]:
    """Lost and duplicated writes, and whether the log verifies."""
    _, engine = open_database(url)
    with Session(engine) as session:
        entries = list(session.scalars(select(LogEntry).filter_by(event_id=EVENT).order_by(LogEntry.seq)))
        seen: Counter[tuple[str, object]] = Counter()
        for entry in entries:
            if entry.type in ("result_claimed", "claim_confirmed", "result_reported"):
                payload = decode(entry)
                who = getattr(payload, "player", None) or payload.table
                seen[(entry.type, who)] += 1
        first_of = {a: b for a, b in tables}
        lost = sum(1 for a in claimed if seen[("result_claimed", a)] == 0)
        lost += sum(1 for b in confirmed if seen[("claim_confirmed", b)] == 0)
        reported = {m.number for m in service.matches(session, EVENT, 1) if m.games_a is not None}
        lost += sum(1 for k, (a, _b) in enumerate(tables, start=1) if first_of[a] in confirmed and k not in reported)
        duplicated = sum(n - 1 for n in seen.values() if n > 1)
        sound = verify(session, EVENT).ok
    engine.dispose()
    return lost, duplicated, sound


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64, help="simulated players (even, 2 to 2000)")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers (PostgreSQL only above 1)")
    parser.add_argument("--db", help="a database URL (default: a fresh SQLite file)")
    parser.add_argument("--pg", action="store_true", help="start a throwaway PostgreSQL cluster (initdb/pg_ctl)")
    args = parser.parse_args()
    if not 2 <= args.players <= MOST_PLAYERS or args.players % 2:
        parser.error(f"--players must be even, 2 to {MOST_PLAYERS}")
    from tests.tournament.conftest import bench_database  # --pg: the tests' cluster

    with tempfile.TemporaryDirectory(prefix="bench-serve-") as scratch, bench_database(args.pg, args.db, scratch) as url:
        run(url, args.players, args.workers)


def run(url: str, players: int, workers: int) -> None:
    codes, tables = prepare(url, players)
    port = free_port()
    server = start_server(url, port, workers)
    try:
        started, cpu = time.perf_counter(), cpu_seconds(server.pid)
        phases, claimed, confirmed = asyncio.run(asyncio.wait_for(load(f"http://127.0.0.1:{port}", codes, tables), RUN_TIMEOUT))
        elapsed, cpu = time.perf_counter() - started, cpu_seconds(server.pid) - cpu
    finally:
        server.terminate()
        server.wait(timeout=30)
    backend = url.split(":", 1)[0].split("+")[0]
    print(f"{players} players, {len(tables)} tables, {backend}, {workers} worker(s)")
    print(f"{'phase':>8}  {'reqs':>6}  {'failed':>6}  {'req/s':>8}  {'p50 ms':>8}  {'p99 ms':>8}")
    for p in phases:
        print(p.line())
    everything = Phase("all", [x for p in phases for x in p.latencies], sum((p.failures for p in phases), Counter()), elapsed)
    print(everything.line())
    requests = len(everything.latencies) + sum(everything.failures.values())
    print(f"server CPU: {cpu:.1f} s, {1000 * cpu / requests:.1f} ms a request (steadier than wall-clock figures on a shared machine)")
    lost, duplicated, sound = audit(url, tables, claimed, confirmed)
    print(f"lost writes: {lost}  duplicated writes: {duplicated}  log verifies: {'yes' if sound else 'NO'}")
    if lost or duplicated or not sound:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
