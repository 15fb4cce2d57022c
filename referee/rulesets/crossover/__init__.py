"""Crossover: decks from different card games at one table, read through per-game translations.

The rules are in RULES.md beside this file (XO-...); every Illegal names one.
"""

from referee.rulesets.crossover.game import Crossover

RULESET = Crossover()
