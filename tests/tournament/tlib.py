"""Helpers for the tournament tests: run the CLI in-process, and write bot game logs."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import msgspec
from typer.testing import CliRunner, Result

from referee.bots import play
from referee.engine import judge
from referee.logio import encode_lines
from referee.rulesets import get as get_ruleset
from schemas.log import LOG_FORMAT, Event, Header
from tournament.cli.app import app

runner = CliRunner()


def cli(db: str, *args: str, code: int = 0) -> Result:
    """Run `tournament ARGS --db DB` and check its exit code."""
    result = runner.invoke(app, [*args, "--db", db])
    assert result.exit_code == code, f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    return result


def cli_json(db: str, *args: str) -> Any:
    return json.loads(cli(db, *args, "--json").stdout)


def game_log(a: str, b: str, seed: int, *, event: Event | None = None, ruleset: str = "cardwars") -> bytes:
    """A whole legal bot game between a and b, as chained log bytes."""
    setup = get_ruleset(ruleset).default_setup([a, b], random.Random(seed))
    header = Header(
        log=LOG_FORMAT, ruleset=ruleset, game=f"test-{seed}", players=[a, b],
        setup=msgspec.Raw(msgspec.json.encode(setup)), event=event,
    )
    return b"".join(line + b"\n" for line in encode_lines(header, play(header, seed)))


def winner(data: bytes) -> str | None:
    result = judge(io.BytesIO(data)).verdict.result
    assert result is not None
    return result.winners[0] if len(result.winners) == 1 else None


def write_log(directory: Path, a: str, b: str, seed: int, **kwargs: Any) -> tuple[Path, str | None]:
    """A bot game written to a file: its path and who won it."""
    data = game_log(a, b, seed, **kwargs)
    path = directory / f"{a}-{b}-{seed}.jsonl"
    path.write_bytes(data)
    return path, winner(data)


def tables(db: str, event: str) -> list[dict[str, Any]]:
    """The current round's tables, as `pairings --json` gives them."""
    tables: list[dict[str, Any]] = cli_json(db, "pairings", event)["tables"]
    return tables
