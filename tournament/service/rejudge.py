"""`tournament rejudge EVENT`: every game log an event keeps, judged again by today's referee (T-70).

A table is listed when a game's log would now be refused (the rule it breaks)
or would give another winner, or a pod's log other places. Nothing is changed:
the organiser decides whether the new ruling counts for a finished event, and
acts through `tournament correct` with a reason, which the event log keeps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.rejudge import Judged, outcomes
from schemas.tournament import RejudgedGame, RejudgedTable
from tournament.service.people import display_names
from tournament.service.queries import get_event
from tournament.service.results import UNPROVEN_RULE
from tournament.storage.models import GameLog, Match, Pod, PodSeat


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
    now = {judged.log: judged for judged in outcomes(items, jobs=jobs, cluster=cluster)}
    changed = list(_matches(games, matches, now, names)) + list(_pods(pods, places, now, names))
    return sorted(changed, key=lambda t: (t.round, t.table))


def refused_rule(judged: Judged) -> tuple[bool, str | None]:
    """Would the tournament refuse this log now, and the rule it names: a game not complete (the referee's rule),
    or a dealt game whose deal is only committed (DL-R1: its reveal is missing, so its draws are unproven)."""
    outcome = judged.outcome
    if outcome.verdict != "complete" or outcome.result is None:
        return True, outcome.rule
    if judged.deal == "committed":
        return True, UNPROVEN_RULE
    return False, outcome.rule


def _matches(games: Sequence[GameLog], matches: dict[tuple[int, int], Match], now: dict[str, Judged], names: dict[str, str]) -> Iterator[RejudgedTable]:
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
            judged = now[f"g{round_}.{table}.{game.game}"]
            outcome = judged.outcome
            before[game.winner] += 1
            no, rule = refused_rule(judged)
            if no:
                refused = True
                differ.append(RejudgedGame(game.game, game.sha256, outcome.verdict, rule, _winner(game.winner, names), "refused"))
                continue
            assert outcome.result is not None, "a complete log has its result"
            winners = outcome.result.winners
            winner = winners[0] if len(winners) == 1 else None
            after[winner] += 1
            if winner != game.winner:
                differ.append(RejudgedGame(game.game, game.sha256, outcome.verdict, outcome.rule, _winner(game.winner, names), _winner(winner, names)))
        if differ:
            recorded = _tally(before, players, names)
            shown = _tally(after, players, names) + (" (and a game refused: the result cannot stand as it is)" if refused else "")
            yield RejudgedTable(round_, table, players, recorded, shown, differ)


def _pods(pods: Sequence[Pod], places: dict[tuple[int, int], dict[str, int | None]], now: dict[str, Judged], names: dict[str, str]) -> Iterator[RejudgedTable]:
    for pod in pods:
        judged = now[f"p{pod.round}.{pod.number}"]
        outcome = judged.outcome
        recorded = places.get((pod.round, pod.number), {})
        players = sorted(recorded)
        was = _places({p: q for p, q in recorded.items() if q is not None}, names)
        no, rule = refused_rule(judged)
        if no:
            game = RejudgedGame(None, pod.sha256 or "", outcome.verdict, rule, was, "refused")
            yield RejudgedTable(pod.round, pod.number, players, was, "the log would be refused", [game])
        elif outcome.result is not None and outcome.result.placements != recorded:
            shown = _places(outcome.result.placements, names)
            yield RejudgedTable(pod.round, pod.number, players, was, shown, [RejudgedGame(None, pod.sha256 or "", outcome.verdict, None, was, shown)])


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
