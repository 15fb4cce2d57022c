"""`tournament slips EVENT --tokens`: a sign-in slip for each player, with a fresh one-time code, its link and QR.

Codes are kept only as hashes, so a code can be printed only when it is made:
this issues every active player a new one (their older codes and sessions stop
working) and prints it once. Each player gets a slip of their own, never the
table's match slip, which the opponent reads too.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from tournament import service
from tournament.output import pages
from tournament.service import export
from tournament.web import views


def base_url(session: Session, given: str | None) -> str:
    """The address the slips' links use: `given` (`--url`), else what `serve
    --public-url` stored, else the address the last `serve` published (its own host and port), else none: a
    guess at the port would print a whole event's slips with links that open nothing (T-163)."""
    if given:
        return service.check_public_url(given)
    stored = service.public_url(session) or service.published_url(session)
    if stored:
        return stored
    raise service.Usage(
        "no address for the slips' links: `tournament serve` has not run on this database; give --url "
        "(the address phones open, like http://192.168.1.20:8000) or start `serve` first"
    )


def signin_slips(session: Session, event_id: str, base_url: str) -> str:
    """One printable page: each active player's name, this round's table, code, link and QR code."""
    event = service.get_event(session, event_id)
    shown = views.names(session, event_id)
    active = sorted((p.name for p in service.players(session, event_id) if p.dropped_round is None), key=lambda p: shown[p].casefold())
    seats = {}
    for player in active:
        table = service.seat_of(session, event, player) if event.rounds else None
        seats[player] = table.number if table else None
    slips = []
    for player in active:
        code = service.issue_code(session, event_id, player)
        link = views.join_link(base_url, code)
        slips.append({"player": player, "name": shown[player], "table": seats[player], "code": code, "link": link, "qr": views.qr(link)})
    return pages.render(
        "web/signin_slips.html.j2", event=export.event_info(event), slips=slips, base=base_url.rstrip("/"),
    )
