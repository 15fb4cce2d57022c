"""Basic TCG with the v.004 Magic creatures scenario: levels, summoning by sacrifice, fights, Act Threshold.

The rules are in RULES.md beside this file (BT-...); every Illegal names one.
"""

from referee.rulesets.basictcg_mtg.game import BasicTcgMtg

RULESET = BasicTcgMtg()
