"""A season's standings and an event's fees as cells and files: the CLI's table, CSV and JSON, and the web's
downloads, from one function each so every door gives the same bytes."""

from __future__ import annotations

import msgspec

from schemas.tournament import Fees, SeasonStandings
from tournament.formats.fees import money
from tournament.output import render

SEASON_FORMATS = ("csv", "json")


def season_cells(table: SeasonStandings) -> tuple[list[str], list[list[str]]]:
    """Place, person, name, points, then each finished event's points ("(4)": played, not among the best N), then
    the tiebreakers' figures. An event the person did not play is empty."""
    finished = [e for e in table.events if e.finished]
    header = ["rank", "person", "name", "points", *[e.name for e in finished], "wins", "best place", "played"]
    cells = []
    for row in table.standings:
        results = []
        for e in finished:
            got = row.results.get(e.event)
            results.append("" if got is None else str(got) if e.event in row.counted else f"({got})")
        cells.append([str(row.rank), row.person, row.name, str(row.points), *results, str(row.wins), str(row.place), str(row.played)])
    return header, cells


def season_file(table: SeasonStandings, fmt: str) -> str:
    if fmt == "json":
        return msgspec.json.encode(table).decode()
    header, cells = season_cells(table)
    return render.to_csv(header, cells)


def paid_text(amount: int | None, by: str | None, currency: str | None) -> str:
    if amount is None or currency is None:
        return "not paid"
    return f"{money(amount, currency)} by {by}"


def fee_cells(fees: Fees) -> tuple[list[str], list[list[str]]]:
    """Each player's fee: unpaid first, as `fees.fees` orders them."""
    return ["player", "name", "paid", "checked in", "dropped"], [
        [r.player, r.name, paid_text(r.paid, r.paid_by, fees.currency), "yes" if r.checked_in else "", "yes" if r.dropped else ""]
        for r in fees.players
    ]
