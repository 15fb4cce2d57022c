"""Standings, pairings, brackets and whole events as data (the Structs in schemas/tournament.py).

Builders read the database; `tournament.output.render` turns their rows into text,
CSV and HTML, `tournament.output.pictures` draws brackets and pods.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Literal, cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from schemas.tournament import (
    EXPORT_FORMAT,
    BracketInfo,
    BracketPair,
    BracketRound,
    EventInfo,
    Export,
    GameRef,
    LogEntryInfo,
    PlayerInfo,
    RoundInfo,
    Source,
    StandingRow,
    TableRow,
)
from tournament import service
from tournament.service import fees
from tournament.service.heads import head_text
from tournament.storage import viewcache
from tournament.storage.eventlog import as_utc
from tournament.storage.models import (
    CachedView,
    Event,
    GameLog,
    LogEntry,
    Match,
    Player,
    Pod,
    PodSeat,
)


def standing_rows(session: Session, event_id: str, swiss_only: bool = False) -> list[StandingRow]:
    """The standings as rows; `swiss_only`: after a top cut, the Swiss standings as they were at the cut."""
    names = service.display_names(session, event_id)
    people = {n: p for n, p in session.execute(select(Player.name, Player.person).filter_by(event_id=event_id))}
    return [
        StandingRow(
            s.rank, s.player, s.points, s.game_points, s.wins, s.losses, s.draws, s.byes,
            dict(s.tiebreakers), s.dropped, names.get(s.player, s.player), people.get(s.player),
        )
        for s in service.standings(session, event_id, swiss_only)
    ]


def table_row(
    session: Session, match: Match, names: Mapping[str, str] | None = None, ends: datetime | None = None,
    logs: Sequence[GameRef] | None = None,
) -> TableRow:
    """One match as a row; `names` (display names by id) and `logs` (its games) each save a query per table when given."""
    if logs is None:
        logs = game_refs(session, match.event_id, match.round, match.number)
    games = None
    if match.games_a is not None and match.games_b is not None:
        games = {match.player_a: match.games_a, match.player_b: match.games_b}
    shown = names if names is not None else service.display_names(session, match.event_id)
    return TableRow(
        round=match.round,
        table=match.number,
        players=[match.player_a, match.player_b],
        games=games,
        draws=match.draws,
        source=match.source,
        reason=match.reason,
        logs=list(logs),
        names=[shown.get(p, p) for p in (match.player_a, match.player_b)],
        extra_minutes=match.extra_minutes or 0,
        ends_at=ends + timedelta(minutes=match.extra_minutes or 0) if ends else None,
    )


def pod_row(pod: Pod, seats: Sequence[PodSeat], names: Mapping[str, str] | None = None, ends: datetime | None = None) -> TableRow:
    places = {s.player: s.place for s in seats if s.place is not None} or None
    winners = [p for p, place in (places or {}).items() if place == 1]
    logs = [GameRef(1, pod.sha256, winners[0] if len(winners) == 1 else None)] if pod.sha256 else []
    source = cast(Source | None, pod.source)
    shown = names or {}
    return TableRow(
        pod.round, pod.number, [s.player for s in seats], None, None, source, pod.reason, logs, places,
        [shown.get(s.player, s.player) for s in seats], pod.extra_minutes or 0,
        ends + timedelta(minutes=pod.extra_minutes or 0) if ends and source != "bye" else None,
    )


def round_rows(session: Session, event: Event, round_number: int) -> list[TableRow]:
    """A round's tables: matches, or pods (byes last) for a pods event."""
    names = service.display_names(session, event.id)
    ends = service.round_ends(session, event.id, round_number)
    if event.format == "pods":
        return [pod_row(pod, seats, names, ends) for pod, seats in service.pod_tables(session, event.id, round_number)]
    games: dict[int, list[GameRef]] = {}
    for table, ref in _game_refs(session, event.id, round_number):  # one query for the round's games
        games.setdefault(table, []).append(ref)
    return [table_row(session, m, names, ends, games.get(m.number, [])) for m in service.matches(session, event.id, round_number)]


def game_refs(session: Session, event_id: str, round_number: int, table: int) -> list[GameRef]:
    """The games stored for one table, in order."""
    return [ref for _, ref in _game_refs(session, event_id, round_number, table)]


def _game_refs(session: Session, event_id: str, round_number: int, table: int | None = None) -> Iterator[tuple[int, GameRef]]:
    """(table, game) for a round's stored games (or one table's), in order; the logs themselves stay in the database."""
    query = select(GameLog.table, GameLog.game, GameLog.sha256, GameLog.winner).filter_by(event_id=event_id, round=round_number)
    if table is not None:
        query = query.filter_by(table=table)
    for number, game, sha256, winner in session.execute(query.order_by(GameLog.table, GameLog.game)):
        yield number, GameRef(game, sha256, winner)


def round_info(session: Session, event_id: str, number: int) -> RoundInfo:
    """One round: its tables with their results, and who sits out or goes through without playing."""
    tables = pairing_rows(session, event_id, number)  # NotFound for a round not paired
    paired = next(r for r in service.rounds(session, event_id) if r.number == number)
    bracket = bracket_info(session, event_id)
    advanced = [
        pair.winner
        for r in (bracket.rounds if bracket else [])
        if r.round == number
        for pair in r.pairs
        if pair.table is None and pair.winner is not None and None in pair.players
    ]
    byes = service.assigned_byes(session, event_id, number)
    names = service.display_names(session, event_id)
    listed = {p for t in tables for p in t.players} | {*advanced, *byes, *([paired.bye] if paired.bye else [])}
    started = as_utc(paired.started_at) if paired.started_at else None
    pods = service.pods_paired(session, event_id, number) if service.get_event(session, event_id).format == "pods" else None
    return RoundInfo(
        number, paired.seed, paired.bye, tables, advanced, byes, started, paired.minutes,
        {p: names.get(p, p) for p in sorted(listed)},
        pods.repeats if pods else None, pods.proven if pods else None,
    )


def pairing_rows(session: Session, event_id: str, round_number: int) -> list[TableRow]:
    event = service.get_event(session, event_id)
    if not 1 <= round_number <= event.rounds:
        raise service.NotFound(f"event {event_id!r} has no round {round_number} (rounds paired: {event.rounds})")
    return round_rows(session, event, round_number)


def log_entries(session: Session, event_id: str) -> list[LogEntry]:
    """The event's log, in order."""
    return list(session.scalars(select(LogEntry).filter_by(event_id=event_id).order_by(LogEntry.seq)))


def log_rows(session: Session, event_id: str) -> list[LogEntryInfo]:
    # Columns, not LogEntry rows: the payloads are not shown, and 25,000 ORM objects cost most of a 10,000-player export.
    entries = select(LogEntry.seq, LogEntry.type, LogEntry.at, LogEntry.prev, LogEntry.hash, LogEntry.actor).filter_by(event_id=event_id)
    return [
        LogEntryInfo(seq, type_, as_utc(at), prev, hash_, actor)
        for seq, type_, at, prev, hash_, actor in session.execute(entries.order_by(LogEntry.seq))
    ]


def event_infos(session: Session) -> list[EventInfo]:
    """Every event, oldest first."""
    return [event_info(e) for e in session.scalars(select(Event).order_by(Event.created_at))]


def event_info(event: Event) -> EventInfo:
    return EventInfo(
        event.id, event.name, event.ruleset, event.profile, event.best_of, event.seed, as_utc(event.created_at), event.rounds,
        event.format, event.bracket_round, event.table_size, event.points, event.late_entry, event.require_chain,
        head_text(event.id, event.last_seq, event.last_hash), event.rated, event.tables,
    )


def bracket_info(session: Session, event_id: str) -> BracketInfo | None:
    """The bracket with each pair's table and winner; None for an event without one."""
    event = service.get_event(session, event_id)
    if not service.is_bracket(event):
        return None
    assert event.bracket_round is not None
    seeds = service.seeded(session, event_id)
    if event.format == "double":
        return _double_info(session, event, seeds)
    state = service.bracket(session, event)
    played = {frozenset((m.player_a, m.player_b)): m for m in service.matches(session, event_id) if m.round >= event.bracket_round}
    rounds = []
    for r in state.rounds:
        pairs = []
        for a, b in r.pairs:
            match = played.get(frozenset((a, b))) if a and b else None
            if match is None:  # a bye, or a match not yet paired
                pairs.append(BracketPair([a, b], None, a or b if (a is None) != (b is None) else None))
                continue
            won = None if match.games_a is None else match.player_a if match.games_a > (match.games_b or 0) else match.player_b
            pairs.append(BracketPair([a, b], match.number, won, games=_games(match, [a, b])))
        rounds.append(BracketRound(event.bracket_round + r.number - 1, pairs))
    return BracketInfo(seeds, rounds, state.champion, names=service.display_names(session, event_id))


def _games(match: Match, players: list[str | None]) -> list[int] | None:
    """Games won by each of `players` (the match's two, in the bracket's order), once reported."""
    if match.games_a is None or match.games_b is None:
        return None
    won = {match.player_a: match.games_a, match.player_b: match.games_b}
    return [won[p] for p in players if p is not None]


def _double_info(session: Session, event: Event, seeds: list[str]) -> BracketInfo:
    """Each event round's double-elimination matches with their nodes, then those to pair next."""
    assert event.bracket_round is not None
    state = service.double_bracket(session, event)
    rounds = []
    for k, nodes in enumerate(state.rounds):
        number = event.bracket_round + k
        tables = service.matches(session, event.id, number)
        pairs = [
            BracketPair(
                [m.player_a, m.player_b], m.number, state.decided[node].winner if node in state.decided else None, node,
                _games(m, [m.player_a, m.player_b]),
            )
            for node, m in zip(nodes, tables, strict=True)
        ]
        rounds.append(BracketRound(number, pairs))
    paired = {node for nodes in state.rounds for node in nodes}
    upcoming = [BracketPair([a, b], None, None, node) for node, a, b in state.ready if node not in paired]
    if upcoming:
        rounds.append(BracketRound(event.bracket_round + len(state.rounds), upcoming))
    return BracketInfo(seeds, rounds, state.champion, double=True, names=service.display_names(session, event.id))


def export_event(session: Session, event_id: str) -> Export:
    event = service.get_event(session, event_id)
    rounds = [round_info(session, event_id, r.number) for r in service.rounds(session, event_id)]
    players = [
        PlayerInfo(
            p.name, p.registered_round, p.dropped_round, p.display_name, p.rating, p.paused, p.bye_round, p.person, p.paid,
            cast(Literal["cash", "card"] | None, p.paid_by),
        )
        for p in service.players(session, event_id)
    ]
    return Export(
        EXPORT_FORMAT, event_info(event), players, rounds, standing_rows(session, event_id), log_rows(session, event_id),
        bracket_info(session, event_id), fees.fees(session, event_id) if event.fee_currency is not None else None,
    )


# The views read commands show (`tournament.storage.viewcache`) ------------------------------------------------------------


def standings_view(session: Session, event_id: str) -> viewcache.Standings:
    """The standings with the event, its bracket, and (pods) each round's tables for the page's drawings."""
    rows = standing_rows(session, event_id)
    info = event_info(service.get_event(session, event_id))
    drawn = bracket_info(session, event_id)
    pods = [pairing_rows(session, event_id, n) for n in range(1, info.rounds + 1)] if info.format == "pods" else []
    cut = info.format == "swiss" and info.bracket_round is not None and drawn is not None
    return viewcache.Standings(info, rows, drawn, standing_rows(session, event_id, swiss_only=True) if cut else None, pods)


def pairings_view(session: Session, event_id: str, round_number: int | None) -> viewcache.Pairings:
    """A round (default: the current one) with the event."""
    details = event_info(service.get_event(session, event_id))
    return viewcache.Pairings(details, round_info(session, event_id, details.rounds if round_number is None else round_number))


def fresh_view(session: Session, kind: str, event_id: str, args: str) -> viewcache.View:
    """The view `kind` with `args` (as `view_cache` keys it) computed from the tables."""
    if kind == "standings" and args == "":
        return standings_view(session, event_id)
    if kind == "pairings" and (args == "" or (args.isascii() and args.isdigit())):
        return pairings_view(session, event_id, int(args) if args else None)
    raise ValueError(f"no {kind} view with arguments {args!r}")


def remember(session: Session, event_id: str, view: viewcache.View, args: str = "") -> None:
    """Keep a view just computed for the next read, in the read's own transaction, so it is stamped with the head
    it was computed at. SQLite only (PostgreSQL reads take the full path); a failure to store it is silent."""
    from sqlalchemy.exc import SQLAlchemyError

    if session.get_bind().dialect.name != "sqlite":
        return
    try:
        head = service.get_event(session, event_id).last_hash
        session.merge(CachedView(event_id=event_id, kind=viewcache.kind(view), args=args, head=head, code=viewcache.code(), data=viewcache.encode(view)))
        session.commit()
    except SQLAlchemyError:  # e.g. a read-only file: the read still shows the view
        session.rollback()
