"""Player cards (T-181, T-182): a person's own sign-in that outlives an event, and its attackers."""

from __future__ import annotations

import html
import re

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tests.tournament.webkit import (
    ORGANISER_TOKEN,
    bearer,
    client,
    codes,
    csrf,
    database,
    make_event,
    organiser,
    organiser_page,
    player_page,
)
from tournament import service
from tournament.service import tokens
from tournament.service.verification import verify
from tournament.storage.models import Credential, FailedGuess, LogEntry, Person


def card_for(db_url: str, person: str) -> str:
    with database(db_url) as engine, Session(engine) as session, session.begin():
        return service.new_card(session, person)


def card_page(c: object, card: str) -> str:
    """Sign the test client in with a card through the page form: the CSRF token of the page it lands on."""
    token = csrf(c.get("/card").text)  # type: ignore[attr-defined]
    answer = c.post("/card", data={"code": card, "_csrf_token": token})  # type: ignore[attr-defined]
    assert answer.status_code == 200, answer.text
    return csrf(answer.text)


def test_a_card_signs_its_person_in_as_a_person_on_the_page_and_the_api(db_url: str) -> None:
    make_event(db_url, pair=False)
    card = card_for(db_url, "ann")
    with client(db_url) as c:
        joined = c.post("/api/card", json={"code": card})
        assert joined.status_code == 201 and joined.json()["role"] == "person" and joined.json()["person"] == "ann"
        mine = c.get("/api/me/person", headers=bearer(joined.json()["session"]))
        assert mine.status_code == 200 and mine.json()["id"] == "ann" and [e["event"] for e in mine.json()["events"]] == ["ev"]
        again = c.post("/api/card", json={"code": card})  # a card is kept, not spent: every phone of its person
        assert again.status_code == 201 and again.json()["session"] != joined.json()["session"]
    with client(db_url) as c:
        card_page(c, card)
        page = c.get("/me")
        assert page.status_code == 200 and "<h1>ann</h1>" in page.text and "Spring Open" in page.text
    with database(db_url) as engine, Session(engine) as session:
        who = service.identify(session, joined.json()["session"])
        assert who == service.Identity("person", None, None, person="ann")


def test_a_wrong_card_is_a_counted_guess_and_too_many_lock_it(db_url: str) -> None:
    make_event(db_url, pair=False)
    card = card_for(db_url, "ann")
    selector = card.partition(".")[0]
    with client(db_url) as c:
        for _ in range(tokens.CODE_LIMIT):
            wrong = c.post("/api/card", json={"code": f"{selector}.{'x' * 32}"})
            assert wrong.status_code == 401 and "not valid" in wrong.json()["error"]
        locked = c.post("/api/card", json={"code": card})  # the right card too, once its selector was guessed at
        assert locked.status_code == 429 and "locked" in locked.json()["error"]
        made_up = c.post("/api/card", json={"code": "nobody.nothing"})
        assert made_up.status_code == 401
    with database(db_url) as engine, Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(FailedGuess).where(FailedGuess.client == f"code {selector}")) == tokens.CODE_LIMIT
        assert session.scalar(select(func.count()).select_from(Credential).filter_by(kind="person_session")) == 0


def test_a_renewed_card_ends_the_old_card_and_every_session_it_opened(db_url: str) -> None:
    make_event(db_url, pair=False)
    old = card_for(db_url, "ann")
    with client(db_url) as c:
        phone = c.post("/api/card", json={"code": old}).json()["session"]
        token = card_page(c, old)
        renewed = c.post("/me/card", data={"_csrf_token": token})  # the person renews it from their page
        assert renewed.status_code == 200 and "Your new player card" in renewed.text
        new = re.search(r'<code class="card-code">([^<]+)</code>', renewed.text)
        assert new is not None and new.group(1) != old
        assert c.get("/me").status_code == 200 and "<h1>ann</h1>" in c.get("/me").text, "this phone is signed in again"
        assert c.get("/api/me/person", headers=bearer(phone)).status_code == 401, "the other phone's session ended"
        assert c.post("/api/card", json={"code": old}).status_code == 401, "the old card is refused"
        assert c.post("/api/card", json={"code": new.group(1)}).status_code == 201
        assert "card-code" not in c.get(renewed.url).text, "a card is shown once"


def test_a_replayed_card_form_gives_no_second_session(db_url: str) -> None:
    make_event(db_url, pair=False)
    card = card_for(db_url, "ann")
    with client(db_url) as c:
        token = csrf(c.get("/card").text)
        first = c.post("/card", data={"code": card, "_csrf_token": token, "_key": "k" * 22}, follow_redirects=False)
        assert first.status_code == 303 and "hj_session=" in first.headers.get("set-cookie", "")
    with client(db_url) as thief:  # the same request sent again (a captured form): its answer carried a session, given once
        token = csrf(thief.get("/card").text)
        replay = thief.post("/card", data={"code": card, "_csrf_token": token, "_key": "k" * 22}, follow_redirects=False)
        assert replay.status_code == 303 and "hj_session=" not in replay.headers.get("set-cookie", "")


def test_a_slip_code_makes_the_first_card_but_never_a_second(db_url: str) -> None:
    make_event(db_url, pair=False)
    slips = codes(db_url)
    with client(db_url) as c:
        token = player_page(c, slips["ann"])
        made = c.post("/me/card", data={"_csrf_token": token})
        assert made.status_code == 200 and 'class="card-code"' in made.text and "<svg" in made.text
        again = c.post("/me/card", data={"_csrf_token": token})
        assert "you have a player card already" in again.text and 'class="card-code"' not in again.text


def test_the_organiser_prints_a_card_from_the_persons_page(db_url: str) -> None:
    make_event(db_url, pair=False)
    with client(db_url) as c:
        codes(db_url)
        token = organiser_page(c)
        printed = c.post("/admin/people/bob/card", data={"_csrf_token": token})
        assert printed.status_code == 200 and "A new player card for bob" in printed.text
        card = re.search(r'<code class="card-code">([^<]+)</code>', printed.text)
        assert card is not None and c.post("/api/card", json={"code": card.group(1)}).json()["person"] == "bob"
    with client(db_url) as c:
        assert c.get("/admin/people/bob/card").status_code == 401
    assert ORGANISER_TOKEN


def test_every_new_form_refuses_a_request_without_its_csrf_token(db_url: str) -> None:
    make_event(db_url, pair=False)
    card = card_for(db_url, "ann")
    with client(db_url) as c:
        codes(db_url)
        organiser_page(c)
        card_page(c, card)
        for path in (
            "/card", "/me/card", "/me/register/ev", "/me/claim", "/admin/people/bob/card", "/admin/people/bob/merge",
            "/admin/people/bob/split", "/admin/e/ev/link",
        ):
            forged = c.post(path, data={"code": card}, follow_redirects=False)
            assert forged.status_code == 403, path


def test_one_tap_registers_the_person_as_themselves_and_the_waitlist_keeps_who_they_are(db_url: str) -> None:
    make_event(db_url, ("ann", "bob"), pair=False)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.create_event(session, "next", name="Next Open", ruleset="cardwars", profile="mtg", best_of=1, seed=1)
        service.set_registration(session, "next", open=True, cap=1)
    with client(db_url) as c:
        token = card_page(c, card_for(db_url, "ann"))
        assert 'id="register-next"' in c.get("/me").text and 'id="register-ev"' not in c.get("/me").text  # open, not in it
        done = c.post("/me/register/next", data={"_csrf_token": token})
        assert "You are registered for Next Open" in done.text and 'id="register-next"' not in done.text
        again = c.post("/me/register/next", data={"_csrf_token": token})
        assert "registered for Next Open already" in again.text
    with client(db_url) as c:  # bob finds it full: the waitlist, as bob, and the place, as bob, once there is room
        token = card_page(c, card_for(db_url, "bob"))
        waits = c.post("/me/register/next", data={"_csrf_token": token}).text
        assert "number 1 on its waitlist" in waits and "On the waitlist of Next Open" in waits
    with database(db_url) as engine, Session(engine) as session, session.begin():
        assert {p.name: p.person for p in service.players(session, "next")} == {"ann": "ann"}
        wanted = select(LogEntry.type, LogEntry.actor).filter_by(event_id="next").where(LogEntry.type.in_(("player_registered", "waitlist_joined")))
        by = {kind: actor for kind, actor in session.execute(wanted)}
        assert by == {"player_registered": "person:ann", "waitlist_joined": "person:bob"}, "one tap is the person's, in the log"
        service.set_registration(session, "next", open=True, cap=2)
        assert {p.name: p.person for p in service.players(session, "next")} == {"ann": "ann", "bob": "bob"}
    with database(db_url) as engine, Session(engine) as session:
        assert verify(session, "next").ok


def test_a_person_claims_an_entry_with_its_slip_code_and_the_change_is_recorded(db_url: str) -> None:
    make_event(db_url, ("ann", "bob"), pair=False)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.create_event(session, "next", name="Next Open", ruleset="cardwars", profile="mtg", best_of=1, seed=1)
        service.register_people(session, "next", [service.Person("Ann", "ann-x"), service.Person("Bob", "bob-x", person="bob")])
        slip = service.issue_code(session, "next", "ann-x")
        bobs = service.issue_code(session, "next", "bob-x")
    with client(db_url) as c:
        token = card_page(c, card_for(db_url, "ann"))
        wrong = c.post("/me/claim", data={"_csrf_token": token, "code": slip.partition(".")[0] + ".wrong"})
        assert "not valid" in wrong.text
        claimed = c.post("/me/claim", data={"_csrf_token": token, "code": slip})
        assert "Your entry in Next Open (Ann) is yours now" in claimed.text
        assert "already used" in c.post("/me/claim", data={"_csrf_token": token, "code": slip}).text
        taken = c.post("/me/claim", data={"_csrf_token": token, "code": bobs})  # bob's: bob has played before, not a new person
        assert "who has played other events or holds a player card" in taken.text
    with database(db_url) as engine, Session(engine) as session:
        assert {p.name: p.person for p in service.players(session, "next")} == {"ann-x": "ann", "bob-x": "bob"}
        assert session.get(Person, "ann-x") is None, "the person made for the entry went with it"
        [change, *_] = [c for c in service.person_changes(session, "ann") if c.action == "claim"]
        assert (change.actor, change.reason, change.players) == ("person:ann", "claimed with the entry's slip code", "next/ann-x")
        linked = session.scalars(select(LogEntry.actor).filter_by(event_id="next", type="player_linked")).all()
        assert linked == ["person:ann"], "the event's log names who claimed it"
        assert session.scalar(select(func.count()).select_from(FailedGuess)) >= 1, "the wrong code was counted"
        assert verify(session, "next").ok
        assert session.scalar(select(Credential.used_at).filter_by(event_id="next", player="bob-x", kind="code")) is None, "bob's code is unspent"


def test_the_organiser_merges_and_splits_people_with_a_reason_and_namesakes_are_told_apart(db_url: str) -> None:
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)
        for event, name in (("one", "Spring Open"), ("two", "Summer Open")):
            service.create_event(session, event, name=name, ruleset="cardwars", profile="mtg", best_of=1, seed=1, rated=True)
        service.register_people(session, "one", [service.Person("Ann Lee"), service.Person("Bob")])
        service.register_people(session, "two", [service.Person("ANN LÉE"), service.Person("", person="bob")])
    with client(db_url) as c:
        public = c.get("/people").text
        assert "Ann Lee</a> <span class=\"who\">(Spring Open)</span>" in public and "(Summer Open)" in public
        assert {p["label"] for p in c.get("/api/people").json()} == {"Spring Open", "Summer Open", None}
        token = organiser_page(c)
        chooser = re.search(r'<select name="other" required>\n(<option[^>]*>)', c.get("/admin/people/ann-lee").text)
        assert chooser is not None and chooser.group(1) == '<option value="">', "no one is merged away unless chosen"
        refused = c.post("/admin/people/ann-lee/merge", data={"_csrf_token": token, "other": "ann-lee-2", "reason": ""})
        assert "say why they are one person" in refused.text
        merged = c.post("/admin/people/ann-lee/merge", data={"_csrf_token": token, "other": "ann-lee-2", "reason": "one Ann, said she"})
        assert "ANN LÉE is Ann Lee now" in merged.text and "merge by organiser (Summer Open: ANN LÉE): “one Ann, said she”" in merged.text
        assert '(Spring Open)' not in c.get("/people").text, "no namesake left: no label"
        split = c.post("/admin/people/ann-lee/split", data={"_csrf_token": token, "entry": "two/ann-lee", "name": "Ann Lee", "reason": "two Anns after all"})
        assert "1 entry split off: they are Ann Lee now" in split.text
        assert "split by organiser (Summer Open: ANN LÉE): “two Anns after all”" in split.text
        csv = c.get("/admin/e/two/files/standings.csv").text.splitlines()
        assert csv[0].startswith("rank,player,person,") and any(",Ann Lee (Summer Open)," in line for line in csv[1:])
        board = c.get("/people").text
        assert "(Spring Open)" in board and "(Summer Open)" in board
    with database(db_url) as engine, Session(engine) as session:
        assert {p.name: p.person for p in service.players(session, "two")} == {"ann-lee": "ann-lee-2", "bob": "bob"}
        assert [c.action for c in service.person_changes(session)] == ["split", "merge"]
        kinds = session.execute(select(LogEntry.type, LogEntry.actor).filter_by(event_id="two").order_by(LogEntry.seq)).all()
        assert [tuple(k) for k in kinds[-2:]] == [("player_linked", "organiser")] * 2, "each names who made it"
        assert {c.actor for c in service.person_changes(session)} == {"organiser"}
        assert verify(session, "two").ok


def test_the_migration_keeps_a_previous_schemas_sessions_and_people_and_verify_passes(db_url: str) -> None:
    """0018 on a database of the revision before with data: events, people, a link, a waitlist, codes and sessions;
    then cards work."""
    from alembic import command
    from alembic.script import ScriptDirectory

    from tests.tournament.tlib import cli
    from tournament.storage.db import make_engine
    from tournament.storage.dbinfo import alembic_config

    make_event(db_url, ("ann", "bob", "cat"), pair=False)
    slips = codes(db_url)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.create_event(session, "next", name="Next Open", ruleset="cardwars", profile="mtg", best_of=1, seed=1)
        service.register_people(session, "next", [service.Person("Ann")])
        service.link(session, "next", "ann", "ann", "the same Ann")
        service.set_registration(session, "next", open=True, cap=1)
        service.sign_up(session, "next", "Dee")
        phone = service.exchange_code(session, slips["bob"], "test")[1]
        service.new_card(session, "cat")  # a card of this code's: the downgrade drops it
    engine = make_engine(db_url)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        before = ScriptDirectory.from_config(config).get_revision("0018").down_revision
        assert isinstance(before, str)
        command.downgrade(config, before)
    engine.dispose()
    for event in ("ev", "next"):
        cli(db_url, "verify", event)  # every command migrates to the newest revision first
    with database(db_url) as engine, Session(engine) as session, session.begin():
        assert service.identify(session, phone) == service.Identity("player", "ev", "bob"), "a session of before still works"
        assert service.exchange_code(session, slips["ann"], "test")[0].player == "ann"
        assert not service.has_card(session, "cat")
        card = service.new_card(session, "cat")
    with client(db_url) as c:
        assert c.post("/api/card", json={"code": card}).json()["person"] == "cat"


def test_the_organiser_registering_a_namesake_in_the_browser_is_warned(db_url: str) -> None:
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)
        for event, name in (("one", "Spring Open"), ("two", "Summer Open")):
            service.create_event(session, event, name=name, ruleset="cardwars", profile="mtg", best_of=1, seed=1)
        service.register_people(session, "one", [service.Person("Ann Lee")])
    with client(db_url) as c:
        said = c.post("/api/admin/events/two/players", json={"players": [{"name": "ANN LÉE"}, {"name": "Bob"}]}, headers=organiser(c))
        assert said.status_code == 201, said.text
        assert said.json()["message"] == (
            "registered ANN LÉE, Bob. Namesakes: ANN LÉE may be Ann Lee (Spring Open) (link them on the registration page)"
        )


def test_a_refused_claim_names_the_event_and_the_entry_not_their_ids(db_url: str) -> None:
    """A person reads the answer to a claim on their own page: names, never ids (an own entry; a second entry
    in an event they play already)."""
    make_event(db_url, ("ann", "bob"), pair=False)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.create_event(session, "next", name="Next Open", ruleset="cardwars", profile="mtg", best_of=1, seed=1)
        service.register_people(session, "next", [service.Person("Ann", "ann-x", person="ann"), service.Person("Ann B", "ann-y")])
        own = service.issue_code(session, "next", "ann-x")
        second = service.issue_code(session, "next", "ann-y")
    with client(db_url) as c:
        token = card_page(c, card_for(db_url, "ann"))
        mine = _alert(c.post("/me/claim", data={"_csrf_token": token, "code": own}).text)
        assert mine == "that entry in Next Open is yours already"
        twice = _alert(c.post("/me/claim", data={"_csrf_token": token, "code": second}).text)
        assert twice == "ann plays Next Open already, as Ann: a person plays an event once"
    with database(db_url) as engine, Session(engine) as session:
        assert {p.name: p.person for p in service.players(session, "next")} == {"ann-x": "ann", "ann-y": "ann-y"}, "refused: nothing moved"


def _alert(page: str) -> str:
    """The refusal a page shows, as its reader reads it."""
    found = re.search(r'<div class="box bad" role="alert">(.*?)</div>', page, re.S)
    assert found is not None, page
    return html.unescape(found.group(1))
