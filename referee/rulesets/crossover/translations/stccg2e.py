"""Star Trek CCG Second Edition (XO-2.3): even-strength personnel endure but deal half hits."""

from referee.rulesets.crossover.translations.base import Mapped, numbers, unknown_kind
from schemas.crossover import Card

GAME = "stccg2e"
TITLE = "Star Trek CCG (Second Edition)"
EXPERIMENTAL = False
KINDS = ("ship", "equipment", "personnel", "event", "interrupt")
SHIP_PLAY_VALUE = 2


def translate(card: Card) -> Mapped:
    """The crossover reading of one Star Trek 2E card."""
    if card.kind == "ship":
        numbers(card, GAME, (), ("range", "weapons", "shields", "cost"))
        return Mapped("leader", play_value=SHIP_PLAY_VALUE)
    if card.kind == "equipment":
        numbers(card, GAME, (), ("cost",))
        return Mapped("equipment", double_attack=True)
    if card.kind == "personnel":
        stats = numbers(card, GAME, ("strength", "cunning"), ("integrity", "cost"))
        even = stats["strength"] % 2 == 0
        return Mapped("minion", initiative=stats["cunning"] // 2, endurance=even, half_hits=even)
    if card.kind in ("event", "interrupt"):
        numbers(card, GAME, (), ("cost",))
        return Mapped("event", event="draw" if card.kind == "event" else "stop")
    raise unknown_kind(card, GAME, KINDS)
