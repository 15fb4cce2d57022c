"""Printables for the event day: the alphabetical pairings list, and match slips (several to an A4 sheet).

Both take a round as `export.round_info` builds it; the slips page comes from
`slips.html.j2`, one `slip` block per table so a page can extend it (a
player's sign-in code, say) without copying it.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from schemas.tournament import EventInfo, RoundInfo
from tournament.output import pages
from tournament.output.render import clock_text, shown_names

BY_NAME_COLUMNS = ("name", "table", "opponent", "seat")


def sort_key(name: str) -> tuple[str, str]:
    """Alphabetical as people expect: accents and case set aside first (Álvaro with the A's), then exactly."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()
    return folded, name


def by_name_cells(info: RoundInfo, pods: bool) -> tuple[list[str], list[list[str]]]:
    """One row per player, alphabetical: name, table, opponent(s), seat (1 is listed first, or plays first in a pod)."""
    rows: list[list[str]] = []
    for t in info.tables:
        names = shown_names(t)
        if t.source == "bye":  # a pods bye: a table of one
            rows.append([names[0], "bye", "", ""])
            continue
        for seat, name in enumerate(names, start=1):
            others = [n for k, n in enumerate(names, start=1) if k != seat]
            rows.append([name, str(t.table), (", " if pods else "").join(others), str(seat)])
    for player in [*([info.bye] if info.bye else []), *info.byes, *info.advanced]:
        rows.append([info.names.get(player, player), "bye", "", ""])
    rows.sort(key=lambda r: sort_key(r[0]))
    return list(BY_NAME_COLUMNS), rows


def slip_context(event: EventInfo, info: RoundInfo) -> dict[str, Any]:
    """What `slips.html.j2` (or a page extending it) is rendered with."""
    slips = [t for t in info.tables if t.source != "bye"]
    return {
        "event": event, "round": info, "slips": slips, "pods": event.format == "pods",
        "games": range(1, event.best_of + 1), "ends": {t.table: clock_text(t.ends_at) for t in slips},
        "shown_names": shown_names,
    }


def slips_html(event: EventInfo, info: RoundInfo) -> str:
    """A round's match slips as one printable page (the template escapes every name)."""
    return pages.render("slips.html.j2", **slip_context(event, info))
