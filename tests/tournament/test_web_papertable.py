"""A paper table people will record (issue 37) in real headless Chromium: taps counted, a take-back agreed.

Two phones (390x844) record a cardwars game at a paper table. The acting player means a record (a seeded choice
among the records their seat may make, never a concession) and takes the fewest taps the page offers to it: a
record made before in the same place is one tap at the top ("again: ..."), a card in the drawing tapped lists
the records that name it (two taps), else the screens of buttons (a type, then its fields). The test counts the
acting player's taps per turn and prints the figure; once in the game a player takes a record back, the other
agreeing on their own page. The same walk runs on the code before issue 37 (no shortcut there), which gives the
figure it is compared with (tournament/README.md, "Tables").
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from referee.ruleset import CHANCE
from referee.rulesets import get as get_ruleset
from tests.tournament.test_web_tablepages import NAMES, Phone, at_the_table, head, panel_at, phones  # noqa: F401 (a fixture)
from tests.tournament.webkit import codes, database, make_event, serving
from tournament.output import recorder
from tournament.service import livetable

pytestmark = pytest.mark.browser
SHOTS = Path("/work/notes/shots")  # where a developer looks at the pages (kept only where it exists)


def seat_view(db: str, seat: str) -> Any:
    with database(db) as engine, Session(engine) as session:
        return livetable.view(session, "ev", 1, seat)


def meant(db: str, seat: str, rng: random.Random, share: float = 0.5) -> dict[str, Any]:
    """The record `seat`'s player means to make now: a seeded choice among those their seat may make, where `share`
    of the draws leave their card out (docs/referee.md, UD-1: one tap). Cards so drawn are in the player's fingers:
    the records of the unseen cards offered for them (`TableView.unseen`, T-245) that name one of as many cards as
    they hold unknown are among the choices."""
    view = seat_view(db, seat)
    legal = [r for r in view.legal if r["type"] != "concede"]
    unnamed = [r for r in legal if r["type"] == "draw" and "card" not in r]
    if unnamed and rng.random() < share:
        return unnamed[0]
    cards = sorted({e["card"] for e in view.unseen})
    hand = set(rng.sample(cards, min(view.state["players"][seat].get("unknown", 0), len(cards))))
    return rng.choice([r for r in legal if r not in unnamed] + [e["record"] for e in view.unseen if e["card"] in hand])


def meant_unnamed(db: str, seat: str, rng: random.Random) -> dict[str, Any]:
    """The record of a player who draws every card unnamed."""
    return meant(db, seat, rng, share=1.0)


def screens_of(page: Any) -> dict[str, list[tuple[str | None, str | None, bool]]]:
    """Each screen's buttons as (opens, record, offered first) from the page as drawn."""
    found: dict[str, list[tuple[str | None, str | None, bool]]] = page.evaluate("""() => {
      const out = {};
      document.querySelectorAll('#panel .screen[id^="screen-"]').forEach(s => {
        out[s.id] = [...s.querySelectorAll('.taps button')].map(b => [b.dataset.opens ?? null, b.dataset.record ?? null,
          b.classList.contains('likely')]);
      });
      return out;
    }""")
    return found


def mentions(value: Any, card: str) -> bool:
    if isinstance(value, dict):
        return any(k == card or mentions(v, card) for k, v in value.items())
    if isinstance(value, list):
        return any(mentions(v, card) for v in value)
    return value == card


def tap_to(page: Any, record: dict[str, Any]) -> int:
    """Tap the fewest taps the page offers to `record`, and make it; how many taps that was."""
    screens = screens_of(page)
    want = json.dumps(record, sort_keys=True)

    def same(text: str | None) -> bool:
        return text is not None and json.dumps(json.loads(text), sort_keys=True) == want

    likely = [i for i, (_, text, first) in enumerate(screens.get("screen-0", [])) if first and same(text)]
    if likely:
        page.locator("#screen-0 .taps button").nth(likely[0]).click()
        return 1
    # the screens: from the button that makes it back to the first screen
    where = next((name, i) for name, buttons in screens.items() for i, (_, text, first) in enumerate(buttons)
                 if not first and same(text))
    path = [where]
    while path[-1][0] != "screen-0":
        number = path[-1][0].removeprefix("screen-")
        path.append(next((name, i) for name, buttons in screens.items() for i, (opens, _, _) in enumerate(buttons) if opens == number))
    cards = [c for c in page.evaluate("() => [...document.querySelectorAll('#panel .felt [data-card]')].map(c => c.dataset.card)")
             if mentions(record, c)]
    if cards and len(path) > 2 and page.locator("#card-records").count():
        page.locator(f"#panel .felt [data-card='{cards[0]}']").first.click()
        listed = page.locator("#card-records .taps button")
        index = next(i for i in range(listed.count()) if same(listed.nth(i).get_attribute("data-record")))
        listed.nth(index).click()
        return 2
    for name, i in reversed(path):
        page.locator(f"#{name} .taps button").nth(i).click()
    return len(path)


def play(db: str, ann: Phone, bob: Phone, seed: int, turns: int | None = None, take_back_at: int = 3,
         mean: Any = meant) -> dict[str, Any]:
    """Record the game (to its end, or for `turns` turns), each record the one `mean` chooses; the taps each turn's
    active player made, the records, and those made with an unknown card from a row of cards (`picked`). A
    take-back is asked and agreed once, at the first record of turn `take_back_at` or later that the page offers
    to take back."""
    rng = random.Random(seed)
    pages = {"ann": ann, "bob": bob}
    taps: dict[int, int] = {}
    records = took_back = picked = 0
    cards = searched = False
    seq, over = head(db)
    while not over:
        for phone in pages.values():
            panel_at(phone.page, seq)
        judge_view = seat_view(db, "judge")
        turn, active = judge_view.state["turn"], judge_view.state["active"]
        if turns is not None and turn > turns:
            break
        seat = next(p for p in ("ann", "bob") if p in judge_view.to_act or (CHANCE in judge_view.to_act and p == active))
        record = mean(db, seat, rng)
        if not cards:
            cards = card_tapped(db, pages[seat].page, seat)
        if not searched:
            searched = search_box(pages[seat].page)
        offered = seat_view(db, seat).unseen
        if any(e["record"] == record for e in offered):
            picked += 1
            kind = [e["card"] for e in offered if e["record"]["type"] == record["type"]]
            made = from_row(pages[seat].page, record, kind) if picked == 1 else tap_to(pages[seat].page, record)
        else:
            made = tap_to(pages[seat].page, record)
        if seat == active:
            taps[turn] = taps.get(turn, 0) + made
        records += 1
        seq = wait_past(db, seq)
        if not took_back and turn >= take_back_at and seat == active:
            took_back = take_back(db, pages, seat, seq)
            seq = head(db)[0]
        over = head(db)[1]
    return {"taps": taps, "records": records, "took_back": took_back, "cards": cards, "picked": picked, "searched": searched}


def from_row(page: Any, record: dict[str, Any], unseen: list[str]) -> int:
    """Make `record`, a record of an unknown card, from its kind's row of small card buttons on the first screen
    (T-248): the row lists the `unseen` cards (those its kind may name) as a hand, by suit then value, and fits the
    phone's width; the card's button makes its record, or opens its records when it has several. The taps."""
    label = f"{record['type'].replace('_', ' ')} · {recorder.FROM_HAND}"
    assert not page.locator("#screen-0 .taps button[data-opens]", has_text=label).count(), "a row, not a button a kind"
    heading = page.locator("#screen-0 h3.hand-label", has_text=label)
    assert heading.count() == 1 and heading.is_visible()
    row = heading.locator("xpath=following-sibling::div[1]").locator("button")
    faces = get_ruleset("cardwars")
    by_label = {faces.card_label(c): c for c in unseen}
    texts = row.all_inner_texts()
    cards = [by_label[text.split(" · ")[0]] for text in texts]
    assert len(cards) > 1 and cards == sorted(cards, key=faces.card_order), "the unseen cards sorted as a hand"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"], "the row wraps"
    shot(page, "hand-row")
    button = row.nth(next(i for i, text in enumerate(texts) if text.split(" · ")[0] == faces.card_label(record["card"])))
    if button.get_attribute("data-record") is not None:
        button.click()
        return 1
    button.click()
    want = json.dumps(record, sort_keys=True)
    listed = page.locator(f"#screen-{button.get_attribute('data-opens')} .taps button[data-record]")
    listed.nth(next(i for i in range(listed.count()) if json.dumps(json.loads(listed.nth(i).get_attribute("data-record")), sort_keys=True) == want)).click()
    return 2


def search_box(page: Any) -> bool:
    """If the first screen has a search box (a named draw's cards): a card's label typed leaves only the buttons
    that match it, any rows of cards drawn unnamed stay whole (T-248: their headings would stand empty), and
    the box cleared shows every button again. Whether it was tried."""
    box = page.locator("#screen-0 .find")
    if not box.count():
        return False
    buttons = page.locator("#screen-0 .taps:not(.cards) button")
    total, rows = buttons.count(), page.locator("#screen-0 .taps.cards button:visible").count()
    label = next(t for t in buttons.all_inner_texts() if any(suit in t for suit in "♠♥♦♣"))
    box.fill(label.lower())
    shown = page.locator("#screen-0 .taps:not(.cards) button:visible")
    assert 1 <= shown.count() < total and all(label.lower() in t.lower() for t in shown.all_inner_texts()), shown.all_inner_texts()
    assert page.locator("#screen-0 .taps.cards button:visible").count() == rows
    box.fill("")
    assert page.locator("#screen-0 .taps:not(.cards) button:visible").count() == total
    return True


def card_tapped(db: str, page: Any, seat: str) -> bool:
    """If a card in view is named by a record the seat may make: tap it, see the records that name it listed (and
    only those), and go back to the first screen. Whether it was tried."""
    drawn = page.evaluate("() => [...document.querySelectorAll('#panel .felt [data-card]')].map(c => c.dataset.card)")
    named = [c for c in drawn if any(mentions(r, c) for r in seat_view(db, seat).legal)]
    if not named:
        return False
    page.locator(f"#panel .felt [data-card='{named[0]}']").first.click()
    listed = page.locator("#card-records")
    # the heading names the card as its buttons do (`7♠`), never by its id (`7S`)
    assert listed.is_visible() and listed.locator("h2").inner_text().startswith(get_ruleset("cardwars").card_label(named[0]) + ":")
    records = listed.locator("button[data-record]").evaluate_all("bs => bs.map(b => b.dataset.record)")
    assert records and all(mentions(json.loads(r), named[0]) for r in records)
    shot(page, "card")
    listed.locator("button[data-opens='0']").click()
    return True


def wait_past(db: str, seq: int) -> int:
    for _ in range(200):
        now = head(db)[0]
        if now > seq:
            return now
        time.sleep(0.05)
    raise AssertionError("the record was not written")


def take_back(db: str, pages: dict[str, Phone], asker: str, seq: int) -> int:
    """`asker` takes back the record just made, the next seat agreeing on their page: the taps both made (0 when
    the page offers no take-back, as before issue 37)."""
    page = pages[asker].page
    panel_at(page, seq)
    button = page.locator("#panel .take-back button")
    if not button.count():
        return 0
    button.click()
    other = pages["bob" if asker == "ann" else "ann"].page
    seq = wait_past(db, seq)
    panel_at(other, seq)
    assert other.locator("#agree-box").is_visible() and "asks to take back" in other.locator("#agree-box").inner_text()
    other.locator("#agree-box button").click()
    seq = wait_past(db, seq)
    for phone in pages.values():
        panel_at(phone.page, seq)
        assert phone.page.locator(".recent .withdrawn").count() == 1, "both see the record taken back"
    return 2


def report(found: dict[str, Any]) -> float:
    taps = found["taps"]
    average = sum(taps.values()) / len(taps)
    print(f"\ntaps per turn (the acting player): {average:.2f} over {len(taps)} turns, {found['records']} records,"
          f" take-back {found['took_back']} taps; by turn {taps}")
    return average


def begin(browser: Any, phones: dict[str, Phone], db: str, base: str) -> tuple[Phone, Phone]:  # noqa: F811
    keys = codes(db)
    for who in ("ann", "bob"):
        phones[who] = Phone(browser)
        at_the_table(phones[who], base, keys[who])
    return phones["ann"], phones["bob"]


def shot(page: Any, name: str) -> None:
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"papertable-{name}.png"), full_page=True)


def test_a_few_turns_with_a_take_back_in_few_taps(browser: Any, phones: dict[str, Phone], db: str) -> None:  # noqa: F811
    """The sample CI runs: four turns, one take-back agreed, three taps a turn or fewer."""
    make_event(db, ["ann", "bob"], display=NAMES, tables="paper")
    with serving(db) as base:
        ann, bob = begin(browser, phones, db, base)
        found = play(db, ann, bob, seed=5, turns=4, take_back_at=2)
        assert found["took_back"] == 2 and seat_view(db, "ann").withdrawn
        assert report(found) <= 4
        shot(ann.page, "ann")
        shot(bob.page, "bob")
        assert found["cards"], "a card tapped in the drawing listed the records that name it"
        assert found["searched"], "a search box was tried"
        for phone in (ann, bob):
            assert phone.page.evaluate("window.__problems") == []


def test_cards_drawn_unnamed_are_played_from_a_row_of_cards(browser: Any, phones: dict[str, Phone], db: str) -> None:  # noqa: F811
    """The sample CI runs of T-245 and T-248: every draw unnamed, four turns; the cards so drawn are played from
    the first screen's rows of small card buttons, one a kind."""
    make_event(db, ["ann", "bob"], display=NAMES, tables="paper")
    with serving(db) as base:
        ann, bob = begin(browser, phones, db, base)
        found = play(db, ann, bob, seed=5, turns=4, take_back_at=2, mean=meant_unnamed)
        assert found["picked"] >= 1, found
        report(found)
        for phone in (ann, bob):
            assert phone.page.evaluate("window.__problems") == []


@pytest.mark.slow
def test_a_whole_paper_game_with_every_draw_unnamed_counts_its_taps(browser: Any, phones: dict[str, Phone], db: str) -> None:  # noqa: F811
    make_event(db, ["ann", "bob"], display=NAMES, tables="paper")
    with serving(db) as base:
        ann, bob = begin(browser, phones, db, base)
        found = play(db, ann, bob, seed=5, mean=meant_unnamed)
        assert head(db)[1], "the game ended"
        assert found["picked"] > 0
        report(found)


@pytest.mark.slow
def test_a_whole_paper_game_counts_its_taps(browser: Any, phones: dict[str, Phone], db: str) -> None:  # noqa: F811
    make_event(db, ["ann", "bob"], display=NAMES, tables="paper")
    with serving(db) as base:
        ann, bob = begin(browser, phones, db, base)
        found = play(db, ann, bob, seed=5)
        assert head(db)[1], "the game ended"
        report(found)
        shot(ann.page, "end")
