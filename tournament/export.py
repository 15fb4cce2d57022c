"""Standings, pairings and whole events as data (the Structs in schemas/tournament.py) and as text.

Builders read the database; renderers turn rows into CSV, HTML or a rich
table and know nothing of the database.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import cast

from rich.table import Table
from sqlalchemy import select
from sqlalchemy.orm import Session

from schemas.tournament import (
    EXPORT_FORMAT,
    BracketInfo,
    BracketPair,
    BracketRound,
    EventInfo,
    Export,
    GameRef,
    LogEntryInfo,
    PlayerInfo,
    RoundInfo,
    Source,
    StandingRow,
    TableRow,
)
from tournament import pages, service
from tournament.eventlog import as_utc
from tournament.models import Event, GameLog, LogEntry, Match, Pod, PodSeat

FORMATS = ("table", "csv", "json", "html")


def standing_rows(session: Session, event_id: str) -> list[StandingRow]:
    names = service.display_names(session, event_id)
    return [
        StandingRow(
            s.rank, s.player, s.points, s.game_points, s.wins, s.losses, s.draws, s.byes,
            dict(s.tiebreakers), s.dropped, names.get(s.player, s.player),
        )
        for s in service.standings(session, event_id)
    ]


def table_row(session: Session, match: Match, names: Mapping[str, str] | None = None, ends: datetime | None = None) -> TableRow:
    """One match as a row; `names` (display names by id) saves a query per table when given."""
    logs = session.scalars(
        select(GameLog).filter_by(event_id=match.event_id, round=match.round, table=match.number).order_by(GameLog.game)
    )
    games = None
    if match.games_a is not None and match.games_b is not None:
        games = {match.player_a: match.games_a, match.player_b: match.games_b}
    shown = names if names is not None else service.display_names(session, match.event_id)
    return TableRow(
        round=match.round,
        table=match.number,
        players=[match.player_a, match.player_b],
        games=games,
        draws=match.draws,
        source=match.source,
        reason=match.reason,
        logs=[GameRef(g.game, g.sha256, g.winner) for g in logs],
        names=[shown.get(p, p) for p in (match.player_a, match.player_b)],
        extra_minutes=match.extra_minutes or 0,
        ends_at=ends + timedelta(minutes=match.extra_minutes or 0) if ends else None,
    )


def pod_row(pod: Pod, seats: Sequence[PodSeat], names: Mapping[str, str] | None = None, ends: datetime | None = None) -> TableRow:
    places = {s.player: s.place for s in seats if s.place is not None} or None
    winners = [p for p, place in (places or {}).items() if place == 1]
    logs = [GameRef(1, pod.sha256, winners[0] if len(winners) == 1 else None)] if pod.sha256 else []
    source = cast(Source | None, pod.source)
    shown = names or {}
    return TableRow(
        pod.round, pod.number, [s.player for s in seats], None, None, source, pod.reason, logs, places,
        [shown.get(s.player, s.player) for s in seats], pod.extra_minutes or 0,
        ends + timedelta(minutes=pod.extra_minutes or 0) if ends and source != "bye" else None,
    )


def round_rows(session: Session, event: Event, round_number: int) -> list[TableRow]:
    """A round's tables: matches, or pods (byes last) for a pods event."""
    names = service.display_names(session, event.id)
    ends = service.round_ends(session, event.id, round_number)
    if event.format == "pods":
        return [pod_row(pod, seats, names, ends) for pod, seats in service.pod_tables(session, event.id, round_number)]
    return [table_row(session, m, names, ends) for m in service.matches(session, event.id, round_number)]


def round_info(session: Session, event_id: str, number: int) -> RoundInfo:
    """One round: its tables with their results, and who sits out or goes through without playing."""
    tables = pairing_rows(session, event_id, number)  # NotFound for a round not paired
    paired = next(r for r in service.rounds(session, event_id) if r.number == number)
    bracket = bracket_info(session, event_id)
    advanced = [
        pair.winner
        for r in (bracket.rounds if bracket else [])
        if r.round == number
        for pair in r.pairs
        if pair.table is None and pair.winner is not None and None in pair.players
    ]
    byes = service.assigned_byes(session, event_id, number)
    names = service.display_names(session, event_id)
    listed = {p for t in tables for p in t.players} | {*advanced, *byes, *([paired.bye] if paired.bye else [])}
    started = as_utc(paired.started_at) if paired.started_at else None
    return RoundInfo(
        number, paired.seed, paired.bye, tables, advanced, byes, started, paired.minutes,
        {p: names.get(p, p) for p in sorted(listed)},
    )


def pairing_rows(session: Session, event_id: str, round_number: int) -> list[TableRow]:
    event = service.get_event(session, event_id)
    if not 1 <= round_number <= event.rounds:
        raise service.NotFound(f"event {event_id!r} has no round {round_number} (rounds paired: {event.rounds})")
    return round_rows(session, event, round_number)


def log_rows(session: Session, event_id: str) -> list[LogEntryInfo]:
    entries = session.scalars(select(LogEntry).filter_by(event_id=event_id).order_by(LogEntry.seq))
    return [LogEntryInfo(e.seq, e.type, as_utc(e.at), e.prev, e.hash) for e in entries]


def event_info(event: Event) -> EventInfo:
    return EventInfo(
        event.id, event.name, event.ruleset, event.profile, event.best_of, event.seed, as_utc(event.created_at), event.rounds,
        event.format, event.bracket_round, event.table_size, event.points, event.late_entry,
    )


def bracket_info(session: Session, event_id: str) -> BracketInfo | None:
    """The bracket with each pair's table and winner; None for an event without one."""
    event = service.get_event(session, event_id)
    if not service.is_bracket(event):
        return None
    assert event.bracket_round is not None
    seeds = service.seeded(session, event_id)
    if event.format == "double":
        return _double_info(session, event, seeds)
    state = service.bracket(session, event)
    played = {frozenset((m.player_a, m.player_b)): m for m in service.matches(session, event_id) if m.round >= event.bracket_round}
    rounds = []
    for r in state.rounds:
        pairs = []
        for a, b in r.pairs:
            match = played.get(frozenset((a, b))) if a and b else None
            if match is None:  # a bye, or a match not yet paired
                pairs.append(BracketPair([a, b], None, a or b if (a is None) != (b is None) else None))
                continue
            won = None if match.games_a is None else match.player_a if match.games_a > (match.games_b or 0) else match.player_b
            pairs.append(BracketPair([a, b], match.number, won))
        rounds.append(BracketRound(event.bracket_round + r.number - 1, pairs))
    return BracketInfo(seeds, rounds, state.champion)


def _double_info(session: Session, event: Event, seeds: list[str]) -> BracketInfo:
    """Each event round's double-elimination matches with their nodes, then those to pair next."""
    assert event.bracket_round is not None
    state = service.double_bracket(session, event)
    rounds = []
    for k, nodes in enumerate(state.rounds):
        number = event.bracket_round + k
        tables = service.matches(session, event.id, number)
        pairs = [
            BracketPair([m.player_a, m.player_b], m.number, state.decided[node].winner if node in state.decided else None, node)
            for node, m in zip(nodes, tables, strict=True)
        ]
        rounds.append(BracketRound(number, pairs))
    paired = {node for nodes in state.rounds for node in nodes}
    upcoming = [BracketPair([a, b], None, None, node) for node, a, b in state.ready if node not in paired]
    if upcoming:
        rounds.append(BracketRound(event.bracket_round + len(state.rounds), upcoming))
    return BracketInfo(seeds, rounds, state.champion, double=True)


def export_event(session: Session, event_id: str) -> Export:
    event = service.get_event(session, event_id)
    rounds = [round_info(session, event_id, r.number) for r in service.rounds(session, event_id)]
    players = [
        PlayerInfo(p.name, p.registered_round, p.dropped_round, p.display_name, p.rating, p.paused, p.bye_round)
        for p in service.players(session, event_id)
    ]
    return Export(
        EXPORT_FORMAT, event_info(event), players, rounds, standing_rows(session, event_id), log_rows(session, event_id),
        bracket_info(session, event_id),
    )


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
    return ["seed", "player"], [[str(k), name] for k, name in enumerate(info.seeds, start=1)]


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


def bracket_text(info: BracketInfo) -> str:
    """The bracket drawn with box characters, first round on the left, the champion on the right.

    In a bracket of S places, the j-th name of column c sits on row 2^c (2j + 1) - 1 of 2S - 1 rows,
    halfway between the two names it came from. Rounds not yet known are blank; "bye" is an empty place.
    """
    if not info.rounds:
        return ""
    if info.double:
        return double_text(info)
    seeds = {name: k for k, name in enumerate(info.seeds, start=1)}
    places = 2 * len(info.rounds[0].pairs)
    columns: list[list[str]] = []
    while len(columns) < places.bit_length() - 1:  # one column per round (log2 of the places)
        c = len(columns)
        known = c < len(info.rounds)
        names = [p for pair in info.rounds[c].pairs for p in pair.players] if known else [None] * (places >> c)
        columns.append([f"{seeds[p]} {p}" if p else "bye" if known else "" for p in names])
    columns.append([f"{seeds[info.champion]} {info.champion}" if info.champion else ""])
    rows = [""] * (2 * places - 1)
    for c, labels in enumerate(columns):
        width = max(3, *(len(label) for label in labels))
        step = 1 << c
        at = {step * (2 * j + 1) - 1: label for j, label in enumerate(labels)}
        last = c == len(columns) - 1
        for row in range(len(rows)):
            label = at.get(row)
            cell = ("─ " if c and label is not None else "  " if c else "") + (label or "").ljust(width)
            if not last:
                # Which pair's span the row is in: pairs span rows [top, bottom] of this column.
                pair_top = (row + 1) // (4 * step) * (4 * step) + step - 1
                bottom = pair_top + 2 * step
                if label is not None:
                    cell += " ─" + ("┐" if row == pair_top else "┘")
                elif pair_top < row < bottom:
                    cell += "  " + ("├" if row == pair_top + step else "│")
                else:
                    cell += "   "
            rows[row] += cell
    return "\n".join(r.rstrip() for r in rows) + "\n"


@dataclass(frozen=True)
class Box:
    """One name's box in a bracket drawing (pixels)."""

    x: float
    y: float
    width: float
    height: float
    label: str
    bold: bool


@dataclass(frozen=True)
class Svg:
    """A drawing as coordinates; the template turns it into SVG, escaping every label."""

    width: float
    height: float
    boxes: list[Box]
    lines: list[str]  # polyline points, "x,y x,y ..."


@dataclass(frozen=True)
class Picture:
    """A drawing shown above a page's table: a text drawing (preformatted) or an SVG one."""

    heading: str
    text: str = ""
    svg: Svg | None = None


BOX_HEIGHT, ROW, GAP, CHAR = 22, 28, 28, 8  # SVG bracket: pixels


def bracket_picture(info: BracketInfo, heading: str = "Bracket") -> Picture:
    """The bracket as a drawing: SVG for a single elimination, the text listing for a double.

    Boxes sit as in `bracket_text`: the j-th box of column c is centred on
    ROW * 2^c * (2j + 1) / 2, halfway between the two it came from; winners are bold.
    """
    if info.double or not info.rounds:
        return Picture(heading, text=bracket_text(info))
    seeds = {name: k for k, name in enumerate(info.seeds, start=1)}
    places = 2 * len(info.rounds[0].pairs)
    columns: list[list[str | None]] = []
    labels: list[list[str]] = []
    winners: set[tuple[int, str]] = set()
    while len(columns) < places.bit_length() - 1:
        c = len(columns)
        known = c < len(info.rounds)
        columns.append([p for pair in info.rounds[c].pairs for p in pair.players] if known else [None] * (places >> c))
        labels.append([f"{seeds[p]} {p}" if p else "bye" if known else "" for p in columns[c]])
        if known:
            winners.update((c, pair.winner) for pair in info.rounds[c].pairs if pair.winner)
    columns.append([info.champion])
    labels.append([f"{seeds[info.champion]} {info.champion}" if info.champion else ""])
    width = CHAR * max(3, *(len(label) for column in labels for label in column)) + 12
    boxes, lines = [], []
    for c, column in enumerate(labels):
        x = c * (width + GAP)
        for j, label in enumerate(column):
            y = ROW * (1 << c) * (2 * j + 1) / 2
            bold = (c, columns[c][j]) in winners or c == len(labels) - 1
            boxes.append(Box(x, y - BOX_HEIGHT / 2, width, BOX_HEIGHT, label, bold))
            if c < len(labels) - 1:  # to the middle of the gap, then along to the next column's box
                to_y = ROW * (1 << (c + 1)) * (j // 2 * 2 + 1) / 2
                mid = x + width + GAP / 2
                lines.append(f"{x + width},{y} {mid},{y} {mid},{to_y} {x + width + GAP},{to_y}")
    return Picture(heading, svg=Svg(len(labels) * (width + GAP), ROW * places, boxes, lines))


def double_text(info: BracketInfo) -> str:
    """A double elimination, round by round: each match's node, players (with seeds) and winner."""
    seeds = {name: k for k, name in enumerate(info.seeds, start=1)}

    def shown(player: str | None) -> str:
        return f"{seeds[player]} {player}" if player else "bye"

    width = max((len(shown(p)) for r in info.rounds for pair in r.pairs for p in pair.players), default=3)
    lines = []
    for r in info.rounds:
        lines.append(f"round {r.round}" + ("" if any(p.table for p in r.pairs) else " (next)"))
        for pair in r.pairs:
            a, b = (shown(p).ljust(width) for p in pair.players)
            won = f"  -> {pair.winner}" if pair.winner else ""
            lines.append(f"  {pair.node or '':>5}  {a}  vs  {b}{won}")
    return "\n".join(lines) + "\n"


TEXT_COLUMNS = {"player", "player_a", "player_b", "source", "reason", "seats", "places"}


def to_html(
    title: str, caption: str, event: EventInfo, header: list[str], cells: list[list[str]], pictures: Sequence[Picture] = ()
) -> str:
    """One printable static page from `table_page.html.j2`; the template escapes every value."""
    return pages.render(
        "table_page.html.j2", title=title, caption=caption, event=event, header=header, cells=cells, pictures=pictures,
        text_columns=TEXT_COLUMNS, printed=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), zip=zip,
    )
