"""Rows as people read them: cells for tables, CSV, a rich table for the terminal, a printable HTML page.

Renderers take the Structs built by `tournament.export` and know nothing of the database.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from schemas.tournament import BracketInfo, EventInfo, StandingRow, TableRow
from tournament import pages
from tournament.pictures import Picture

if TYPE_CHECKING:
    from rich.table import Table

FORMATS = ("table", "csv", "json", "html")

STANDING_COLUMNS = ("rank", "player", "points", "game_points", "wins", "losses", "draws", "byes")
PAIRING_COLUMNS = ("table", "player_a", "player_b", "result", "source", "reason")


# The TCG tiebreakers are fractions, printed as percentages; the chess ones are match points.
PERCENTAGES = {"omw", "gw", "ogw", "owp", "oowp"}


def tiebreaker_text(name: str, value: float) -> str:
    return f"{100 * value:.2f}" if name in PERCENTAGES else f"{value:g}"


def standing_cells(rows: Sequence[StandingRow]) -> tuple[list[str], list[list[str]]]:
    """Column names and text cells; dropped players marked."""
    tiebreakers = list(rows[0].tiebreakers) if rows else []
    header = [*STANDING_COLUMNS, *(f"{t}%" if t in PERCENTAGES else t for t in tiebreakers), "dropped"]
    cells = [
        [
            str(r.rank), r.name or r.player, str(r.points), str(r.game_points), str(r.wins), str(r.losses), str(r.draws),
            str(r.byes), *(tiebreaker_text(t, r.tiebreakers[t]) for t in tiebreakers), "yes" if r.dropped else "",
        ]
        for r in rows
    ]
    return header, cells


def result_text(row: TableRow) -> str:
    """`2-1`, `1-1-1` with a drawn game, `ID` for an intentional draw, or "" before a result."""
    if row.games is None:
        return ""
    a, b = row.players
    if row.games[a] == row.games[b] == 0 and not row.draws:
        return "ID"
    draws = f"-{row.draws}" if row.draws else ""
    return f"{row.games[a]}-{row.games[b]}{draws}"


def clock_text(moment: datetime | None) -> str:
    """A table's end time as the venue reads it: local HH:MM (the machine's time zone; `TZ` changes it)."""
    return moment.astimezone().strftime("%H:%M") if moment else ""


POD_COLUMNS = ("table", "seats", "places", "source", "reason")


def shown_names(row: TableRow) -> list[str]:
    """A row's display names (its ids when it carries none)."""
    return row.names or row.players


def places_text(row: TableRow) -> str:
    """`Ann Lee 1, Cat 2, Bob 2`: the places, best first (seat order among equals)."""
    if row.places is None:
        return ""
    places = row.places
    ranked = sorted(zip(row.players, shown_names(row), strict=True), key=lambda p: places[p[0]])
    return ", ".join(f"{name} {places[p]}" for p, name in ranked)


def pairing_cells(
    rows: Sequence[TableRow], bye: str | None, pods: bool = False, advanced: Sequence[str] = (),
    names: Mapping[str, str] | None = None,
) -> tuple[list[str], list[list[str]]]:
    """Column names and text cells of a round, display names throughout; `ends` once the clock runs."""
    timed = any(r.ends_at for r in rows)
    if pods:  # seats in order, then places
        seated = [
            ["bye" if r.source == "bye" else str(r.table), " | ".join(shown_names(r)), places_text(r), r.source or "", r.reason or ""]
            + ([clock_text(r.ends_at)] if timed else [])
            for r in rows
        ]
        return list(POD_COLUMNS) + (["ends"] if timed else []), seated
    cells = [
        [str(r.table), *shown_names(r), result_text(r), r.source or "", r.reason or ""] + ([clock_text(r.ends_at)] if timed else [])
        for r in rows
    ]
    shown = names or {}
    cells += [
        ["bye", shown.get(p, p), "", "", "", ""] + ([""] if timed else []) for p in [*([bye] if bye else []), *advanced]
    ]
    return list(PAIRING_COLUMNS) + (["ends"] if timed else []), cells


def pod_text(rows: Sequence[TableRow]) -> str:
    """A pods round as text, one table a line: seats in order, then the places once reported."""
    lines = []
    for r in rows:
        label = "bye" if r.source == "bye" else f"table {r.table}"
        result = f"  ->  {places_text(r)}" if r.places and r.source != "bye" else ""
        lines.append(f"{label:>9}: {' | '.join(shown_names(r))}{result}")
    return "\n".join(lines) + "\n"


def seed_cells(info: BracketInfo) -> tuple[list[str], list[list[str]]]:
    return ["seed", "player"], [[str(k), info.names.get(p, p)] for k, p in enumerate(info.seeds, start=1)]


def to_csv(header: list[str], cells: list[list[str]]) -> str:
    """CSV whose every cell a spreadsheet reads as text (`inert`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([inert(name) for name in header])
    writer.writerows([inert(cell) for cell in row] for row in cells)
    return buffer.getvalue()


# OWASP's CSV-injection advice: a cell starting with one of these is a formula to a spreadsheet.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def inert(cell: str) -> str:
    """A cell a spreadsheet cannot run: a leading `'` before a formula character, except on a plain number like -1."""
    if cell.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


# Short headings so a standings table fits an 80-column terminal; CSV and JSON keep the full names.
SHORT = {"rank": "#", "points": "pts", "game_points": "gpts", "wins": "W", "losses": "L", "draws": "D", "dropped": "drop"}


def to_rich(title: str, header: list[str], cells: list[list[str]]) -> Table:
    from rich.table import Table

    table = Table(title=title)
    for name in header:
        table.add_column(SHORT.get(name, name), justify="left" if name in TEXT_COLUMNS else "right", no_wrap=name != "reason")
    for row in cells:
        table.add_row(*row)
    return table


TEXT_COLUMNS = {"player", "player_a", "player_b", "source", "reason", "seats", "places", "name", "opponent"}


def to_html(
    title: str, caption: str, event: EventInfo, header: list[str], cells: list[list[str]], pictures: Sequence[Picture] = ()
) -> str:
    """One printable static page from `table_page.html.j2`; the template escapes every value."""
    return pages.render(
        "table_page.html.j2", title=title, caption=caption, event=event, header=header, cells=cells, pictures=pictures,
        text_columns=TEXT_COLUMNS, printed=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), zip=zip,
    )
