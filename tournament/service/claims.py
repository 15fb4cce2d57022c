"""Players report their own results (`tournament serve`): claims, confirmations, the judge queue, rulings.

A player claims their table's result in the current round: games won and
drawn, a pod's places, or the game logs, which the referee checks at once (a
refused log writes nothing and the refusal carries the referee's verdict).
Each other player at the table confirms it (a log claim by the SHA-256 of each
log's last line, so nobody can cut or rewrite a game's ending alone) or claims
something else. When every seat agrees, the result is reported as the CLI's
`report` would (source `log` for logs, `players` for a typed result), in the
same transaction. Two claims that differ put the table in the judge queue,
where the organiser accepts one claim or enters a result, with a reason.
Every claim, confirmation and ruling is an event-log entry.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from tournament.service import decks
from tournament.service.errors import Conflict, NotFound, Usage
from tournament.service.queries import (
    find_match,
    find_pod,
    get_event,
    get_player,
    lock_event,
    matches,
    pod_tables,
    storable,
)
from tournament.service.results import (
    Tally,
    check_new_logs,
    check_places,
    check_tally,
    judge_logs,
    judge_pod_log,
    played_live,
    report,
    report_pod,
    tables_played_live,
)
from tournament.storage.desklog import CallAnswered
from tournament.storage.eventlog import (
    ClaimConfirmed,
    ClaimRuled,
    DeckRuled,
    DecksDiffer,
    GameRecord,
    ResultClaimed,
    append,
    claim_key,
    decode,
    stored_text,
    with_texts,
)
from tournament.storage.models import (
    Claim,
    DeckCheck,
    Event,
    JudgeCall,
    LogEntry,
    Match,
    Pod,
    PodSeat,
)


@dataclass(frozen=True)
class Table:
    """A table of the current round as the claims see it: its players (seat order) and whether it has a result."""

    round: int
    number: int
    players: list[str]
    pod: bool
    done: bool

    @property
    def where(self) -> str:
        return f"table {self.number} of round {self.round} ({', '.join(self.players)})"


@dataclass(frozen=True)
class TableState:
    """A table with its claims (one a player at most) and where it stands: waiting, disputed or done."""

    table: Table
    claims: list[Claim]
    checks: list[DeckCheck] = field(default_factory=list)  # logs refused for their decks, not ruled on yet
    disputes: list[JudgeCall] = field(default_factory=list)  # open "That's not right" calls at the table (T-151)

    @property
    def state(self) -> str:
        if self.table.done:
            return "done"
        if self.checks:
            return "decks"
        return "disputed" if len({c.key for c in self.claims}) > 1 or self.disputes else "waiting"


def last_line_hash(data: bytes) -> str:
    """The SHA-256 of a log's last line, without its line ending (what the other players confirm)."""
    last = data.rstrip(b"\r\n").rsplit(b"\n", 1)[-1].rstrip(b"\r")
    return hashlib.sha256(last).hexdigest()


def _match_table(m: Match) -> Table:
    return Table(m.round, m.number, [m.player_a, m.player_b], False, m.games_a is not None)


def _pod_table(pod: Pod, seats: Sequence[PodSeat]) -> Table:
    return Table(pod.round, pod.number, [s.player for s in seats], True, pod.source is not None)


def current_tables(session: Session, event: Event) -> list[Table]:
    """The current round's tables (byes left out)."""
    if event.rounds == 0:
        return []
    if event.format == "pods":
        return [_pod_table(pod, seats) for pod, seats in pod_tables(session, event.id, event.rounds) if pod.source != "bye"]
    return [_match_table(m) for m in matches(session, event.id, event.rounds)]


def table_at(session: Session, event: Event, number: int) -> Table | None:
    """One table of the current round (None for a bye or no such table)."""
    if event.rounds == 0 or not storable(number):
        return None
    if event.format == "pods":
        pod = session.get(Pod, (event.id, event.rounds, number))
        if pod is None or pod.source == "bye":
            return None
        seats = session.scalars(select(PodSeat).filter_by(event_id=event.id, round=event.rounds, table=number).order_by(PodSeat.seat))
        return _pod_table(pod, list(seats))
    match = session.get(Match, (event.id, event.rounds, number))
    return None if match is None else _match_table(match)


def seat_of(session: Session, event: Event, player: str) -> Table | None:
    """The player's table in the current round; None for a bye or a player not paired."""
    get_player(session, event.id, player)
    if event.format == "pods":
        query = select(PodSeat.table).filter_by(event_id=event.id, round=event.rounds, player=player)
    else:
        query = select(Match.number).filter_by(event_id=event.id, round=event.rounds).where(
            or_(Match.player_a == player, Match.player_b == player)
        )
    number = session.scalars(query).first()
    return None if number is None else table_at(session, event, number)


def state_of(session: Session, table: Table, event_id: str) -> TableState:
    claims = session.scalars(
        select(Claim).filter_by(event_id=event_id, round=table.round, table=table.number).order_by(Claim.seq)
    )
    checks = session.scalars(
        select(DeckCheck).filter_by(event_id=event_id, round=table.round, table=table.number, ruled_seq=None).order_by(DeckCheck.seq)
    )
    disputes = session.scalars(
        select(JudgeCall).filter_by(event_id=event_id, round=table.round, table=table.number, answered_at=None)
        .where(JudgeCall.disputes.is_not(None)).order_by(JudgeCall.number)
    )
    return TableState(table, [c for c in claims if c.player in table.players], list(checks), list(disputes))


def tables(session: Session, event_id: str) -> list[TableState]:
    """Every table of the current round with its claims, in table order."""
    event = get_event(session, event_id)
    return [state_of(session, t, event_id) for t in current_tables(session, event)]


def judge_queue(session: Session, event_id: str) -> list[TableState]:
    """The current round's tables whose players' claims disagree (or a player disputes a claim: T-151), or whose
    logs were refused for their decks."""
    return [t for t in tables(session, event_id) if t.state in ("disputed", "decks")]


def _open_seat(session: Session, event: Event, player: str) -> Table:
    if event.rounds == 0:
        raise Conflict(f"{event.id!r} has no round paired yet")
    table = seat_of(session, event, player)
    if table is None:
        raise Conflict(f"{player} has no table to report in round {event.rounds} (a bye, or not paired)")
    if table.done:
        raise Conflict(f"{table.where} already has a result; ask a judge to correct it")
    if tables_played_live(session, event, table.round, [table.number]):  # T-132: a player's claim would bypass its log
        raise played_live(table.where)
    return table


def claim(
    session: Session,
    event_id: str,
    player: str,
    *,
    result: Tally | None = None,
    places: dict[str, int] | None = None,
    logs: Sequence[tuple[str, bytes]] = (),
) -> TableState:
    """A player's claim on their own table of the current round: a result, a pod's places, or the game logs.

    Logs are refereed now (LogRejected carries the verdict). The claim replaces the player's earlier one;
    when everyone at the table agrees, the result is reported at once.
    """
    event = lock_event(session, event_id)
    table = _open_seat(session, event, player)
    if sum((result is not None, places is not None, bool(logs))) != 1:
        raise Usage("give the result, the places or the game logs: one of them")
    games, draws, records = None, 0, list[GameRecord]()
    if logs:
        if table.pod:
            if len(logs) != 1:
                raise Usage(f"a pod plays one game; give its one log, not {len(logs)}")
            pod, _seats = _pod(session, event, table)
            places, record = judge_pod_log(session, event, pod, set(table.players), table.where, *logs[0])
            records = [record]
        else:
            match = _match(session, event, table)
            tally, records = judge_logs(event, match, logs)
            check_new_logs(session, event.id, match, records)
            games, draws = tally.games, tally.draws
    elif result is not None:
        if table.pod:
            raise Usage("a pod reports places (1 = best), not games won")
        check_tally(event, _match(session, event, table), result)
        games, draws = result.games, result.draws
    else:
        assert places is not None
        if not table.pod:
            raise Usage("a match reports games won, not places")
        check_places(places, set(table.players), table.where)
    if records and (found := decks.differences(session, event, [r.text for r in records], table.players)):
        decks.refuse(session, event, table.round, table.number, found, records)  # the table waits for a judge
        return state_of(session, table, event.id)
    last = [last_line_hash(r.text) for r in records]
    claimed = ResultClaimed(table.round, table.number, player, games, draws, places if table.pod else None, records, last)
    if _standing(session, event, table, claimed):
        return state_of(session, table, event.id)  # the same claim again: answered, and nothing new written
    append(session, event.id, claimed)
    return _settle(session, event, table)


def _standing(session: Session, event: Event, table: Table, claimed: ResultClaimed) -> bool:
    """Is `claimed` the player's standing claim (the same result, places, or logs by their hashes)?"""
    mine = session.get(Claim, (event.id, table.round, table.number, claimed.player))
    if mine is None or mine.confirms is not None or (mine.kind, mine.key, mine.text) != claim_key(claimed):
        return False
    if not claimed.logs:
        return True
    entry = session.get(LogEntry, (event.id, mine.seq))
    assert entry is not None, "a claim's row points at its log entry"
    standing: ResultClaimed = decode(entry)
    return [r.sha256 for r in standing.logs] == [r.sha256 for r in claimed.logs]


def claimed_scores(session: Session, event_id: str, claims: Sequence[Claim]) -> dict[str, tuple[dict[str, int] | None, int, dict[str, int] | None]]:
    """Each claim's (games, drawn games, places) by its player, as claimed: typed, or read by the referee from
    the uploaded logs (the claim's log entry holds them); a confirmation has the score of the claim it confirms."""
    own: dict[str, tuple[dict[str, int] | None, int, dict[str, int] | None]] = {}
    for c in claims:
        if c.confirms is None:
            entry = session.get(LogEntry, (event_id, c.seq))
            assert entry is not None, "a claim's row points at its log entry"
            payload: ResultClaimed = decode(entry)
            own[c.player] = (payload.games, payload.draws, payload.places)
    return own | {c.player: own[c.confirms] for c in claims if c.confirms is not None and c.confirms in own}


def confirm(session: Session, event_id: str, player: str, claimant: str, last_lines: Sequence[str] = ()) -> TableState:
    """`player` confirms `claimant`'s claim at their table; a claim of logs needs each log's last-line hash."""
    event = lock_event(session, event_id)
    table = _open_seat(session, event, player)
    if claimant == player:
        raise Usage("confirm another player's claim; your own stands already")
    theirs = session.get(Claim, (event.id, table.round, table.number, claimant))
    if claimant not in table.players or theirs is None or theirs.confirms is not None:
        raise NotFound(f"{claimant} has no claim of their own at {table.where}")
    given = [h.strip().lower() for h in last_lines]
    if theirs.kind == "logs" and given != theirs.last_lines.split():
        raise Conflict(
            f"the last line of your log does not match {claimant}'s upload: your copies differ. "
            "Upload your own log instead, and a judge will compare them"
        )
    append(session, event.id, ClaimConfirmed(table.round, table.number, player, claimant, given if theirs.kind == "logs" else []))
    return _settle(session, event, table)


def rule(
    session: Session,
    event_id: str,
    table_number: int,
    *,
    reason: str,
    accept: str | None = None,
    result: Tally | None = None,
    places: dict[str, int] | None = None,
) -> TableState:
    """The organiser settles an open table of the current round: accept one player's claim, or enter a result."""
    event, table = _to_rule(session, event_id, table_number, reason)
    if table.done:
        raise Conflict(f"{table.where} already has a result; correct it instead")
    if (accept is None) == (result is None and places is None):
        raise Usage("accept one player's claim or enter a result: one of them")
    append(session, event.id, ClaimRuled(table.round, table.number, reason.strip(), accept))
    standing = state_of(session, table, event.id)
    for check in standing.checks:  # a result ruled here settles a refusal for decks too
        append(session, event.id, DeckRuled(table.round, table.number, check.seq, reason.strip()))
    for call in standing.disputes:  # and answers the table's disputes: the judge has decided (T-151)
        append(session, event.id, CallAnswered(call.number))
    if accept is not None:
        mine = session.get(Claim, (event.id, table.round, table.number, accept))
        if mine is None or accept not in table.players:
            raise NotFound(f"{accept} has no claim at {table.where}")
        source = _source_claim(session, event, table, mine)
        _report(session, event, table, source, reason.strip(), agreed=False)
    elif table.pod:
        report_pod(session, event.id, table.number, places=places, reason=reason.strip())
    else:
        report(session, event.id, table.number, result=result, reason=reason.strip())
    return state_of(session, _refreshed(session, event, table), event.id)


def _source_claim(session: Session, event: Event, table: Table, claim_row: Claim) -> ResultClaimed:
    """The ResultClaimed entry behind a claim (a confirmation's: the claim it confirms)."""
    own = claim_row
    if claim_row.confirms is not None:
        found = session.get(Claim, (event.id, table.round, table.number, claim_row.confirms))
        assert found is not None
        own = found
    entry = session.get(LogEntry, (event.id, own.seq))
    assert entry is not None and entry.type == "result_claimed", "a claim's row points at its log entry"
    payload: ResultClaimed = with_texts(decode(entry), stored_text(session))
    return payload


def _report(session: Session, event: Event, table: Table, source: ResultClaimed, reason: str, *, agreed: bool) -> None:
    logs = [(f"game {n} ({source.player}'s upload)", r.text) for n, r in enumerate(source.logs, start=1)]
    if table.pod:
        if logs:
            report_pod(session, event.id, table.number, logs=logs, reason=reason, agreed=agreed, check_decks=False)
        else:
            report_pod(session, event.id, table.number, places=source.places, reason=reason, agreed=agreed)
    elif logs:
        report(session, event.id, table.number, logs=logs, reason=reason, agreed=agreed, check_decks=False)
    else:
        assert source.games is not None
        report(session, event.id, table.number, result=Tally(source.games, source.draws), reason=reason, agreed=agreed)


def _settle(session: Session, event: Event, table: Table) -> TableState:
    """Report the table's result when every seat's claim agrees."""
    state = state_of(session, table, event.id)
    seated = {c.player for c in state.claims}
    if seated == set(table.players) and len({c.key for c in state.claims}) == 1:
        own = next(c for c in state.claims if c.confirms is None)
        others = [c.player for c in state.claims if c.player != own.player]
        entered = "game logs uploaded" if own.kind == "logs" else "entered"
        reason = f"{entered} by {own.player}, confirmed by {', '.join(others)}"
        _report(session, event, table, _source_claim(session, event, table, own), reason, agreed=True)
        return state_of(session, _refreshed(session, event, table), event.id)
    return state


def _to_rule(session: Session, event_id: str, table_number: int, reason: str) -> tuple[Event, Table]:
    """The event (locked) and its table of the current round a judge rules on, with a reason."""
    event = lock_event(session, event_id)
    if not reason.strip():
        raise Usage("a ruling needs a reason")
    table = table_at(session, event, table_number)
    if table is None:
        raise NotFound(f"round {event.rounds} of {event_id!r} has no table {table_number} to rule on")
    return event, table


def _refreshed(session: Session, event: Event, table: Table) -> Table:
    found = table_at(session, event, table.number)
    assert found is not None
    return found


def _match(session: Session, event: Event, table: Table) -> Match:
    return find_match(session, event, table.number, table.round)


def _pod(session: Session, event: Event, table: Table) -> tuple[Pod, list[PodSeat]]:
    return find_pod(session, event, table.number, table.round)


def rule_decks(
    session: Session,
    event_id: str,
    table_number: int,
    *,
    reason: str,
    accept: bool = False,
    result: Tally | None = None,
    places: dict[str, int] | None = None,
) -> TableState:
    """A judge rules on a table refused for its decks (T-115), with a reason: `accept` the refused logs' result,
    enter a `result` (a pod: `places`), or, with neither, the default penalty: a player whose deck differed loses
    the match (a pod: they take the last places, the others keeping the log's order)."""
    event, table = _to_rule(session, event_id, table_number, reason)
    state = state_of(session, table, event.id)
    if not state.checks:
        raise Conflict(f"{table.where} has no logs refused for their decks")
    if accept and (result is not None or places is not None):
        raise Usage("accept the logs or enter a result: not both")
    check = state.checks[-1]
    refused = session.get(LogEntry, (event.id, check.seq))
    assert refused is not None and refused.type == "decks_differ"
    payload: DecksDiffer = with_texts(decode(refused), stored_text(session))
    for open_check in state.checks:
        append(session, event.id, DeckRuled(table.round, table.number, open_check.seq, reason.strip()))
    logs = [(f"game {n} (refused for its decks)", r.text) for n, r in enumerate(payload.logs, start=1)]
    offenders = set(payload.differences)
    if table.pod:
        if not accept and places is None:
            judged, _record = judge_pod_log(session, event, _pod(session, event, table)[0], set(table.players), table.where, *logs[0])
            places = _last_places(judged, offenders)
        if accept:
            report_pod(session, event.id, table.number, logs=logs, reason=reason.strip(), check_decks=False)
        else:
            report_pod(session, event.id, table.number, places=places, reason=reason.strip())
    elif accept:
        report(session, event.id, table.number, logs=logs, reason=reason.strip(), check_decks=False)
    else:
        if result is None:
            if len(offenders) != 1:
                raise Usage(f"both decks at {table.where} differ: enter the result (--result) or accept the logs")
            (offender,) = offenders
            winner = next(p for p in table.players if p != offender)
            result = Tally({winner: event.best_of // 2 + 1, offender: 0})
        report(session, event.id, table.number, result=result, reason=reason.strip())
    return state_of(session, _refreshed(session, event, table), event.id)


def _last_places(places: dict[str, int], offenders: set[str]) -> dict[str, int]:
    """The log's places, with the offenders moved below everyone else (tied among themselves)."""
    kept = sorted((p for p in places if p not in offenders), key=lambda p: places[p])
    ranked: dict[str, int] = {}
    for position, player in enumerate(kept, start=1):
        earlier = kept[position - 2] if position > 1 else None
        ranked[player] = ranked[earlier] if earlier is not None and places[earlier] == places[player] else position
    for player in offenders:
        ranked[player] = len(kept) + 1
    return ranked
