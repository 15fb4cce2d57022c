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
from tournament.web import addresses, views


def base_url(session: Session, given: str | None) -> tuple[str, str | None]:
    """The address the slips' links use, and a warning to show when it is a guess: `given` (`--url`), else what
    `serve --public-url` stored, else this machine's address on its network, with the default port."""
    if given:
        return service.check_public_url(given), None
    stored = service.public_url(session)
    if stored:
        return stored, None
    return addresses.for_phones("0.0.0.0", 8000, None)


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
