"""Every hand-written fixture log is judged as its manifest says.

Each `fixtures/<ruleset>/manifest.json` is a list of entries:
{"file": "x.jsonl", "verdict": "illegal", "rule": "CW-5.2", "seq": 23,
 "field": "seq", "winners": ["ann"], "why": "what the log shows"}
`file`, `verdict` and `why` are required; the others are checked when given.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine import judge_file

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ENTRIES = [
    pytest.param(manifest.parent, entry, id=f"{manifest.parent.name}/{entry['file']}")
    for manifest in sorted(FIXTURES.glob("*/manifest.json"))
    for entry in json.loads(manifest.read_text())
]


@pytest.mark.parametrize(("folder", "entry"), ENTRIES)
def test_fixture_verdict(folder: Path, entry: dict) -> None:
    verdict = judge_file(str(folder / entry["file"])).verdict
    assert verdict.verdict == entry["verdict"], verdict.error
    assert entry["why"]
    if "rule" in entry:
        assert verdict.error is not None and verdict.error.rule == entry["rule"]
    if "seq" in entry:
        assert verdict.error is not None and verdict.error.seq == entry["seq"]
    if "field" in entry:
        assert verdict.error is not None and verdict.error.field == entry["field"]
    if "winners" in entry:
        assert verdict.result is not None and verdict.result.winners == entry["winners"]


def test_every_fixture_is_in_a_manifest() -> None:
    listed = {(manifest.parent.name, e["file"]) for manifest in FIXTURES.glob("*/manifest.json") for e in json.loads(manifest.read_text())}
    on_disk = {(p.parent.name, p.name) for p in FIXTURES.glob("*/*.jsonl")}
    assert on_disk == listed


def test_cli_json_matches_manifest_for_every_fixture() -> None:
    """`referee validate --json` over all fixtures at once agrees with every manifest."""
    entries = [(folder / e["file"], e) for folder, e in (p.values for p in ENTRIES)]
    assert {folder.name for folder, _ in (p.values for p in ENTRIES)} >= {"cardwars", "crossover", "maginot", "basictcg-mtg", "stccg-multiplayer"}
    proc = subprocess.run(
        [sys.executable, "-m", "referee", "validate", "--json", *[str(p) for p, _ in entries]],
        capture_output=True, check=False,
    )
    verdicts = json.loads(proc.stdout)
    if len(entries) == 1:
        verdicts = [verdicts]
    assert [v["verdict"] for v in verdicts] == [e["verdict"] for _, e in entries]
    assert proc.stderr == b"" or b"Traceback" not in proc.stderr
