"""A live table's result is its log's, and one match has one result (issue 33, hole 2), on SQLite and PostgreSQL.

At an event with live tables, a table played live (every table at a digital
event; at a paper event, once its log holds a record: T-132) takes its result
from its log: a typed claim, an upload, a slip or a CSV row for it is refused
unless it is a judge's ruling with its reason. Once a match is reported by any
path, its table refuses records, acknowledgements and confirmations (409, one
line) and its page says which result counts, in words with names (T-133).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from tests.tournament.tlib import cli, game_log
from tests.tournament.webkit import (
    client,
    codes,
    database,
    make_event,
    organiser,
    player_page,
    sign_in,
)
from tournament import service

TABLE = "/api/events/ev/tables/1"
NAMES = {"bob": "Bob Dylan", "cat": "Cat Power"}


def record_once(c: Any, heads: dict[str, dict[str, str]]) -> int:
    """Whoever may act at table 1 records the first record their view offers; the head after it."""
    views = {p: c.get(TABLE, headers=h).json() for p, h in heads.items()}
    who = next(p for p, v in views.items() if v["legal"])
    answer = c.post(f"{TABLE}/records", json={"after": views[who]["seq"], "record": views[who]["legal"][0]}, headers=heads[who])
    assert answer.status_code == 201, answer.text
    return int(answer.json()["seq"])


def game_one_won_by_cat(c: Any, heads: dict[str, dict[str, str]]) -> None:
    """Game 1 played at the table until bob concedes it, and both players confirm its end: the match goes on."""
    seq = record_once(c, heads)
    conceded = c.post(f"{TABLE}/records", json={"after": seq, "record": {"type": "concede", "by": "bob"}}, headers=heads["bob"])
    assert conceded.status_code == 201, conceded.text
    end = c.get(TABLE, headers=heads["cat"]).json()
    assert end["game"] == 2 and end["games"][0]["winners"] == ["cat"], "game 1 is cat's, and game 2 begins"
    for player in NAMES:
        confirmed = c.post(f"{TABLE}/confirm", json={"game": 1, "seq": end["games"][0]["seq"]}, headers=heads[player])
        assert confirmed.status_code == 201 and confirmed.json() == {"reported": False}, confirmed.text


def assert_table_stopped(c: Any, heads: dict[str, dict[str, str]], words: str) -> None:
    """The table refuses every kind of write with the one line naming the result that counts; its page says it."""
    stopped = f"table 1 of round 1 has its result ({words}): its live table takes nothing more"
    view = c.get(TABLE, headers=heads["cat"]).json()
    assert view["reported"] and view["legal"] == [], "a reported table offers nothing to record"
    record = {"type": "concede", "by": "cat"}  # legal at any time: only the result stops it
    writes = {
        "records": c.post(f"{TABLE}/records", json={"after": view["seq"], "record": record}, headers=heads["cat"]),
        "seen": c.post(f"{TABLE}/seen", json={"game": view["game"], "seq": view["seq"]}, headers=heads["bob"]),
        "confirm": c.post(f"{TABLE}/confirm", json={"game": view["game"], "seq": view["seq"]}, headers=heads["bob"]),
    }
    for what, answer in writes.items():
        assert answer.status_code == 409, (what, answer.text)
        assert answer.json()["error"] == stopped, what
    page = html.unescape(c.get("/e/ev/tables/1").text)  # a spectator's page
    assert f"The result that counts: {words}." in page.replace("<b>", "").replace("</b>", "")
    assert "Nobody typed it" not in page and "data-record" not in page
    assert "This table's games are not the result, and the table takes nothing more." in page
    standings = {row["player"]: row["points"] for row in c.get("/api/events/ev/standings").json()}
    assert standings == {"bob": 3, "cat": 0}


def test_a_typed_claim_at_a_table_played_live_needs_a_ruling_and_the_ruling_stops_the_table(db_url: str) -> None:
    """The crossing of issue 33: cat won game 1 at the table, then bob typed 2-0 and cat confirmed it; the table
    went on, and its page said "cat won… The result is in… Nobody typed it" while the standings said bob 2-0.
    Now the typed claim is refused; the organiser's ruling (with its reason) counts, and the table stops there
    and says which result counts."""
    make_event(db_url, list(NAMES), best_of=3, tables="paper", display=NAMES)
    keys = codes(db_url)
    with client(db_url) as c:
        heads = {p: sign_in(c, keys[p]) for p in NAMES}
        game_one_won_by_cat(c, heads)
        claimed = c.post("/api/me/claim", json={"games": {"bob": 2, "cat": 0}}, headers=heads["bob"])
        assert claimed.status_code == 409, claimed.text
        assert claimed.json()["error"] == (
            "table 1 of round 1 (bob, cat) is played live: its result comes from its log at the table, reported once "
            "the players confirm it; any other result there is a judge's ruling, with its reason"
        )
        assert c.get("/api/events/ev/round").json()["tables"][0]["games"] is None, "nothing was reported"
        ruled = c.post("/api/admin/events/ev/rule", headers=organiser(c),
                       json={"table": 1, "reason": "cat's phone recorded bob's games as hers; bob won 2-0", "games": {"bob": 2, "cat": 0}})
        assert ruled.status_code == 201, ruled.text
        assert c.get(TABLE).json()["counted"] == {"source": "judge", "from_table": False, "games": {"bob": 2, "cat": 0}, "draws": 0, "places": None}
        assert_table_stopped(c, heads, "Bob Dylan wins 2-0, a judge's ruling")


def test_a_result_typed_before_the_table_was_played_stops_it_when_it_is_opened(db_url: str) -> None:
    """A paper table nobody recorded at takes a typed claim; once it is in, the table takes nothing."""
    make_event(db_url, list(NAMES), best_of=3, tables="paper", display=NAMES)
    keys = codes(db_url)
    with client(db_url) as c:
        heads = {p: sign_in(c, keys[p]) for p in NAMES}
        assert c.post("/api/me/claim", json={"games": {"bob": 2, "cat": 0}}, headers=heads["bob"]).status_code == 201
        done = c.post("/api/me/confirm", json={"claimant": "bob"}, headers=heads["cat"])
        assert done.status_code == 201 and done.json()["state"] == "done", done.text
        assert_table_stopped(c, heads, "Bob Dylan wins 2-0, typed by the players and confirmed")


def test_at_a_digital_event_every_result_but_the_tables_is_a_ruling(db_url: str, tmp_path: Path) -> None:
    """The dealt game is not optional: a slip, a CSV row, a player's upload or claim is refused; a ruling counts."""
    make_event(db_url, ["ann", "bob", "cat", "dan"], tables="digital")
    with database(db_url) as engine, Session(engine) as session:
        (a, b), (c_, d) = ([m.player_a, m.player_b] for m in service.matches(session, "ev", 1))
    refused = cli(db_url, "report", "ev", "--table", "1", "--result", f"{a}=1,{b}=0", code=service.EXIT_CONFLICT)
    assert refused.stderr.strip().splitlines() == [
        f"tournament: table 1 of round 1 ({a} vs {b}) is played live: its result comes from its log at the table, "
        "reported once the players confirm it; any other result there is a judge's ruling, with its reason"
    ]
    (tmp_path / "slips.csv").write_text("table,result\n2,1-0\n")
    refused = cli(db_url, "results", "ev", "--from", str(tmp_path / "slips.csv"), code=service.EXIT_CONFLICT)
    assert f"{tmp_path / 'slips.csv'} line 2, field table: table 2 of round 1 is played live" in refused.stderr
    (tmp_path / "g.jsonl").write_bytes(game_log(a, b, 3))
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "g.jsonl"), code=service.EXIT_CONFLICT)
    assert "is played live" in refused.stderr
    with database(db_url) as engine, Session(engine) as session, session.begin():
        for player, kwargs in ((a, {"logs": [("g.jsonl", game_log(a, b, 3))]}), (c_, {"result": service.Tally({c_: 1, d: 0})})):
            try:
                service.claim(session, "ev", player, **kwargs)  # type: ignore[arg-type]
            except service.Conflict as exc:
                assert "is played live" in exc.message
            else:
                raise AssertionError(f"{player}'s claim at a digital table was taken")
    with client(db_url) as c:  # the player's page offers no typed result there
        player_page(c, codes(db_url)[a])
        mine = c.get("/me").text
        assert 'id="from-the-table"' in mine and 'action="/me/result"' not in mine and 'action="/me/logs"' not in mine
    cli(db_url, "report", "ev", "--table", "1", "--result", f"{a}=1,{b}=0", "--reason", "the tablet died; the judge saw the end")
    rows = cli(db_url, "pairings", "ev", "--json").stdout
    assert '"source":"judge"' in rows.replace(" ", "")
    assert f"the match result is reported: {a} wins 1-0, a judge's ruling" in cli(db_url, "table", "ev", "1").stdout
