"""Star Trek CCG First Edition (XO-2.2): even-integrity personnel hit twice and die together."""

from referee.rulesets.crossover.translations.base import Mapped, numbers, unknown_kind
from schemas.crossover import Card

GAME = "stccg1e"
TITLE = "Star Trek CCG (First Edition)"
EXPERIMENTAL = False
KINDS = ("ship", "equipment", "personnel", "event", "interrupt")


def translate(card: Card) -> Mapped:
    """The crossover reading of one Star Trek 1E card."""
    if card.kind == "ship":
        (staffing,) = numbers(card, GAME, ("staffing",), ("range", "weapons", "shields")).values()
        return Mapped("leader", play_value=staffing)
    if card.kind == "equipment":
        numbers(card, GAME, ())
        return Mapped("equipment", endurance=True)
    if card.kind == "personnel":
        stats = numbers(card, GAME, ("integrity", "cunning"), ("strength",))
        even = stats["integrity"] % 2 == 0
        return Mapped("minion", initiative=stats["cunning"] // 2, double_attack=even, dies_together=even)
    if card.kind in ("event", "interrupt"):
        numbers(card, GAME, ())
        return Mapped("event", event="draw" if card.kind == "event" else "stop")
    raise unknown_kind(card, GAME, KINDS)
