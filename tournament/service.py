"""The operations the CLI runs, each inside the caller's one transaction.

Every change locks the event row first (`lock_event`), checks against what
it then reads, and appends one or more log entries; a check that fails
raises a `TournamentError` before anything is written, so the caller's
rollback leaves the database as it was.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import random
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
from tournament import brackets, pairing, pods
from tournament import standings as tiebreaks
from tournament.eventlog import (
    BracketSeeded,
    EventCreated,
    GameRecord,
    Payload,
    PlayerDropped,
    PlayerRegistered,
    PodCorrected,
    PodReported,
    PodsPaired,
    ResultCorrected,
    ResultReported,
    RoundPaired,
    append,
)
from tournament.models import Event, GameLog, LogEntry, Match, Player, Pod, PodSeat, Round

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


# Event formats (tournament/README.md, "Formats"). A Swiss event may end in a top cut (`cut`).
FORMATS = {
    "swiss": "Swiss rounds, optionally followed by a top cut",
    "single": "single elimination",
    "double": "double elimination",
    "roundrobin": "round robin",
    "pods": "Swiss pods (3 to 6 players a table)",
}

SEEDED = ("single", "double", "roundrobin")  # formats seeded before round 1 (by `seed`, or at random by `pair`)


def create_event(
    session: Session, event_id: str, *, name: str, ruleset: str, profile: str, best_of: int, seed: int,
    format: str = "swiss", table_size: int | None = None, points: str = "3,1",
) -> Event:
    check_id("event id", event_id)
    if format not in FORMATS:
        raise Usage(f"unknown format {format!r} (known: {', '.join(FORMATS)})")
    if ruleset not in ruleset_ids():
        raise Usage(f"unknown ruleset {ruleset!r} (known: {', '.join(ruleset_ids())})")
    game = get_ruleset(ruleset)
    size = table_size or (4 if format == "pods" else 2)
    if format == "pods":
        if not pods.MIN_TABLE <= size <= pods.MAX_TABLE:
            raise Usage(f"--table-size {size}: pods seat {pods.MIN_TABLE} to {pods.MAX_TABLE} players")
        if best_of != 1:
            raise Usage("a pod plays one game a round: --best-of 1")
        try:
            points = pods.Points.parse(points).text()
        except ValueError as exc:
            raise Usage(str(exc)) from None
    elif size != 2:
        raise Usage("--table-size goes with --format pods; the other formats seat two players a table")
    smallest = size - 1 if format == "pods" else size  # a pod may be one seat short
    if not (game.min_players <= smallest and size <= game.max_players):
        raise Usage(f"{ruleset} is for {game.min_players} to {game.max_players} players; it cannot seat {size} a table")
    if profile not in tiebreaks.PROFILES:
        raise Usage(f"unknown tiebreaker profile {profile!r} (known: {', '.join(sorted(tiebreaks.PROFILES))})")
    if best_of < 1 or best_of % 2 == 0:
        raise Usage(f"--best-of must be an odd number of games, not {best_of}")
    if session.get(Event, event_id) is not None:
        raise Conflict(f"event {event_id!r} already exists")
    append(session, event_id, EventCreated(name or event_id, ruleset, profile, best_of, seed, format, size, points))
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
    if event.bracket_round is not None:
        raise Conflict(f"{event_id!r} has seeded its {FORMATS[event.format] if event.format != 'swiss' else 'top cut'}; no more entries")
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
    """The event's standings; with a bracket, ordered by how far each player got in it (see `_bracket_order`)."""
    event = get_event(session, event_id)
    everyone = players(session, event_id)
    dropped = {p.name: p.dropped_round for p in everyone if p.dropped_round is not None}
    if event.format == "pods":
        return pods.pod_standings([p.name for p in everyone], _as_pod_games(session, event_id), pods.Points.parse(event.points), dropped)
    played = _as_matches(session, event_id)
    table = tiebreaks.standings([p.name for p in everyone], played, event.profile, dropped)
    if not is_bracket(event):
        return table
    assert event.bracket_round is not None
    before = [m for m in played if m.round < event.bracket_round]
    swiss = tiebreaks.standings([p.name for p in everyone], before, event.profile, dropped)
    seeds = {p.name: p.seed for p in everyone}
    if event.format == "double":
        order = _double_order(double_bracket(session, event), seeds, [s.player for s in swiss])
    else:
        order = _bracket_order(bracket(session, event), seeds, [s.player for s in swiss])
    by_player = {s.player: s for s in table}
    return [dataclasses.replace(by_player[name], rank=rank) for rank, name in enumerate(order, start=1)]


def _as_pod_games(session: Session, event_id: str) -> list[pods.PodGame]:
    """Every reported pod (byes too), in the form the pod standings take."""
    return [pods.PodGame(pod.round, {s.player: s.place for s in seats if s.place is not None}) for pod, seats in pod_tables(session, event_id) if pod.source]


def pod_tables(session: Session, event_id: str, round_number: int | None = None) -> list[tuple[Pod, list[PodSeat]]]:
    """The pods (of one round, or all), each with its seats in seat order."""
    query = select(Pod).filter_by(event_id=event_id)
    seats_query = select(PodSeat).filter_by(event_id=event_id)
    if round_number is not None:
        query, seats_query = query.filter_by(round=round_number), seats_query.filter_by(round=round_number)
    seats: dict[tuple[int, int], list[PodSeat]] = {}
    for seat in session.scalars(seats_query.order_by(PodSeat.seat)):
        seats.setdefault((seat.round, seat.table), []).append(seat)
    return [(pod, seats[(pod.round, pod.number)]) for pod in session.scalars(query.order_by(Pod.round, Pod.number))]


def pod_entrants(session: Session, event_id: str) -> list[pods.PodEntrant]:
    """The players still in a pods event, with their points, rank, byes, opponents and turns in seat one."""
    table = standings(session, event_id)
    met: dict[str, set[str]] = {s.player: set() for s in table}
    firsts = dict.fromkeys(met, 0)
    for _pod, seats in pod_tables(session, event_id):
        names = [s.player for s in seats]
        if len(names) > 1:
            firsts[names[0]] += 1
        for name in names:
            met[name].update(n for n in names if n != name)
    return [
        pods.PodEntrant(s.player, s.points, s.rank, s.byes > 0, frozenset(met[s.player]), firsts[s.player])
        for s in table
        if not s.dropped
    ]


def _bracket_order(state: brackets.Bracket, seeds: dict[str, int | None], swiss_order: list[str]) -> list[str]:
    """Players ranked by the last bracket round they reached, then by seed; those outside it by the Swiss standings."""
    reached = state.reached()
    place = {name: k for k, name in enumerate(swiss_order)}
    return sorted(swiss_order, key=lambda p: (-reached.get(p, 0), seeds.get(p) or len(place) + 1, place[p]))


def _double_order(state: brackets.DoubleBracket, seeds: dict[str, int | None], names: list[str]) -> list[str]:
    """Double elimination: the champion, those still in, then the rest by how late they went out, then seed."""
    out = brackets.knocked_out(state)
    top = brackets.NEVER + 1
    return sorted(names, key=lambda p: (p != state.champion, -out.get(p, top), seeds.get(p) or len(names) + 1))


def seeded(session: Session, event_id: str) -> list[str]:
    """The seeds of the bracket or round robin, best first."""
    return [p.name for p in sorted((p for p in players(session, event_id) if p.seed is not None), key=lambda p: p.seed or 0)]


def _absent_from(session: Session, event: Event) -> dict[str, int]:
    """Each dropped player -> the first round of the bracket they miss.

    Dropped after d event rounds were paired, they miss event round d + 1 on,
    which is bracket round d - start + 2 for a bracket starting at event round `start`.
    """
    assert event.bracket_round is not None
    return {p.name: p.dropped_round - event.bracket_round + 2 for p in players(session, event.id) if p.dropped_round is not None}


def double_bracket(session: Session, event: Event) -> brackets.DoubleBracket:
    """A double elimination as it stands: its seeds, every bracket round's results in table order, the drops."""
    assert event.bracket_round is not None
    start = event.bracket_round
    played: list[list[tuple[str, str, str | None]]] = [[] for _ in range(start, event.rounds + 1)]
    for m in matches(session, event.id):  # in round and table order
        if m.round >= start:
            played[m.round - start].append((m.player_a, m.player_b, None if m.games_a is None else _winner(m)))
    return brackets.double_elimination(seeded(session, event.id), played, _absent_from(session, event))


def _winner(m: Match) -> str:
    return m.player_a if (m.games_a or 0) > (m.games_b or 0) else m.player_b


def is_bracket(event: Event) -> bool:
    """True once an elimination bracket is seeded: single or double elimination, or a Swiss event's top cut."""
    return event.bracket_round is not None and event.format != "roundrobin"


def is_elimination(event: Event, round_number: int) -> bool:
    """Is this round a bracket round (where a match must have a winner)?"""
    return is_bracket(event) and event.bracket_round is not None and round_number >= event.bracket_round


def bracket(session: Session, event: Event) -> brackets.Bracket:
    """A single elimination (or top cut) as it stands, from its seeds, the results and the drops."""
    assert event.bracket_round is not None
    start = event.bracket_round
    winners = {
        frozenset((m.player_a, m.player_b)): _winner(m)
        for m in matches(session, event.id)
        if m.round >= start and m.games_a is not None
    }
    return brackets.single_elimination(seeded(session, event.id), winners, _absent_from(session, event))


def pair(session: Session, event_id: str) -> Round:
    """Pair the next round in the event's format; refuse while the current one has tables without a result.

    A single or double elimination or round robin not seeded by `seed` is seeded here, at random from the event seed.
    """
    event = lock_event(session, event_id)
    _refuse_open_tables(session, event, f"pairing round {event.rounds + 1}")
    if event.format in SEEDED and event.bracket_round is None:
        active = [p.name for p in players(session, event_id) if p.dropped_round is None]
        if len(active) < 2:
            raise Conflict(f"event {event_id!r} has {len(active)} active player(s); pairing needs two")
        random.Random(f"{event.seed}/seeds").shuffle(active)  # reproducible from the event's seed
        append(session, event.id, BracketSeeded(1, active))
    number = event.rounds + 1
    if event.format == "pods":
        grouped = next_pods(session, event, number, event.seed)
        append(session, event.id, PodsPaired(number, event.seed, grouped.tables, grouped.byes, grouped.repeats))
    else:
        result = next_round(session, event, number, event.seed)
        append(session, event.id, RoundPaired(number, event.seed, list(result.tables), result.bye, result.cost))
    paired = session.get(Round, (event_id, number))
    assert paired is not None
    return paired


def next_pods(session: Session, event: Event, number: int, seed: int) -> pods.PodPairing:
    active = pod_entrants(session, event.id)
    if len(active) < max(2, event.table_size - 1):  # fewer could not fill even a table one seat short
        raise Conflict(f"event {event.id!r} has {len(active)} active player(s); its pods need {max(2, event.table_size - 1)}")
    return pods.pair_pods(active, number, seed, event.table_size)


def _refuse_open_tables(session: Session, event: Event, doing: str) -> None:
    missing = [m.number for m in matches(session, event.id, event.rounds) if m.games_a is None]
    missing += [pod.number for pod, _ in pod_tables(session, event.id, event.rounds) if pod.source is None]
    if missing:
        tables = ", ".join(str(n) for n in missing)
        raise ResultsMissing(
            f"round {event.rounds} has no result at table{'s' if len(missing) > 1 else ''} {tables}; "
            f"report {'them' if len(missing) > 1 else 'it'} before {doing}"
        )


def seed(session: Session, event_id: str, names: Sequence[str]) -> list[str]:
    """Seed an elimination or round robin by hand (best first), before its first round."""
    event = lock_event(session, event_id)
    if event.format not in SEEDED:
        raise Usage(f"{event_id!r} is a {FORMATS[event.format]} event; only an elimination or round robin is seeded by hand")
    if event.bracket_round is not None:
        raise Conflict(f"{event_id!r} is already seeded")
    active = {p.name for p in players(session, event_id) if p.dropped_round is None}
    if len(set(names)) != len(names) or set(names) != active:
        missing, extra = sorted(active - set(names)), sorted(set(names) - active)
        raise Usage(
            "name every active player once, best first"
            + (f"; missing: {', '.join(missing)}" if missing else "") + (f"; not active: {', '.join(extra)}" if extra else "")
        )
    append(session, event.id, BracketSeeded(1, list(names)))
    return list(names)


CUT_SIZES = (2, 4, 8, 16, 32, 64)


def cut(session: Session, event_id: str, size: int) -> list[str]:
    """End a Swiss event's Swiss rounds: the top `size` active players of the standings, seeded in that order."""
    event = lock_event(session, event_id)
    if size not in CUT_SIZES:
        raise Usage(f"--cut must be one of {', '.join(map(str, CUT_SIZES))}, not {size}")
    if event.format != "swiss":
        raise Usage(f"{event_id!r} is a {FORMATS[event.format]} event; only a Swiss event has a top cut")
    if event.bracket_round is not None:
        raise Conflict(f"{event_id!r} has had its top cut already")
    if event.rounds == 0:
        raise Conflict(f"{event_id!r} has played no Swiss round yet")
    _refuse_open_tables(session, event, "cutting")
    seeds = top_cut(session, event_id, size)
    append(session, event.id, BracketSeeded(event.rounds + 1, seeds))
    return seeds


def top_cut(session: Session, event_id: str, size: int) -> list[str]:
    active = [s.player for s in standings(session, event_id) if not s.dropped]
    if len(active) < size:
        raise Conflict(f"a top {size} needs {size} active players; {event_id!r} has {len(active)}")
    return active[:size]


def is_finished(session: Session, event: Event) -> bool:
    """A bracket with a champion, or a round robin with every round paired. A Swiss event ends when its organiser says."""
    if event.bracket_round is None:
        return False
    if event.format == "roundrobin":
        return event.rounds - event.bracket_round + 1 >= brackets.round_robin_rounds(len(seeded(session, event.id)))
    if event.format == "double":
        return double_bracket(session, event).finished
    return bracket(session, event).finished


def next_round(session: Session, event: Event, number: int, seed: int) -> pairing.Pairing:
    """The tables of round `number` in the event's format (`pair` writes them; `verify` recomputes them).

    `seed` is the Swiss pairing seed; brackets and round robins follow from their seeds alone.
    """
    if event.bracket_round is None:  # Swiss
        active = entrants(session, event.id)
        if len(active) < 2:
            raise Conflict(f"event {event.id!r} has {len(active)} active player(s); pairing needs two")
        return pairing.pair_swiss(active, number, seed)
    k = number - event.bracket_round + 1  # the bracket's (or round robin's) own round number
    if event.format == "roundrobin":
        seeds = seeded(session, event.id)
        if k > brackets.round_robin_rounds(len(seeds)):
            raise Conflict(f"all {brackets.round_robin_rounds(len(seeds))} rounds of {event.id!r} are paired")
        tables, idle = brackets.round_robin(seeds, k, frozenset(_absent_from(session, event)))
        return pairing.Pairing(tables, idle)
    if event.format == "double":
        twice = double_bracket(session, event)
        if twice.finished:
            raise Conflict(f"the bracket of {event.id!r} is decided: {twice.champion} won it")
        return pairing.Pairing([(a, b) for _, a, b in twice.ready], None)
    state = bracket(session, event)
    if state.finished:
        won = f"{state.champion} won it" if state.champion else "nobody is left in it"
        raise Conflict(f"the bracket of {event.id!r} is decided: {won}")
    return pairing.Pairing(state.rounds[k - 1].tables, None)


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
    """For `verify`: does pairing the round (or making the top cut) again, from the log up to here, agree?"""
    event = rebuilt.get(Event, entry.event_id)
    if event is None:
        return None
    where = f"log entry {entry.seq}"
    try:
        if isinstance(payload, BracketSeeded) and event.format == "swiss":
            same = top_cut(rebuilt, entry.event_id, len(payload.seeds)) == payload.seeds
            return None if same else f"{where}: the standings give another top cut"
        if isinstance(payload, PodsPaired):
            grouped = next_pods(rebuilt, event, payload.round, payload.seed)
            same = (grouped.tables, grouped.byes) == (payload.tables, payload.byes)
        elif isinstance(payload, RoundPaired):
            again = next_round(rebuilt, event, payload.round, payload.seed)
            same = (list(again.tables), again.bye) == ([tuple(t) for t in payload.tables], payload.bye)
        else:
            return None
    except TournamentError as exc:
        return f"{where}: it cannot be made again from the log: {exc.message}"
    return None if same else f"{where}: pairing round {payload.round} again with seed {payload.seed} gives other tables"


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
        verdict = _judged(event, seats, match.round, match.number, _where(match), path, data)
        if verdict.verdict != "complete":
            raise LogRejected(f"{path}: {referee_reason(verdict)}")
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
        records.append(GameRecord(hashlib.sha256(data).hexdigest(), winner, data))
    if not match_over(event, match.round, games, len(logs)):
        tally = Tally(games, draws)
        tied = " (tied: a bracket match goes on until someone wins a game)" if len(logs) >= event.best_of else ""
        raise LogRejected(
            f"the match is unfinished at {tally.text(match.player_a, match.player_b)} after {len(logs)} game(s) "
            f"of a best of {event.best_of}{tied}; give every game's log (--log once per game, in order)"
        )
    return Tally(games, draws), records


def _judged(event: Event, seats: set[str], round_number: int, table: int, where: str, path: str, data: bytes) -> Verdict:
    """The referee's verdict on a log, after checking its header names this event's game, table and players."""
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
    return replay.verdict


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
    """A judge's result must name the table's two players and fit a best of N."""
    seats = {match.player_a, match.player_b}
    if set(tally.games) != seats:
        raise WrongTable(f"--result names {', '.join(sorted(tally.games))}, but {_where(match)}")
    needed = event.best_of // 2 + 1
    played = sum(tally.games.values()) + tally.draws
    extra = is_elimination(event, match.round)  # a bracket match may need games past N to break a tie
    if played < 1 or (played > event.best_of and not extra) or min(tally.games.values()) >= needed:
        raise Usage(f"{tally.text(match.player_a, match.player_b)} is not a result of a best of {event.best_of}")
    if max(tally.games.values()) > needed:
        raise Usage(f"in a best of {event.best_of} nobody wins more than {needed} games")
    if is_elimination(event, match.round) and len(set(tally.games.values())) == 1:
        raise Usage(f"{_where(match)} is a bracket match: it needs a winner, not a draw")


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


@dataclass(frozen=True)
class PodResult:
    pod: Pod
    seats: list[PodSeat]
    changed: bool  # False when the same result was already there


def find_pod(session: Session, event: Event, table: int, round_number: int | None) -> tuple[Pod, list[PodSeat]]:
    number = event.rounds if round_number is None else round_number
    if number < 1 or number > event.rounds:
        raise NotFound(f"event {event.id!r} has no round {number} (rounds paired: {event.rounds})")
    found = [(pod, seats) for pod, seats in pod_tables(session, event.id, number) if pod.number == table]
    if not found:
        raise NotFound(f"round {number} of {event.id!r} has no table {table}")
    return found[0]


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
) -> PodResult:
    """A pod's result: the placements of its one game's log, or a judge's places with a reason."""
    event = lock_event(session, event_id)
    pod, seats = find_pod(session, event, table, round_number)
    where = f"table {pod.number} of round {pod.round} ({', '.join(s.player for s in seats)})"
    if pod.source == "bye":
        raise Conflict(f"{where} is a bye; it has no result to report")
    if bool(logs) == (places is not None):
        raise Usage("give the game's log (--log) or a judge's places (--result ann=1,bob=2,...), not both or neither")
    if (places is not None or correction) and not (reason and reason.strip()):
        raise Usage("a judge's result or a correction needs --reason")
    names = {s.player for s in seats}
    record = None
    if logs:
        if len(logs) != 1:
            raise LogRejected(f"a pod plays one game; give its one log, not {len(logs)}")
        places, record = _judge_pod_log(session, event, pod, names, where, *logs[0])
    assert places is not None
    if set(places) != names:
        raise WrongTable(f"--result names {', '.join(sorted(places))}, but {where}")
    if sorted(places.values())[0] != 1 or any(p < 1 or p > len(names) for p in places.values()):
        raise Usage(f"places run from 1 (best) to {len(names)}; equal places share, and someone is first")
    stored = {s.player: s.place for s in seats}
    if pod.source is not None:
        same = stored == places and pod.sha256 == (record.sha256 if record else None)
        if same and not correction:
            return PodResult(pod, seats, changed=False)
        if not correction:
            raise Conflict(f"{where} already has a result; use `tournament correct` with a --reason to change it")
    elif correction:
        raise Conflict(f"{where} has no result to correct yet; use `tournament report`")
    kind = PodCorrected if correction else PodReported
    source: Literal["log", "judge"] = "log" if record else "judge"
    append(session, event.id, kind(pod.round, pod.number, places, source, reason, record))
    return PodResult(pod, seats, changed=True)


def _judge_pod_log(
    session: Session, event: Event, pod: Pod, names: set[str], where: str, path: str, data: bytes
) -> tuple[dict[str, int], GameRecord]:
    """The referee's placements for a pod's game log, after checking the log belongs to this pod."""
    verdict = _judged(event, names, pod.round, pod.number, where, path, data)
    if verdict.verdict != "complete":
        raise LogRejected(f"{path}: {referee_reason(verdict)}")
    assert verdict.result is not None
    digest = hashlib.sha256(data).hexdigest()
    for other in session.scalars(select(Pod).filter_by(event_id=event.id, sha256=digest)):
        if (other.round, other.number) != (pod.round, pod.number):
            raise WrongTable(f"{path}: table {other.number} of round {other.round} was already reported with this log")
    winner = verdict.result.winners[0] if len(verdict.result.winners) == 1 else None
    return dict(verdict.result.placements), GameRecord(digest, winner, data)
