"""Sign-in secrets for `tournament serve`: players' one-time codes and sessions, the organiser token, guess limits.

A player's secret is `selector.verifier`, both from `secrets`: the selector
finds the row, the verifier is stored only as its SHA-256 and compared with
`hmac.compare_digest`. A **code** (printed on the player's slip, in the QR
link's fragment) is good once: exchanging it makes a **session**, which the
browser keeps in an HttpOnly cookie and an API client sends as
`Authorization: Bearer`. Issuing a new code revokes the player's older codes
and sessions. The organiser token is kept as a hash too; it is made on the
first `tournament serve` (and printed once), made anew by `tournament
organiser-token --new`, or set from TOURNAMENT_ADMIN_TOKEN.
Wrong guesses are counted in the database (so across workers) per code and
per client address; tournament/README.md ("Tokens") gives the design.

None of this is in the event log: credentials are not part of an event's
history, and an export must not carry even their hashes.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from sqlalchemy import Row, bindparam, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tournament.service.errors import TournamentError, Usage
from tournament.service.queries import get_player
from tournament.storage.eventlog import ORGANISER as ORGANISER_ACTOR
from tournament.storage.eventlog import Actor, as_utc, person_actor, player_actor, staff_actor
from tournament.storage.models import Credential, FailedGuess, ServerSecret, StaffMember

PLAYER_SESSION = timedelta(days=3)  # an event day, and the one after
ORGANISER_SESSION = timedelta(hours=24)
PERSON_SESSION = timedelta(days=30)  # signed in by a player card (T-181): a month on one phone, then the card again
DESK_SESSION = timedelta(hours=24)  # a registration desk the organiser authorised (T-152): one event day
# Wrong guesses (tournament/README.md, "Tokens", says why these numbers): one code's selector is locked after
# CODE_LIMIT wrong verifiers in CODE_WINDOW; one address is slowed after ADDRESS_LIMIT wrong guesses in
# ADDRESS_WINDOW, and then only for codes nobody was given (a venue's players share one address).
CODE_WINDOW = timedelta(hours=1)
CODE_LIMIT = 10
ADDRESS_WINDOW = timedelta(minutes=1)
ADDRESS_LIMIT = 60
ORGANISER = "organiser"  # the organiser token's selector (the token itself has none)


class Denied(TournamentError):
    """A missing, wrong, used or expired code, session or token. `counted`: the keys this wrong guess counts
    against (an address, `code SELECTOR`), recorded by the caller after its transaction is rolled back."""

    status = 401  # the web's answer

    def __init__(self, message: str, counted: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.counted = counted


class Spent(Denied):
    """The right code, already used (not a guess): `identity` is the player it signed in."""

    def __init__(self, identity: Identity) -> None:
        super().__init__("that code was already used; ask the organiser for a new one")
        self.identity = identity


class TokenRetired(TournamentError):
    """The organiser token, once the server has an organiser of its own (T-230): it signs in no one and acts on
    nothing; the organisers sign in with their own codes (and `tournament staff` is the way back in)."""

    status = 403

    def __init__(self) -> None:
        super().__init__(TOKEN_RETIRED)


TOKEN_RETIRED = "the server has organisers now, so the organiser token does nothing: sign in with your own staff code"
RETIRED = "retired-token"  # the role of an organiser token's session once an organiser exists: the matrix grants it nothing


class TooManyGuesses(TournamentError):
    """Too many wrong guesses lately: at this code, or at codes nobody was given from this address."""

    status = 429


@dataclass(frozen=True)
class Identity:
    """Who a session belongs to: a player of an event (`player`), the organiser token's session (role `organiser`,
    or RETIRED once the server has an organiser of its own: T-230; the rest None), a staff member (`staff`, their id; `role` theirs; `event_id` their event, None: every event), or
    a person signed in by their player card (role `person`, `person` their id; no event, no player: T-181)."""

    role: str  # player, organiser, head-judge, judge, scorekeeper (permissions.ROLES), or person
    event_id: str | None
    player: str | None
    staff: str | None = None
    person: str | None = None

    @property
    def actor(self) -> Actor:
        """Who the event log says made what this session changes."""
        if self.staff is not None:
            return staff_actor(self.staff)
        if self.person is not None:
            return person_actor(self.person)
        if self.player is not None:
            return player_actor(self.player)
        return ORGANISER_ACTOR


def _digest(verifier: str) -> str:
    return hashlib.sha256(verifier.encode()).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


def _new(
    session: Session, kind: str, event_id: str | None, player: str | None, lifetime: timedelta | None, *, staff: str | None = None,
    person: str | None = None,
) -> str:
    selector, verifier = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
    now = _now()
    session.add(
        Credential(
            selector=selector, kind=kind, event_id=event_id, player=player, staff=staff, hash=_digest(verifier), created_at=now,
            expires_at=now + lifetime if lifetime else None, person=person,
        )
    )
    session.flush()
    return f"{selector}.{verifier}"


NOBODY = "0" * 64  # compared against when there is no row, so a missing selector costs the same


def _opens(row: Credential | Key | None, verifier: str, *kinds: str) -> bool:
    stored = row.hash if row is not None else NOBODY
    return hmac.compare_digest(stored, _digest(verifier)) and row is not None and row.kind in kinds


# Every signed-in request reads its credential: columns through Core, by a statement built once (T-169)
# kind, event_id, player, hash, expires_at, staff, person
Key = Row[str, str | None, str | None, str, datetime | None, str | None, str | None]
_KEY = select(
    Credential.kind, Credential.event_id, Credential.player, Credential.hash, Credential.expires_at, Credential.staff, Credential.person,
).where(
    Credential.selector == bindparam("selector")
)
_STAFF = select(StaffMember.role, StaffMember.event_id).where(StaffMember.id == bindparam("staff"), StaffMember.revoked_at.is_(None))
_ORGANISERS = select(StaffMember.id).where(StaffMember.role == "organiser", StaffMember.revoked_at.is_(None)).limit(1)


def has_organiser(session: Session) -> bool:
    """Whether the server has an organiser-role staff member who is not revoked: then the token is retired (T-230)."""
    return session.connection().execute(_ORGANISERS).first() is not None


def _row(session: Session, selector: str) -> Key | None:
    return session.connection().execute(_KEY, {"selector": selector}).first() if selector and len(selector) <= 32 else None


def _find(session: Session, secret: str, *kinds: str) -> Key:
    """The credential of one of `kinds` that `secret` opens; Denied otherwise (one message whatever was wrong)."""
    selector, _, verifier = secret.strip().partition(".")
    row = _row(session, selector)
    if not _opens(row, verifier, *kinds) or row is None:
        raise Denied("that code or token is not valid")
    if row.expires_at is not None and as_utc(row.expires_at) < _now():
        raise Denied("your session has expired; sign in again with a new code from the organiser")
    return row


def issue_staff_code(session: Session, staff: str) -> str:
    """A new one-time sign-in code for a staff member (shown as a QR, as a player's slip code); their older codes
    and sessions stop working."""
    session.execute(delete(Credential).where(Credential.staff == staff))
    return _new(session, "code", None, None, None, staff=staff)


def end_staff_sessions(session: Session, staff: str) -> int:
    """End every code and session of a staff member (revoked: their open pages can do nothing from now on)."""
    ended = session.execute(delete(Credential).where(Credential.staff == staff))
    return int(ended.rowcount)  # type: ignore[attr-defined]


def staff_session(session: Session, staff: str) -> tuple[Identity, str]:
    """A session for a staff member something else proved (a passkey): who they are, and its secret; Denied
    for a revoked member, whose sign-ins all end."""
    member = session.connection().execute(_STAFF, {"staff": staff}).first()
    if member is None:
        raise Denied("your staff sign-in was revoked; ask the organiser")
    return Identity(member.role, member.event_id, None, staff), _new(session, "session", None, None, ORGANISER_SESSION, staff=staff)


def _who(session: Session, row: Key) -> Identity:
    """Whose a player's or staff member's code or session is; Denied for a staff member revoked since."""
    if row.staff is None:
        assert row.event_id is not None and row.player is not None
        return Identity("player", row.event_id, row.player)
    member = session.connection().execute(_STAFF, {"staff": row.staff}).first()
    if member is None:
        raise Denied("your staff sign-in was revoked; ask the organiser")
    return Identity(member.role, member.event_id, None, row.staff)


def issue_code(session: Session, event_id: str, player: str) -> str:
    """A new one-time sign-in code for a player; their older codes and sessions stop working."""
    get_player(session, event_id, player)
    session.execute(
        delete(Credential).where(
            Credential.event_id == event_id, Credential.player == player, Credential.kind.in_(("code", "session"))
        )
    )
    return _new(session, "code", event_id, player, None)


def enrol(session: Session, event_id: str, player: str) -> tuple[str, str]:
    """A public registrant's secrets (they may be on the waitlist, not yet a player): a session for the phone
    they registered on, and a one-time code to sign in on another."""
    session.execute(
        delete(Credential).where(
            Credential.event_id == event_id, Credential.player == player, Credential.kind.in_(("code", "session"))
        )
    )
    return _new(session, "code", event_id, player, None), _new(session, "session", event_id, player, PLAYER_SESSION)


def open_desk(session: Session, event_id: str) -> str:
    """A registration desk's secret for `event_id` (T-152): the device that keeps it registers walk-ins without
    the per-address limit, each given their own code; it is no one's session and signs nobody in."""
    return _new(session, "desk", event_id, None, DESK_SESSION)


def desk_event(session: Session, secret: str) -> str | None:
    """The event a desk secret registers for; None for anything else (a wrong, ended or expired secret)."""
    try:
        return _find(session, secret, "desk").event_id
    except Denied:
        return None


def close_desks(session: Session, event_id: str) -> int:
    """End every registration desk of the event; how many there were."""
    ended = session.execute(delete(Credential).where(Credential.event_id == event_id, Credential.kind == "desk"))
    return int(ended.rowcount)  # type: ignore[attr-defined]


def exchange_code(session: Session, code: str, client: str) -> tuple[Identity, str]:
    """Spend a one-time code: the player it names and a new session secret (`spend_code`)."""
    who = spend_code(session, code, client)
    if who.staff is not None:  # a staff member's: an event day, as the organiser's
        return who, _new(session, "session", None, None, ORGANISER_SESSION, staff=who.staff)
    return who, _new(session, "session", who.event_id, who.player, PLAYER_SESSION)


def spend_code(session: Session, code: str, client: str) -> Identity:
    """Spend a one-time code: the player it names (for a session, or as proof of the entry: a claim, T-183).

    The code is spent by one conditional UPDATE (`... WHERE used_at IS NULL`): of two requests at once only
    one finds it unspent, on any database. A wrong guess raises Denied naming what it counts against;
    TooManyGuesses when this code's selector, or (for a selector nobody was given) `client`, guessed too often.
    """
    selector, _, verifier = code.strip().partition(".")
    row = _row(session, selector)
    if row is None or row.kind != "code":
        if _guesses(session, client, ADDRESS_WINDOW) >= ADDRESS_LIMIT:
            raise TooManyGuesses("too many wrong codes from your address; wait a minute, and check the code on your slip")
        _opens(None, verifier)
        raise Denied("that code or token is not valid", (client,))
    if _guesses(session, _code_key(selector), CODE_WINDOW) >= CODE_LIMIT:
        raise TooManyGuesses("this code was typed wrong too often and is locked; ask the organiser for a new one")
    if not _opens(row, verifier, "code"):
        raise Denied("that code or token is not valid", (client, _code_key(selector)))
    who = _who(session, row)
    spent = session.execute(
        update(Credential).where(Credential.selector == selector, Credential.used_at.is_(None)).values(used_at=_now())
    )
    if spent.rowcount != 1:  # type: ignore[attr-defined]
        raise Spent(who)
    return who


def identify(session: Session, secret: str) -> Identity:
    """Whose session this is (a player's, a staff member's, a person's or the organiser's); Denied if none."""
    found = _find(session, secret, *SESSIONS)
    if found.kind == "organiser_session":  # read on each request: naming the first organiser retires it at once
        return Identity(RETIRED if has_organiser(session) else "organiser", None, None)
    if found.kind == "person_session":
        return Identity("person", None, None, person=found.person)
    return _who(session, found)


SESSIONS = ("session", "organiser_session", "person_session")


def new_card(session: Session, person_id: str) -> str:
    """A new player card for the person (T-181): long-lived, used again and again. Their old card and every
    session it (or a passkey) opened end with it: whoever holds the old card, or a phone signed in by it, is out."""
    session.execute(delete(Credential).where(Credential.person == person_id, Credential.kind.in_(("card", "person_session"))))
    return _new(session, "card", None, None, None, person=person_id)


def has_card(session: Session, person_id: str) -> bool:
    return session.scalar(select(func.count()).select_from(Credential).filter_by(person=person_id, kind="card")) != 0


def person_session(session: Session, person_id: str) -> str:
    """A session for the person, once something proved who they are (their player card; a passkey)."""
    return _new(session, "person_session", None, None, PERSON_SESSION, person=person_id)


def card_sign_in(session: Session, card: str, client: str) -> tuple[Identity, str]:
    """A player card for a person's session. A card is not spent (it signs its person in on every phone they
    use), so guessing is what is counted, as for codes (`exchange_code`): a wrong verifier of a real card
    against the card and `client`, an unknown card against `client`; TooManyGuesses past the limits."""
    selector, _, verifier = card.strip().partition(".")
    row = _row(session, selector)
    if row is None or row.kind != "card":
        if _guesses(session, client, ADDRESS_WINDOW) >= ADDRESS_LIMIT:
            raise TooManyGuesses("too many wrong codes or cards from your address; wait a minute")
        _opens(None, verifier)
        raise Denied("that player card is not valid (a renewed card's old one no longer is)", (client,))
    if _guesses(session, _code_key(selector), CODE_WINDOW) >= CODE_LIMIT:
        raise TooManyGuesses("this card was typed wrong too often and is locked for an hour; ask the organiser for a new one")
    if not _opens(row, verifier, "card"):
        raise Denied("that player card is not valid (a renewed card's old one no longer is)", (client, _code_key(selector)))
    assert row.person is not None
    return Identity("person", None, None, person=row.person), person_session(session, row.person)


def ensure_organiser(session: Session, given: str | None) -> str | None:
    """Keep the organiser token's hash: `given` (TOURNAMENT_ADMIN_TOKEN) replaces it; without one, a token is
    made on the first start and returned (to print once). None when nothing new needs printing."""
    if given:
        if len(given) < 16:
            raise TournamentError("TOURNAMENT_ADMIN_TOKEN must be at least 16 characters")
        _set_organiser(session, given)
        return None
    if session.get(Credential, ORGANISER) is not None:
        return None
    return new_organiser_token(session)


def new_organiser_token(session: Session) -> str:
    """A new organiser token (`tournament organiser-token --new`, or the first start): the old one stops working
    and every organiser session and registration desk ends with it."""
    token = secrets.token_urlsafe(24)
    _set_organiser(session, token)
    return token


def _set_organiser(session: Session, token: str) -> None:
    row = session.get(Credential, ORGANISER)
    if row is None:
        row = Credential(selector=ORGANISER, kind=ORGANISER, created_at=_now(), hash="")
        session.add(row)
    if row.hash != _digest(token):  # a new token: whoever signed in with the old one is out, and the desks they opened
        session.execute(delete(Credential).where(Credential.kind.in_(("organiser_session", "desk"))))
        row.hash = _digest(token)
        row.created_at = _now()


def organiser_login(session: Session, token: str, client: str) -> str:
    """The organiser token, checked in constant time, for an organiser session secret. The right token is never
    refused, however many wrong ones `client`'s address sent (its strength is the token's own: 32 random
    characters, or at least 16 chosen); a wrong one is counted, and refused with 429 once there are too many.
    The right token on a server with an organiser of its own is refused (TokenRetired, 403: T-230)."""
    row = session.get(Credential, ORGANISER)
    if _opens(row, token.strip(), ORGANISER):
        if has_organiser(session):
            raise TokenRetired
        return _new(session, "organiser_session", None, None, ORGANISER_SESSION)
    if _guesses(session, client, ADDRESS_WINDOW) >= ADDRESS_LIMIT:
        raise TooManyGuesses("too many wrong codes or tokens from your address; wait a minute")
    raise Denied("that is not the organiser token", (client,))


def sign_out(session: Session, secret: str) -> None:
    selector = secret.partition(".")[0]
    session.execute(delete(Credential).where(Credential.selector == selector, Credential.kind.in_(SESSIONS)))


def _code_key(selector: str) -> str:
    return f"code {selector}"


def _guesses(session: Session, key: str, window: timedelta) -> int:
    """Wrong guesses counted against `key` (an address, or `code SELECTOR`) within `window`."""
    since = _now() - window
    return session.scalar(select(func.count()).select_from(FailedGuess).where(FailedGuess.client == key[:64], FailedGuess.at > since)) or 0


def record_guess(session: Session, keys: tuple[str, ...]) -> None:
    """Count one wrong guess against each key (in its own transaction: the refused request writes nothing else);
    rows older than the longest window go, so the table stays small."""
    now = _now()
    session.execute(delete(FailedGuess).where(FailedGuess.at < now - max(CODE_WINDOW, ADDRESS_WINDOW)))
    session.add_all(FailedGuess(client=key[:64], at=now) for key in keys)


def server_secret(session: Session, name: str) -> str:
    """A key every worker shares, made on first use (two workers starting at once agree on the first one)."""
    row = session.get(ServerSecret, name)
    if row is not None:
        return row.value
    try:
        with session.begin_nested():
            session.add(ServerSecret(name=name, value=secrets.token_hex(32)))
    except IntegrityError:
        pass  # another worker made it first
    row = session.get(ServerSecret, name)
    assert row is not None
    return row.value


PUBLIC_URL = "public_url"  # a `server_secrets` row: not a secret, but a setting every worker and command shares
MAX_URL = 128  # the column's width


def check_public_url(url: str) -> str:
    """`serve --public-url`: an http(s) address with a host (and maybe a port and a path), nothing more;
    Usage otherwise. Returned without a final `/`."""
    try:
        parts = urlsplit(url.strip())
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        parts, port_ok = None, False
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        raise Usage(f"--public-url {url!r}: write the address phones open, like http://192.168.1.20:8000 or https://cup.example.org")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise Usage(f"--public-url {url!r}: an address only, with no query, fragment or user name")
    shown = url.strip().rstrip("/")
    if len(shown) > MAX_URL:
        raise Usage(f"--public-url is at most {MAX_URL} characters")
    return shown


def public_url(session: Session) -> str | None:
    """The address phones open, as `serve --public-url` stored it (None: never given)."""
    row = session.get(ServerSecret, PUBLIC_URL)
    return row.value if row is not None else None


PUBLISHED_URL = "published_url"  # the address the last `serve` printed and links with (T-163)


def published_url(session: Session) -> str | None:
    """The address the last `tournament serve` published (its port and host, or `--public-url`); None: never served."""
    row = session.get(ServerSecret, PUBLISHED_URL)
    return row.value if row is not None else None


def keep_published_url(session: Session, url: str) -> None:
    """`serve` keeps the address it prints, for `slips --tokens` run beside it without `--url`."""
    row = session.get(ServerSecret, PUBLISHED_URL)
    if row is None:
        session.add(ServerSecret(name=PUBLISHED_URL, value=url))
    else:
        row.value = url


def keep_public_url(session: Session, url: str) -> str:
    """Store the address phones open (checked), for every worker and `slips --tokens`."""
    checked = check_public_url(url)
    row = session.get(ServerSecret, PUBLIC_URL)
    if row is None:
        session.add(ServerSecret(name=PUBLIC_URL, value=checked))
    else:
        row.value = checked
    return checked
