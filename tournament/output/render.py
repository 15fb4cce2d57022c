"""Rows as people read them: cells for tables, CSV, a rich table for the terminal, a printable HTML page.

Renderers take the Structs built by `tournament.service.export` and know nothing of the database.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from schemas.tournament import BracketInfo, EventInfo, StandingRow, TableRow
from tournament.formats import brackets
from tournament.output import pages
from tournament.output.pictures import Picture

if TYPE_CHECKING:
    from rich.table import Table

FORMATS = ("table", "csv", "json", "html")
TERMINAL_ROWS = 100  # rows a terminal table shows by default (`--limit`): rich draws 10,000 rows in seconds

STANDING_COLUMNS = ("rank", "player", "points", "game_points", "wins", "losses", "draws", "byes")
PAIRING_COLUMNS = ("table", "player_a", "player_b", "result", "source", "reason")


# The TCG tiebreakers are fractions, printed as percentages; the chess ones are match points.
PERCENTAGES = {"omw", "gw", "ogw", "owp", "oowp"}


def numbers(values: Sequence[float | None], percent: bool = False) -> list[str]:
    """A column's numbers written alike: percentages with two decimals, others with as many decimals
    as the column needs (at most two), so 1.5 and 2 read 1.5 and 2.0; no value (a GW% without a game) is "—"."""
    if percent:
        return ["—" if v is None else f"{100 * v:.2f}" for v in values]
    decimals = max((next((d for d in range(3) if abs(round(v, d) - v) < 1e-9), 2) for v in values if v is not None), default=0)
    return ["—" if v is None else f"{v:.{decimals}f}" for v in values]


def standing_cells(rows: Sequence[StandingRow]) -> tuple[list[str], list[list[str]]]:
    """Column names and text cells, each number column written alike (`numbers`); dropped players marked."""
    tiebreakers = list(rows[0].tiebreakers) if rows else []
    header = [*STANDING_COLUMNS, *(f"{t}%" if t in PERCENTAGES else t for t in tiebreakers), "dropped"]
    columns = [
        numbers([r.points for r in rows]),
        numbers([r.game_points for r in rows]),
        *(numbers([r.tiebreakers[t] for r in rows], t in PERCENTAGES) for t in tiebreakers),
    ]
    cells = [
        [
            str(r.rank), r.name or r.player, columns[0][k], columns[1][k], str(r.wins), str(r.losses), str(r.draws),
            str(r.byes), *(column[k] for column in columns[2:]), "yes" if r.dropped else "",
        ]
        for k, r in enumerate(rows)
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


def zone_name() -> str:
    """The venue's time zone, as the pages name it once: the machine's (`TZ` changes it), like `clock_text`."""
    return datetime.now().astimezone().tzname() or "local time"


POD_COLUMNS = ("table", "seats", "places", "source", "reason")


# Letters and the like that no accent takes off: "Søren" and "Soren" fold alike, as "Weiß" and "Weiss".
FOLDED = str.maketrans({"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"})


def folded(name: str) -> str:
    """A name as namesakes are compared: accents, case and spacing set aside ("Ann LEE", "ann  Lée")."""
    text = unicodedata.normalize("NFKD", name.casefold().translate(FOLDED))
    return " ".join("".join(c for c in text if not unicodedata.combining(c)).split())


@dataclass(frozen=True)
class Named:
    """Someone to tell apart: `key` (a person's or a player's id) only says whose label is whose; `hint` is what
    tells them from a namesake (a person's first event, an entry's person's label), None for none."""

    key: str
    name: str
    hint: str | None = None


def told_apart(named: Sequence[Named]) -> dict[str, str]:
    """The one labeller (T-185, T-235): for each of `named` (in the order they came: made, registered) whose name
    another has too (`folded`), a few words a person reads, never an id: their hint, with a letter where two
    namesakes share it ("Spring Open A", "Spring Open B"), or with none their place among the namesakes ("2nd
    entry"). The others have no label: their name says who they are."""
    groups: dict[str, list[Named]] = {}
    for one in named:
        groups.setdefault(folded(one.name), []).append(one)
    found: dict[str, str] = {}
    for group in (g for g in groups.values() if len(g) > 1):
        said: dict[str, list[str]] = {}
        for place, one in enumerate(group, start=1):
            said.setdefault(one.hint or f"{ordinal(place)} entry", []).append(one.key)
        for text, holders in said.items():
            for n, key in enumerate(holders):
                found[key] = text if len(holders) == 1 else f"{text} {chr(ord('A') + n) if n < 26 else n + 1}"
    return found


def labelled(name: str, label: str | None) -> str:
    """A name as pages and files show it: "Ann Lee (Spring Open)" with a label, the name alone without."""
    return f"{name} ({label})" if label else name


def shown_names(row: TableRow) -> list[str]:
    """A row's display names (its ids when it carries none)."""
    return row.names or row.players


def ranked(row: TableRow) -> list[tuple[int, str]]:
    """(place, name), best first (seat order among equals); empty before the places are reported."""
    if row.places is None:
        return []
    places = row.places
    return sorted(((places[p], name) for p, name in zip(row.players, shown_names(row), strict=True)), key=lambda p: p[0])


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def score_words(players: Sequence[str], names: Mapping[str, str], games: Mapping[str, int] | None, draws: int = 0,
                places: Mapping[str, int] | None = None) -> str:
    """A result as people say it, with names: "Hiroshi Tanaka wins 2-1", "Draw, 1-1 (1 drawn game)",
    "Intentional draw", or a pod's "1st Ann Lee, 2nd Bob"."""
    name = [names.get(p, p) for p in players]
    if places is not None:
        ranked = sorted(zip(players, name, strict=True), key=lambda p: places[p[0]])
        return ", ".join(f"{ordinal(places[p])} {n}" for p, n in ranked)
    if games is None:
        return ""
    won = [games.get(p, 0) for p in players]
    drawn = f" ({draws} drawn game{'s' if draws != 1 else ''})" if draws else ""
    if len(players) != 2:
        return ", ".join(f"{n} {w}" for n, w in zip(name, won, strict=True)) + drawn
    if won[0] == won[1]:
        return "Intentional draw" if won[0] == 0 and not draws else f"Draw, {won[0]}-{won[1]}{drawn}"
    first = 0 if won[0] > won[1] else 1
    return f"{name[first]} wins {won[first]}-{won[1 - first]}{drawn}"


def places_text(row: TableRow) -> str:
    """`Ann Lee 1, Cat 2, Bob 2`: the places, best first (seat order among equals)."""
    return ", ".join(f"{name} {place}" for place, name in ranked(row))


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


def bracket_places(info: BracketInfo) -> dict[str, str]:
    """Each bracket player's place once they are out (`3-4`: the losing semifinalists), `1` for the champion.

    Single elimination: the losers of a round of n matches share places n + 1
    to 2n. Double elimination: the grand final's loser is 2nd; then the
    losers' rounds, last first, each place shared by that round's losers.
    """
    def span(start: int, count: int) -> str:
        return str(start) if count == 1 else f"{start}-{start + count - 1}"

    placed = {info.champion: "1"} if info.champion else {}
    decided = [pair for r in info.rounds for pair in r.pairs if pair.table is not None and pair.winner]
    if info.double:
        nodes = brackets.double_elimination_nodes(brackets.bracket_size(len(info.seeds)))
        counts = Counter(n.id.split("-")[0] for n in nodes if n.id.startswith("L"))
        ranges, start = {}, 3
        for side in sorted(counts, key=lambda k: -int(k[1:])):
            ranges[side], start = span(start, counts[side]), start + counts[side]
        for pair in decided:
            loser = next(p for p in pair.players if p != pair.winner)
            side = (pair.node or "").split("-")[0]
            if side == "GF2" or (side == "GF" and pair.winner == pair.players[0]):
                placed[loser or ""] = "2"
            elif side in ranges:
                placed[loser or ""] = ranges[side]
    else:
        for r in info.rounds:
            for pair in r.pairs:
                if pair in decided:
                    placed[next(p for p in pair.players if p != pair.winner) or ""] = span(len(r.pairs) + 1, len(r.pairs))
    return placed


def place_cells(info: BracketInfo) -> tuple[list[str], list[list[str]]]:
    """The bracket's places, best first; players still in it last, as "in play"."""
    seeds = {p: k for k, p in enumerate(info.seeds, start=1)}
    places = bracket_places(info)
    order = sorted(info.seeds, key=lambda p: (int(places[p].split("-")[0]) if p in places else len(seeds) + 1, seeds[p]))
    return ["place", "seed", "player"], [[places.get(p, "in play"), str(seeds[p]), info.names.get(p, p)] for p in order]


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
SHORT = {"rank": "#", "points": "pts", "game_points": "gpts", "wins": "W", "losses": "L", "draws": "D", "dropped": "drop",
         "buchholz": "buch", "buchholz_cut1": "buch-1", "sonneborn_berger": "SB"}
# The columns a narrow terminal may leave out, least important first; the others are always shown.
OPTIONAL = ("reason", "source", "ends", "byes", "dropped", "game_points", "oowp%", "ogw%", "sonneborn_berger",
            "buchholz_cut1", "gw%", "draws")
FOLD_WIDTH = 12  # a text column (a name) folds onto more lines down to this width


def fit(header: list[str], cells: list[list[str]], width: int) -> tuple[list[str], list[list[str]], list[str]]:
    """The columns that fit `width` terminal cells, every number whole: text columns may fold to FOLD_WIDTH;
    past that, optional columns go, first those with the same value in every row, then by `OPTIONAL`."""
    from rich.cells import cell_len  # rich is imported only when a table is drawn

    def need(column: int) -> int:
        name = header[column]
        widest = max([cell_len(SHORT.get(name, name)), *(cell_len(row[column]) for row in cells)])
        return (min(widest, FOLD_WIDTH) if name in TEXT_COLUMNS else widest) + 3  # padding and a rule

    kept = list(range(len(header)))
    optional = [k for name in OPTIONAL for k in kept if header[k] == name]
    optional.sort(key=lambda k: len({row[k] for row in cells}) > 1)  # uninformative first, then in OPTIONAL's order
    dropped = []
    while sum(need(k) for k in kept) + 1 > width and optional:
        k = optional.pop(0)
        kept.remove(k)
        dropped.append(header[k])
    return [header[k] for k in kept], [[row[k] for k in kept] for row in cells], dropped


def to_rich(title: str, header: list[str], cells: list[list[str]], width: int = 80) -> Table:
    """A table for a terminal `width` cells wide (`fit`); a caption names any columns left out."""
    from rich.cells import cell_len
    from rich.table import Table

    header, cells, dropped = fit(header, cells, width)
    caption = f"not shown at {width} columns: {', '.join(dropped)} (--format csv or html has them)" if dropped else None
    table = Table(title=title, caption=caption)
    for name in header:
        text = name in TEXT_COLUMNS
        table.add_column(
            SHORT.get(name, name), justify="left" if text else "right", no_wrap=not text, overflow="fold",
            min_width=None if text else max([cell_len(SHORT.get(name, name)), *(cell_len(row[header.index(name)]) for row in cells)]),
        )
    for row in cells:
        table.add_row(*row)
    return table


TEXT_COLUMNS = {"player", "player_a", "player_b", "source", "reason", "seats", "places", "name", "opponent"}

# Column headings in words for pages people read (CSV and JSON keep the field names).
HEADINGS = {
    "rank": "Rank", "player": "Player", "points": "Points", "game_points": "Game points", "wins": "Wins",
    "losses": "Losses", "draws": "Draws", "byes": "Byes", "dropped": "Dropped", "table": "Table",
    "player_a": "Player", "player_b": "Opponent", "opponent": "Opponent", "result": "Result", "source": "Result from", "reason": "Reason",
    "seats": "Seats, first to last", "places": "Places", "ends": "Ends", "seed": "Seed", "place": "Place",
    "omw%": "Opponents' match win %", "gw%": "Game win %", "ogw%": "Opponents' game win %",
    "owp%": "Opponents' win %", "oowp%": "Opponents' opponents' win %", "opp": "Opponents' points a round",
    "buchholz": "Buchholz", "buchholz_cut1": "Buchholz cut 1", "sonneborn_berger": "Sonneborn-Berger",
}

Cells = tuple[str, list[str], list[list[str]]]  # a table: caption, column names, text cells


def to_html(
    title: str, caption: str, event: EventInfo, header: list[str], cells: list[list[str]], pictures: Sequence[Picture] = (),
    more: Sequence[Cells] = (),
) -> str:
    """One printable static page from `table_page.html.j2`: drawings, the table, then `more` tables.

    The template escapes every value and heads each column in words (`HEADINGS`).
    """
    return pages.render(
        "table_page.html.j2", title=title, event=event, pictures=pictures, tables=[(caption, header, cells), *more],
        text_columns=TEXT_COLUMNS, headings=HEADINGS, zip=zip,
    )
