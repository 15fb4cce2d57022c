"""Unknown cards: draws a paper table records without naming the card (docs/referee.md, "Unnamed draws").

A draw record may leave out its `card`. The card then lies in the drawer's
hidden zone as an *unknown card*: the referee counts it, and knows only that
it is one of the player's *unseen* cards, those the log has not yet shown
anywhere: the cards still in the deck and the unknown cards, which this module
keeps together in the game's own deck container (a set, or a dict of counts
where a deck holds copies). So a deck container holds `len(deck)` unseen cards
of which `unknown` are in hand, and `len(deck) - unknown` are still to draw.

When a record names a card from the hidden zone that is not known to be there
(a card played, shown or discarded), the card must be unseen and an unknown
card must be left: one unknown card becomes that card. When the deck has no
card left to draw, every unseen card is in hand, so the unknown cards are
known from then on (`settle`): a deck that the discard pile refills is never
mixed with cards drawn before.

What belongs to a game (which records take which cards from a hidden zone,
which cards its rules read in a hand at once, its rule ids) it declares in its
own package as an `UnknownCards`; this module knows no game's rules.

Nothing here runs for a log whose draws are all named: the first unnamed draw
of a game puts an `Unseen` on its state and wraps the state's handlers of the
draw and of the records that take cards from a hand, so the per-record path
of every other log, and of every other record, stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from referee.ruleset import Illegal, Seat, sees
from schemas.log import Record

Handler = Callable[[Any, Any], None]
Pile = Any  # a set of cards, or a dict card -> copies


@dataclass(frozen=True)
class UnknownCards:
    """A game's declaration of unknown cards, kept beside its rules.

    - `zones(state, player)`: that player's deck container and hand container.
    - `taken`: record type -> given the state and a record of that type, the (player, card) pairs it takes
      from, or shows of, a hidden zone (a card played, discarded or shown from hand).
    - `read_at_once(state, player, card)`: the rule that reads `card` in a hand as soon as it is drawn
      (so a draw of it must name it), or None.
    - `draw`: the game's draw record type (its `player` draws, its `card` when named).
    - `rule`: the rule refusing a draw when the deck holds no card to draw.
    """

    zones: Callable[[Any, str], tuple[Pile, Pile]]
    taken: Mapping[type[Record], Callable[[Any, Any], Iterable[tuple[str, str]]]]
    draw: type[Record]
    read_at_once: Callable[[Any, str, str], str | None]
    rule: str


@dataclass
class Unseen:
    """What a game with unnamed draws keeps: each player's unknown cards, and how many draws were unnamed."""

    spec: UnknownCards
    unknown: dict[str, int] = field(default_factory=dict)
    drawn: int = 0  # draws recorded without their card (the verdict's `unnamed_draws`)


def by_card(state: Any, record: Any) -> tuple[tuple[str, str]]:
    """What most records take from a hidden zone: their own `card`, from the hand of whoever makes them."""
    return ((record.by, record.card),)


def _size(pile: Pile) -> int:
    return sum(pile.values()) if isinstance(pile, dict) else len(pile)


def _take(pile: Pile, card: str) -> None:
    if isinstance(pile, dict):
        pile[card] -= 1
        if not pile[card]:
            del pile[card]
    else:
        pile.discard(card)


def _put(pile: Pile, card: str, copies: int = 1) -> None:
    if isinstance(pile, dict):
        pile[card] = pile.get(card, 0) + copies
    else:
        pile.add(card)


def unknown(state: Any, player: str) -> int:
    """How many unknown cards `player` holds (0 in a game whose draws are all named)."""
    unseen: Unseen | None = getattr(state, "unseen", None)
    return 0 if unseen is None else unseen.unknown.get(player, 0)


def to_draw(state: Any, player: str, deck: Pile) -> int:
    """How many cards `player` has left to draw: the deck container's unseen cards less their unknown cards."""
    return _size(deck) - unknown(state, player)


def described(state: Any, player: str) -> dict[str, int]:
    """What a game's `describe` adds to a player's entry: `unknown`, the unknown cards in hand (their deck lists
    the unseen cards, unknown ones among them), and only while there are some."""
    held = unknown(state, player)
    return {"unknown": held} if held else {}


def rendered(state: Any, player: str) -> str:
    """What a game's `render` adds to a player's hand: the unknown cards, while there are some."""
    held = unknown(state, player)
    return f" +{held} unknown" if held else ""


def veiled(view: dict[str, Any], seat: Seat, hand: str, deck: str) -> dict[str, Any]:
    """`view`, a seat's view with the other players' `hand` and `deck` (each player entry's lists of their hand
    and of their unseen cards) already veiled, with the unknown cards of each player `seat` may not see moved
    from the deck's hidden cards to the hand's, and no longer told apart: `seat` learns how many cards each
    player holds and has left to draw, and no more. The players `seat` sees keep their `unknown` count, which
    their drawing shows as face-down cards in hand (the deck list holds those too: it is the unseen cards)."""
    players = {}
    for player, entry in view["players"].items():
        held = entry.get("unknown", 0)
        if held and not sees(seat, player):
            entry = {k: v for k, v in entry.items() if k != "unknown"}
            entry |= {hand: [None] * (len(entry[hand]) + held), deck: [None] * (len(entry[deck]) - held)}
        players[player] = entry
    return view | {"players": players}


def unnamed_draws(state: Any) -> int:
    """How many draws of the game so far were recorded without their card."""
    unseen: Unseen | None = getattr(state, "unseen", None)
    return 0 if unseen is None else unseen.drawn


def draw(state: Any, spec: UnknownCards, player: str, handlers: MutableMapping[type[Record], Handler]) -> None:
    """`player` draws a card nobody names: one more unknown card, if their deck has a card left to draw.

    The game calls this from its draw handler in place of taking a named card, after its own checks
    (whose draw, and when); `handlers` is the table the engine calls, wrapped here on the first one.
    """
    unseen: Unseen | None = getattr(state, "unseen", None)
    deck, _ = spec.zones(state, player)
    held = 0 if unseen is None else unseen.unknown.get(player, 0)
    if _size(deck) <= held:
        raise Illegal(spec.rule, f"{player}'s deck has no card left to draw (its {held} unseen card(s) are all in hand, unknown)")
    if unseen is None:
        unseen = state.unseen = Unseen(spec)
        _wrap(handlers, spec)
    unseen.unknown[player] = held + 1
    unseen.drawn += 1
    settle(state, player)


def settle(state: Any, player: str) -> None:
    """When `player`'s deck has no card left to draw, their unseen cards are their unknown cards: known now.

    A card so shown that the rules read in a hand at once breaks that rule here: its draw had to name it.
    """
    unseen: Unseen = state.unseen
    held = unseen.unknown.get(player, 0)
    deck, hand = unseen.spec.zones(state, player)
    if not held or _size(deck) != held:
        return
    for card in sorted(deck):
        _must_be_unnamed(state, unseen.spec, player, card)
    for card, copies in list(deck.items()) if isinstance(deck, dict) else [(c, 1) for c in deck]:
        _put(hand, card, copies)
    deck.clear()
    unseen.unknown[player] = 0


def _last_draw(state: Any, spec: UnknownCards, record: Record) -> list[tuple[str, str]]:
    """Before a named draw that leaves no card to draw, settle the drawer's deck (the game's rules may read
    it while drawing); the cards so moved to hand, for `_hide`."""
    if type(record) is not spec.draw:
        return []
    player, card = record.player, record.card  # type: ignore[attr-defined]
    unseen: Unseen = state.unseen
    held = unseen.unknown.get(player, 0)
    if not held or card is None:
        return []
    deck, _ = spec.zones(state, player)
    if card not in deck or _size(deck) - 1 != held:
        return []
    # what is left once the draw takes its card (a copy of it where the deck holds several)
    left = [(c, (deck[c] if isinstance(deck, dict) else 1) - (c == card)) for c in sorted(deck)]
    for other, copies in left:
        if copies:
            _must_be_unnamed(state, spec, player, other)
    shown = []
    for other, copies in left:
        for _ in range(copies):
            _reveal_one(state, spec, player, other)
            shown.append((player, other))
    return shown


def _reveal_one(state: Any, spec: UnknownCards, player: str, card: str) -> None:
    deck, hand = spec.zones(state, player)
    _take(deck, card)
    _put(hand, card)
    state.unseen.unknown[player] -= 1


def _must_be_unnamed(state: Any, spec: UnknownCards, player: str, card: str) -> None:
    rule = spec.read_at_once(state, player, card)
    if rule is not None:
        raise Illegal(rule, f"{card} was drawn unnamed, but the rules read it in {player}'s hand at once: its draw must name it")


def _reveal(state: Any, spec: UnknownCards, record: Record) -> list[tuple[str, str]]:
    """Turn unknown cards into the cards `record` takes from a hidden zone, where the known hand lacks them."""
    unseen: Unseen = state.unseen
    shown: list[tuple[str, str]] = []
    taken = spec.taken.get(type(record))
    if taken is None:
        return shown
    try:
        for player, card in taken(state, record):
            if not unseen.unknown.get(player):
                continue
            deck, hand = spec.zones(state, player)
            if card in hand or card not in deck:
                continue
            _must_be_unnamed(state, spec, player, card)
            _reveal_one(state, spec, player, card)
            shown.append((player, card))
    except Illegal:
        _hide(state, spec, shown)
        raise
    return shown


def _hide(state: Any, spec: UnknownCards, shown: list[tuple[str, str]]) -> None:
    """Undo `_reveal`: a refused record leaves the state as it was."""
    unseen: Unseen = state.unseen
    for player, card in shown:
        deck, hand = spec.zones(state, player)
        _take(hand, card)
        _put(deck, card)
        unseen.unknown[player] += 1


def _wrap(handlers: MutableMapping[type[Record], Handler], spec: UnknownCards) -> None:
    """The handlers of the records that take a card from a hand, in place, to reveal it first, and the draw's, to
    settle a deck its named draw empties. No other record changes how many cards a deck has left to draw (a
    revealed card leaves the deck and the unknown cards alike), so the others stay as they are."""
    for kind in spec.taken:
        handlers[kind] = _wrapped(handlers[kind], spec, _reveal)
    handlers[spec.draw] = _wrapped(handlers[spec.draw], spec, _last_draw)


def _wrapped(handler: Handler, spec: UnknownCards, prepare: Callable[[Any, UnknownCards, Record], list[tuple[str, str]]]) -> Handler:
    def apply(state: Any, record: Record) -> None:
        shown = prepare(state, spec, record)
        try:
            handler(state, record)
        except Illegal as exc:
            _hide(state, spec, shown)
            raise _unseen_why(state, spec, record, exc) from None
    return apply


def _unseen_why(state: Any, spec: UnknownCards, record: Record, exc: Illegal) -> Illegal:
    """`exc`, saying why a card the record takes from a hand that holds unknown cards is none of them."""
    taken = spec.taken.get(type(record))
    unseen: Unseen = state.unseen
    for player, card in taken(state, record) if taken is not None else ():
        held = unseen.unknown.get(player, 0)
        deck, hand = spec.zones(state, player)
        if held and card not in hand and card not in deck:
            why = f"{card} cannot be one of {player}'s {held} unknown card(s): the log shows it elsewhere, so it is not unseen"
            return Illegal(exc.rule, f"{exc.message}; {why}", exc.card)
    return exc


def playable(ruleset: Any, state: Any, seat: str) -> list[tuple[str, Record]]:
    """The records `seat` could make with one of its unknown cards, each with the card it would be: for each card
    still unseen for `seat` (in the deck container, not known in hand, not one the rules read at once), the
    records of `seat`'s legal listing (`Ruleset.seat_legal`) that take that card from `seat`'s hidden zone were the
    unknown card that one. The game is asked as it would stand once the record showed the card (one unknown card
    turned into it, as `_reveal` does before the record's handler), and put back as it was; only `seat`'s own
    zones are read, so nothing here is hidden from `seat`. Empty while `seat` holds no unknown card."""
    unseen: Unseen | None = getattr(state, "unseen", None)
    if unseen is None or not unseen.unknown.get(seat):
        return []
    spec = unseen.spec
    deck, hand = spec.zones(state, seat)
    found: list[tuple[str, Record]] = []
    for card in sorted(set(deck)):
        if card in hand or spec.read_at_once(state, seat, card) is not None:
            continue  # a card known in hand is offered by the legal listing itself; one read at once is never unknown
        _reveal_one(state, spec, seat, card)
        try:
            for record in ruleset.seat_legal(state, seat):
                taken = spec.taken.get(type(record))
                if taken is not None and (seat, card) in tuple(taken(state, record)):
                    found.append((card, record))
        finally:
            _hide(state, spec, [(seat, card)])
    return found
