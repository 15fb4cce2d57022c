"""Every number on either command line is range-checked, with a usage error (exit 2) outside (issue 23, defect 8)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import typer

try:  # typer 0.29 and later carry their own copy of click (as referee/console.py)
    from typer._click import core, types
except ImportError:
    from click import core, types  # type: ignore[no-redef]

from referee.cli import app as referee_app
from referee.console import INT32_MAX, INT64_MAX
from tests.tournament.tlib import cli
from tournament.cli.app import app as tournament_app

APPS = {"referee": (referee_app, INT64_MAX), "tournament": (tournament_app, INT32_MAX)}


def int_options(command: core.Command, path: str) -> Iterator[tuple[str, core.Parameter]]:
    commands = getattr(command, "commands", None)  # a group
    if commands is not None:
        for name, sub in commands.items():
            yield from int_options(sub, f"{path} {name}")
        return
    for param in command.params:
        if isinstance(param.type, types.IntParamType):
            yield f"{path} {param.opts[0]}", param


def every_int_option() -> Iterator[tuple[str, core.Parameter, int]]:
    for program, (app, ceiling) in APPS.items():
        for where, param in int_options(typer.main.get_command(app), program):
            yield where, param, ceiling


@pytest.mark.parametrize(("where", "param", "ceiling"), list(every_int_option()), ids=[w for w, *_ in every_int_option()])
def test_every_number_option_has_a_range(where: str, param: core.Parameter, ceiling: int) -> None:
    # Issue 23, defect 8: `bye --round 2147483648` was stored by SQLite and refused by PostgreSQL (exit 8);
    # most number options had no bound (fails on b515822).
    kind = param.type
    assert isinstance(kind, types.IntRange), f"{where}: {kind} has no range"
    assert kind.min is not None and kind.max is not None, f"{where}: {kind.min}..{kind.max}"
    # tournament numbers go to 32-bit integer columns (a seed to a 64-bit one); the referee's to 64-bit fields
    assert -ceiling - 1 <= kind.min <= kind.max <= max(ceiling, INT64_MAX if param.name == "seed" else ceiling)


def test_the_walk_finds_the_options() -> None:
    found = {where for where, *_ in every_int_option()}
    assert {"tournament bye --round", "tournament report --table", "referee play --seed", "referee replay --to"} <= found


@pytest.mark.parametrize(
    "args",
    [
        ["bye", "ev", "ann", "--round", str(INT32_MAX + 1)],
        ["bye", "ev", "ann", "--round", "0"],
        ["report", "ev", "--table", str(2**40), "2-0"],
        ["pairings", "ev", "--round", "-1"],
        ["extend", "ev", "--table", "1", "--minutes", str(2**31)],
        ["register", "ev", "--id", "dan", "--rating", str(2**31), "Dan"],
        ["create", "ev2", "--seed", str(2**63)],
    ],
)
def test_a_number_out_of_range_is_a_usage_error(tmp_path: object, args: list[str]) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    cli(db, "create", "ev", "--seed", "1")
    cli(db, "register", "ev", "ann", "bob")
    failed = cli(db, *args, code=2)
    assert "is not in the range" in failed.stderr and len(failed.stderr.strip().splitlines()) == 1, failed.stderr


def test_bye_round_at_the_top_of_the_range_is_accepted(tmp_path: object) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    cli(db, "create", "ev", "--seed", "1")
    cli(db, "register", "ev", "ann", "bob")
    cli(db, "bye", "ev", "ann", "--round", str(INT32_MAX))
