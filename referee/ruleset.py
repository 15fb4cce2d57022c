"""The interface every game implements, and the errors and helpers they share.

A ruleset is a module-level object with the methods below, in the spirit of
OpenSpiel's Game/State: `start` builds the first state from the header,
`to_act` says who acts, `legal` lists what they may do, `apply` checks and
performs one record (mutating the state only when the record is legal), and
`result` says how the game ended. A game whose `apply` is a table lookup
kept on its state is a `TableRuleset`: `handlers` returns that table, and the
engine calls the handlers itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from schemas.log import Header, Record
from schemas.verdict import Result

if TYPE_CHECKING:
    from referee.decks import DeckRules

CHANCE = "chance"
JUDGE = "judge"


class Illegal(Exception):
    """A record (or a setup) breaks rule `rule`; `message` says why, in a player's words; `card` names the card, when one is at fault."""

    def __init__(self, rule: str, message: str, card: str | None = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.card = card


class Ruleset:
    """Base class of every game. Subclasses fill in the class attributes and methods."""

    id: ClassVar[str]
    title: ClassVar[str]
    setup_type: ClassVar[type[msgspec.Struct]]
    records: ClassVar[tuple[type[Record], ...]]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    # A game played with a standard deck says which, in a sentence, and has no deck rules (`deck_rules` is None).
    fixed_deck: ClassVar[str | None] = None

    def deck_rules(self) -> DeckRules | None:
        """The game's deck rules (referee/decks.py), the ones `start` applies to each deck; None for a fixed deck."""
        return None

    def default_setup(self, players: list[str], rng: random.Random) -> msgspec.Struct:
        """A setup for a bot game between `players`."""
        raise NotImplementedError

    def start(self, header: Header, setup: Any) -> Any:
        """Check the setup and build the first state; raise Illegal if it breaks a rule."""
        raise NotImplementedError

    def to_act(self, state: Any) -> tuple[str, ...]:
        """Who may act next: player ids, ("chance",), or () once the game is over."""
        raise NotImplementedError

    def legal(self, state: Any) -> Iterator[Record]:
        """The game's own legal records here (concede and judge records are always allowed)."""
        raise NotImplementedError

    def sample(self, state: Any, rng: random.Random) -> Record:
        """One legal record drawn at random; games with huge legal sets override this."""
        return rng.choice(list(self.legal(state)))

    def apply(self, state: Any, record: Record) -> None:
        """Perform `record`, or raise Illegal and leave `state` untouched."""
        raise NotImplementedError

    def handlers(self, state: Any) -> Mapping[type[Record], Callable[[Any, Any], None]] | None:
        """Optionally, what `apply` does as a table kept current as the game goes: record type -> handler(state, record).

        A `TableRuleset` returns the table, and the engine calls the handlers
        itself (a call less per record). None, the default, has the engine call `apply`.
        """
        return None

    def result(self, state: Any) -> Result | None:
        """None while the game goes on; the Result once it is over."""
        raise NotImplementedError

    def unchecked(self, state: Any) -> int:
        """How many records the referee accepted without being able to check them."""
        return 0

    def describe(self, state: Any) -> dict[str, Any]:
        """The state as plain JSON-able data (for verdicts and `replay --json`)."""
        raise NotImplementedError

    def view(self, state: Any) -> dict[str, Any]:
        """What the game's `view.html.j2` draws a state from: `describe`, plus drawing data if a game needs it."""
        return self.describe(state)

    def render(self, state: Any) -> str:
        """The state as text a player reads."""
        raise NotImplementedError

    def grid_text(self, state: Any) -> str | None:
        """The playing area's map as text, for games that have one (None for the others)."""
        return None

    def grid_svg(self, state: Any) -> str | None:
        """The playing area's map as an SVG document, for games that have one (None for the others)."""
        return None

    def turn_limit(self, state: Any) -> bool:
        """True when a bot game has gone on so long that the judge should call time."""
        return False


class TableRuleset(Ruleset):
    """A ruleset whose state carries `handlers`: record type -> handler(state, record), which `apply` only looks up.

    The game fills the state's table in `start` and swaps in a handler that
    refuses every record once the game is over, so the engine may call the
    handlers itself.
    """

    def apply(self, state: Any, record: Record) -> None:
        state.handlers[type(record)](state, record)

    def handlers(self, state: Any) -> Mapping[type[Record], Callable[[Any, Any], None]]:
        return state.handlers


def require_actor(record: Record, expected: str, why: str, rule: str) -> None:
    """Raise Illegal(rule) unless `record` is made by `expected`; games bind their own turn rule."""
    if record.by != expected:
        raise Illegal(rule, f"{record.by} may not make this record: {why}")


def two_player_result(players: list[str], winner: str | None, reason: str, score: dict[str, float]) -> Result:
    """The Result of a two-player game: `winner` first, or a draw when None."""
    if winner is None:
        return Result({p: 1 for p in players}, [], score, reason)
    return Result({p: 1 if p == winner else 2 for p in players}, [winner], score, reason)
