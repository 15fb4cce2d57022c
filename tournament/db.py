"""Finding, opening and migrating the database.

The CLI calls `open_database` once per command; it brings the schema up to
date with alembic on first use. SQLite files get `BEGIN IMMEDIATE`
transactions so two writers queue for the lock instead of failing midway;
PostgreSQL writers queue on the event row (`SELECT ... FOR UPDATE`).
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, OperationalError

import migrations

DEFAULT_DB = "tournament.db"
ALEMBIC_INI = Path(__file__).with_name("alembic.ini")


class DatabaseUnavailable(Exception):
    """The database cannot be reached, opened, or migrated."""


def database_url(value: str | None) -> str:
    """The SQLAlchemy URL for `--db`, `TOURNAMENT_DB`, or the default file.

    A value without `://` is a SQLite file path; plain `postgresql://` URLs
    get the psycopg 3 driver, the one the project installs.
    """
    value = value or os.environ.get("TOURNAMENT_DB") or DEFAULT_DB
    if "://" not in value:
        return f"sqlite:///{Path(value).resolve()}"
    for prefix in ("postgresql://", "postgres://"):
        if value.startswith(prefix):
            return "postgresql+psycopg://" + value[len(prefix) :]
    return value


def shown(url: str) -> str:
    """A URL fit to print: the password hidden, a SQLite file as its path."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return url
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        return parsed.database
    return parsed.render_as_string(hide_password=True)


def make_engine(url: str) -> Engine:
    """An engine for `url`, with SQLite set up for safe concurrent writers."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise DatabaseUnavailable(f"not a database URL: {url!r} ({exc})") from None
    try:
        if parsed.get_backend_name() != "sqlite":
            return create_engine(parsed, pool_pre_ping=True)
        engine = create_engine(parsed, connect_args={"timeout": 60})
    except (NoSuchModuleError, ArgumentError) as exc:
        raise DatabaseUnavailable(f"unsupported database URL {shown(url)}: {exc}") from None

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # let the "begin" hook below issue BEGIN
        dbapi_connection.execute("PRAGMA foreign_keys = ON")

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def alembic_config() -> Config:
    """The alembic configuration shipped in the package, pointing at `migrations/`."""
    config = Config(str(ALEMBIC_INI))
    # __path__, not __file__: an editable install may see `migrations` as a namespace package
    config.set_main_option("script_location", next(iter(migrations.__path__)))
    return config


def upgrade(engine: Engine, revision: str = "head") -> tuple[str | None, str | None]:
    """Run the migrations up to `revision`; return the revisions before and after."""
    config = alembic_config()
    with engine.begin() as connection:
        before = MigrationContext.configure(connection).get_current_revision()
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
        after = MigrationContext.configure(connection).get_current_revision()
    return before, after


@cache
def newest_revisions() -> frozenset[str]:
    """The heads of the migration scripts (read once per process)."""
    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


def is_current(engine: Engine) -> bool:
    """True when the database is at the newest migration."""
    with engine.connect() as connection:
        return set(MigrationContext.configure(connection).get_current_heads()) == newest_revisions()


def open_database(value: str | None, revision: str | None = None) -> tuple[str, Engine]:
    """The URL and a ready engine: reachable, and migrated to the newest schema.

    With `revision`, migrate to exactly that one (`tournament db upgrade`).
    """
    url = database_url(value)
    engine = make_engine(url)
    try:
        if revision is not None:
            upgrade(engine, revision)
        elif not is_current(engine):
            upgrade(engine)
    except (OperationalError, DBAPIError) as exc:
        engine.dispose()
        raise DatabaseUnavailable(f"cannot use the database {shown(url)}: {first_line(exc)}") from None
    except CommandError as exc:  # e.g. a revision this code does not know: not our database
        engine.dispose()
        raise DatabaseUnavailable(f"cannot migrate the database {shown(url)}: {first_line(exc)}") from None
    return url, engine


def first_line(exc: BaseException) -> str:
    """The first line of a driver error, without SQLAlchemy's background links."""
    source = getattr(exc, "orig", None) or exc
    text = str(source).strip().splitlines()
    return text[0] if text else type(source).__name__
