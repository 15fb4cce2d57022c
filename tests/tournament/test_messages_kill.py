"""The outbox survives a sender killed with SIGKILL, again and again: no message lost, every repeat known by its id.

Each round writes a new batch of messages, starts a sender, waits until it says it runs, and kills it with
SIGKILL at a random moment within the next 1.5 s: before its claim, mid-batch (some pushes delivered, not yet
marked sent) or after. Every third round the sender is `tournament serve`'s own (the server killed), the others
`tournament send` (a claim held 1 s). A last sender then delivers what is left. The receiver is a Web Push
endpoint that checks each request's VAPID signature and decrypts it, and takes 250 ms a request, so a batch
of 20 takes about 0.75 s and kills land in it.
"""

from __future__ import annotations

import random
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from typing import IO

import pytest
from sqlalchemy.orm import Session

from tests.tournament.receivers import push_endpoint
from tests.tournament.test_messages import outbox, subscribe_push
from tests.tournament.webkit import database, make_event
from tournament.service import messages, sender
from tournament.storage.models import Event

PLAYERS = [f"p{i:02}" for i in range(20)]


def send_process(db_url: str, *args: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-c", "from tournament.cli.app import main; main()", "send", "--db", db_url, "--lease", "1", *args]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def serve_process(db_url: str) -> subprocess.Popen[bytes]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-c", "from tournament.cli.app import main; main()", "serve", "--db", db_url, "--port", str(port)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def running(process: subprocess.Popen[bytes], stream: IO[bytes] | None, says: bytes) -> None:
    """Wait until the process prints `says` (it has started) on `stream`."""
    assert stream is not None
    for line in iter(stream.readline, b""):
        if says in line:
            return
    raise AssertionError(f"the sender stopped before it ran: {process.wait()}")


def write_batch(engine: object, n: int) -> None:
    with Session(engine) as session, session.begin():  # type: ignore[call-overload]
        event = session.get(Event, "ev")
        drafts = [
            messages.Draft(f"kill round {n}", p, "place", messages.Facts(event.name, p, "/me")) for p in PLAYERS
        ]
        messages.write(session, "ev", drafts)


def kills(count: int, db_url: str) -> int:
    """Kill a sender `count` times; the repeats received (each one a message id already received)."""
    make_event(db_url, players=PLAYERS, pair=False)
    rng = random.Random(36)
    with push_endpoint() as ep, database(db_url) as engine:
        ep.delay = 0.25
        subscribe_push(db_url, ep, PLAYERS)
        with Session(engine) as session, session.begin():
            ep.vapid = sender.vapid_public(sender.vapid_private(session))
        for n in range(count):
            write_batch(engine, n)
            if n % 3 == 2:
                process = serve_process(db_url)
                running(process, process.stdout, b"serving ")
                time.sleep(0.5)  # the app's startup, which starts its sender
            else:
                process = send_process(db_url)
                running(process, process.stderr, b"sending by push")
            time.sleep(rng.uniform(0, 1.5))  # before, during or after the batch
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
            assert process.returncode == -signal.SIGKILL
        last = send_process(db_url, "--once", "--json")
        out, err = last.communicate(timeout=120)
        assert last.returncode == 0, err.decode()[-2000:]
        # A claim a killed `send --lease 1` left is free after 1 s; one a killed server's sender left, after its lease
        # (sender.LEASE): --once again until nothing is pending, for at most that long.
        deadline = time.monotonic() + sender.LEASE.total_seconds() + 10
        while True:
            time.sleep(1.2)
            again = send_process(db_url, "--once", "--json")
            out, err = again.communicate(timeout=120)
            assert again.returncode == 0, err.decode()[-2000:]
            if b'"pending":0' in out or time.monotonic() > deadline:
                break
        assert b'"pending":0' in out, (out, err.decode()[-2000:])
        rows = outbox(db_url)
        written = {m.id for m in rows}
        received = Counter(ep.ids())
        assert len(written) == count * len(PLAYERS) and all(m.sent_at is not None and m.failed is None for m in rows)
        assert set(received) == written, f"lost: {len(written - set(received))}"
        repeats = sum(received.values()) - len(received)
        assert ep.problems == []
        print(f"kills {count} messages {len(written)} lost 0 repeats {repeats} (each known by its id)")
        return repeats


def test_the_outbox_survives_a_few_kills_of_its_sender(db: str) -> None:
    kills(2, db)  # the bounded sample CI runs; thirty on both databases: -m slow


@pytest.mark.slow
def test_the_outbox_survives_thirty_kills_of_its_sender(db_url: str) -> None:
    assert kills(30, db_url) > 0, "some kill landed between a delivery and its mark: the repeat path ran"
