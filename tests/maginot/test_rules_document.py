"""RULES.md is the contract: every rule the code cites exists, and every rule and numbered ruling has a test naming it."""

from __future__ import annotations

import re
from pathlib import Path

import referee.rulesets.maginot as package

RULES = (Path(package.__file__).parent / "RULES.md").read_text()
DEFINED = set(re.findall(r"\*\*(MG-\d+\.\d+)\*\*", RULES))
RULINGS = set(re.findall(r"\*\*Ruling (MG-R\d+):\*\*", RULES))
SOURCES = "".join(p.read_text() for p in Path(package.__file__).parent.rglob("*.py"))
TESTS = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py") if p.name != Path(__file__).name)


def test_every_cited_rule_is_defined() -> None:
    cited = set(re.findall(r'Illegal\(\s*"(MG-\d+\.\d+)"', SOURCES)) | set(re.findall(r'rule="(MG-\d+\.\d+)"', SOURCES))
    assert cited, "no Illegal found"
    assert cited <= DEFINED, cited - DEFINED


def test_every_rule_and_numbered_ruling_has_a_test_naming_it() -> None:
    named = {f"MG-{a}.{b}" for a, b in re.findall(r"mg_(\d+)_(\d+)", TESTS)} | set(re.findall(r"MG-R\d+", TESTS))
    assert len(RULINGS) >= 2
    assert named >= DEFINED | RULINGS, sorted((DEFINED | RULINGS) - named)
