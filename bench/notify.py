"""Messages after a pairing: N players, every one subscribed to Web Push; how long until each is delivered.

    python bench/notify.py                     # 4 players, SQLite (the test's size)
    python bench/notify.py --players 1000
    python bench/notify.py --players 1000 --pg

An event of N players is made through the service, each player subscribed by Web Push to a local push endpoint
(a thread of this process: it takes each request as a push service would, reading the message's id from its
`Topic` header; `--decrypt` also checks each request's VAPID signature and decrypts its payload, as the
tests do). `tournament send` runs as its own process. Round 1 is paired in one transaction; from the moment
its commit returns, each message's time is until the endpoint holds it. Bounded: the run gives up after
`--timeout` seconds. The last line:

    players N messages M p50 X ms p99 Y ms lost L doubled D

`lost`: messages written and never received by the end; `doubled`: messages received more than once (a repeat
is allowed after a crash, at least once, and is known by its id; none is expected here).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.tournament.conftest import bench_database
from tests.tournament.receivers import push_endpoint
from tournament import service
from tournament.service import sender
from tournament.storage.db import open_database
from tournament.storage.models import Message


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def run(url: str, players: int, timeout: float, decrypt: bool) -> str:
    _url, engine = open_database(url)
    names = [f"p{i:05}" for i in range(players)]
    with push_endpoint(decrypt=decrypt) as ep:
        with Session(engine) as session, session.begin():
            service.create_event(session, "ev", name="Notify bench", ruleset="cardwars", profile="mtg", best_of=1, seed=7)
            service.register_people(session, "ev", [service.Person(n, n) for n in names])
            ep.vapid = sender.vapid_public(sender.vapid_private(session))
            for n in names:
                b = ep.browser(n)
                service.subscribe(session, "ev", n, "push", b.endpoint, p256dh=b.p256dh, auth=b.auth_text, local=True)
        command = [sys.executable, "-c", "from tournament.cli.app import main; main()", "send", "--db", url]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            assert process.stderr is not None
            started = process.stderr.readline().decode()  # "sending by push (Ctrl+C stops)": it is running
            if "sending by" not in started:
                raise SystemExit(f"tournament send did not start: {started}{process.stderr.read().decode()}")
            with Session(engine) as session, session.begin():
                service.pair(session, "ev")
            committed = time.monotonic()
            with Session(engine) as session:
                written = session.scalar(select(func.count()).select_from(Message)) or 0
            deadline = committed + timeout
            while len(set(ep.ids())) < written and time.monotonic() < deadline:
                time.sleep(0.02)
        finally:
            process.terminate()
            process.wait(timeout=30)
        with ep.lock:
            first: dict[str, float] = {}
            for push in ep.received:
                first.setdefault(push.id, push.at)
            counts = Counter(p.id for p in ep.received)
        with Session(engine) as session:
            ids = set(session.scalars(select(Message.id)))
    engine.dispose()
    latencies = [(at - committed) * 1000 for at in first.values()]
    lost = len(ids - set(first))
    doubled = sum(1 for c in counts.values() if c > 1)
    if ep.problems:
        print(f"the endpoint refused {len(ep.problems)}: {ep.problems[0]}", file=sys.stderr)
    print(f"slowest {max(latencies, default=0):.0f} ms, mean {statistics.fmean(latencies) if latencies else 0:.0f} ms")
    return (
        f"players {players} messages {written} p50 {percentile(latencies, 0.5):.0f} ms "
        f"p99 {percentile(latencies, 0.99):.0f} ms lost {lost} doubled {doubled}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, help="players, each subscribed (2 to 20,000; default 4)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds to wait for every message (default 120)")
    parser.add_argument("--decrypt", action="store_true", help="check each push's VAPID signature and decrypt it (slower)")
    parser.add_argument("--pg", action="store_true", help="a throwaway PostgreSQL cluster instead of SQLite")
    parser.add_argument("--db", help="a database URL to use instead (emptied by nobody: give a new one)")
    args = parser.parse_args()
    if not 2 <= args.players <= 20_000 or not 1 <= args.timeout <= 3600:
        parser.error("--players: 2 to 20,000; --timeout: 1 to 3,600 seconds")
    os.environ.pop("TOURNAMENT_SMTP", None)
    with tempfile.TemporaryDirectory() as scratch, bench_database(args.pg, args.db, scratch) as url:
        print(run(url, args.players, args.timeout, args.decrypt))


if __name__ == "__main__":
    main()
