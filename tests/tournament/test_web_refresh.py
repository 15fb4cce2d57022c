"""No refresh repeats a change (issue 22, defect 1), in a real headless Chromium against a real server.

Every form on the organiser's and the players' pages is sent once; after
each, the page is refreshed twice (as a person or the page's own poll would)
and left open through two polls, and the event log must have grown by what
that one form did, never more.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tournament.tlib import game_log
from tests.tournament.webkit import (
    ORGANISER_TOKEN,
    caught_up,
    codes,
    head,
    make_event,
    reload,
    serving,
    tables,
)

pytestmark = pytest.mark.browser
POLL = 0.25  # seconds between the pages' polls


class Watch:
    """The event log's length as the test expects it, checked after each form and two refreshes."""

    def __init__(self, db: str) -> None:
        self.db, self.expected = db, head(db)

    def after(self, page: Any, grows: int, what: str) -> None:
        self.expected += grows
        assert head(self.db) == self.expected, f"{what}: the log should have grown by {grows}"
        loads: list[Any] = []

        def loaded(_page: Any) -> None:
            loads.append(_page)

        page.on("load", loaded)
        for _ in range(2):
            reload(page)
        page.wait_for_timeout(2.5 * POLL * 1000)  # two polls with the page open
        page.remove_listener("load", loaded)
        assert len(loads) >= 2, "the page was refreshed twice"
        assert head(self.db) == self.expected, f"{what}: a refresh changed the event again"


def submit(page: Any, form: str, button: str | None = None, **fields: str) -> None:
    """Fill `fields` (by name) in the form matched by `form`, then press its button."""
    target = page.locator(form)
    for name, value in fields.items():
        field = target.locator(f'[name="{name}"]')
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    (target.locator(f"button:has-text('{button}')") if button else target.locator("button")).first.click()
    page.wait_for_load_state()


def test_no_refresh_after_any_form_repeats_its_change(page: Any, second: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tournament.db'}"
    make_event(db, ["ann", "bob", "cat", "dan"])
    keys = codes(db)
    (a, b), (c, d) = tables(db)
    watch = Watch(db)
    with serving(db, poll_seconds=POLL) as base:
        boss = page.context.browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
        boss.goto(f"{base}/admin")
        submit(boss, "form[action='/admin/login']", token=ORGANISER_TOKEN)
        watch.after(boss, 0, "signing in")
        boss.goto(f"{base}/admin/e/ev")
        submit(boss, "form[action$='/clock']", minutes="50")
        watch.after(boss, 1, "starting the clock")
        submit(boss, "form[action$='/extend']", table="2", minutes="5", reason="deck check")
        watch.after(boss, 1, "giving extra time")
        assert "(+5 min)" in boss.locator("#table-2").inner_text()

        page.goto(f"{base}/join#code={keys[a]}")
        page.wait_for_url(f"{base}/me")
        watch.after(page, 0, "signing in by the slip's link")
        submit(page, "form[action='/me/result']", **{f"games.{a}": "1", f"games.{b}": "0"})
        watch.after(page, 1, "a player's claim")
        second.goto(f"{base}/join")
        submit(second, "form[action='/join']", code=keys[b])
        watch.after(second, 0, "signing in by typing the code")
        submit(second, "form[action='/me/confirm']")
        watch.after(second, 2, "confirming (the result follows)")
        caught_up(page, db)  # ann's page, open all along, reloads itself after bob's confirmation
        page.goto(f"{base}/join#code={keys[c]}")  # cat reports; dan says it is not right
        page.wait_for_url(f"{base}/me")
        submit(page, "form[action='/me/result']", **{f"games.{c}": "1", f"games.{d}": "0"})
        watch.after(page, 1, "cat's claim")
        caught_up(second, db)  # bob's page reloads itself after cat's claim
        second.goto(f"{base}/join#code={keys[d]}")
        second.wait_for_url(f"{base}/me")
        second.locator("summary:has-text(\"That's not right\")").click()
        submit(second, "form[action='/me/dispute']", text="I won the second game")
        watch.after(second, 1, "that's not right: a judge call")

        caught_up(boss, db)  # the organiser's page, open all along, reloads itself after the players' forms
        reload(boss)
        submit(boss, "#table-2 form:has-text('Enter this result')", **{f"games.{c}": "0", f"games.{d}": "1", "reason": "slip"})
        watch.after(boss, 3, "a judge's result (the ruling, the result, and dan's dispute call answered: T-151)")
        boss.locator("details:has(form:has-text('Table 1')) summary").click()
        submit(boss, "details form:has-text('Table 1')", **{f"games.{a}": "0", f"games.{b}": "1", "reason": "wrong slip"})
        watch.after(boss, 1, "a correction")
        submit(boss, "form[action$='/pair']")
        watch.after(boss, 1, "pairing round 2")
        assert "round 2 is paired" in boss.locator("[role=status]").inner_text()
        opponent = next(p for t in tables(db) for p in t if a in t and p != a)
        submit(boss, "form[action$='/drop']", player=next(p for p in (b, c, d) if p != opponent))
        watch.after(boss, 0, "the drop's first step (a page that asks)")
        submit(boss, "form[action$='/drop']")
        watch.after(boss, 1, "a drop mid-round")
        submit(boss, "form[action$='/code']", player=a)
        code = boss.locator("code").first.inner_text()
        watch.after(boss, 0, "a new sign-in code")
        assert code not in boss.content(), "the code is shown once"

        caught_up(second, db)  # dan's page reloads itself after the organiser's forms
        second.goto(f"{base}/join#code={code}")  # bob's phone, now ann's
        second.wait_for_url(f"{base}/me")
        log = tmp_path / "g1.jsonl"
        log.write_bytes(game_log(a, opponent, 5))
        second.set_input_files("form[action='/me/logs'] input[type=file]", str(log))
        submit(second, "form[action='/me/logs']")
        watch.after(second, 1, "uploading a game log")
        submit(second, "form[action='/signout']")
        watch.after(second, 0, "signing out")
        boss.context.close()
