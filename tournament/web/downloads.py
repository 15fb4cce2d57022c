"""The organiser's downloads: every file the CLI exports, made by the same functions (`output/files.py`,
`export`, `printables`), as attachments: the whole event (`export`), the standings and a round's pairings
as csv, json or html, and a round's match slips to print. An attachment is saved, never shown inside the
app, so the printable pages keep their own inline style outside the app's Content-Security-Policy."""

from __future__ import annotations

import re
from typing import Any

import msgspec
from litestar import Request, Response, get
from litestar.params import FromPath, FromQuery

from tournament import service
from tournament.output import files, printables
from tournament.service import export, history
from tournament.web.auth import organiser
from tournament.web.common import reading

TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json", "html": "text/html; charset=utf-8"}
NAMES = re.compile(r"(export\.json|standings\.(csv|json|html)|round\.(csv|json|html)|slips\.html)")


def _file(name: str, text: str) -> Response[bytes]:
    kind = TYPES[name.rpartition(".")[2]]
    return Response(text.encode(), media_type=kind, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@get("/admin/e/{event_id:str}/files/{name:str}", sync_to_thread=True, include_in_schema=False, action="view")
def download(request: Request[Any, Any, Any], event_id: FromPath[str], name: FromPath[str], round: FromQuery[int | None] = None) -> Response[bytes]:
    """`export.json`, `standings.csv|json|html`, `round.csv|json|html` and `slips.html` (`?round=N`, default the current one)."""
    organiser(request)
    if not NAMES.fullmatch(name):
        raise service.NotFound(f"no file {name!r}: export.json, standings.csv|json|html, round.csv|json|html, slips.html")
    with reading(request) as session:
        if name == "export.json":
            text = msgspec.json.format(msgspec.json.encode(export.export_event(session, event_id)), indent=2).decode()
        elif name.startswith("standings."):
            text = files.standings_file(export.standings_view(session, event_id), name.partition(".")[2], history.person_texts(session))
        else:
            view = export.pairings_view(session, event_id, round)  # NotFound for a round not paired
            if name == "slips.html":
                text = printables.slips_html(view.event, view.round)
            else:
                text = files.round_file(view.round, view.event, name.partition(".")[2])
                name = f"round-{view.round.number}.{name.partition('.')[2]}"
    return _file(f"{event_id}-{name}", text)


HANDLERS = [download]
