"""Cardwars: two half decks of a 54-card deck, 20 life, face cards paid for with resources.

The rules are in RULES.md beside this file (CW-...); every Illegal names one.
"""

from referee.rulesets.cardwars.game import Cardwars

RULESET = Cardwars()
