"""RULES.md is the contract: every rule the code cites exists, and every rule has a test naming it."""

from __future__ import annotations

import re
from pathlib import Path

import referee.rulesets.basictcg_mtg as package

RULES = (Path(package.__file__).parent / "RULES.md").read_text()
SOURCES = "".join(p.read_text() for p in Path(package.__file__).parent.rglob("*.py"))
TESTS = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py"))


def test_every_rule_cited_in_the_code_exists_in_rules_md() -> None:
    defined = set(re.findall(r"\*\*(BT-\d+\.\d+)\*\*", RULES))
    cited = set(re.findall(r'"(BT-\d+\.\d+)"', SOURCES))
    assert cited and cited <= defined, cited - defined


def test_every_rule_has_a_test() -> None:
    rules = re.findall(r"\*\*BT-(\d+)\.(\d+)\*\*", RULES)
    tested = set(re.findall(r"def test_bt_(\d+)_(\d+)_", TESTS))
    assert rules, "no **BT-n.m** rule found in RULES.md: the pattern no longer matches it"
    assert [r for r in rules if r not in tested] == []
