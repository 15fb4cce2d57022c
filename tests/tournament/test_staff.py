"""Staff members (issue 35, T-172..T-177): the organiser names them on a page, each signs in with their own code
(shown once as a QR), their rulings name them in the log, and revoking them ends their sessions at once.
Attacks: a judge reaching organiser actions, a revoked judge's open page, a staff member of another event,
CSRF on every new form."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from litestar.testing import TestClient
from sqlalchemy.orm import Session

from tests.tournament.tlib import cli, cli_json
from tests.tournament.webkit import (
    ORGANISER_TOKEN,
    bearer,
    client,
    codes,
    csrf,
    database,
    entries,
    everything,
    head,
    make_event,
    organiser,
    organiser_page,
    sign_in,
)
from tournament import service


def name_on_page(c: TestClient, token: str, name: str, role: str, event: str = "") -> str:  # type: ignore[type-arg]
    """Name a staff member through the staff page's form: the sign-in code it shows, once."""
    answer = c.post("/admin/staff", data={"name": name, "role": role, "event": event, "_csrf_token": token})
    assert answer.status_code == 200, answer.text
    found = re.search(r"/join#code=([A-Za-z0-9_.-]+)", answer.text)
    assert found and "<svg" in answer.text, "the code is shown with its QR"
    assert "/join#code=" not in c.get(str(answer.url)).text, "the code is shown once"
    return found.group(1)


def staff_signs_in(c: TestClient, code: str) -> dict[str, str]:  # type: ignore[type-arg]
    joined = c.post("/api/join", json={"code": code})
    assert joined.status_code == 201, joined.text
    assert joined.json()["role"] in service.STAFF_ROLES and joined.json()["staff"]
    return bearer(joined.json()["session"])


def claim(c: TestClient, slip: dict[str, str], winner: str, loser: str) -> None:  # type: ignore[type-arg]
    assert c.post("/api/me/claim", json={"games": {winner: 1, loser: 0}}, headers=sign_in(c, slip[winner])).status_code == 201


def test_a_judge_named_on_the_page_signs_in_with_their_own_code_and_the_log_names_their_ruling(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    slip = codes(db_url)
    with client(db_url) as c:
        token = organiser_page(c)
        code = name_on_page(c, token, "Jo Judge", "judge", "ev")
        assert "Jo Judge" in c.get("/admin/staff").text
        c.cookies.clear()
        page_token = csrf(c.get("/join").text)  # on a phone: the QR's link signs in at /join, as a player's does
        landed = c.post("/join", data={"code": code, "_csrf_token": page_token})
        assert landed.status_code == 200 and str(landed.url).endswith("/admin"), landed.url
        assert "Signed in as staff: judge" in landed.text
        assert "Spring Open" in c.get("/admin/e/ev").text  # the event's page, read as its judge
        claim(c, slip, "ann", "bob")
        page_token = csrf(c.get("/admin/e/ev").text)
        ruled = c.post("/admin/e/ev/rule", data={"table": "1", "accept": "ann", "reason": "saw the last game", "_csrf_token": page_token})
        assert "table 1: ruled" in ruled.text
        assert "Jo Judge (judge)" in c.get("/admin/e/ev").text  # the event's page shows who ruled
    ruling = next(e for e in cli_json(db_url, "log", "ev") if e["type"] == "claim_ruled")
    assert (ruling["actor"], ruling["by"]) == ("staff:jo-judge", "Jo Judge (judge)")


def test_a_judge_cannot_reach_the_organisers_actions(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    codes(db_url)
    with client(db_url) as c:
        boss = organiser(c)
        made = c.post("/api/admin/staff", json={"name": "Jo Judge", "role": "judge", "event": "ev"}, headers=boss)
        assert made.status_code == 201, made.text
        judge = staff_signs_in(c, made.json()["code"])
        before = everything(db_url)
        for path, body in [
            ("/api/admin/staff", {"name": "Mallory", "role": "organiser"}),  # naming themselves an organiser
            ("/api/admin/staff/jo-judge/code", {}),
            ("/api/admin/events", {"id": "x", "name": "X", "ruleset": "cardwars"}),
            ("/api/admin/events/ev/pair", {}),
            ("/api/admin/events/ev/finish", {}),
            ("/api/admin/events/ev/codes", {"player": "ann"}),  # a player's sign-in: who they are
            ("/api/admin/events/ev/decks/publish", {}),
        ]:
            refused = c.post(path, json=body, headers=judge)
            assert refused.status_code == 403 and "not a judge" in refused.json()["error"], (path, refused.text)
        assert c.get("/api/admin/staff", headers=judge).status_code == 403
        assert everything(db_url) == before


def test_staff_of_one_event_cannot_act_on_another(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    make_event(db_url, ["eve", "fay"], event="other", name="Other Cup")
    slip = codes(db_url, "other")
    with client(db_url) as c:
        boss = organiser(c)
        made = c.post("/api/admin/staff", json={"name": "Jo Judge", "role": "head-judge", "event": "ev"}, headers=boss)
        judge = staff_signs_in(c, made.json()["code"])
        claim(c, slip, "eve", "fay")
        seq = head(db_url, "other")
        refused = c.post("/api/admin/events/other/rule", json={"table": 1, "reason": "mine", "accept": "eve"}, headers=judge)
        assert refused.status_code == 403 and "another event" in refused.json()["error"]
        assert c.get("/api/admin/events/other/tables", headers=judge).status_code == 403
        assert head(db_url, "other") == seq
        assert c.post("/api/admin/events/ev/clock", json={"minutes": 50}, headers=judge).status_code == 201  # their own event


def test_a_revoked_judges_open_page_can_do_nothing(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    slip = codes(db_url)
    with client(db_url) as judge_phone, client(db_url) as boss:
        token = organiser_page(boss)
        code = name_on_page(boss, token, "Jo Judge", "judge")
        page_token = csrf(judge_phone.get("/join").text)
        judge_phone.post("/join", data={"code": code, "_csrf_token": page_token})
        claim(judge_phone, slip, "ann", "bob")
        open_page = judge_phone.get("/admin/e/ev").text  # the judge's page, open on their phone
        form_token = csrf(open_page)
        staff_page = boss.get("/admin/staff").text
        revoked = boss.post("/admin/staff/revoke", data={"staff": "jo-judge", "_csrf_token": csrf(staff_page)})
        assert "Jo Judge is revoked" in revoked.text and "(revoked" in revoked.text
        before = everything(db_url)
        ruled = judge_phone.post("/admin/e/ev/rule", data={"table": "1", "accept": "ann", "reason": "too late", "_csrf_token": form_token})
        assert ruled.status_code == 401
        assert everything(db_url) == before
        assert judge_phone.get("/admin").text.count('id="token"') == 1  # signed out: the sign-in form
        again = boss.post("/admin/staff/code", data={"staff": "jo-judge", "_csrf_token": csrf(staff_page)})
        assert "was revoked" in again.text  # no new code for a revoked member: name them again
    assert entries(db_url, "claim_ruled") == 0


def test_a_new_code_ends_the_old_code_and_sessions(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    codes(db_url)
    with client(db_url) as c:
        boss = organiser(c)
        made = c.post("/api/admin/staff", json={"name": "Sam", "role": "scorekeeper"}, headers=boss).json()
        keeper = staff_signs_in(c, made["code"])
        assert c.post("/api/admin/events/ev/clock", json={"minutes": 50}, headers=keeper).status_code == 201
        fresh = c.post(f"/api/admin/staff/{made['staff']['id']}/code", headers=boss)
        assert fresh.status_code == 201 and fresh.json()["code"] != made["code"]
        assert c.post("/api/admin/events/ev/notice", json={"text": "hi"}, headers=keeper).status_code == 401
        assert c.post("/api/join", json={"code": made["code"]}).status_code == 401
        assert c.post("/api/admin/events/ev/notice", json={"text": "hi"}, headers=staff_signs_in(c, fresh.json()["code"])).status_code == 201


def test_an_organiser_names_further_organisers_and_the_token_only_starts_it(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    codes(db_url)
    with client(db_url) as c:
        boss = organiser(c)
        assert c.post("/api/admin/events/ev/notice", json={"text": "before"}, headers=boss).status_code == 201  # no organiser yet
        first = c.post("/api/admin/staff", json={"name": "Olive Org", "role": "organiser"}, headers=boss).json()
        before = everything(db_url)
        retired = c.post("/api/admin/events/ev/notice", json={"text": "after"}, headers=boss)  # T-230: the token's session
        assert (retired.status_code, retired.json()["error"]) == (403, service.TOKEN_RETIRED)
        again = c.post("/api/admin/login", json={"code": ORGANISER_TOKEN})  # and the token itself: told so, no session
        assert (again.status_code, again.json()["error"]) == (403, service.TOKEN_RETIRED)
        assert c.post("/api/admin/login", json={"code": "not-the-token-0123456789"}).status_code == 401
        assert but_sign_ins(everything(db_url)) == but_sign_ins(before)
        olive = staff_signs_in(c, first["code"])
        second = c.post("/api/admin/staff", json={"name": "Pat Judge", "role": "judge"}, headers=olive)
        assert second.status_code == 201
        assert c.post("/api/admin/staff", json={"name": "Eve", "role": "organiser", "event": "ev"}, headers=olive).status_code == 400
        assert c.post("/api/admin/events/ev/clock", json={"minutes": 50}, headers=olive).status_code == 201
    started = next(e for e in cli_json(db_url, "log", "ev") if e["type"] == "round_started")
    assert started["by"] == "Olive Org (organiser)"


def csrf_less(c: TestClient, path: str, data: dict[str, Any]) -> int:  # type: ignore[type-arg]
    return c.post(path, data=data).status_code


def test_every_new_form_is_refused_without_its_csrf_token(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    slip = codes(db_url)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        member = service.name_staff(session, "Jo Judge", "judge", "ev")
        member_id = member.id
    with client(db_url) as c:
        organiser_page(c)  # signed in as the organiser, in the cookie a forged form would carry
        before = everything(db_url)
        for path, data in [
            ("/admin/staff", {"name": "Mallory", "role": "organiser"}),
            ("/admin/staff/code", {"staff": member_id}),
            ("/admin/staff/revoke", {"staff": member_id}),
            ("/admin/e/ev/appeals/decide", {"appeal": "1", "uphold": "yes", "reason": "forged"}),
        ]:
            assert csrf_less(c, path, data) == 403, path
        assert everything(db_url) == before
        c.cookies.clear()
        player_token = csrf(c.get("/join").text)
        c.post("/join", data={"code": slip["ann"], "_csrf_token": player_token})
        before = everything(db_url)
        assert csrf_less(c, "/me/appeal", {"ruling": "1", "text": "forged"}) == 403
        assert everything(db_url) == before


def test_the_organiser_token_session_is_named_the_organiser(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)
    with client(db_url) as c:
        assert c.post("/api/admin/events/ev/notice", json={"text": "hello"}, headers=organiser(c)).status_code == 201
    assert cli_json(db_url, "log", "ev")[-1]["actor"] == "organiser"


def test_a_new_organiser_token_leaves_the_staffs_own_sign_in(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    codes(db_url)
    with client(db_url) as c:
        boss = organiser(c)
        keeper = staff_signs_in(c, c.post("/api/admin/staff", json={"name": "Sam", "role": "scorekeeper"}, headers=boss).json()["code"])
        with database(db_url) as engine, Session(engine) as session, session.begin():
            service.new_organiser_token(session)  # T-174: the token's sessions end, not the staff's
        assert c.post("/api/admin/events/ev/notice", json={"text": "hi"}, headers=boss).status_code == 401
        assert c.post("/api/admin/events/ev/notice", json={"text": "hi"}, headers=keeper).status_code == 201


def but_sign_ins(rows: dict[str, Any]) -> dict[str, Any]:
    """Every row but the sign-in forms' receipts (a refused sign-in is answered from one) and the guesses counted."""
    return {name: kept for name, kept in rows.items() if name not in ("receipts", "failed_guesses")}


def test_the_token_naming_the_first_organiser_on_the_page_is_shown_their_code_and_then_nothing_more(db_url: str) -> None:
    """T-230 on the pages: the staff form's answer, which the retired token may no longer read at /admin/staff, lands on
    the sign-in page with the new organiser's code (once), which signs them in; the token's page sign-in is refused."""
    make_event(db_url, ["ann", "bob"])
    codes(db_url)
    with client(db_url) as c:
        token = organiser_page(c)
        landed = c.post("/admin/staff", data={"name": "Olive Org", "role": "organiser", "_csrf_token": token})
        assert landed.status_code == 200 and "/admin?r=" in str(landed.url), landed.url
        assert service.TOKEN_RETIRED in landed.text and "Olive Org is organiser" in landed.text
        code = re.search(r"/join#code=([A-Za-z0-9_.-]+)", landed.text)
        assert code and "<svg" in landed.text
        assert "/join#code=" not in c.get(str(landed.url)).text, "the code is shown once"
        before = everything(db_url)
        refused = c.get("/admin/staff")
        assert refused.status_code == 403 and service.TOKEN_RETIRED in refused.text
        form = c.post("/admin/login", data={"token": ORGANISER_TOKEN, "_csrf_token": csrf(c.get("/admin").text)}, follow_redirects=False)
        assert form.status_code == 303
        assert service.TOKEN_RETIRED in c.get(form.headers["location"]).text
        assert but_sign_ins(everything(db_url)) == but_sign_ins(before)
        c.cookies.clear()
        joined = c.post("/join", data={"code": code.group(1), "_csrf_token": csrf(c.get("/join").text)})
        assert "Signed in as staff: organiser" in joined.text


def test_the_web_cannot_revoke_the_last_organiser(db_url: str) -> None:
    """T-231: no page gives the token its rights back; an organiser may revoke another while one is left."""
    make_event(db_url, ["ann", "bob"])
    codes(db_url)
    with client(db_url) as c:
        boss = organiser(c)
        olive = staff_signs_in(c, c.post("/api/admin/staff", json={"name": "Olive Org", "role": "organiser"}, headers=boss).json()["code"])
        pat = c.post("/api/admin/staff", json={"name": "Pat Org", "role": "organiser"}, headers=olive)
        assert c.post("/api/admin/staff/pat-org/revoke", headers=olive).status_code == 201
        before = everything(db_url)
        last = c.post("/api/admin/staff/olive-org/revoke", headers=olive)
        assert last.status_code == 409 and "last organiser" in last.json()["error"], last.text
        assert [m["revoked_at"] is None for m in c.get("/api/admin/staff", headers=olive).json()] == [True, False]
        assert but_sign_ins(everything(db_url)) == but_sign_ins(before)  # the refusal's receipt only
        assert c.post("/api/admin/events/ev/notice", json={"text": "hi"}, headers=olive).status_code == 201
        assert c.post("/api/admin/login", json={"code": ORGANISER_TOKEN}).status_code == 403
    assert pat.status_code == 201


def test_the_staff_commands(db_url: str) -> None:
    """`tournament staff add/list/new-code/revoke` (T-232): each prints what it did (`--json` too), bad input is one
    line and its exit code, and revoking the last organiser there gives the organiser token its rights back (T-231)."""
    make_event(db_url, ["ann", "bob"])
    codes(db_url)
    judge = cli_json(db_url, "staff", "add", "Jo Judge", "--role", "judge", "--event", "ev")
    assert judge["staff"] == {"id": "jo-judge", "name": "Jo Judge", "role": "judge", "event": "ev", "revoked_at": None}
    assert judge["link"].endswith(f"/join#code={judge['code']}")
    shown = cli(db_url, "staff", "add", "Olive Org", "--role", "organiser").stdout
    olive_code = re.search(r"code: (\S+)", shown)
    assert olive_code and "Olive Org (olive-org) is organiser of every event" in shown
    listed = cli(db_url, "staff", "list")
    assert "Jo Judge" in listed.stdout and "the organiser token is retired" in listed.stdout
    assert [m["id"] for m in cli_json(db_url, "staff", "list")] == ["jo-judge", "olive-org"]
    for args, code, said in [
        (["staff", "add", "Mallory", "--role", "boss"], 2, "role must be one of"),
        (["staff", "add", "", "--role", "judge"], 2, "name cannot be empty"),
        (["staff", "add", "Eve", "--role", "organiser", "--event", "ev"], 2, "runs every event"),
        (["staff", "add", "Eve", "--role", "judge", "--event", "nowhere"], 3, "unknown event"),
        (["staff", "revoke", "nobody"], 3, "no staff member"),
        (["staff", "new-code", "x" * 100], 3, "no staff member"),
    ]:
        failed = cli(db_url, *args, code=code)
        assert said in failed.stderr and failed.stderr.count("\n") == 1 and "Traceback" not in failed.stderr, (args, failed.stderr)
    with client(db_url) as c:
        jo = staff_signs_in(c, judge["code"])
        fresh = cli_json(db_url, "staff", "new-code", "jo-judge")
        assert fresh["code"] != judge["code"]
        assert c.post("/api/admin/events/ev/clock", json={"minutes": 50}, headers=jo).status_code == 401  # the old session ended
        jo = staff_signs_in(c, fresh["code"])
        assert cli_json(db_url, "staff", "revoke", "jo-judge")["revoked_at"] is not None
        assert c.post("/api/admin/events/ev/clock", json={"minutes": 50}, headers=jo).status_code == 401  # at once
        assert "was revoked already" in cli(db_url, "staff", "revoke", "jo-judge", code=7).stderr
        assert "was revoked" in cli(db_url, "staff", "new-code", "jo-judge", code=7).stderr
        olive = staff_signs_in(c, olive_code.group(1))
        assert c.post("/api/admin/login", json={"code": ORGANISER_TOKEN}).status_code == 403
        gone = cli(db_url, "staff", "revoke", "olive-org")  # the last organiser: the command line may (T-231)
        assert "the organiser token acts as the organiser again" in gone.stdout
        assert c.post("/api/admin/events/ev/notice", json={"text": "hi"}, headers=olive).status_code == 401
        assert c.post("/api/admin/events/ev/notice", json={"text": "hi"}, headers=organiser(c)).status_code == 201
    assert "no organiser yet" in cli(db_url, "staff", "list").stdout
    cli(db_url, "staff", "add", "Quinn Org", "--role", "organiser")
    assert "the token does nothing" in cli(db_url, "organiser-token", "--new").stdout  # no way past the organisers


@pytest.mark.pg
def test_two_organisers_revoking_each_other_at_once_leave_one(pg_url: str) -> None:
    """T-231 under a race on PostgreSQL: the second revoking waits on the first's lock of the organisers' rows, reads
    its revoking once it commits, and is refused; without the lock each would see the other still there."""
    with database(pg_url) as engine:
        with Session(engine) as session, session.begin():
            service.name_staff(session, "Olive Org", "organiser")
            service.name_staff(session, "Pat Org", "organiser")
        first = Session(engine)
        first.begin()
        service.revoke(first, "olive-org")  # Pat revokes Olive: not committed yet
        outcome: list[str] = []

        def second() -> None:  # Olive revokes Pat at the same moment
            with Session(engine) as session, session.begin():
                try:
                    service.revoke(session, "pat-org")
                    outcome.append("revoked")
                except service.Conflict as exc:
                    outcome.append(exc.message)

        racer = threading.Thread(target=second)
        racer.start()
        racer.join(1.0)
        assert racer.is_alive() and outcome == [], "the second waits for the first"
        first.commit()
        first.close()
        racer.join(30)
        assert len(outcome) == 1 and "last organiser" in outcome[0], outcome
        with Session(engine) as session:
            assert [m.id for m in service.staff(session) if m.role == "organiser"] == ["pat-org"]
            assert service.has_organiser(session)
