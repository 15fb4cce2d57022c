"""A whole game recorded on two phones, in real headless Chromium against a real server (issue 24, steps 3 and 7).

Two players (two browser contexts at 390x844) play a cardwars game at a paper table and a crossover game at a
digital table to their ends, tapping the recorder's own buttons (chosen by a seeded random walk through its
screens); the organiser watches in a third context as the judge. An illegal record typed in the form shows its
rule and writes nothing; the players confirm the last line and the result reaches the standings with nothing
typed. Every response player 1's browser receives (and every message of its live stream) is read for player 2's
hidden cards. A post the server refuses shows the server's words (T-130); a page gone stale is refused (409),
says why and redraws the table as it is now.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from tests.tournament.test_web_design import SHEETS, WATCH, serious
from tests.tournament.test_web_desk import join, looks_right, organiser_signs_in
from tests.tournament.tlib import cli
from tests.tournament.webkit import codes, database, make_event, reload, serving, tables
from tournament import service
from tournament.service import livetable

pytestmark = pytest.mark.browser

NAMES = {"ann": "Ann Ålvik", "bob": "Bob Okafor"}
LIMIT = 400  # taps: a game of either ruleset ends well before this (about 60 records)

# The live stream's messages as the page's own EventSource hears them (a stream's body never ends, so
# Playwright cannot hand it over as a response).
HEAR_STREAM = """
window.__heard = [];
const Native = window.EventSource;
window.EventSource = function (url, options) {
  const source = new Native(url, options);
  source.addEventListener('table', e => window.__heard.push(e.data));
  return source;
};
"""


class Phone:
    """One person's browser: its page, and the bodies of every response it received (read as they come)."""

    def __init__(self, browser: Any, width: int = 390) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": 844})
        self.context.add_init_script(WATCH)
        self.context.add_init_script(HEAR_STREAM)
        self.page = self.context.new_page()
        self.responses: list[Any] = []
        self.bodies: list[str] = []
        self.page.on("response", lambda response: self.responses.append(response))

    def drain(self) -> list[str]:
        """The bodies received since the last call (the live stream's messages among them)."""
        fresh = []
        for response in self.responses:
            kind = response.headers.get("content-type", "")
            if "event-stream" in kind or not kind.startswith(("text/html", "application/json")):
                continue  # the stream is read through the page (HEAR_STREAM); the static files hold no game
            try:
                fresh.append(response.body().decode())
            except Exception:  # a redirect, or a page navigated away from before its body was read
                continue
        self.responses.clear()
        heard = self.page.evaluate("window.__heard.splice(0)")
        self.bodies += fresh + heard
        return fresh + heard


@pytest.fixture
def phones(browser: Any) -> Iterator[dict[str, Phone]]:
    made: dict[str, Phone] = {}
    yield made
    for phone in made.values():
        phone.context.close()


def hidden_now(db: str, player: str, other: str) -> set[str]:
    """`other`'s hidden cards that `player` may not know now: not in view, not also a card of their own."""
    with database(db) as engine, Session(engine) as session:
        seat = livetable.seating(session, "ev", 1)
        live = livetable._judged(session, livetable.current_game(session, seat))
        hidden = live.ruleset.hidden(live.replay.state)
        public = json.dumps(live.ruleset.seat_view(live.replay.state, None))
        return {c for c in hidden.get(other, set()) - hidden.get(player, set()) if f'"{c}"' not in public}


def leaks(bodies: list[str], cards: set[str]) -> set[str]:
    found = set()
    for body in bodies:
        for card in cards:
            if re.search(r"(?<![\w%#])" + re.escape(card) + r"(?![\w])", body):
                found.add(card)
    return found


def panel_at(page: Any, seq: int) -> None:
    page.wait_for_selector(f"#panel[data-seq='{seq}']", timeout=15_000)


def head(db: str) -> tuple[int, bool]:
    with database(db) as engine, Session(engine) as session:
        game = livetable.current_game(session, livetable.seating(session, "ev", 1))
        return game.seq, bool(game.over)


def tap_a_record(page: Any, rng: random.Random) -> str:
    """Tap through the recorder's screens to one record (never a concession while anything else is offered)."""
    for _ in range(10):
        buttons = page.locator("#panel .screen:not([hidden]) .taps button")
        offered = [(buttons.nth(i).get_attribute("data-record"), i) for i in range(buttons.count())]
        choices = [i for record, i in offered if not (record and '"concede"' in record)] or [i for _, i in offered]
        chosen = buttons.nth(rng.choice(choices))
        record = chosen.get_attribute("data-record")
        chosen.click()
        if record is not None:
            return record
    raise AssertionError("ten screens without a record")


def play(db: str, ann: Phone, bob: Phone, judge: Phone, seed: int) -> int:
    """The two phones record the table's game to its end; after each record, every phone shows it (the live
    stream) and nothing ann received holds a card of bob's hidden from her. The number of records."""
    rng = random.Random(seed)
    seq, over = head(db)
    for _ in range(LIMIT):
        for phone in (ann, bob, judge):
            panel_at(phone.page, seq)
        assert not leaks(ann.drain(), hidden_now(db, "ann", "bob")), "bob's hidden card reached ann's browser"
        if over:
            return seq
        acting = [p for p in (ann, bob) if p.page.locator("#panel .taps button").count()]
        assert acting, "nobody has a record to make"
        tap_a_record(rng.choice(acting).page, rng)
        before = seq
        for _wait in range(100):
            seq, over = head(db)
            if seq > before:
                break
            ann.page.wait_for_timeout(50)
        assert seq > before, "the record was not written"
    raise AssertionError(f"the game did not end in {LIMIT} records")


def confirm_and_see_the_standings(db: str, base: str, ann: Phone, bob: Phone) -> None:
    for phone in (ann, bob):
        phone.page.locator("#panel button.confirm").click()
    for phone in (ann, bob):
        phone.page.wait_for_selector("#reported", timeout=45_000)  # the first to confirm hears the second by itself (its stream; a loaded CI machine has taken over 15 s)
        assert phone.page.locator("#refusal").is_hidden()
    with database(db) as engine, Session(engine) as session:
        (match,) = service.matches(session, "ev", 1)
        assert match.games_a is not None and match.source == "log", "reported by itself, from the log"
    ann.page.click("#reported a")
    assert NAMES["ann"] in ann.page.locator("main").inner_text()


def illegal_attempt(db: str, phone: Phone, record: dict[str, Any], rule: str) -> None:
    """A record typed in the form that the referee refuses: its rule and reason at once, nothing written, the
    player where they were."""
    before = head(db)
    page = phone.page
    page.click("summary:has-text('Type a record')")
    page.fill("#typed", json.dumps(record))
    page.click("button:has-text('Record it')")
    page.wait_for_selector("#refusal:not([hidden])")
    assert page.locator("#refusal .rule-id").inner_text() == rule
    assert page.locator("#refusal .why").inner_text()
    assert page.locator("#refusal li").count() > 0, "the records the seat may make instead"
    assert head(db) == before and page.locator("#typed").input_value() == json.dumps(record)


def at_the_table(phone: Phone, base: str, code: str) -> None:
    """The player signs in with their code and follows their page's link to their table."""
    join(phone.page, base, code)
    phone.page.click("#record-link")
    phone.page.wait_for_url(f"{base}/e/ev/tables/1")


def start(browser: Any, phones: dict[str, Phone], db: str, base: str, width: int = 390) -> tuple[Phone, Phone, Phone]:
    keys = codes(db)
    (first, second), = tables(db)
    assert (first, second) == ("ann", "bob")
    for who in ("ann", "bob", "judge"):
        phones[who] = Phone(browser, width)
    ann, bob, judge = phones["ann"], phones["bob"], phones["judge"]
    for who, phone in (("ann", ann), ("bob", bob)):
        at_the_table(phone, base, keys[who])
    organiser_signs_in(judge.page, base)
    judge.page.goto(f"{base}/admin/e/ev")
    judge.page.click("text=Watch table 1 as the judge")
    judge.page.wait_for_url(f"{base}/e/ev/tables/1/judge")
    return ann, bob, judge


def test_a_paper_cardwars_game_on_two_phones(browser: Any, phones: dict[str, Phone], db: str, tmp_path: Path) -> None:
    make_event(db, ["ann", "bob"], display=NAMES, tables="paper")
    with serving(db) as base:
        ann, bob, judge = start(browser, phones, db, base)
        assert NAMES["ann"] in ann.page.locator("h1").inner_text()
        # ann draws first, naming her card; bob has nothing to record yet
        assert ann.page.locator("#panel .taps button").count() and not bob.page.locator("#panel .taps button").count()
        illegal_attempt(db, ann, {"type": "play_resource", "card": "AS", "by": "ann"}, "CW-2.1")
        assert f"player {NAMES['ann']}" in ann.page.locator("#refusal li").first.inner_text(), "names, not ids"
        ann.page.fill("#typed", "[1, 2]")
        ann.page.click("button:has-text('Record it')")
        assert ann.page.locator("#refusal .why").inner_text().startswith("record: write one JSON object")
        for _ in range(2):  # a page left open through two refreshes shows the same table
            reload(ann.page)
            panel_at(ann.page, head(db)[0])
        looks_right(ann.page, tmp_path / "recorder-start.png")
        records = play(db, ann, bob, judge, seed=3)
        assert records > 20
        looks_right(ann.page, tmp_path / "recorder-end.png")
        assert ann.page.evaluate(FACTS_LINE) == "attacking: KD · blocks: 2H blocks QC", "a line of the drawing keeps its spaces"
        looks_right(judge.page, tmp_path / "judge-end.png")
        confirm_and_see_the_standings(db, base, ann, bob)
        for phone in phones.values():
            assert phone.page.evaluate("window.__problems") == []


def test_a_digital_crossover_game_on_two_phones(browser: Any, phones: dict[str, Phone], db_url: str, tmp_path: Path) -> None:
    """On SQLite and on PostgreSQL (its live stream by LISTEN/NOTIFY, its appends in one transaction each)."""
    db = db_url
    make_event(db, ["ann", "bob"], display=NAMES, tables="digital", ruleset="crossover")
    with serving(db) as base:
        ann, bob, judge = start(browser, phones, db, base)
        assert "the server deals" in ann.page.locator("main").inner_text()
        records = play(db, ann, bob, judge, seed=5)
        assert records > 20
        with database(db) as engine, Session(engine) as session:
            log = livetable.log_bytes(session, livetable.current_game(session, livetable.seating(session, "ev", 1)))
            assert b'"reveal"' in log.splitlines()[-1], "the server revealed the seed at the end"
        looks_right(bob.page, tmp_path / "crossover-end.png")
        confirm_and_see_the_standings(db, base, ann, bob)
        for phone in phones.values():
            assert phone.page.evaluate("window.__problems") == []


@pytest.mark.parametrize("width", [390, 1366])
def test_the_table_pages_at_both_widths_and_the_judges_record(
    browser: Any, phones: dict[str, Phone], db: str, tmp_path: Path, width: int
) -> None:
    """axe finds nothing serious on the recorder and the judge's page; the judge ends the game with a game loss
    tapped on their page, and the players' pages follow by themselves."""
    make_event(db, ["ann", "bob"], display=NAMES, tables="paper")
    with serving(db) as base:
        ann, bob, judge = start(browser, phones, db, base, width)
        for who, phone in (("ann", ann), ("judge", judge)):
            assert serious(phone.page) == [], f"{who} at {width} px"
            assert phone.page.evaluate(SHEETS) == ["/static/headjudge.css"]
            assert phone.page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
            phone.page.screenshot(path=str(tmp_path / f"{who}-{width}.png"), full_page=True)
        judge.page.click(f"#panel button:has-text('game loss · player {NAMES['bob']}')")  # a type of two records: one tap each
        for phone in (ann, bob, judge):
            phone.page.wait_for_selector("#panel[data-over='yes']", timeout=15_000)
        assert f"{NAMES['ann']} won" in ann.page.locator("#panel .seat").inner_text()
        confirm_and_see_the_standings(db, base, ann, bob)
        for phone in phones.values():
            assert phone.page.evaluate("window.__problems") == []


PANELS_FETCHED = """() => {  // the head of each panel the page's script fetches, as it arrives
  window.__panels = [];
  const native = window.fetch;
  window.fetch = (url, options) => native(url, options).then(response => {
    if (String(url).endsWith('/panel')) {
      response.clone().text().then(html => window.__panels.push(Number(/data-seq="(\\d+)"/.exec(html)[1])));
    }
    return response;
  });
}"""


FACTS_LINE = """() => {  // a line of the game's drawing made of words and marks, as cardwars draws its blocks
  const line = document.createElement('p');
  line.className = 'facts';
  line.innerHTML = 'attacking: <b>KD</b> · blocks: <b>2H</b> blocks <b>QC</b>';
  document.querySelector('.felt').appendChild(line);
  return line.innerText;
}"""


def press(page: Any, button: Any) -> None:
    """A finger down on `button`, not yet lifted (`page.mouse.up()` lifts it)."""
    box = button.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def test_a_tap_is_not_lost_when_the_table_changes_under_the_finger(browser: Any, phones: dict[str, Phone], db: str) -> None:
    """A panel redrawn between a button's press and its release would never hear the tap (a lost confirmation
    left a match unreported under load). The redraw waits for the release, a redraw that changes nothing on
    this seat's page is not made, and a record half typed in the form stays (T-131)."""
    make_event(db, ["ann", "bob"], display=NAMES, tables="paper")
    with serving(db) as base:
        ann, bob, judge = start(browser, phones, db, base)
        bob.page.click("summary:has-text('Type a record')")
        bob.page.fill("#typed", '{"type": "dra')  # half typed when ann's record redraws bob's panel
        judge.page.evaluate(PANELS_FETCHED)
        press(judge.page, judge.page.locator(f"#panel button:has-text('game loss · player {NAMES['bob']}')"))
        tap_a_record(ann.page, random.Random(1))
        judge.page.wait_for_function("() => window.__panels.includes(1)")  # the judge's page has the table after ann's record
        judge.page.wait_for_timeout(300)
        assert judge.page.locator("#panel").get_attribute("data-seq") == "0", "held while the finger is down"
        judge.page.mouse.up()  # the tap goes to what the judge saw: refused, the head named, the table redrawn
        judge.page.wait_for_selector("#refusal:not([hidden])")
        assert "its head is record 1, not 0" in judge.page.locator("#refusal .why").inner_text()
        panel_at(judge.page, 1)
        assert head(db) == (1, False) and logged_seqs(db) == [1]
        panel_at(bob.page, 1)
        assert bob.page.locator("#typed").input_value() == '{"type": "dra', "the half-typed record stays"
        assert bob.page.evaluate("document.activeElement.id") == "typed"

        judge.page.click(f"#panel button:has-text('game loss · player {NAMES['bob']}')")  # a type of two records: one tap each
        for phone in (ann, bob):
            phone.page.wait_for_selector("#panel[data-over='yes']", timeout=15_000)
        ann.page.evaluate("document.getElementById('panel').kept = true")
        with ann.page.expect_response("**/tables/1/panel"):  # bob's confirmation reached ann's page
            bob.page.locator("#panel button.confirm").click()
        ann.page.wait_for_timeout(300)
        assert ann.page.evaluate("document.getElementById('panel').kept === true"), "the same panel: not redrawn"
        ann.page.locator("#panel button.confirm").click()
        for phone in (ann, bob):
            phone.page.wait_for_selector("#reported", timeout=15_000)
        assert all(phone.page.evaluate("window.__problems") == [] for phone in (ann, bob, judge))


def logged_seqs(db: str) -> list[int]:
    """The `seq` of every record of the table's log as `tournament table ev 1 --log` writes it."""
    lines = [json.loads(line) for line in cli(db, "table", "ev", "1", "--log").output.splitlines()]
    return [line["seq"] for line in lines if "seq" in line]


def test_a_refused_body_shows_the_servers_words(browser: Any, phones: dict[str, Phone], db: str) -> None:
    """T-130: a post Litestar refuses before any handler (a body that fails validation, a missing CSRF token)
    shows the server's one line on the page, not only its status; nothing is written."""
    make_event(db, ["ann", "bob"], display=NAMES, tables="paper")
    with serving(db) as base:
        phones["ann"] = ann = Phone(browser)
        page = ann.page
        at_the_table(ann, base, codes(db)["ann"])
        rng = random.Random(2)
        spoil = {  # what happens to the page's own post on its way (its other headers kept); what the page then says
            "after: Expected `int`, got `str`": lambda route: route.continue_(post_data=json.dumps({"after": "x", "record": {}})),
            "CSRF token verification failed": lambda route: route.continue_(
                headers={k: v for k, v in route.request.headers.items() if k.lower() != "x-csrftoken"}),
        }
        for words, handler in spoil.items():
            page.route("**/tables/1/records", handler)
            tap_a_record(page, rng)
            page.wait_for_selector("#refusal:not([hidden])")
            assert words in page.locator("#refusal .why").inner_text()
            assert head(db) == (0, False) and logged_seqs(db) == []
            page.unroute("**/tables/1/records")
            for _ in range(2):  # a page left open through two refreshes shows the same table, the refusal gone
                reload(page)
                panel_at(page, 0)
            assert page.locator("#refusal").is_hidden()
        assert page.evaluate("window.__problems") == []


RECORD_BEHIND = """async () => {  // the page's own session and token record its first offered record
  const root = document.getElementById('recorder');
  const record = JSON.parse(document.querySelector('#panel [data-record]').dataset.record);
  const answer = await fetch(root.dataset.base + '/records', {method: 'POST', headers: {
    'Content-Type': 'application/json', 'Accept': 'application/json', 'X-CSRFToken': root.dataset.csrf},
    body: JSON.stringify({after: Number(document.getElementById('panel').dataset.seq), record: record})});
  return answer.status;
}"""


def test_a_stale_page_is_refused_with_the_head_and_redrawn(browser: Any, phones: dict[str, Phone], db: str) -> None:
    """Someone recorded first: the page's tap is refused (409) with the reason shown, the page redraws the table
    as it is now, the log holds each record once, and the next tap on the fresh panel is taken."""
    make_event(db, ["ann", "bob"], display=NAMES, tables="paper")
    with serving(db) as base:
        phones["ann"] = ann = Phone(browser)
        page = ann.page
        page.route("**/tables/1/live", lambda route: route.abort())  # the page hears of no record: it goes stale
        at_the_table(ann, base, codes(db)["ann"])
        for _ in range(2):  # a page left open through two refreshes
            reload(page)
            panel_at(page, 0)
        assert page.evaluate(RECORD_BEHIND) == 201 and head(db) == (1, False)
        assert page.locator("#panel").get_attribute("data-seq") == "0", "the page has not heard of it"
        rng = random.Random(4)
        tap_a_record(page, rng)
        page.wait_for_selector("#refusal:not([hidden])")
        assert "its head is record 1, not 0" in page.locator("#refusal .why").inner_text()
        panel_at(page, 1)  # redrawn as the table is now, the reason still shown
        assert page.locator("#refusal").is_visible() and head(db) == (1, False) and logged_seqs(db) == [1]
        tap_a_record(page, rng)
        panel_at(page, 2)
        assert page.locator("#refusal").is_hidden() and logged_seqs(db) == [1, 2]
        assert page.evaluate("window.__problems") == []
