"""What one seat may push into a live table (issue 33): free text of at most 500 characters a field (T-144), and
records at a pace (T-145), refused with 429 and one line past it. Before, a seated player attached a 1.9 MB
`note` to every record, 57 MB in 2.5 s, each sent again to every watcher."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from referee.ruleset import JUDGE
from tests.tournament.tablelib import live_event as service_event
from tests.tournament.tablelib import look
from tournament import service
from tournament.service import livetable
from tournament.web import pace

from .test_web_tables import PLAYERS, TABLE, live_event, play_through_api
from .webkit import client, sign_in


def test_a_note_past_500_characters_is_refused_in_one_line_and_not_written(db_url: str) -> None:
    # Fails on the code before issue 33: a 1.9 MB note was taken (201) and sent to every watcher.
    codes = live_event(db_url)
    with client(db_url) as c:
        heads = {p: sign_in(c, codes[p]) for p in PLAYERS}
        views = {p: c.get(TABLE, headers=heads[p]).json() for p in PLAYERS}
        busy = next(p for p in PLAYERS if views[p]["legal"])
        record = views[busy]["legal"][0]
        for note in ("x" * 1_900_000, "é" * 501):
            refused = c.post(f"{TABLE}/records", json={"after": views[busy]["seq"], "record": {**record, "note": note}}, headers=heads[busy])
            assert refused.status_code == 400, refused.status_code
            error = refused.json()["error"]
            assert error == f"record: field note: at most 500 characters at a live table, not {len(note):,}"
        assert c.get(TABLE, headers=heads[busy]).json()["seq"] == views[busy]["seq"]  # nothing written
        made = c.post(f"{TABLE}/records", json={"after": views[busy]["seq"], "record": {**record, "note": "é" * 500}}, headers=heads[busy])
        assert made.status_code == 201, made.text


def test_a_games_own_free_text_has_the_same_bound(db_url: str) -> None:
    # stccg-multiplayer's `action.text` is text no rule reads (`Ruleset.unread`): bounded like a note.
    engine = service_event(db_url, ruleset="stccg-multiplayer")
    try:
        view = look(engine, JUDGE)
        actor = next(p for p in view.players if look(engine, p).legal)
        with Session(engine) as session, session.begin(), pytest.raises(service.Usage, match="field text: at most 500 characters"):
            livetable.append(session, "ev", 1, actor, {"type": "action", "by": actor, "text": "y" * 501}, view.seq)
    finally:
        engine.dispose()


class Clock:
    """The pace's clock, moved by the test: a loaded machine's slow requests must not refill the bucket."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_a_seat_recording_too_fast_is_refused_with_429_and_one_line(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Fails on the code before issue 33: nothing bounded a seat's appends.
    clock = Clock()
    monkeypatch.setattr(pace, "time", clock)
    codes = live_event(db_url)
    with client(db_url) as c:
        c.app.state.pace = pace.Pace(rate=1, burst=3)
        heads = {p: sign_in(c, codes[p]) for p in PLAYERS}
        stale = {"after": 999, "record": {"type": "attack", "by": "ann", "attackers": []}}
        answers = [c.post(f"{TABLE}/records", json=stale, headers=heads["ann"]) for _ in range(4)]
        assert [a.status_code for a in answers] == [409, 409, 409, 429]  # what is refused counts too: it was sent
        body = answers[-1].json()
        assert body["status"] == 429 and body["error"] == "too many records from ann at table 1: at most 1 a second; wait a moment"
        assert c.post(f"{TABLE}/records", json=stale, headers=heads["bob"]).status_code == 409  # another seat's own pace
        clock.now += 1.1
        assert c.post(f"{TABLE}/records", json=stale, headers=heads["ann"]).status_code == 409  # one more a second


def test_the_default_pace_lets_bots_play_a_whole_game_as_fast_as_they_can(db_url: str) -> None:
    # T-145: generous enough for the tests' and benches' bots (play_through_api asserts every append's 201).
    codes = live_event(db_url)
    with client(db_url) as c:
        assert (c.app.state.pace.rate, c.app.state.pace.burst) == (pace.RATE, pace.BURST)
        heads = {p: sign_in(c, codes[p]) for p in PLAYERS}
        play_through_api(c, db_url, heads)
        assert c.get(TABLE, headers=heads["ann"]).json()["over"]
