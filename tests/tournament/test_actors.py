"""Every event-log entry names its actor (issue 35, T-171): the command line, a player, the organiser, the server;
entries from before actors were kept read as unknown and verify; the actor is inside the hash."""

from __future__ import annotations

import json

from alembic import command
from alembic.util import CommandError
from sqlalchemy import inspect, text
from sqlalchemy.orm import Session

from tests.tournament.tlib import cli, cli_json, downgrade, rewrite_log, tables
from tests.tournament.webkit import (
    client,
    codes,
    csrf,
    database,
    make_event,
    organiser,
    organiser_page,
    sign_in,
)
from tournament import service
from tournament.storage import eventlog
from tournament.storage.db import alembic_config, make_engine
from tournament.storage.models import LogEntry


def actors(db_url: str, event: str = "ev") -> list[str | None]:
    with database(db_url) as engine, Session(engine) as session:
        return list(session.scalars(LogEntry.__table__.select().with_only_columns(LogEntry.actor).where(LogEntry.event_id == event).order_by(LogEntry.seq)))


def test_the_command_line_is_named_in_the_log_and_its_json(db_url: str) -> None:
    cli(db_url, "create", "ev", "--seed", "1")
    cli(db_url, "register", "ev", "ann", "bob")
    entries = cli_json(db_url, "log", "ev")
    assert [(e["actor"], e["by"]) for e in entries] == [("cli", "the command line")] * len(entries)
    assert "command" in cli(db_url, "log", "ev").stdout  # the "by" column (wrapped in a narrow terminal)
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


def test_web_changes_name_who_was_signed_in(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    slip = codes(db_url)
    with client(db_url) as c:
        ann = sign_in(c, slip["ann"])
        assert c.post("/api/me/claim", json={"games": {"ann": 1, "bob": 0}}, headers=ann).status_code == 201
        boss = organiser(c)
        ruled = c.post("/api/admin/events/ev/rule", json={"table": 1, "reason": "seen by the judge", "accept": "ann"}, headers=boss)
        assert ruled.status_code == 201, ruled.text
        token = organiser_page(c)  # a page form names the organiser too
        page = c.post("/admin/e/ev/clock", data={"minutes": "50", "_csrf_token": token, "_key": "k" * 20})
        assert page.status_code == 200
    names = cli_json(db_url, "log", "ev")
    by_type = {e["type"]: (e["actor"], e["by"]) for e in names}
    assert by_type["result_claimed"] == ("player:ann", "ann")
    assert by_type["claim_ruled"] == ("organiser", "the organiser")
    assert by_type["round_started"] == ("organiser", "the organiser")
    assert by_type["round_paired"] == ("cli", "the command line")  # make_event's session: the command line's
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


def test_a_public_registration_is_the_servers(db_url: str) -> None:
    make_event(db_url, ["ann"], pair=False)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.set_registration(session, "ev", open=True, cap=None, closes_at=None, waitlist=True, waitlist_limit=None)
    with client(db_url) as c:
        token = csrf(c.get("/e/ev/register").text)
        c.post("/e/ev/register", data={"name": "Zoë", "_csrf_token": token})
    assert actors(db_url)[-1] == eventlog.SERVER


def test_an_actor_is_inside_the_hash(db_url: str) -> None:
    cli(db_url, "create", "ev", "--seed", "1")
    cli(db_url, "register", "ev", "ann", "bob")
    with database(db_url) as engine, engine.begin() as connection:
        connection.execute(text("UPDATE event_log SET actor = 'organiser' WHERE event_id = 'ev' AND seq = 2"))
    refused = cli(db_url, "verify", "ev", code=1)
    assert "log entry 2: its hash does not match its contents" in refused.stdout + refused.stderr


def test_a_session_of_nobody_appends_nothing(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"], pair=False)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        eventlog.bind(session, eventlog.NOBODY)
        try:
            service.pair(session, "ev")
        except AssertionError as exc:
            assert "a change by nobody" in str(exc)
        else:
            raise AssertionError("a session bound to nobody appended")


def test_an_event_of_the_previous_schema_migrates_with_its_actors_unknown_and_verifies(db_url: str) -> None:
    # The database as 0015 left it: entries with no actor, hashed without one (rewrite_log hashes as the old code did).
    cli(db_url, "create", "ev", "--seed", "1", "--best-of", "1")
    cli(db_url, "register", "ev", "ann", "bob", "cat", "dan")
    cli(db_url, "pair", "ev")
    (a, b), (c, d) = (t["players"] for t in tables(db_url, "ev"))
    cli(db_url, "report", "ev", "--table", "1", "--result", f"{a}=1,{b}=0")
    before = len(cli_json(db_url, "log", "ev"))
    engine = make_engine(db_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE event_log SET actor = NULL"))
        rewrite_log(connection, "ev", lambda _seq, _kind, _payload: None)
        config = alembic_config()
        config.attributes["connection"] = connection
        command.downgrade(config, "0015")
    with engine.connect() as connection:
        assert "actor" not in {c["name"] for c in inspect(connection).get_columns("event_log")}
    engine.dispose()
    assert "chain intact" in cli(db_url, "verify", "ev").stdout  # the first command migrates to 0016, then verifies
    cli(db_url, "report", "ev", "--table", "2", "--result", f"{c}=0,{d}=1")  # a new entry names its actor
    entries = cli_json(db_url, "log", "ev")
    assert [e["actor"] for e in entries] == [None] * before + ["cli"]
    assert entries[0]["by"] == "unknown (from before actors were kept)"
    assert "chain intact" in cli(db_url, "verify", "ev").stdout
    export = json.loads(cli(db_url, "export", "ev").stdout)
    assert "actor" not in export["log"][0] and export["log"][-1]["actor"] == "cli"


def test_a_downgrade_below_actors_is_refused_while_an_entry_names_one_and_changes_nothing(db_url: str) -> None:
    """Dropping the actor would leave every entry that named one unverifiable for good (its hash covers it, T-171):
    the downgrade refuses in one line, and the log still verifies."""
    cli(db_url, "create", "ev", "--seed", "1", "--best-of", "1")
    cli(db_url, "register", "ev", "ann", "bob")
    engine = make_engine(db_url)
    config = alembic_config()
    with engine.connect() as connection:
        head = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0015")
    except CommandError as exc:
        assert "downgrade below 0016 refused: 3 event-log entries name who made them" in str(exc)
    else:
        raise AssertionError("the downgrade dropped the actors")
    with engine.connect() as connection:
        assert "actor" in {c["name"] for c in inspect(connection).get_columns("event_log")}
        assert connection.execute(text("SELECT version_num FROM alembic_version")).all() == head, "no migration was undone"
    engine.dispose()
    assert actors(db_url) == ["cli"] * 3
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


def test_a_downgrade_below_staff_leaves_no_staff_sign_in_the_older_code_would_misread(db_url: str) -> None:
    """A staff member's code and session name no player and no event: the older code, which knows no staff, would
    take them for a player's. The downgrade deletes them with the column that said whose they are."""
    cli(db_url, "create", "ev", "--seed", "1", "--best-of", "1")
    with database(db_url) as engine, Session(engine) as session, session.begin():
        member = service.name_staff(session, "Jo Judge", "judge", "ev")
        service.exchange_code(session, service.issue_staff_code(session, member.id), "test")
        service.issue_staff_code(session, service.name_staff(session, "Hal Head", "head-judge").id)
    engine = make_engine(db_url)
    with engine.begin() as connection:
        downgrade(connection, "0015")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT kind FROM credentials WHERE player IS NULL AND kind IN ('code', 'session')")).all() == []
    engine.dispose()
