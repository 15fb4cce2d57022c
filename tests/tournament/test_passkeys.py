"""The passkey service (service/passkeys.py) against a software authenticator with real keys, on both databases:
registration and sign-in, and every answer that must not sign anyone in."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import inspect, select, update
from sqlalchemy.orm import Session

from tests.tournament.authenticator import Authenticator, challenge_of, tampered
from tests.tournament.tlib import cli
from tests.tournament.webkit import database, make_event
from tournament import service
from tournament.service import passkeys
from tournament.service.passkeys import NotSecure, Owner, PasskeyDenied, Site
from tournament.storage.db import make_engine, upgrade
from tournament.storage.dbinfo import alembic_config
from tournament.storage.models import Passkey, PasskeyChallenge, Person

HERE = Site("localhost", "http://localhost:8000")
ANN = Owner("person", "ann")
JUDGE = Owner("staff", "jo-judge")


@pytest.fixture
def db_session(db_url: str) -> Iterator[Session]:
    """A session on a migrated database with two people; each test commits what it means to keep."""
    with database(db_url) as engine, Session(engine) as session:
        session.add_all([Person(id=p, name=p.title(), created_at=datetime.now(UTC)) for p in ("ann", "bob")])
        service.name_staff(session, "Jo Judge", "judge")
        session.commit()
        yield session


def enrol(session: Session, key: Authenticator, owner: Owner = ANN, where: Site = HERE) -> Passkey:
    options = passkeys.registration_options(session, owner, "Ann", where)
    kept = passkeys.register(session, owner, where, key.create(options, where.origin), "My phone")
    session.commit()
    return kept


def test_a_person_adds_a_passkey_and_signs_in_with_it(db_session: Session) -> None:
    key = Authenticator()
    kept = enrol(db_session, key)
    assert (kept.person, kept.staff, kept.name, kept.transports, kept.sign_count) == ("ann", None, "My phone", "internal", 1)
    answer = key.get(passkeys.sign_in_options(db_session, HERE), HERE.origin)
    assert passkeys.sign_in(db_session, HERE, answer) == ANN
    db_session.commit()
    again = db_session.get(Passkey, kept.id)
    assert again is not None and again.sign_count == 2 and again.last_used_at is not None


def test_a_staff_member_signs_in_as_staff(db_session: Session) -> None:
    key = Authenticator()
    enrol(db_session, key, JUDGE)
    assert passkeys.sign_in(db_session, HERE, key.get(passkeys.sign_in_options(db_session, HERE), HERE.origin)) == JUDGE


def test_a_revoked_staff_member_loses_their_passkeys_and_signs_in_no_more(db_session: Session) -> None:
    key = Authenticator()
    enrol(db_session, key, JUDGE)
    answer = key.get(passkeys.sign_in_options(db_session, HERE), HERE.origin)
    db_session.commit()
    who, _secret = service.staff_session(db_session, passkeys.sign_in(db_session, HERE, answer).id)
    assert (who.role, who.staff) == ("judge", "jo-judge")
    db_session.commit()
    service.revoke(db_session, "jo-judge")
    db_session.commit()
    assert passkeys.passkeys_of(db_session, JUDGE) == []
    with pytest.raises(service.Denied, match="revoked"):
        service.staff_session(db_session, "jo-judge")


def test_the_user_handle_is_random_and_one_for_all_of_an_owners_passkeys(db_session: Session) -> None:
    first, second = enrol(db_session, Authenticator()), enrol(db_session, Authenticator())
    other = enrol(db_session, Authenticator(), Owner("person", "bob"))
    assert first.user_handle == second.user_handle != other.user_handle
    options = json.loads(passkeys.registration_options(db_session, ANN, "Ann", HERE))
    assert options["user"]["id"] == first.user_handle and "ann" not in first.user_handle.lower()
    assert len(options["excludeCredentials"]) == 2, "an authenticator that holds one of Ann's passkeys is not asked again"


def test_a_replayed_assertion_is_refused(db_session: Session) -> None:
    key = Authenticator()
    enrol(db_session, key)
    answer = key.get(passkeys.sign_in_options(db_session, HERE), HERE.origin)
    passkeys.sign_in(db_session, HERE, answer)
    db_session.commit()
    with pytest.raises(PasskeyDenied) as refused:
        passkeys.sign_in(db_session, HERE, answer)
    assert refused.value.reason == "unknown or spent challenge"


def test_an_assertion_for_another_origin_or_rp_id_is_refused(db_session: Session) -> None:
    key = Authenticator()
    enrol(db_session, key)
    for origin, rp_id in (("http://evil.localhost:8000", None), ("http://localhost:8001", None), (HERE.origin, "evil.localhost")):
        answer = key.get(passkeys.sign_in_options(db_session, HERE), origin, rp_id=rp_id)
        with pytest.raises(PasskeyDenied) as refused:
            passkeys.sign_in(db_session, HERE, answer)
        assert "origin" in refused.value.reason or "RP ID" in refused.value.reason, refused.value.reason
        db_session.rollback()


def test_a_registration_for_another_origin_is_refused_and_keeps_nothing(db_session: Session) -> None:
    options = passkeys.registration_options(db_session, ANN, "Ann", HERE)
    with pytest.raises(PasskeyDenied):
        passkeys.register(db_session, ANN, HERE, Authenticator().create(options, "http://evil.localhost:8000"))
    db_session.rollback()
    assert passkeys.passkeys_of(db_session, ANN) == []


def test_a_removed_passkey_signs_nobody_in(db_session: Session) -> None:
    key = Authenticator()
    kept = enrol(db_session, key)
    with pytest.raises(passkeys.NotFound):
        passkeys.remove(db_session, Owner("person", "bob"), kept.id)  # nobody removes another's
    assert passkeys.remove(db_session, ANN, kept.id) == "My phone"
    db_session.commit()
    with pytest.raises(PasskeyDenied) as refused:
        passkeys.sign_in(db_session, HERE, key.get(passkeys.sign_in_options(db_session, HERE), HERE.origin))
    assert refused.value.reason == "unknown credential"


def test_a_signature_by_another_key_or_a_counter_gone_back_is_refused(db_session: Session) -> None:
    key = Authenticator()
    kept = enrol(db_session, key)
    impostor = Authenticator()  # holds the credential's id and handle, not its key
    impostor.keys[kept.credential] = (ec.generate_private_key(ec.SECP256R1()), "localhost", kept.user_handle)
    with pytest.raises(PasskeyDenied, match="did not sign you in"):
        passkeys.sign_in(db_session, HERE, impostor.get(passkeys.sign_in_options(db_session, HERE), HERE.origin))
    db_session.rollback()
    db_session.execute(update(Passkey).values(sign_count=50))  # another copy of the key has signed 50 times since
    db_session.commit()
    with pytest.raises(PasskeyDenied) as refused:
        passkeys.sign_in(db_session, HERE, key.get(passkeys.sign_in_options(db_session, HERE), HERE.origin))
    assert "sign count" in refused.value.reason


def test_an_answer_naming_another_user_handle_is_refused(db_session: Session) -> None:
    key = Authenticator()
    enrol(db_session, key)
    answer = key.get(passkeys.sign_in_options(db_session, HERE), HERE.origin)
    with pytest.raises(PasskeyDenied) as refused:
        passkeys.sign_in(db_session, HERE, tampered(answer, userHandle=enrol(db_session, Authenticator(), Owner("person", "bob")).user_handle))
    assert refused.value.reason == "user handle is not the credential's"


def test_an_authenticator_without_a_counter_signs_in_again_and_again(db_session: Session) -> None:
    key = Authenticator(counts=False)
    enrol(db_session, key)
    for _ in range(2):
        assert passkeys.sign_in(db_session, HERE, key.get(passkeys.sign_in_options(db_session, HERE), HERE.origin)) == ANN
        db_session.commit()


def test_a_challenge_is_the_owners_its_ceremonys_and_short_lived(db_session: Session) -> None:
    key = Authenticator()
    options = passkeys.registration_options(db_session, ANN, "Ann", HERE)
    db_session.commit()
    with pytest.raises(PasskeyDenied, match="someone else"):  # Bob cannot finish what Ann began
        passkeys.register(db_session, Owner("person", "bob"), HERE, key.create(options, HERE.origin))
    db_session.rollback()
    crossed = {**json.loads(options), "challenge": json.loads(passkeys.sign_in_options(db_session, HERE))["challenge"]}
    db_session.commit()
    with pytest.raises(PasskeyDenied):  # a sign-in's challenge registers nothing
        passkeys.register(db_session, ANN, HERE, key.create(json.dumps(crossed), HERE.origin))
    db_session.rollback()
    db_session.execute(update(PasskeyChallenge).values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    db_session.commit()
    with pytest.raises(PasskeyDenied, match="too long"):
        passkeys.register(db_session, ANN, HERE, key.create(options, HERE.origin))
    db_session.rollback()
    passkeys.sign_in_options(db_session, HERE)  # a new ceremony clears the expired ones
    db_session.commit()
    assert challenge_of(options) and len(db_session.scalars(select(PasskeyChallenge)).all()) == 1


def test_unreadable_or_oversized_answers_are_usage_errors(db_session: Session) -> None:
    options = passkeys.sign_in_options(db_session, HERE)
    for bad in ("", "{}", "[1]", '{"response": {"clientDataJSON": "!!"}}', "x" * (passkeys.MAX_RESPONSE + 1)):
        with pytest.raises(passkeys.Usage):
            passkeys.sign_in(db_session, HERE, bad)
    answer = Authenticator().create(passkeys.registration_options(db_session, ANN, "Ann", HERE), HERE.origin)
    with pytest.raises(PasskeyDenied):
        passkeys.register(db_session, ANN, HERE, tampered(answer, attestationObject="AAAA"))
    assert options


def test_names_and_limits(db_session: Session) -> None:
    assert passkeys.passkey_name("  My   phone ") == "My phone"
    assert passkeys.passkey_name("").startswith("Passkey added ")
    for bad in ("x" * 61, "evil\u202ename"):
        with pytest.raises(passkeys.Usage):
            passkeys.passkey_name(bad)
    for _ in range(passkeys.MAX_PASSKEYS):
        db_session.add(Passkey(
            id=f"{_:064x}", credential=bytes([_]), public_key=b"", sign_count=0, user_handle="h", person="ann", name="k", transports="",
            created_at=datetime.now(UTC),
        ))
    db_session.commit()
    with pytest.raises(passkeys.Conflict, match="remove one first"):
        passkeys.registration_options(db_session, ANN, "Ann", HERE)


@pytest.mark.parametrize(("scheme", "host", "port", "origin"), [
    ("http", "localhost", 8000, "http://localhost:8000"),
    ("http", "cup.localhost", 80, "http://cup.localhost"),
    ("https", "Cup.Example.org", 443, "https://cup.example.org"),
    ("https", "cup.example.org", 8443, "https://cup.example.org:8443"),
])
def test_the_site_is_the_requests_host(scheme: str, host: str, port: int, origin: str) -> None:
    assert passkeys.site(scheme, host, port) == Site(origin.split("://")[1].split(":")[0], origin)


@pytest.mark.parametrize(("scheme", "host"), [
    ("http", "192.168.1.20"), ("http", "venue.example.org"), ("http", "127.0.0.1"), ("https", "127.0.0.1"), ("https", "[::1]"), ("http", ""),
])
def test_no_passkeys_where_browsers_offer_none(scheme: str, host: str) -> None:
    assert not passkeys.secure(scheme, host)
    with pytest.raises(NotSecure, match="HTTPS"):
        passkeys.site(scheme, host, 8000)


def test_the_migration_runs_on_a_database_with_events_and_verify_passes(db_url: str) -> None:
    """0019 on a database of the schema before it, with an event played: the tables come, nothing else moves."""
    make_event(db_url)
    engine = make_engine(db_url)
    try:
        with engine.begin() as connection:
            config = alembic_config()
            config.attributes["connection"] = connection
            command.downgrade(config, str(ScriptDirectory.from_config(config).get_revision("0019").down_revision))
        assert "passkeys" not in inspect(engine).get_table_names()
        upgrade(engine)
        assert {"passkeys", "passkey_challenges"} <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


def test_a_person_merged_into_another_loses_their_passkeys_as_their_card(db_session: Session) -> None:
    key = Authenticator()
    enrol(db_session, key, Owner("person", "bob"))
    service.merge(db_session, "ann", "bob", "the same person", "organiser")
    db_session.commit()
    assert passkeys.passkeys_of(db_session, Owner("person", "bob")) == [] and db_session.get(Person, "bob") is None
    with pytest.raises(PasskeyDenied):  # Bob's passkey does not sign anyone in as Ann
        passkeys.sign_in(db_session, HERE, key.get(passkeys.sign_in_options(db_session, HERE), HERE.origin))
