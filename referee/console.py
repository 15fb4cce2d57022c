"""What the `referee` and `tournament` command lines share: results on stdout, one-line errors on stderr.

`UnixGroup` gives both the Unix conventions typer leaves out: a usage error is
one line on stderr with exit 2 (not a boxed panel), a closed stdout
(`referee validate *.jsonl | head`) ends the command quietly with 141 (as if
killed by SIGPIPE; never 1, which says "illegal"), and an unexpected error is
one line with exit 70 (EX_SOFTWARE), never a traceback.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import msgspec
import typer
from typer.core import TyperGroup

from referee.inputs import EXIT_TOO_LARGE, TooLarge

if TYPE_CHECKING:
    from rich.console import Console

try:  # typer 0.29 and later carry their own copy of click
    from typer._click import exceptions as click_errors
except ImportError:  # the typer pinned in pyproject.toml runs on PyPI's click
    from click import exceptions as click_errors  # type: ignore[no-redef]


class LazyConsole:
    """A rich Console made on first use: a command that prints no table, bar or error never imports rich.

    Attributes are the Console's; `made()` is the Console itself (for rich's own `console=`).
    """

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._made: Console | None = None

    def made(self) -> Console:
        if self._made is None:
            from rich.console import Console

            class _Console(Console):
                def on_broken_pipe(self) -> None:
                    """rich would exit 1 here (which says "illegal"); UnixGroup handles it instead."""
                    self.quiet = True
                    raise BrokenPipeError

            self._made = _Console(**self._options)
        return self._made

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # not made yet (copy, pickle): no Console to ask
            raise AttributeError(name)
        return getattr(self.made(), name)


# soft_wrap: a message stays one line however narrow the terminal; tables still fit its width.
# rich honours NO_COLOR by itself.
out = LazyConsole(highlight=False, soft_wrap=True)
err = LazyConsole(stderr=True, highlight=False, soft_wrap=True)

EXIT_USAGE = 2
# Every number on a command line has a range (a usage error outside it): the tournament's go to the database's
# 32-bit integer columns (a seed to a 64-bit one), the referee's to the log format's 64-bit integers.
INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1
EXIT_INTERNAL = 70  # sysexits.h EX_SOFTWARE: a bug, not a verdict
EXIT_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a reader that stopped early


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


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _stdout_gone() -> None:
    """The reader closed stdout: send what is still buffered nowhere, so exiting cannot fail on it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file (a test runner's capture): nothing to redirect
        pass


class UnixGroup(TyperGroup):
    """A typer group whose errors keep Unix conventions (see the module docstring)."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # caught here: typer would turn it into exit 1
            _stdout_gone()
            raise typer.Exit(EXIT_PIPE) from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, *rest: Any, **extra: Any) -> Any:
        program = prog_name or self.name or "command"
        if extra.get("standalone_mode", True) is False:
            return super().main(args, prog_name, *rest, **extra)
        extra["standalone_mode"] = False
        if args is None and (not sys.argv[1:] or "--help" in sys.argv[1:]):
            # help is printed by typer's own rich console, which exits 1 on a closed pipe: let
            # SIGPIPE end the process instead, as it would `cat` (the shell reports 141). Only
            # from the command line (args is None): a test runner's process keeps its handler.
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        try:
            code = super().main(args, prog_name, *rest, **extra)
            sys.stdout.flush()
        except BrokenPipeError:
            _stdout_gone()
            code = EXIT_PIPE
        except click_errors.NoArgsIsHelpError:
            code = EXIT_USAGE  # the help is already printed
        except click_errors.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx is not None else program
            err.print(f"{where}: {_one_line(exc.format_message())} (see {where} --help)", markup=False)
            code = exc.exit_code
        except click_errors.ClickException as exc:
            err.print(f"{program}: {_one_line(exc.format_message())}", markup=False)
            code = exc.exit_code
        except TooLarge as exc:
            err.print(f"{program}: {exc}", markup=False)
            code = EXIT_TOO_LARGE
        except (typer.Abort, KeyboardInterrupt):
            err.print(f"{program}: interrupted", markup=False)
            code = 130
        except Exception as exc:
            err.print(f"{program}: internal error (a bug; please report it): {type(exc).__name__}: {_one_line(str(exc))[:300]}", markup=False)
            code = EXIT_INTERNAL
        sys.exit(code if isinstance(code, int) else 0)


def version_option(program: str) -> Any:
    """A `--version` option for a group's callback: prints `program <version>` and exits 0."""

    def show(value: bool) -> None:
        if value:
            from importlib import metadata

            say(f"{program} {metadata.version('headjudge')}")
            raise typer.Exit()

    callback: Callable[[bool], None] = show
    return typer.Option("--version", callback=callback, is_eager=True, help="Print the version and exit.")
