"""A live table's stream across the games of a match, its views as one snapshot, and its watchers at scale (issue 33).

Every record of every game reaches a watcher once, in order (a finished game's
last records before the next game's first), `Last-Event-ID` resumes across
games, a view never names an older head than its own records (PostgreSQL), and
open streams are capped per address.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.orm import Session

from referee.ruleset import JUDGE
from tournament import service
from tournament.service import witness
from tournament.storage.db import open_database
from tournament.web import tablepages, tables

from . import tablelib
from .test_web_tables import PLAYERS, TABLE, Watchers, hidden_cards, live_event, strings, wait_for
from .webkit import (
    ORGANISER_TOKEN,
    bearer,
    database,
    looks_right,
    make_event,
    served_by_workers,
    serving,
)
from .webkit import codes as webkit_codes


@pytest.fixture
def watchers() -> Iterator[Watchers]:
    """Readers of live streams (test_web_tables.py's), closed at the end."""
    found = Watchers()
    yield found
    found.close()


def records_by_game(events: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """The (game, seq) of every record the stream sent, in the order sent."""
    return [(e["view"]["game"], r["seq"]) for e in events for r in e["view"]["records"]]


def play_match(http: httpx.Client, heads: dict[str, dict[str, str]], limit: int = 2000) -> list[tuple[int, int]]:
    """ann plays table 1 against the server's bot (bob) until the match is decided; each game's (number, last seq)."""
    rng = random.Random(3)
    for _ in range(limit):
        view = http.get(TABLE, headers=heads["ann"]).json()
        if view["match_over"]:
            return [(g["game"], g["seq"]) for g in view["games"]]
        assert view["legal"], view["to_act"]
        made = http.post(f"{TABLE}/records", json={"after": view["seq"], "record": rng.choice(view["legal"])}, headers=heads["ann"])
        assert made.status_code == 201, made.text
    raise AssertionError("the match was not decided")


def wait_until(events: list[dict[str, Any]], last: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not any(e["id"] == last for e in events) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert any(e["id"] == last for e in events), [e["id"] for e in events][-5:]


def test_a_best_of_three_reaches_every_watcher_whole_in_order_and_a_stream_resumes_across_games(db: str, watchers: Watchers) -> None:
    """Hole 3: a game's last records (the record that ends it, the reveal) used to be skipped, the stream jumping
    from the game's head before them to the next game's first record."""
    codes = live_event(db, mode="digital", ruleset="cardwars", best_of=3)
    with serving(db) as base, httpx.Client(base_url=base, timeout=20) as http:
        heads = {p: bearer(http.post("/api/join", json={"code": codes[p]}).json()["session"]) for p in PLAYERS}
        judge = bearer(http.post("/api/admin/login", json={"code": ORGANISER_TOKEN}).json()["session"])
        assert http.post("/api/admin/events/ev/tables/1/bot", json={"player": "bob"}, headers=judge).status_code == 201
        streams = {seat: watchers.watch(f"{base}{TABLE}/live", head) for seat, head in (("ann", heads["ann"]), ("spectator", {}))}
        for events in streams.values():
            wait_for(events, 1)
        played = play_match(http, heads)
        assert len(played) >= 2, played
        every = [(game, seq) for game, last in played for seq in range(1, last + 1)]
        for seat, events in streams.items():
            wait_until(events, f"{played[-1][0]}:{played[-1][1]}")
            sent = records_by_game(events)
            assert sent == every, f"{seat}'s stream"
            assert [e["id"] for e in events] == sorted((e["id"] for e in events), key=lambda i: tuple(map(int, i.split(":"))))

        # a phone that lost the network two records before game 1 ended comes back with the last record it saw
        first, last = played[0]
        resumed = watchers.watch(f"{base}{TABLE}/live", {}, f"{first}:{last - 2}")
        wait_until(resumed, f"{played[-1][0]}:{played[-1][1]}")
        assert records_by_game(resumed) == [(first, last - 1), (first, last), *every[last:]]
        assert resumed[0]["id"] == f"{first}:{last}" and resumed[0]["view"]["game"] == first
        watchers.close()


@pytest.mark.pg
def test_a_view_never_names_an_older_head_than_its_records_while_appends_race_it(pg_url: str) -> None:
    """Hole 4: on PostgreSQL the head and the lines were read by two statements, each seeing what was committed
    when it ran, so a view read while a record was written could carry records past the head it named (and a
    stream that resumed from that head sent them again)."""
    live_event(pg_url, mode="paper", ruleset="cardwars", best_of=3)
    _, engine = open_database(pg_url)
    torn: list[tuple[int, int, list[int]]] = []
    read = 0
    with serving(pg_url) as base:
        tablelib.look(engine, JUDGE)  # the table opened before the race
        writer = threading.Thread(target=lambda: [tablelib.play_game(engine, seed=s) for s in (1, 2)], daemon=True)

        def reader() -> None:
            nonlocal read
            with httpx.Client(base_url=base, timeout=20) as http:
                while writer.is_alive():
                    view = http.get(TABLE, params={"since": 0}).json()
                    read += 1
                    seqs = [r["seq"] for r in view["records"]]
                    if seqs != list(range(1, view["seq"] + 1)):
                        torn.append((view["game"], view["seq"], seqs[-3:]))

        readers = [threading.Thread(target=reader, daemon=True) for _ in range(3)]
        writer.start()
        for thread in readers:
            thread.start()
        writer.join(timeout=300)
        for thread in readers:
            thread.join(timeout=30)
    engine.dispose()
    assert read > 50, read
    assert not torn, f"{len(torn)} of {read} views named an older head than their records: {torn[:5]}"


def test_an_address_past_its_streams_is_refused_with_429_and_one_line(db: str, watchers: Watchers) -> None:
    live_event(db, mode="paper")
    with serving(db, streams_per_address=2) as base, httpx.Client(base_url=base, timeout=20) as http:
        held = [watchers.watch(f"{base}{TABLE}/live", {}) for _ in range(2)]
        for events in held:
            wait_for(events, 1)
        for path in (f"{TABLE}/live", "/api/events/ev/live"):  # a table's stream and an event's count alike
            refused = http.get(path)
            assert refused.status_code == 429, refused.text
            error = refused.json()["error"]
            assert "too many live streams from 127.0.0.1: 2 at most" in error and "\n" not in error
        watchers.close()  # a stream that ends gives its place back
        deadline = time.monotonic() + 20
        while True:
            with http.stream("GET", "/api/events/ev/live") as again:
                status = again.status_code
            if status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert status == 200


@pytest.mark.pg
def test_two_servers_sharing_one_postgresql_deliver_every_record_to_watchers_on_both(pg_url: str, watchers: Watchers) -> None:
    """Two `tournament serve` processes on different ports (as two machines would be), one database: records
    made through either reach the spectators and players watching on both, each once and in order."""
    codes = live_event(pg_url, mode="paper", ruleset="crossover")
    with served_by_workers(pg_url, 1) as one, served_by_workers(pg_url, 1) as two:
        bases = [one, two]
        with httpx.Client(timeout=20) as http:
            heads = {p: bearer(http.post(f"{one}/api/join", json={"code": codes[p]}).json()["session"]) for p in PLAYERS}
            streams = [watchers.watch(f"{base}{TABLE}/live", head) for base in bases for head in ({}, {}, heads["ann"])]
            for events in streams:
                wait_for(events, 1)
            rng = random.Random(2)
            for step in range(12):
                base = bases[step % 2]  # each record through the other server
                views = {p: http.get(f"{base}{TABLE}", headers=heads[p]).json() for p in PLAYERS}
                who = next(p for p in PLAYERS if views[p]["legal"])
                made = http.post(f"{base}{TABLE}/records", json={"after": views[who]["seq"], "record": rng.choice(views[who]["legal"])}, headers=heads[who])
                assert made.status_code == 201, made.text
            head = made.json()["seq"]
        for events in streams:
            wait_until(events, f"1:{head}")
            assert records_by_game(events) == [(1, seq) for seq in range(1, head + 1)]
        watchers.close()


def broadcast_event(db: str) -> dict[str, str]:
    """ann (Ann Archer) and bob (Bob Baker) at digital cardwars table 1, bob played by the server's bot; ann's code."""
    make_event(db, ["ann", "bob"], ruleset="cardwars", tables="digital", display={"ann": "Ann Archer", "bob": "Bob Baker"})
    found = webkit_codes(db)
    with database(db) as engine, Session(engine) as session, session.begin():
        witness.seat_bot(session, "ev", 1, "bob")
    return found


def test_many_watchers_of_a_table_cost_one_read_a_change_and_the_broadcast_one_drawing(db: str, watchers: Watchers, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty spectators on the API stream and five big screens: each change is read once for the spectators'
    seat and drawn once for the screens, not once a watcher (issue 33: a render per record per spectator); the
    table page's spectators' panels are drawn once from the same read."""
    codes = broadcast_event(db)
    reads: Counter[Any] = Counter()
    drawn: list[int] = []
    read_view, message = tables.read_view, tablepages._broadcast_message

    def counted_read(request: Any, event_id: str, table: int, seat: Any, since: int, game: Any) -> Any:
        reads[seat] += 1
        return read_view(request, event_id, table, seat, since, game)

    def counted_drawing(request: Any, view: Any) -> Any:
        drawn.append(view.seq)
        return message(request, view)

    panel_drawings: list[int] = []
    panel = tablepages._drawn_panel

    def counted_panel(request: Any, view: Any) -> str:
        panel_drawings.append(view.seq)
        return panel(request, view)

    monkeypatch.setattr(tablepages, "_drawn_panel", counted_panel)
    monkeypatch.setattr(tables, "read_view", counted_read)
    monkeypatch.setattr(tablepages, "_broadcast_message", counted_drawing)
    with serving(db) as base, httpx.Client(base_url=base, timeout=20) as http:
        ann = bearer(http.post("/api/join", json={"code": codes["ann"]}).json()["session"])
        crowd = [watchers.watch(f"{base}{TABLE}/live", {}) for _ in range(20)]
        screens = [watchers.watch(f"{base}/e/ev/tables/1/broadcast/live", {}) for _ in range(5)]
        for events in crowd + screens:
            wait_for(events, 1)
        before, drawn_before = reads[None], len(drawn)
        rng = random.Random(4)
        for _ in range(5):
            view = http.get(TABLE, headers=ann).json()
            made = http.post(f"{TABLE}/records", json={"after": view["seq"], "record": rng.choice(view["legal"])}, headers=ann)
            assert made.status_code == 201, made.text
            head = f"1:{made.json()['seq']}"
            for events in crowd + screens:
                wait_until(events, head)
        assert reads[None] - before <= 5 + 2, reads  # one a change (and one if a change came during a read)
        assert len(drawn) - drawn_before <= 5 + 2, drawn
        # the table page's spectators fetch its panel after each change: the view the feed read, drawn once
        before = reads[None]
        panels = {http.get("/e/ev/tables/1/panel").text for _ in range(10)}
        assert len(panels) == 1 and f'data-seq="{made.json()["seq"]}"' in panels.pop()
        assert reads[None] == before and panel_drawings == [made.json()["seq"]], panel_drawings
        watchers.close()


def test_the_broadcast_page_shows_names_the_score_and_no_hidden_card_and_follows_the_table(db: str, watchers: Watchers) -> None:
    codes = broadcast_event(db)
    with serving(db) as base, httpx.Client(base_url=base, timeout=20) as http:
        ann = bearer(http.post("/api/join", json={"code": codes["ann"]}).json()["session"])
        screen = watchers.watch(f"{base}/e/ev/tables/1/broadcast/live", {})
        wait_for(screen, 1)
        rng = random.Random(5)
        for _ in range(6):
            view = http.get(TABLE, headers=ann).json()
            assert http.post(f"{TABLE}/records", json={"after": view["seq"], "record": rng.choice(view["legal"])}, headers=ann).status_code == 201
        head = http.get(TABLE).json()
        wait_until(screen, f"1:{head['seq']}")
        shown = http.get("/e/ev/tables/1/broadcast")
        assert shown.status_code == 200 and "Ann Archer" in shown.text and "Bob Baker" in shown.text
        assert 'data-broadcast="/e/ev/tables/1/broadcast/live"' in shown.text and "broadcast.js" in shown.text
        public = strings(head)
        hidden = (hidden_cards(db, "ann") | hidden_cards(db, "bob")) - public
        assert hidden, "the players hold cards nobody else sees"
        for text in [shown.text, *(e["data"] for e in screen)]:
            assert not {card for card in hidden if card in text}, "a hidden card was shown"
        assert f'data-seq="{head["seq"]}"' in screen[-1]["data"] and "Ann Archer" in screen[-1]["data"]
        watchers.close()


@pytest.mark.browser
def test_the_broadcast_page_reads_at_390_px_in_chromium_and_follows_the_table(page: Any, db: str, tmp_path: Path) -> None:
    """The big screen's page on a phone: names, the score and the public drawing within 390 px, and a record
    made at the table reaches it by its stream (screenshots to `$HEADJUDGE_SCREENSHOTS`)."""
    codes = broadcast_event(db)
    shots = Path(os.environ.get("HEADJUDGE_SCREENSHOTS") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    with serving(db) as base, httpx.Client(base_url=base, timeout=20) as http:
        ann = bearer(http.post("/api/join", json={"code": codes["ann"]}).json()["session"])
        rng = random.Random(6)
        for _ in range(8):
            view = http.get(TABLE, headers=ann).json()
            assert http.post(f"{TABLE}/records", json={"after": view["seq"], "record": rng.choice(view["legal"])}, headers=ann).status_code == 201
        page.goto(f"{base}/e/ev/tables/1/broadcast")
        score = page.locator(".broadcast-score").inner_text()
        assert "Ann Archer" in score and "Bob Baker" in score
        looks_right(page, shots / "broadcast-390.png")
        view = http.get(TABLE, headers=ann).json()
        made = http.post(f"{TABLE}/records", json={"after": view["seq"], "record": rng.choice(view["legal"])}, headers=ann)
        assert made.status_code == 201, made.text
        page.wait_for_selector(f"#broadcast-panel[data-seq='{made.json()['seq']}']", timeout=15_000)


def test_a_spectators_panel_is_the_round_being_played_though_a_stream_still_follows_the_table_in_an_earlier_round(
    db: str, watchers: Watchers,
) -> None:
    """A screen left on table 1 keeps its stream of round 1's table 1 after round 2 is paired; that feed hears
    nothing of round 2, so a spectator's panel of table 1 must not be the view it last read (a frozen table)."""
    make_event(db, ["ann", "bob", "cat", "dan"], tables="paper")
    codes = webkit_codes(db)
    with serving(db) as base, httpx.Client(base_url=base, timeout=20) as http:
        judge = bearer(http.post("/api/admin/login", json={"code": ORGANISER_TOKEN}).json()["session"])
        screen = watchers.watch(f"{base}{TABLE}/live", {})
        wait_for(screen, 1)
        view = http.get(TABLE, headers=judge).json()
        seat = judge if view["legal"] else bearer(http.post("/api/join", json={"code": codes[view["to_act"][0]]}).json()["session"])
        view = http.get(TABLE, headers=seat).json()
        made = http.post(f"{TABLE}/records", json={"after": view["seq"], "record": view["legal"][0]}, headers=seat)
        assert made.status_code == 201, made.text
        wait_until(screen, f"1:{made.json()['seq']}")
        assert f'data-seq="{made.json()["seq"]}"' in http.get("/e/ev/tables/1/panel").text
        with database(db) as engine, Session(engine) as session, session.begin():  # round 1 reported, round 2 paired
            for paired in service.current_tables(session, service.get_event(session, "ev")):
                a, b = paired.players
                service.report(session, "ev", paired.number, result=service.Tally({a: 1, b: 0}), reason="the judge saw it", judge=True)
            service.pair(session, "ev")
        panel = http.get("/e/ev/tables/1/panel").text
        assert 'data-seq="0"' in panel and "The result that counts" not in panel, "round 2's table, not round 1's"
        watchers.close()


def test_a_stream_of_a_table_ends_once_the_next_round_is_paired_so_its_screen_reconnects_to_the_table_being_played(
    db: str, watchers: Watchers, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A big screen and a spectator's stream on table 1 of round 1: round 2 paired, their channel hears nothing
    more, so at the next keepalive each stream ends (the browser reconnects to round 2's table 1), instead of
    showing round 1's table until its 10 minutes are up."""
    monkeypatch.setattr(tables, "KEEPALIVE_SECONDS", 0.3)
    make_event(db, ["ann", "bob", "cat", "dan"], tables="paper")
    webkit_codes(db)
    with serving(db) as base:
        screen = watchers.watch(f"{base}/e/ev/tables/1/broadcast/live", {})
        spectator = watchers.watch(f"{base}{TABLE}/live", {})
        wait_for(screen, 1)
        wait_for(spectator, 1)
        time.sleep(1)
        assert all(thread.is_alive() for thread in watchers.threads), "round 1 is being played: the streams go on"
        with database(db) as engine, Session(engine) as session, session.begin():
            for paired in service.current_tables(session, service.get_event(session, "ev")):
                a, b = paired.players
                service.report(session, "ev", paired.number, result=service.Tally({a: 1, b: 0}))
            service.pair(session, "ev")
        for thread in watchers.threads:
            thread.join(timeout=10)
        assert not any(thread.is_alive() for thread in watchers.threads), "the streams of round 1's table ended"
        watchers.close()


@pytest.mark.browser
def test_a_broadcast_left_open_shows_the_next_rounds_table_once_it_is_paired(page: Any, db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "KEEPALIVE_SECONDS", 0.3)
    make_event(db, ["ann", "bob", "cat", "dan"], tables="paper")
    webkit_codes(db)
    with serving(db) as base:
        page.goto(f"{base}/e/ev/tables/1/broadcast")
        assert page.locator(".screen-what").inner_text().startswith("Round 1 · table 1")
        with database(db) as engine, Session(engine) as session, session.begin():
            for paired in service.current_tables(session, service.get_event(session, "ev")):
                a, b = paired.players
                service.report(session, "ev", paired.number, result=service.Tally({a: 1, b: 0}))
            service.pair(session, "ev")
        page.wait_for_selector(".screen-what:has-text('Round 2 · table 1')", timeout=15_000)
        assert page.locator("#broadcast-panel").get_attribute("data-round") == "2"
