"""Database fixtures: every database test runs on SQLite and on a real PostgreSQL.

PostgreSQL comes from `TOURNAMENT_TEST_PG_URL` (a server where the user may
create databases), or from a throwaway cluster started here with the installed
`initdb`/`pg_ctl` (as the `postgres` user when running as root, since the
server refuses root). Debian keeps those two off the PATH, under
`/usr/lib/postgresql/<version>/bin`; they are found there too, so a bare `tox`
runs these tests on a stock Debian with the `postgresql` package. Without either, PostgreSQL tests skip, except under
`CI`, where they fail: CI must run them.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tournament.storage.db import open_database

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.pg)]
DEBIAN_PG = Path("/usr/lib/postgresql")
# root's PATH has /usr/sbin; a test runner's (tox, an IDE) may not
RUNUSER = shutil.which("runuser", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"]))


def pg_tool(name: str, root: Path = DEBIAN_PG) -> str | None:
    """`initdb` or `pg_ctl`: from the PATH, else from the newest `root/<version>/bin` (Debian's layout)."""
    found = shutil.which(name)
    if found:
        return found
    versions = [path for path in root.glob(f"*/bin/{name}") if os.access(path, os.X_OK)]
    versions.sort(key=lambda path: [int(part) if part.isdigit() else -1 for part in path.parent.parent.name.split(".")])
    return str(versions[-1]) if versions else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_postgres(command: list[str]) -> list[str]:
    """Run as the `postgres` user when we are root (the server will not run as root)."""
    if os.geteuid() == 0:
        return [RUNUSER or "runuser", "-u", "postgres", "--", *command]
    return command


class Cluster:
    """A throwaway PostgreSQL cluster in a temporary directory, on a free local port."""

    def __init__(self, initdb: str, pg_ctl: str) -> None:
        self.initdb, self.pg_ctl = initdb, pg_ctl
        self.root = Path(tempfile.mkdtemp(prefix="tournament-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")

    def start(self) -> str:
        def run(command: list[str]) -> None:
            subprocess.run(_as_postgres(command), check=True, capture_output=True, text=True, timeout=120)

        run([self.initdb, "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync"])
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        run([self.pg_ctl, "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start"])
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        subprocess.run(
            _as_postgres([self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop"]), capture_output=True, timeout=60
        )
        shutil.rmtree(self.root, ignore_errors=True)


@dataclass(frozen=True)
class Server:
    """A PostgreSQL server's admin URL, or why there is none."""

    url: str | None
    missing: str = ""


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    url = os.environ.get("TOURNAMENT_TEST_PG_URL")
    if url:
        yield Server(url)
        return
    initdb, pg_ctl = pg_tool("initdb"), pg_tool("pg_ctl")
    if not (initdb and pg_ctl):
        yield Server(None, f"initdb/pg_ctl are neither on the PATH nor in {DEBIAN_PG}/*/bin, and TOURNAMENT_TEST_PG_URL is not set")
        return
    if os.geteuid() == 0 and not RUNUSER:
        yield Server(None, "running as root, and no runuser to start the server as the postgres user")
        return
    cluster = None
    try:
        cluster = Cluster(initdb, pg_ctl)  # LookupError: no `postgres` user to run the server as
        url = cluster.start()
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError, LookupError) as exc:
        if cluster is not None:
            cluster.stop()
        detail = (getattr(exc, "stderr", None) or str(exc)).strip().splitlines()
        yield Server(None, f"could not start a PostgreSQL cluster: {detail[-1] if detail else exc!r}")
        return
    try:
        yield Server(url)
    finally:
        cluster.stop()


def _pg_admin(pg_server: Server) -> str:
    if pg_server.url is None:
        if os.environ.get("CI"):
            pytest.fail(f"no PostgreSQL: {pg_server.missing} (CI is set, so the PostgreSQL tests must run)")
        pytest.skip(f"no PostgreSQL: {pg_server.missing}")
    return pg_server.url


@pytest.fixture(scope="session")
def pg_template(pg_server: Server) -> Iterator[str | None]:
    """The name of a PostgreSQL database migrated to the newest schema once a test process, which `pg_url` copies
    (CREATE DATABASE ... TEMPLATE): the migrations run once, not once a test."""
    if pg_server.url is None:
        yield None
        return
    with scratch_database(pg_server.url, prefix="template") as url:
        _, engine = open_database(url)
        engine.dispose()  # a template is copied only while nobody is connected to it
        yield make_url(url).database


@pytest.fixture
def pg_url(pg_server: Server, pg_template: str | None) -> Iterator[str]:
    """A fresh PostgreSQL database at the newest schema and with no data, for one test, dropped afterwards."""
    with scratch_database(_pg_admin(pg_server), template=pg_template) as url:
        yield url


@pytest.fixture
def empty_pg_url(pg_server: Server) -> Iterator[str]:
    """A fresh PostgreSQL database with no schema at all (what `tournament serve --init` or a migration meets)."""
    with scratch_database(_pg_admin(pg_server)) as url:
        yield url


@contextmanager
def throwaway_cluster() -> Iterator[str]:
    """A bench's `--pg`: the URL of a throwaway cluster, stopped afterwards (SystemExit without PostgreSQL's tools)."""
    initdb, pg_ctl = pg_tool("initdb"), pg_tool("pg_ctl")
    if not (initdb and pg_ctl):
        raise SystemExit("--pg needs PostgreSQL's initdb and pg_ctl (Debian: the postgresql package)")
    cluster = Cluster(initdb, pg_ctl)
    try:
        yield cluster.start()
    finally:
        cluster.stop()


@contextmanager
def bench_database(pg: bool, db: str | None, scratch: str) -> Iterator[str]:
    """A bench's database: `--db`, else a throwaway cluster (`--pg`), else a fresh SQLite file in `scratch`."""
    if db or not pg:
        yield db or f"sqlite:///{Path(scratch) / 'bench.db'}"
        return
    with throwaway_cluster() as url:
        yield url


@contextmanager
def scratch_database(admin_url: str, prefix: str = "t", template: str | None = None) -> Iterator[str]:
    """A new database on the server at `admin_url` (a user who may create databases), dropped afterwards: empty,
    or a copy of the database `template`."""
    name = f"{prefix}_{uuid.uuid4().hex[:16]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")))
    try:
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to the newest schema once a test process, which `db` and `db_url` copy."""
    path = tmp_path_factory.mktemp("template") / "tournament.db"
    _, engine = open_database(f"sqlite:///{path}")
    engine.dispose()
    return path


@pytest.fixture
def db(tmp_path: Path, sqlite_template: Path) -> str:
    """A SQLite file at the newest schema with no data, for the Chromium tests (a real server in a thread)."""
    shutil.copyfile(sqlite_template, tmp_path / "tournament.db")
    return f"sqlite:///{tmp_path / 'tournament.db'}"


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database at the newest schema with no data on each backend: a SQLite file, or a fresh PostgreSQL
    database (copies of one migrated once: the migrations' own tests use `empty_db_url`)."""
    if request.param == "sqlite":
        return str(request.getfixturevalue("db"))
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture(params=BACKENDS)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """No database yet on each backend: a SQLite file's path, or a PostgreSQL database with no schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tournament.db'}"
    return str(request.getfixturevalue("empty_pg_url"))
