"""The stccg-multiplayer state: each player's cards, ships, Borg Ship tours, mercenaries, and the whole game.

The state holds only what a rule reads: decks are multisets of card names
(`Pile`: name -> copies, no zero counts), because the log names every card
drawn. The grid itself lives in grid.py. The small records are msgspec Structs,
made in C (a game makes dozens).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import msgspec

from referee.rulesets.stccg_multiplayer.grid import CENTRE, Grid, Loc
from schemas import stccg_multiplayer as sg
from schemas.verdict import Result

NEBULA = Loc("Nebula", "Alpha", 2, "space")  # SG-2.3

Pile = dict[str, int]  # card name -> copies (absent at 0): a Counter, without its Python-level methods


def counted(cards: list[str]) -> Pile:
    """`cards` as a pile, in first-seen order: a copy of the pile counted before for the same names in the
    same order (the whole list is compared, so the copy is exact); events and benches replay few decks."""
    key = (len(cards), cards[0], cards[-1]) if cards else (0, "", "")
    found = _recent.get(key)
    if found is None or found[0] != cards:
        if len(_recent) >= RECENT_LIMIT:
            _recent.clear()
        found = _recent[key] = (list(cards), dict(Counter(cards)))  # takes the place of a list with the same key
    return found[1].copy()


# The lists counted lately, by length and first and last name, each with its whole list and pile. A game's
# names are new strings, whose hashes are computed afresh: hashing two of them and comparing the list name
# by name costs about half as much as hashing every name, as a key of the whole list would.
# It saves about 5% of a replay (bench/replay.py --rulesets stccg-multiplayer, alternating runs: 297,000-314,000
# records/s with it, 280,000-297,000 without); nothing else depends on it: without it every pile is counted afresh.
_recent: dict[tuple[int, str, str], tuple[list[str], Pile]] = {}
RECENT_LIMIT = 1024  # as many lists as a big event's decks; the memo starts afresh beyond


class Player(msgspec.Struct):
    """One player's cards: missions still to seed, seed deck, draw deck, hand, cards put into play; out or not."""

    missions: dict[str, sg.Mission]
    seeds: Pile
    draw: Pile
    hand: Pile
    played: Pile = msgspec.field(default_factory=dict)  # non-ship cards put into play by `play` (SG-6.6)
    qs: int = 0  # Q dilemmas encountered and not yet used for a swap (SG-6.5)
    out: bool = False


class Ship(msgspec.Struct):
    """A ship in play: its owner and the slot it is at."""

    owner: str
    slot: str


class Tour(msgspec.Struct):
    """A Borg Ship's tour (SG-7.2): where it is, where it joined the ring, whether it has moved on the ring."""

    slot: str
    ring_start: str | None
    lapped: bool = False


class Group(msgspec.Struct):
    """Rogue Borg Mercenaries in play (SG-7.7): who seeded them and whom they affect."""

    owner: str
    affected: str


class State:
    """The whole game: grid, players, phase, whose turn it is, and the tracked card effects."""

    def __init__(self, players: list[str], first: str, seats: dict[str, Player]) -> None:
        """A game about to start: `seats` are the players' decks (game.py), in the setup's order."""
        self.players = players
        self.first = first
        # each player's seat order: the others clockwise, then the player itself
        self.clockwise = {p: players[i + 1 :] + players[: i + 1] for i, p in enumerate(players)}
        self.seats = seats
        self.grid = Grid(len(players))
        self.grid.slots[CENTRE] = Loc(NEBULA.name, NEBULA.quadrant, NEBULA.span, NEBULA.kind)
        self.phase = "missions"
        self.active = first
        self.turn = 0
        self.passes = 0  # passes in a row in the dilemma phase
        self.opening: list[str] = []  # opening draws still due, in order
        self.ships: dict[str, Ship] = {}
        self.borgs: dict[str, Tour] = {}
        self.groups: dict[str, Group] = {}
        self.fires: set[str] = set()  # ships with Plasma Fire
        self.burnt: set[str] = set()  # ships Plasma Fire damaged this turn
        self.gateways: list[str] = []  # slots holding a Transwarp Network Gateway
        self.outposts: list[str] = []  # owners of Borg Outposts
        self.gone: list[str] = []  # players out, in the order they went (the others are still in)
        self.handlers: dict[type, Callable[[State, Any], None]] = {}  # record type -> handler (game.py, flow.py)
        self.applied = 0  # records applied, for records that have no seq yet (game.py)
        self.unchecked = 0
        self.outcome: Result | None = None

    def still_in(self) -> list[str]:
        """Players not out, in seat order."""
        return [p for p in self.players if not self.seats[p].out]

    def ships_at(self) -> dict[str, list[str]]:
        """Slot -> names of the ships there (Borg Ships included), for drawings."""
        at: dict[str, list[str]] = {}
        for name, ship in self.ships.items():
            at.setdefault(ship.slot, []).append(name)
        for name, tour in self.borgs.items():
            at.setdefault(tour.slot, []).append(name)
        return at
