"""Post/redirect/get with one-time keys: every change made through the web leaves a receipt (issue 22).

Every form a page renders carries a hidden one-time key (`_key`, from the
template callable `form_key`); an API client may send one as the
`Idempotency-Key` header. The change and its receipt (the key, who sent it,
the request, the outcome: the notice or the refusal) are written in one
transaction, the change inside a savepoint so that a refusal rolls it back
and keeps the receipt. A form is answered with a 303 redirect to its page
with `?r=KEY`, and that GET shows the receipt's message; the API answers as
before. A repeat of a used key (a double tap, a browser's resend) applies
nothing: a form is sent to the same page and receipt, the API gets the first
answer again. Two requests with one key at the same moment queue on the
receipt's primary key, so one applies and the other reads its receipt.

Receipts are not history (they are not in the event log), live in the
database so every worker sees them, and expire after LIFETIME. A player may
make WRITES changes in WINDOW (they are counted by their receipts); past that,
and past the guess limits of sign-in, the answer is a 429 at once that writes
nothing, not even a receipt, so a flood leaves nothing behind.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from litestar import MediaType, Request, Response
from litestar.response import Redirect
from sqlalchemy import Row, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from schemas.web import ErrorBody
from tournament import service
from tournament.storage.models import Receipt
from tournament.web.auth import keep, organiser, person
from tournament.web.common import reading, status_of, writing
from tournament.web.headers import head_only
from tournament.web.views import referee_error

LIFETIME = timedelta(hours=24)  # an event day: a receipt outlives any resend or refresh of its page
WINDOW = timedelta(minutes=1)
WRITES = 12  # a player's changes in WINDOW: a claim, a correction or two and a confirmation take four
KEY = re.compile(r"[A-Za-z0-9_.:-]{16,64}")  # a form's key (22 characters of secrets.token_urlsafe), a UUID, ...


class TooManyWrites(service.TournamentError):
    """A player sent more changes in WINDOW than anyone reporting a result needs."""

    status = 429


def form_key(_context: Any = None) -> str:
    """A new one-time key for a form (a Jinja callable: every rendered form gets its own)."""
    return secrets.token_urlsafe(16)


def owner_of(who: service.Identity | None) -> str:
    """Whose receipt: the organiser, a staff member, a player of an event, a person (by their card), or nobody
    signed in ("")."""
    if who is None:
        return ""
    if who.person is not None:
        return f"person {who.person}"
    if who.staff is not None:
        return f"staff {who.staff}"
    return "organiser" if who.player is None else f"player {who.event_id} {who.player}"


def registrant(address: str) -> str:
    """Whose receipt a public registration is: the address it came from, limited as a player is (WRITES)."""
    return f"register {address}"[:160]


@dataclass(frozen=True)
class Outcome:
    """What a change gives back: the page's notice; `detail`, the API's answer (msgspec JSON); `secret`, a code
    a page shows once; `private`, what only this request may be given (a new session, the API's answer that
    carries a code or a session): never stored, so a repeat of the key does not get it."""

    notice: str
    detail: bytes | None = None
    secret: str | None = None
    private: Any = None


@dataclass(frozen=True)
class Answer:
    """A receipt as read, and `private` when this request made it (not a repeat)."""

    key: str
    status: int
    message: str
    detail: bytes | None
    secret: str | None
    private: Any = None

    @property
    def ok(self) -> bool:
        return self.status < 400


def given_key(value: Any, what: str) -> str:
    """The key a request gave (a new one when none); Usage when it is not one."""
    if value is None or value == "":
        return form_key()
    if not isinstance(value, str) or not KEY.fullmatch(value):
        raise service.Usage(f"{what}: 16 to 64 letters, digits, '_', '-', '.' or ':'")
    return value


class PageRefusal(ErrorBody, forbid_unknown_fields=True):
    """A page form's refusal as its receipt keeps it: the error, and the fields as typed (`typed`), so the page
    the redirect leads to shows the form again with them. Only that page reads it (a key is good for one request)."""

    typed: dict[str, str] = msgspec.field(default_factory=dict)


TYPED_LIMIT = 64 * 1024  # characters of typed fields a refusal keeps (a round's scores are far fewer)


def typed(form: Any) -> dict[str, str]:
    """A form's text fields as typed, without its CSRF token and key (and none when there are too many)."""
    fields = {k: v for k, v in form.items() if not k.startswith("_") and isinstance(v, str)}
    return fields if sum(len(k) + len(v) for k, v in fields.items()) <= TYPED_LIMIT else {}


def once(
    request: Request[Any, Any, Any], key: str, owner: str, change: Callable[[Session], Outcome], *, status: int = 201,
    kept: dict[str, str] | None = None,
) -> Answer:
    """Make `change` once for `key`: its receipt, made now or by an earlier request with the key.

    A refusal (a TournamentError) is a receipt too, and its change is rolled back; a wrong guess is counted
    beside it; `kept`, a page form's fields as typed (`typed`), stays with a refusal for the page to show.
    TooManyGuesses and TooManyWrites write nothing and go on to the caller (429).
    """
    where = f"{request.method} {request.url.path}"[:300]
    try:
        with writing(request) as session:
            found = session.connection().execute(_FOUND, {"key": key}).first()
            if found is None:
                return _make(session, key, owner, where, change, status, kept or {})
            return _read(found, owner, where)
    except IntegrityError:  # a twin with this key committed its receipt first (PostgreSQL: it waited for it)
        with reading(request) as session:
            found = session.connection().execute(_FOUND, {"key": key}).first()
            if found is None:
                raise
            return _read(found, owner, where)


# Every change through the web reads and writes its receipt: Core statements built once, not the ORM's (T-170)
Stored = Row[str, str, str, int, str, bytes | None, str | None]  # key, owner, request, status, message, detail, secret
_FOUND = select(Receipt.key, Receipt.owner, Receipt.request, Receipt.status, Receipt.message, Receipt.detail, Receipt.secret).where(
    Receipt.key == bindparam("key")
)
_RECENT = select(func.count()).select_from(Receipt).where(Receipt.owner == bindparam("owner"), Receipt.created_at > bindparam("since"))
_EXPIRED = delete(Receipt).where(Receipt.created_at < bindparam("before"))
_NEW = insert(Receipt)
_OUTCOME = update(Receipt).where(Receipt.key == bindparam("of_key")).values(
    status=bindparam("to_status"), message=bindparam("to_message"), detail=bindparam("to_detail"), secret=bindparam("to_secret"),
)


def organiser_form(request: Request[Any, Any, Any], form: Any, back: str, change: Callable[[Session], str | Outcome]) -> Response[Any]:
    """An organiser's page form, once for its key (its fields kept with a refusal: `typed`); then a redirect to
    the page `back` with `?r=KEY`, which says what happened."""
    who = organiser(request)
    key = given_key(form.get("_key"), "_key")

    def made(session: Session) -> Outcome:
        done = change(session)
        return done if isinstance(done, Outcome) else Outcome(done)

    once(request, key, owner_of(who), made, kept=typed(form))
    return Redirect(f"{back}?r={key}", status_code=303)


def person_form(request: Request[Any, Any, Any], form: Any, change: Callable[[Session, service.Identity], str]) -> Response[Any]:
    """A form of a person signed in by their player card or a passkey, once for its key; then their page (`/me`),
    saying what happened (or why not)."""
    who = person(request)
    key = given_key(form.get("_key"), "_key")
    once(request, key, owner_of(who), lambda session: Outcome(change(session, who)))
    return Redirect(f"/me?r={key}", status_code=303)


def _make(
    session: Session, key: str, owner: str, where: str, change: Callable[[Session], Outcome], status: int, kept: dict[str, str],
) -> Answer:
    now = datetime.now(UTC)
    connection = session.connection()
    if owner.startswith(("player ", "person ", "register ")):  # a player's or person's changes; an address's registrations
        recent = connection.execute(_RECENT, {"owner": owner, "since": now - WINDOW}).scalar()
        if (recent or 0) >= WRITES:
            if owner.startswith("register "):  # someone not registered yet: they have no page to look at
                raise TooManyWrites(
                    f"too many registrations from this network in a minute (at most {WRITES}): nothing was registered. "
                    "Wait a minute and send the form again, or register at the organiser's desk"
                )
            raise TooManyWrites(f"too many changes at once: at most {WRITES} a minute; wait a moment and look at your page")
    connection.execute(_EXPIRED, {"before": now - LIFETIME})
    # a twin with this key waits here until this transaction ends, then fails
    connection.execute(_NEW, {"key": key, "owner": owner, "request": where, "status": status, "message": "", "created_at": now})
    try:
        with session.begin_nested():
            made = change(session)
        answer = Answer(key, status, made.notice, made.detail, made.secret, made.private)
    except (service.TooManyGuesses, TooManyWrites):
        raise
    except service.TournamentError as exc:
        if isinstance(exc, service.Denied) and exc.counted:
            service.record_guess(session, exc.counted)
        error = ErrorBody(status_of(exc), exc.message, exc.code, referee_error(exc) if isinstance(exc, service.LogRejected) else None)
        detail = msgspec.json.encode(PageRefusal(**msgspec.structs.asdict(error), typed=kept) if kept else error)
        answer = Answer(key, status_of(exc), exc.message, detail, None)
    if (answer.status, answer.message, answer.detail, answer.secret) != (status, "", None, None):  # else the receipt says it already
        connection.execute(_OUTCOME, {
            "of_key": key, "to_status": answer.status, "to_message": answer.message, "to_detail": answer.detail, "to_secret": answer.secret,
        })
    return answer


def _read(found: Stored, owner: str, where: str) -> Answer:
    if found.owner not in ("", owner) or found.request != where:
        raise service.Conflict("this form's key was used for another request; reload the page and send it again")
    return Answer(found.key, found.status, found.message, found.detail, found.secret)


def shown(request: Request[Any, Any, Any], key: str | None, owner: str) -> dict[str, Any]:
    """What a page shows of the receipt `?r=KEY`: `notice` or `error` (and `refused`: the referee's verdict;
    `typed`: the refused form's fields as typed), and `secret`, a code shown this once (wiped as it is read). Nothing for an unknown, expired or other's key."""
    if not key or not KEY.fullmatch(key):
        return {}
    with reading(request) as session:
        found = session.get(Receipt, key)
        if found is None or found.owner not in ("", owner) or found.created_at is None:
            return {}
        answer = Answer(found.key, found.status, found.message, found.detail, found.secret)
    if answer.secret is not None and head_only(request.scope):  # a HEAD reads no body: the code waits for a GET
        answer = Answer(answer.key, answer.status, answer.message, answer.detail, None)
    elif answer.secret is not None:
        with writing(request) as session:  # the code is shown once: only the first reader gets it
            wiped = session.execute(update(Receipt).where(Receipt.key == key, Receipt.secret.is_not(None)).values(secret=None))
            if wiped.rowcount != 1:  # type: ignore[attr-defined]
                answer = Answer(answer.key, answer.status, answer.message, answer.detail, None)
    if answer.ok:
        return {"notice": answer.message, "detail": answer.detail, "secret": answer.secret}
    error = msgspec.json.decode(answer.detail, type=PageRefusal) if answer.detail else None
    return {"error": answer.message, "refused": error.referee if error else None, "typed": error.typed if error else {}}


def signed_in(request: Request[Any, Any, Any], answer: Answer, key: str, form_page: str, landing: str, role: str) -> Response[Any]:
    """A sign-in form's answer: refused, back to `form_page` with the receipt saying why; else on to `landing` with
    the new session's cookie (none on a repeat of the form: the first answer set it)."""
    if not answer.ok:
        return Redirect(f"{form_page}?r={key}", status_code=303)
    done = Redirect(landing, status_code=303)
    return keep(done, request, answer.private, role) if answer.private else done


def api_answer(answer: Answer) -> Response[Any]:
    """The API's answer: this request's own, else the first answer's JSON (or its refusal) from the receipt."""
    if answer.private is not None:
        return Response(answer.private, status_code=answer.status, media_type=MediaType.JSON)
    if answer.detail is None:
        body = ErrorBody(409, "this request was made already; its answer carried a secret, which is given once", service.EXIT_CONFLICT)
        return Response(body, status_code=409, media_type=MediaType.JSON)
    return Response(answer.detail, status_code=answer.status, media_type=MediaType.JSON)


def api_change(request: Request[Any, Any, Any], owner: str, change: Callable[[Session], Any], *, private: bool = False) -> Response[Any]:
    """A JSON route's change, once for its `Idempotency-Key` (a new key when none): its answer is kept in
    the receipt for a repeat, unless `private` (it carries a code or a session, which is given once)."""
    key = given_key(request.headers.get("idempotency-key"), "Idempotency-Key")

    def made(session: Session) -> Outcome:
        body = msgspec.json.encode(change(session))
        return Outcome("", private=body) if private else Outcome("", detail=body)

    return api_answer(once(request, key, owner, made))
