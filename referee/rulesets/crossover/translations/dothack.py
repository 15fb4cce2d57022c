""".hack//Enemy (XO-2.1): PCs lead, monsters fight, items equip, actions and events are events."""

from referee.rulesets.crossover.translations.base import Mapped, numbers, unknown_kind
from schemas.crossover import Card

GAME = "dothack"
TITLE = ".hack//Enemy"
EXPERIMENTAL = False
KINDS = ("pc", "item", "monster", "action", "event")


def translate(card: Card) -> Mapped:
    """The crossover reading of one .hack//Enemy card."""
    if card.kind == "pc":
        (destiny,) = numbers(card, GAME, ("destiny",), ("strength", "level", "endurance")).values()
        return Mapped("leader", play_value=destiny)
    if card.kind == "item":
        stats = numbers(card, GAME, ("strength", "endurance"), ("level", "destiny"))
        return Mapped("equipment", double_attack=stats["strength"] > 0, endurance=stats["endurance"] > 0)
    if card.kind == "monster":
        (strength,) = numbers(card, GAME, ("strength",), ("level", "endurance", "destiny")).values()
        return Mapped("minion", initiative=strength)
    if card.kind in ("action", "event"):
        numbers(card, GAME, ())
        return Mapped("event", event="stop" if card.kind == "action" else "draw")
    raise unknown_kind(card, GAME, KINDS)
