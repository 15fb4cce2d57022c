"""Results: game logs judged by the referee, a judge's results, corrections, and pods' placements."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Literal

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from referee.engine import judge
from referee.logio import FINGERPRINT_SCHEME, game_fingerprint
from schemas.deck import Difference
from schemas.verdict import Verdict
from tournament.service import decks
from tournament.service.elimination import (
    is_elimination,
)
from tournament.service.errors import (
    Conflict,
    LogRejected,
    Usage,
    WrongTable,
)
from tournament.service.queries import (
    ID_PATTERN,
    find_match,
    find_pod,
    lock_event,
)
from tournament.storage.eventlog import (
    GameRecord,
    PodCorrected,
    PodReported,
    ResultCorrected,
    ResultReported,
    append,
)
from tournament.storage.models import Event, GameLog, LiveGame, Match, Pod, PodSeat


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
        if not sep or not ID_PATTERN.fullmatch(name.strip()) or not re.fullmatch(r"\d{1,9}", count.strip()):
            raise Usage(f"--result {text!r}: write games won by each player, like ann=2,bob=1")
        if name.strip() in games:
            raise Usage(f"--result {text!r}: {name.strip()} is named twice")
        games[name.strip()] = int(count)
    if draws < 0:
        raise Usage("--draws cannot be negative")
    return Tally(games, draws)


UNPROVEN_RULE, UNPROVEN_DEAL = "DL-R1", "its deal is committed, not verified: the reveal is missing"  # docs/referee.md


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
        verdict = _judged(event, seats, match.round, match.number, _where(match), path, data)
        assert verdict.result is not None
        if max(games.values()) >= needed:
            raise LogRejected(f"{path}: the match was already decided before game {number} (best of {event.best_of})")
        if match_over(event, match.round, games, number - 1):
            raise LogRejected(f"{path}: game {number} of a best of {event.best_of}")
        winner = verdict.result.winners[0] if len(verdict.result.winners) == 1 else None
        if winner is None:
            draws += 1
        else:
            games[winner] += 1
        records.append(GameRecord(hashlib.sha256(data).hexdigest(), winner, data, game_fingerprint(data), FINGERPRINT_SCHEME))
    if not match_over(event, match.round, games, len(logs)):
        tally = Tally(games, draws)
        tied = " (tied: a bracket match goes on until someone wins a game)" if len(logs) >= event.best_of else ""
        raise LogRejected(
            f"the match is unfinished at {tally.text(match.player_a, match.player_b)} after {len(logs)} game(s) "
            f"of a best of {event.best_of}{tied}; give every game's log (--log once per game, in order)"
        )
    return Tally(games, draws), records


def _judged(event: Event, seats: set[str], round_number: int, table: int, where: str, path: str, data: bytes) -> Verdict:
    """The referee's verdict on a complete game's log, after checking it belongs to this event's table.

    Its header must name this event's game, table and players; a dealt game counts only once its deal is
    `verified` (DL-R1: the seed revealed and every draw dealt from it); an event that requires chained logs
    refuses one whose records carry no `prev` hashes.
    """
    replay = judge(io.BytesIO(data), path)
    header = replay.header
    if header is not None:
        if header.ruleset != event.ruleset:
            raise WrongTable(f"{path}: a {header.ruleset} log, but {event.id!r} plays {event.ruleset}")
        if set(header.players) != seats:
            raise WrongTable(f"{path}: the log's players are {', '.join(header.players)}, not those of {where}")
        place = header.event
        if place is not None and (
            place.tournament != event.id
            or (place.round is not None and place.round != round_number)
            or (place.table is not None and str(place.table) != str(table))
        ):
            raise WrongTable(
                f"{path}: the log says it is from {place.tournament} round {place.round} table {place.table}, "
                f"not {where} of {event.id}"
            )
    verdict = replay.verdict
    if verdict.verdict != "complete":
        raise LogRejected(f"{path}: {referee_reason(verdict)}", verdict)
    if verdict.deal == "committed":  # DL-R1: its draws are proven only by the reveal
        raise LogRejected(f"{path}: {UNPROVEN_DEAL}", verdict)
    if event.require_chain and verdict.chain != "verified":
        raise LogRejected(
            f"{path}: {event.id!r} requires chained logs, and this log's records carry no `prev` hashes "
            "(an event created with --no-require-chain accepts hand-written logs)"
        )
    return verdict


def match_over(event: Event, round_number: int, games: dict[str, int], played: int) -> bool:
    """Is a match with these game wins after `played` games finished?

    Someone has the wins a best of N needs, or N games are played; in a
    bracket round a tied match goes on after N games until someone is ahead.
    """
    if max(games.values()) >= event.best_of // 2 + 1:
        return True
    tied = len(set(games.values())) == 1
    return played >= event.best_of and not (tied and is_elimination(event, round_number))


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
    """A result typed or sent (a slip, a judge's, a player's claim) must name the table's two players and be one
    a best of N can end with: no negative count, nobody past the wins it needs, at most N games (a bracket
    match tied after N plays on, at most N games more: T-67). Every door (CLI, web, API) checks here."""
    seats = {match.player_a, match.player_b}
    if set(tally.games) != seats:
        raise WrongTable(f"--result names {', '.join(sorted(tally.games))}, but {_where(match)}")
    needed = event.best_of // 2 + 1
    played = sum(tally.games.values()) + tally.draws
    extra = is_elimination(event, match.round)  # a bracket match may need games past N to break a tie
    shown = f"{tally.text(match.player_a, match.player_b)} is not a result of a best of {event.best_of}"
    if min(tally.games.values()) < 0 or tally.draws < 0:
        raise Usage(f"{shown}: games won and drawn games are 0 or more")
    if played == 0 and not extra:
        return  # 0-0: an intentional draw, agreed before any game
    if extra and played > event.best_of:  # it was tied after N games, and the first game won after them ends it
        if abs(tally.games[match.player_a] - tally.games[match.player_b]) != 1:
            raise Usage(f"{shown}: a bracket match goes past {event.best_of} games only when tied, until a game is won")
        if played > 2 * event.best_of:
            raise Usage(f"{shown}: a bracket match tied after {event.best_of} games plays at most {event.best_of} more (T-67)")
    if played < 1 or (played > event.best_of and not extra) or min(tally.games.values()) >= needed:
        raise Usage(shown)
    if max(tally.games.values()) > needed:
        raise Usage(f"{shown}: nobody wins more than {needed} games")
    if extra and len(set(tally.games.values())) == 1:
        raise Usage(f"{shown}: {_where(match)} is a bracket match: it needs a winner, not a draw")


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
    differences: dict[str, list[Difference]] = field(default_factory=dict)  # refused: decks not as registered (T-114)


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
    judge: bool = False,
    agreed: bool = False,
    check_decks: bool = True,
    from_table: bool = False,
) -> Reported:
    """Record a table's result from game logs, a paper result (a slip), or a judge's ruling.

    A result without logs is a judge's ruling when `judge` is set or a reason
    is given (a ruling needs its reason), the players' own when `agreed`
    (confirmed on `tournament serve`; its reason says by whom), and otherwise
    the slip the players signed. Reporting what is already there changes
    nothing; a different result for a reported table needs `correction` (and
    a reason). New logs whose decks are not the registered lists are refused
    into the judge queue (logged; `differences` says how), unless `check_decks`
    is off (a judge's ruling on them, or a claim checked when it was made) or
    a judge corrects the result. A table played live (T-132) takes its result from its own log (`from_table`:
    witness.settle); anything else there is a judge's ruling, with its reason.
    """
    event = lock_event(session, event_id)
    match = find_match(session, event, table, round_number)
    if bool(logs) == (result is not None):
        raise Usage("give the game logs (--log) or the result, not both or neither")
    source = result_source(bool(logs), reason, correction=correction, judge=judge, agreed=agreed)
    if logs:
        tally, records = judge_logs(event, match, logs)
        check_new_logs(session, event_id, match, records)
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
    if not from_table and not is_ruling(reason, agreed) and tables_played_live(session, event, match.round, [match.number]):
        raise played_live(_where(match))
    if records and check_decks and not correction:  # a judge's correction is a ruling: its logs are not refused
        found = decks.differences(session, event, [r.text for r in records], [match.player_a, match.player_b])
        if found:
            decks.refuse(session, event, match.round, match.number, found, records)
            return Reported(match, tally, changed=False, differences=found)
    kind = ResultCorrected if correction else ResultReported
    append(session, event.id, kind(match.round, match.number, tally.games, tally.draws, source, reason, records))
    return Reported(match, tally, changed=True)


def check_new_logs(session: Session, event_id: str, match: Match, records: list[GameRecord]) -> None:
    """The same game cannot decide games at two tables, or twice at one, whatever file it comes in."""
    prints = [r.fingerprint or "" for r in records]
    if len(set(prints)) != len(prints):
        raise LogRejected("the same game is given twice (two logs with the same players, setup and records)")
    # One game has one pair of players (its fingerprint holds them), so only their tables are looked at: a log
    # stored without a current fingerprint (before 0005 or 0009, T-45) is read again, and there are few of those.
    a, b = match.player_a, match.player_b
    pair = or_(and_(Match.player_a == a, Match.player_b == b), and_(Match.player_a == b, Match.player_b == a))
    query = (
        select(GameLog.round, GameLog.table, GameLog.game, GameLog.fingerprint, GameLog.data)
        .join(Match, and_(Match.event_id == GameLog.event_id, Match.round == GameLog.round, Match.number == GameLog.table))
        .where(GameLog.event_id == event_id, pair, or_(GameLog.fingerprint.in_(prints), GameLog.fingerprint.is_(None)))
    )
    for round_, table, game, fingerprint, data in session.execute(query):
        if (round_, table) != (match.round, match.number) and (fingerprint or game_fingerprint(data)) in prints:
            raise WrongTable(f"game {game} of table {table}, round {round_} was already reported with this game's log")


@dataclass(frozen=True)
class PodResult:
    pod: Pod
    seats: list[PodSeat]
    changed: bool  # False when the same result was already there
    differences: dict[str, list[Difference]] = field(default_factory=dict)  # as Reported's


def report_pod(
    session: Session,
    event_id: str,
    table: int,
    *,
    round_number: int | None = None,
    logs: Sequence[tuple[str, bytes]] = (),
    places: dict[str, int] | None = None,
    reason: str | None = None,
    correction: bool = False,
    judge: bool = False,
    agreed: bool = False,
    check_decks: bool = True,
    from_table: bool = False,
) -> PodResult:
    """A pod's result: the placements of its one game's log, or places from a slip or a judge's ruling (as `report`)."""
    event = lock_event(session, event_id)
    pod, seats = find_pod(session, event, table, round_number)
    where = f"table {pod.number} of round {pod.round} ({', '.join(s.player for s in seats)})"
    if pod.source == "bye":
        raise Conflict(f"{where} is a bye; it has no result to report")
    if bool(logs) == (places is not None):
        raise Usage("give the game's log (--log) or the places (--result ann=1,bob=2,...), not both or neither")
    source = result_source(bool(logs), reason, correction=correction, judge=judge, agreed=agreed)
    names = {s.player for s in seats}
    record = None
    if logs:
        if len(logs) != 1:
            raise LogRejected(f"a pod plays one game; give its one log, not {len(logs)}")
        places, record = judge_pod_log(session, event, pod, names, where, *logs[0])
    assert places is not None
    check_places(places, names, where)
    stored = {s.player: s.place for s in seats}
    if pod.source is not None:
        same = stored == places and pod.sha256 == (record.sha256 if record else None)
        if same and not correction:
            return PodResult(pod, seats, changed=False)
        if not correction:
            raise Conflict(f"{where} already has a result; use `tournament correct` with a --reason to change it")
    elif correction:
        raise Conflict(f"{where} has no result to correct yet; use `tournament report`")
    if not from_table and not is_ruling(reason, agreed) and tables_played_live(session, event, pod.round, [pod.number]):
        raise played_live(where)
    if record is not None and check_decks and not correction:
        found = decks.differences(session, event, [record.text], names)
        if found:
            decks.refuse(session, event, pod.round, pod.number, found, [record])
            return PodResult(pod, seats, changed=False, differences=found)
    kind = PodCorrected if correction else PodReported
    append(session, event.id, kind(pod.round, pod.number, places, source, reason, record))
    return PodResult(pod, seats, changed=True)


def check_places(places: dict[str, int], names: set[str], where: str) -> None:
    """A pod's places name every player at it and are a ranking of them (T-67): 1 to the table's size, each
    place one more than the players ranked above it, so tied players share the best place of their group and
    the places after them are skipped (1-2-2-4), as the referee's results write them."""
    if set(places) != names:
        raise WrongTable(f"--result names {', '.join(sorted(places))}, but {where}")
    ranked = sorted(places.values())
    if any(place != 1 + ranked.index(place) for place in ranked):  # index: how many rank above this place
        given = "-".join(str(place) for place in places.values())
        raise Usage(
            f"places {given} are not a ranking of {len(names)} players: they run from 1 (best), and tied players share "
            f"the best place of their group, the next place skipping theirs (1-2-2-4, not 1-2-2-3)"
        )


def tables_played_live(session: Session, event: Event, round_number: int, tables: Collection[int]) -> set[int]:
    """T-132: which of the round's `tables` take their result from their live table's log: at a digital event every
    one (the server deals: the game on the screens is the game of record), at a paper event each whose live log
    holds a record, at an event without live tables none."""
    if event.tables == "digital":
        return set(tables)
    if event.tables != "paper":
        return set()
    query = select(LiveGame.table).distinct().filter_by(event_id=event.id, round=round_number)
    return set(session.scalars(query.where(LiveGame.seq > 0, LiveGame.table.in_(list(tables)))))


def is_ruling(reason: str | None, agreed: bool) -> bool:
    """A result given with its reason by the organiser or a judge (not the players' agreement, whose reason only
    says who agreed)."""
    return bool(reason and reason.strip()) and not agreed


def played_live(where: str) -> Conflict:
    """The refusal of a result typed or uploaded for a table played live (T-132)."""
    return Conflict(
        f"{where} is played live: its result comes from its log at the table, reported once the players confirm it; "
        "any other result there is a judge's ruling, with its reason"
    )


Kind = Literal["log", "judge", "slip", "players"]


def result_source(
    logs: bool, reason: str | None, *, correction: bool = False, judge: bool = False, agreed: bool = False
) -> Kind:
    """Where a result comes from: logs; the players' agreement; a judge's ruling (`judge`, or any reason; it
    needs one); else a slip."""
    given = bool(reason and reason.strip())
    if (correction or judge) and not given:
        raise Usage("a correction or a judge's ruling needs --reason")
    if logs:
        return "log"
    if agreed:
        return "players"
    return "judge" if given or judge else "slip"


def judge_pod_log(
    session: Session, event: Event, pod: Pod, names: set[str], where: str, path: str, data: bytes
) -> tuple[dict[str, int], GameRecord]:
    """The referee's placements for a pod's game log, after checking the log belongs to this pod."""
    verdict = _judged(event, names, pod.round, pod.number, where, path, data)
    assert verdict.result is not None
    fingerprint = game_fingerprint(data)
    # The same game seats the same players: only the pods of one of them are looked at (see check_new_logs).
    seated = and_(PodSeat.event_id == Pod.event_id, PodSeat.round == Pod.round, PodSeat.table == Pod.number)
    query = (
        select(Pod.round, Pod.number, Pod.fingerprint, Pod.log).join(PodSeat, seated)
        .where(Pod.event_id == event.id, PodSeat.player == min(names), Pod.log.is_not(None))
    )
    for round_, number, stored, log in session.execute(query.where(or_(Pod.fingerprint == fingerprint, Pod.fingerprint.is_(None)))):
        if (round_, number) != (pod.round, pod.number) and (stored or (log and game_fingerprint(log))) == fingerprint:
            raise WrongTable(f"{path}: table {number} of round {round_} was already reported with this game's log")
    winner = verdict.result.winners[0] if len(verdict.result.winners) == 1 else None
    return dict(verdict.result.placements), GameRecord(hashlib.sha256(data).hexdigest(), winner, data, fingerprint, FINGERPRINT_SCHEME)

