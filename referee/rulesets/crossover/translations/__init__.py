"""The translations: one module per card game, each mapping its cards onto crossover types (XO-2).

A module here is a translation when it defines `GAME` (the id decks name),
`TITLE`, `EXPERIMENTAL` and `translate(card) -> Mapped` (raising
Untranslatable). Adding a game is adding a module; nothing else changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from functools import cache
from types import ModuleType

from referee.rulesets.crossover.translations.base import Mapped, Untranslatable
from schemas.crossover import Card

__all__ = ["Mapped", "Untranslatable", "games", "title", "translate"]


@cache
def _modules() -> dict[str, ModuleType]:
    """Every translation module, by the game id it declares."""
    found = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "GAME"):
            found[module.GAME] = module
    return found


def games() -> list[str]:
    """The ids of every game with a translation, sorted."""
    return sorted(_modules())


def title(game: str) -> str:
    """The card game's name as its players write it (`.hack//Enemy`); KeyError when there is no such translation."""
    name: str = _modules()[game].TITLE
    return name


def translator(game: str) -> Callable[[Card], Mapped]:
    """The `translate` function of `game`; KeyError when there is no such translation."""
    translate: Callable[[Card], Mapped] = _modules()[game].translate
    return translate


def translate(game: str, card: Card) -> Mapped:
    """`card` of `game` as crossover sees it, or Untranslatable."""
    return translator(game)(card)
