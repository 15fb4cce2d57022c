"""Running `referee deck check` and `referee deck show` in tests, on decks given as text, bytes or JSON-able data."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from referee.cli import app

runner = CliRunner()


def deck_check(ruleset: str, deck: str | bytes | dict[str, Any]) -> tuple[int, dict[str, Any], str]:
    """`referee deck check - --ruleset R --json` on `deck` (a dict is sent as JSON): exit code, verdict, stderr."""
    data = json.dumps(deck).encode() if isinstance(deck, dict) else deck
    result = runner.invoke(app, ["deck", "check", "-", "--ruleset", ruleset, "--json"], input=data)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, json.loads(result.stdout), result.stderr


def problems(ruleset: str, deck: str | bytes | dict[str, Any]) -> list[tuple[str, str | None]]:
    """The (rule, card) of every problem of an illegal deck (the check must exit 1)."""
    code, verdict, _ = deck_check(ruleset, deck)
    assert code == 1 and verdict["verdict"] == "illegal", verdict
    return [(p["rule"], p.get("card")) for p in verdict["problems"]]


def legal(ruleset: str, deck: str | bytes | dict[str, Any]) -> dict[str, Any]:
    """The verdict of a deck that must be legal (exit 0)."""
    code, verdict, _ = deck_check(ruleset, deck)
    assert code == 0 and verdict["verdict"] == "legal", verdict
    return verdict


def malformed(ruleset: str, deck: str | bytes | dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The error of a deck file that cannot be read (exit 3), and the one line on stderr."""
    code, verdict, stderr = deck_check(ruleset, deck)
    assert code == 3 and verdict["verdict"] == "malformed", verdict
    assert stderr.count("\n") == 1 and "Traceback" not in stderr, stderr
    return verdict["error"], stderr


def same_verdict(ruleset: str, text: str, data: dict[str, Any]) -> dict[str, Any]:
    """The text list and the JSON form of one deck get the same verdict (all but the path); return it."""
    (code_a, a, _), (code_b, b, _) = deck_check(ruleset, text), deck_check(ruleset, data)
    assert code_a == code_b and a == b, (a, b)
    return a
