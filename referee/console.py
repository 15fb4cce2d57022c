"""What the `referee` and `tournament` command lines share: results on stdout, one-line errors on stderr."""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import msgspec
import typer
from rich.console import Console

# soft_wrap: a message stays one line however narrow the terminal; tables still fit its width.
# rich honours NO_COLOR by itself.
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def say(message: str) -> None:
    """One result line on stdout, printed as written (no rich markup)."""
    out.print(message, markup=False)


def emit_json(data: Any) -> None:
    """Write JSON to stdout, one object or array."""
    sys.stdout.write(msgspec.json.encode(data).decode() + "\n")


def fail(program: str, message: str, code: int) -> NoReturn:
    """A one-line error on stderr, named by `program`, then exit with `code`."""
    err.print(f"{program}: {message}", markup=False)
    raise typer.Exit(code)
