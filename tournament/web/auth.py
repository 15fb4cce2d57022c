"""Who is asking: a player's, a person's or the organiser's session, from the cookie (pages) or the Bearer header (API).

Pages keep the session in an HttpOnly cookie and post forms with a CSRF
token; `/api/...` takes the session only from `Authorization: Bearer`, never
from a cookie, so a forged cross-site request carries nothing the API reads
(that is why the API is left out of the CSRF check). A wrong code or
organiser token is counted (service/tokens.py) before the refusal goes out.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response
from litestar.datastructures import Cookie
from litestar.exceptions import NotAuthorizedException, PermissionDeniedException
from sqlalchemy.orm import Session

from tournament import service
from tournament.service.tokens import ORGANISER_SESSION, PERSON_SESSION, PLAYER_SESSION
from tournament.web.common import keep_actor, reading, wants_json

COOKIE = "hj_session"
KNOWN = "identity"  # the request state's key for who signed in, once read


def client(request: Request[Any, Any, Any]) -> str:
    return request.client.host if request.client else "unknown"


def secret_of(request: Request[Any, Any, Any]) -> str | None:
    """The session secret the request carries: the Bearer header under /api, the cookie elsewhere."""
    if wants_json(request):
        scheme, _, value = request.headers.get("authorization", "").partition(" ")
        return value.strip() or None if scheme.lower() == "bearer" else None
    return request.cookies.get(COOKIE) or None


def identity(request: Request[Any, Any, Any], session: Session | None = None) -> service.Identity | None:
    """Whose session the request carries; None without one. A wrong or ended one is refused under /api (401),
    and on a page is no session (the page offers to sign in). Sessions are not guesses: a session's 32 random
    bytes cannot be guessed, and one that ended (a new code, a new organiser token) is no attack. Read in
    `session` when the route has one open (a live table's requests: one session each), else in its own. Read once
    a request: the permission guard's reading (web/guard.py) is the route's."""
    if KNOWN in request.state:
        known: service.Identity = request.state[KNOWN]
        return known
    secret = secret_of(request)
    if secret is None:
        return None
    try:
        if session is not None:
            found = service.identify(session, secret)
        else:
            with reading(request) as own:
                found = service.identify(own, secret)
    except service.Denied as exc:
        if wants_json(request):
            raise NotAuthorizedException(exc.message) from None
        return None
    keep_actor(request, found)  # what this request writes names them
    request.state[KNOWN] = found
    return found


def read_again(request: Request[Any, Any, Any]) -> None:
    """Forget who the request was read to be, so the next `identity` reads the session again: a long request
    (a live stream) asks whether its session still holds (a revoked judge's does not)."""
    if KNOWN in request.state:
        del request.state[KNOWN]


def player(request: Request[Any, Any, Any]) -> service.Identity:
    found = identity(request)
    if found is None or found.role != "player":
        raise NotAuthorizedException("sign in with the code on your slip first")
    return found


def person(request: Request[Any, Any, Any]) -> service.Identity:
    """A person signed in by their player card (T-181): who they are across events."""
    found = identity(request)
    if found is None or found.role != "person":
        raise NotAuthorizedException("sign in with your player card first")
    return found


def organiser(request: Request[Any, Any, Any], session: Session | None = None) -> service.Identity:
    """The organiser or a staff member signed in (what their role may do on the route, web/guard.py decided)."""
    found = identity(request, session)
    if found is None:
        raise NotAuthorizedException("sign in with the organiser token or your staff code first")
    if found.role == service.RETIRED:
        raise service.TokenRetired
    if found.role not in service.STAFF_ROLES:
        raise PermissionDeniedException("this is for the organiser and the staff")
    return found


def keep(response: Response[Any], request: Request[Any, Any, Any], secret: str, role: str) -> Response[Any]:
    """Send a new session as the page cookie (HttpOnly; Secure over HTTPS)."""
    lifetime = {"organiser": ORGANISER_SESSION, "person": PERSON_SESSION}.get(role, PLAYER_SESSION)
    response.set_cookie(
        Cookie(
            key=COOKIE, value=secret, httponly=True, samesite="lax", secure=request.url.scheme == "https",
            max_age=int(lifetime.total_seconds()), path="/",
        )
    )
    return response


def forget(response: Response[Any]) -> Response[Any]:
    response.delete_cookie(COOKIE, path="/")
    return response
