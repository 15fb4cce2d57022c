"""Rulings and appeals (issue 35): who ruled on what, and a player's appeal of a judge's ruling to the head judge.

A ruling is an entry a judge makes about a table: settling it (`claim_ruled`), ruling on its decks
(`deck_ruled`), or correcting its result (`result_corrected`, `pod_corrected`). A player at that table may
appeal it once from their phone (`ruling_appealed`, T-178); the head judge (or the organiser) decides it
(`appeal_ruled`): upheld, or overturned with a new result, which follows as a correction with the same reason.
Both entries name the first ruling's judge in their payload and their own actor in the entry, so the log names
both judges. The head judge's decision is final: the correction that carries it out is not appealed again.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from tournament.service.errors import Conflict, NotFound, Usage, WrongTable
from tournament.service.queries import get_event, lock_event, storable
from tournament.service.results import Tally, report, report_pod
from tournament.service.staff import actor_names
from tournament.storage.eventlog import (
    AppealRuled,
    ClaimRuled,
    DeckRuled,
    PodCorrected,
    ResultCorrected,
    RulingAppealed,
    append,
    as_utc,
    decode,
)
from tournament.storage.models import Appeal, LogEntry, Match, Pod, PodSeat

APPEALABLE = ("claim_ruled", "deck_ruled", "result_corrected", "pod_corrected")
# how each ruling reads after its judge's name: "Jo (judge) ruled on the table"
RULING_WORDS = {"claim_ruled": "ruled on the table", "deck_ruled": "ruled on the decks", "result_corrected": "corrected the result",
                "pod_corrected": "corrected the result"}
MAX_TEXT = 500  # characters of a player's appeal or the head judge's reason (the columns' width)


@dataclass(frozen=True)
class Ruling:
    """A judge's ruling as the log has it: its entry, the table, the reason, who made it (`actor`, and `by`: their name)."""

    seq: int
    type: str
    round: int
    table: int
    reason: str
    actor: str | None
    by: str
    at: datetime


@dataclass(frozen=True)
class AppealRow:
    """An appeal with the ruling it appeals; `decided_by`: the name of who decided it (None while open)."""

    seq: int
    player: str
    text: str
    ruling: Ruling
    decision: str | None
    reason: str | None
    decided_by: str | None


def _clean(text: str, what: str, *, required: bool) -> str:
    line = " ".join(unicodedata.normalize("NFC", text).split())
    if required and not line:
        raise Usage(f"{what}: say why")
    if len(line) > MAX_TEXT:
        raise Usage(f"{what}: at most {MAX_TEXT} characters, not {len(line)}")
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in line):
        raise Usage(f"{what}: without control characters")
    return line


def _entries(session: Session, event_id: str, seqs: list[int] | None = None) -> list[LogEntry]:
    query = select(LogEntry).filter_by(event_id=event_id).where(LogEntry.type.in_(APPEALABLE)).order_by(LogEntry.seq)
    if seqs is not None:
        query = query.where(LogEntry.seq.in_(seqs))
    return list(session.scalars(query))


def _rulings(session: Session, event_id: str, entries: list[LogEntry]) -> list[Ruling]:
    names = actor_names(session, event_id, (e.actor for e in entries))
    found = []
    for entry in entries:
        payload = decode(entry)
        assert isinstance(payload, ClaimRuled | DeckRuled | ResultCorrected | PodCorrected)
        found.append(
            Ruling(entry.seq, entry.type, payload.round, payload.table, payload.reason or "", entry.actor, names[entry.actor], as_utc(entry.at))
        )
    return found


def rulings(session: Session, event_id: str, *, player: str | None = None) -> list[Ruling]:
    """The event's rulings, oldest first (`player`: only those on tables they sat at)."""
    get_event(session, event_id)
    if player is not None and not _ruled_on(session, event_id, player):
        return []  # the player's page asks on every load: most players' tables never see a judge, and need no log read
    found = _rulings(session, event_id, _entries(session, event_id))
    if player is None:
        return found
    return [r for r in found if player in _seated(session, event_id, r.round, r.table)]


def appealable(session: Session, event_id: str, player: str) -> list[Ruling]:
    """The rulings on `player`'s tables they may still appeal (what `/me` offers a form for): not appealed yet by
    anyone at the table, not the correction that carries out the head judge's decision, none once the event is
    finished. Every other one `appeal` would refuse."""
    if get_event(session, event_id).finished:
        return []
    found = rulings(session, event_id, player=player)
    if not found:
        return found
    taken = set(session.scalars(select(Appeal.ruling).filter_by(event_id=event_id)))
    final = {seq + 1 for seq in session.scalars(select(LogEntry.seq).filter_by(event_id=event_id, type="appeal_ruled"))}
    return [r for r in found if r.seq not in taken and r.seq not in final]


def _ruled_on(session: Session, event_id: str, player: str) -> bool:
    """Whether a table the player sat at has a result with a reason: every ruling leaves one (a judge's result, a
    correction), so a player without one has no ruling to appeal."""
    matches = select(Match.round).where(
        Match.event_id == event_id, (Match.player_a == player) | (Match.player_b == player), Match.reason.is_not(None)
    )
    pods = select(Pod.round).join(PodSeat, (PodSeat.event_id == Pod.event_id) & (PodSeat.round == Pod.round) & (PodSeat.table == Pod.number)).where(
        Pod.event_id == event_id, PodSeat.player == player, Pod.reason.is_not(None)
    )
    return session.execute(matches.union_all(pods).limit(1)).first() is not None


def _seated(session: Session, event_id: str, round_number: int, table: int) -> set[str]:
    match = session.get(Match, (event_id, round_number, table))
    if match is not None:
        return {match.player_a, match.player_b}
    return set(session.scalars(select(PodSeat.player).filter_by(event_id=event_id, round=round_number, table=table)))


def _carries_out_an_appeal(session: Session, event_id: str, seq: int) -> bool:
    before = session.get(LogEntry, (event_id, seq - 1))
    return before is not None and before.type == "appeal_ruled"


def appeal(session: Session, event_id: str, player: str, ruling: int, text: str) -> Appeal:
    """`player` appeals ruling `ruling` (its entry's seq) on their table to the head judge. Refused: no such ruling,
    a table they did not sit at, a ruling already appealed (by anyone at the table), the head judge's own
    decision, a finished event."""
    event = lock_event(session, event_id)
    line = _clean(text, "appeal", required=True)
    entry = session.get(LogEntry, (event_id, ruling)) if storable(ruling) else None
    if entry is None or entry.type not in APPEALABLE:
        raise NotFound(f"{event_id!r} has no ruling {ruling} to appeal")
    if event.finished:
        raise Conflict(f"{event.name} is finished: its rulings stand")
    payload = decode(entry)
    if player not in _seated(session, event_id, payload.round, payload.table):
        raise WrongTable(f"ruling {ruling} is on table {payload.table} of round {payload.round}, not yours")
    if _carries_out_an_appeal(session, event_id, ruling):
        raise Conflict("this is the head judge's decision on an appeal: it is final")
    earlier = session.scalars(select(Appeal).filter_by(event_id=event_id, ruling=ruling)).first()
    if earlier is not None:
        state = "decided" if earlier.decided_seq else "waiting for the head judge"
        raise Conflict(f"ruling {ruling} was appealed already ({state})")
    done = append(session, event_id, RulingAppealed(payload.round, payload.table, player, ruling, line, entry.actor))
    made = session.get(Appeal, (event_id, done.seq))
    assert made is not None
    return made


def decide(
    session: Session, event_id: str, number: int, *, uphold: bool, reason: str, result: Tally | None = None,
    places: dict[str, int] | None = None,
) -> Appeal:
    """Decide appeal `number` (its entry's seq): uphold the ruling, or overturn it with a new result (`result`, or
    a pod's `places`), which is written as a correction of the table with the same reason."""
    event = lock_event(session, event_id)
    said = _clean(reason, "reason", required=True)
    found = session.get(Appeal, (event_id, number)) if storable(number) else None
    if found is None:
        raise NotFound(f"{event_id!r} has no appeal {number}")
    if found.decided_seq is not None:
        raise Conflict(f"appeal {number} was decided already ({found.decision})")
    if uphold == (result is not None or places is not None):
        raise Usage("uphold the ruling, or overturn it with the new result: one of them")
    decision = "upheld" if uphold else "overturned"
    append(session, event_id, AppealRuled(number, found.ruling, decision, said, found.judge))  # type: ignore[arg-type]
    if not uphold:
        if event.format == "pods":
            report_pod(session, event_id, found.table, places=places, reason=said, correction=True, round_number=found.round)
        else:
            report(session, event_id, found.table, result=result, reason=said, correction=True, round_number=found.round)
    return found


def appeals(session: Session, event_id: str, *, player: str | None = None, open_only: bool = False) -> list[AppealRow]:
    """The event's appeals with their rulings, open ones first, then newest first (`player`: theirs only)."""
    get_event(session, event_id)
    query = select(Appeal).filter_by(event_id=event_id)
    if player is not None:
        query = query.filter_by(player=player)
    if open_only:
        query = query.where(Appeal.decided_seq.is_(None))
    rows = sorted(session.scalars(query), key=lambda a: (a.decided_seq is not None, -a.seq))
    if not rows:
        return []
    ruled = {r.seq: r for r in _rulings(session, event_id, _entries(session, event_id, [a.ruling for a in rows]))}
    deciders = {a.decided_seq: session.get(LogEntry, (event_id, a.decided_seq)) for a in rows if a.decided_seq}
    names = actor_names(session, event_id, (e.actor for e in deciders.values() if e is not None))
    return [
        AppealRow(
            a.seq, a.player, a.text, ruled[a.ruling], a.decision, a.reason,
            names[deciders[a.decided_seq].actor] if a.decided_seq and deciders[a.decided_seq] is not None else None,  # type: ignore[union-attr]
        )
        for a in rows
    ]

