"""Sign-in secrets for `tournament serve`: players' one-time codes and sessions, the organiser token, guess limits.

A player's secret is `selector.verifier`, both from `secrets`: the selector
finds the row, the verifier is stored only as its SHA-256 and compared with
`hmac.compare_digest`. A **code** (printed on the player's slip, in the QR
link's fragment) is good once: exchanging it makes a **session**, which the
browser keeps in an HttpOnly cookie and an API client sends as
`Authorization: Bearer`. Issuing a new code revokes the player's older codes
and sessions. The organiser token is kept as a hash too; it is made on the
first `tournament serve` (and printed once) or set from TOURNAMENT_ADMIN_TOKEN.
Wrong guesses are counted by client address across workers (in the database);
too many in a window and that client waits.

None of this is in the event log: credentials are not part of an event's
history, and an export must not carry even their hashes.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tournament.service.errors import TournamentError
from tournament.service.queries import get_player
from tournament.storage.eventlog import as_utc
from tournament.storage.models import Credential, FailedGuess, ServerSecret

PLAYER_SESSION = timedelta(days=3)  # an event day, and the one after
ORGANISER_SESSION = timedelta(hours=24)
GUESS_WINDOW = timedelta(minutes=10)
GUESS_LIMIT = 20  # wrong codes or tokens from one address in GUESS_WINDOW; a venue's players share one address
ORGANISER = "organiser"  # the organiser token's selector (the token itself has none)


class Denied(TournamentError):
    """A missing, wrong, used or expired code, session or token."""


class TooManyGuesses(TournamentError):
    """Too many wrong codes or tokens from one client address lately."""


@dataclass(frozen=True)
class Identity:
    """Who a session belongs to: a player of an event, or the organiser (event and player None)."""

    role: str  # player or organiser
    event_id: str | None
    player: str | None


def _digest(verifier: str) -> str:
    return hashlib.sha256(verifier.encode()).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


def _new(session: Session, kind: str, event_id: str | None, player: str | None, lifetime: timedelta | None) -> str:
    selector, verifier = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
    now = _now()
    session.add(
        Credential(
            selector=selector, kind=kind, event_id=event_id, player=player, hash=_digest(verifier), created_at=now,
            expires_at=now + lifetime if lifetime else None,
        )
    )
    session.flush()
    return f"{selector}.{verifier}"


def _find(session: Session, secret: str, *kinds: str) -> Credential:
    """The credential of one of `kinds` that `secret` opens; Denied otherwise (one message whatever was wrong)."""
    selector, _, verifier = secret.strip().partition(".")
    row = session.get(Credential, selector) if selector and len(selector) <= 32 else None
    # compare against something even when there is no row, so a missing selector costs the same
    stored = row.hash if row is not None else "0" * 64
    good = hmac.compare_digest(stored, _digest(verifier)) and row is not None and row.kind in kinds
    if not good or row is None:
        raise Denied("that code or token is not valid")
    if row.used_at is not None:
        raise Denied("that code was already used; ask the organiser for a new one")
    if row.expires_at is not None and as_utc(row.expires_at) < _now():
        raise Denied("your session has expired; sign in again with a new code from the organiser")
    return row


def issue_code(session: Session, event_id: str, player: str) -> str:
    """A new one-time sign-in code for a player; their older codes and sessions stop working."""
    get_player(session, event_id, player)
    session.execute(
        delete(Credential).where(
            Credential.event_id == event_id, Credential.player == player, Credential.kind.in_(("code", "session"))
        )
    )
    return _new(session, "code", event_id, player, None)


def exchange_code(session: Session, code: str) -> tuple[Identity, str]:
    """Spend a one-time code: the player it names and a new session secret."""
    row = _find(session, code, "code")
    row.used_at = _now()
    assert row.event_id is not None and row.player is not None
    return Identity("player", row.event_id, row.player), _new(session, "session", row.event_id, row.player, PLAYER_SESSION)


def identify(session: Session, secret: str) -> Identity:
    """Whose session this is (a player's or the organiser's); Denied if none."""
    found = _find(session, secret, "session", "organiser_session")
    if found.kind == "organiser_session":
        return Identity("organiser", None, None)
    return Identity("player", found.event_id, found.player)


def ensure_organiser(session: Session, given: str | None) -> str | None:
    """Keep the organiser token's hash: `given` (TOURNAMENT_ADMIN_TOKEN) replaces it; without one, a token is
    made on the first start and returned (to print once). None when nothing new needs printing."""
    row = session.get(Credential, ORGANISER)
    if given:
        if len(given) < 16:
            raise TournamentError("TOURNAMENT_ADMIN_TOKEN must be at least 16 characters")
        if row is None:
            row = Credential(selector=ORGANISER, kind=ORGANISER, created_at=_now(), hash="")
            session.add(row)
        row.hash = _digest(given)
        return None
    if row is not None:
        return None
    token = secrets.token_urlsafe(24)
    session.add(Credential(selector=ORGANISER, kind=ORGANISER, created_at=_now(), hash=_digest(token)))
    return token


def organiser_login(session: Session, token: str) -> str:
    """The organiser token, checked in constant time, for an organiser session secret."""
    row = session.get(Credential, ORGANISER)
    stored = row.hash if row is not None else "0" * 64
    if not hmac.compare_digest(stored, _digest(token.strip())) or row is None:
        raise Denied("that is not the organiser token")
    return _new(session, "organiser_session", None, None, ORGANISER_SESSION)


def sign_out(session: Session, secret: str) -> None:
    selector = secret.partition(".")[0]
    session.execute(delete(Credential).where(Credential.selector == selector, Credential.kind.in_(("session", "organiser_session"))))


def check_guesses(session: Session, client: str) -> None:
    """TooManyGuesses when `client` made GUESS_LIMIT wrong guesses within GUESS_WINDOW."""
    since = _now() - GUESS_WINDOW
    count = session.scalar(select(func.count()).select_from(FailedGuess).where(FailedGuess.client == client, FailedGuess.at > since))
    if (count or 0) >= GUESS_LIMIT:
        minutes = int(GUESS_WINDOW.total_seconds() // 60)
        raise TooManyGuesses(f"too many wrong codes from your address; wait {minutes} minutes or ask the organiser")


def record_guess(session: Session, client: str) -> None:
    """Count one wrong guess (in its own transaction: the refused request writes nothing else)."""
    session.execute(delete(FailedGuess).where(FailedGuess.at < _now() - GUESS_WINDOW))
    session.add(FailedGuess(client=client[:64], at=_now()))


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
