"""The installable web app in a real Chromium (issue 36): on 127.0.0.1, a secure context, the service worker
registers for the whole site, the manifest is linked, and "Tell me on this phone" runs as far as a browser
without a push service allows: permission asked, a subscription asked of the push manager with the server's
VAPID key; the page then says plainly why push is not offered, or the subscription is posted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tournament.webkit import codes, join, looks_right, make_event, serving

pytestmark = pytest.mark.browser


def test_the_service_worker_registers_and_the_subscribe_flow_runs_as_far_as_the_browser_allows(page: Any, db: str, tmp_path: Path) -> None:
    make_event(db)
    keys = codes(db)
    with serving(db) as base:
        page.context.grant_permissions(["notifications"], origin=base)
        join(page, base, keys["ann"])
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope + ' ' + r.active.scriptURL)")
        assert scope == f"{base}/ {base}/sw.js"
        assert page.evaluate("window.isSecureContext") is True
        manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
        assert manifest["display"] == "standalone" and manifest["start_url"] == "/me"
        vapid = page.get_attribute("#push-form", "data-vapid")
        assert vapid and len(vapid) == 87, "the server's VAPID public key, P-256 uncompressed in base64url"
        page.click("#push-form button")
        status = page.locator("[data-push-status]")
        page.wait_for_function(
            "() => { const s = document.querySelector('[data-push-status]'); "
            "return !s || s.textContent.startsWith('No push messages') }",
            timeout=30_000,
        )
        if page.locator("[data-push-status]").count():  # no push service in this browser: said plainly
            said = status.inner_text()
            assert said.startswith("No push messages: ") and said.endswith("Use e-mail, or keep this page open.")
            assert "notifications were not allowed" not in said, "permission was granted: the push manager itself refused"
        else:  # a browser with a push service: the subscription was posted, and the page says so
            assert "even with the page closed" in page.locator("[role=status]").first.inner_text()
        looks_right(page, tmp_path / "messages.png")  # the section fits the 390-px phone


def test_a_person_subscribes_by_email_on_their_page_and_confirms_by_the_link_on_a_phone(
    page: Any, db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    import re

    from tests.tournament.receivers import smtp_server
    from tests.tournament.test_messages_person import event_with_zoe, send_all
    from tests.tournament.test_web_cards import card_for
    from tests.tournament.webkit import database

    event_with_zoe(db, "spring", "Spring Open")
    card = card_for(db, "zoe")
    with smtp_server() as (url, got):
        monkeypatch.setenv("TOURNAMENT_SMTP", url)
        with serving(db) as base:
            page.goto(f"{base}/card#code={card}")
            page.wait_for_url(f"{base}/me")
            assert page.get_attribute("#push-form", "action") == "/me/person/messages/push", "push offered: 127.0.0.1 is a secure context"
            page.fill("#email-form input[name=email]", "zoe@example.org")
            page.click("#email-form button")
            assert "open it to confirm the address" in page.locator("[role=status]").inner_text()
            looks_right(page, tmp_path / "person-messages.png")
            with database(db) as engine:
                send_all(engine, url, got, lambda: len(got.mails) == 1)
            link = re.search(r"Confirm: https://cup\.example\.org(/messages/\S+)", got.mails[0].text)
            assert link
            page.goto(base + link.group(1))
            looks_right(page, tmp_path / "messages-link.png")
            page.click("#confirm button")
            assert "Confirmed: your pairings and results will come to zoe@example.org." in page.locator("[role=status]").inner_text()
            assert page.locator("#confirm").count() == 0 and page.locator("#stop").count() == 1
