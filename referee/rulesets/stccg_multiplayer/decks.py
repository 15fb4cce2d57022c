"""Decks: the checks of SG-1.2 to SG-1.5 that `start` makes of each deck, and a deck as a list.

A list has three sections, `Missions` (each mission with its quadrant, kind,
span and region), `Seed deck` and `Draw deck` (cards by name, with counts):
RULES.md, "Deck lists".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Set
from typing import ClassVar, get_args

from referee.decks import DeckList, DeckMalformed, DeckRules, Entry
from referee.ruleset import Illegal
from referee.rulesets.stccg_multiplayer.cards import THE_SPACE
from referee.rulesets.stccg_multiplayer.state import NEBULA
from schemas import stccg_multiplayer as sg

MISSIONS, SEED_CARDS, DRAW_CARDS = 6, 30, 30
MISSIONS_SECTION, SEEDS_SECTION, DRAW_SECTION = "Missions", "Seed deck", "Draw deck"
QUADRANTS: tuple[str, ...] = get_args(sg.Quadrant)
KINDS: tuple[str, ...] = get_args(sg.Kind)
_SPAN = re.compile(r"span\s+([0-9]+)", re.IGNORECASE)
_REGION = re.compile(r"(?:^|,)\s*region\s+(?P<name>.*)$", re.IGNORECASE | re.DOTALL)


def problems(deck: sg.Deck, whose: str = "the", taken: Set[str] = frozenset()) -> Iterator[Illegal]:
    """Every rule of SG-1.2 to SG-1.5 the deck breaks, in the order `start` checks them.

    `taken`: the mission names of the decks checked before this one in the
    same game (SG-1.4 holds across decks).
    """
    if len(deck.missions) != MISSIONS or len(deck.missions) + len(deck.seeds) != SEED_CARDS:
        yield Illegal("SG-1.2", f"{whose} seed deck must be 30 cards, six of them missions")
    if len(deck.draw) != DRAW_CARDS:
        yield Illegal("SG-1.2", f"{whose} draw deck must be 30 cards, not {len(deck.draw)}")
    if THE_SPACE in deck.seeds or THE_SPACE in deck.draw:
        yield Illegal("SG-1.5", f"{whose} deck holds The Space, which this format bans", THE_SPACE)
    seen = set(taken)
    for mission in deck.missions:
        if mission.name == THE_SPACE:
            yield Illegal("SG-1.5", f"{whose} deck holds The Space, which this format bans", THE_SPACE)
        elif mission.name in seen or mission.name == NEBULA.name:
            yield Illegal("SG-1.4", f"the mission {mission.name!r} appears twice (or is the Nebula)", mission.name)
        seen.add(mission.name)


class StccgDecks(DeckRules[sg.Deck]):
    """stccg-multiplayer's deck rules, and its decks as lists of three sections."""

    carried = False  # SG-1.4: no mission twice among a game's decks, so two fixed decks may not be able to meet
    sections = (MISSIONS_SECTION, SEEDS_SECTION, DRAW_SECTION)
    aliases: ClassVar[dict[str, str]] = {"mission": MISSIONS_SECTION, "seeds": SEEDS_SECTION, "seed": SEEDS_SECTION, "draw": DRAW_SECTION}
    deck_type = sg.Deck

    def deck_of(self, setup: sg.Setup, player: str) -> sg.Deck:
        return setup.decks[player]

    def problems(self, deck: sg.Deck, whose: str = "the") -> Iterator[Illegal]:
        return problems(deck, whose)

    def from_list(self, listed: DeckList) -> sg.Deck:
        missions: list[sg.Mission] = []
        piles: dict[str, list[str]] = {SEEDS_SECTION: [], DRAW_SECTION: []}
        for entry in listed.entries:
            if entry.section == MISSIONS_SECTION:
                missions += [_mission(entry)] * entry.count
            else:  # a seed or draw card is only a name: a parenthesis is part of it
                name = f"{entry.name} ({entry.details})" if entry.details else entry.name
                piles[entry.section] += [name] * entry.count
        return sg.Deck(missions, piles[SEEDS_SECTION], piles[DRAW_SECTION])

    def to_list(self, deck: sg.Deck) -> DeckList:
        entries = [Entry(m.name, 1, _mission_details(m), MISSIONS_SECTION) for m in deck.missions]
        for section, cards in ((SEEDS_SECTION, deck.seeds), (DRAW_SECTION, deck.draw)):
            entries += [Entry(name, count, "", section) for name, count in Counter(cards).items()]
        return DeckList({}, entries)

    def facets(self, deck: sg.Deck) -> dict[str, str]:
        quadrants = {m.quadrant for m in deck.missions}
        kinds = Counter[str](m.kind for m in deck.missions)
        return {
            "quadrants": " + ".join(q for q in QUADRANTS if q in quadrants) or "none",
            "missions": ", ".join(f"{kinds[k]} {k}" for k in KINDS if kinds[k]) or "none",
        }

    def size(self, deck: sg.Deck) -> int:
        return len(deck.missions) + len(deck.seeds) + len(deck.draw)


def _mission_details(mission: sg.Mission) -> str:
    """`Alpha, planet, span 3[, region NAME]`."""
    text = f"{mission.quadrant}, {mission.kind}, span {mission.span}"
    return text + (f", region {mission.region}" if mission.region else "")


def _mission(entry: Entry) -> sg.Mission:
    """The mission a line describes: `Name (Alpha, planet, span 3, region Bajor)`, in any order, the region last."""
    if not entry.details:
        raise DeckMalformed(f"{entry.name}: a mission needs its quadrant, kind and span, as in `{entry.name} (Alpha, planet, span 3)`",
                            entry.line, "details")  # fmt: skip
    found = _REGION.search(entry.details)
    head, region = (entry.details[: found.start()], found.group("name").strip()) if found else (entry.details, "")
    quadrant = kind = span = None
    for item in filter(None, (part.strip() for part in head.split(","))):
        if item.capitalize() in QUADRANTS:
            quadrant = item.capitalize()
        elif item.lower() in KINDS:
            kind = item.lower()
        elif match := _SPAN.fullmatch(item):
            span = int(match.group(1))
        else:
            raise DeckMalformed(f"{entry.name}: {item!r} is not a quadrant ({', '.join(QUADRANTS)}), a kind ({', '.join(KINDS)}) "
                                "or a span (`span 3`)", entry.line, "details")  # fmt: skip
    if quadrant is None or kind is None or span is None:
        missing = [w for w, v in (("quadrant", quadrant), ("kind", kind), ("span", span)) if v is None]
        raise DeckMalformed(f"{entry.name}: the mission's {' and '.join(missing)} is missing", entry.line, "details")
    if not 1 <= span <= 9:
        raise DeckMalformed(f"{entry.name}: a span is 1 to 9, not {span}", entry.line, "details")
    if len(region) > 100:
        raise DeckMalformed(f"{entry.name}: a region's name is at most 100 characters", entry.line, "details")
    return sg.Mission(entry.name, quadrant, span, kind, region or None)  # type: ignore[arg-type]


RULES = StccgDecks()
