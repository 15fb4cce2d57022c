"""Players report their own results on `tournament serve` (the API, on SQLite and PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session

from tests.tournament.tlib import game_log
from tests.tournament.webkit import client, codes, database, make_event, organiser, sign_in, tables
from tournament import service
from tournament.service.verification import verify

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "cardwars"


def verified(db_url: str) -> None:
    with database(db_url) as engine, Session(engine) as session:
        found = verify(session, "ev")
        assert found.ok, found.problems


def test_a_code_signs_in_once_and_a_typed_result_stands_when_the_opponent_confirms(db_url: str) -> None:
    make_event(db_url)
    keys = codes(db_url)
    (a, b), _ = tables(db_url)
    with client(db_url) as c:
        ha, hb = sign_in(c, keys[a]), sign_in(c, keys[b])
        again = c.post("/api/join", json={"code": keys[a]})
        assert again.status_code == 401 and "already used" in again.json()["error"]
        claimed = c.post("/api/me/claim", headers=ha, json={"games": {a: 1, b: 0}}).json()
        assert claimed["state"] == "waiting" and claimed["table"]["games"] is None
        assert c.get("/api/events/ev/round").json()["tables"][0]["games"] is None, "one player's word is not a result"
        confirmed = c.post("/api/me/confirm", headers=hb, json={"claimant": a}).json()
        assert confirmed["state"] == "done"
        row = c.get("/api/events/ev/round").json()["tables"][0]
        assert (row["games"], row["source"], row["reason"]) == ({a: 1, b: 0}, "players", f"entered by {a}, confirmed by {b}")
        again = c.post("/api/me/claim", headers=hb, json={"games": {a: 0, b: 1}})
        assert again.status_code == 409 and "already has a result" in again.json()["error"]
    verified(db_url)


def test_the_same_claim_from_both_players_is_an_agreement(db_url: str) -> None:
    make_event(db_url)
    keys = codes(db_url)
    (a, b), _ = tables(db_url)
    with client(db_url) as c:
        ha, hb = sign_in(c, keys[a]), sign_in(c, keys[b])
        c.post("/api/me/claim", headers=ha, json={"games": {a: 0, b: 0}, "draws": 1})
        assert c.post("/api/me/claim", headers=hb, json={"games": {b: 0, a: 0}, "draws": 1}).json()["state"] == "done"


def test_disagreeing_claims_reach_the_judge_queue_and_the_organiser_settles_them(db_url: str) -> None:
    make_event(db_url)
    keys = codes(db_url)
    _, (c_, d) = tables(db_url)
    with client(db_url) as c:
        hc, hd = sign_in(c, keys[c_]), sign_in(c, keys[d])
        c.post("/api/me/claim", headers=hc, json={"games": {c_: 1, d: 0}})
        assert c.post("/api/me/claim", headers=hd, json={"games": {c_: 0, d: 1}}).json()["state"] == "disputed"
        boss = organiser(c)
        assert c.get("/api/admin/events/ev/tables", headers=hc).status_code == 403, "players do not see the queue"
        queue = [t for t in c.get("/api/admin/events/ev/tables", headers=boss).json() if t["state"] == "disputed"]
        assert [t["table"]["table"] for t in queue] == [2]
        assert {cl["player"]: cl["text"] for cl in queue[0]["claims"]} == {c_: f"{c_} 1-0 {d}", d: f"{c_} 0-1 {d}"}
        refused = c.post("/api/admin/events/ev/rule", headers=boss, json={"table": 2, "reason": " ", "accept": d})
        assert refused.status_code == 400
        c.post("/api/admin/events/ev/rule", headers=boss, json={"table": 2, "reason": "slip signed by both", "accept": d})
        row = c.get("/api/events/ev/rounds/1").json()["tables"][1]
        assert (row["games"], row["source"], row["reason"]) == ({c_: 0, d: 1}, "judge", "slip signed by both")
        types = [e.type for e in _log(db_url)]
        assert types[-2:] == ["claim_ruled", "result_reported"]
    verified(db_url)


def _log(db_url: str) -> list[object]:
    from tournament.storage.models import LogEntry

    with database(db_url) as engine, Session(engine) as session:
        return list(session.query(LogEntry).filter_by(event_id="ev").order_by(LogEntry.seq))


def test_a_player_reports_only_their_own_table_of_the_current_round(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat", "dan", "eve"])
    keys = codes(db_url)
    (a, b), (c_, d) = tables(db_url)
    with client(db_url) as c:
        ha = sign_in(c, keys[a])
        wrong = c.post("/api/me/claim", headers=ha, json={"games": {c_: 1, d: 0}})
        assert wrong.status_code == 422 and wrong.json()["exit_code"] == service.EXIT_WRONG_TABLE
        bye = next(p for p in ("ann", "bob", "cat", "dan", "eve") if p not in (a, b, c_, d))
        resting = c.post("/api/me/claim", headers=sign_in(c, keys[bye]), json={"games": {bye: 1}})
        assert resting.status_code == 409 and "no table" in resting.json()["error"]
        assert c.get("/api/me").status_code == 401, "no session, no match"
        assert c.get("/api/me", headers={"Authorization": "Bearer nope.nope"}).status_code == 401


def test_uploaded_logs_are_refereed_at_once_and_confirmed_by_the_last_line(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    keys = codes(db_url)
    with client(db_url) as c:
        ha, hb = sign_in(c, keys["ann"]), sign_in(c, keys["bob"])
        nothing = c.post("/api/me/logs", headers=ha, files={"other": ("x.txt", b"")})
        assert nothing.status_code == 400 and nothing.json()["error"].startswith("give the result")
        illegal = (FIXTURES / "illegal-cw4.5-underpaid.jsonl").read_bytes()
        refused = c.post("/api/me/logs", headers=ha, files={"log": ("underpaid.jsonl", illegal)})
        assert refused.status_code == 422
        assert refused.json()["referee"] == {
            "file": "underpaid.jsonl", "verdict": "illegal", "rule": "CW-4.5",
            "message": "JS costs 11, but the payment is worth only 10", "record": 7, "line": 8,
        }
        log = game_log("ann", "bob", 3)
        claimed = c.post("/api/me/logs", headers=ha, files={"log": ("g1.jsonl", log)}).json()
        assert claimed["state"] == "waiting"
        last = service.last_line_hash(log)
        assert claimed["claims"][0]["last_lines"] == [last]
        cut = log.rstrip(b"\n").rsplit(b"\n", 1)[0] + b"\n"  # bob's copy ends a line earlier
        mismatch = c.post("/api/me/confirm", headers=hb, json={"claimant": "ann", "last_lines": [service.last_line_hash(cut)]})
        assert mismatch.status_code == 409 and "does not match" in mismatch.json()["error"]
        done = c.post("/api/me/confirm", headers=hb, json={"claimant": "ann", "last_lines": [last.upper()]}).json()
        assert done["state"] == "done" and done["table"]["source"] == "log" and len(done["table"]["logs"]) == 1
    verified(db_url)


def test_a_pod_stands_when_every_seat_reports_the_same_places(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat", "dan"], format="pods", table_size=4, ruleset="crossover")
    keys = codes(db_url)
    [seats] = tables(db_url)
    places = {p: k for k, p in enumerate(seats, start=1)}
    with client(db_url) as c:
        heads = {p: sign_in(c, keys[p]) for p in seats}
        for p in seats[:2]:
            assert c.post("/api/me/claim", headers=heads[p], json={"places": places}).json()["state"] == "waiting"
        other = dict(places) | {seats[2]: places[seats[3]], seats[3]: places[seats[2]]}
        assert c.post("/api/me/claim", headers=heads[seats[2]], json={"places": other}).json()["state"] == "disputed"
        c.post("/api/me/claim", headers=heads[seats[2]], json={"places": places})  # a player may change their claim
        assert c.post("/api/me/confirm", headers=heads[seats[3]], json={"claimant": seats[0]}).json()["state"] == "done"
        row = c.get("/api/events/ev/round").json()["tables"][0]
        assert row["places"] == places and row["source"] == "players"
    verified(db_url)


def test_codes_sessions_and_the_organiser_token_are_stored_only_as_hashes(db_url: str) -> None:
    import hashlib

    from sqlalchemy import select

    from tests.tournament.webkit import ORGANISER_TOKEN
    from tournament.storage.models import Credential

    make_event(db_url)
    keys = codes(db_url)
    with client(db_url) as c:
        session_secret = c.post("/api/join", json={"code": keys["ann"]}).json()["session"]
    with database(db_url) as engine, Session(engine) as session:
        rows = list(session.scalars(select(Credential)))
    stored = " ".join(f"{r.selector} {r.hash} {r.kind} {r.player}" for r in rows)
    for secret in [*keys.values(), session_secret]:
        selector, verifier = secret.split(".")
        assert selector in stored and verifier not in stored
        assert hashlib.sha256(verifier.encode()).hexdigest() in stored
    assert ORGANISER_TOKEN not in stored and hashlib.sha256(ORGANISER_TOKEN.encode()).hexdigest() in stored
