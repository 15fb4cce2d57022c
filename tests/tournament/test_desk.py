"""Players help themselves (issue 26): drop (T-93), judge calls (T-94), their own tables: the API and the CLI,
on SQLite and PostgreSQL. Every refusal answers with a status and the CLI's message, and writes nothing."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from tests.tournament.tlib import cli, cli_json
from tests.tournament.webkit import (
    client,
    codes,
    database,
    make_event,
    organiser,
    player_page,
    sign_in,
    tables,
)
from tournament import service
from tournament.service.verification import verify
from tournament.storage.models import LogEntry


def head(db_url: str, event: str = "ev") -> int:
    with database(db_url) as engine, Session(engine) as session:
        return service.get_event(session, event).last_seq


def kinds(db_url: str, event: str = "ev") -> list[str]:
    with database(db_url) as engine, Session(engine) as session:
        return list(session.scalars(select(LogEntry.type).filter_by(event_id=event).order_by(LogEntry.seq)))


def verified(db_url: str, event: str = "ev") -> None:
    with database(db_url) as engine, Session(engine) as session:
        found = verify(session, event)
        assert found.ok, found.problems


def refused(answer: Any, status: int, words: str, exit_code: int) -> None:
    body = answer.json()
    assert (answer.status_code, body["exit_code"]) == (status, exit_code), body
    assert words in body["error"], body["error"]


def test_a_judge_call_reaches_the_organiser_newest_first_and_is_answered(db_url: str) -> None:
    make_event(db_url)
    keys = codes(db_url)
    (a, _b), (c_, _d) = tables(db_url)
    with client(db_url) as c:
        ha, hc = sign_in(c, keys[a]), sign_in(c, keys[c_])
        called = c.post("/api/me/call", headers=ha, json={"text": "  is a trample blocker dealt damage first?  "})
        assert called.status_code == 201, called.text
        mine = called.json()
        assert mine["call"]["table"] == 1 and mine["call"]["text"] == "is a trample blocker dealt damage first?"
        assert mine["message"] == "A judge is called to table 1 (call 1)."
        # T-94: a second call while the first is open is refused, and writes nothing
        before = head(db_url)
        refused(c.post("/api/me/call", headers=ha, json={}), 409, "your call 1 (table 1) is still open", service.EXIT_CONFLICT)
        assert head(db_url) == before
        assert c.post("/api/me/call", headers=hc, json={}).status_code == 201
        boss = organiser(c)
        open_calls = c.get("/api/admin/events/ev/calls", headers=boss).json()
        assert [(x["number"], x["table"], x["player"]) for x in open_calls] == [(2, 2, c_), (1, 1, a)]  # newest first
        assert c.get("/api/admin/events/ev/calls", headers=ha).status_code == 403
        left = c.post("/api/admin/events/ev/calls/1/answer", headers=boss)
        assert left.status_code == 201 and [x["number"] for x in left.json()] == [2]
        refused(c.post("/api/admin/events/ev/calls/1/answer", headers=boss), 409, "call 1 (table 1) was answered already", service.EXIT_CONFLICT)
        refused(c.post("/api/admin/events/ev/calls/9/answer", headers=boss), 404, "'ev' has no judge call 9", service.EXIT_NOT_FOUND)
        assert c.get("/api/me/event", headers=ha).json()["call"] is None
        again = c.post("/api/me/call", headers=ha, json={"text": "again"})  # answered: a new call may follow
        assert again.status_code == 201 and again.json()["call"]["number"] == 3
        every = c.get("/api/admin/events/ev/calls", params={"all": "true"}, headers=boss).json()
        assert [x["number"] for x in every] == [3, 2, 1] and every[2]["answered_at"] is not None
    assert kinds(db_url)[-4:] == ["judge_called", "judge_called", "call_answered", "judge_called"]
    verified(db_url)


def test_a_judge_call_needs_a_table_and_a_line_of_text(db_url: str) -> None:
    make_event(db_url, players=("ann", "bob", "cat"))  # three players: one bye
    keys = codes(db_url)
    seated = {p for t in tables(db_url) for p in t}
    [resting] = {"ann", "bob", "cat"} - seated
    with client(db_url) as c:
        before = head(db_url)
        refused(c.post("/api/me/call", headers=sign_in(c, keys[resting]), json={}), 422, "is not at a table: round 1", service.EXIT_WRONG_TABLE)
        someone = sign_in(c, keys[sorted(seated)[0]])
        refused(c.post("/api/me/call", headers=someone, json={"text": "x" * 201}), 400, "at most 200 characters", service.EXIT_USAGE)
        refused(c.post("/api/me/call", headers=someone, json={"text": "two\nlines"}), 400, "one line", service.EXIT_USAGE)
        assert c.post("/api/me/call", json={}).status_code == 401
        assert head(db_url) == before
    make_event(db_url, event="later", pair=False)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        early = service.issue_code(session, "later", "ann")
    with client(db_url) as c:
        refused(c.post("/api/me/call", headers=sign_in(c, early), json={}), 422, "no round yet", service.EXIT_WRONG_TABLE)


def test_the_service_call_takes_a_table_a_live_table_names(db_url: str) -> None:
    make_event(db_url)
    (a, _b), _ = tables(db_url)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        try:
            service.call_judge(session, "ev", a, "", table=2)
        except service.WrongTable as exc:
            assert exc.message == f"{a!r} plays at table 1 of round 1, not table 2"
        else:
            raise AssertionError("a call from another table")
        assert service.call_judge(session, "ev", a, "", table=1).number == 1


def test_the_calls_and_answer_commands(db_url: str) -> None:
    make_event(db_url)
    (a, _b), _ = tables(db_url)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.call_judge(session, "ev", a, "deck check")
    [row] = cli_json(db_url, "calls", "ev")
    assert (row["number"], row["table"], row["text"], row["answered_at"]) == (1, 1, "deck check", None)
    assert "round 1, table 1" in cli(db_url, "calls", "ev").stdout
    assert cli_json(db_url, "answer", "ev", "1") == []
    assert "already" in cli(db_url, "answer", "ev", "1", code=service.EXIT_CONFLICT).stderr
    assert cli_json(db_url, "calls", "ev") == [] and len(cli_json(db_url, "calls", "ev", "--all")) == 1


def test_a_drop_mid_round_takes_effect_after_the_round(db_url: str) -> None:
    """T-93: the player's own drop concedes nothing; their table still needs its result, then they are not paired."""
    make_event(db_url)
    keys = codes(db_url)
    (a, b), _ = tables(db_url)
    with client(db_url) as c:
        ha = sign_in(c, keys[a])
        before = head(db_url)
        refused(c.post("/api/me/drop", headers=ha, json={}), 400, "dropping takes a second step", service.EXIT_USAGE)
        assert head(db_url) == before
        dropped = c.post("/api/me/drop", headers=ha, json={"confirm": True})
        assert dropped.status_code == 201, dropped.text
        me = dropped.json()
        assert (me["state"], me["dropped_round"]) == ("dropped", 1)
        assert me["message"].startswith("You are dropped after round 1: your table 1 still needs its result")
        assert c.get("/api/events/ev/round").json()["tables"][0]["games"] is None, "nothing conceded"
        refused(c.post("/api/me/drop", headers=ha, json={"confirm": True}), 409, "already dropped (after round 1)", service.EXIT_CONFLICT)
        boss = organiser(c)
        refused(c.post("/api/admin/events/ev/pair", headers=boss), 409, "table", service.EXIT_RESULTS_MISSING)
        # the dropped player still reports and confirms their last table
        assert c.post("/api/me/claim", headers=ha, json={"games": {a: 1, b: 0}}).status_code == 201
        assert c.post("/api/me/confirm", headers=sign_in(c, keys[b]), json={"claimant": a}).json()["state"] == "done"
        for m in c.get("/api/events/ev/round").json()["tables"][1:]:
            x, y = m["players"]
            c.post("/api/admin/events/ev/rule", headers=boss, json={"table": m["table"], "reason": "slip", "games": {x: 1, y: 0}})
        round2 = c.post("/api/admin/events/ev/pair", headers=boss).json()
        assert a not in {p for t in round2["tables"] for p in t["players"]} and round2["bye"] != a
        tables_of_a = c.get("/api/me/event", headers=ha).json()["matches"]
        assert [(m["round"], m["outcome"], m["games"]) for m in tables_of_a] == [(1, "win", [1, 0])]
    entry = [k for k in kinds(db_url) if k == "player_dropped"]
    assert entry == ["player_dropped"]
    verified(db_url)


def test_no_drop_once_the_last_round_is_paired(db_url: str) -> None:
    make_event(db_url, players=("ann", "bob"), format="single")
    keys = codes(db_url)
    with client(db_url) as c:
        boss = organiser(c)
        assert c.post("/api/admin/events/ev/rule", headers=boss, json={"table": 1, "reason": "slip", "games": {"ann": 1, "bob": 0}}).status_code == 201
        before = head(db_url)
        refused(
            c.post("/api/me/drop", headers=sign_in(c, keys["bob"]), json={"confirm": True}), 409,
            "'ev' is over (its last round is paired): there is no later round to drop from", service.EXIT_CONFLICT,
        )
        assert head(db_url) == before
    with client(db_url) as c:  # the page's form: the same words on the page its redirect leads to
        token = player_page(c, codes(db_url)["bob"])
        sent = c.post("/me/drop", data={"confirm": "yes", "_csrf_token": token}, follow_redirects=False)
        assert sent.status_code == 303
        shown = c.get(sent.headers["location"])
        assert shown.status_code == 200 and "there is no later round to drop from" in shown.text and 'role="alert"' in shown.text
    over = "tournament: 'ev' is over (its last round is paired): there is no later round to drop from"
    assert over in cli(db_url, "drop", "ev", "bob", code=service.EXIT_CONFLICT).stderr, "the organiser's drop too (T-120)"
    assert head(db_url) == before


def test_a_player_sees_their_own_tables_and_results(db_url: str) -> None:
    make_event(db_url, display={"ann": "Ann Lee", "bob": "Bob Roy", "cat": "Cat", "dan": "Dan"})
    keys = codes(db_url)
    (a, b), _ = tables(db_url)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        for m in service.matches(session, "ev", 1):
            service.report(session, "ev", m.number, result=service.Tally({m.player_a: 1, m.player_b: 0}, 0))
        service.pair(session, "ev")
    with client(db_url) as c:
        mine = c.get("/api/me/event", headers=sign_in(c, keys[a])).json()
    assert mine["state"] == "registered" and mine["call"] is None
    first = mine["matches"][0]
    assert (first["round"], first["table"], first["opponents"], first["outcome"]) == (1, 1, [b], "win")
    assert [m["round"] for m in mine["matches"]] == [1, 2] and mine["matches"][1]["outcome"] is None


def test_a_judge_call_from_a_pod(db_url: str) -> None:
    make_event(db_url, players=("ann", "bob", "cat", "dan", "eve"), format="pods", table_size=4, ruleset="crossover")
    [pod] = tables(db_url)  # four at table 1; the fifth has the bye, a table of one
    [alone] = {"ann", "bob", "cat", "dan", "eve"} - set(pod)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        call = service.call_judge(session, "ev", pod[-1], "who plays first?")
        assert (call.table, call.round) == (1, 1)
        try:
            service.call_judge(session, "ev", alone, "")
        except service.WrongTable as exc:
            assert exc.message == f"{alone!r} is not at a table: round 1 (a bye, or not paired); a judge comes to a table"
        else:
            raise AssertionError("a call from a pods bye")
    verified(db_url)
