"""What follows by itself in stccg-multiplayer: the phases beginning, turns passing, players going out, the end.

None of these are records: the handlers call them right after the record that
makes them due. Seat order runs clockwise from the first player, skipping
players who are out.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from referee.ruleset import Illegal
from referee.rulesets.stccg_multiplayer.state import State
from schemas.log import Record
from schemas.verdict import Result

OPENING_HAND = 7


def begin_dilemmas(state: State) -> None:
    """SG-4.1: the dilemma phase starts with the first player still in."""
    state.phase = "dilemmas"
    state.passes = 0
    state.active = from_first(state)


def next_seeder(state: State, passed: bool) -> None:
    """SG-4.2: count passes in a row; the phase ends when all still in have passed."""
    state.passes = state.passes + 1 if passed else 0
    if state.passes >= len(state.players) - len(state.gone):
        begin_opening(state)
    else:
        state.active = next_player(state, state.active) or state.active


def begin_opening(state: State) -> None:
    """SG-5.1: seven draws for each player, from the first player clockwise."""
    state.phase = "opening"
    order = seat_order(state)
    state.opening = [p for p in order for _ in range(min(OPENING_HAND, sum(state.seats[p].draw.values())))]
    if not state.opening:
        begin_turn(state, order[0])


def begin_turn(state: State, player: str) -> None:
    """SG-5.2: `player`'s turn starts with its main step."""
    state.phase = "main"
    state.active = player
    state.turn += 1
    state.burnt = set()


def pass_turn(state: State) -> None:
    """SG-5.2: the next player still in, clockwise, takes a turn."""
    begin_turn(state, next_player(state, state.active) or state.active)


def out(state: State, player: str, reason: str) -> None:
    """A player leaves the game; the game goes on, or ends when one player is left (SG-8.3)."""
    state.seats[player].out = True
    state.gone.append(player)
    if len(state.gone) == 1:  # from now on every record is first checked for a player out
        state.handlers.update({kind: partial(_not_out, handler) for kind, handler in state.handlers.items()})
    left = state.still_in()
    if len(left) == 1:
        finish(state, [left], {}, reason)
        return
    if state.phase == "opening":
        state.opening = [p for p in state.opening if p != player]
        if not state.opening:
            begin_turn(state, from_first(state))
    elif state.active == player:
        if state.phase == "missions":
            nxt = next_player(state, player, seeding=True)
            if nxt is None:
                begin_dilemmas(state)
            else:
                state.active = nxt
        elif state.phase != "dilemmas":
            pass_turn(state)
    if state.phase == "dilemmas":
        if state.passes >= len(left):
            begin_opening(state)
        elif state.active == player:
            state.active = next_player(state, player) or player


def finish(state: State, ranking: list[list[str]], points: dict[str, int], reason: str, draw: bool = False) -> None:
    """SG-8.4 to SG-8.6: placements, winners and scores; players out rank below, the last out highest."""
    placements: dict[str, int] = {}
    place = 1
    for group in [*ranking, *([p] for p in reversed(state.gone))]:
        for player in group:
            placements[player] = place
        place += len(group)
    winners = [] if draw else list(ranking[0])
    score = {p: float(points.get(p, 0)) for p in state.players}
    state.outcome = Result(placements, winners, score, reason)
    state.phase = "over"
    state.handlers.update(dict.fromkeys(state.handlers, _over))


def _not_out(handler: Callable[[State, Any], None], state: State, record: Record) -> None:
    """SG-8.7: a player out makes no more records; any other record goes on to `handler`."""
    if record.by in state.gone:
        raise Illegal("SG-8.7", f"{record.by} is out of the game and makes no more records")
    handler(state, record)


def _over(state: State, record: Record) -> None:
    """SG-8.7: once the game is over, every record is refused."""
    raise Illegal("SG-8.7", "the game is over; no record may follow")


def seat_order(state: State) -> list[str]:
    """Players still in, clockwise from the first player."""
    i = state.players.index(state.first)
    return [p for p in state.players[i:] + state.players[:i] if not state.seats[p].out]


def from_first(state: State) -> str:
    """The first player, or the next one clockwise still in."""
    return seat_order(state)[0]


def next_player(state: State, after: str, seeding: bool = False) -> str | None:
    """The next player clockwise after `after` who is still in (and, when `seeding`, has missions to seed);
    `after` itself last."""
    seats = state.seats
    for p in state.clockwise[after]:
        seat = seats[p]
        if not seat.out and (not seeding or seat.missions):
            return p
    return None
