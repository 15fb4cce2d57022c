"""Messages per person (issue 36, T-239..T-242): a person subscribes once for every entry linked to them, in every
event; an entry's own subscription and its person's to one address are one message; the link in every message
stops it; a person's e-mail address is confirmed first; a merge moves the subscriptions, a split keeps them."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from tests.tournament.receivers import SmtpReceiver, smtp_server
from tests.tournament.test_web_cards import card_for, card_page
from tests.tournament.tlib import cli
from tests.tournament.webkit import client, codes, csrf, database, everything, player_page
from tournament import service
from tournament.service import messages, sender
from tournament.storage.models import Message, Subscription

PEOPLE = ("ann", "bob", "cat")


def event_with_zoe(db_url: str, event: str, name: str, *, zoe_person: bool = False) -> None:
    """An event of four: ann, bob, cat (new people each time) and Zoe, the person `zoe` (made by the first event)."""
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.create_event(session, event, name=name, ruleset="cardwars", profile="mtg", best_of=1, seed=3)
        zoe = service.Person("Zoe Angstrom", "zoe", person="zoe" if zoe_person else None)
        service.register_people(session, event, [*(service.Person(p.title(), p) for p in PEOPLE), zoe])


def pair(db_url: str, event: str) -> None:
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.pair(session, event)


def outbox(db_url: str) -> list[Message]:
    with database(db_url) as engine, Session(engine) as session:
        return list(session.scalars(select(Message).order_by(Message.created_at, Message.id)))


@dataclass(frozen=True)
class Made:
    id: int
    token: str


def subscribe_zoe(db_url: str, address: str, *, confirmed: bool = True) -> Made:
    with database(db_url) as engine, Session(engine) as session, session.begin():
        row = service.subscribe_person(session, "zoe", "email", address)
        if confirmed:
            service.confirm_address(session, row.token)
        return Made(row.id, row.token)


def send_all(engine: object, url: str, got: SmtpReceiver, until: Callable[[], bool]) -> None:
    s = sender.Sender(engine, [sender.Email(sender.smtp_settings(url))], base_url="https://cup.example.org")  # type: ignore[arg-type]
    end = time.monotonic() + 20
    while not until():
        assert time.monotonic() < end, f"the messages did not arrive: {[m.subject for m in got.mails]}"
        if not s.once():
            time.sleep(0.05)


def test_a_person_subscribed_by_email_gets_the_pairings_of_both_events_they_play(db_url: str) -> None:
    event_with_zoe(db_url, "spring", "Spring Open")
    with smtp_server() as (url, got), database(db_url) as engine:
        with Session(engine) as session, session.begin():
            row = service.subscribe_person(session, "zoe", "email", "zoe@example.org")
            token = row.token
        send_all(engine, url, got, lambda: len(got.mails) == 1)
        (asked,) = got.mails
        assert asked.to == "zoe@example.org" and asked.subject == "Confirm your address for messages"
        assert f"Confirm: https://cup.example.org/messages/{token}" in asked.text
        pair(db_url, "spring")  # not confirmed yet: nothing for Zoe
        assert [m.player for m in outbox(db_url) if m.kind == "paired"] == []
        with Session(engine) as session, session.begin():
            service.confirm_address(session, token)
            service.create_event(session, "summer", name="Summer Cup", ruleset="cardwars", profile="mtg", best_of=1, seed=3)
            service.register_people(session, "summer", [service.Person(p.title(), p) for p in PEOPLE])
            service.set_registration(session, "summer", open=True)
            service.sign_up(session, "summer", "Zoe Angstrom", person="zoe")  # one tap, after she subscribed
            service.unpair(session, "spring")
        pair(db_url, "spring")
        pair(db_url, "summer")
        send_all(engine, url, got, lambda: len(got.mails) == 4)
        assert sorted(m.subject for m in got.mails if not m.subject.startswith("Round")) == [
            "Confirm your address for messages", "Summer Cup: you are registered",  # the one tap is told too
        ]
        paired = sorted((m for m in got.mails if m.subject.startswith("Round")), key=lambda m: m.text)
        assert [m.to for m in paired] == ["zoe@example.org"] * 2
        assert "round 1 of Spring Open at table" in paired[0].text and "round 1 of Summer Cup at table" in paired[1].text
        for mail in paired:
            assert f"No more of these messages: https://cup.example.org/messages/{token}" in mail.text
            assert mail.unsubscribe == f"<https://cup.example.org/messages/{token}>"


def test_an_entry_with_its_own_and_its_persons_subscription_to_one_address_gets_one_message(db_url: str) -> None:
    event_with_zoe(db_url, "spring", "Spring Open")
    with database(db_url) as engine:
        with Session(engine) as session, session.begin():
            own = service.subscribe(session, "spring", "zoe", "email", "zoe@example.org").id
        subscribe_zoe(db_url, "zoe@example.org")
        subscribe_zoe(db_url, "zoe@work.example")
        pair(db_url, "spring")
        rows = [m for m in outbox(db_url) if m.player == "zoe"]
        assert len(rows) == 2, "three subscriptions, two addresses: two messages"
        addresses = {}
        with Session(engine) as session:
            for m in rows:
                sub = session.get(Subscription, m.subscription)
                assert sub is not None
                addresses[sub.address] = m.id
        assert sorted(addresses) == ["zoe@example.org", "zoe@work.example"], "one message an address, not one a subscription"
        # a reminder seen due again after the carrier of the address stopped is still the message written first
        with Session(engine) as session, session.begin():
            service.start_round(session, "spring", 5)
        with Session(engine) as session, session.begin():
            assert messages.due_reminders(session) == 2  # zoe's two addresses (the others have none)
        with Session(engine) as session, session.begin():
            service.unsubscribe(session, "spring", "zoe", own)
        with Session(engine) as session, session.begin():
            assert messages.due_reminders(session) == 0, "the same reminder to the same address: known by its id"


def test_unsubscribing_stops_them_on_the_page_and_by_the_link_in_a_message(db_url: str, monkeypatch: object) -> None:
    event_with_zoe(db_url, "spring", "Spring Open")
    card = card_for(db_url, "zoe")
    push = subscribe_zoe(db_url, "zoe@example.org")
    work = subscribe_zoe(db_url, "zoe@work.example")
    monkeypatch.setenv("TOURNAMENT_SMTP", "smtp://127.0.0.1:1")  # type: ignore[attr-defined]
    with client(db_url) as c:
        card_page(c, card)
        page = c.get("/me").text
        assert "E-mail to zoe@example.org" in page and 'action="/me/person/messages/stop"' in page
        stopped = c.post("/me/person/messages/stop", data={"subscription": str(push.id), "_csrf_token": csrf(page), "_key": _key(page)},
                         follow_redirects=False)
        assert stopped.status_code == 303 and stopped.headers["location"].startswith("/me?r=")
        assert "No more messages to zoe@example.org." in c.get(stopped.headers["location"]).text
    with client(db_url) as c:  # the link in a message: no sign-in; a GET changes nothing, the button stops them
        link = c.get(f"/messages/{work.token}")
        assert link.status_code == 200 and "Zoe Angstrom, in every event" in link.text and "zoe@work.example" in link.text
        done = c.post(f"/messages/{work.token}/stop", data={"_csrf_token": csrf(link.text), "_key": _key(link.text)}, follow_redirects=False)
        assert done.status_code == 303 and done.headers["location"].startswith(f"/messages/{work.token}?r=")
        assert "Stopped: no more messages to zoe@work.example." in c.get(done.headers["location"]).text
    pair(db_url, "spring")
    assert [m for m in outbox(db_url) if m.player == "zoe"] == []


def _key(page: str) -> str:
    found = re.search(r'name="_key" value="([^"]+)"', page)
    assert found
    return found.group(1)


def test_a_person_subscribes_on_their_page_and_confirms_by_the_link_sent(db_url: str, monkeypatch: object) -> None:
    event_with_zoe(db_url, "spring", "Spring Open")
    card = card_for(db_url, "zoe")
    with smtp_server() as (url, got), database(db_url) as engine:
        monkeypatch.setenv("TOURNAMENT_SMTP", url)  # type: ignore[attr-defined]
        with client(db_url) as c:
            card_page(c, card)
            page = c.get("/me").text
            assert 'action="/me/person/messages/email"' in page and "in every event you play" in page
            asked = c.post("/me/person/messages/email", data={"email": "zoe@example.org", "_csrf_token": csrf(page), "_key": _key(page)},
                           follow_redirects=False)
            assert asked.status_code == 303 and asked.headers["location"].startswith("/me?r=")
            shown = c.get(asked.headers["location"]).text
            assert "We sent a link to zoe@example.org: open it to confirm the address" in shown
            assert "waiting: open the link we sent there to confirm it" in shown
        send_all(engine, url, got, lambda: len(got.mails) == 1)
        link = re.search(r"Confirm: https://cup\.example\.org(/messages/\S+)", got.mails[0].text)
        assert link, got.mails[0].text
        with client(db_url) as c:  # opened on another device: the link is the proof, no sign-in
            opened = c.get(link.group(1))
            assert "Yes, tell me at this address" in opened.text
            pair(db_url, "spring")
            assert [m for m in outbox(db_url) if m.player == "zoe"] == [], "nothing goes to an address not confirmed"
            done = c.post(f"{link.group(1)}/confirm", data={"_csrf_token": csrf(opened.text), "_key": _key(opened.text)}, follow_redirects=False)
            assert done.status_code == 303
            assert "Confirmed: your pairings and results will come to zoe@example.org." in c.get(done.headers["location"]).text
        with Session(engine) as session, session.begin():
            service.unpair(session, "spring")
        pair(db_url, "spring")
        assert [(m.player, m.kind) for m in outbox(db_url) if m.player == "zoe"] == [("zoe", "paired")]


def test_no_one_else_subscribes_or_stops_a_persons_messages_and_a_refusal_changes_nothing(db_url: str, monkeypatch: object) -> None:
    event_with_zoe(db_url, "spring", "Spring Open")
    zoe = subscribe_zoe(db_url, "zoe@example.org")
    ann_card = card_for(db_url, "ann")
    slips = codes(db_url, "spring")
    monkeypatch.setenv("TOURNAMENT_SMTP", "smtp://127.0.0.1:1")  # type: ignore[attr-defined]
    before = kept(db_url)
    with client(db_url) as c:
        card_page(c, ann_card)  # another person
        page = c.get("/me").text
        refused = c.post("/me/person/messages/stop", data={"subscription": str(zoe.id), "_csrf_token": csrf(page), "_key": _key(page)})
        assert f"you have no subscription {zoe.id}" in refused.text
        api = c.post("/api/card", json={"code": ann_card}).json()["session"]
        answer = c.post(f"/api/me/person/messages/{zoe.id}/stop", headers={"Authorization": f"Bearer {api}"})
        assert answer.status_code == 404
    with client(db_url) as c:  # Zoe's entry's slip code: a player, not the person
        token = player_page(c, slips["zoe"])
        page = c.get("/me").text
        signed = c.post("/me/person/messages/email", data={"email": "x@example.org", "_csrf_token": token, "_key": _key(page)})
        assert signed.status_code == 401 and "sign in with your player card first" in signed.text
        refused = c.post("/me/messages/stop", data={"subscription": str(zoe.id), "_csrf_token": token, "_key": _key(page)})
        assert f"you have no subscription {zoe.id}" in refused.text
    with client(db_url) as c:  # nobody signed in
        page = c.get("/card").text
        assert c.post("/me/person/messages/email", data={"email": "x@example.org", "_csrf_token": csrf(page), "_key": _key(page)}).status_code == 401
        assert c.post(f"/messages/{'x' * 32}/stop", data={"_csrf_token": csrf(page), "_key": _key(page)}).status_code == 200
    assert kept(db_url) == before


def kept(db_url: str) -> dict[str, list[tuple[object, ...]]]:
    """What a refusal must leave as it was: the subscriptions, the outbox, the people and the event's log (a
    sign-in's session and the refusal's receipt are written, as for any request)."""
    return {k: v for k, v in everything(db_url).items() if k in ("subscriptions", "outbox", "people", "players", "event_log")}


def test_the_new_forms_need_their_csrf_token(db_url: str, monkeypatch: object) -> None:
    event_with_zoe(db_url, "spring", "Spring Open")
    zoe = subscribe_zoe(db_url, "zoe@example.org", confirmed=False)
    card = card_for(db_url, "zoe")
    monkeypatch.setenv("TOURNAMENT_SMTP", "smtp://127.0.0.1:1")  # type: ignore[attr-defined]
    with client(db_url) as c:
        card_page(c, card)
        before = everything(db_url)
        for path, data in (
            ("/me/person/messages/email", {"email": "zoe@work.example"}),
            ("/me/person/messages/stop", {"subscription": str(zoe.id)}),
            (f"/messages/{zoe.token}/confirm", {}),
            (f"/messages/{zoe.token}/stop", {}),
        ):
            assert c.post(path, data={**data, "_key": "k" * 22}).status_code == 403, path
        assert everything(db_url) == before


def test_a_rolled_back_change_writes_no_message_to_a_person(db_url: str) -> None:
    event_with_zoe(db_url, "spring", "Spring Open")
    subscribe_zoe(db_url, "zoe@example.org")
    with database(db_url) as engine:
        with Session(engine) as session, session.begin():
            service.pair(session, "spring")
            session.rollback()
        assert [m.kind for m in outbox(db_url)] == ["address"], "only the address's confirmation, written when she subscribed"
        with Session(engine) as session, session.begin():
            service.pair(session, "spring")
        assert [m.player for m in outbox(db_url) if m.kind == "paired"] == ["zoe"], "written at the pairing's commit"


def test_a_merge_moves_the_subscriptions_and_a_split_keeps_them(db_url: str) -> None:
    event_with_zoe(db_url, "spring", "Spring Open")
    with database(db_url) as engine:
        with Session(engine) as session, session.begin():  # Zoe registered again in another event as someone new
            service.create_event(session, "summer", name="Summer Cup", ruleset="cardwars", profile="mtg", best_of=1, seed=3)
            service.register_people(session, "summer", [*(service.Person(p.title(), f"{p}2") for p in PEOPLE), service.Person("Zoe A.", "zoe-a")])
        with Session(engine) as session, session.begin():
            service.subscribe_person(session, "zoe-a", "push", "https://push.example.org/z", p256dh=_P256DH, auth=_AUTH)
            service.subscribe_person(session, "zoe", "push", "https://push.example.org/z", p256dh=_P256DH, auth=_AUTH)
            service.subscribe_person(session, "zoe-a", "email", "zoe@example.org")
        with Session(engine) as session, session.begin():
            service.merge(session, "zoe", "zoe-a", "one person", "cli")
        with Session(engine) as session:
            ways = [(s.channel, s.address) for s in service.person_subscriptions(session, "zoe")]
            assert sorted(ways) == [("email", "zoe@example.org"), ("push", "https://push.example.org/z")], "moved, one an address"
        with Session(engine) as session, session.begin():
            service.split(session, "zoe", [("summer", "zoe-a")], "Zoe Other", "two people after all", "cli")
        with Session(engine) as session:
            assert len(service.person_subscriptions(session, "zoe")) == 2
            other = session.scalars(select(Subscription.person).where(Subscription.person != "zoe")).all()
            assert other == [], "the new person subscribes for themselves"
        pair(db_url, "summer")
        assert [m.player for m in outbox(db_url) if m.kind == "paired"] == [], "the entry split off is no longer Zoe's: her addresses hear nothing of it"


_P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
_AUTH = "tBHItJI5svbpez7KI4CCXg"


def test_the_migration_runs_on_a_database_with_data_and_verify_passes(db_url: str) -> None:
    from alembic import command

    from tournament.storage.dbinfo import alembic_config

    event_with_zoe(db_url, "spring", "Spring Open")
    with database(db_url) as engine:
        config = alembic_config()
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0020")
        with engine.begin() as connection:  # an entry's subscription and its message, as 0020 kept them
            now = datetime.now(UTC)
            connection.exec_driver_sql(
                "INSERT INTO subscriptions (event_id, player, channel, address, created_at) VALUES ('spring', 'ann', 'email', 'ann@example.org', %s)"
                % ("?" if engine.dialect.name == "sqlite" else "%(at)s"),
                (now,) if engine.dialect.name == "sqlite" else {"at": now},
            )
    assert "chain intact" in cli(db_url, "verify", "spring").stdout  # migrates up first
    with database(db_url) as engine, Session(engine) as session, session.begin():
        (ann,) = service.subscriptions(session, "spring", "ann")
        assert ann.confirmed_at is not None and len(ann.token) >= 32, "an entry's subscription is told, with a link to stop it"
        service.subscribe_person(session, "zoe", "push", "https://push.example.org/z", p256dh=_P256DH, auth=_AUTH)
        service.pair(session, "spring")
    assert sorted(m.player for m in outbox(db_url)) == ["ann", "zoe"]
    assert "chain intact" in cli(db_url, "verify", "spring").stdout


def test_the_json_twins_of_a_persons_messages(db_url: str, monkeypatch: object) -> None:
    event_with_zoe(db_url, "spring", "Spring Open")
    card = card_for(db_url, "zoe")
    monkeypatch.setenv("TOURNAMENT_SMTP", "smtp://127.0.0.1:1")  # type: ignore[attr-defined]
    with client(db_url) as c:
        zoe = {"Authorization": f"Bearer {c.post('/api/card', json={'code': card}).json()['session']}"}
        made = c.post("/api/me/person/messages", headers=zoe, json={"channel": "email", "address": "zoe@example.org"})
        assert made.status_code == 201 and made.json() == {"id": made.json()["id"], "channel": "email", "address": "zoe@example.org", "confirmed": False}
        bad = c.post("/api/me/person/messages", headers=zoe, json={"channel": "email", "address": "not an address"})
        assert bad.status_code == 400 and "email: an address like name@example.org" in bad.json()["error"]
        assert [w["address"] for w in c.get("/api/me/person/messages", headers=zoe).json()] == ["zoe@example.org"]
        assert c.get("/api/me/person/messages").status_code == 401
        left = c.post(f"/api/me/person/messages/{made.json()['id']}/stop", headers=zoe)
        assert left.status_code == 201 and left.json() == []
