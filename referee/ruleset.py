"""The interface every game implements, and the errors and helpers they share.

A ruleset is a module-level object with the methods below, in the spirit of
OpenSpiel's Game/State: `start` builds the first state from the header,
`to_act` says who acts, `legal` lists what they may do, `apply` checks and
performs one record (mutating the state only when the record is legal), and
`result` says how the game ended. A game whose `apply` is a table lookup
kept on its state is a `TableRuleset`: `handlers` returns that table, and the
engine calls the handlers itself.

Beside its rules a game says what each seat may see (`seat_view`,
`record_view`, `seat_legal`, `hidden`): only the game knows which of its
cards are hidden, and from whom.
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
SPECTATOR = None  # the seat of someone who is neither a player nor the judge
RecordFields = Mapping[type[Record], tuple[str, ...]]  # field names by record type
Seat = str | None  # a player id, JUDGE, or SPECTATOR


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
    # What of a record does not change the game (its identity: `record_identity`), by record type: list fields
    # whose order no rule reads, and fields no rule reads at all (free text for people).
    unordered: ClassVar[RecordFields] = {}
    unread: ClassVar[RecordFields] = {}

    def deck_rules(self) -> DeckRules | None:
        """The game's deck rules (referee/decks.py), the ones `start` applies to each deck; None for a fixed deck."""
        return None

    def default_setup(self, players: list[str], rng: random.Random) -> msgspec.Struct:
        """A setup for a bot game between `players`."""
        raise NotImplementedError

    def identity(self, players: list[str], setup: Any) -> tuple[list[str], Any]:
        """The seats and the setup as they decide the game, as plain data (`referee.logio.game_fingerprint`).

        Two headers this game plays alike must give equal identities: `setup` is decoded, so its defaults are
        in, and a game puts into one order what it does not read the order of (a deck's cards, a player's two
        suits, seats that only turn clockwise from the first player: `from_first`), leaving out what no rule
        reads. The default keeps the players and the setup as they are.
        """
        return list(players), msgspec.to_builtins(setup)

    def record_identity(self, record: Record) -> dict[str, Any]:
        """A record as it decides the game: its fields without its place in the log (`seq`, `prev`, `at`,
        `note`), the game's `unordered` lists in one order and its `unread` fields left out."""
        data: dict[str, Any] = msgspec.to_builtins(record)
        for name in ("seq", "prev", "at", "note", *self.unread.get(type(record), ())):
            data.pop(name, None)
        for name in self.unordered.get(type(record), ()):
            if isinstance(data.get(name), list):
                data[name] = in_one_order(data[name])
        return data

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

    # -- what each seat may see (DESIGN.md: the game's own business) ----------

    def hidden(self, state: Any) -> dict[str, set[str]]:
        """Each player's hidden cards: the cards of their hand, deck and face-down places that only they may see.

        Tests search every payload sent to one seat for the others' hidden cards;
        a card also in view somewhere (a name two decks share) is the test's to set aside.
        """
        raise NotImplementedError

    def seat_view(self, state: Any, seat: Seat) -> dict[str, Any]:
        """The state as `seat` may see it, in the shape `view` gives (so view.html.j2 draws it).

        The judge sees everything; a player sees the public state and their own
        hidden cards; a spectator (SPECTATOR) sees the public state. A hidden
        card is None where it lies, so counts stay in view.
        """
        raise NotImplementedError

    def record_view(self, record: Record, seat: Seat, state: Any) -> dict[str, Any]:
        """`record` as `seat` may see it, `state` being the game just after it (a face-down card stays hidden).

        The default hides the card of a chance record from everyone but the
        player it went to and the judge; games with more to hide extend it.
        """
        data: dict[str, Any] = msgspec.to_builtins(record)
        # a record's `prev` is the hash of the line before, which may be a draw hidden from this seat:
        # with that line's other fields known, trying each card would find it
        data.pop("prev", None)
        if record.by == CHANCE and seat != JUDGE and seat != getattr(record, "player", None) and "card" in data:
            data["card"] = None
        return data

    def seat_legal(self, state: Any, seat: str) -> Iterator[Record]:
        """The legal records `seat` may make here, and the chance records that reveal a card to them (a player
        at a paper table records their own draws); none names a card hidden from `seat`."""
        for record in self.legal(state):
            if record.by == seat or (record.by == CHANCE and getattr(record, "player", None) == seat):
                yield record

    def chance_options(self, state: Any, record: Record) -> list[Record]:
        """The chance records that could stand where the chance record `record` stands: the same event (type and
        whose), one for each card that could come, a card held twice listed twice (referee/dealing.py).

        The default takes the legal chance records of that type and player; a game whose
        legal listing names a card once however many copies there are, or that allows a
        chance record it does not list, says so itself.
        """
        kind, whose = type(record), getattr(record, "player", None)
        return [r for r in self.legal(state) if r.by == CHANCE and type(r) is kind and getattr(r, "player", None) == whose]

    def unname(self, state: Any, record: Record) -> Record:
        """The chance record `record`, about to be applied to `state`, as a paper table may record it: a draw
        without its card (docs/referee.md, "Unnamed draws"), or as it is where the game's rules read the card at
        once or the game has no unnamed draws. The default keeps every record as it is."""
        return record

    def grid_text(self, state: Any) -> str | None:
        """The playing area's map as text, for games that have one (None for the others)."""
        return None

    def grid_svg(self, state: Any) -> str | None:
        """The playing area's map as an SVG document, for games that have one (None for the others)."""
        return None

    # -- how a recorder shows a card (a live table's buttons: tournament/output/recorder.py) -------------------

    def card_order(self, card: str) -> tuple[Any, ...]:
        """Where `card` sorts in a hand as players hold it (by suit or kind, then rank); by its name by default."""
        return (card,)

    def card_label(self, card: str) -> str:
        """`card` in a few characters for a button (`7♠`); its name by default."""
        return card

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


def sees(seat: Seat, owner: str) -> bool:
    """Whether `seat` may see what `owner` hides: the owner and the judge may."""
    return seat in (owner, JUDGE)


def veiled(cards: list[Any], shown: bool) -> list[Any]:
    """`cards` as they are when `shown`, else a None for each: a hidden zone keeps its size in view."""
    return list(cards) if shown else [None] * len(cards)


def veil_players(view: dict[str, Any], seat: Seat, zones: tuple[str, ...]) -> dict[str, Any]:
    """`view` with the `zones` (lists of cards, in each entry of `view["players"]`) of every player but `seat` veiled."""
    players = view["players"]
    return view | {
        "players": {p: side if sees(seat, p) else side | {z: veiled(side[z], False) for z in zones} for p, side in players.items()}
    }


def in_one_order(items: Any) -> list[Any]:
    """Plain JSON data items, sorted by their canonical encoding: the one order of a list whose order no rule reads."""
    return sorted(items, key=lambda item: msgspec.json.encode(item, order="sorted"))


def from_first(players: list[str], first: str) -> list[str]:
    """The seats clockwise from `first`: the one order of seats in a game whose turns run round from the first player."""
    if first not in players:  # a setup the game refuses anyway
        return list(players)
    at = players.index(first)
    return players[at:] + players[:at]


def require_actor(record: Record, expected: str, why: str, rule: str) -> None:
    """Raise Illegal(rule) unless `record` is made by `expected`; games bind their own turn rule."""
    if record.by != expected:
        raise Illegal(rule, f"{record.by} may not make this record: {why}")


def two_player_result(players: list[str], winner: str | None, reason: str, score: dict[str, float]) -> Result:
    """The Result of a two-player game: `winner` first, or a draw when None."""
    if winner is None:
        return Result({p: 1 for p in players}, [], score, reason)
    return Result({p: 1 if p == winner else 2 for p in players}, [winner], score, reason)
