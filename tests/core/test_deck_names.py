"""Issue 34: card names that only look alike, invisible characters, and counts that are none (T-164).

A second copy of a card whose name differs only by a Cyrillic а, a no-break space, a zero-width space or a
right-to-left override passed the one-copy rule (XO-1.3); `-1 Name`, `+2 Name` and `0x2 Name` were read as
card names.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.decks import encode_json
from tests.tournament.decklib import deck_of, list_text

runner = CliRunner()
ORRA = "Grand Marshal Orra (creature: power 2, toughness 3; legendary, white)"


def check(path: Path) -> tuple[int, dict]:
    result = runner.invoke(app, ["deck", "check", str(path), "--ruleset", "crossover", "--json"])
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip() else {"stderr": result.stderr}


def with_line(tmp_path: Path, replace: str, by: str) -> Path:
    text = list_text(deck_of("ann"))
    assert ORRA in text and replace in text
    path = tmp_path / "deck.txt"
    path.write_text(text.replace(replace, by))
    return path


def test_a_second_copy_that_only_looks_the_same_breaks_the_one_copy_rule(tmp_path: Path) -> None:
    other = "Marsh Tender (creature: power 1)"
    code, verdict = check(with_line(tmp_path, other, ORRA.replace("Marshal", "M\u0430rshal")))  # Cyrillic а
    assert code == 1 and [p["rule"] for p in verdict["problems"]] == ["XO-1.3"], verdict
    assert "looks like 'Grand Marshal Orra'" in verdict["problems"][0]["message"]
    # the same through a JSON deck, where no list line is read: a no-break space, a zero-width space
    for lookalike in ("Grand\u00a0Marshal Orra", "Grand Marshal\u200b Orra"):
        deck = deck_of("ann")
        orra = next(c for c in deck.cards if c.name == "Grand Marshal Orra")
        cards = [msgspec.structs.replace(orra, name=lookalike) if c.name == "Marsh Tender" else c for c in deck.cards]
        deck = msgspec.structs.replace(deck, cards=cards)
        path = tmp_path / "deck.json"
        path.write_bytes(encode_json(deck))
        code, verdict = check(path)
        assert code == 1 and "XO-1.3" in [p["rule"] for p in verdict["problems"]], (lookalike, verdict)


@pytest.mark.parametrize(("hidden", "named"), [("\u200b", "U+200B ZERO WIDTH SPACE"), ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
                                               ("\u00a0", "U+00A0 NO-BREAK SPACE")])
def test_a_list_refuses_invisible_characters_in_a_card_name_with_its_line_and_field(tmp_path: Path, hidden: str, named: str) -> None:
    path = with_line(tmp_path, ORRA, ORRA.replace("Grand Marshal", f"Grand{hidden}Marshal"))
    result = runner.invoke(app, ["deck", "check", str(path), "--ruleset", "crossover"])
    assert result.exit_code == 3, result.stderr
    assert result.stderr.count("\n") == 1 and f"{path}" in result.stderr and "line 2" in result.stderr, result.stderr
    assert named in result.stderr and "card" in result.stderr


@pytest.mark.parametrize("count", ["-1", "+2", "0x2"])
def test_a_list_refuses_signed_and_hexadecimal_counts(tmp_path: Path, count: str) -> None:
    path = with_line(tmp_path, ORRA, f"{count} {ORRA}")
    result = runner.invoke(app, ["deck", "check", str(path), "--ruleset", "crossover"])
    assert result.exit_code == 3, result.stderr
    assert f"'{count}' is not a count" in result.stderr and "line 2" in result.stderr and "count" in result.stderr, result.stderr


def test_only_a_name_compared_pays_for_the_confusables_table() -> None:
    """Every `referee` run imports the deck code (the CLI's `deck` commands); the table and the 5 ms of
    importlib.resources that reads it are paid only when a card name's skeleton is taken."""
    import subprocess
    import sys

    probe = (
        "import sys; import referee.cli; from referee import confusable; "
        "print('importlib.resources' in sys.modules, confusable._prototypes.cache_info().currsize); "
        "confusable.skeleton('M\u0430rsh'); print(confusable._prototypes.cache_info().currsize)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.split() == ["False", "0", "1"], done.stdout
