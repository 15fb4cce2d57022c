"""Drawings: brackets as text (terminal) and as coordinates for an SVG template.

Python computes where every box and line goes; `templates/pictures.html.j2`
turns the coordinates into SVG and escapes every label.
"""

from __future__ import annotations

from dataclasses import dataclass

from schemas.tournament import BracketInfo


def seed_label(info: BracketInfo, player: str) -> str:
    """`3 José Ramírez`: a player's seed and display name."""
    return f"{info.seeds.index(player) + 1} {info.names.get(player, player)}"


def bracket_text(info: BracketInfo) -> str:
    """The bracket drawn with box characters, first round on the left, the champion on the right.

    In a bracket of S places, the j-th name of column c sits on row 2^c (2j + 1) - 1 of 2S - 1 rows,
    halfway between the two names it came from. Rounds not yet known are blank; "bye" is an empty place.
    """
    if not info.rounds:
        return ""
    if info.double:
        return double_text(info)
    places = 2 * len(info.rounds[0].pairs)
    columns: list[list[str]] = []
    while len(columns) < places.bit_length() - 1:  # one column per round (log2 of the places)
        c = len(columns)
        known = c < len(info.rounds)
        names = [p for pair in info.rounds[c].pairs for p in pair.players] if known else [None] * (places >> c)
        columns.append([seed_label(info, p) if p else "bye" if known else "" for p in names])
    columns.append([seed_label(info, info.champion) if info.champion else ""])
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
    places = 2 * len(info.rounds[0].pairs)
    columns: list[list[str | None]] = []
    labels: list[list[str]] = []
    winners: set[tuple[int, str]] = set()
    while len(columns) < places.bit_length() - 1:
        c = len(columns)
        known = c < len(info.rounds)
        columns.append([p for pair in info.rounds[c].pairs for p in pair.players] if known else [None] * (places >> c))
        labels.append([seed_label(info, p) if p else "bye" if known else "" for p in columns[c]])
        if known:
            winners.update((c, pair.winner) for pair in info.rounds[c].pairs if pair.winner)
    columns.append([info.champion])
    labels.append([seed_label(info, info.champion) if info.champion else ""])
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

    def shown(player: str | None) -> str:
        return seed_label(info, player) if player else "bye"

    width = max((len(shown(p)) for r in info.rounds for pair in r.pairs for p in pair.players), default=3)
    lines = []
    for r in info.rounds:
        lines.append(f"round {r.round}" + ("" if any(p.table for p in r.pairs) else " (next)"))
        for pair in r.pairs:
            a, b = (shown(p).ljust(width) for p in pair.players)
            won = f"  -> {info.names.get(pair.winner, pair.winner)}" if pair.winner else ""
            lines.append(f"  {pair.node or '':>5}  {a}  vs  {b}{won}")
    return "\n".join(lines) + "\n"
