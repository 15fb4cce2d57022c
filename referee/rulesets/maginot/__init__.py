"""Maginot (seed 003, "Complicated Free Card Game"): units built from cards, bases of aces, 2 to 6 players.

The rules are in RULES.md beside this file (MG-...); every Illegal names one.
"""

from referee.rulesets.maginot.game import Maginot

RULESET = Maginot()
