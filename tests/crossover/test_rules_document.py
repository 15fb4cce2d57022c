"""RULES.md is the contract: every rule the code cites exists, and every rule has a test naming it."""

from __future__ import annotations

import re
from pathlib import Path

import referee.rulesets.crossover as package

RULES = (Path(package.__file__).parent / "RULES.md").read_text()
DEFINED = set(re.findall(r"\*\*(XO-\d+\.\d+)\*\*", RULES))
SOURCES = "".join(p.read_text() for p in Path(package.__file__).parent.rglob("*.py"))
TESTS = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py"))


def test_every_cited_rule_is_defined() -> None:
    cited = set(re.findall(r'Illegal\(\s*"(XO-\d+\.\d+)"', SOURCES))
    assert cited, "no Illegal found"
    assert cited <= DEFINED, cited - DEFINED


def test_every_rule_has_a_test_naming_it() -> None:
    named = {f"XO-{a}.{b}" for a, b in re.findall(r"xo_(\d+)_(\d+)", TESTS)}
    named |= set(re.findall(r"XO-\d+\.\d+", TESTS))
    assert named >= DEFINED, sorted(DEFINED - named, key=lambda r: [int(n) for n in r[3:].split(".")])


def test_every_numbered_ruling_has_a_test_naming_it() -> None:
    rulings = set(re.findall(r"\*\*Ruling (XO-R\d+):\*\*", RULES))
    others = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py") if p.name != Path(__file__).name)
    assert len(rulings) >= 3
    assert rulings <= set(re.findall(r"XO-R\d+", others)), sorted(rulings - set(re.findall(r"XO-R\d+", others)))
