"""A 32-player crossover event with deck lists, from the lists to the metagame picture (issue 25's event).

Lists come from a folder; three players have an illegal list or none and are
not paired (T-113); one game log whose deck is not its player's list is refused
into the judge queue with the card named (T-114), and a judge rules (T-115);
the lists are published and the metagame drawn. On SQLite and PostgreSQL; the
metagame page in headless Chromium at a phone's and a laptop's width, with
screenshots ($HEADJUDGE_SCREENSHOTS or the test's folder), left open through two
refreshes of the event.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from schemas.log import Event
from tests.tournament.decklib import crossover_log, deck_of, list_text, swapped, write_lists
from tests.tournament.test_web_design import SMALL_TARGETS, serious
from tests.tournament.tlib import cli, cli_json
from tests.tournament.webkit import ORGANISER_TOKEN, caught_up, codes, serving
from tournament import service

PLAYERS = [f"p{n:02d}" for n in range(1, 33)]
ILLEGAL, MISSING = "p30", ("p31", "p32")


def play_round(db: str, tmp: Path, number: int, cheat: str | None = None) -> list[str]:
    """Every table of the round reported from bot logs (`cheat` brings another deck than their list): the lines
    `report` printed when it refused a log."""
    said = []
    for table in cli_json(db, "pairings", "ev")["tables"]:
        if table["games"] is not None:
            continue
        a, b = table["players"]
        decks = {p: swapped(deck_of(p)) for p in (a, b) if p == cheat}
        log = tmp / f"r{number}-t{table['table']}.jsonl"
        log.write_bytes(crossover_log(a, b, 100 * number + table["table"], event=Event("ev", number, table["table"]), decks=decks))
        code = service.EXIT_LOG_REJECTED if decks else 0
        said.append(cli(db, "report", "ev", "--table", str(table["table"]), "--log", str(log), code=code).stderr)
    return [s for s in said if s]


def build(db: str, tmp: Path) -> dict[str, Any]:
    """The whole event; what the test looks at on the way."""
    cli(db, "create", "ev", "--ruleset", "crossover", "--best-of", "1", "--no-require-chain", "--name", "Crossover Open", "--seed", "7")
    cli(db, "register", "ev", *PLAYERS)
    folder = write_lists(tmp / "lists", [p for p in PLAYERS if p not in MISSING])
    (folder / f"{ILLEGAL}.txt").write_text(list_text(deck_of(ILLEGAL)) + "Extra Card (monster: strength 1)\n")  # 21 cards: XO-1.2
    cli(db, "decks", "ev", "--from", str(folder))
    before = cli_json(db, "decks", "ev")
    cli(db, "pair", "ev")
    round1 = cli_json(db, "pairings", "ev")
    cheat = round1["tables"][0]["players"][1]
    refused = play_round(db, tmp, 1, cheat)
    queue = cli_json(db, "decks", "ev")["refused"]
    ruled = cli_json(db, "deck-ruling", "ev", "--table", "1", "--reason", "deck problem: the default penalty")
    cli(db, "pair", "ev")
    play_round(db, tmp, 2)
    cli(db, "cut", "ev", "--cut", "4")
    for number in (3, 4):
        cli(db, "pair", "ev")
        play_round(db, tmp, number)
    cli(db, "decks", "ev", "--publish")
    return {"before": before, "round1": round1, "cheat": cheat, "refused": refused, "queue": queue, "ruled": ruled,
            "meta": cli_json(db, "meta", "ev")}  # fmt: skip


def test_a_32_player_crossover_event_with_lists(db_url: str, tmp_path: Path) -> None:
    seen = build(db_url, tmp_path)
    assert seen["before"]["without_legal_list"] == [ILLEGAL, *MISSING]
    problems = next(p for p in seen["before"]["players"] if p["player"] == ILLEGAL)["problems"]
    assert problems[0]["rule"] == "XO-1.2"  # 21 cards (the extra one does not translate either: XO-1.5)
    seated = {p for t in seen["round1"]["tables"] for p in t["players"]} | {seen["round1"]["bye"]}
    assert seated == set(PLAYERS) - {ILLEGAL, *MISSING} and len(seen["round1"]["tables"]) == 14  # T-113: 29 paired
    cheat = seen["cheat"]
    changed = next(c for c in reversed(deck_of(cheat).cards) if c.stats).name
    (said,) = seen["refused"]
    assert f"{cheat}: {changed}: registered" in said and "waits for a judge" in said
    (waiting,) = seen["queue"]
    assert (waiting["round"], waiting["table"]) == (1, 1)
    assert [(d["card"], d["change"]) for d in waiting["differences"][cheat]] == [(changed, "stats")]
    winner = next(p for p in seen["round1"]["tables"][0]["players"] if p != cheat)
    assert seen["ruled"]["table"]["games"] == {winner: 1, cheat: 0} and seen["ruled"]["table"]["reason"].startswith("deck problem")
    meta = seen["meta"]
    assert meta["players"] == 32 and meta["unknown"] == 3 and meta["top_cut"] == 4  # the three without a legal list: unknown
    assert sum(k["players"] for k in meta["kinds"]) == 29 and sum(k["top_cut"] for k in meta["kinds"]) == 4
    assert {k["kind"] for k in meta["kinds"]} <= {"Magic: The Gathering (experimental)", ".hack//Enemy", "Star Trek CCG (First Edition)", "Star Trek CCG (Second Edition)"}
    log = json.loads(cli(db_url, "log", "ev", "--json").stdout)
    kinds = [e["type"] for e in log]
    assert kinds.count("deck_registered") == 30 and kinds.count("decks_differ") == 1 and kinds.count("deck_ruled") == 1
    assert "decks_published" in kinds
    cli(db_url, "verify", "ev")


@pytest.mark.browser
def test_the_metagame_page_in_chromium_at_both_widths(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tournament.db'}"
    build(db, tmp_path)
    shots = Path(os.environ.get("HEADJUDGE_SCREENSHOTS") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    with serving(db, poll_seconds=0.5) as base:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        try:
            page = context.new_page()
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 4" not in m.text else None)  # a favicon
            for width in (390, 1366):
                page.set_viewport_size({"width": width, "height": 844})
                assert page.goto(f"{base}/e/ev/meta").status == 200
                assert page.locator("svg.meta g.kind").count() >= 2
                assert page.locator("svg.meta rect.cut").count() >= 1, "the top cut is marked"
                if width == 390:
                    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
                assert serious(page) == [], f"the metagame at {width} px: accessibility"
                assert page.evaluate(SMALL_TARGETS) == [], f"the metagame at {width} px: small targets"
                page.screenshot(path=str(shots / f"meta-{width}.png"), full_page=True)
            page.set_viewport_size({"width": 390, "height": 844})
            for path in ("/e/ev/decks", "/e/ev/decks/p01"):
                assert page.goto(base + path).status == 200
                assert serious(page) == [] and page.evaluate(SMALL_TARGETS) == [], path
            page.screenshot(path=str(shots / "deck-list-390.png"), full_page=True)
            keys = codes(db)  # the organiser token, and a code for each player
            page.goto(f"{base}/join#code={keys['p01']}")
            page.wait_for_url(f"{base}/me")
            assert "Legal: 20 cards" in page.content() and "only through a judge" in page.content()  # round 1 is long paired
            assert serious(page) == [] and page.evaluate(SMALL_TARGETS) == [], "/me with the deck form"
            page.screenshot(path=str(shots / "me-deck-390.png"), full_page=True)
            boss = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # the organiser's own cookies
            boss.goto(f"{base}/admin")
            boss.fill("#token", ORGANISER_TOKEN)
            boss.click("button:has-text('Sign in')")
            boss.wait_for_url(f"{base}/admin")
            assert boss.goto(f"{base}/admin/e/ev/decks").status == 200
            assert "3 without a legal list" in boss.content()
            assert serious(boss) == [] and boss.evaluate(SMALL_TARGETS) == [], "the organiser's lists"
            boss.screenshot(path=str(shots / "admin-decks-390.png"), full_page=True)
            boss.context.close()
            page.goto(f"{base}/e/ev/meta")
            for n in range(2):  # the page stays open while the event changes twice: it reloads itself each time
                page.evaluate("window.__stayed = true")
                with page.expect_navigation(timeout=10_000):
                    cli(db, "rename", "ev", "p01", f"Player One {n}")
                caught_up(page, db)  # drawn at the rename's head and loaded: no reload of it still to come
                assert page.evaluate("window.__stayed") is None
                assert page.locator("svg.meta").count() == 1
            assert errors == []
        finally:
            context.close()
    print(f"screenshots: {shots}")
