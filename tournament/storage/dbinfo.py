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


# What SQLite itself reads from a `file:` URI's query (https://sqlite.org/uri.html), not the Python driver.
SQLITE_URI_OPTIONS = frozenset({"mode", "cache", "immutable", "nolock", "psow", "vfs"})


def writable(path: Path) -> bool:
    """May this process write the SQLite file, and make the -wal and -shm files WAL mode keeps beside it?"""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def reading_uri(path: Path, options: dict[str, str] | None = None) -> str:
    """The `file:` URI a read opens the SQLite file `path` with (`sqlite3.connect(..., uri=True)`), leaving nothing behind.

    A file this process may write is opened read-write but never created (`mode=rw`): when the last connection
    closes it checkpoints and removes the -wal and -shm files. A read-only connection cannot, and would leave
    them beside the file, so a file we may not write (or `mode=ro` in `options`) is opened `immutable=1` while no
    -wal file exists (nobody has it open to write; SQLite then makes no -shm either), else `mode=ro` as it is.
    `options` are SQLite's own URI options from a `--db` URL, kept.
    """
    wanted = dict(options or {})
    if wanted.get("mode") != "ro" and writable(path):
        wanted.setdefault("mode", "rw")
    else:
        wanted["mode"] = "ro"
        if not Path(f"{path}-wal").exists():
            wanted.setdefault("immutable", "1")
    return f"{path.resolve().as_uri()}?{'&'.join(f'{k}={v}' for k, v in sorted(wanted.items()))}"


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
