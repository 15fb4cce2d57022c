"""Magic: The Gathering (XO-2.4), experimental: the translation proposed in the seed's comments."""

from referee.rulesets.crossover.translations.base import (
    Mapped,
    Untranslatable,
    numbers,
    unknown_kind,
)
from schemas.crossover import Card

GAME = "mtg"
TITLE = "Magic: The Gathering (experimental)"
EXPERIMENTAL = True
KINDS = ("creature", "aura", "instant")


def translate(card: Card) -> Mapped:
    """The crossover reading of one Magic card."""
    traits = set(card.traits)
    if card.kind == "creature":
        (power,) = numbers(card, GAME, ("power",), ("toughness", "mv")).values()
        if "legendary" in traits:
            return Mapped("leader", play_value=power)
        return Mapped("minion", initiative=power, double_attack="first strike" in traits, endurance="wall" in traits)
    if card.kind == "aura":
        numbers(card, GAME, (), ("mv",))
        red, white = "red" in traits, "white" in traits
        # Red-and-white grants neither (RULINGS crossover 10); other colours grant nothing.
        return Mapped("equipment", double_attack=red and not white, endurance=white and not red)
    if card.kind == "instant":
        numbers(card, GAME, (), ("mv",))
        blue, red = "blue" in traits, "red" in traits
        if blue == red:
            raise Untranslatable(f"{card.name}: a Magic instant must be blue (Draw) or red (Stop!), not both or neither")
        return Mapped("event", event="draw" if blue else "stop")
    raise unknown_kind(card, GAME, KINDS)
