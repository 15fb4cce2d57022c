"""Passkeys in Chromium with a virtual authenticator (the DevTools protocol's WebAuthn domain), against a real
server: at http://localhost:PORT (a secure context, so the real ceremonies run), and at a venue's plain-HTTP
name (`venue.test`, mapped to the same server), where the pages say plainly passkeys cannot work there.

A person signs in with their player card, and a staff member with their code; each adds a passkey, and signs in with it in another browser context
(the passkey copied to that context's own authenticator, as a synced passkey reaches another phone); a
removed passkey, a replayed answer and an answer for another origin sign nobody in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs

import pytest
from sqlalchemy.orm import Session

from tests.conftest import CHROMIUM_ARGS, chromium_path
from tests.tournament.webkit import database, looks_right, serving
from tournament import service
from tournament.storage.models import Person
from tournament.web.receipts import form_key

pytestmark = pytest.mark.browser

VENUE = "venue.test"  # a name that is not localhost: plain HTTP there is no secure context


def _person(db: str) -> str:
    """A person with a player card: the card's secret."""
    with database(db) as engine, Session(engine) as session, session.begin():
        session.add(Person(id="zoe", name="Zoë Ångström", created_at=datetime.now(UTC)))
        session.flush()
        return service.new_card(session, "zoe")


def card_signs_in(page: Any, base: str, card: str) -> None:
    page.goto(f"{base}/card#code={card}")
    page.wait_for_url(f"{base}/me")


def _staff(db: str) -> str:
    """A judge of the server: their one-time sign-in code."""
    with database(db) as engine, Session(engine) as session, session.begin():
        member = service.name_staff(session, "Jo Judge", "judge")
        return service.issue_staff_code(session, member.id)


def authenticator(page: Any, credentials: list[dict[str, Any]] = ()) -> tuple[Any, str]:  # type: ignore[assignment]
    """A virtual platform authenticator (CTAP2, resident keys, user verification) for the page's context, with
    `credentials` on it: the DevTools session and the authenticator's id."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True,
    }})
    for credential in credentials:
        cdp.send("WebAuthn.addCredential", {"authenticatorId": made["authenticatorId"], "credential": credential})
    return cdp, made["authenticatorId"]


def held(cdp: Any, authenticator_id: str) -> list[dict[str, Any]]:
    return list(cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator_id})["credentials"])


def staff_signs_in(page: Any, base: str, code: str) -> None:
    page.goto(f"{base}/join#code={code}")
    page.wait_for_url(f"{base}/admin")


def passkey_signs_in(page: Any, base: str) -> None:
    page.goto(f"{base}/passkeys/sign-in")
    page.click("button:has-text('Sign in with a passkey')")


@pytest.fixture
def local(db: str) -> Iterator[str]:
    """The server at http://localhost:PORT: a secure context, and a name (an RP id may not be a number)."""
    with serving(db) as base:
        yield base.replace("127.0.0.1", "localhost")


# Who signs in by what, and lands where: (made in the database: the secret to sign in with, signs in, home, name)
OWNERS: dict[str, tuple[Callable[[str], str], Callable[[Any, str, str], None], str, str]] = {
    "person": (_person, card_signs_in, "/me", "Zoë Ångström"),
    "staff": (_staff, staff_signs_in, "/admin", "Jo Judge"),
}


@pytest.mark.parametrize("kind", sorted(OWNERS))
def test_an_owner_adds_a_passkey_and_signs_in_with_it_elsewhere(page: Any, second: Any, db: str, local: str, tmp_path: Any, kind: str) -> None:
    make, signs_in, home, name = OWNERS[kind]
    cdp, mine = authenticator(page)
    signs_in(page, local, make(db))
    page.click("#passkeys-link")
    page.wait_for_url(f"{local}/passkeys")
    page.fill("#passkey-name", "My phone")
    page.click("button:has-text('Add a passkey on this device')")
    page.wait_for_selector("text=Passkey “My phone” added")
    assert page.locator("#passkeys li").count() == 1 and "not used yet" in page.inner_text("#passkeys")
    looks_right(page, tmp_path / "passkeys.png")
    [credential] = held(cdp, mine)
    assert credential["isResidentCredential"] and credential["rpId"] == "localhost"

    # another context (no cookie) whose authenticator holds the same passkey, as a synced passkey on another phone
    authenticator(second, [credential])
    passkey_signs_in(second, local)
    second.wait_for_url(f"{local}{home}")
    second.goto(f"{local}/passkeys")
    assert name in second.inner_text("main") and "last used" in second.inner_text("#passkeys")

    # removed on the first phone: the second's copy signs nobody in (and the page says why)
    page.goto(f"{local}/passkeys")
    page.click("button:has-text('Remove My phone')")
    page.wait_for_selector("text=Passkey “My phone” removed")
    assert "No passkeys yet" in page.inner_text("#passkeys")
    second.context.clear_cookies()
    passkey_signs_in(second, local)
    second.wait_for_url(f"{local}/passkeys/sign-in?r=*")
    assert "did not sign you in" in second.inner_text("main")


def test_a_replayed_or_misdirected_answer_signs_nobody_in(page: Any, db: str, local: str) -> None:
    code = _staff(db)
    authenticator(page)
    staff_signs_in(page, local, code)
    page.goto(f"{local}/passkeys")
    page.click("button:has-text('Add a passkey on this device')")
    page.wait_for_selector("text=added")
    page.context.clear_cookies()

    # the browser's answer is caught on its way out and kept back: its challenge is still unspent
    sent: list[dict[str, str]] = []

    def catch(route: Any) -> None:
        sent.append({k: v[0] for k, v in parse_qs(route.request.post_data or "").items()})
        route.abort()

    page.route(f"{local}/passkeys/sign-in", lambda route: catch(route) if route.request.method == "POST" else route.continue_())
    passkey_signs_in(page, local)
    for _ in range(300):  # the ceremony runs in the page, then its form is sent (and kept back here)
        if sent:
            break
        page.wait_for_timeout(100)
    [form] = sent
    page.unroute(f"{local}/passkeys/sign-in")
    port = local.rsplit(":", 1)[1]

    def post(host: str | None = None) -> str:
        headers = {"Host": f"{host}:{port}"} if host else {}
        answer = page.request.post(f"{local}/passkeys/sign-in", form={**form, "_key": form_key()}, headers=headers, max_redirects=0)
        assert answer.status == 303, answer.text()
        return str(answer.headers["location"])

    # made for http://localhost:PORT, sent to another origin (a phishing proxy's name): refused, and spent nothing
    assert post("other.localhost").startswith("/passkeys/sign-in?r=")
    assert post() == "/admin"  # the same answer at its own origin signs in: only the origin was wrong
    replayed = post()
    assert replayed.startswith("/passkeys/sign-in?r="), "a replay of a spent challenge signs nobody in"
    page.goto(f"{local}{replayed}")
    assert "no longer valid" in page.inner_text("main")


ASK_OPTIONS = """async (token) => {
  const answer = await fetch("/passkeys/sign-in/options", {method: "POST", headers: {"Accept": "application/json", "X-CSRFToken": token}});
  return [answer.status, (await answer.json()).error];
}"""


@pytest.fixture(scope="module")
def venue_browser(browser: Any) -> Iterator[Any]:
    """A Chromium (launched by the run's one Playwright) that resolves `venue.test` to this machine: the server at a
    venue address over plain HTTP."""
    venue = browser.browser_type.launch(
        executable_path=chromium_path(), args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {VENUE} 127.0.0.1"], headless=True,
    )
    try:
        yield venue
    finally:
        venue.close()


def test_at_a_plain_http_venue_address_the_page_says_passkeys_need_https_and_offers_the_card(venue_browser: Any, db: str, tmp_path: Any) -> None:
    card, code = _person(db), _staff(db)
    context = venue_browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        with serving(db) as base:
            venue = base.replace("127.0.0.1", VENUE)
            page.goto(f"{venue}/passkeys/sign-in")
            assert page.evaluate("window.isSecureContext") is False
            note = page.inner_text("#passkeys-unavailable")
            assert "Passkeys need a secure address: HTTPS, or localhost" in note
            assert page.locator("form[data-passkey]").count() == 0
            looks_right(page, tmp_path / "venue.png")
            token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
            status, error = page.evaluate(ASK_OPTIONS, token)
            assert status == 400 and "HTTPS" in error  # no challenge is handed out where no browser can use it
            page.click("#passkeys-unavailable a:has-text('player card')")
            page.wait_for_url(f"{venue}/card")
            assert "Passkeys need a secure address" in page.inner_text("#passkeys-unavailable")
            page.fill("#code", card)
            page.click("button:has-text('Sign in')")
            page.wait_for_url(f"{venue}/me")
            page.click("#passkeys-link")  # signed in by card: the list, and why none can be added here
            assert "open this page at such an address" in page.inner_text("#passkeys-unavailable")
            page.context.clear_cookies()
            page.goto(f"{venue}/passkeys/sign-in")
            page.click("#passkeys-unavailable a:has-text('sign-in code')")
            page.wait_for_url(f"{venue}/join")
            page.fill("#code", code)
            page.click("button:has-text('Sign in')")
            page.wait_for_url(f"{venue}/admin")
    finally:
        context.close()
