"""Alembic environment: runs on the CLI's connection, or on `TOURNAMENT_DB` when run by hand."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, text

from tournament.storage.db import database_url, make_engine
from tournament.storage.models import Base

# An arbitrary constant: PostgreSQL processes migrating at once take turns on it.
MIGRATION_LOCK = 7_411_906


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=True,  # SQLite cannot ALTER most things; batch mode copies the table
        compare_type=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    run(connection)
else:
    engine = make_engine(database_url(None))
    with engine.begin() as own:
        run(own)
    engine.dispose()
