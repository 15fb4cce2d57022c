"""What one live-table request costs the database (issue 33, item 3): the statements each sends, counted as the
server sends them. A phone asks for its seat's view after every record and each record is an append, so these
two requests are the table's load; a statement more on either is paid hundreds of times a game."""

from __future__ import annotations

from .sqlcount import statements
from .test_web_tables import PLAYERS, TABLE, live_event
from .webkit import client, sign_in


def test_a_seat_s_view_reads_the_session_the_table_and_its_witnesses_once(db_url: str) -> None:
    """The credential, the table with its match and every game's head (one statement), the witnesses: three
    reads. Was six: the event, the match and the games each read alone."""
    codes = live_event(db_url, mode="paper", ruleset="cardwars")
    with client(db_url) as c:
        heads = {p: sign_in(c, codes[p]) for p in PLAYERS}
        c.get(TABLE, headers=heads["ann"]).raise_for_status()  # the table opened (its first game started)
        with statements() as sent:
            view = c.get(TABLE, headers=heads["ann"])
        assert view.status_code == 200 and view.json()["seat"] == "ann"
    assert sent == ["SELECT credentials", "SELECT events live_games matches", "SELECT live_witness"], sent


def test_an_append_reads_the_session_and_the_table_once_and_writes_the_head_and_its_lines_in_one_statement_each(db_url: str) -> None:
    codes = live_event(db_url, mode="paper", ruleset="cardwars")
    with client(db_url) as c:
        heads = {p: sign_in(c, codes[p]) for p in PLAYERS}
        views = {p: c.get(TABLE, headers=heads[p]).json() for p in PLAYERS}
        actor = next(p for p in PLAYERS if views[p]["legal"])
        record = {"after": views[actor]["seq"], "record": views[actor]["legal"][0]}
        with statements() as sent:
            answer = c.post(f"{TABLE}/records", json=record, headers=heads[actor])
        assert answer.status_code == 201, answer.text
        assert c.get(TABLE, headers=heads[actor]).json()["seq"] == views[actor]["seq"] + len(answer.json()["records"])
    reads = [s for s in sent if s.startswith("SELECT")]
    writes = [s for s in sent if not s.startswith("SELECT")]
    assert sorted(reads) == ["SELECT credentials", "SELECT events live_games matches"], sent
    assert writes == ["UPDATE live_games", "INSERT live_lines"], sent


def test_a_sign_in_s_receipt_is_made_once_and_not_written_again(db_url: str) -> None:
    """A change through the web keeps a receipt (web/receipts.py); one whose outcome is only what it was made
    with (a sign-in's answer carries a session, never stored) is one INSERT, not an INSERT and an UPDATE."""
    codes = live_event(db_url, mode="paper", ruleset="cardwars")
    with client(db_url) as c, statements() as sent:
        sign_in(c, codes["ann"])
    assert sent.count("INSERT receipts") == 1 and "UPDATE receipts" not in sent, sent


def test_a_device_s_seen_reads_the_table_and_its_games_once(db_url: str) -> None:
    """`seen` is sent by every player's device after each record it shows: the table with its games is one read
    (`seated`), not the table's statement and then its games again."""
    codes = live_event(db_url, mode="paper", ruleset="cardwars")
    with client(db_url) as c:
        head = sign_in(c, codes["ann"])
        view = c.get(TABLE, headers=head).json()
        with statements() as sent:
            answer = c.post(f"{TABLE}/seen", json={"game": view["game"], "seq": view["seq"]}, headers=head)
        assert answer.status_code == 201 and answer.json() == {"seen": view["seq"]}, answer.text
    assert sent.count("SELECT events live_games matches") == 1 and "SELECT live_games" not in sent, sent
