"""The files the CLI writes with `--format csv|json|html` and the organiser's page offers as downloads:
one function per file, so both doors give the same bytes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import msgspec

from schemas.tournament import EventInfo, RoundInfo
from tournament.output import pictures, printables, render

if TYPE_CHECKING:  # a type only: the output layer reads no database
    from tournament.storage.viewcache import Standings

FORMATS = ("csv", "json", "html")


def standings_file(view: Standings, fmt: str, people: Mapping[str, str]) -> str:
    """The standings as csv, json or html (after a top cut, the html shows the Swiss standings at the cut and the places apart).
    `people`: each person's name as people read it (told apart from a namesake's: T-185), the CSV's `person` column."""
    info, rows, drawn = view.event, view.rows, view.bracket
    header, cells = render.standing_cells(rows)
    if fmt == "json":
        return msgspec.json.encode(rows).decode()
    if fmt == "csv":
        return render.to_csv([*header[:2], "person", *header[2:]], [[*c[:2], people.get(r.person or "", ""), *c[2:]] for r, c in zip(rows, cells, strict=True)])
    drawings = [pictures.bracket_picture(drawn)] if drawn else []
    drawings += [pictures.Picture(f"Round {n}", text=render.pod_text(tables)) for n, tables in enumerate(view.pods, start=1)]
    title = f"{info.name}: standings after round {info.rounds}"
    if view.swiss is not None and drawn is not None and info.bracket_round is not None:
        caption = f"Swiss standings at the cut, after round {info.bracket_round - 1}"
        places = ("Top cut: places", *render.place_cells(drawn))
        return render.to_html(title, caption, info, *render.standing_cells(view.swiss), drawings, [places])
    return render.to_html(title, "Standings", info, header, cells, drawings)


def round_cells(info: RoundInfo, event: EventInfo, by: str = "table") -> tuple[list[str], list[list[str]]]:
    """A round's pairings as a table's header and cells, by table or alphabetically by name."""
    if by == "name":
        return printables.by_name_cells(info, event.format == "pods")
    return render.pairing_cells(info.tables, info.bye, pods=event.format == "pods", advanced=[*info.byes, *info.advanced], names=info.names)


def round_file(info: RoundInfo, event: EventInfo, fmt: str, by: str = "table") -> str:
    """A round's pairings as csv, json or html."""
    if fmt == "json":
        return msgspec.json.encode(info).decode()
    header, cells = round_cells(info, event, by)
    if fmt == "csv":
        return render.to_csv(header, cells)
    caption = f"Pairings, round {info.number}" + (", by name" if by == "name" else "")
    return render.to_html(f"{event.name}: round {info.number}", caption, event, header, cells)
