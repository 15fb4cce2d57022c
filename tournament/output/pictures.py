"""Drawings: brackets as text (terminal) and as coordinates for an SVG template.

Python computes where every box and line goes; `templates/pictures.html.j2`
turns the coordinates into SVG and escapes every label.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from schemas.tournament import BracketInfo, BracketPair
from tournament.formats import brackets


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
        columns.append([f"{seeds[p]} {info.names.get(p, p)}" if p else "bye" if known else "" for p in names])
    champion = info.champion
    columns.append([f"{seeds[champion]} {info.names.get(champion, champion)}" if champion else ""])
    rows = [""] * (2 * places - 1)
    for c, labels in enumerate(columns):
        width = max(3, *(cells(label) for label in labels))
        step = 1 << c
        at = {step * (2 * j + 1) - 1: label for j, label in enumerate(labels)}
        last = c == len(columns) - 1
        for row in range(len(rows)):
            label = at.get(row)
            cell = ("─ " if c and label is not None else "  " if c else "") + (label or "") + " " * (width - cells(label or ""))
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
class Text:
    """One piece of text in a drawing; `kind` is its style (the template's classes)."""

    x: float
    y: float
    text: str
    kind: str  # heading, table, seed, name, winner, score, pending, champion
    anchor: str = "start"


@dataclass(frozen=True)
class Box:
    """A match (or the champion): a rectangle and the texts drawn inside it."""

    x: float
    y: float
    width: float
    height: float
    texts: list[Text]
    kind: str = "match"  # match, champion


@dataclass(frozen=True)
class Svg:
    """A drawing as coordinates; the template turns it into SVG, escaping every text."""

    width: float
    height: float
    boxes: list[Box]
    lines: list[str]  # connectors as polyline points, "x,y x,y ..."
    texts: list[Text]  # outside the boxes: round headings, table numbers


@dataclass(frozen=True)
class Picture:
    """A drawing shown above a page's table: a text drawing (preformatted) or an SVG one."""

    heading: str
    text: str = ""
    svg: Svg | None = None


# Pixels. Names are drawn in a monospace font of FONT px, so a name's width is known from its
# characters: CELL px each, two cells for a wide one (CJK, emoji), none for a combining mark.
FONT, CELL = 13, 8.2
LINE = 22  # one player's row in a match box
MATCH = 2 * LINE
SLOT = MATCH + 30  # a first-round match and the space below it (the next table number sits there)
GAP = 40  # between columns, for the connectors
TOP = 34  # the round headings
PAD = 6


def cells(text: str) -> int:
    """Terminal-style width: wide (East Asian wide or fullwidth, emoji) 2, combining marks 0, others 1."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or ch in "\u200d\ufe0f":
            continue
        width += 2 if unicodedata.east_asian_width(ch) in "WF" or ord(ch) >= 0x1F000 else 1
    return width


@dataclass(frozen=True)
class _Match:
    id: str
    column: int
    y: float  # centre
    rows: list[tuple[str, str, str, str]]  # (seed, text, kind, score) for the top and bottom place
    table: int | None
    feeds: list[str]  # the matches whose winners play here


def round_name(rounds_left: int, places: int) -> str:
    """Final, Semifinals, Quarterfinals, then Round of 16, 32 ..."""
    return {1: "Final", 2: "Semifinals", 3: "Quarterfinals"}.get(rounds_left, f"Round of {places}")


def bracket_picture(info: BracketInfo, heading: str = "Bracket") -> Picture:
    """The bracket as an SVG drawing, first round on the left, the champion on the right.

    Each match is a box with its two players (seed, display name, games won;
    the winner bold), the table number above it and the round's name over
    its column. A single elimination is one tree: the j-th match of column c
    is centred on SLOT * 2^c * (j + 1/2), halfway between the two it comes
    from. A double elimination draws the winners' tree, the losers' tree
    below it (its rounds in pairs: one where the winners' side's losers drop
    in, then one among its own players), then the grand final and its reset.
    Each column is as wide as its widest name (`cells`).
    """
    if not info.rounds:
        return Picture(heading, text="")
    if info.double:
        matches, headings = _double_layout(info)
    else:
        matches, headings = _single_layout(info)
    return Picture(heading, svg=_draw(info, matches, headings))


def _row(info: BracketInfo, pair: BracketPair | None, k: int, pending: str) -> tuple[str, str, str, str]:
    """One place of a match: (seed, name, kind, games won)."""
    seeds = {p: n for n, p in enumerate(info.seeds, start=1)}
    if pair is None:
        return "", pending, "pending", ""
    player = pair.players[k]
    if player is None:
        return "", "bye", "pending", ""
    score = str(pair.games[k]) if pair.games else ""
    kind = "winner" if pair.winner == player and pair.table is not None else "name"
    return str(seeds.get(player, "")), info.names.get(player, player), kind, score


def _single_layout(info: BracketInfo) -> tuple[list[_Match], list[tuple[int, str]]]:
    places = 2 * len(info.rounds[0].pairs)
    depth = places.bit_length() - 1
    matches = []
    for c in range(depth):
        pairs = info.rounds[c].pairs if c < len(info.rounds) else [None] * (places >> (c + 1))
        for j, pair in enumerate(pairs):
            feeds = [f"{c - 1}-{2 * j}", f"{c - 1}-{2 * j + 1}"] if c else []
            rows = [_row(info, pair, k, "") for k in (0, 1)]  # a later round's places: empty until known
            y = TOP + SLOT * (1 << c) * (j + 0.5)
            matches.append(_Match(f"{c}-{j}", c, y, rows, pair.table if pair else None, feeds))
    headings = [(c, round_name(depth - c, places >> c)) for c in range(depth)]
    return matches, headings


def _double_layout(info: BracketInfo) -> tuple[list[_Match], list[tuple[int, str]]]:
    size = brackets.bracket_size(len(info.seeds))
    nodes = brackets.double_elimination_nodes(size)
    pairs = {pair.node: pair for r in info.rounds for pair in r.pairs if pair.node}
    winners_rounds = max(int(n.id[1:].split("-")[0]) for n in nodes if n.id.startswith("W"))
    losers_rounds = max((int(n.id[1:].split("-")[0]) for n in nodes if n.id.startswith("L")), default=0)
    tree_height = SLOT * size / 2
    seeds = {str(k): p for k, p in enumerate(info.seeds, start=1)}
    matches: list[_Match] = []
    where: dict[str, tuple[int, float]] = {}
    for node in nodes:
        side, number, index = node.id[0], 0, 0
        if node.id[0] in "WL":
            number, index = (int(part) for part in node.id[1:].split("-"))
        if side == "W":
            column, y = number - 1, TOP + SLOT * (1 << (number - 1)) * (index - 0.5)
        elif side == "L":
            level = (number + 1) // 2  # losers' rounds halve every other round
            column, y = number - 1, TOP + tree_height + SLOT / 2 + SLOT * (1 << (level - 1)) * (index - 0.5)
        else:  # the grand final between the two finals, its reset beside it
            column = max(winners_rounds, losers_rounds) + (node.id == "GF2")
            y = (where[f"W{winners_rounds}-1"][1] + where[f"L{losers_rounds}-1"][1]) / 2 if losers_rounds else TOP + SLOT
        where[node.id] = (column, y)
        pair = pairs.get(node.id)
        rows = []
        for k, (how, source) in enumerate(node.inputs):
            if pair is not None:
                rows.append(_row(info, pair, k, ""))
            elif how == "seed":
                player = seeds.get(source)
                rows.append((source, info.names.get(player, player), "name", "") if player else ("", "bye", "pending", ""))
            elif node.id == "GF2" and info.champion and "GF" in pairs:
                rows.append(("", "not needed", "pending", ""))
            else:
                rows.append(("", f"{'winner' if how == 'win' else 'loser'} of {source}", "pending", ""))
        feeds = [source for how, source in node.inputs if how == "win"]
        matches.append(_Match(node.id, column, y, rows, pair.table if pair else None, feeds))
    headings = [(c, f"Winners' round {c + 1}" if c < winners_rounds - 1 else "Winners' final") for c in range(winners_rounds)]
    headings += [(-c - 1, f"Losers' round {c + 1}" if c < losers_rounds - 1 else "Losers' final") for c in range(losers_rounds)]
    final = max(winners_rounds, losers_rounds)
    headings += [(final, "Grand final"), (final + 1, "Reset")]
    return matches, headings


def _draw(info: BracketInfo, matches: list[_Match], headings: list[tuple[int, str]]) -> Svg:
    """Boxes, connectors and texts at pixel coordinates; each column as wide as its widest text."""
    seed_width = CELL * max(1, len(str(len(info.seeds)))) + PAD
    score_width = CELL * 2 + PAD
    champion = info.names.get(info.champion, info.champion) if info.champion else ""
    last = max(m.column for m in matches) + 1  # the champion's column
    widest = [0] * (last + 1)
    for m in matches:
        widest[m.column] = max(widest[m.column], *(cells(text) for _, text, _, _ in m.rows))
    for column, name in [*headings, (last, "Champion")]:  # negative columns: the losers' tree's headings
        at = column if column >= 0 else -column - 1
        widest[at] = max(widest[at], cells(name))
    widest[last] = max(widest[last], cells(champion))
    widths = [PAD + seed_width + CELL * w + PAD + score_width for w in widest]
    left = [sum(widths[:c]) + GAP * c for c in range(last + 1)]
    by_id = {m.id: m for m in matches}
    boxes, lines, texts = [], [], []
    losers_top = min((m.y for m in matches if m.id.startswith("L")), default=None)
    for column, name in [*headings, (last, "Champion")]:
        y = TOP - 14 if column >= 0 else (losers_top or 0) - MATCH / 2 - 24
        texts.append(Text(left[column if column >= 0 else -column - 1], y, name, "heading"))
    for m in matches:
        x, top, width = left[m.column], m.y - MATCH / 2, widths[m.column]
        inside = []
        for k, (seed, text, kind, score) in enumerate(m.rows):
            base = top + LINE * k + LINE / 2 + FONT * 0.35
            if seed:
                inside.append(Text(x + PAD + seed_width - PAD, base, seed, "seed", "end"))
            if text:
                inside.append(Text(x + PAD + seed_width, base, text, kind))
            if score:
                inside.append(Text(x + width - PAD, base, score, "score", "end"))
        boxes.append(Box(x, top, width, MATCH, inside))
        above = [m.id] if info.double else []  # a double's nodes are named, as its pending places say
        above += [f"table {m.table}"] if m.table is not None else []
        if above:
            texts.append(Text(x, top - 4, ", ".join(above).capitalize() if not info.double else ", ".join(above), "table"))
        for k, feed in enumerate(m.feeds):
            source = by_id[feed]
            start_x, start_y = left[source.column] + widths[source.column], source.y
            to_y = top + LINE * (k + 0.5) if len(m.feeds) == 2 else m.y
            mid = x - GAP / 2
            lines.append(f"{start_x},{start_y} {mid},{start_y} {mid},{to_y} {x},{to_y}")
    final = max(matches, key=lambda m: (m.column, m.id == "GF2"))  # the final, or the grand final's reset
    right = left[last]
    crowned = [Text(right + PAD, final.y + FONT * 0.35, champion, "champion")] if champion else []
    boxes.append(Box(right, final.y - LINE / 2, widths[last] - seed_width - score_width, LINE, crowned, "champion"))
    lines.append(f"{left[final.column] + widths[final.column]},{final.y} {right},{final.y}")
    height = max(m.y for m in matches) + MATCH / 2 + PAD
    return Svg(right + widths[last] - seed_width - score_width + PAD, height, boxes, lines, texts)


def double_text(info: BracketInfo) -> str:
    """A double elimination, round by round: each match's node, players (with seeds) and winner."""
    seeds = {name: k for k, name in enumerate(info.seeds, start=1)}

    def shown(player: str | None) -> str:
        return f"{seeds[player]} {info.names.get(player, player)}" if player else "bye"

    width = max((cells(shown(p)) for r in info.rounds for pair in r.pairs for p in pair.players), default=3)
    lines = []
    for r in info.rounds:
        lines.append(f"round {r.round}" + ("" if any(p.table for p in r.pairs) else " (next)"))
        for pair in r.pairs:
            a, b = (shown(p) + " " * (width - cells(shown(p))) for p in pair.players)
            won = f"  -> {info.names.get(pair.winner, pair.winner)}" if pair.winner else ""
            lines.append(f"  {pair.node or '':>5}  {a}  vs  {b}{won}")
    return "\n".join(lines) + "\n"
