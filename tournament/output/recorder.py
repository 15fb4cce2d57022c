"""The recorder's choices (issue 24, step 3): a seat's legal records as screens of big buttons, each tap narrowing.

The first screen lists the record types; a type with several records opens a
screen that splits them by the first field whose values differ (a card, then a
target, ...), and so on until one record is left: that button records it. Only
the records' own fields are read, so no game's rules are known here (a game's
records are its own; referee/rulesets/). A seat's names replace the players'
ids wherever a value is one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Protocol

import msgspec

from referee.pages import brief

QUIET = ("type", "by", "seq", "prev", "dealt")  # fields no choice is made on: shown or the server's
LIKELY = 3  # records offered first, on the first screen: those the seat made before in the same place
SEARCHED = 8  # a screen of more buttons than this has a search box
UNNAMED = "a card, not named"  # the button of a draw whose card is left out
FROM_HAND = "a card from your hand"  # a kind of record made with an unknown card (a draw left unnamed): its row or button
INLINE = 4  # a type with this many records or fewer has them on the first screen, one tap each
SMALL = 8  # a card labelled in this many characters or fewer fits a small button: its kind's cards in a row (T-248)
ROW = 60  # at most this many small buttons in a row on the first screen; more go behind their kind's button
NOT_LIKELY = ("concede", "take_back", "agree_take_back")  # never offered first, however often made


class Faces(Protocol):
    """How a game shows its cards on buttons: its ruleset (`Ruleset.card_order`, `card_label`)."""

    def card_order(self, card: str) -> tuple[Any, ...]: ...

    def card_label(self, card: str) -> str: ...


class Named:
    """Cards as they are named: the default for a page that has no game at hand."""

    def card_order(self, card: str) -> tuple[Any, ...]:
        return (card,)

    def card_label(self, card: str) -> str:
        return card


@dataclass
class Choice:
    """One button: a record to make (`record`, as JSON), or a screen of narrower choices (`opens`)."""

    label: str
    record: str | None = None
    opens: int | None = None
    find: str = ""  # what a search box matches, beside the label (a card's own name)


@dataclass
class Hand:
    """A row of small card buttons on the first screen (T-248): the cards one kind of record may be made with
    from the cards a player drew unnamed, under `label` ("play resource · a card from your hand"); each card's
    button makes its record, or opens its records when it has several."""

    label: str
    choices: list[Choice] = field(default_factory=list)


@dataclass
class Screen:
    """A screen of buttons; `path` says what was chosen to reach it (empty on the first), `hands` the rows of
    cards drawn unnamed (on the first)."""

    number: int
    path: list[str]
    choices: list[Choice] = field(default_factory=list)
    hands: list[Hand] = field(default_factory=list)


def named(value: Any, names: Mapping[str, str]) -> Any:
    """`value` with every string that is a player's id (a key too) given as that player's name."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [named(v, names) for v in value]
    if isinstance(value, dict):
        return {named(k, names): named(v, names) for k, v in value.items()}
    return value


def words(name: str) -> str:
    """A record's type or field name as people write it (`game_loss`: "game loss")."""
    return name.replace("_", " ")


def record_text(record: Mapping[str, Any], names: Mapping[str, str], dealt: bool = False, faces: Faces | None = None) -> str:
    """A record in a line for people: who, what, then its fields (a hidden card as "a hidden card", a card as the
    game labels it on its buttons: `faces`).

    A chance record is "the deal"'s only where the server deals (`dealt`: a digital table); at a paper table
    someone wrote down what was drawn, and it is chance's, as the log says."""
    by = record.get("by", "")
    who = ("the deal" if dealt else "chance") if by == "chance" else "the judge" if by == "judge" else names.get(by, by)
    fields = [f"card {faces.card_label(v)}" if k == "card" and isinstance(v, str) and faces else _field(k, v, names)
              for k, v in record.items() if k not in QUIET]
    if record.get("dealt"):
        fields.append("the server deals the card")
    return f"{who}: {words(str(record.get('type', '?')))}" + (f" ({', '.join(fields)})" if fields else "")


def ending_text(result: Mapping[str, Any], players: list[str], names: Mapping[str, str]) -> str:
    """How a game ended, for people, from the referee's result: who won, by what game score (winners first), and
    why it ended: "Bob won 12-0: Ann conceded", "A draw, 5-5: time was called", "Bob won 12-0: the game's own end
    (life)". The reasons every game shares are said in words; a game's own is named as the game names it."""
    winners = [p for p in result.get("winners", []) if p in players]
    places, score = result.get("placements", {}), result.get("score", {})
    order = sorted((p for p in players if p in score), key=lambda p: (places.get(p, len(players)), players.index(p)))
    if len(players) == 2:
        points = "-".join(f"{score[p]:g}" for p in order)
    else:  # a pod's scores, each with its player's name
        points = "(" + ", ".join(f"{names.get(p, p)} {score[p]:g}" for p in order) + ")" if order else ""
    said = f"{' and '.join(names.get(p, p) for p in winners)} won" if winners else "A draw"
    # the loser of a two-player game is named; in a pod the reason alone is said
    loser = next((names.get(p, p) for p in players if p not in winners), None) if len(players) == 2 and winners else None
    reason = str(result.get("reason", ""))
    why = {
        "concede": f"{loser} conceded" if loser else "a concession",
        "time": "time was called",
        "game_loss": f"a judge gave {loser} a game loss" if loser else "a judge's game loss",
    }.get(reason, f"the game's own end ({words(reason)})")
    return f"{said}{' ' if winners else ', '}{points}: {why}" if points else f"{said}: {why}"


def _field(key: str, value: Any, names: Mapping[str, str]) -> str:
    if value is None and key == "card":
        return "a hidden card"
    return f"{words(key)} {brief(named(value, names))}"


def screens(legal: list[dict[str, Any]], names: Mapping[str, str], faces: Faces | None = None,
            made_before: list[dict[str, Any]] | None = None, seats: tuple[str, ...] = (),
            unseen: list[dict[str, Any]] | None = None) -> list[Screen]:
    """The screens of choices for `legal` (the seat's legal records, as the table view lists them), first screen
    first. The first screen starts with the records most likely now (`likely`: those `seats` made before in the
    same place of `made_before`, the log's records), then the record types, the likeliest first; nothing is left
    out. A screen that picks a card lists the cards as a hand, by the game's own order and short labels. Last come
    the records made with an unknown card (`unseen`, the view's: each a card and its record), one button a kind."""
    made: list[Screen] = []
    by_type: dict[str, list[dict[str, Any]]] = {}
    for record in legal:
        by_type.setdefault(str(record.get("type", "?")), []).append(record)
    first = _screen(made, [])
    shown = faces or Named()
    history = likely(made_before or [], legal, seats)
    for record in history.most:
        first.choices.append(Choice(f"again: {record_text(record, names, faces=shown)}", _json(record)))
    order = sorted(by_type, key=lambda kind: -history.kinds[kind])  # a stable sort: the rest keep their order
    kinds = {kind: _choose(made, [words(kind)], words(kind), by_type[kind], names, shown) for kind in order}
    making = [kind for kind in order if kind != "concede"]
    opens = kinds[making[0]].opens if len(making) == 1 else None
    if opens is not None:  # one kind of record to make (a draw, a block) besides conceding: its choices first, a tap saved
        inner = made[opens]
        first.path, first.choices, inner.choices = inner.path, [*first.choices, *inner.choices], []
        del kinds[making[0]]
    for kind, choice in kinds.items():
        first.choices += _inline(made, words(kind), choice)
    _from_hand(made, first, unseen or [], names, shown, len(seats) > 1)
    return made


def _from_hand(made: list[Screen], first: Screen, unseen: list[dict[str, Any]], names: Mapping[str, str], faces: Faces,
               whose: bool) -> None:
    """The records made with an unknown card, a kind at a time ("play face · a card from your hand"; with `whose`,
    on a page that records for several seats, the seat's name too): the cards it could be, as a hand by the game's
    order and labels; a card is its record when it has one, else opens its records. Cards labelled short, ROW at
    most, are a row of small buttons on the first screen (`first.hands`: one tap, T-248); others a button opening
    them on a screen of their own, with a search box past SEARCHED, as a named draw's screen."""
    kinds: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = {}
    for entry in unseen:
        record = entry["record"]
        kinds.setdefault((str(record.get("type", "?")), str(record.get("by", ""))), {}).setdefault(entry["card"], []).append(record)
    for (kind, by), cards in kinds.items():
        label = f"{words(kind)} · {FROM_HAND}" + (f" ({names.get(by, by)})" if whose else "")
        order = sorted(cards, key=faces.card_order)
        choices = [_choose(made, [label, faces.card_label(card)], faces.card_label(card), cards[card], names, faces, card)
                   for card in order]
        if len(order) <= ROW and all(len(faces.card_label(card)) <= SMALL for card in order):
            first.hands.append(Hand(label, choices))
            continue
        screen = _screen(made, [label])
        screen.choices = choices
        first.choices.append(Choice(f"{label}…", opens=screen.number))


def _inline(made: list[Screen], kind: str, choice: Choice) -> list[Choice]:
    """A type's button, or its few records themselves (INLINE at most, each one tap: "play resource · 7♠")."""
    inner = made[choice.opens] if choice.opens is not None else None
    if inner is None or len(inner.choices) > INLINE or any(c.record is None for c in inner.choices):
        return [choice]
    found, inner.choices = [Choice(f"{kind} · {c.label}", c.record, find=c.find) for c in inner.choices], []
    return found


@dataclass
class Likely:
    """What a seat probably records now: whole records it made before in the same place, and the types of
    record it made there, counted."""

    most: list[dict[str, Any]]
    kinds: Counter[str]


def likely(records: list[dict[str, Any]], legal: list[dict[str, Any]], seats: tuple[str, ...]) -> Likely:
    """The records `seats` made before right after a record of the type the log's last record has (a game's
    phase, as near as a record's type tells it), that are legal now: the whole records made most often (at most
    LIKELY), and every type counted."""
    if not records:
        return Likely([], Counter())
    kept = [r for r in records if r.get("type") not in NOT_LIKELY]
    last = kept[-1].get("type") if kept else None
    wanted = {_json(_bare(r)) for r in legal}
    whole: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for before, record in pairwise(kept):
        if before.get("type") != last or _maker(record) not in seats or record.get("type") in NOT_LIKELY:
            continue
        kinds[str(record.get("type"))] += 1
        text = _json(_bare(record))
        if text in wanted:
            whole[text] += 1
    most = [msgspec.json.decode(text) for text, _ in whole.most_common(LIKELY)]
    return Likely([next(r for r in legal if _json(_bare(r)) == _json(m)) for m in most], kinds)


def _bare(record: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ("seq", "prev", "at", "note")}


def _maker(record: Mapping[str, Any]) -> Any:
    """The seat whose page made `record`: its player's, or for a draw the drawing player's."""
    return record.get("player") if record.get("by") == "chance" else record.get("by")


def _screen(made: list[Screen], path: list[str]) -> Screen:
    screen = Screen(len(made), path)
    made.append(screen)
    return screen


def _choose(made: list[Screen], path: list[str], label: str, records: list[dict[str, Any]], names: Mapping[str, str],
            faces: Faces, find: str = "", chosen: frozenset[str] = frozenset()) -> Choice:
    """A button for `records`: the record itself when one is left, else a screen that splits them further (the
    fields every one of them shares said once, in the screen's heading)."""
    if len(records) == 1:
        details = [text for k, v in records[0].items()
                   if k not in QUIET and k not in chosen
                   and (text := faces.card_label(v) if k == "card" and isinstance(v, str) else _field(k, v, names)) not in path]
        if records[0].get("dealt"):
            details.append("the server deals the card")
        return Choice(" · ".join([label, *details]), _json(records[0]), find=find)
    key = _splitting(records)
    if key is None:  # the same record listed twice (a card held twice): either one is that record
        return Choice(label, _json(records[0]), find=find)
    shared = [_field(k, v, names) for k, v in records[0].items()
              if k not in QUIET and all(_json(r.get(k)) == _json(v) for r in records) and _field(k, v, names) not in path]
    screen = _screen(made, [*path, *shared])
    groups: dict[str, list[dict[str, Any]]] = {}
    cards: dict[str, str] = {}  # a group's text -> the card it names, when the split is by card
    for record in records:
        value = record.get(key)
        if key == "card" and isinstance(value, str):
            text = faces.card_label(value)
            cards[text] = value
        elif key == "card" and value is None:
            text = UNNAMED  # a paper draw that leaves its card out (docs/referee.md, "Unnamed draws")
        else:
            text = _field(key, value, names) if key in record else f"no {key}"
        groups.setdefault(text, []).append(record)
    if key == "card" and len(cards) + (UNNAMED in groups) == len(groups):  # a hand: the unnamed card first
        order = sorted(groups, key=lambda text: (1, *faces.card_order(cards[text])) if text in cards else (0,))
    else:
        order = list(groups)
    for text in order:
        screen.choices.append(_choose(made, [*screen.path, text], text, groups[text], names, faces, cards.get(text, ""), chosen | {key}))
    return Choice(f"{label} ({len(records)})", opens=screen.number, find=find)


def _splitting(records: list[dict[str, Any]]) -> str | None:
    """The first field, in the records' own order, whose values differ among `records`."""
    keys = [k for k in dict.fromkeys(k for r in records for k in r) if k not in QUIET]
    for key in keys:
        if len({_json(r.get(key)) for r in records}) > 1:
            return key
    return None


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def card_labels(value: Any, faces: Faces) -> dict[str, str]:
    """Every string of `value` (a seat's view of the state: the cards its drawing shows) that the game labels
    otherwise than it is written, with its label (`8S`: `8♠`): a card tapped in the drawing is named so."""
    if isinstance(value, str):
        label = faces.card_label(value)
        return {value: label} if label != value else {}
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    found: dict[str, str] = {}
    for key, item in items:
        found |= card_labels(key, faces) if isinstance(key, str) else {}
        found |= card_labels(item, faces)
    return found


def typed_example(legal: list[dict[str, Any]], seat: str) -> str:
    """What the recorder's form starts with: the shape of a record of this seat, its type to fill in."""
    kind = next((str(r["type"]) for r in legal if "type" in r), "")
    return _json({"type": kind, "by": seat})
