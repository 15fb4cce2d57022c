"""The recorder's choices (issue 24, step 3): a seat's legal records as screens of big buttons, each tap narrowing.

The first screen lists the record types; a type with several records opens a
screen that splits them by the first field whose values differ (a card, then a
target, ...), and so on until one record is left: that button records it. Only
the records' own fields are read, so no game's rules are known here (a game's
records are its own; referee/rulesets/). A seat's names replace the players'
ids wherever a value is one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from referee.pages import brief

QUIET = ("type", "by", "seq", "prev", "dealt")  # fields no choice is made on: shown or the server's


@dataclass
class Choice:
    """One button: a record to make (`record`, as JSON), or a screen of narrower choices (`opens`)."""

    label: str
    record: str | None = None
    opens: int | None = None


@dataclass
class Screen:
    """A screen of buttons; `path` says what was chosen to reach it (empty on the first)."""

    number: int
    path: list[str]
    choices: list[Choice] = field(default_factory=list)


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


def record_text(record: Mapping[str, Any], names: Mapping[str, str], dealt: bool = False) -> str:
    """A record in a line for people: who, what, then its fields (a hidden card as "a hidden card").

    A chance record is "the deal"'s only where the server deals (`dealt`: a digital table); at a paper table
    someone wrote down what was drawn, and it is chance's, as the log says."""
    by = record.get("by", "")
    who = ("the deal" if dealt else "chance") if by == "chance" else "the judge" if by == "judge" else names.get(by, by)
    fields = [_field(k, v, names) for k, v in record.items() if k not in QUIET]
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


def screens(legal: list[dict[str, Any]], names: Mapping[str, str]) -> list[Screen]:
    """The screens of choices for `legal` (the seat's legal records, as the table view lists them), first screen first."""
    made: list[Screen] = []
    by_type: dict[str, list[dict[str, Any]]] = {}
    for record in legal:
        by_type.setdefault(str(record.get("type", "?")), []).append(record)
    first = _screen(made, [])
    for kind, records in by_type.items():
        first.choices.append(_choose(made, [words(kind)], words(kind), records, names))
    return made


def _screen(made: list[Screen], path: list[str]) -> Screen:
    screen = Screen(len(made), path)
    made.append(screen)
    return screen


def _choose(made: list[Screen], path: list[str], label: str, records: list[dict[str, Any]], names: Mapping[str, str]) -> Choice:
    """A button for `records`: the record itself when one is left, else a screen that splits them further."""
    if len(records) == 1:
        details = [text for k, v in records[0].items() if k not in QUIET and (text := _field(k, v, names)) not in path]
        if records[0].get("dealt"):
            details.append("the server deals the card")
        return Choice(" · ".join([label, *details]), _json(records[0]))
    key = _splitting(records)
    if key is None:  # the same record listed twice (a card held twice): either one is that record
        return Choice(label, _json(records[0]))
    screen = _screen(made, path)
    groups: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        groups.setdefault(_field(key, record[key], names) if key in record else f"no {key}", []).append(record)
    for text, group in groups.items():
        screen.choices.append(_choose(made, [*path, text], text, group, names))
    return Choice(f"{label} ({len(records)})", opens=screen.number)


def _splitting(records: list[dict[str, Any]]) -> str | None:
    """The first field, in the records' own order, whose values differ among `records`."""
    keys = [k for k in dict.fromkeys(k for r in records for k in r) if k not in QUIET]
    for key in keys:
        if len({_json(r.get(key)) for r in records}) > 1:
            return key
    return None


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def typed_example(legal: list[dict[str, Any]], seat: str) -> str:
    """What the recorder's form starts with: the shape of a record of this seat, its type to fill in."""
    kind = next((str(r["type"]) for r in legal if "type" in r), "")
    return _json({"type": kind, "by": seat})
