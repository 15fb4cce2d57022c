"""Live tables through `tournament serve`'s JSON API and its live stream (issue 24, steps 2 and 5).

What a player is sent is read as JSON: another player's hidden cards are never in it.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy.orm import Session

from referee.ruleset import JUDGE
from tournament import service
from tournament.service import livetable
from tournament.storage.db import open_database

from .webkit import ORGANISER_TOKEN, bearer, client, database, served_by_workers, serving, sign_in

PLAYERS = ("ann", "bob")


def live_event(db_url: str, *, mode: str = "paper", ruleset: str = "cardwars", best_of: int = 1) -> dict[str, str]:
    """An event with live tables, ann and bob at table 1, and their sign-in codes."""
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.create_event(session, "ev", name="ev", ruleset=ruleset, profile="mtg", best_of=best_of, seed=7, tables=mode)
        service.register(session, "ev", list(PLAYERS))
        service.pair(session, "ev")
        service.ensure_organiser(session, ORGANISER_TOKEN)
        return {p: service.issue_code(session, "ev", p) for p in PLAYERS}


def strings(data: Any) -> set[str]:
    """Every string in a JSON value (keys and values)."""
    if isinstance(data, dict):
        return set(data) | {s for value in data.values() for s in strings(value)}
    if isinstance(data, list):
        return {s for value in data for s in strings(value)}
    return {data} if isinstance(data, str) else set()


def hidden_cards(db_url: str, player: str) -> set[str]:
    """`player`'s hidden cards now, by the game's own `hidden`."""
    with database(db_url) as engine, Session(engine) as session:
        seat = livetable.seating(session, "ev", 1)
        game = livetable.current_game(session, seat)
        live = livetable._judged(session, game)
        return set(live.ruleset.hidden(live.replay.state).get(player, set()))


TABLE = "/api/events/ev/tables/1"


def play_through_api(c: Any, db_url: str, heads: dict[str, dict[str, str]], *, watch: str = "ann", seed: int = 1,
                     limit: int = 400) -> list[Any]:
    """ann and bob play table 1's current game through the API, each recording one of the records their view
    offers; every payload sent to `watch` is kept, and checked against the other player's hidden cards."""
    rng = random.Random(seed)
    other = next(p for p in PLAYERS if p != watch)
    payloads: list[Any] = []
    number = c.get(TABLE, headers=heads[watch]).json()["game"]
    for _ in range(limit):
        views = {p: c.get(TABLE, headers=heads[p]).json() for p in PLAYERS}
        payloads.append(views[watch])
        public = strings(c.get(TABLE).json())  # what a spectator sees
        assert not (hidden_cards(db_url, other) - public) & strings(views[watch]), "the other player's hidden card was sent"
        if views[watch]["game"] != number or views[watch]["over"]:
            break
        acting = [p for p in PLAYERS if views[p]["legal"]]
        assert acting, views[watch]["to_act"]
        who = rng.choice(acting)
        answer = c.post(f"{TABLE}/records", json={"after": views[who]["seq"], "record": rng.choice(views[who]["legal"])}, headers=heads[who])
        assert answer.status_code == 201, answer.text
        if who == watch:
            payloads.append(answer.json())
            assert not (hidden_cards(db_url, other) - public) & strings(answer.json())
    return payloads


def test_a_whole_game_through_the_api_never_sends_a_player_the_others_hand(db_url: str) -> None:
    codes = live_event(db_url, mode="paper", ruleset="cardwars")
    with client(db_url) as c:
        heads = {p: sign_in(c, codes[p]) for p in PLAYERS}
        payloads = play_through_api(c, db_url, heads)
        assert len(payloads) > 20
        end = c.get(TABLE, headers=heads["ann"]).json()
        assert end["over"] and end["seat"] == "ann"
        for p in PLAYERS:
            answer = c.post(f"{TABLE}/confirm", json={"game": end["game"], "seq": end["seq"]}, headers=heads[p])
            assert answer.status_code == 201, answer.text
        assert answer.json() == {"reported": True}
        standings = c.get("/api/events/ev/standings").json()
        assert sorted(row["points"] for row in standings) == [0, 3]  # the result, with nobody typing it
        judge = c.post("/api/admin/login", json={"code": ORGANISER_TOKEN}).json()["session"]
        seen = c.get(TABLE, headers=bearer(judge)).json()
        assert seen["seat"] == JUDGE and seen["reported"]


def test_a_refused_record_answers_with_its_rule_and_the_alternatives_and_writes_nothing(db_url: str) -> None:
    codes = live_event(db_url, mode="paper", ruleset="cardwars")
    with client(db_url) as c:
        heads = {p: sign_in(c, codes[p]) for p in PLAYERS}
        views = {p: c.get(TABLE, headers=heads[p]).json() for p in PLAYERS}
        idle = next(p for p in PLAYERS if not views[p]["legal"])
        busy = next(p for p in PLAYERS if views[p]["legal"])
        refused = c.post(f"{TABLE}/records", json={"after": views[idle]["seq"], "record": {"type": "attack", "by": idle, "attackers": []}},
                         headers=heads[idle])
        assert refused.status_code == 422
        body = refused.json()
        assert body["rule"].startswith("CW-") and body["error"] and body["seq"] == views[idle]["seq"]
        assert body["legal"] == []  # nothing is theirs to record now: it is the other player's turn
        assert c.get(TABLE, headers=heads[idle]).json()["seq"] == views[idle]["seq"]  # nothing written
        made = c.post(f"{TABLE}/records", json={"after": views[busy]["seq"], "record": views[busy]["legal"][0]}, headers=heads[busy])
        assert made.status_code == 201
        again = c.post(f"{TABLE}/records", json={"after": views[busy]["seq"], "record": views[busy]["legal"][0]}, headers=heads[busy])
        assert again.status_code == 409 and again.json()["seq"] == made.json()["seq"]  # the head it missed
        anonymous = c.post(f"{TABLE}/records", json={"after": 0, "record": {}})
        assert anonymous.status_code == 401
        bad = c.post(f"{TABLE}/records", json={"after": -1, "record": {}}, headers=heads[busy])
        assert bad.status_code == 400


def test_every_table_route_range_checks_its_numbers(db_url: str) -> None:
    """A table, game or seq out of range is a one-line 400 on every table route, before anything is read."""
    codes = live_event(db_url)
    with client(db_url) as c:
        ann = sign_in(c, codes["ann"])
        judge = bearer(c.post("/api/admin/login", json={"code": ORGANISER_TOKEN}).json()["session"])
        huge = 2**70
        for path, body, who in (
            (f"{TABLE}/seen", {"game": huge, "seq": 0}, ann), (f"{TABLE}/confirm", {"game": 0, "seq": 0}, ann),
            (f"/api/events/ev/tables/{huge}/seen", {"game": 1, "seq": 0}, ann),
            (f"/api/events/ev/tables/{huge}/confirm", {"game": 1, "seq": 0}, ann),
            (f"/api/admin/events/ev/tables/{huge}/bot", {"player": "bob"}, judge),
        ):
            answer = c.post(path, json=body, headers=who)
            assert answer.status_code == 400 and "table is 1 to 1,000,000" in answer.json()["error"], (path, answer.text)


def test_a_digital_game_sends_each_player_their_own_draws_only(db_url: str) -> None:
    codes = live_event(db_url, mode="digital", ruleset="crossover")
    with client(db_url) as c:
        heads = {p: sign_in(c, codes[p]) for p in PLAYERS}
        play_through_api(c, db_url, heads, watch="bob", seed=3)
        view = c.get(TABLE, headers=heads["bob"]).json()
        draws = [r for r in view["records"] if r["by"] == "chance" and r.get("type") != "reveal"]
        assert draws and all((r.get("card") is None) == (r.get("player") == "ann") for r in draws if "card" in r)


class Watchers:
    """Threads that each read a table's live stream into a list of events, every one closed at the end."""

    def __init__(self) -> None:
        self.clients: list[httpx.Client] = []
        self.threads: list[threading.Thread] = []

    def watch(self, url: str, headers: dict[str, str], last: str | None = None) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        http = httpx.Client(timeout=httpx.Timeout(5, read=30))
        self.clients.append(http)
        thread = threading.Thread(target=read_events, args=(http, url, headers, events, last), daemon=True)
        thread.start()
        self.threads.append(thread)
        return events

    def close(self) -> None:
        for http in self.clients:
            http.close()
        for thread in self.threads:
            thread.join(timeout=30)


def read_events(http: httpx.Client, url: str, headers: dict[str, str], events: list[dict[str, Any]], last: str | None) -> None:
    """Read a table's live stream into `events` (each with the time it came) until its client is closed."""
    sent = dict(headers, **({"Last-Event-ID": last} if last else {}))
    try:
        with http.stream("GET", url, headers=sent) as stream:
            _parse(stream.iter_lines(), events)
    except (httpx.HTTPError, RuntimeError, AttributeError):  # closed from the test's thread
        return


def _parse(lines: Iterator[str], events: list[dict[str, Any]]) -> None:
        name, ident, data = "", "", ""
        for line in lines:
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("id:"):
                ident = line[3:].strip()
            elif line.startswith("data:"):
                data += line[5:].strip()
            elif not line and data:
                view = None if name == "panel" else json.loads(data)  # a broadcast's `panel` is HTML
                events.append({"event": name, "id": ident, "data": data, "view": view, "at": time.monotonic()})
                name, ident, data = "", "", ""


@pytest.fixture
def watchers() -> Iterator[Watchers]:
    found = Watchers()
    yield found
    found.close()


def wait_for(events: list[dict[str, Any]], count: int, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while len(events) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(events) >= count, events


def test_every_record_reaches_the_players_and_the_judge_within_a_second_and_a_stream_resumes(db_url: str, watchers: Watchers) -> None:
    codes = live_event(db_url, mode="paper", ruleset="crossover")
    with serving(db_url) as base, httpx.Client(base_url=base, timeout=20) as http:
        heads = {p: bearer(http.post("/api/join", json={"code": codes[p]}).json()["session"]) for p in PLAYERS}
        heads[JUDGE] = bearer(http.post("/api/admin/login", json={"code": ORGANISER_TOKEN}).json()["session"])
        streams = {seat: watchers.watch(f"{base}{TABLE}/live", heads.get(seat, {})) for seat in (*PLAYERS, JUDGE, "spectator")}
        for events in streams.values():
            wait_for(events, 1)  # the table as it stands, at once
        rng = random.Random(5)
        for step in range(6):
            views = {p: http.get(TABLE, headers=heads[p]).json() for p in PLAYERS}
            who = next(p for p in PLAYERS if views[p]["legal"])
            sent = time.monotonic()
            made = http.post(f"{TABLE}/records", json={"after": views[who]["seq"], "record": rng.choice(views[who]["legal"])}, headers=heads[who])
            assert made.status_code == 201, made.text
            head = made.json()["seq"]
            for seat, events in streams.items():
                deadline = sent + 5
                while not any(e["view"]["seq"] >= head for e in events) and time.monotonic() < deadline:
                    time.sleep(0.01)
                arrived = next(e for e in events if e["view"]["seq"] >= head)
                assert arrived["at"] - sent < 1.0, f"{seat} heard of record {head} after {arrived['at'] - sent:.2f} s (step {step})"
        assert streams["ann"][-1]["view"]["seat"] == "ann" and streams["spectator"][-1]["view"]["seat"] is None
        # a phone that lost the network comes back with the last record it saw: only what came after it
        last = streams["ann"][2]["id"]
        resumed = watchers.watch(f"{base}{TABLE}/live", heads["ann"], last)
        wait_for(resumed, 1)
        first = resumed[0]["view"]
        assert first["since"] == int(last.split(":")[1]) and [r["seq"] for r in first["records"]] == list(range(first["since"] + 1, first["seq"] + 1))
        watchers.close()


@pytest.mark.pg
def test_a_record_made_on_one_worker_reaches_watchers_on_another(pg_url: str, watchers: Watchers) -> None:
    codes = live_event(pg_url, mode="paper", ruleset="crossover")
    _, engine = open_database(pg_url)
    engine.dispose()
    with served_by_workers(pg_url, 2) as base, httpx.Client(base_url=base, timeout=20) as http:
        heads = {p: bearer(http.post("/api/join", json={"code": codes[p]}).json()["session"]) for p in PLAYERS}
        # six connections: the kernel spreads them over the workers
        streams = [watchers.watch(f"{base}{TABLE}/live", {}) for _ in range(6)]
        for events in streams:
            wait_for(events, 1)
        for _ in range(4):
            with httpx.Client(base_url=base, timeout=20) as fresh:  # a new connection each time: any worker may take it
                views = {p: fresh.get(TABLE, headers=heads[p]).json() for p in PLAYERS}
                who = next(p for p in PLAYERS if views[p]["legal"])
                made = fresh.post(f"{TABLE}/records", json={"after": views[who]["seq"], "record": views[who]["legal"][0]}, headers=heads[who])
                assert made.status_code == 201, made.text
                head = made.json()["seq"]
            for events in streams:
                deadline = time.monotonic() + 5
                while not any(e["view"]["seq"] >= head for e in events) and time.monotonic() < deadline:
                    time.sleep(0.01)
                assert any(e["view"]["seq"] >= head for e in events), "a watcher on another worker never heard"
        watchers.close()


def test_a_revoked_judges_open_stream_ends_before_the_next_change_reaches_it(db_url: str, watchers: Watchers) -> None:
    """A judge's stream sends every seat's hidden cards; it was seated once, when it opened. Revoking the judge
    must end it: before, it went on sending the judge's view of each record for up to ten minutes."""
    codes = live_event(db_url, mode="paper", ruleset="cardwars")
    with serving(db_url) as base, httpx.Client(base_url=base, timeout=20) as http:
        heads = {p: bearer(http.post("/api/join", json={"code": codes[p]}).json()["session"]) for p in PLAYERS}
        boss = bearer(http.post("/api/admin/login", json={"code": ORGANISER_TOKEN}).json()["session"])
        named = http.post("/api/admin/staff", json={"name": "Jo Judge", "role": "judge"}, headers=boss).json()
        judge = bearer(http.post("/api/join", json={"code": named["code"]}).json()["session"])
        events = watchers.watch(f"{base}{TABLE}/live", judge)
        wait_for(events, 1)
        assert events[0]["view"]["seat"] == JUDGE
        revoked = http.post(f"/api/admin/staff/{named['staff']['id']}/revoke", headers=boss)
        assert revoked.status_code in (200, 201), revoked.text
        for _ in range(3):  # three records after the revoke: none reaches the judge's stream
            views = {p: http.get(TABLE, headers=heads[p]).json() for p in PLAYERS}
            who = next(p for p in PLAYERS if views[p]["legal"])
            made = http.post(f"{TABLE}/records", json={"after": views[who]["seq"], "record": views[who]["legal"][0]}, headers=heads[who])
            assert made.status_code == 201, made.text
        time.sleep(1.5)  # well past the second a record takes to reach a stream
        assert len(events) == 1, [e["view"]["seq"] for e in events]
