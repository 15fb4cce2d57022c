"""Results at a scorekeeper's speed: `2-1` scores, whole rounds from a file, and what is left to enter.

A score names games won by the table's first player (as the pairing lists
them), then by the second, then drawn games: `2-1`, `1-1-1`, `0-0` for an
intentional draw. A pod's score is each seat's place in seat order:
`1-3-2-4` (equal places share). Results entered this way are slips, the
paper result the players signed (source `slip`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from tournament.service.errors import Conflict, NotFound, TournamentError, Usage
from tournament.service.people import csv_rows
from tournament.service.queries import get_event, lock_event, matches, pod_tables
from tournament.service.results import (
    Tally,
    check_places,
    check_tally,
    played_live,
    tables_played_live,
)
from tournament.storage.eventlog import Payload, PodReported, ResultReported, append_many
from tournament.storage.models import Event, Match, Pod, PodSeat

SCORE = re.compile(r"^\s*(\d{1,2})\s*-\s*(\d{1,2})(?:\s*-\s*(\d{1,2}))?\s*$")
PLACES = re.compile(r"^\s*\d(\s*-\s*\d)+\s*$")


def score_tally(match: Match, text: str) -> Tally:
    """`2-1` (the first player's games first), `1-1-1` with a drawn game, `0-0` an intentional draw; Usage otherwise."""
    found = SCORE.match(text)
    if found is None:
        raise Usage(f"{text!r} is not a score: write the first player's games, the second's, then drawn games (2-1, 1-1-1)")
    a, b, draws = (int(g) if g else 0 for g in found.groups())
    return Tally({match.player_a: a, match.player_b: b}, draws)


def score_places(seats: Sequence[PodSeat], text: str) -> dict[str, int]:
    """A pod's places in seat order, `1-3-2-4`; Usage when the count does not match the seats."""
    if PLACES.match(text) is None:
        raise Usage(f"{text!r} is not a pod's places: write each seat's place in seat order (1-3-2-4)")
    places = [int(p) for p in text.split("-")]
    if len(places) != len(seats):
        raise Usage(f"{text!r} gives {len(places)} places for {len(seats)} seats")
    return {seat.player: place for seat, place in zip(seats, places, strict=True)}


@dataclass(frozen=True)
class ResultRow:
    """One table's result to enter: its number and score, and where it was read (for errors)."""

    table: int
    score: str
    where: str = ""


def results_from_csv(text: str, source: str) -> list[ResultRow]:
    """The rows of a `table,result` CSV file (the header row is optional); Usage names a bad line and field."""
    found: list[ResultRow] = []
    for line, cells in csv_rows(text, source):
        if not found and [c.lower() for c in cells] == ["table", "result"]:  # the header, after any blank lines
            continue
        if len(cells) != 2:
            raise Usage(f"{source} line {line}: {len(cells)} fields; a row is table,result")
        if not re.fullmatch(r"\d{1,9}", cells[0]):  # int() refuses ², and over 4300 digits
            raise Usage(f"{source} line {line}, field table: {cells[0]!r} is not a table number")
        found.append(ResultRow(int(cells[0]), cells[1], f"{source} line {line}"))
    if not found:
        raise Usage(f"{source}: no results in it")
    return found


def _at(row: ResultRow, field: str, exc: TournamentError) -> TournamentError:
    """The same error, named by the row's place: `results.csv line 4, field result: ...`."""
    where = row.where or f"table {row.table}"
    return type(exc)(f"{where}, field {field}: {exc.message}")


def import_results(session: Session, event_id: str, rows: Sequence[ResultRow], round_number: int | None = None) -> int:
    """Enter many tables' slips in one transaction, all or none; return how many results are new.

    One query loads the round's tables and one flush writes every entry,
    however many rows. A row repeating a result already there changes nothing;
    a different one is refused (a judge corrects it with `correct`).
    """
    event = lock_event(session, event_id)
    number = event.rounds if round_number is None else round_number
    if not 1 <= number <= event.rounds:
        raise NotFound(f"event {event_id!r} has no round {number} (rounds paired: {event.rounds})")
    # The session keeps loaded rows only while something refers to them: `tables` keeps the
    # round's tables, so applying each result finds its table there instead of one SELECT each.
    tables = pod_tables(session, event.id, number) if event.format == "pods" else matches(session, event.id, number)
    payloads = _pod_payloads(event, number, rows, tables) if event.format == "pods" else _match_payloads(event, number, rows, tables)
    entered = {p.table for p in payloads if isinstance(p, ResultReported | PodReported)}
    live = tables_played_live(session, event, number, entered)  # a slip cannot stand for a live table's log (T-132)
    for row in rows:
        if row.table in live:
            raise _at(row, "table", played_live(f"table {row.table} of round {number}"))
    append_many(session, event_id, payloads)
    return len(payloads)


def _check_rows(rows: Sequence[ResultRow], tables: set[int], number: int) -> None:
    seen: set[int] = set()
    for row in rows:
        if row.table not in tables:
            raise _at(row, "table", NotFound(f"round {number} has no table {row.table}"))
        if row.table in seen:
            raise _at(row, "table", Usage(f"table {row.table} is given twice"))
        seen.add(row.table)


def _match_payloads(event: Event, number: int, rows: Sequence[ResultRow], loaded: Sequence[Any]) -> list[Payload]:
    tables: dict[int, Match] = {m.number: m for m in loaded}
    _check_rows(rows, set(tables), number)
    payloads: list[Payload] = []
    for row in rows:
        match = tables[row.table]
        try:
            tally = score_tally(match, row.score)
            check_tally(event, match, tally)
        except TournamentError as exc:
            raise _at(row, "result", exc) from None
        if match.games_a is not None:
            if (match.games_a, match.games_b, match.draws or 0) == (tally.games[match.player_a], tally.games[match.player_b], tally.draws):
                continue
            raise _at(row, "result", Conflict(f"table {row.table} already has another result; a judge changes it with `correct`"))
        payloads.append(ResultReported(number, match.number, tally.games, tally.draws, "slip"))
    return payloads


def _pod_payloads(event: Event, number: int, rows: Sequence[ResultRow], loaded: Sequence[Any]) -> list[Payload]:
    tables: dict[int, tuple[Pod, list[PodSeat]]] = {pod.number: (pod, seats) for pod, seats in loaded}
    _check_rows(rows, {n for n, (pod, _) in tables.items() if pod.source != "bye"}, number)
    payloads: list[Payload] = []
    for row in rows:
        pod, seats = tables[row.table]
        try:
            places = score_places(seats, row.score)
            check_places(places, {s.player for s in seats}, f"table {pod.number}")
        except TournamentError as exc:
            raise _at(row, "result", exc) from None
        if pod.source is not None:
            if {s.player: s.place for s in seats} == places and pod.sha256 is None:
                continue
            raise _at(row, "result", Conflict(f"table {row.table} already has another result; a judge changes it with `correct`"))
        payloads.append(PodReported(number, pod.number, places, "slip"))
    return payloads


def open_tables(session: Session, event_id: str) -> list[int]:
    """The current round's tables still without a result, in order (what `enter` asks for)."""
    current = get_event(session, event_id)
    if current.format == "pods":
        return [pod.number for pod, _ in pod_tables(session, event_id, current.rounds) if pod.source is None]
    return [m.number for m in matches(session, event_id, current.rounds) if m.games_a is None]
