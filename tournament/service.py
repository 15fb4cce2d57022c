"""The operations the CLI runs, each inside the caller's one transaction.

Every change locks the event row first (`lock_event`), checks against what
it then reads, and appends one or more log entries; a check that fails
raises a `TournamentError` before anything is written, so the caller's
rollback leaves the database as it was.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.engine import judge
from referee.ruleset import CHANCE, JUDGE
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids as ruleset_ids
from schemas.verdict import Verdict
from tournament import pairing
from tournament import standings as tiebreaks
from tournament.eventlog import (
    EventCreated,
    GameRecord,
    Payload,
    PlayerDropped,
    PlayerRegistered,
    ResultCorrected,
    ResultReported,
    RoundPaired,
    append,
)
from tournament.models import Event, GameLog, LogEntry, Match, Player, Round

ID_PATTERN = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")  # the referee's player-id pattern

# Exit codes (documented in tournament/README.md).
EXIT_VERIFY_FAILED = 1
EXIT_USAGE = 2
EXIT_NOT_FOUND = 3
EXIT_RESULTS_MISSING = 4
EXIT_WRONG_TABLE = 5
EXIT_LOG_REJECTED = 6
EXIT_CONFLICT = 7
EXIT_DATABASE = 8


class TournamentError(Exception):
    """A request the event cannot take; `code` is the CLI's exit code."""

    code = EXIT_USAGE

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Usage(TournamentError):
    code = EXIT_USAGE


class NotFound(TournamentError):
    code = EXIT_NOT_FOUND


class ResultsMissing(TournamentError):
    code = EXIT_RESULTS_MISSING


class WrongTable(TournamentError):
    code = EXIT_WRONG_TABLE


class LogRejected(TournamentError):
    code = EXIT_LOG_REJECTED


class Conflict(TournamentError):
    code = EXIT_CONFLICT


def check_id(kind: str, value: str) -> str:
    if not ID_PATTERN.match(value):
        raise Usage(f"{kind} {value!r} must be 1 to 64 letters, digits, '_', '.' or '-'")
    return value


def get_event(session: Session, event_id: str) -> Event:
    """The event, for reading; NotFound names it."""
    event = session.get(Event, event_id)
    if event is None:
        raise NotFound(f"unknown event {event_id!r}")
    return event


def lock_event(session: Session, event_id: str) -> Event:
    """The event row, locked until commit: writers to one event queue here (PostgreSQL)."""
    query = select(Event).where(Event.id == event_id).with_for_update()
    # populate_existing: what the previous writer committed, not a copy cached in this session
    event = session.scalars(query.execution_options(populate_existing=True)).one_or_none()
    if event is None:
        raise NotFound(f"unknown event {event_id!r}")
    return event


def create_event(
    session: Session, event_id: str, *, name: str, ruleset: str, profile: str, best_of: int, seed: int
) -> Event:
    check_id("event id", event_id)
    if ruleset not in ruleset_ids():
        raise Usage(f"unknown ruleset {ruleset!r} (known: {', '.join(ruleset_ids())})")
    game = get_ruleset(ruleset)
    if not game.min_players <= 2 <= game.max_players:
        raise Usage(f"{ruleset} is not a two-player game; Swiss events pair two players a table")
    if profile not in tiebreaks.PROFILES:
        raise Usage(f"unknown tiebreaker profile {profile!r} (known: {', '.join(sorted(tiebreaks.PROFILES))})")
    if best_of < 1 or best_of % 2 == 0:
        raise Usage(f"--best-of must be an odd number of games, not {best_of}")
    if session.get(Event, event_id) is not None:
        raise Conflict(f"event {event_id!r} already exists")
    append(session, event_id, EventCreated(name or event_id, ruleset, profile, best_of, seed))
    return get_event(session, event_id)


def players(session: Session, event_id: str) -> list[Player]:
    return list(session.scalars(select(Player).filter_by(event_id=event_id).order_by(Player.name)))


def get_player(session: Session, event_id: str, name: str) -> Player:
    player = session.get(Player, (event_id, name))
    if player is None:
        raise NotFound(f"unknown player {name!r} in event {event_id!r}")
    return player


def register(session: Session, event_id: str, names: Sequence[str]) -> list[str]:
    """Register players; after round 1 is paired they are late entries joining the next round."""
    event = lock_event(session, event_id)
    for name in names:
        check_id("player", name)
        if name in (CHANCE, JUDGE):
            raise Usage(f"{name!r} is reserved in game logs and cannot be a player id")
    if len(set(names)) != len(names):
        raise Usage("a player is named twice")
    for name in names:
        if session.get(Player, (event_id, name)) is not None:
            raise Conflict(f"{name!r} is already registered in {event_id!r}")
    for name in names:
        append(session, event.id, PlayerRegistered(name))
    return list(names)


def open_match(session: Session, event: Event, name: str) -> Match | None:
    """The player's match of the current round, if it has no result yet."""
    query = select(Match).filter_by(event_id=event.id, round=event.rounds, games_a=None)
    return next((m for m in session.scalars(query) if name in (m.player_a, m.player_b)), None)


def drop(session: Session, event_id: str, name: str) -> Match | None:
    """Drop a player. Mid-round, their unfinished match is conceded; return it then."""
    event = lock_event(session, event_id)
    player = get_player(session, event_id, name)
    if player.dropped_round is not None:
        raise Conflict(f"{name!r} already dropped (after round {player.dropped_round})")
    match = open_match(session, event, name)
    append(session, event.id, PlayerDropped(name, match.number if match else None))
    return match


def matches(session: Session, event_id: str, round_number: int | None = None) -> list[Match]:
    query = select(Match).filter_by(event_id=event_id)
    if round_number is not None:
        query = query.filter_by(round=round_number)
    return list(session.scalars(query.order_by(Match.round, Match.number)))


def rounds(session: Session, event_id: str) -> list[Round]:
    return list(session.scalars(select(Round).filter_by(event_id=event_id).order_by(Round.number)))


def _as_matches(session: Session, event_id: str) -> list[tiebreaks.Match]:
    """Every decided match and bye, in the form the standings functions take."""
    done = [
        tiebreaks.Match(m.round, (m.player_a, m.player_b), {m.player_a: m.games_a, m.player_b: m.games_b}, m.draws or 0)
        for m in matches(session, event_id)
        if m.games_a is not None and m.games_b is not None
    ]
    byes = [tiebreaks.Match(r.number, (r.bye,), {r.bye: 2}) for r in rounds(session, event_id) if r.bye]
    return sorted(done + byes, key=lambda m: m.round)


def standings(session: Session, event_id: str) -> list[tiebreaks.Standing]:
    event = get_event(session, event_id)
    everyone = players(session, event_id)
    dropped = {p.name: p.dropped_round for p in everyone if p.dropped_round is not None}
    return tiebreaks.standings([p.name for p in everyone], _as_matches(session, event_id), event.profile, dropped)


def pair(session: Session, event_id: str) -> Round:
    """Pair the next Swiss round; refuse while the current one has tables without a result."""
    event = lock_event(session, event_id)
    missing = [m.number for m in matches(session, event_id, event.rounds) if m.games_a is None]
    if missing:
        tables = ", ".join(str(n) for n in missing)
        raise ResultsMissing(
            f"round {event.rounds} has no result at table{'s' if len(missing) > 1 else ''} {tables}; "
            f"report {'them' if len(missing) > 1 else 'it'} before pairing round {event.rounds + 1}"
        )
    active = entrants(session, event_id)
    if len(active) < 2:
        raise Conflict(f"event {event_id!r} has {len(active)} active player(s); pairing needs two")
    number = event.rounds + 1
    result = pairing.pair_swiss(active, number, event.seed)
    append(session, event.id, RoundPaired(number, event.seed, list(result.tables), result.bye, result.cost))
    paired = session.get(Round, (event_id, number))
    assert paired is not None
    return paired


def entrants(session: Session, event_id: str) -> list[pairing.Entrant]:
    """The players still in the event, as the pairing function takes them."""
    table = standings(session, event_id)
    byes = {r.bye for r in rounds(session, event_id) if r.bye}
    opponents: dict[str, set[str]] = {s.player: set() for s in table}
    for m in matches(session, event_id):
        opponents[m.player_a].add(m.player_b)
        opponents[m.player_b].add(m.player_a)
    return [
        pairing.Entrant(s.player, s.points, s.rank, s.player in byes, frozenset(opponents[s.player]))
        for s in table
        if not s.dropped
    ]


def repairing_problem(rebuilt: Session, entry: LogEntry, payload: Payload) -> str | None:
    """For `verify`: does pairing the round again, from the log up to here and the stored seed, agree?"""
    if not isinstance(payload, RoundPaired):
        return None
    again = pairing.pair_swiss(entrants(rebuilt, entry.event_id), payload.round, payload.seed)
    if (list(again.tables), again.bye) == ([tuple(t) for t in payload.tables], payload.bye):
        return None
    return f"log entry {entry.seq}: pairing round {payload.round} again with seed {payload.seed} gives other tables"


@dataclass(frozen=True)
class Tally:
    """A match result: games won by each player, and drawn games."""

    games: dict[str, int]
    draws: int = 0

    def text(self, a: str, b: str) -> str:
        draws = f"-{self.draws}" if self.draws else ""
        return f"{a} {self.games[a]}-{self.games[b]}{draws} {b}"


def parse_result(text: str, draws: int = 0) -> Tally:
    """`ann=2,bob=1` (games won by each player) into a Tally; Usage on anything else."""
    games: dict[str, int] = {}
    for part in text.split(","):
        name, sep, count = part.strip().partition("=")
        if not sep or not ID_PATTERN.match(name.strip()) or not count.strip().isdigit():
            raise Usage(f"--result {text!r}: write games won by each player, like ann=2,bob=1")
        if name.strip() in games:
            raise Usage(f"--result {text!r}: {name.strip()} is named twice")
        games[name.strip()] = int(count)
    if draws < 0:
        raise Usage("--draws cannot be negative")
    return Tally(games, draws)


def find_match(session: Session, event: Event, table: int, round_number: int | None) -> Match:
    number = event.rounds if round_number is None else round_number
    if number < 1 or number > event.rounds:
        raise NotFound(f"event {event.id!r} has no round {number} (rounds paired: {event.rounds})")
    match = session.get(Match, (event.id, number, table))
    if match is None:
        raise NotFound(f"round {number} of {event.id!r} has no table {table}")
    return match


def _where(match: Match) -> str:
    return f"table {match.number} of round {match.round} ({match.player_a} vs {match.player_b})"


def judge_logs(event: Event, match: Match, logs: Sequence[tuple[str, bytes]]) -> tuple[Tally, list[GameRecord]]:
    """Referee every game log of a match, check each belongs to it, and add up the match."""
    seats = {match.player_a, match.player_b}
    games = {match.player_a: 0, match.player_b: 0}
    draws = 0
    needed = event.best_of // 2 + 1
    records = []
    for number, (path, data) in enumerate(logs, start=1):
        replay = judge(io.BytesIO(data), path)
        verdict, header = replay.verdict, replay.header
        if header is not None:
            if header.ruleset != event.ruleset:
                raise WrongTable(f"{path}: a {header.ruleset} log, but {event.id!r} plays {event.ruleset}")
            if set(header.players) != seats:
                raise WrongTable(f"{path}: the log's players are {', '.join(header.players)}, not those of {_where(match)}")
            place = header.event
            if place is not None and (
                place.tournament != event.id
                or (place.round is not None and place.round != match.round)
                or (place.table is not None and str(place.table) != str(match.number))
            ):
                raise WrongTable(
                    f"{path}: the log says it is from {place.tournament} round {place.round} table {place.table}, "
                    f"not {_where(match)} of {event.id}"
                )
        if verdict.verdict != "complete":
            raise LogRejected(f"{path}: {referee_reason(verdict)}")
        assert verdict.result is not None
        if max(games.values()) >= needed:
            raise LogRejected(f"{path}: the match was already decided before game {number} (best of {event.best_of})")
        if number > event.best_of:
            raise LogRejected(f"{path}: game {number} of a best of {event.best_of}")
        winner = verdict.result.winners[0] if len(verdict.result.winners) == 1 else None
        if winner is None:
            draws += 1
        else:
            games[winner] += 1
        records.append(GameRecord(hashlib.sha256(data).hexdigest(), winner, data))
    if max(games.values()) < needed and len(logs) < event.best_of:
        tally = Tally(games, draws)
        raise LogRejected(
            f"the match is unfinished at {tally.text(match.player_a, match.player_b)} after {len(logs)} game(s) "
            f"of a best of {event.best_of}; give every game's log (--log once per game, in order)"
        )
    return Tally(games, draws), records


def referee_reason(verdict: Verdict) -> str:
    """The referee's reason a log is not a finished legal game, in one line."""
    if verdict.verdict == "ongoing":
        waiting = ", ".join(verdict.to_act) or "nobody"
        return f"the game is unfinished after {verdict.records_checked} records (to act: {waiting})"
    error = verdict.error
    assert error is not None
    label = error.rule or (f"field {error.field}" if error.field else "")
    where = f"record {error.seq} (line {error.line})" if error.seq else f"line {error.line}"
    return f"the referee says {verdict.verdict} at {where}: {label + ': ' if label else ''}{error.message}"


def check_tally(event: Event, match: Match, tally: Tally) -> None:
    """A judge's result must name the table's two players and fit a best of N."""
    seats = {match.player_a, match.player_b}
    if set(tally.games) != seats:
        raise WrongTable(f"--result names {', '.join(sorted(tally.games))}, but {_where(match)}")
    needed = event.best_of // 2 + 1
    played = sum(tally.games.values()) + tally.draws
    if played < 1 or played > event.best_of or min(tally.games.values()) >= needed:
        raise Usage(f"{tally.text(match.player_a, match.player_b)} is not a result of a best of {event.best_of}")
    if max(tally.games.values()) > needed:
        raise Usage(f"in a best of {event.best_of} nobody wins more than {needed} games")


def _stored(session: Session, match: Match) -> tuple[Tally, list[str]]:
    logs = session.scalars(
        select(GameLog.sha256).filter_by(event_id=match.event_id, round=match.round, table=match.number).order_by(GameLog.game)
    )
    assert match.games_a is not None and match.games_b is not None
    return Tally({match.player_a: match.games_a, match.player_b: match.games_b}, match.draws or 0), list(logs)


@dataclass(frozen=True)
class Reported:
    match: Match
    tally: Tally
    changed: bool  # False when the same result was already there


def report(
    session: Session,
    event_id: str,
    table: int,
    *,
    round_number: int | None = None,
    logs: Sequence[tuple[str, bytes]] = (),
    result: Tally | None = None,
    reason: str | None = None,
    correction: bool = False,
) -> Reported:
    """Record a table's result from game logs, or a judge's result with a reason.

    Reporting what is already there changes nothing; a different result for a
    reported table needs `correction` (and a reason).
    """
    event = lock_event(session, event_id)
    match = find_match(session, event, table, round_number)
    if bool(logs) == (result is not None):
        raise Usage("give the game logs (--log) or a judge's result (--result), not both or neither")
    if (result is not None or correction) and not (reason and reason.strip()):
        raise Usage("a judge's result or a correction needs --reason")
    if logs:
        tally, records = judge_logs(event, match, logs)
        _check_new_logs(session, event_id, match, records)
    else:
        assert result is not None
        tally, records = result, []
        check_tally(event, match, tally)
    hashes = [r.sha256 for r in records]
    if match.games_a is not None:
        if _stored(session, match) == (tally, hashes) and not correction:
            return Reported(match, tally, changed=False)
        if not correction:
            old, _ = _stored(session, match)
            raise Conflict(
                f"{_where(match)} already has a result ({old.text(match.player_a, match.player_b)}); "
                "use `tournament correct` with a --reason to change it"
            )
    elif correction:
        raise Conflict(f"{_where(match)} has no result to correct yet; use `tournament report`")
    kind = ResultCorrected if correction else ResultReported
    source: Literal["log", "judge"] = "log" if logs else "judge"
    append(session, event.id, kind(match.round, match.number, tally.games, tally.draws, source, reason, records))
    return Reported(match, tally, changed=True)


def _check_new_logs(session: Session, event_id: str, match: Match, records: list[GameRecord]) -> None:
    """The same log cannot decide games at two tables, or twice at one."""
    hashes = [r.sha256 for r in records]
    if len(set(hashes)) != len(hashes):
        raise LogRejected("the same game log is given twice")
    for row in session.scalars(select(GameLog).filter_by(event_id=event_id).where(GameLog.sha256.in_(hashes))):
        if (row.round, row.table) != (match.round, match.number):
            raise WrongTable(f"game {row.game} of table {row.table}, round {row.round} was already reported with this log")
