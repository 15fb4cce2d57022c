"""The migrations build exactly the schema the models describe, on both backends."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from tournament.storage.db import make_engine, upgrade
from tournament.storage.dbinfo import alembic_config
from tournament.storage.models import Base


def test_upgrade_head_on_empty_database_matches_the_models(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
    try:
        before, after = upgrade(engine)
        assert before is None
        assert after == ScriptDirectory.from_config(alembic_config()).get_current_head()
        with engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection, opts={"compare_type": True}), Base.metadata)
        assert diff == [], f"models and migrations disagree: {diff}"
        names = set(inspect(engine).get_table_names())
        assert set(Base.metadata.tables) <= names
    finally:
        engine.dispose()


def test_downgrade_to_base_and_up_again(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        config = alembic_config()
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "base")
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
        upgrade(engine)
        assert set(Base.metadata.tables) <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_constraint_names_follow_the_naming_convention(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        inspector = inspect(engine)
        assert inspector.get_pk_constraint("matches")["name"] in ("pk_matches", None)  # SQLite does not keep PK names
        fks = {fk["name"] for fk in inspector.get_foreign_keys("game_logs")}
        assert fks == {"fk_game_logs_event_id_matches"}
    finally:
        engine.dispose()


def test_0017_seasons_and_fees_on_a_database_of_the_schema_before_with_data(db_url: str) -> None:
    """An event with players and results at the revision before 0017 (before seasons and fees) is upgraded with its rows kept;
    `verify` holds after, and the new tables and columns take seasons and fees."""
    from tests.tournament.tlib import cli, cli_json

    cli(db_url, "create", "old", "--seed", "2", "--name", "Before")
    cli(db_url, "register", "old", "ann", "bob", "cat", "dan")
    cli(db_url, "pair", "old")
    for table in (1, 2):
        cli(db_url, "report", "old", "--table", str(table), "1-0")
    cli(db_url, "finish", "old")
    engine = make_engine(db_url)
    try:
        config = alembic_config()
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0016")
        inspector = inspect(engine)
        assert "seasons" not in inspector.get_table_names()
        assert "paid" not in {c["name"] for c in inspector.get_columns("players")}
        with engine.connect() as connection:
            assert connection.exec_driver_sql("SELECT count(*) FROM matches WHERE games_a IS NOT NULL").scalar() == 2
        assert upgrade(engine)[1] == ScriptDirectory.from_config(alembic_config()).get_current_head()
    finally:
        engine.dispose()
    cli(db_url, "verify", "old")
    assert [p["paid"] for p in cli_json(db_url, "fees", "old")["players"]] == [None] * 4
    cli(db_url, "fee", "old", "--currency", "EUR", "--amount", "500")
    cli(db_url, "paid", "old", "ann")
    cli(db_url, "season", "create", "s", "--name", "S")
    cli(db_url, "season", "add", "s", "old")
    assert len(cli_json(db_url, "season", "standings", "s")["standings"]) == 4
    cli(db_url, "verify", "old")
