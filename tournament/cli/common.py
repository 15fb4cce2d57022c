"""What the `tournament` commands share: the common options, the database and its one transaction, output.

The command modules (`app`, `people`, ...) are thin layers over
`tournament.service`; they own no logic beyond reading files and printing.
They take `service`, `export` and the other database modules from here, loaded
when a command first uses them (`lazy`): building the command line costs no
SQLAlchemy, so `--help` and a read served from the views cache
(`tournament.storage.viewcache`) start at once.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from importlib.machinery import ModuleSpec, PathFinder
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from referee import console
from referee.console import err, out
from referee.inputs import TEXT_LIMIT, read_file
from schemas.tournament import EventInfo, RoundInfo
from tournament.output import files, render

_LAZY: dict[str, ModuleSpec] = {}  # the packages `lazy` made and has not run: where their modules are


def lazy(name: str) -> Any:
    """The module `name`, run when one of its attributes is first used (importlib's LazyLoader).

    A module of a package made lazy here is found from the package's folder,
    so making `tournament.service.export` lazy does not run `tournament.service`.
    """
    if name in sys.modules:
        return sys.modules[name]
    parent = name.rpartition(".")[0]
    if parent in _LAZY:
        spec = PathFinder.find_spec(name, _LAZY[parent].submodule_search_locations)
    else:
        spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None, name
    if spec.submodule_search_locations is not None:
        _LAZY[name] = spec
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)  # as an import would, so `import parent.child` finds it
    return module


if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.orm import Session

    from tournament import service
    from tournament.formats import pods
    from tournament.service import demo, export, verification
    from tournament.storage import eventlog, models
else:
    service, demo, export, verification, eventlog, models, pods = map(lazy, (
        "tournament.service", "tournament.service.demo", "tournament.service.export", "tournament.service.verification",
        "tournament.storage.eventlog", "tournament.storage.models", "tournament.formats.pods",
    ))

DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db", envvar="TOURNAMENT_DB", show_envvar=True,
        help="A SQLite file (default: ./tournament.db), or a postgresql+psycopg:// URL.",
    ),
]
EventArg = Annotated[str, typer.Argument(help="The event id.", metavar="EVENT")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="table, csv, json or html.")]
OutOpt = Annotated[Path | None, typer.Option("--out", "-o", help="Write to this file instead of stdout.")]


CapOpt = Annotated[int | None, typer.Option("--cap", min=1, max=10_000, help="Public registration: at most this many players.")]
ClosesOpt = Annotated[
    str | None, typer.Option("--closes", help="When public registration closes, with its UTC offset: 2026-12-05T09:00+01:00.")
]


def closing_time(closes: str | None) -> datetime | None:
    """`--closes`: an ISO date and time (the service refuses one without its offset)."""
    try:
        return datetime.fromisoformat(closes) if closes else None
    except ValueError:
        fail(f"--closes {closes!r}: write a date and time with its offset, like 2026-12-05T09:00+01:00")


def fail(message: str, code: int | None = None) -> NoReturn:
    """A one-line `tournament: ...` error on stderr, then exit with `code` (default: a usage error)."""
    console.fail("tournament", message, service.EXIT_USAGE if code is None else code)


@contextmanager
def database(
    db: str | None, revision: str | None = None, *, create: bool = False, reading: bool = False
) -> Iterator[tuple[str, Engine]]:
    """The migrated database, its errors turned into one-line failures.

    Only `create=True` (creating an event, the demo, `db upgrade`) may make a
    database that does not exist yet; any other command refuses (exit 8).
    `reading`: the command only reads (a read-only SQLite file is opened as such).
    """
    from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

    from tournament.storage.db import DatabaseUnavailable, first_line, open_database, shown

    try:
        url, engine = open_database(db, revision, create=create, reading=reading)
    except DatabaseUnavailable as exc:
        fail(str(exc), service.EXIT_DATABASE)
    try:
        yield url, engine
    except service.TournamentError as exc:
        fail(exc.message, exc.code)
    except IntegrityError as exc:  # lost a race, e.g. two creates of one event id
        fail(f"the change conflicts with one made at the same time: {first_line(exc)}", service.EXIT_CONFLICT)
    except (OperationalError, DBAPIError) as exc:
        fail(f"database error at {shown(url)}: {first_line(exc)}", service.EXIT_DATABASE)
    finally:
        engine.dispose()


@contextmanager
def transaction(db: str | None, *, create: bool = False) -> Iterator[Session]:
    """One session and one transaction: committed when the command succeeds, else rolled back."""
    with database(db, create=create) as (_url, engine), new_session(engine) as session, session.begin():
        yield session


@contextmanager
def reading(db: str | None) -> Iterator[Session]:
    """A session to read with (no database is created; a read-only SQLite file is read as it is, leaving nothing beside it)."""
    with database(db, reading=True) as (_url, engine), new_session(engine) as session:
        yield session


def new_session(engine: Engine) -> Session:
    """A session on `engine`, whose changes the event log says the command line made."""
    from sqlalchemy.orm import Session

    from tournament.storage import eventlog

    return eventlog.bind(Session(engine), eventlog.CLI)


def check_format(fmt: str, as_json: bool, choices: Sequence[str] = render.FORMATS) -> str:
    """The --format asked for (`--json` wins), or a one-line usage error naming the `choices`."""
    if as_json:
        return "json"
    if fmt not in choices:
        fail(f"--format must be one of {', '.join(choices)}, not {fmt!r}")
    return fmt


def write_text(text: str, target: Path | None) -> None:
    """Text to stdout, or to a file (`write_bytes`)."""
    if target is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    write_bytes(text.encode(), target)


def write_bytes(data: bytes, target: Path) -> None:
    """`data` to a file written whole or not at all, or to a pipe, a device or - (stdout) as it is (`referee.outfile`)."""
    from referee.outfile import is_stdout, write_file

    try:
        write_file(target, data)
    except OSError as exc:
        fail(f"{target}: {exc.strerror or exc}")
    if not is_stdout(target):
        err.print(f"wrote {target}", markup=False)


def show_round(info: RoundInfo, fmt: str, target: Path | None, event: EventInfo, by: str = "table") -> None:
    """A round's pairings in `fmt`, by table or alphabetically `by` name; a `table` sent to a file is written as CSV."""
    if fmt in files.FORMATS or target is not None:  # a `table` sent to a file is written as CSV
        write_text(files.round_file(info, event, fmt if fmt in files.FORMATS else "csv", by), target)
    else:
        out.print(render.to_rich(f"{event.name}: round {info.number}", *files.round_cells(info, event, by), width=out.width))
        if info.repeats is not None:
            out.print(pods.repeats_text(info.repeats, info.proven))


def read_bytes(path: Path, limit: int, what: str = "a file") -> bytes:
    """A regular file's bytes, at most `limit` (T-161: past it, `TooLarge`, exit 9); a one-line usage error if it
    cannot be read. A FIFO or a device is refused unread: a FIFO nobody writes would hold the command for ever."""
    try:
        return read_file(path, limit, what, regular=True)
    except OSError as exc:
        fail(f"{path}: {exc.strerror}")


def read_text(path: Path, limit: int = TEXT_LIMIT) -> str:
    """A UTF-8 text file (a spreadsheet's byte-order mark is fine), as `read_bytes` reads it."""
    data = read_bytes(path, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        fail(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8 CSV")
