"""Security headers on every response the app sends: pages, JSON, errors, redirects, static files.

A `before_send` hook sees every response's start, whichever part of Litestar
made it (a handler, an exception handler, the router's 404 or 405, the static
files), so no route can forget them.
"""

from __future__ import annotations

from typing import Any, cast

from litestar.types import HTTPScope, Message, Receive, Scope, Send

from tournament.web.auth import COOKIE

# No inline script or style anywhere (tournament/web/assets.py serves them as files); nothing may frame a
# page (clickjacking the organiser's forms); forms post only here; no <base> or plugin can redirect either.
POLICY = "; ".join([
    "default-src 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
])
HEADERS = {
    b"content-security-policy": POLICY.encode(),
    b"x-frame-options": b"DENY",  # frame-ancestors for browsers that predate it
    b"x-content-type-options": b"nosniff",
    b"referrer-policy": b"no-referrer",  # no page's address (an event, a round) leaves with a link followed
}


# A page or an answer to someone signed in is theirs: no shared cache keeps it, no browser keeps it on disk
# for the next person at a shared tablet or a venue's laptop to find in its history or cache.
PRIVATE = (b"cache-control", b"private, no-store")


async def secure(message: Message, scope: Scope) -> None:
    """Add the headers to a response's start; over HTTPS, mark every cookie Secure (the CSRF one too); an answer
    to a request behind a session (its cookie, or a Bearer header) is `private, no-store` unless it says otherwise."""
    if message["type"] != "http.response.start":
        return
    headers = list(message.get("headers", []))
    present = {name.lower() for name, _ in headers}
    headers += [(name, value) for name, value in HEADERS.items() if name not in present]
    if PRIVATE[0] not in present and _in_session(scope):
        headers.append(PRIVATE)
    if scope.get("scheme") == "https":
        headers = [(name, _secure(value) if name.lower() == b"set-cookie" else value) for name, value in headers]
    message["headers"] = headers


def _secure(cookie: bytes) -> bytes:
    attributes = {part.strip().lower() for part in cookie.split(b";")[1:]}
    return cookie if b"secure" in attributes else cookie + b"; Secure"


def _in_session(scope: Scope) -> bool:
    for name, value in scope.get("headers", []):
        if name == b"authorization" or (name == b"cookie" and f"{COOKIE}=".encode() in value):
            return True
    return False


class AnswersHead:
    """`HEAD` answered as `GET` without its body (RFC 9110, 9.3.2): Litestar routes a GET handler for GET only.

    Wraps the app's ASGI entry (`app.asgi_handler`), so HEAD reaches every route GET does, with the same status
    and headers (Content-Length too: the size the GET would send).
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or cast("HTTPScope", scope)["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        done = False

        async def without_body(message: Message) -> None:
            nonlocal done
            if message["type"] != "http.response.body":
                await send(message)
            elif not done:  # one empty body ends the answer; what the handler still streams goes nowhere
                done = True
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        await self.app({**scope, "method": "GET", HEAD_ONLY: True}, receive, without_body)


HEAD_ONLY = "headjudge.head"  # in the scope of a HEAD answered as GET: nothing shown once may be spent on it


def head_only(scope: Scope) -> bool:
    """Whether this GET is a HEAD: its body goes nowhere, so a code shown once must not be used up by it."""
    return bool(scope.get(HEAD_ONLY))
