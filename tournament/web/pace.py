"""How fast a seat may record at a live table: a token bucket per seat and table, in each worker (T-145).

A seat has `burst` records in hand and gets `rate` more a second, up to `burst` again; an append with none left
is refused with 429 and nothing is judged or written. The bucket is this process's: with several workers a seat
may go as fast as that many times over, which still bounds what one phone can push to every watcher.
"""

from __future__ import annotations

import threading
import time

from tournament import service

RATE = 30.0  # records a second, kept up: a quick human makes one or two; a saturated bench's bot seat about ten
BURST = 500  # records at once: more than a seat makes in a whole bot game of any of the five (maginot: ~400), however fast
KEPT = 10_000  # buckets kept; past that, the full ones (seats that have rested) are forgotten


class TooFast(service.TournamentError):
    """A seat recorded faster than `Pace` allows."""

    status = 429


class Pace:
    """The seats' buckets: `take` spends one record of a seat at a table, or raises TooFast."""

    def __init__(self, rate: float = RATE, burst: int = BURST) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[tuple[str, int, str], tuple[float, float]] = {}  # (event, table, seat) -> (records, when)
        self._lock = threading.Lock()

    def take(self, event_id: str, table: int, seat: str) -> None:
        now = time.monotonic()
        key = (event_id, table, seat)
        with self._lock:
            held, then = self._buckets.get(key, (float(self.burst), now))
            held = min(float(self.burst), held + (now - then) * self.rate)
            if held < 1:
                raise TooFast(f"too many records from {seat} at table {table}: at most {self.rate:g} a second; wait a moment")
            self._buckets[key] = (held - 1, now)
            if len(self._buckets) > KEPT:
                self._forget(now)

    def _forget(self, now: float) -> None:
        full = [k for k, (held, then) in self._buckets.items() if held + (now - then) * self.rate >= self.burst]
        for key in full:
            del self._buckets[key]
