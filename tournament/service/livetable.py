"""Live tables (issue 24): each game of a paired table recorded record by record, each record judged at once.

An event made with `--tables paper` or `--tables digital` has a live table for
every pairing (and pod) of a round. A table's games are referee logs kept in
`live_lines` (tournament/storage/models.py), one row a line, the header written
by the server from the players' setup. An append names the head it was built on
(`after`, the last record's seq, as an event store's expected-version append):
the referee judges the record against the game at that head, and the write is
one conditional UPDATE of the game's head (`... WHERE seq = after`) plus the new
lines, whose primary key is their seq. Of two appends built on one head only the
first can move the head: the second finds no row to update (PostgreSQL re-reads
the row once the first commits; SQLite runs one writer at a time) and is refused
with the head it missed. A log never forks, and a refused record writes nothing.
`tournament serve` judges a record in a reading transaction and then writes it in a
short one that holds only the head's move and the lines (`judge_record`, `write`; T-129).

The game as it stands is kept per process (`_cache`), with the hash of the head
it stands at: the hash of the last line holds, through the chain, every line
before it, so a kept game is used as it is only when the database's head is
that very hash. A game kept at an earlier head (another worker wrote since) is
brought up by the lines after it, each chained to the one before and judged
again; otherwise the game is judged again from all its lines. Nothing that
matters lives only in one process.

Paper: every player records their own actions and their own draws (a `chance`
record naming the card, hidden from the others by the game's `record_view`).
Digital: the server deals every chance record from the game's secret seed
(referee/dealing.py), committed in the header and revealed in the log's last
record when the game ends; a bot may play a seat the organiser gives it.
Witness, auto-report and the judge's calls: tournament/service/witness.py.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Set
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from sqlalchemy import URL, Integer, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from referee import dealing, unseen
from referee.decks import read as read_deck
from referee.engine import Replay, advance, judge
from referee.linecheck import DECODE_ERRORS, ENCODER, explain
from referee.logio import line_hash, record_decoder, record_to_dict, setup_decoder
from referee.ruleset import CHANCE, JUDGE, Illegal, Ruleset, Seat
from referee.rulesets import get as get_ruleset
from referee.takeback import Rewind
from schemas.log import LOG_FORMAT, Header, Keeper, Record, Reveal, Time
from schemas.log import Event as Place
from schemas.table import Appended, Counted, GameSummary, TableProgress, TableView, WitnessRow
from tournament.output.render import score_words
from tournament.service.errors import EXIT_LOG_REJECTED, Conflict, NotFound, TournamentError, Usage
from tournament.service.persons import display_names
from tournament.service.queries import find_match, find_pod, get_event, storable
from tournament.service.results import match_over
from tournament.storage.eventlog import as_utc
from tournament.storage.models import DeckList, Event, LiveGame, LiveLine, LiveWitness, Match, Round

MODES = ("off", "paper", "digital")
LEGAL_SHOWN = 200  # records a seat is offered at most; past that the recorder's form takes one typed in
LEGAL_COUNTED = 1000  # the rest are counted this far (a block or a payment can have millions of ways)
CACHED_GAMES = 512  # games kept as they stand, per process (a kept game is a few hundred KiB at most)
TABLE_RULE = "T-81"  # who may make which record at a live table (tournament/README.md, "Tables")
KEEPER_RULE = "T-200"  # one page records for every seat, when the judge lets it
FREE_TEXT = 500  # characters of text no rule reads (a `note`, a game's `unread` fields) in a record a seat sends (T-144)
IDLE = timedelta(minutes=10)  # T-153: a live table with no record for this long is flagged on the organiser's page


class Refused(TournamentError):
    """A record the table does not take: the rule it breaks, why, and what the seat may record instead."""

    code = EXIT_LOG_REJECTED

    def __init__(self, message: str, rule: str | None, seq: int, legal: list[dict[str, Any]], more: int = 0) -> None:
        super().__init__(message)
        self.rule, self.seq, self.legal, self.more = rule, seq, legal, more


class Stale(Conflict):
    """An append built on a head that is no longer the game's: `seq` is the head now."""

    def __init__(self, message: str, seq: int) -> None:
        super().__init__(message)
        self.seq = seq


class NotStarted(NotFound):
    """A table nobody has opened yet: `open_table` starts its first game (a write), then it can be read."""


def open_table(session: Session, event_id: str, table: int, round_number: int | None = None) -> LiveGame:
    """The game being played at the table, its first game started now if nobody had opened the table yet."""
    return current_game(session, seating(session, event_id, table, round_number))


def table_opening(session: Session, event_id: str, table: int) -> Opening | None:
    """The first game of a table nobody has opened, made ready in a reading session (None once it has started):
    `store_opening` then writes it in a short writing one."""
    seat = seating(session, event_id, table)
    return None if games(session, seat) else prepare_opening(session, seat, 1)


def store_table_opening(session: Session, opening: Opening) -> LiveGame:
    """`store_opening` for `table_opening`'s opening; Conflict if the next round was paired in between (the
    table it opens is no longer the round's)."""
    if session.scalar(select(Event.rounds).where(Event.id == opening.game.event_id)) != opening.game.round:
        raise Conflict(f"round {opening.game.round} is over: a new round was paired; open your table again")
    return store_opening(session, opening)


@dataclass
class Live:
    """A game at its head: the referee's replay (state, dealt draws), and where the head is."""

    replay: Replay
    header: Header
    ruleset: Ruleset
    seq: int
    head: str
    key: tuple[str, int, int, int]  # the game's: event, round, table, game
    records: list[Record] = field(default_factory=list)  # the log's records, for the seats' views


_cache: OrderedDict[tuple[URL, str, int, int, int], Live] = OrderedDict()  # (database, *the game's key) -> the game as kept
_cache_lock = threading.Lock()


def _db(session: Session) -> URL:
    return session.get_bind().engine.url  # the reading and the writing engines of one database share it


def _game_key(game: LiveGame) -> tuple[str, int, int, int]:
    return game.event_id, game.round, game.table, game.game


def _take(session: Session, game: LiveGame) -> Live | None:
    """The game as this process last kept it, taken out until kept again (two requests never share one)."""
    with _cache_lock:
        return _cache.pop((_db(session), *_game_key(game)), None)


def _keep(session: Session, live: Live) -> None:
    with _cache_lock:
        _cache[(_db(session), *live.key)] = live
        while len(_cache) > CACHED_GAMES:
            _cache.popitem(last=False)


# -- the table and its games ---------------------------------------------------


@dataclass(frozen=True)
class Seating:
    """A table of a round: its players in seat order, whether it is a pod, and the result counted once it is in."""

    event: Event
    round: int
    table: int
    players: list[str]
    pod: bool
    counted: Counted | None

    @property
    def reported(self) -> bool:
        return self.counted is not None


def seating(session: Session, event_id: str, table: int, round_number: int | None = None) -> Seating:
    """The live table `table` of the round (the current one by default); NotFound or Usage if there is none."""
    found = _match_table(session, event_id, table, round_number)
    return found[0] if found is not None else _seating(session, event_id, table, round_number)


def seated(session: Session, event_id: str, table: int, round_number: int | None = None) -> tuple[Seating, list[LiveGame]]:
    """`seating` and the table's games so far, in order (one statement for a match's table)."""
    found = _match_table(session, event_id, table, round_number)
    if found is not None:
        return found
    placed = _seating(session, event_id, table, round_number)
    return placed, games(session, placed)


# A match's table and its games in one statement, built once: building a statement each request cost more than
# running it (T-169). A NULL round: the round being played.
_MATCH_TABLE = (
    select(Event, Match, LiveGame)
    .join(Match, (Match.event_id == Event.id) & (Match.number == bindparam("table"))
          & (Match.round == func.coalesce(bindparam("round", type_=Integer), Event.rounds)))
    .outerjoin(LiveGame, (LiveGame.event_id == Match.event_id) & (LiveGame.round == Match.round) & (LiveGame.table == Match.number))
    .where(Event.id == bindparam("event"))
    .order_by(LiveGame.game)
    .execution_options(populate_existing=True)  # in a writing session, the rows as they are now
)


def _match_table(session: Session, event_id: str, table: int, round_number: int | None) -> tuple[Seating, list[LiveGame]] | None:
    """A match's live table and its games, read at once; None for anything else (a pod, a round or table that
    does not exist, an event without live tables), which `_seating` reads and names."""
    if not storable(table) or (round_number is not None and not storable(round_number)):
        return None
    rows = session.execute(_MATCH_TABLE, {"event": event_id, "table": table, "round": round_number}).all()
    if not rows:
        return None
    event, match = rows[0][0], rows[0][1]
    if event.tables == "off" or event.format == "pods" or not 1 <= match.round <= event.rounds:
        return None
    found = [game for _, _, game in rows if game is not None]
    return _match_seating(event, match, lambda: any(game.reported for game in found)), found


def _seating(session: Session, event_id: str, table: int, round_number: int | None) -> Seating:
    event = get_event(session, event_id)
    if event.tables == "off":
        raise Usage(f"{event_id!r} has no live tables (created with --tables off); results are reported as logs or slips")
    if event.format == "pods":
        pod, seats = find_pod(session, event, table, round_number)
        if pod.source == "bye":
            raise NotFound(f"table {table} of round {pod.round} is a bye; nothing is played there")
        counted = None
        if pod.source is not None:
            places = {s.player: s.place for s in seats if s.place is not None}
            counted = Counted(pod.source, _from_table(session, event.id, pod.round, pod.number), places=places)
        return Seating(event, pod.round, pod.number, [s.player for s in seats], pod=True, counted=counted)
    match = find_match(session, event, table, round_number)
    return _match_seating(event, match, lambda: _from_table(session, event.id, match.round, match.number))


def _match_seating(event: Event, match: Match, from_table: Callable[[], bool]) -> Seating:
    """A match's table; once its result is in, the result that counts (`from_table`: whether the table's own
    games reported it, asked only then)."""
    if match.games_a is None or match.games_b is None:
        return Seating(event, match.round, match.number, [match.player_a, match.player_b], pod=False, counted=None)
    games = {match.player_a: match.games_a, match.player_b: match.games_b}
    counted = Counted(match.source or "", from_table(), games, match.draws or 0)
    return Seating(event, match.round, match.number, [match.player_a, match.player_b], pod=False, counted=counted)


def _from_table(session: Session, event_id: str, round_number: int, table: int) -> bool:
    """Was the table's result reported from its own games (witness.settle marks them), not by another path?"""
    query = select(LiveGame.game).filter_by(event_id=event_id, round=round_number, table=table, reported=True)
    return session.scalar(query.limit(1)) is not None


HOW = {"log": "from game logs uploaded", "players": "typed by the players and confirmed", "judge": "a judge's ruling", "slip": "a signed slip"}


def counted_words(players: list[str], counted: Counted, names: dict[str, str]) -> str:
    """The result that counts for a table, in words with names, and where it came from: "Bob wins 2-0, a judge's
    ruling"."""
    said = score_words(players, names, counted.games, counted.draws, counted.places)
    how = "from this table's log, confirmed by the players" if counted.from_table else HOW.get(counted.source, counted.source)
    return f"{said}, {how}"


def refuse_reported(session: Session, seat: Seating) -> None:
    """T-133: once the match is reported, by whatever path, its live table takes nothing more (records, a device's
    acknowledgement, a confirmation, a bot): Conflict (409) naming the result that counts."""
    if seat.counted is not None:
        words = counted_words(seat.players, seat.counted, display_names(session, seat.event.id))
        raise Conflict(f"table {seat.table} of round {seat.round} has its result ({words}): its live table takes nothing more")


def _header(session: Session, seat: Seating, game: int, seed: str | None, now: datetime) -> Header:
    """A game's first line: the players' setup (the ruleset's own for them, seeded by the event, table and game,
    with each player's registered deck list where the game has decks: service/decks.py), where it belongs in
    the event, and a digital game's commitment to its seed."""
    event = seat.event
    ruleset = get_ruleset(event.ruleset)
    rng = random.Random(f"{event.id}/{event.seed}/{seat.round}/{seat.table}/{game}")
    setup = ruleset.default_setup(list(seat.players), rng)
    rules = ruleset.deck_rules()
    if rules is not None:
        lists = session.scalars(select(DeckList).where(DeckList.event_id == event.id, DeckList.player.in_(seat.players)))
        for row in lists:
            try:
                setup = rules.with_deck(setup, row.player, read_deck(row.text.encode(), rules))
            except NotImplementedError:  # a game whose decks do not carry over: the report's deck check says so (T-114)
                break
    return Header(
        log=LOG_FORMAT, ruleset=event.ruleset, game=f"{event.id}-r{seat.round}-t{seat.table}-g{game}",
        players=list(seat.players), setup=msgspec.Raw(msgspec.json.encode(setup)),
        event=Place(event.id, seat.round, seat.table), started_at=now.replace(microsecond=0),
        deal=dealing.header_deal(seed) if seed is not None else None,
    )


def games(session: Session, seat: Seating) -> list[LiveGame]:
    """The table's games so far, in order."""
    query = select(LiveGame).filter_by(event_id=seat.event.id, round=seat.round, table=seat.table)
    return list(session.scalars(query.order_by(LiveGame.game).execution_options(populate_existing=True)))


def current_game(session: Session, seat: Seating) -> LiveGame:
    """The game being played at the table (its first, started now if need be), or the last one once the match is over."""
    found = games(session, seat)
    if found:
        return found[-1]
    return start_game(session, seat, 1)


def start_game(session: Session, seat: Seating, number: int, bots: str = "") -> LiveGame:
    """Start game `number`: its header line, then whatever the server makes before anyone acts (a digital game's
    opening deal). Two requests starting it at once: one insert wins, the other reads the winner's game."""
    return store_opening(session, prepare_opening(session, seat, number, bots))


@dataclass
class Opening:
    """A game made ready to start and not written yet: its row, its lines (the header first, then the server's
    records before anyone acts) and the game as judged at their end."""

    game: LiveGame
    lines: list[bytes]
    live: Live


def prepare_opening(session: Session, seat: Seating, number: int, bots: str = "") -> Opening:
    """Game `number`'s opening, made from a reading session: its header (the setup, the deal's commitment) and
    the server's first records, each judged; `store_opening` writes it."""
    now = datetime.now(UTC)
    seed = dealing.new_seed() if seat.event.tables == "digital" else None
    line = ENCODER.encode(_header(session, seat, number, seed, now))
    game = LiveGame(event_id=seat.event.id, round=seat.round, table=seat.table, game=number, mode=seat.event.tables, seed=seed,
                    seq=0, head=line_hash(line), over=False, reported=False, bots=bots, created_at=now)
    replay = judge([line], f"table {seat.table} game {number}")
    assert replay.header is not None and replay.ruleset is not None, "the server's header is a valid start"
    live = Live(replay, replay.header, replay.ruleset, 0, game.head, _game_key(game))
    lines = [line, *_server_records(game, live, [])]
    game.seq, game.head, game.over = len(lines) - 1, line_hash(lines[-1]), _over(live)
    live.seq, live.head = game.seq, game.head
    return Opening(game, lines, live)


def store_opening(session: Session, opening: Opening) -> LiveGame:
    """Write a prepared opening; if the game was started meanwhile (by another request), that game instead."""
    game = opening.game
    key = _game_key(game)
    try:
        with session.begin_nested():
            session.add(game)
            session.flush()
            session.add_all(LiveLine(event_id=key[0], round=key[1], table=key[2], game=key[3], seq=seq, line=line, at=game.created_at)
                            for seq, line in enumerate(opening.lines))
            session.flush()
    except IntegrityError:  # started at the same moment by another request
        found = session.get(LiveGame, key, populate_existing=True)
        assert found is not None
        return found
    _keep(session, opening.live)
    return game


def serve(session: Session, game: LiveGame) -> None:
    """Make the records that are the server's to make now (a deal, a bot's move), if any."""
    live = _judged(session, game)
    before = game.seq
    lines = _server_records(game, live, [])
    if lines:
        _write(session, game, live, before, lines)
    _keep(session, live)


def game_row(session: Session, event_id: str, round_number: int, table: int, game: int) -> LiveGame:
    row = session.get(LiveGame, (event_id, round_number, table, game), populate_existing=True)
    if row is None:
        raise NotFound(f"table {table} of round {round_number} has no game {game}")
    return row


def lines_of(session: Session, game: LiveGame) -> list[bytes]:
    """A game's log up to its head as `game` read it, line by line (the header first). Only up to that head: on
    PostgreSQL another append may commit between reading the row and reading the lines, and a record judged after
    a line its head does not name would be refused by a rule where it only lost the race (a 409, issue 33)."""
    query = select(LiveLine.line).filter_by(event_id=game.event_id, round=game.round, table=game.table, game=game.game)
    return list(session.scalars(query.where(LiveLine.seq <= game.seq).order_by(LiveLine.seq)))


def log_bytes(session: Session, game: LiveGame) -> bytes:
    """A game's log as a file: each line and its newline."""
    return b"".join(line + b"\n" for line in lines_of(session, game))


def _judged(session: Session, game: LiveGame) -> Live:
    """The game at its head: kept from an earlier request if the head is the same (or brought up from an earlier
    head of it), else judged from its lines."""
    live = _take(session, game)
    if live is not None and live.seq == game.seq and live.head == game.head:
        return live
    if live is not None and live.seq < game.seq:
        found = _caught_up(session, game, live)
        if found is not None:
            return found
    lines = lines_of(session, game)
    replay = judge(lines, f"table {game.table} game {game.game}")
    if replay.verdict.verdict not in ("ongoing", "complete") or replay.header is None or replay.ruleset is None:
        raise Conflict(f"table {game.table} game {game.game}: the stored log is {replay.verdict.verdict}; ask the organiser")
    return _live(replay, lines, game)


def _live(replay: Replay, lines: list[bytes], game: LiveGame) -> Live:
    assert replay.header is not None and replay.ruleset is not None
    decode = record_decoder(replay.header.ruleset).decode
    records = [decode(line) for line in lines[1:]]
    return Live(replay, replay.header, replay.ruleset, len(records), line_hash(lines[-1]), _game_key(game), records)


def _withdrawing(session: Session, game: LiveGame, line: bytes) -> Live:
    """The game with a withdrawal (`line`) added, judged again from its first line as the referee judges a log
    (the withdrawn record read but not played: referee/takeback.py); Illegal if the game without it breaks a
    rule."""
    lines = [*lines_of(session, game), line]
    replay = judge(lines, f"table {game.table} game {game.game}")
    error = replay.verdict.error
    if error is not None:
        raise Illegal(error.rule or TABLE_RULE, error.message)
    return _live(replay, lines, game)


def _caught_up(session: Session, game: LiveGame, live: Live) -> Live | None:
    """`live`, kept at an earlier head of `game`, brought to the game's head by the lines written after it (by
    another worker), each chained to the one before and judged again; None if they do not follow from it."""
    query = select(LiveLine.line).filter_by(event_id=game.event_id, round=game.round, table=game.table, game=game.game)
    decode = record_decoder(live.header.ruleset).decode
    head = live.head
    for line in session.scalars(query.where(LiveLine.seq > live.seq).order_by(LiveLine.seq)):
        try:
            record = decode(line)
            if record.seq != live.seq + 1 or record.prev != head:
                return None
            advance(live.replay, record, record.seq + 1)
        except (Illegal, Rewind, *DECODE_ERRORS):  # a withdrawal: the game is judged again from its lines
            return None
        live.records.append(record)
        live.seq, head = record.seq, line_hash(line)
    if (live.seq, head) != (game.seq, game.head):
        return None
    live.head = head
    return live


# -- appending ------------------------------------------------------------------


@dataclass
class Judged:
    """A record judged on the head it names, with the records the server makes after it: not written yet."""

    placed: Seating
    game: LiveGame
    live: Live
    after: int
    lines: list[bytes]
    seat: Seat


def append(
    session: Session, event_id: str, table: int, seat: Seat, record: dict[str, Any], after: int, *, round_number: int | None = None,
) -> tuple[LiveGame, Appended]:
    """Judge `record`, made by `seat` (a player at the table, or JUDGE) on the head `after` of the game being played,
    and write it with whatever the server makes after it; Refused (nothing written) if the referee or the table
    refuses it, Stale if the head moved. One session; `tournament serve` judges in a reading session and writes
    in a short writing one (`judge_record`, then `write`)."""
    try:
        judged = judge_record(session, event_id, table, seat, record, after, round_number=round_number)
    except NotStarted:
        open_table(session, event_id, table, round_number)
        judged = judge_record(session, event_id, table, seat, record, after, round_number=round_number)
    return write(session, judged)


def judge_record(
    session: Session, event_id: str, table: int, seat: Seat, record: dict[str, Any], after: int, *, round_number: int | None = None,
) -> Judged:
    """`append`'s judgement, which writes nothing: Refused, Stale, NotStarted (nobody opened the table), or the record
    and the server's records after it, to `write` if the head is still `after` then."""
    placed, found = seated(session, event_id, table, round_number)
    if seat != JUDGE and seat not in placed.players:
        raise Refused(f"{seat} does not play at table {placed.table}", TABLE_RULE, 0, [])
    refuse_reported(session, placed)
    if not found:
        raise NotStarted(f"table {placed.table} of round {placed.round} has not started; opening it starts it")
    game = found[-1]
    if game.seq != after:
        raise Stale(f"the game moved on: its head is record {game.seq}, not {after}; read it again and record anew", game.seq)
    if game.over:
        raise Refused(f"game {game.game} is over; nothing more can be recorded", TABLE_RULE, game.seq, [])
    live = _judged(session, game)
    try:
        if game.mode == "digital" and record.get("by") == CHANCE:  # the seat chose to draw; the seed says what comes
            parsed = _dealt(live, game, record)
        else:
            parsed = _read(live, record, game)
        _permitted(game, seat, parsed, live)
        line = ENCODER.encode(parsed)
        try:
            advance(live.replay, parsed, parsed.seq + 1)
        except Rewind:  # a take-back agreed, a record withdrawn: the game as if that record had not been made
            _keep(session, live)
            live = _withdrawing(session, game, line)
            live.records.pop()  # appended below, as any record
    except Illegal as exc:
        _keep(session, live)  # an illegal record leaves the game as it was
        legal, more = options(live, game, seat)
        raise Refused(f"{exc.rule}: {exc.message}", exc.rule, game.seq, legal, more) from None
    live.records.append(parsed)
    return Judged(placed, game, live, after, _server_records(game, live, [line]), seat)


def write(session: Session, judged: Judged) -> tuple[LiveGame, Appended]:
    """Store a judged record (Stale if the head moved since it was judged), and start the match's next game if it
    ended one. The judged game is kept only once written: a record refused here leaves no trace in the cache."""
    game, live, after = judged.game, judged.live, judged.after
    _write(session, game, live, after, judged.lines)
    _keep(session, live)
    next_game = None
    if game.over:  # the seating again, from this session: the judgement's may have come from a reading one
        next_game = _next_game(session, seating(session, game.event_id, game.table, game.round), game)
    views = [_record_view(live, r, judged.seat) for r in live.records[after:]]
    return game, Appended(game.game, game.seq, views, bool(game.over), next_game)


def _read(live: Live, record: dict[str, Any], game: LiveGame) -> Record:
    """The record sent, with its place in the log filled in; Usage names the field it cannot take."""
    data = {k: v for k, v in record.items() if k not in ("seq", "prev", "dealt")}
    data["seq"], data["prev"] = game.seq + 1, game.head
    try:
        parsed: Record = record_decoder(live.header.ruleset).decode(ENCODER.encode(data))
    except (*DECODE_ERRORS, OverflowError, TypeError) as exc:
        bad = explain(exc) if isinstance(exc, DECODE_ERRORS) else None
        where = f"field {bad.field}: " if bad is not None and bad.field else ""
        raise Usage(f"record: {where}{bad.message if bad is not None else exc}") from None
    if type(parsed) is Reveal:
        raise Refused("only the server reveals a digital game's seed, when the game ends", TABLE_RULE, game.seq, [])
    for name in ("note", *live.ruleset.unread.get(type(parsed), ())):  # stored, and sent to every watcher
        text = getattr(parsed, name, None)
        if isinstance(text, str) and len(text) > FREE_TEXT:
            raise Usage(f"record: field {name}: at most {FREE_TEXT} characters at a live table, not {len(text):,}")
    return parsed


def _dealt(live: Live, game: LiveGame, asked: dict[str, Any]) -> Record:
    """The chance record the seed deals where a seat asks to draw at a digital table (`asked` names the kind of draw,
    its type and whose: any card it names is the seed's to choose)."""
    kind = {k: v for k, v in asked.items() if k not in ("card", "seq", "prev", "dealt")}
    state = live.replay.state
    event = next(
        (r for r in live.ruleset.legal(state) if r.by == CHANCE and _without_card(record_to_dict(r)) == kind), None
    )
    if event is None:
        raise Illegal(TABLE_RULE, f"no draw of that kind ({kind.get('type')}) can be made here")
    seq = game.seq + 1
    dealt = dealing.deal(live.ruleset, state, game.seed or "", seq, event)
    return msgspec.structs.replace(dealt, seq=seq, prev=game.head)


def _without_card(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "card"}


def keeper(live: Live) -> str | None:
    """The page that records for every seat (T-200): a player's id, JUDGE for the organiser's, None for none."""
    backs = live.replay.backs
    return backs.keeper if backs is not None else None


def _permitted(game: LiveGame, seat: Seat, record: Record, live: Live) -> None:
    """T-81: a player records their own actions (and at a paper table their own draws); the judge, judge records.
    T-200: while the judge lets one page record for every seat (a `keeper` record), that page alone records the
    seats' records."""
    bots = game.bots.split()
    keeping = keeper(live)
    if record.by == JUDGE:
        if seat != JUDGE:
            raise Illegal(TABLE_RULE, "only a judge makes judge records")
        if type(record) is Keeper and record.device not in (None, JUDGE, *live.header.players):
            raise Illegal(KEEPER_RULE, "the page that records for every seat is a player's at the table or the judge's")
        return
    if seat in bots:
        raise Illegal(TABLE_RULE, f"the server's bot plays {seat}'s seat")
    if keeping is not None:
        if seat != keeping:
            raise Illegal(KEEPER_RULE, f"{keeping}'s page records for every seat at this table now; the judge can end that")
        owner = getattr(record, "player", None) if record.by == CHANCE else record.by
        if owner in bots:
            raise Illegal(TABLE_RULE, f"the server's bot plays {owner}'s seat")
        return
    if seat == JUDGE:
        raise Illegal(TABLE_RULE, "a judge makes only judge records (time, game_loss, withdraw, keeper); the players record their own play")
    if record.by == CHANCE:
        if getattr(record, "player", seat) != seat:
            raise Illegal(TABLE_RULE, f"a draw is recorded by the player who draws, not by {seat}")
        return
    if record.by != seat:
        raise Illegal(TABLE_RULE, f"{seat} records their own actions, not {record.by}'s")


def _server_records(game: LiveGame, live: Live, lines: list[bytes]) -> list[bytes]:
    """After a record: the records the server makes itself, each judged like any other (a digital game's dealt
    cards and, once it is over, its seed's reveal; a bot seat's moves); `lines` with theirs added."""
    ruleset, replay = live.ruleset, live.replay
    bots = set(game.bots.split())
    every_seat_a_bot = bots >= set(live.header.players)
    revealed = False
    while not revealed:
        state = replay.state
        seq = game.seq + len(lines) + 1
        record: Record | None = None
        if ruleset.result(state) is not None:
            if game.mode != "digital":
                break
            record, revealed = dealing.reveal(game.seed or ""), True
        else:
            to_act = set(ruleset.to_act(state))
            if every_seat_a_bot and ruleset.turn_limit(state):
                record = Time(by=JUDGE)
            elif game.mode == "digital" and to_act == {CHANCE}:
                event = dealing.due_event(ruleset, state)
                assert event is not None, "chance is to act, so a chance record is legal"
                record = dealing.deal(ruleset, state, game.seed or "", seq, event)
            elif bots and to_act and to_act <= bots | {CHANCE}:
                record = ruleset.sample(state, random.Random(f"{game.event_id}/{game.round}/{game.table}/{game.game}/{seq}"))
                if record.by == CHANCE and game.mode == "digital":
                    record = dealing.deal(ruleset, state, game.seed or "", seq, record)
        if record is None:
            break
        prev = line_hash(lines[-1]) if lines else game.head
        record = msgspec.structs.replace(record, seq=seq, prev=prev)
        advance(replay, record, seq + 1)  # a record the server makes is legal: an Illegal here is a bug, and a 500
        live.records.append(record)
        lines.append(ENCODER.encode(record))
    return lines


def _write(session: Session, game: LiveGame, live: Live, after: int, lines: list[bytes]) -> None:
    """Move the head from `after` past `lines` and store them, or raise Stale if another append moved it first."""
    seq, head, over = after + len(lines), line_hash(lines[-1]), _over(live)
    key = _game_params(game)
    session.flush()  # what the session changed before (the move names the bots), as the ORM's UPDATE did: Core does not
    connection = session.connection()  # Core, and statements built once: the head's move and the lines, two statements
    moved = connection.execute(_MOVE_HEAD, {**key, "after": after, "of_bots": game.bots, "to_seq": seq, "to_head": head, "to_over": over})
    if moved.rowcount != 1:
        current = session.scalar(select(LiveGame.seq).filter_by(event_id=game.event_id, round=game.round, table=game.table, game=game.game))
        raise Stale(f"another record (or a bot's seat) was made first: the head is record {current}; read it again", current or 0)
    now = datetime.now(UTC)
    connection.execute(_ADD_LINES, [{**key, "at_seq": after + number, "text": line, "written": now} for number, line in enumerate(lines, start=1)])
    for name, value in (("seq", seq), ("head", head), ("over", over)):  # as the UPDATE left the row: no second UPDATE
        set_committed_value(game, name, value)
    live.seq, live.head = seq, head


_MOVE_HEAD = (  # the bots too: the server's records were made for the seats the bots had then
    update(LiveGame)
    .where(LiveGame.event_id == bindparam("of_event"), LiveGame.round == bindparam("of_round"), LiveGame.table == bindparam("of_table"),
           LiveGame.game == bindparam("of_game"), LiveGame.seq == bindparam("after"), LiveGame.bots == bindparam("of_bots"))
    .values(seq=bindparam("to_seq"), head=bindparam("to_head"), over=bindparam("to_over"))
)
_ADD_LINES = insert(LiveLine).values(
    event_id=bindparam("of_event"), round=bindparam("of_round"), table=bindparam("of_table"), game=bindparam("of_game"),
    seq=bindparam("at_seq"), line=bindparam("text"), at=bindparam("written"),
)


def _over(live: Live) -> bool:
    """The game has ended by its rules (and a digital game's seed is revealed)."""
    return live.ruleset.result(live.replay.state) is not None and (live.replay.ledger is None or live.replay.ledger.revealed)


def _next_game(session: Session, seat: Seating, game: LiveGame) -> int | None:
    """Once a game of a match ends, the next one starts, unless the match is decided (a pod plays one game)."""
    if seat.pod or match_decided(session, seat):
        return None
    return start_game(session, seat, game.game + 1, game.bots).game


def results(session: Session, seat: Seating) -> list[tuple[LiveGame, Any]]:
    """Each game of the table with its Result (None while played)."""
    return _results(session, games(session, seat))


def _results(session: Session, played: list[LiveGame]) -> list[tuple[LiveGame, Any]]:
    found = []
    for game in played:
        live = _judged(session, game)
        found.append((game, live.ruleset.result(live.replay.state) if game.over else None))
        _keep(session, live)
    return found


def match_decided(session: Session, seat: Seating) -> bool:
    """Whether the games played so far decide the table's match (a pod: its one game is over)."""
    return _decided(seat, results(session, seat))


def _decided(seat: Seating, played: list[tuple[LiveGame, Any]]) -> bool:
    if seat.pod:
        return bool(played) and played[0][0].over
    wins = dict.fromkeys(seat.players, 0)
    over = [result for game, result in played if game.over]
    for result in over:
        if len(result.winners) == 1:
            wins[result.winners[0]] += 1
    return match_over(seat.event, seat.round, wins, len(over))


# -- what each seat sees -------------------------------------------------------


def _record_view(live: Live, record: Record, seat: Seat) -> dict[str, Any]:
    """A record as `seat` sees it. Made from the game at its head: a card a record showed stays shown (the
    views hide what was drawn, never what a later record revealed), and a game's `record_view` reads only
    the state for cards still face down there."""
    view = live.ruleset.record_view(record, seat, live.replay.state)
    view.pop("prev", None)
    return view


def _records_view(live: Live, records: list[Record], seat: Seat) -> list[dict[str, Any]]:
    """`records` as `seat` sees them. A withdrawn record (T-201) is judged as if it had not been made, so the state
    a game's `record_view` reads no longer holds what it put face down (a build's card is back in hand): its
    fields name none of the cards hidden from `seat` now."""
    backs = live.replay.backs
    withdrawn = backs.withdrawn if backs is not None and seat != JUDGE else set()
    hidden: set[str] = set()
    if any(r.seq in withdrawn for r in records):
        hidden = {card for player, cards in live.ruleset.hidden(live.replay.state).items() if player != seat for card in cards}
    return [_veiled(_record_view(live, r, seat), hidden) if r.seq in withdrawn else _record_view(live, r, seat) for r in records]


def _veiled(value: Any, hidden: set[str]) -> Any:
    """`value` (a record's view) with every card of `hidden` it names left out (None), its type, seats and seq kept."""
    if isinstance(value, dict):
        return {k: v if k in ("type", "by", "player", "seq") else _veiled(v, hidden) for k, v in value.items()}
    if isinstance(value, list):
        return [_veiled(v, hidden) for v in value]
    return None if isinstance(value, str) and value in hidden else value


def options(live: Live, game: LiveGame, seat: Seat) -> tuple[list[dict[str, Any]], int]:
    """The records `seat` may make now, at most LEGAL_SHOWN, and how many more; a digital game's draws once per kind."""
    ruleset, state = live.ruleset, live.replay.state
    if game.over or ruleset.result(state) is not None:
        return [], 0
    keeping, players, bots = keeper(live), live.header.players, game.bots.split()
    shown: list[dict[str, Any]] = []
    if seat == JUDGE:
        shown = [{"type": "time", "by": JUDGE}, *({"type": "game_loss", "by": JUDGE, "player": p} for p in players)]
        devices = [None] if keeping is not None else [p for p in players if p not in bots] + [JUDGE]
        shown += [{"type": "keeper", "by": JUDGE, **({"device": d} if d else {})} for d in devices]
    seats = _recording_now(live, game, seat)
    if not seats:
        return shown, 0
    to_act = ruleset.to_act(state)
    if not seats & set(to_act) and CHANCE not in to_act:
        return shown, 0  # not theirs to act: the game's legal listing (combinatorial in some games) is not walked
    kinds: set[bytes] = set()
    more = 0
    for record in _seat_records(ruleset, state, seats, game.mode == "paper", set(to_act)):
        data = record_to_dict(record)
        if record.by == CHANCE and game.mode == "digital":
            kind = ENCODER.encode(_without_card(data))
            if kind in kinds:
                continue
            kinds.add(kind)
            data = _without_card(data) | {"dealt": True}
        elif data.get("type") == "draw" and record.by == CHANCE and "card" in data and "card" not in record_to_dict(ruleset.unname(state, record)):
            kind = ENCODER.encode(_without_card(data))
            if kind not in kinds:  # a paper draw may leave its card out where its game allows (UD-1): offered once, first
                kinds.add(kind)
                shown.insert(len(kinds) - 1, _without_card(data))
        if len(shown) < LEGAL_SHOWN:
            shown.append(data)
        else:
            more += 1
            if more >= LEGAL_COUNTED:
                break
    return shown, more


def _recording_now(live: Live, game: LiveGame, seat: Seat) -> set[str]:
    """The seats whose records `seat`'s page makes now: none for a spectator, a bot's seat, a page while another
    keeps the table (T-200), or the judge's unless it keeps it."""
    keeping = keeper(live)
    if seat is None or seat in game.bots.split() or (keeping is not None and seat != keeping) or (seat == JUDGE and keeping != JUDGE):
        return set()
    return _recording_for(live, game, seat)


def unseen_options(live: Live, game: LiveGame, seat: Seat) -> list[dict[str, Any]]:
    """The records `seat`'s page may make now with an unknown card (a draw recorded unnamed, UD-1), each with the
    card it names (`{"card": ..., "record": ...}`), at most LEGAL_SHOWN: for each seat the page records for that
    acts now and holds unknown cards, its records that play, discard or show a card still unseen for it
    (`referee.unseen.playable`, from that seat's own zones). Never another seat's: its unseen cards are its own."""
    ruleset, state = live.ruleset, live.replay.state
    if game.over or ruleset.result(state) is not None:
        return []
    found: list[dict[str, Any]] = []
    for acting in sorted(_recording_now(live, game, seat) & set(ruleset.to_act(state))):
        for card, record in unseen.playable(ruleset, state, acting):
            found.append({"card": card, "record": record_to_dict(record)})
            if len(found) >= LEGAL_SHOWN:
                return found
    return found


def _recording_for(live: Live, game: LiveGame, seat: str) -> set[str]:
    """The seats whose records `seat`'s page makes: its own, or every seat (the bots' aside) on the keeper's."""
    bots = game.bots.split()
    if seat == keeper(live):
        return {p for p in live.header.players if p not in bots}
    return {seat} if seat in live.header.players and seat not in bots else set()


def take_backs(live: Live, game: LiveGame, seat: Seat) -> list[dict[str, Any]]:
    """The take-back records `seat`'s page may make now (TB-R1, TB-R2): ask for its own last record back, or agree
    to the take-back asked of it; on the keeper's page, every seat's."""
    backs, keeping = live.replay.backs, keeper(live)
    if game.over or seat is None or backs is None or (keeping is not None and seat != keeping):
        return []
    return [record_to_dict(r) for s in sorted(_recording_for(live, game, seat)) for r in backs.offers(s, live.ruleset, live.replay.state)]


def _seat_records(ruleset: Ruleset, state: Any, seats: set[str], paper: bool, to_act: Set[str]) -> Iterator[Record]:
    """The seats' own legal records (one seat's, or every seat's for the page that keeps the table) as the game
    lets each seat see them (`Ruleset.seat_legal`: none names a card hidden from it, as another player's seeded
    dilemma), and at a paper table a chance record no player owns too (someone at the table writes down what
    came). Only the seats that act now are walked."""
    chance = CHANCE in to_act
    for seat in sorted(seats if chance else seats & to_act):
        yield from ruleset.seat_legal(state, seat)
    if paper and chance:
        yield from (r for r in ruleset.legal(state) if r.by == CHANCE and getattr(r, "player", None) is None)


def view(session: Session, event_id: str, table: int, seat: Seat, *, since: int = 0, round_number: int | None = None,
         game_number: int | None = None, elsewhere_spectator: bool = False) -> TableView:
    """The table as `seat` may see it: the game being played (or `game_number`), its records after `since`. A player
    of another table is refused (NotFound), or with `elsewhere_spectator` sees what a spectator sees."""
    placed, found = seated(session, event_id, table, round_number)
    if seat not in (JUDGE, None) and seat not in placed.players:
        if not elsewhere_spectator:
            raise NotFound(f"{seat} does not play at table {placed.table}")
        seat = None
    played = _results(session, found)
    if not played:
        raise NotStarted(f"table {placed.table} of round {placed.round} has not started; opening it starts it")
    chosen = [g for g, _ in played if game_number is None or g.game == game_number]
    if not chosen:
        raise NotFound(f"table {placed.table} has no game {game_number}")
    game = chosen[-1]
    decided = _decided(placed, played)
    live = _judged(session, game)  # taken from the cache until kept again: nothing else may use it meanwhile
    ruleset, state = live.ruleset, live.replay.state
    legal, more = options(live, game, seat) if placed.counted is None else ([], 0)  # reported: nothing more to record
    from_unseen = unseen_options(live, game, seat) if placed.counted is None else []
    backs = take_backs(live, game, seat) if placed.counted is None else []
    result = ruleset.result(state)
    since = max(0, min(since, game.seq))
    records = _records_view(live, live.records[since:], seat)
    seen = {player: (number, confirmed) for player, number, confirmed in session.connection().execute(_WITNESSES, _game_params(game))}
    witness = [WitnessRow(p, seen[p][0] if p in seen else 0, p in seen and seen[p][1] is not None) for p in placed.players]
    summaries = [
        GameSummary(g.game, g.seq, bool(g.over), list(r.winners) if r is not None else None, r.reason if r is not None else None)
        for g, r in played
    ]
    _keep(session, live)
    return TableView(
        placed.event.id, placed.round, placed.table, game.mode, placed.event.ruleset, placed.players, seat,  # type: ignore[arg-type]
        game.game, game.seq, since, bool(game.over), list(ruleset.to_act(state)), msgspec.to_builtins(result) if result else None,
        ruleset.seat_view(state, seat), records, legal, more, summaries, witness, game.bots.split(), decided, placed.reported,
        placed.counted, backs, sorted(live.replay.backs.withdrawn) if live.replay.backs else [], keeper(live), from_unseen,
    )


_WITNESSES = select(LiveWitness.player, LiveWitness.seen, LiveWitness.confirmed).where(
    LiveWitness.event_id == bindparam("of_event"), LiveWitness.round == bindparam("of_round"),
    LiveWitness.table == bindparam("of_table"), LiveWitness.game == bindparam("of_game"),
)


def _game_params(game: LiveGame) -> dict[str, Any]:
    """The parameters that name `game` in the statements built once (`_WITNESSES`, `_MOVE_HEAD`, `_ADD_LINES`)."""
    return {"of_event": game.event_id, "of_round": game.round, "of_table": game.table, "of_game": game.game}


def state_text(session: Session, game: LiveGame) -> str:
    """The game as the referee writes it for people (`referee replay`'s text): the judge's whole view."""
    live = _judged(session, game)
    _keep(session, live)
    return live.ruleset.render(live.replay.state)


def judge_view(session: Session, game: LiveGame) -> dict[str, Any]:
    """What the game's own drawing (`view.html.j2`, as `referee show`) needs, with everything in view."""
    live = _judged(session, game)
    _keep(session, live)
    return live.ruleset.view(live.replay.state)


def setup_of(header: Header) -> Any:
    return setup_decoder(header.ruleset).decode(header.setup)


def setup_data(session: Session, event_id: str, round_number: int, table: int, game_number: int) -> Any:
    """A game's setup as plain data (its header's), which a game's drawing may read beside the state (a deck's
    card kinds); it is drawn on the server, only for the cards the seat's view shows."""
    live = _judged(session, game_row(session, event_id, round_number, table, game_number))
    _keep(session, live)
    return msgspec.json.decode(live.header.setup)


# -- the organiser's overview ------------------------------------------------------------------


def progress(session: Session, event: Event, tables: list[int], now: datetime) -> dict[int, TableProgress]:
    """How each of the current round's live `tables` is going (T-153): the game being played, the records made in
    the match, who is to act, the last record's time, and whether the table has been idle for IDLE (no record
    since; a table not opened, since the round's clock started). Empty for an event without live tables."""
    if event.tables == "off" or not event.rounds or not tables:
        return {}
    key = (LiveGame.event_id == event.id, LiveGame.round == event.rounds, LiveGame.table.in_(tables))
    played: dict[int, list[LiveGame]] = {}
    for game in session.scalars(select(LiveGame).where(*key).order_by(LiveGame.table, LiveGame.game)):
        played.setdefault(game.table, []).append(game)
    lines = select(LiveLine.table, func.max(LiveLine.at)).where(
        LiveLine.event_id == event.id, LiveLine.round == event.rounds, LiveLine.table.in_(tables),
    ).group_by(LiveLine.table)
    last = {table: as_utc(at) for table, at in session.execute(lines)}
    clock = session.scalar(select(Round.started_at).filter_by(event_id=event.id, number=event.rounds))
    found = {}
    for table in tables:
        games = played.get(table, [])
        since = last.get(table) or (as_utc(clock) if clock else None)
        idle = since is not None and now - since >= IDLE
        if not games:
            found[table] = TableProgress(table, None, 0, [], False, None, idle, _minutes(now, since) if idle else 0)
            continue
        game = games[-1]
        to_act: list[str] = []
        if not game.over:
            live = _judged(session, game)
            to_act = [seat for seat in live.ruleset.to_act(live.replay.state) if seat not in game.bots.split()]
            _keep(session, live)
        records = sum(g.seq for g in games)
        found[table] = TableProgress(table, game.game, records, to_act, bool(game.over), last.get(table), idle, _minutes(now, since) if idle else 0)
    return found


def _minutes(now: datetime, since: datetime | None) -> int:
    return 0 if since is None else int((now - since).total_seconds() // 60)
