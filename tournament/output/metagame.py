"""The metagame picture: one bar a kind of deck (its players, the top cut's share darker) with its match record.

Python places every bar and label; `templates/meta.svg.j2` draws them with
presentation attributes (no style element: the web's CSP allows none) and
escapes every label; `meta.html.j2` is the printable page around it, and
`web/meta.html.j2` the web's.
"""

from __future__ import annotations

from dataclasses import dataclass

from schemas.tournament import DeckEntry, DeckKind, EventInfo, Metagame
from tournament.output import pages
from tournament.output.render import to_csv

WIDTH = 480  # the drawing's own units; it scales to the page (a 390-px phone shows it at about 0.75)
LEFT, ROW = 8, 86  # margin, one kind's height (its label, its bar, its record)


@dataclass(frozen=True)
class Bar:
    y: int
    kind: str
    width: float
    cut: float
    players: str
    record: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    bars: list[Bar]
    title: str


def record_text(kind: DeckKind) -> str:
    """`58% of matches won (7-5-0)`, or that no match against another kind is reported yet."""
    if kind.win_rate is None:
        return "no match against another kind yet"
    return f"{round(kind.win_rate * 100)}% match wins ({kind.wins}-{kind.losses}-{kind.draws})"


def players_text(kind: DeckKind) -> str:
    cut = f", {kind.top_cut} in the top cut" if kind.top_cut else ""
    return f"{kind.players} player{'s' if kind.players != 1 else ''}{cut}"


def chart(meta: Metagame) -> Chart:
    most = max((k.players for k in meta.kinds), default=1)
    scale = (WIDTH - 2 * LEFT) / most
    bars = [
        Bar(28 + n * ROW, k.kind, k.players * scale, k.top_cut * scale, players_text(k), record_text(k))
        for n, k in enumerate(meta.kinds)
    ]
    title = f"{meta.name}: {meta.players} players by {meta.facet}"
    return Chart(WIDTH, 28 + len(bars) * ROW + (24 if meta.top_cut else 0), bars, title)


def to_svg(meta: Metagame) -> str:
    """The picture alone, as an SVG file."""
    return pages.render("meta.svg.j2", chart=chart(meta), meta=meta, standalone=True)


def to_html(meta: Metagame, event: EventInfo) -> str:
    """The printable page: the picture, then the table of kinds."""
    return pages.render(
        "meta.html.j2", chart=chart(meta), meta=meta, event=event, record=record_text, title=f"{meta.name}: metagame", standalone=False
    )


def lists_csv(entries: list[DeckEntry]) -> str:
    """Every list as CSV: player, name, verdict, kind, summary, sha256, list (the text, in one cell)."""
    header = ["player", "name", "verdict", "kind", "summary", "sha256", "list"]
    return to_csv(header, [[e.player, e.name, e.verdict, e.kind or "", e.summary, e.sha256 or "", e.text or ""] for e in entries])
