"""Decks on their own: a deck judged without a game, read from a list a person writes or from a game's setup.

Each game's deck rules live in its own package, behind `Ruleset.deck_rules()`
(a `DeckRules`): the very checks its `start` makes of every deck, a player's
deck taken out of a setup, the deck as lines of a list, and what kind of deck
it is. This module is what every game shares: reading a deck file (the deck
as one player's entry of the game's setup, in JSON, or a plain text list),
writing a deck as a list, judging it, and comparing two decks card by card.
docs/referee.md ("Deck lists") describes the text format.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from referee.confusable import described, unseen
from referee.ruleset import Illegal, Ruleset
from schemas.deck import DeckError, DeckProblem, DeckVerdict, Difference

LIST_LIMIT = 1 << 20  # a deck file is a few kilobytes; 1 MiB is far past any real one
COUNT_LIMIT = 999  # copies of one card on one line
NAME_LIMIT = 100  # characters in a card's name
BOM = "\ufeff"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
# `4 Name (details)`, `4x Name`, `Name`: the details are the last parenthesised group, holding no parentheses.
_CARD = re.compile(r"(?:(?P<count>[0-9]+)[xX]?\s+)?(?P<name>.+?)(?:\s*\((?P<details>[^()]*)\))?")
_FIELD = re.compile(r"(?P<key>[A-Za-z][A-Za-z ]*?)\s*:\s*(?P<value>.*)")
_HEADING = re.compile(r"(?P<name>.+?)\s*(?:\([0-9]+\))?\s*:?")
_COUNTED = re.compile(r"[0-9]+[xX]?\s")
# What reads as a count but is none: signed (`-1 Name`, `+2 Name`) or a hexadecimal-looking one (`0x2 Name`)
_NOT_A_COUNT = re.compile(r"[+-][0-9]+[xX]?(?=\s)|[0-9]+[xX][0-9A-Fa-f]+(?=\s)")
_BYTE = re.compile(r"\(byte ([0-9]+)\)")

D = TypeVar("D")
C = TypeVar("C")


class DeckMalformed(Exception):
    """A deck file that cannot be read: `message`, and where (its `line`, the `field`) when known."""

    def __init__(self, message: str, line: int | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message, self.line, self.field = message, line, field

    def where(self, source: str) -> str:
        """The error as one line naming the file, the line and the field."""
        place = source + (f" line {self.line}" if self.line else "") + (f", field {self.field}" if self.field else "")
        return f"{place}: {self.message}"


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a list: `count` copies of `name`, with the `details` the game needs (its type and numbers)."""

    name: str
    count: int = 1
    details: str = ""
    section: str = ""
    line: int = 0  # where it was read; 0 for a deck that came as JSON

    def text(self, counted: bool = True) -> str:
        """The line as a list writes it; a single copy without its count when not `counted` (a name that starts
        like a count keeps it)."""
        count = f"{self.count} " if counted or self.count != 1 or _COUNTED.match(self.name) else ""
        return f"{count}{self.name}" + (f" ({self.details})" if self.details else "")


@dataclass
class DeckList:
    """A deck as a list: its fields (`game: dothack`) and its lines, section by section."""

    fields: dict[str, str] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)  # the line each field was read from


class DeckRules(ABC, Generic[D]):
    """A game's deck rules: what its `start` checks of each deck, and the deck as a list.

    `sections` are the list's headings in the order it writes them (none for
    a game whose deck is one pile); `aliases` maps other headings (lower case)
    onto them. `fields` are `name: value` lines the game asks for (crossover's
    `game`). `deck_type` is the Struct of one player's deck in the setup.
    `copies`: whether a deck may hold copies of a card (a list then writes
    every count, `1 Name` too).
    """

    copies: ClassVar[bool] = True
    # A player may bring one deck to every game (a tournament's registered list); False where a game's decks
    # must differ from each other (stccg-multiplayer's missions, SG-1.4), so two fixed decks may not meet.
    carried: ClassVar[bool] = True
    sections: ClassVar[tuple[str, ...]] = ()
    aliases: ClassVar[dict[str, str]] = {}
    fields: ClassVar[tuple[str, ...]] = ()
    deck_type: ClassVar[Any]

    @abstractmethod
    def deck_of(self, setup: Any, player: str) -> D:
        """`player`'s deck in a game's setup, as a deck file gives it; KeyError when the setup has none for them."""

    def with_deck(self, setup: Any, player: str, deck: D) -> Any:
        """The setup with `player`'s deck replaced by `deck` (a bot bringing its registered list to a game)."""
        raise NotImplementedError(f"{type(self).__name__} does not carry a deck from game to game")

    @abstractmethod
    def problems(self, deck: D, whose: str = "the") -> Iterator[Illegal]:
        """Every rule the deck breaks, in the order `start` checks them (`start` stops at the first).

        Messages speak of `whose` deck: "the deck holds 19 cards", or in a game "ann's deck ...".
        """

    @abstractmethod
    def from_list(self, listed: DeckList) -> D:
        """The deck a list describes; DeckMalformed (naming the line) when a line cannot be a card of this game."""

    @abstractmethod
    def to_list(self, deck: D) -> DeckList:
        """The deck as a list whose text `from_list` reads back to the same deck."""

    @abstractmethod
    def facets(self, deck: D) -> dict[str, str]:
        """What kind of deck it is, by the measures the game's players sort decks by (first: the main one)."""

    def size(self, deck: D) -> int:
        """How many cards the deck holds."""
        return sum(entry.count for entry in self.to_list(deck).entries)

    def summary(self, deck: D) -> str:
        """The deck in a line: its size and facets."""
        return "; ".join([f"{self.size(deck)} cards", *(f"{k}: {v}" for k, v in self.facets(deck).items())])


def rules_of(ruleset: Ruleset) -> DeckRules[Any]:
    """The ruleset's deck rules; ValueError, saying which standard deck it uses, for a game with a fixed deck."""
    rules = ruleset.deck_rules()
    if rules is None:
        raise ValueError(f"{ruleset.id} is played with {ruleset.fixed_deck}: there is no deck list to check")
    return rules


# -- reading a deck file ---------------------------------------------------------------


def read(data: bytes, rules: DeckRules[D]) -> D:
    """The deck in `data`: JSON (one player's deck as the game's setup has it) or a text list.

    A UTF-8 byte-order mark at the start is skipped (editors on Windows and
    spreadsheets write one). Raises DeckMalformed.
    """
    if len(data) > LIST_LIMIT:
        raise DeckMalformed(f"the file holds {len(data):,} bytes; a deck file is at most {LIST_LIMIT:,} (1 MiB)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise DeckMalformed(f"not UTF-8: byte 0x{data[exc.start]:02x} at column {column}", line) from None
    text = text.removeprefix(BOM)
    if text.lstrip().startswith("{"):
        return _from_json(text.encode(), rules)
    return rules.from_list(parse_text(text, rules))


def _from_json(data: bytes, rules: DeckRules[D]) -> D:
    """The deck in a JSON file, checked against the game's Struct for one player's deck."""
    from referee.linecheck import DECODE_ERRORS, explain, repeated_key

    decoder = _json_decoder(rules.deck_type)
    try:
        deck: D = decoder.decode(data)
        key = repeated_key(data, deck)
    except DECODE_ERRORS as exc:
        bad = explain(exc)
        found = _BYTE.search(bad.message)
        line = data.count(b"\n", 0, int(found.group(1))) + 1 if found else None
        raise DeckMalformed(bad.message, line, bad.field) from None
    if key:
        raise DeckMalformed(f"the key {key!r} appears twice in one object", None, key)
    return deck


@cache
def _json_decoder(deck_type: Any) -> Any:
    from referee.patterns import Decoder

    return Decoder(deck_type)


def parse_text(text: str, rules: DeckRules[Any]) -> DeckList:
    """A text list's fields and lines, read line by line (blank lines and `#` comments skipped)."""
    headings = {s.lower(): s for s in rules.sections} | rules.aliases
    fields = {f.lower(): f for f in rules.fields}
    listed, seen_sections = DeckList(), dict[str, int]()
    section = ""
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.removesuffix("\r").strip()
        if not line or line.startswith("#"):
            continue
        if bad := _CONTROL.search(line):
            raise DeckMalformed(f"holds the control character {bad.group()!r}", number, "line")
        found = _FIELD.fullmatch(line) if fields else None
        if found and found.group("key").lower() in fields:
            name = fields[found.group("key").lower()]
            if name in listed.fields:
                raise DeckMalformed(f"{name} is given twice (lines {listed.lines[name]} and {number})", number, name)
            if not found.group("value").strip():
                raise DeckMalformed(f"{name} is empty", number, name)
            listed.fields[name], listed.lines[name] = found.group("value").strip(), number
            continue
        heading = _HEADING.fullmatch(line) if headings else None
        if heading and heading.group("name").lower() in headings:
            section = headings[heading.group("name").lower()]
            if section in seen_sections:
                raise DeckMalformed(f"the section {section} is given twice (lines {seen_sections[section]} and {number})", number, "section")
            seen_sections[section] = number
            continue
        if headings and not section:
            raise DeckMalformed(f"a card before any section heading ({', '.join(rules.sections)})", number, "section")
        listed.entries.append(_entry(line, number, section))
    return listed


def _entry(line: str, number: int, section: str) -> Entry:
    """One card line."""
    found = _CARD.fullmatch(line)
    assert found is not None  # the name takes whatever the rest does not
    name = found.group("name").strip()
    if name.count("(") != name.count(")"):
        raise DeckMalformed("a parenthesis is not closed: a card's details go in one pair of (), at the end of its line", number, "details")
    if len(name) > NAME_LIMIT:
        raise DeckMalformed(f"a card's name is at most {NAME_LIMIT} characters, not {len(name)}", number, "card")
    if found.group("count") is None and (signed := _NOT_A_COUNT.match(line)):
        raise DeckMalformed(f"{signed.group()!r} is not a count: a count is a whole number 1 to {COUNT_LIMIT} before the name (`4 Name`, `4x Name`)", number, "count")
    if hidden := unseen(name):
        raise DeckMalformed(f"the card's name holds {described(hidden)}, which a reader cannot see; write the name as printed", number, "card")
    count = 1 if found.group("count") is None else int(found.group("count"))
    if not 1 <= count <= COUNT_LIMIT:
        raise DeckMalformed(f"a count is 1 to {COUNT_LIMIT}, not {found.group('count')}", number, "count")
    return Entry(name, count, (found.group("details") or "").strip(), section, number)


def card_of(entry: Entry, read: Callable[[Entry], C], built_in: Mapping[str, C], known: str, example: str) -> C:
    """A line's card: read from its details, else the built-in card of its name (`known` says which cards
    those are); an unknown name is malformed, and the error shows how to write the card (`example`: details)."""
    if entry.details:
        return read(entry)
    if entry.name in built_in:
        return built_in[entry.name]
    raise DeckMalformed(
        f"unknown card {entry.name!r}: not one of {known}; give its details, as in `{entry.name} ({example})`", entry.line, "card"
    )


def write_text(rules: DeckRules[D], deck: D) -> str:
    """The deck as a text list that `read` gives back as the same deck."""
    listed = rules.to_list(deck)
    lines = [f"{name}: {value}" for name, value in listed.fields.items()]
    section = ""
    for entry in listed.entries:
        if entry.section != section:
            section = entry.section
            lines += ["", section] if lines else [section]
        lines.append(entry.text(rules.copies))
    text = "\n".join(lines) + "\n"
    try:  # a name or detail a list cannot hold (a parenthesis, a line break) would come back as another card
        same = _lines(rules.to_list(rules.from_list(parse_text(text, rules)))) == _lines(listed)
    except DeckMalformed:
        same = False
    if not same:
        raise ValueError("this deck has a card whose name or details a text list cannot hold; use its JSON form (--json)")
    return text


def _lines(listed: DeckList) -> tuple[dict[str, str], list[tuple[str, str, int, str]]]:
    """A list's content, without where each line was read."""
    return listed.fields, [(e.section, e.name, e.count, e.details) for e in listed.entries]


# -- judging and comparing --------------------------------------------------------------


def judge(ruleset: Ruleset, data: bytes, path: str | None = None) -> DeckVerdict:
    """The verdict on a deck file for `ruleset`: legal, illegal (every problem), malformed, or no list needed."""
    rules = ruleset.deck_rules()
    if rules is None:
        return DeckVerdict("fixed", ruleset.id, path, fixed=ruleset.fixed_deck)
    try:
        deck = read(data, rules)
    except DeckMalformed as exc:
        return DeckVerdict("malformed", ruleset.id, path, error=DeckError(exc.message, exc.line, exc.field))
    return verdict_of(ruleset.id, rules, deck, path)


def verdict_of(ruleset_id: str, rules: DeckRules[D], deck: D, path: str | None = None) -> DeckVerdict:
    """The verdict on a deck already read."""
    problems = [DeckProblem(p.rule, p.message, p.card) for p in rules.problems(deck)]
    return DeckVerdict(
        "illegal" if problems else "legal",
        ruleset_id,
        path,
        problems,
        cards=rules.size(deck),
        summary=rules.summary(deck),
        facets=rules.facets(deck),
    )


def differences(rules: DeckRules[D], registered: D, played: D) -> list[Difference]:
    """Where the deck `played` in a game is not the `registered` one, field by field, then card by card.

    Cards are matched by section and name; the same card with other copies is
    a `count` difference, with other details a `stats` one.
    """
    mine, theirs = rules.to_list(registered), rules.to_list(played)
    found = [
        Difference(name, "stats", f"{name}: registered {mine.fields.get(name)}, played {theirs.fields.get(name)}",
                   registered=mine.fields.get(name), played=theirs.fields.get(name))
        for name in dict.fromkeys([*mine.fields, *theirs.fields])
        if mine.fields.get(name) != theirs.fields.get(name)
    ]  # fmt: skip
    have, had = _piles(mine.entries), _piles(theirs.entries)
    for key in dict.fromkeys([*have, *had]):
        section, name = key
        a, b = have.get(key), had.get(key)
        if a == b:
            continue
        where = f" ({section})" if section else ""
        if b is None:
            change, message = "missing", f"{name}{where}: registered ({_side(name, a)}), not in the game"
        elif a is None:
            change, message = "added", f"{name}{where}: in the game ({_side(name, b)}), not registered"
        elif set(a) == set(b):
            change, message = "count", f"{name}{where}: {sum(b.values())} in the game, {sum(a.values())} registered"
        else:
            change, message = "stats", f"{name}{where}: registered {_side(name, a)}, in the game {_side(name, b)}"
        found.append(Difference(name, change, message, section or None,  # type: ignore[arg-type]
                                _side(name, a) if a else None, _side(name, b) if b else None))  # fmt: skip
    return found


def _piles(entries: list[Entry]) -> dict[tuple[str, str], Counter[str]]:
    """(section, name) -> details -> copies, in list order."""
    piles: dict[tuple[str, str], Counter[str]] = {}
    for entry in entries:
        piles.setdefault((entry.section, entry.name), Counter())[entry.details] += entry.count
    return piles


def _side(name: str, pile: Counter[str] | None) -> str:
    """One side's copies of a card as list lines (`2 Goblin Scout (monster: strength 1)`)."""
    return "; ".join(Entry(name, count, details).text() for details, count in (pile or {}).items())


def encode_json(deck: Any) -> bytes:
    """A deck as its JSON form (what `deck show --json` prints and `read` reads back)."""
    return msgspec.json.encode(deck)
