"""A live table's witness, its report and its judge (issue 24; tables themselves: service/tables.py).

Each player's device acknowledges the head it has shown (`acknowledge`). When
a game ends, each player confirms its last line (`confirm`): the confirmation
keeps the SHA-256 of the line the server holds, so what was confirmed can never
be changed unnoticed. Once the match is decided and every player confirmed
every game, the result is reported by itself through the results service, as
`tournament report --log` would (source `log`): no one types it. A player who
disagrees calls the judge (service/calls.py: an event-log entry the organiser's
queue shows); the judge watches, adds `judge` records (service/tables.append with the
JUDGE seat) and rules through the existing `report --reason` or `rule`.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.ruleset import JUDGE
from tournament.service.errors import Conflict, NotFound, Usage
from tournament.service.livetable import (
    Seating,
    games,
    log_bytes,
    match_decided,
    open_table,
    refuse_reported,
    seated,
    seating,
    serve,
)
from tournament.service.queries import lock_event
from tournament.service.results import report, report_pod
from tournament.storage.models import LiveGame, LiveWitness


def _game(seat: Seating, played: list[LiveGame], number: int) -> LiveGame:
    """Game `number` of the table's games (`seated` read them with the table: not read again)."""
    found = [g for g in played if g.game == number]
    if not found:
        raise NotFound(f"table {seat.table} has no game {number}")
    return found[0]


def _row(session: Session, game: LiveGame, player: str) -> LiveWitness:
    key = (game.event_id, game.round, game.table, game.game, player)
    row = session.get(LiveWitness, key, populate_existing=True)
    if row is None:
        row = LiveWitness(event_id=game.event_id, round=game.round, table=game.table, game=game.game, player=player, seen=0)
        session.add(row)
    return row


def acknowledge(session: Session, event_id: str, table: int, player: str, game_number: int, seq: int) -> int:
    """`player`'s device holds game `game_number` up to record `seq`; the highest acknowledged is kept and returned."""
    seat, played = seated(session, event_id, table)
    if player not in seat.players:
        raise NotFound(f"{player} does not play at table {seat.table}")
    refuse_reported(session, seat)
    game = _game(seat, played, game_number)
    if seq > game.seq:
        raise Usage(f"game {game_number} has {game.seq} records; record {seq} is not there to be seen")
    row = _row(session, game, player)
    row.seen = max(row.seen, seq)
    session.flush()
    return row.seen


def confirm(session: Session, event_id: str, table: int, player: str, game_number: int, seq: int) -> bool:
    """`player` confirms that game `game_number` ended at record `seq`; True once that reported the match.
    Confirmations queue on the event's row: two made at once on PostgreSQL each counted only its own, and neither
    reported the match (T-247)."""
    lock_event(session, event_id)
    seat, played = seated(session, event_id, table)
    if player not in seat.players:
        raise NotFound(f"{player} does not play at table {seat.table}")
    refuse_reported(session, seat)
    game = _game(seat, played, game_number)
    if not game.over:
        raise Conflict(f"game {game_number} is not over: there is no last line to confirm yet")
    if seq != game.seq:
        raise Conflict(f"game {game_number} ended at record {game.seq}, not {seq}; read it again before confirming")
    row = _row(session, game, player)
    row.seen, row.confirmed = game.seq, game.head
    session.flush()
    return settle(session, seat)


def settle(session: Session, seat: Seating) -> bool:
    """Report the table's match from its logs once it is decided and every player confirmed every game's last
    line; True when this call reported it. A table whose result was entered already (a judge's) is left as it is."""
    played = games(session, seat)
    if not played or not match_decided(session, seat) or any(g.reported for g in played):
        return False
    confirmed = {
        (w.game, w.player)
        for w in session.scalars(select(LiveWitness).filter_by(event_id=seat.event.id, round=seat.round, table=seat.table))
        if w.confirmed is not None and w.confirmed == next(g.head for g in played if g.game == w.game)
    }
    if any((g.game, p) not in confirmed for g in played for p in seat.players):
        return False
    logs = [(f"round {seat.round} table {seat.table} game {g.game}", log_bytes(session, g)) for g in played]
    if seat.pod:
        done = report_pod(session, seat.event.id, seat.table, round_number=seat.round, logs=logs, from_table=True).changed
    else:
        done = report(session, seat.event.id, seat.table, round_number=seat.round, logs=logs, from_table=True).changed
    for game in played:
        game.reported = True
    session.flush()
    return done


def seat_bot(session: Session, event_id: str, table: int, player: str, *, rated: bool = False) -> list[str]:
    """The organiser seats the server's bot for `player` at a digital table's current game; in a rated event only
    when the organiser says so (`rated`). The seats the bot plays."""
    seat = seating(session, event_id, table)
    if seat.event.tables != "digital":
        raise Usage("a bot plays only at digital tables (the server deals its cards)")
    if seat.event.rated and not rated:
        raise Usage(f"{event_id!r} is rated: a bot takes a seat there only when the organiser says so (rated)")
    if player not in seat.players:
        raise NotFound(f"{player} does not play at table {seat.table}")
    refuse_reported(session, seat)
    game = open_table(session, event_id, table)
    if game.over:
        raise Conflict(f"game {game.game} is over; seat the bot when the next one starts")
    bots = set(game.bots.split()) | {player}
    game.bots = " ".join(sorted(bots))
    session.flush()
    serve(session, game)
    return sorted(bots)


__all__ = ["JUDGE", "acknowledge", "confirm", "seat_bot", "settle"]
