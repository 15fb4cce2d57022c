"""A digital table's "Is that how it ended?" says the result in words (issue 33, hole 5), T-134.

Who won, by what score, and how the game ended; the log's last line (a
digital game's: the seed's reveal) stays there as a detail. Checked in the
page's HTML on both databases, and in Chromium at 390 px.
"""

from __future__ import annotations

import html
import io
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from referee.engine import judge
from tests.tournament.webkit import (
    client,
    codes,
    database,
    join,
    looks_right,
    make_event,
    player_page,
    serving,
)
from tournament.service import livetable, witness

NAMES = {"ann": "Ann Ålvik", "bob": "Bob Okafor"}
HOW = {"concede": "{loser} conceded", "time": "time was called", "game_loss": "a judge gave {loser} a game loss"}


def played_by_bots(db_url: str) -> tuple[str, str]:
    """A digital table whose one game the server's bot played for both seats, to its end: what the confirm box
    must say of it (from the referee's verdict on the stored log), and the game's seed."""
    make_event(db_url, list(NAMES), tables="digital", display=NAMES)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        for player in NAMES:
            witness.seat_bot(session, "ev", 1, player, rated=True)
        game = livetable.current_game(session, livetable.seating(session, "ev", 1))
        assert game.over and game.seed is not None
        seed = game.seed
        result = judge(io.BytesIO(livetable.log_bytes(session, game))).verdict.result
    assert result is not None
    first, second = sorted(NAMES, key=lambda p: result.placements[p])
    score = f"{result.score[first]:g}-{result.score[second]:g}"
    loser = NAMES[second]
    how = HOW[result.reason].format(loser=loser) if result.reason in HOW else f"the game's own end ({result.reason.replace('_', ' ')})"
    said = f"{NAMES[first]} won {score}" if result.winners else f"A draw, {score}"
    return f"{said}: {how}", seed


def test_the_confirm_box_says_who_won_by_what_score_and_why_and_keeps_the_seed_as_a_detail(db_url: str) -> None:
    ending, seed = played_by_bots(db_url)
    keys = codes(db_url)
    with client(db_url) as c:
        player_page(c, keys["ann"])
        page = html.unescape(c.get("/e/ev/tables/1").text)
    box = re.search(r'<div class="box note confirm-box">(.*?)</div>', page, re.S)
    assert box is not None, "ann has game 1 to confirm"
    said, _, detail = box.group(1).partition("<details")
    assert f"Game 1 ended: <b class=\"ending\">{ending}</b>. Is that how it ended?" in said
    assert seed not in said and seed in detail, "the seed is a detail, not the question"
    assert "<summary>The log's last line (record" in detail


@pytest.mark.browser
def test_the_confirm_box_reads_at_390_px_in_chromium(browser: Any, tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 't.db'}"
    ending, seed = played_by_bots(db_url)
    keys = codes(db_url)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        with serving(db_url) as base:
            join(page, base, keys["ann"])
            page.goto(f"{base}/e/ev/tables/1")
            box = page.locator(".confirm-box")
            box.wait_for()
            assert box.locator(".ending").inner_text() == ending
            assert box.locator("details.last-line").get_attribute("open") is None and not box.get_by_text(seed).is_visible()
            box.scroll_into_view_if_needed()
            looks_right(page, tmp_path / "confirm-390.png")
            box.locator("details.last-line summary").click()
            assert box.get_by_text(seed).is_visible()
            looks_right(page, tmp_path / "confirm-390-detail.png")  # the 64 digits wrap inside the phone
            box.locator("button.confirm").click()
            page.wait_for_selector(".confirm-box", state="detached", timeout=15_000)
    finally:
        context.close()
