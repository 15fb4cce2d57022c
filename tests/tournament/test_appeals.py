"""Appeals (issue 35, T-178, T-179): a player appeals a judge's ruling from their phone, the head judge's queue
shows it with the first ruling, and the decision names both judges in the log."""

from __future__ import annotations

from litestar.testing import TestClient

from tests.tournament.tlib import cli, cli_json
from tests.tournament.webkit import (
    bearer,
    client,
    codes,
    csrf,
    make_event,
    organiser,
    player_page,
    sign_in,
    tables,
)


def staff(c: TestClient, boss: dict[str, str], name: str, role: str) -> dict[str, str]:  # type: ignore[type-arg]
    made = c.post("/api/admin/staff", json={"name": name, "role": role, "event": "ev"}, headers=boss)
    assert made.status_code == 201, made.text
    joined = c.post("/api/join", json={"code": made.json()["code"]})
    return bearer(joined.json()["session"])


def test_an_appeal_goes_from_the_player_to_the_judge_to_the_head_judge_and_the_log_names_both(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    slip = codes(db_url)
    (a, b), = tables(db_url)
    with client(db_url) as c, client(db_url) as phone:
        boss = organiser(c)
        judge = staff(c, boss, "Jo Judge", "judge")
        head = staff(c, boss, "Hal Head", "head-judge")
        assert c.post("/api/me/claim", json={"games": {a: 1, b: 0}}, headers=sign_in(c, slip[a])).status_code == 201
        ruled = c.post("/api/admin/events/ev/rule", json={"table": 1, "reason": "slow play warning upgraded", "accept": a}, headers=judge)
        assert ruled.status_code == 201, ruled.text
        ruling = next(e for e in cli_json(db_url, "log", "ev") if e["type"] == "claim_ruled")["seq"]

        # the player who lost appeals from their phone's page
        token = player_page(phone, slip[b])
        mine = phone.get("/me").text
        assert "Jo Judge (judge) ruled on the table" in mine and 'action="/me/appeal"' in mine
        appealed = phone.post("/me/appeal", data={"ruling": str(ruling), "text": "my opponent drew an extra card", "_csrf_token": token})
        assert "Your appeal is with the head judge" in appealed.text
        again = phone.post("/me/appeal", data={"ruling": str(ruling), "text": "again", "_csrf_token": csrf(appealed.text)})
        assert "was appealed already" in again.text

        # the head judge's queue shows it with the first ruling; a judge may read it but not decide it
        queue = c.get("/api/admin/events/ev/appeals", headers=head).json()
        assert [(q["text"], q["ruling"]["by"], q["ruling"]["reason"], q["decision"]) for q in queue] == [
            ("my opponent drew an extra card", "Jo Judge (judge)", "slow play warning upgraded", None)
        ]
        number = queue[0]["seq"]
        refused = c.post(f"/api/admin/events/ev/appeals/{number}", json={"uphold": True, "reason": "mine"}, headers=judge)
        assert refused.status_code == 403
        decided = c.post(
            f"/api/admin/events/ev/appeals/{number}", json={"uphold": False, "reason": "the extra card decided it", "games": {a: 0, b: 1}},
            headers=head,
        )
        assert decided.status_code == 201, decided.text
        assert decided.json()[0]["decision"] == "overturned" and decided.json()[0]["decided_by"] == "Hal Head (head judge)"
        shown = phone.get("/me").text
        assert "The head judge overturned it" in shown and "Hal Head (head judge)" in shown
    log = cli_json(db_url, "log", "ev")
    appeal, decision, correction = log[-3:]
    assert (appeal["type"], appeal["actor"], appeal["payload"]["judge"]) == ("ruling_appealed", f"player:{b}", "staff:jo-judge")
    assert (decision["type"], decision["by"], decision["payload"]["judge"]) == ("appeal_ruled", "Hal Head (head judge)", "staff:jo-judge")
    assert (correction["type"], correction["by"], correction["payload"]["games"]) == ("result_corrected", "Hal Head (head judge)", {a: 0, b: 1})
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


def test_the_head_judge_upholds_on_the_queue_page_and_the_decision_is_final(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    slip = codes(db_url)
    (a, b), = tables(db_url)
    with client(db_url) as c, client(db_url) as phone, client(db_url) as desk:
        boss = organiser(c)
        judge = staff(c, boss, "Jo Judge", "judge")
        made = c.post("/api/admin/staff", json={"name": "Hal Head", "role": "head-judge", "event": "ev"}, headers=boss).json()
        c.post("/api/me/claim", json={"games": {a: 1, b: 0}}, headers=sign_in(c, slip[a]))
        c.post("/api/admin/events/ev/rule", json={"table": 1, "reason": "ruled", "accept": a}, headers=judge)
        ruling = next(e for e in cli_json(db_url, "log", "ev") if e["type"] == "claim_ruled")["seq"]
        player_page(phone, slip[b])
        assert c.post("/api/me/appeal", json={"ruling": ruling, "text": "wrong"}, headers=sign_in(c, codes(db_url)[b])).status_code == 201
        desk.post("/join", data={"code": made["code"], "_csrf_token": csrf(desk.get("/join").text)})
        queue = desk.get("/admin/e/ev/appeals").text
        assert "Jo Judge (judge) ruled on the table" in queue and "“wrong”" in queue and "Overturn: this result" in queue
        number = cli_json(db_url, "log", "ev")[-1]["seq"]
        upheld = desk.post("/admin/e/ev/appeals/decide", data={"appeal": str(number), "uphold": "yes", "reason": "the ruling was right", "_csrf_token": csrf(queue)})
        assert "the ruling is upheld" in upheld.text and "No appeal is waiting" in upheld.text
        assert "(1 waiting)" not in desk.get("/admin/e/ev").text
    decision = cli_json(db_url, "log", "ev")[-1]
    assert (decision["type"], decision["payload"]["decision"], decision["by"]) == ("appeal_ruled", "upheld", "Hal Head (head judge)")


def test_only_a_player_at_the_table_appeals_and_only_a_ruling(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat", "dan"])
    slip = codes(db_url)
    (a, b), (outside, _) = tables(db_url)
    with client(db_url) as c:
        boss = organiser(c)
        c.post("/api/me/claim", json={"games": {a: 1, b: 0}}, headers=sign_in(c, slip[a]))
        c.post("/api/admin/events/ev/rule", json={"table": 1, "reason": "ruled", "accept": a}, headers=boss)
        ruling = next(e for e in cli_json(db_url, "log", "ev") if e["type"] == "claim_ruled")["seq"]
        outsider = sign_in(c, slip[outside])
        refused = c.post("/api/me/appeal", json={"ruling": ruling, "text": "not mine"}, headers=outsider)
        assert refused.status_code == 422 and "not yours" in refused.json()["error"]
        assert c.post("/api/me/appeal", json={"ruling": 1, "text": "the event's creation"}, headers=outsider).status_code == 404
        loser = sign_in(c, slip[b])
        assert c.post("/api/me/appeal", json={"ruling": ruling, "text": ""}, headers=loser).status_code == 400
        first = c.post("/api/me/appeal", json={"ruling": ruling, "text": "x" * 501}, headers=loser)
        assert first.status_code == 400 and "at most 500" in first.json()["error"]
    assert "ruling_appealed" not in {e["type"] for e in cli_json(db_url, "log", "ev")}


def test_an_event_with_an_appeal_waiting_is_not_finished(db_url: str) -> None:
    """A finished event's rulings stand (T-178): finishing it while an appeal waits would leave the head judge to
    overturn a result already final. Refused (409), changing nothing, until the appeal is decided."""
    make_event(db_url, ["ann", "bob"])
    slip = codes(db_url)
    (a, b), = tables(db_url)
    with client(db_url) as c:
        boss = organiser(c)
        c.post("/api/me/claim", json={"games": {a: 1, b: 0}}, headers=sign_in(c, slip[a]))
        c.post("/api/admin/events/ev/rule", json={"table": 1, "reason": "ruled", "accept": a}, headers=boss)
        ruling = next(e for e in cli_json(db_url, "log", "ev") if e["type"] == "claim_ruled")["seq"]
        assert c.post("/api/me/appeal", json={"ruling": ruling, "text": "wrong"}, headers=sign_in(c, slip[b])).status_code == 201
        before = cli_json(db_url, "log", "ev")
        refused = c.post("/api/admin/events/ev/finish", headers=boss)
        assert refused.status_code == 409 and "1 appeal(s) wait for the head judge (round 1, table 1)" in refused.json()["error"]
        assert cli_json(db_url, "log", "ev") == before
        number = before[-1]["seq"]
        assert c.post(f"/api/admin/events/ev/appeals/{number}", json={"uphold": True, "reason": "right"}, headers=boss).status_code == 201
        assert c.post("/api/admin/events/ev/finish", headers=boss).status_code == 201
    assert cli_json(db_url, "log", "ev")[-1]["type"] == "event_finished"


def test_the_players_page_offers_no_appeal_it_would_refuse(db_url: str) -> None:
    """`/me` offers the form only for a ruling the player may still appeal: not the head judge's correction that
    carries out an overturned appeal (final, T-178), which the service refuses with a 409."""
    make_event(db_url, ["ann", "bob"])
    slip = codes(db_url)
    (a, b), = tables(db_url)
    with client(db_url) as c, client(db_url) as phone:
        boss = organiser(c)
        c.post("/api/me/claim", json={"games": {a: 1, b: 0}}, headers=sign_in(c, slip[a]))
        c.post("/api/admin/events/ev/rule", json={"table": 1, "reason": "ruled", "accept": a}, headers=boss)
        ruling = next(e for e in cli_json(db_url, "log", "ev") if e["type"] == "claim_ruled")["seq"]
        assert c.post("/api/me/appeal", json={"ruling": ruling, "text": "wrong"}, headers=sign_in(c, slip[b])).status_code == 201
        number = cli_json(db_url, "log", "ev")[-1]["seq"]
        overturned = c.post(f"/api/admin/events/ev/appeals/{number}", json={"uphold": False, "reason": "wrong", "games": {a: 0, b: 1}}, headers=boss)
        assert overturned.status_code == 201, overturned.text
        assert cli_json(db_url, "log", "ev")[-1]["type"] == "result_corrected"
        player_page(phone, codes(db_url)[a])  # the opponent, who may appeal any ruling on the table not appealed yet
        mine = phone.get("/me").text
        assert "<h2>My tables</h2>" in mine, "signed in"
        assert 'action="/me/appeal"' not in mine, "the head judge's correction is final: no form for it"
