"""Security headers on every response the app sends: pages, JSON, errors, redirects, static files.

A `before_send` hook sees every response's start, whichever part of Litestar
made it (a handler, an exception handler, the router's 404 or 405, the static
files), so no route can forget them.
"""

from __future__ import annotations

from litestar.types import Message, Scope

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


async def secure(message: Message, scope: Scope) -> None:
    """Add the headers to a response's start; over HTTPS, mark every cookie Secure (the CSRF one too)."""
    if message["type"] != "http.response.start":
        return
    headers = list(message.get("headers", []))
    present = {name.lower() for name, _ in headers}
    headers += [(name, value) for name, value in HEADERS.items() if name not in present]
    if scope.get("scheme") == "https":
        headers = [(name, _secure(value) if name.lower() == b"set-cookie" else value) for name, value in headers]
    message["headers"] = headers


def _secure(cookie: bytes) -> bytes:
    attributes = {part.strip().lower() for part in cookie.split(b";")[1:]}
    return cookie if b"secure" in attributes else cookie + b"; Secure"
