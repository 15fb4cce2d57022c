"""Every page of `tournament serve` in a real Chromium, as the public, players and the organiser see it.

One walk of `tour.PAGES` (an event day in every state) at a phone's 390 px and
a laptop's 1366 px checks, on each page: no Content-Security-Policy violation
and no script error (issue 22, defect 7: the policy allows nothing inline),
nothing wider than the phone; one stylesheet (the design's, no other
sheet and no inline style); axe-core finds no serious or critical
accessibility violation (at the phone's width); every control and menu link at least 44 px for a thumb. The pages' scripts are checked to work under the
policy: the join page takes the code from the link's `#`, the round clock
counts down, the poll reloads a page when the event changes, find-your-seat
finds. With $HEADJUDGE_SCREENSHOTS set, a screenshot of every page at both
widths goes there, to look at (CI takes none: they cost a third of the walk).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from sqlalchemy.orm import Session

from tests.tournament.tour import PAGES, Tour, build
from tests.tournament.webkit import ORGANISER_TOKEN, database, evaluate, serving
from tournament import service

pytestmark = pytest.mark.browser
WIDTHS = (390, 1366)

# Every policy violation and script error a page meets, kept where the test can read it.
WATCH = """
window.__problems = [];
document.addEventListener('securitypolicyviolation',
  e => window.__problems.push('CSP ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber));
window.addEventListener('error', e => window.__problems.push('script error: ' + e.message));
"""

TAP = 44  # px: the smallest control a thumb hits reliably (WCAG 2.5.5)
# Every control and menu link smaller than TAP px in height or width (links inside sentences are exempt).
SMALL_TARGETS = """
[...document.querySelectorAll('button, input:not([type=hidden]), select, summary, textarea, nav a, .tabs a, a.button')]
  .filter(e => e.offsetParent !== null)
  .map(e => [e.getBoundingClientRect(), e])
  .filter(([r, e]) => r.height < TAP || r.width < TAP)
  .map(([r, e]) => e.outerHTML.slice(0, 80) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))
""".replace("TAP", str(TAP))


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations of the page (WCAG 2.1 A and AA and best practice).
    axe is the copy bundled by the PyPI package axe-playwright-python (no npm); Playwright's `evaluate`
    runs it through the DevTools protocol, which the page's Content-Security-Policy does not govern, so
    the page is checked under its real policy and no inline script is allowed for the test's sake."""
    found = AXE.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in found if v["impact"] in ("serious", "critical")
    ]


AXE = Axe()
SHEETS = "[...document.styleSheets].map(s => s.href && new URL(s.href).pathname)"


@pytest.fixture
def day(tmp_path: Path) -> tuple[str, Tour]:
    db = f"sqlite:///{tmp_path / 'tournament.db'}"
    return db, build(db)


@pytest.fixture
def shots() -> Path | None:
    folder = os.environ.get("HEADJUDGE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
    return Path(folder) if folder else None


class Visitor:
    """One person's browser (its own cookies), recording console errors beside the in-page watch."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport={"width": WIDTHS[0], "height": 844})
        self.context.add_init_script(WATCH)
        self.page = self.context.new_page()
        self.console: list[str] = []
        self.page.on("console", lambda m: self.console.append(m.text) if m.type == "error" and "status of 4" not in m.text else None)

    def problems(self) -> list[str]:
        found = [*evaluate(self.page, "window.__problems"), *self.console]  # another visitor's change may reload it now
        self.console.clear()
        return found


@pytest.fixture
def visitors(browser: Any) -> Iterator[dict[str, Visitor]]:
    made: dict[str, Visitor] = {}

    class Lazy(dict[str, Visitor]):
        def __missing__(self, who: str) -> Visitor:
            made[who] = self[who] = Visitor(browser)
            return made[who]

    yield Lazy()
    for v in made.values():
        v.context.close()


def sign_in(visitors: dict[str, Visitor], base: str, tour: Tour) -> None:
    """Each player opens their slip's link (the code after `#`: the join page's script signs in); the organiser
    types the token."""
    for who, code in tour.codes.items():
        page = visitors[who].page
        page.goto(f"{base}/join#code={code}")
        page.wait_for_url(f"{base}/me")
        assert "code=" not in page.url
    boss = visitors["organiser"].page
    boss.goto(f"{base}/admin")
    boss.fill("#token", ORGANISER_TOKEN)
    boss.click("button:has-text('Sign in')")
    boss.wait_for_url(f"{base}/admin")


@pytest.mark.parametrize("width", WIDTHS)  # one test a width: the two halves of a long walk run side by side
def test_every_page_under_the_policy_at_each_width(visitors: dict[str, Visitor], day: tuple[str, Tour], shots: Path | None, width: int) -> None:
    db, tour = day
    with serving(db) as base:
        sign_in(visitors, base, tour)
        for visit in PAGES:
            v = visitors[visit.who]
            v.page.set_viewport_size({"width": width, "height": 844})
            answer = v.page.goto(base + visit.path)
            assert answer.status == (404 if visit.name == "not-found" else 200), visit
            assert v.problems() == [], f"{visit.name} at {width} px"
            assert v.page.evaluate(SHEETS) == [v.page.evaluate("new URL(document.styleSheets[0].href).pathname")] == ["/static/headjudge.css"]
            assert v.page.evaluate(SMALL_TARGETS) == [], f"{visit.name} at {width} px: targets under {TAP} px"
            # axe at the phone's width only: the stylesheet's width rules change spacing and sizes, never colours
            # or markup, which axe's rules read; its run was most of the walk's time
            assert width != WIDTHS[0] or serious(v.page) == [], f"{visit.name} at {width} px: accessibility"
            assert v.problems() == [], f"{visit.name} at {width} px after axe"
            wide = v.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert wide <= 0, f"{visit.name} is {wide} px wider than the window at {width} px (a wide table or bracket scrolls in its frame)"
            if shots:
                v.page.screenshot(path=str(shots / f"{visit.name}-{width}.png"), full_page=True)


def test_the_pages_scripts_work_under_the_policy(visitors: dict[str, Visitor], day: tuple[str, Tour]) -> None:
    db, tour = day
    with serving(db) as base:
        sign_in(visitors, base, tour)  # the join page's script: checked in there
        public = visitors["public"].page
        public.goto(f"{base}/e/spring")
        public.fill("#q", "TANA")
        public.click("button:has-text('Find')")
        assert "Hiroshi Tanaka" in public.locator(".box.seat").first.inner_text()
        clock = public.locator("[data-ends]").first
        assert "left" in clock.inner_text()

        poller = visitors["poller"].page
        poller.clock.install()
        poller.goto(f"{base}/e/spring")
        poller.evaluate("window.__stayed = true")
        with database(db) as engine, Session(engine) as s, s.begin():
            m = service.matches(s, "spring", 2)[3]
            service.report(s, "spring", m.number, result=service.Tally({m.player_a: 2, m.player_b: 0}))
        with poller.expect_navigation():
            poller.clock.fast_forward(16_000)
        assert poller.evaluate("window.__stayed") is None, "the poll reloaded the page"
        for v in visitors.values():
            assert v.problems() == []
