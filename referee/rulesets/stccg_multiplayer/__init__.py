"""Star Trek CCG multiplayer: the spacegrid, its seed phase and the seed text's card rulings.

The rules are in RULES.md beside this file (SG-...); every Illegal names one.
"""

from referee.rulesets.stccg_multiplayer.game import StccgMultiplayer

RULESET = StccgMultiplayer()
