"""Standings, pairings and whole events as data (the Structs in schemas/tournament.py) and as text.

Builders read the database; renderers turn rows into CSV, HTML or a rich
table and know nothing of the database.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Sequence
from datetime import UTC, datetime

from rich.table import Table
from sqlalchemy import select
from sqlalchemy.orm import Session

from schemas.tournament import (
    EXPORT_FORMAT,
    EventInfo,
    Export,
    GameRef,
    LogEntryInfo,
    PlayerInfo,
    RoundInfo,
    StandingRow,
    TableRow,
)
from tournament import service
from tournament.eventlog import as_utc
from tournament.models import Event, GameLog, LogEntry, Match

FORMATS = ("table", "csv", "json", "html")


def standing_rows(session: Session, event_id: str) -> list[StandingRow]:
    return [
        StandingRow(
            s.rank, s.player, s.points, s.game_points, s.wins, s.losses, s.draws, s.byes,
            dict(s.tiebreakers), s.dropped,
        )
        for s in service.standings(session, event_id)
    ]


def table_row(session: Session, match: Match) -> TableRow:
    logs = session.scalars(
        select(GameLog).filter_by(event_id=match.event_id, round=match.round, table=match.number).order_by(GameLog.game)
    )
    games = None
    if match.games_a is not None and match.games_b is not None:
        games = {match.player_a: match.games_a, match.player_b: match.games_b}
    return TableRow(
        round=match.round,
        table=match.number,
        players=[match.player_a, match.player_b],
        games=games,
        draws=match.draws,
        source=match.source,
        reason=match.reason,
        logs=[GameRef(g.game, g.sha256, g.winner) for g in logs],
    )


def pairing_rows(session: Session, event_id: str, round_number: int) -> list[TableRow]:
    event = service.get_event(session, event_id)
    if not 1 <= round_number <= event.rounds:
        raise service.NotFound(f"event {event_id!r} has no round {round_number} (rounds paired: {event.rounds})")
    return [table_row(session, m) for m in service.matches(session, event_id, round_number)]


def log_rows(session: Session, event_id: str) -> list[LogEntryInfo]:
    entries = session.scalars(select(LogEntry).filter_by(event_id=event_id).order_by(LogEntry.seq))
    return [LogEntryInfo(e.seq, e.type, as_utc(e.at), e.prev, e.hash) for e in entries]


def event_info(event: Event) -> EventInfo:
    return EventInfo(
        event.id, event.name, event.ruleset, event.profile, event.best_of, event.seed, as_utc(event.created_at), event.rounds
    )


def export_event(session: Session, event_id: str) -> Export:
    event = service.get_event(session, event_id)
    rounds = [
        RoundInfo(r.number, r.seed, r.bye, [table_row(session, m) for m in service.matches(session, event_id, r.number)])
        for r in service.rounds(session, event_id)
    ]
    players = [PlayerInfo(p.name, p.registered_round, p.dropped_round) for p in service.players(session, event_id)]
    return Export(EXPORT_FORMAT, event_info(event), players, rounds, standing_rows(session, event_id), log_rows(session, event_id))


# Renderers -----------------------------------------------------------------

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
            str(r.rank), r.player, str(r.points), str(r.game_points), str(r.wins), str(r.losses), str(r.draws),
            str(r.byes), *(tiebreaker_text(t, r.tiebreakers[t]) for t in tiebreakers), "yes" if r.dropped else "",
        ]
        for r in rows
    ]
    return header, cells


def result_text(row: TableRow) -> str:
    if row.games is None:
        return ""
    a, b = row.players
    draws = f"-{row.draws}" if row.draws else ""
    return f"{row.games[a]}-{row.games[b]}{draws}"


def pairing_cells(rows: Sequence[TableRow], bye: str | None) -> tuple[list[str], list[list[str]]]:
    cells = [[str(r.table), r.players[0], r.players[1], result_text(r), r.source or "", r.reason or ""] for r in rows]
    if bye:
        cells.append(["bye", bye, "", "", "", ""])
    return list(PAIRING_COLUMNS), cells


def to_csv(header: list[str], cells: list[list[str]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(cells)
    return buffer.getvalue()


# Short headings so a standings table fits an 80-column terminal; CSV and JSON keep the full names.
SHORT = {"rank": "#", "points": "pts", "game_points": "gpts", "wins": "W", "losses": "L", "draws": "D", "dropped": "drop"}


def to_rich(title: str, header: list[str], cells: list[list[str]]) -> Table:
    table = Table(title=title)
    for name in header:
        table.add_column(SHORT.get(name, name), justify="left" if name in TEXT_COLUMNS else "right", no_wrap=name != "reason")
    for row in cells:
        table.add_row(*row)
    return table


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
  body {{ font-family: system-ui, sans-serif; margin: 2em; color: #000; background: #fff; }}
  table {{ border-collapse: collapse; width: 100%; }}
  th, td {{ border: 1px solid #999; padding: 0.25em 0.5em; text-align: right; }}
  th {{ background: #eee; }}
  td.name {{ text-align: left; }}
  caption {{ text-align: left; font-weight: bold; margin-bottom: 0.5em; }}
  p.meta {{ color: #444; font-size: 0.9em; }}
  @media print {{ body {{ margin: 0; }} th {{ background: none; }} tr {{ page-break-inside: avoid; }} }}
</style>
</head>
<body>
<h1>{title}</h1>
<p class="meta">{meta}</p>
<table>
<caption>{caption}</caption>
<thead><tr>{head}</tr></thead>
<tbody>
{body}
</tbody>
</table>
</body>
</html>
"""

TEXT_COLUMNS = {"player", "player_a", "player_b", "source", "reason"}


def to_html(title: str, caption: str, event: EventInfo, header: list[str], cells: list[list[str]]) -> str:
    """One printable static page; every value from the database is escaped."""
    esc = html.escape
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "\n".join(
        "<tr>" + "".join(
            f'<td class="name">{esc(c)}</td>' if h in TEXT_COLUMNS else f"<td>{esc(c)}</td>" for h, c in zip(header, row, strict=True)
        ) + "</tr>"
        for row in cells
    )
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    meta = f"{esc(event.ruleset)}, best of {event.best_of}, {event.rounds} round(s) paired, tiebreakers: {esc(event.profile)}; printed {stamp}"
    return PAGE.format(title=esc(title), meta=meta, caption=esc(caption), head=head, body=body)
