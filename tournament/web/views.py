"""What the public pages and their `/api/...` twins show, built once from the database as the CLI's Structs."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

import segno
from sqlalchemy import select
from sqlalchemy.orm import Session

from schemas.deck import Difference
from schemas.tournament import EventInfo, RoundInfo, TableRow
from schemas.web import Claim, MatchView, RefereeError, Seat, TableClaims, Version
from tournament import service
from tournament.output import render
from tournament.service import export
from tournament.storage.models import Event, Player

MAX_SEATS = 20  # find-your-seat answers at most this many players


def events(session: Session) -> list[EventInfo]:
    return [export.event_info(e) for e in session.scalars(select(Event).order_by(Event.created_at.desc()))]


def version(event: Event) -> Version:
    return Version(event.id, event.last_seq, event.rounds)


def names(session: Session, event_id: str) -> dict[str, str]:
    """Each player's id -> the name people read."""
    return service.display_names(session, event_id)


def current_round(session: Session, event: Event) -> RoundInfo | None:
    return export.round_info(session, event.id, event.rounds) if event.rounds else None


def folded(text: str) -> str:
    """For matching what someone types: no accents, no zero-width or format characters, no case ("jose" finds José)."""
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c) and unicodedata.category(c) != "Cf").casefold().strip()


def seats(session: Session, event: Event, query: str) -> list[Seat]:
    """Find your seat: players of the current round whose id or name contains `query`, with their table."""
    wanted = folded(query)
    if not wanted or not event.rounds:
        return []
    shown = names(session, event.id)
    info = current_round(session, event)
    assert info is not None
    tables: dict[str, TableRow] = {p: row for row in info.tables for p in row.players}
    resting = {*([info.bye] if info.bye else []), *info.advanced}
    found = []
    for player, name in sorted(shown.items(), key=lambda item: folded(item[1])):
        if wanted in folded(player) or wanted in folded(name):
            found.append(Seat(player, name, tables.get(player), bye=player in resting))
    return found[:MAX_SEATS]


def seated(info: RoundInfo, shown: dict[str, str]) -> list[tuple[str, int | None, list[str]]]:
    """The round by name: (name, table or None for a bye, the opponents' names), alphabetically by name."""
    rows: list[tuple[str, int | None, list[str]]] = []
    for row in info.tables:
        for player in row.players:
            others = [shown.get(p, p) for p in row.players if p != player]
            rows.append((shown.get(player, player), None if row.source == "bye" else row.table, others))
    rows += [(shown.get(p, p), None, []) for p in [*([info.bye] if info.bye else []), *info.advanced]]
    return sorted(rows, key=lambda r: folded(r[0]))


def by_name(info: RoundInfo, shown: dict[str, str]) -> list[tuple[str, str, str]]:
    """Pairings by name as the round page's table: (player, table or "bye", opponents)."""
    return [(name, "bye" if table is None else str(table), ", ".join(others)) for name, table, others in seated(info, shown)]


def table_claims(session: Session, event: Event, state: service.TableState, viewer: str | None = None) -> TableClaims:
    """A table of the current round with its claims, as the player's page and the organiser's show it. A player
    (`viewer`) is shown only their own deck's differences: the other side names the opponent's registered
    cards, which are private until the lists are published (T-116)."""
    table = state.table
    shown, ends = names(session, event.id), service.round_ends(session, event.id, table.round)
    if table.pod:
        pod, seated = service.find_pod(session, event, table.number, table.round)
        row = export.pod_row(pod, seated, shown, ends)
    else:
        row = export.table_row(session, service.find_match(session, event, table.number, table.round), shown, ends)
    scores = service.claimed_scores(session, event.id, state.claims)
    claims = [
        Claim(c.player, c.text, c.key, c.kind, c.confirms, c.last_lines.split(),  # type: ignore[arg-type]
              render.score_words(row.players, shown, *scores[c.player]) if c.player in scores else c.text)
        for c in state.claims
    ]
    refused: dict[str, list[Difference]] = {}
    for check in state.checks:
        for player, found in service.decoded(check).items():
            if viewer is None or viewer == player:
                refused.setdefault(player, []).extend(found)
    disputes = [service.call_row(call, shown.get(call.player, call.player)) for call in state.disputes]
    return TableClaims(row, state.state, claims, refused, disputes)  # type: ignore[arg-type]


def match_view(session: Session, event_id: str, player: str) -> MatchView:
    """The player's table of the current round; someone registered from the public page may have none yet
    (on the waitlist, or off it), and says so."""
    event = service.get_event(session, event_id)
    me = session.get(Player, (event_id, player))
    if me is None:  # a session with no player: on the waitlist, or off it without a place (`desk.my_event`)
        place = service.waitlist_place(session, event_id, player)
        return MatchView(event_id, player, event.rounds, None, state="left" if place is None else "waiting", place=place)
    seat = service.seat_of(session, event, player)
    state: Literal["registered", "dropped"] = "registered" if me.dropped_round is None else "dropped"
    promoted = service.promoted(session, event_id, player)
    if seat is not None:
        claims = table_claims(session, event, service.state_of(session, seat, event_id), player)
        return MatchView(event_id, player, event.rounds, claims, state=state, promoted=promoted)
    info = current_round(session, event)  # a bye, or not paired: only then is the whole round read
    resting = info is not None and player in {*([info.bye] if info.bye else []), *info.advanced, *info.byes}
    return MatchView(event_id, player, event.rounds, None, bye=resting, state=state, promoted=promoted)


def referee_error(exc: service.LogRejected) -> RefereeError | None:
    """What the referee said about a refused log: rule, message, record and line (as `referee validate`)."""
    verdict = exc.verdict
    if verdict is None or verdict.error is None:
        return None
    error = verdict.error
    return RefereeError(verdict.path or "", verdict.verdict, error.rule, error.message, error.seq or None, error.line)


def join_link(base_url: str, code: str) -> str:
    """A player's sign-in link: the code after `#`, which browsers never send to a server (so no log has it)."""
    return f"{base_url.rstrip('/')}/join#code={code}"


@dataclass(frozen=True)
class QR:
    """A QR code as coordinates (in modules, quiet zone included): the template draws each dark run."""

    size: int
    runs: list[tuple[int, int, int]]  # x, y, width


QUIET = 4  # modules of light border a scanner needs


def qr(text: str) -> QR:
    matrix = segno.make(text, error="m").matrix
    runs = []
    for y, row in enumerate(matrix):
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                runs.append((start + QUIET, y + QUIET, x - start))
            else:
                x += 1
    return QR(len(matrix) + 2 * QUIET, runs)
