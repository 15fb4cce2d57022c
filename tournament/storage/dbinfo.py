"""What a command knows of its database before SQLAlchemy is imported: where it is, and the newest schema.

`tournament.storage.db` opens and migrates the database with these (alembic's
configuration is here too: `newest_revisions` falls back on alembic's own heads);
`tournament.storage.viewcache` reads cached views from a SQLite file with the
standard library's `sqlite3`.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import migrations

if TYPE_CHECKING:
    from alembic.config import Config

DEFAULT_DB = "tournament.db"
ALEMBIC_INI = Path(__file__).parents[1] / "alembic.ini"  # tournament/alembic.ini: `alembic -c` finds it there too


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


def sqlite_file(url: str) -> Path | None:
    """The file of a plain SQLite URL (`sqlite:///path`); None for any other database, or a URL with options."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or any(c in url for c in "?%#"):
        return None
    return Path(url[len(prefix) :]) if len(url) > len(prefix) else None


def migrations_folder() -> str:
    # __path__, not __file__: an editable install may see `migrations` as a namespace package
    return next(iter(migrations.__path__))


_REVISION = re.compile(r"^revision\b[^=]*=\s*['\"]([^'\"]+)['\"]", re.M)
_DOWN = re.compile(r"^down_revision\b[^=]*=(.*)$", re.M)


@cache
def newest_revisions() -> frozenset[str]:
    """The heads of the migration scripts (read once per process).

    Read from the scripts' `revision` and `down_revision` lines, so a command
    whose database is current never imports alembic (a third of a second);
    a script these lines cannot be read from leaves it to alembic.
    """
    revisions, parents = set(), set()
    for script in Path(migrations_folder(), "versions").glob("*.py"):
        source = script.read_text()
        found, down = _REVISION.search(source), _DOWN.search(source)
        if found is None or down is None:
            if script.name != "__init__.py":
                return alembic_heads()
            continue
        revisions.add(found.group(1))
        parents.update(re.findall(r"['\"]([^'\"]+)['\"]", down.group(1)))
    return frozenset(revisions - parents)


def alembic_config() -> Config:
    """The alembic configuration shipped in the package, pointing at `migrations/`."""
    from alembic.config import Config

    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", migrations_folder())
    return config


def alembic_heads() -> frozenset[str]:
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())
