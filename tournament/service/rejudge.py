"""`tournament rejudge EVENT`: every game log an event keeps, judged again by today's referee (T-70).

A table is listed when a game's log would now be refused (the rule it breaks)
or would give another winner, or a pod's log other places, and when the copy
of a log the tables keep is not the one its result's entry in the event log
names by SHA-256 (`tampered`: the copy was changed, and what it says now is
no change of ruling, T-165). Nothing is changed:
the organiser decides whether the new ruling counts for a finished event, and
acts through `tournament correct` with a reason, which the event log keeps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.rejudge import Judged, Outcome, outcomes
from schemas.tournament import RejudgedGame, RejudgedTable
from tournament.service.persons import display_names
from tournament.service.queries import get_event
from tournament.service.results import UNPROVEN_RULE
from tournament.storage.eventlog import PodReported, ResultReported, decode
from tournament.storage.models import GameLog, LogEntry, Match, Pod, PodSeat

TAMPERED = Outcome("tampered", None, None)  # a kept copy that is not the log its entry names


def rejudge_event(session: Session, event_id: str, *, jobs: int = 1, cluster: str | None = None) -> list[RejudgedTable]:
    """The tables of `event_id` whose result today's referee would change, in round and table order."""
    get_event(session, event_id)  # NotFound for an unknown event
    names = display_names(session, event_id)
    games = session.execute(select(GameLog).filter_by(event_id=event_id).order_by(GameLog.round, GameLog.table, GameLog.game)).scalars().all()
    matches = {(m.round, m.number): m for m in session.scalars(select(Match).filter_by(event_id=event_id))}
    pods = session.scalars(select(Pod).filter_by(event_id=event_id).where(Pod.log.is_not(None)).order_by(Pod.round, Pod.number)).all()
    places: dict[tuple[int, int], dict[str, int | None]] = {}
    for seat in session.scalars(select(PodSeat).filter_by(event_id=event_id)):
        places.setdefault((seat.round, seat.table), {})[seat.player] = seat.place
    items: list[tuple[str, str | bytes]] = [(f"g{g.round}.{g.table}.{g.game}", g.data) for g in games]
    items += [(f"p{p.round}.{p.number}", p.log) for p in pods if p.log is not None]
    named = _named(session, event_id, matches.values(), pods)
    now = {j.log: _now(j, named) for j in outcomes(items, jobs=jobs, cluster=cluster)}
    changed = list(_matches(games, matches, now, names)) + list(_pods(pods, places, now, names))
    return sorted(changed, key=lambda t: (t.round, t.table))


def _now(judged: Judged, named: dict[str, str]) -> Outcome:
    """A kept log's outcome as the tournament would take it now: TAMPERED when it is not the log its entry names;
    a complete dealt game whose deal is only committed (its reveal missing) refused under DL-R1, without a result."""
    if judged.sha256 != named.get(judged.log):
        return TAMPERED
    if judged.deal == "committed" and judged.outcome.verdict == "complete":
        return Outcome(judged.outcome.verdict, UNPROVEN_RULE, None)
    return judged.outcome


def _named(session: Session, event_id: str, matches: Iterable[Match], pods: Sequence[Pod]) -> dict[str, str]:
    """Each kept log's SHA-256 as the entry that reported its table's result names it (the event log is the
    truth; the tables' copy and its `sha256` column are only its projection, and either may have been edited)."""
    reported = {m.reported_seq: (m.round, m.number) for m in matches if m.reported_seq is not None}
    reported |= {p.reported_seq: (p.round, p.number) for p in pods if p.reported_seq is not None}
    named: dict[str, str] = {}
    entries = session.scalars(select(LogEntry).filter_by(event_id=event_id).where(LogEntry.seq.in_(list(reported))))
    for entry in entries:
        payload = decode(entry)
        round_, table = reported[entry.seq]
        if isinstance(payload, ResultReported):
            named |= {f"g{round_}.{table}.{game}": record.sha256 for game, record in enumerate(payload.logs, start=1)}
        elif isinstance(payload, PodReported) and payload.log is not None:
            named[f"p{round_}.{table}"] = payload.log.sha256
    return named


def _matches(games: Sequence[GameLog], matches: dict[tuple[int, int], Match], now: dict[str, Outcome], names: dict[str, str]) -> Iterator[RejudgedTable]:
    by_table: dict[tuple[int, int], list[GameLog]] = {}
    for game in games:
        by_table.setdefault((game.round, game.table), []).append(game)
    for (round_, table), logs in by_table.items():
        match = matches[round_, table]
        players = [match.player_a, match.player_b]
        differ = []
        before: Counter[str | None] = Counter()
        after: Counter[str | None] = Counter()
        refused = False
        for game in logs:
            outcome = now[f"g{round_}.{table}.{game.game}"]
            before[game.winner] += 1
            if outcome is TAMPERED:
                refused = True
                differ.append(RejudgedGame(game.game, game.sha256, "tampered", None, _winner(game.winner, names), TAMPERED_TEXT))
                continue
            if outcome.verdict != "complete" or outcome.result is None:
                refused = True
                differ.append(RejudgedGame(game.game, game.sha256, outcome.verdict, outcome.rule, _winner(game.winner, names), "refused"))
                continue
            winners = outcome.result.winners
            winner = winners[0] if len(winners) == 1 else None
            after[winner] += 1
            if winner != game.winner:
                differ.append(RejudgedGame(game.game, game.sha256, outcome.verdict, outcome.rule, _winner(game.winner, names), _winner(winner, names)))
        if differ:
            recorded = _tally(before, players, names)
            why = "a log tampered with" if any(g.verdict == "tampered" for g in differ) else "a game refused"
            shown = _tally(after, players, names) + (f" (and {why}: the result cannot stand as it is)" if refused else "")
            yield RejudgedTable(round_, table, players, recorded, shown, differ)


def _pods(pods: Sequence[Pod], places: dict[tuple[int, int], dict[str, int | None]], now: dict[str, Outcome], names: dict[str, str]) -> Iterator[RejudgedTable]:
    for pod in pods:
        outcome = now[f"p{pod.round}.{pod.number}"]
        recorded = places.get((pod.round, pod.number), {})
        players = sorted(recorded)
        was = _places({p: q for p, q in recorded.items() if q is not None}, names)
        if outcome is TAMPERED:
            game = RejudgedGame(None, pod.sha256 or "", "tampered", None, was, TAMPERED_TEXT)
            yield RejudgedTable(pod.round, pod.number, players, was, f"the log is {TAMPERED_TEXT}", [game])
        elif outcome.verdict != "complete" or outcome.result is None:
            game = RejudgedGame(None, pod.sha256 or "", outcome.verdict, outcome.rule, was, "refused")
            yield RejudgedTable(pod.round, pod.number, players, was, "the log would be refused", [game])
        elif outcome.result.placements != recorded:
            shown = _places(outcome.result.placements, names)
            yield RejudgedTable(pod.round, pod.number, players, was, shown, [RejudgedGame(None, pod.sha256 or "", outcome.verdict, None, was, shown)])


TAMPERED_TEXT = "tampered: the kept copy is not the log the event log names"


def _winner(player: str | None, names: dict[str, str]) -> str:
    return "a draw" if player is None else f"{names.get(player, player)} won"


def _tally(wins: Counter[str | None], players: list[str], names: dict[str, str]) -> str:
    a, b = players
    draws = f", {wins[None]} drawn" if wins[None] else ""
    return f"{names.get(a, a)} {wins[a]}-{wins[b]} {names.get(b, b)}{draws}"


def _places(placements: dict[str, int], names: dict[str, str]) -> str:
    return ", ".join(f"{names.get(p, p)} {_ordinal(q)}" for p, q in sorted(placements.items(), key=lambda pq: (pq[1], pq[0])))


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
