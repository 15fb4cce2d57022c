"""Messages (issue 36): the outbox written with each change, the sender, e-mail and Web Push to real receivers."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tests.tournament.receivers import PushEndpoint, push_endpoint, smtp_server
from tests.tournament.tlib import cli, cli_json
from tests.tournament.webkit import client, codes, csrf, database, make_event, player_page, tables
from tournament import service
from tournament.service import messages, sender
from tournament.storage.models import Message, Subscription


def outbox(db_url: str) -> list[Message]:
    with database(db_url) as engine, Session(engine) as session:
        return list(session.scalars(select(Message).order_by(Message.created_at, Message.id)))


def subscribe_push(db_url: str, ep: PushEndpoint, players: list[str], event: str = "ev") -> None:
    with database(db_url) as engine, Session(engine) as session, session.begin():
        for p in players:
            b = ep.browser(p)
            service.subscribe(session, event, p, "push", b.endpoint, p256dh=b.p256dh, auth=b.auth_text, local=True)


def push_sender(db_url: str, engine: Any, ep: PushEndpoint, lease: timedelta = sender.LEASE) -> sender.Sender:
    """A sender with Web Push, and the endpoint told the server's VAPID key to check every request against."""
    with Session(engine) as session, session.begin():
        ep.vapid = sender.vapid_public(sender.vapid_private(session))
        channels = sender.channels_for(session, None, "mailto:desk@spring-open.example")
    return sender.Sender(engine, channels, base_url="https://cup.example.org", lease=lease)


def drain(s: sender.Sender, until: Callable[[], bool], seconds: float = 20) -> None:
    end = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < end, "the messages did not arrive"
        if not s.once():
            time.sleep(0.05)


def test_a_pairing_writes_its_messages_in_its_own_transaction_and_a_refused_one_none(db_url: str) -> None:
    make_event(db_url, pair=False)
    with push_endpoint() as ep:
        subscribe_push(db_url, ep, ["ann", "bob"])
    with database(db_url) as engine:
        with Session(engine) as session, session.begin():
            service.pair(session, "ev")
            session.rollback()  # the pairing undone: its messages with it
        assert outbox(db_url) == []
        with Session(engine) as session, session.begin():
            service.pair(session, "ev")
    rows = outbox(db_url)
    assert sorted((m.player, m.kind, m.channel) for m in rows) == [("ann", "paired", "push"), ("bob", "paired", "push")]
    assert len({m.id for m in rows}) == 2 and all(m.sent_at is None for m in rows)


def test_email_through_the_organisers_smtp_server_carries_the_message_id(db_url: str) -> None:
    make_event(db_url, pair=False, display={"ann": "Ann Lee", "bob": "Bob Roy"})
    with smtp_server() as (url, got), database(db_url) as engine:
        with Session(engine) as session, session.begin():
            service.subscribe(session, "ev", "ann", "email", "ann@example.org")
            service.pair(session, "ev", seed=1)
            table = next(t for t in service.current_tables(session, service.get_event(session, "ev")) if "ann" in t.players)
        s = sender.Sender(engine, [sender.Email(sender.smtp_settings(url))], base_url="http://192.168.1.20:8000")
        drain(s, lambda: len(got.mails) == 1)
        (row,) = outbox(db_url)
        mail = got.mails[0]
        theirs = next(p for p in table.players if p != "ann")
        opponent = "Bob Roy" if theirs == "bob" else theirs  # names, never ids: cat and dan have no other
        assert mail.to == "ann@example.org" and mail.id == f"<{row.id}@spring-open.example>"
        assert mail.subject == f"Round 1: table {table.number} against {opponent}"
        assert f"Ann Lee, you play round 1 of Spring Open at table {table.number} against {opponent}." in mail.text
        assert "The round: http://192.168.1.20:8000/e/ev/round/1" in mail.text
        assert row.sent_at is not None and row.attempts == 0


def test_web_push_is_signed_by_the_servers_vapid_key_and_encrypted_for_the_browser(db_url: str) -> None:
    make_event(db_url, pair=False)
    with push_endpoint() as ep, database(db_url) as engine:
        subscribe_push(db_url, ep, ["ann", "bob", "cat", "dan"])
        with Session(engine) as session, session.begin():
            service.pair(session, "ev")
        s = push_sender(db_url, engine, ep)
        drain(s, lambda: len(ep.received) == 4)
        assert ep.problems == []
        ids = {m.id for m in outbox(db_url)}
        assert {p.id for p in ep.received} == ids and {p.topic for p in ep.received} == ids, "the id in the payload and the Topic"
        for p in ep.received:
            assert p.title.startswith("Round 1: table ") and p.url == "https://cup.example.org/e/ev/round/1"
        # a request signed with another key is what the endpoint refuses: the check can fail
        from tests.tournament.receivers import check_vapid

        assert check_vapid("vapid t=a.b.c, k=xyz", ep.vapid or "", ep.base) == "signed with another key than the server's"


def test_every_kind_of_message_reads_at_a_glance(db_url: str) -> None:
    # Round 1 paired, a claim to confirm, a judge's answer, the clock near its end, the event's final places (a
    # waitlist place and a registration come through the public page, the deck deadline in a test of its own).
    make_event(db_url, pair=False, display={"ann": "Ann Lee", "bob": "Bob Roy", "cat": "Cat", "dan": "Dan"})
    with push_endpoint() as ep, database(db_url) as engine:
        subscribe_push(db_url, ep, ["ann", "bob", "cat", "dan"])
        s = push_sender(db_url, engine, ep)
        with Session(engine) as session, session.begin():
            service.pair(session, "ev")
        (a, b), (c, d) = tables(db_url)
        with Session(engine) as session, session.begin():
            service.claim(session, "ev", a, result=service.Tally({a: 1, b: 0}, 0))
            call = service.call_judge(session, "ev", c, "a rules question")
            service.answer_call(session, "ev", call.number)
            service.start_round(session, "ev", 5)  # 5 minutes: already within 10 of its end
        drain(s, lambda: len(ep.received) == 4 + 1 + 1 + 4)
        told = {(p.endpoint, p.title) for p in ep.received}
        names = {"ann": "Ann Lee", "bob": "Bob Roy", "cat": "Cat", "dan": "Dan"}
        assert (b, f"{names[a]} reported {a} 1-0 {b}: is that right?") in told
        assert (c, "A judge is coming to table 2") in told
        assert sum(1 for _e, t in told if t.startswith("Round 1: time ends at ")) == 4
        confirm = next(p for p in ep.received if p.endpoint == b and "is that right" in p.title)
        assert confirm.url == "https://cup.example.org/me" and "Confirm it, or say it is not right, on your page." in confirm.body
        with Session(engine) as session, session.begin():
            service.confirm(session, "ev", b, a)
            service.claim(session, "ev", c, result=service.Tally({c: 1, d: 0}, 0))
            service.confirm(session, "ev", d, c)  # settled in its own transaction: nobody is asked to confirm it
            service.finish(session, "ev")
        drain(s, lambda: sum(1 for p in ep.received if "you finished" in p.title) == 4)
        finals = {p.endpoint: p.title for p in ep.received if "you finished" in p.title}
        assert finals[a].endswith("you finished 1st of 4") or finals[c].endswith("you finished 1st of 4")
        assert not any(f"reported {c} 1-0 {d}" in p.title for p in ep.received), "a claim that settled its table asks nobody"
        assert ep.problems == []


def test_the_deck_deadline_near_reminds_those_without_a_legal_list(db_url: str) -> None:
    from tests.tournament.decklib import deck_of, list_text

    make_event(db_url, pair=False, ruleset="crossover", display={"ann": "Ann Lee"})
    deadline = datetime.now(UTC) + timedelta(minutes=20)
    with push_endpoint() as ep, database(db_url) as engine:
        subscribe_push(db_url, ep, ["ann", "bob"])
        s = push_sender(db_url, engine, ep)
        with Session(engine) as session, session.begin():
            service.set_policy(session, "ev", "unpaired", deadline)
            service.register_lists(session, "ev", [service.Submitted("bob.txt", "bob", list_text(deck_of("bob")).encode())])
        drain(s, lambda: len(ep.received) == 1)
        (told,) = ep.received
        assert (told.endpoint, told.title) == ("ann", f"Deck deadline at {_hhmm(deadline)}")
        assert told.body.startswith("Ann Lee, Spring Open takes deck lists until") and "and you have no legal list registered yet" in told.body


def _hhmm(moment: datetime) -> str:
    return moment.astimezone().strftime("%H:%M")


def test_registration_and_a_waitlist_place_by_email_from_the_public_page(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cli(db, "create", "ev", "--seed", "1")
    with smtp_server() as (url, got), database(db) as engine:
        with Session(engine) as session, session.begin():
            service.set_registration(session, "ev", open=True, cap=1)
        monkeypatch.setenv("TOURNAMENT_SMTP", url)
        with client(db) as c:
            for name, address in (("Ann Lee", "ann@example.org"), ("Bob Roy", "bob@example.org")):
                c.cookies.clear()
                form = c.get("/e/ev/register").text
                assert 'name="email"' in form
                answer = c.post("/e/ev/register", data={"name": name, "email": address, "_csrf_token": csrf(form), "_key": _key(form)})
                assert answer.status_code == 200
        with Session(engine) as session, session.begin():
            service.set_registration(session, "ev", open=True, cap=2)  # room: Bob's place comes from the waitlist
        s = sender.Sender(engine, [sender.Email(sender.smtp_settings(url))], base_url="http://venue:8000")
        drain(s, lambda: len(got.mails) == 3)
        assert sorted((m.to, m.subject) for m in got.mails) == [
            ("ann@example.org", "ev: you are registered"),
            ("bob@example.org", "You have a place in ev"),
            ("bob@example.org", "ev: you are number 1 on the waitlist"),
        ]


def _key(page: str) -> str:
    import re

    found = re.search(r'name="_key" value="([^"]+)"', page)
    assert found
    return found.group(1)


def test_a_push_service_that_fails_is_tried_again_later_and_a_gone_subscription_is_forgotten(db_url: str) -> None:
    make_event(db_url, pair=False)
    with push_endpoint() as ep, database(db_url) as engine:
        subscribe_push(db_url, ep, ["ann", "bob"])
        ep.answers = {"ann": [500, 503], "bob": [410]}
        with Session(engine) as session, session.begin():
            service.pair(session, "ev")
        s = push_sender(db_url, engine, ep)
        s.once()
        rows = {m.player: m for m in outbox(db_url)}
        assert rows["ann"].sent_at is None and rows["ann"].attempts == 1 and "500" in (rows["ann"].failed or "")
        wait = (_utc(rows["ann"].due_at) - datetime.now(UTC)).total_seconds()
        assert sender.FIRST_RETRY * 0.8 < wait <= sender.FIRST_RETRY * 1.1, "the first retry waits about 5 s"
        assert rows["bob"].sent_at is not None and "gone" in (rows["bob"].failed or "")
        with Session(engine) as session:
            assert [x.player for x in session.scalars(select(Subscription))] == ["ann"], "bob's gone subscription is forgotten"
        later = [datetime.now(UTC) + timedelta(seconds=6)]
        s.once(lambda: later[0])  # the second try: 503, due again after about 10 s
        (ann,) = (m for m in outbox(db_url) if m.player == "ann")
        assert ann.attempts == 2 and (_utc(ann.due_at) - later[0]).total_seconds() > sender.FIRST_RETRY * 1.5
        later[0] += timedelta(seconds=12)
        s.once(lambda: later[0])
        assert [p.endpoint for p in ep.received] == ["ann"]
        assert sender.backoff(30) <= sender.LAST_RETRY * 1.1


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def test_two_senders_never_claim_the_same_message(db_url: str) -> None:
    make_event(db_url, players=[f"p{i}" for i in range(8)], pair=False)
    with push_endpoint() as ep, database(db_url) as engine:
        subscribe_push(db_url, ep, [f"p{i}" for i in range(8)])
        with Session(engine) as session, session.begin():
            service.pair(session, "ev")
        now = datetime.now(UTC)
        first = Session(engine)
        first.begin()
        mine, _ = sender.claim(first, ["push"], now, limit=5)
        if engine.dialect.name == "postgresql":  # SKIP LOCKED: the second claims the others while the first holds its rows
            with Session(engine) as second, second.begin():
                theirs, _ = sender.claim(second, ["push"], now, limit=8)
            first.commit()
        else:  # SQLite: one writer at a time (BEGIN IMMEDIATE); the second claims after the first commits
            first.commit()
            with Session(engine) as second, second.begin():
                theirs, _ = sender.claim(second, ["push"], now, limit=8)
        first.close()
        assert len(mine) == 5 and len(theirs) == 3 and not {o.id for o in mine} & {o.id for o in theirs}
        with Session(engine) as session, session.begin():  # a lapsed claim may be taken again: at least once
            again, _ = sender.claim(session, ["push"], now + sender.LEASE + timedelta(seconds=1))
        assert len(again) == 8


def subscribe_email(db_url: str, players: list[str]) -> None:
    with database(db_url) as engine, Session(engine) as session, session.begin():
        for p in players:
            service.subscribe(session, "ev", p, "email", f"{p}@example.org")


def test_a_slow_smtp_server_ends_the_batch_within_its_budget_and_the_rest_wait_untried(db_url: str) -> None:
    """E-mail goes one message at a time: a slow server must not keep a batch past its lease (another worker's
    sender would take the same messages and send them twice). What was not started is released, no try counted.
    Each DATA answered after 1 s, a budget of 1.5 s: the second starts within it, the third would not."""
    make_event(db_url, pair=False)
    subscribe_email(db_url, ["ann", "bob", "cat", "dan"])
    with smtp_server(delay=1.0) as (url, got), database(db_url) as engine:
        with Session(engine) as session, session.begin():
            service.pair(session, "ev")
        s = sender.Sender(engine, [sender.Email(sender.smtp_settings(url), budget=1.5)], base_url="http://venue:8000")
        started = time.monotonic()
        assert s.once() == 4
        assert len(got.mails) == 2 and time.monotonic() - started < 5, "two started within the budget, the rest left"
        waiting = [m for m in outbox(db_url) if m.sent_at is None]
        assert len(waiting) == 2 and all(m.attempts == 0 and m.claimed_until is None and m.failed is None for m in waiting)
        drain(s, lambda: len(got.mails) == 4)
        assert len({m.id for m in got.mails}) == 4, "each message once"


def test_a_hung_smtp_server_fails_the_batch_within_the_timeout_and_the_messages_wait(db_url: str) -> None:
    """A server that takes the connection and never answers: the batch fails after one timeout, not a hang of
    the sender; every message is due again later, one try counted."""
    import socket

    make_event(db_url, pair=False)
    subscribe_email(db_url, ["ann", "bob"])
    with socket.socket() as mute, database(db_url) as engine:
        mute.bind(("127.0.0.1", 0))
        mute.listen(4)  # accepts (the kernel does) and never greets
        with Session(engine) as session, session.begin():
            service.pair(session, "ev")
        channel = sender.Email(sender.smtp_settings(f"smtp://127.0.0.1:{mute.getsockname()[1]}"), timeout=0.5)
        started = time.monotonic()
        assert sender.Sender(engine, [channel], base_url="http://venue:8000").once() == 2
        assert time.monotonic() - started < 5
    rows = outbox(db_url)
    assert len(rows) == 2 and all(m.sent_at is None and m.attempts == 1 and "SMTP server" in (m.failed or "") for m in rows)


def test_a_reminder_is_written_once_however_often_it_is_seen_due(db_url: str) -> None:
    make_event(db_url)
    with push_endpoint() as ep, database(db_url) as engine:
        subscribe_push(db_url, ep, ["ann"])
        with Session(engine) as session, session.begin():
            service.start_round(session, "ev", 50)
        soon = datetime.now(UTC) + timedelta(minutes=45)
        with Session(engine) as session, session.begin():
            assert messages.due_reminders(session, datetime.now(UTC)) == 0, "not yet: 50 minutes left"
            assert messages.due_reminders(session, soon) == 1
            assert messages.due_reminders(session, soon + timedelta(minutes=1)) == 0
        with Session(engine) as session:
            assert session.scalar(select(func.count()).select_from(Message).filter_by(kind="clock")) == 1


def test_subscriptions_are_checked(db: str) -> None:
    make_event(db)
    with database(db) as engine, Session(engine) as session:
        for channel, address, keys, said in [
            ("email", "not an address", {}, "email: an address like"),
            ("push", "http://192.168.1.5/push", {"p256dh": "A" * 87, "auth": "A" * 22}, "endpoint: a push service's https:// URL"),
            ("push", "https://push.example/x", {"p256dh": "short", "auth": "A" * 22}, "p256dh: the browser's key, 65 bytes"),
            ("sms", "+44 1234", {}, "channel: email or push"),
        ]:
            with pytest.raises(service.Usage, match=said):
                service.subscribe(session, "ev", "ann", channel, address, **keys)
        with pytest.raises(service.NotFound):
            service.subscribe(session, "ev", "nobody", "email", "x@example.org")
        for i in range(messages.MAX_SUBSCRIPTIONS):
            service.subscribe(session, "ev", "ann", "email", f"ann{i}@example.org")
        with pytest.raises(service.Conflict, match="at most 5"):
            service.subscribe(session, "ev", "ann", "email", "one-more@example.org")
    assert sender.smtp_settings("smtps://u:p%40ss@mail.example.org?from=cup@example.org").password == "p@ss"
    with pytest.raises(service.Usage, match="--smtp: smtp://host"):
        sender.smtp_settings("http://mail.example.org")


def test_a_push_endpoint_on_this_machine_or_the_venues_network_is_refused_even_over_https(db: str) -> None:
    """The server posts to whatever endpoint a player gives: an https:// one at this machine or an internal address
    would have it send requests into the venue's network for anyone signed in with a slip's code."""
    make_event(db)
    keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}
    with database(db) as engine, Session(engine) as session:
        for endpoint in ("https://127.0.0.1/push", "https://192.168.1.5:8443/admin", "https://[::1]/x", "https://10.0.0.2/",
                         "https://169.254.169.254/latest", "https://localhost/x", "https://[fd00::1]/x"):
            with pytest.raises(service.Usage, match="not an address of this machine or its network"):
                service.subscribe(session, "ev", "ann", "push", endpoint, **keys)
        assert session.scalars(select(Subscription)).all() == []
        row = service.subscribe(session, "ev", "ann", "push", "https://fcm.googleapis.com/fcm/send/abc", **keys)
        assert row.address == "https://fcm.googleapis.com/fcm/send/abc"


def test_the_players_page_offers_email_and_says_plainly_why_not_push_over_plain_http(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    make_event(db)
    keys = codes(db)
    monkeypatch.setenv("TOURNAMENT_SMTP", "smtp://127.0.0.1:1")
    with client(db) as c:
        player_page(c, keys["ann"])
        page = c.get("/me").text
        assert "phones allow push messages only from a secure (https://) site" in page
        assert "Get your messages by e-mail below, or keep this page open" in page and 'id="push-form"' not in page
        done = c.post("/me/messages/email", data={"email": "ann@example.org", "_csrf_token": csrf(page), "_key": _key(page)})
        assert done.status_code == 200 and "Your pairings and results will come to ann@example.org." in done.text
        assert "E-mail to ann@example.org" in done.text
        with database(db) as engine, Session(engine) as session:
            (sub,) = service.subscriptions(session, "ev", "ann")
        stopped = c.post("/me/messages/stop", data={"subscription": str(sub.id), "_csrf_token": csrf(done.text), "_key": _key(done.text)})
        assert "No more messages to ann@example.org." in stopped.text
        assert c.get("/manifest.webmanifest").json()["start_url"] == "/me"
        worker = c.get("/sw.js")
        assert worker.headers["content-type"].startswith("text/javascript") and "showNotification" in worker.text
    with client(db) as c:  # on this machine (a secure context) push is offered, with the server's VAPID key
        c.base_url = c.base_url.copy_with(host="localhost")
        player_page(c, codes(db)["bob"])
        page = c.get("/me").text
        assert 'id="push-form" ' not in page and 'data-vapid="B' in page


def test_without_the_push_extra_the_server_runs_and_says_push_is_not_offered(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    make_event(db)
    keys = codes(db)
    monkeypatch.setitem(sys.modules, "pywebpush", None)  # as if not installed: importing it fails
    assert sender.push_missing() == "this server was installed without Web Push (pip install 'headjudge[push]')"
    with client(db) as c:
        c.base_url = c.base_url.copy_with(host="localhost")
        player_page(c, keys["ann"])
        page = c.get("/me").text
        assert "this server was installed without Web Push" in page and "data-vapid" not in page


def test_the_outbox_migration_runs_on_a_database_with_data(db_url: str) -> None:
    from alembic import command

    from tournament.storage.dbinfo import alembic_config

    make_event(db_url)
    with database(db_url) as engine:
        config = alembic_config()
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0019")
    assert "chain intact" in cli(db_url, "verify", "ev").stdout  # migrates up to the outbox first
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.subscribe(session, "ev", "ann", "email", "ann@example.org")
        service.start_round(session, "ev", 5)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        assert messages.due_reminders(session) == 1


def test_tournament_send_says_what_is_wrong_in_one_line_and_reports_with_json(db: str) -> None:
    make_event(db, pair=False)
    with smtp_server() as (url, got):
        with database(db) as engine, Session(engine) as session, session.begin():
            service.subscribe(session, "ev", "ann", "email", "ann@example.org")
            service.pair(session, "ev")
        refused = cli(db, "send", "--smtp", "http://mail.example.org", "--once", code=2)
        assert refused.stderr.strip().splitlines() == ["tournament: --smtp: smtp://host[:port] or smtps://host[:port], not 'http://mail.example.org'"]
        report = cli_json(db, "send", "--smtp", url, "--once")
        assert report["claimed"] == 1 and report["pending"] == 0 and "email" in report["channels"]
        assert [m.to for m in got.mails] == ["ann@example.org"]


def test_the_json_twins_subscribe_list_and_stop(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.tournament.webkit import sign_in

    make_event(db)
    keys = codes(db)
    with client(db) as c:
        ann = sign_in(c, keys["ann"])
        refused = c.post("/api/me/messages", headers=ann, json={"channel": "email", "address": "ann@example.org"})
        assert refused.status_code == 409 and "no SMTP server" in refused.json()["error"]
        with push_endpoint() as ep:
            b = ep.browser("ann")
        local = c.post("/api/me/messages", headers=ann, json={"channel": "push", "address": b.endpoint, "p256dh": b.p256dh, "auth": b.auth_text})
        assert local.status_code == 400, "no player makes the server post to a plain-HTTP service of its own machine"
        b.endpoint = "https://push.example.org/send/ann"
        made = c.post("/api/me/messages", headers=ann, json={"channel": "push", "address": b.endpoint, "p256dh": b.p256dh, "auth": b.auth_text})
        assert made.status_code == 201 and made.json()["channel"] == "push"
        bad = c.post("/api/me/messages", headers=ann, json={"channel": "push", "address": "http://10.0.0.1/x", "p256dh": b.p256dh, "auth": b.auth_text})
        assert bad.status_code == 400 and "endpoint: a push service's https:// URL" in bad.json()["error"]
        assert [w["address"] for w in c.get("/api/me/messages", headers=ann).json()] == [b.endpoint]
        assert c.get("/api/me/messages").status_code == 401
        left = c.post(f"/api/me/messages/{made.json()['id']}/stop", headers=ann)
        assert left.status_code == 201 and left.json() == []
    monkeypatch.setenv("TOURNAMENT_SMTP", "smtp://127.0.0.1:1")
    with client(db) as c:
        bob = sign_in(c, keys["bob"])
        assert c.post("/api/me/messages", headers=bob, json={"channel": "email", "address": "bob@example.org"}).status_code == 201


def test_sent_messages_are_pruned_after_a_week_and_given_up_ones_after_a_month_a_few_at_a_time(db_url: str) -> None:
    players = [f"p{i}" for i in range(6)]
    make_event(db_url, players=players, pair=False)
    with smtp_server() as (url, _got), database(db_url) as engine:
        with Session(engine) as session, session.begin():
            for p in players:
                service.subscribe(session, "ev", p, "email", f"{p}@example.org")
            service.pair(session, "ev")
        now = datetime.now(UTC)
        ages: dict[str, tuple[int, str | None]] = {  # days since sent (or given up), and why it failed
            "p0": (8, None), "p1": (6, None), "p2": (8, "refused"), "p3": (31, "refused"), "p4": (8, sender.STOPPED),
        }
        with Session(engine) as session, session.begin():
            for m in session.scalars(select(Message)):
                if m.player in ages:  # p5's is not sent yet: never pruned
                    m.sent_at, m.failed = now - timedelta(days=ages[m.player][0]), ages[m.player][1]
        with Session(engine) as session, session.begin():
            assert sender.prune(session, now, limit=2) == 2, "a bounded delete"
        s = sender.Sender(engine, [sender.Email(sender.smtp_settings(url))], base_url="http://venue:8000")
        s.once()  # the sender prunes as it looks for reminders; and sends p5's
        assert sorted(m.player for m in outbox(db_url)) == ["p1", "p2", "p5"]


def test_the_organiser_sees_the_messages_given_up_on_a_page_and_with_send_failed(db_url: str) -> None:
    make_event(db_url, pair=False, display={"ann": "Ann Lee", "bob": "Bob Roy"})
    with push_endpoint() as ep, database(db_url) as engine:
        subscribe_push(db_url, ep, ["ann", "bob", "cat"])
        ep.answers = {"ann": [400]}
        with Session(engine) as session, session.begin():
            (cat,) = service.subscriptions(session, "ev", "cat")
            service.pair(session, "ev")
            service.unsubscribe(session, "ev", "cat", cat.id)  # stopped before it went: not a failure
        drain(push_sender(db_url, engine, ep), lambda: len(ep.received) == 1)
    (failed,) = cli_json(db_url, "send", "--failed")["failed"]
    assert datetime.fromisoformat(failed.pop("given_up_at")) <= datetime.now(UTC)
    assert failed == {
        "id": next(m.id for m in outbox(db_url) if m.player == "ann"), "event": "ev", "event_name": "Spring Open", "player": "Ann Lee",
        "kind": "paired", "channel": "push", "address": "a browser (push by 127.0.0.1)", "attempts": 1,
        "reason": "the push service refused the message: 400",
    }
    said = cli(db_url, "send", "--failed").stdout
    assert "paired to Ann Lee in Spring Open by push (a browser (push by 127.0.0.1)), 1 tries: the push service refused" in said
    codes(db_url)
    with client(db_url) as c:
        from tests.tournament.webkit import organiser_page

        organiser_page(c)
        page = c.get("/admin/messages").text
        assert "Ann Lee, Spring Open" in page and "the push service refused the message: 400" in page and "Bob Roy" not in page
        assert 'id="messages-link"' in c.get("/admin").text
