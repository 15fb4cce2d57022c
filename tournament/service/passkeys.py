"""Passkeys: WebAuthn sign-in for people and staff where the server is a secure context (HTTPS, or localhost).

The ceremonies are the `webauthn` library's; this module keeps what it leaves to a relying party:

- **Where**: the RP id is the host the request came to (a name: browsers refuse an address by number), the
  origin the browser must report is the request's own scheme, host and port (`Site`). A plain-HTTP address
  other than localhost is no secure context: browsers offer no passkeys there, and `site` says so.
- **Challenges** are 32 random bytes, kept (as their SHA-256) in the database so any worker can finish a
  ceremony another began, for CHALLENGE_LIFETIME, and spent by one conditional DELETE: of two requests with
  one challenge (a replay, a double tap) only one finds it. A registration's challenge names its owner and
  is good for nobody else.
- **The sign counter** must grow when the authenticator keeps one (the library checks it); it is raised by a
  conditional UPDATE, so two assertions that carry one count cannot both pass.
- **The user handle** is 32 random bytes, one for all of an owner's passkeys (an authenticator then keeps one
  passkey per owner here), never a name or an id.

An owner is a person or a staff member (`Owner`). Passkeys are credentials, not event history: no event log
names them, and an export carries none.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from tournament.service.errors import Conflict, NotFound, TournamentError, Usage
from tournament.storage.eventlog import as_utc
from tournament.storage.models import Passkey, PasskeyChallenge, Person, StaffMember

CHALLENGE_LIFETIME = timedelta(minutes=5)  # a phone's prompt, a fumbled fingerprint, a second try
TIMEOUT_MS = 120_000  # what the browser is told to wait for the person (a hint; the challenge outlives it)
MAX_PASSKEYS = 10  # each owner's: a phone, a laptop, a security key or two, with room to spare
MAX_CHALLENGES = 10_000  # unspent ones at once on the server: far above a venue signing in, below a flood's harm
MAX_RESPONSE = 32 * 1024  # characters of an authenticator's answer (a few hundred bytes; attestation certificates a few KiB)
MAX_NAME = 60
RP_NAME = "headjudge"
REGISTER, SIGN_IN = "register", "sign_in"
# Presence, not verification, is asked (T-193): a passkey stands where the player card stands, something held;
# an authenticator that verifies its user (most phones) does so anyway.
USER_VERIFICATION = "preferred"
# webauthn (and OpenSSL under it) is imported by the ceremonies only: every command imports this module through
# staff and persons, and would spend a fifth of its start on a library it never calls.


class NotSecure(Usage):
    """The page is not a secure context for passkeys (plain HTTP at a venue address, or an address by number)."""


class PasskeyDenied(TournamentError):
    """An answer from an authenticator that does not prove its owner: unknown, removed, replayed, made for
    another address or by another key. One message to the person; the reason to whoever reads `reason`."""

    status = 401

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message


class TooManyCeremonies(TournamentError):
    status = 429


@dataclass(frozen=True)
class Owner:
    """Whose a passkey is: `kind` person or staff, and their id."""

    kind: str
    id: str

    def columns(self) -> dict[str, str | None]:
        return {"person": self.id if self.kind == "person" else None, "staff": self.id if self.kind == "staff" else None}


@dataclass(frozen=True)
class Site:
    """Where a ceremony happens: the RP id (the host's name) and the origin the browser must report."""

    rp_id: str
    origin: str


SECURE_CONTEXT = "passkeys need HTTPS, or this computer's own address (localhost): sign in with your player card or code here"


def secure(scheme: str, host: str) -> bool:
    """Whether a browser offers passkeys at `scheme://host`: HTTPS or localhost (a secure context), at a name
    (an RP id is a domain: 127.0.0.1 is a secure context but no RP id)."""
    name = host.strip("[]").lower().rstrip(".")
    try:
        ipaddress.ip_address(name)
        return False
    except ValueError:
        pass
    return bool(name) and (scheme == "https" or name == "localhost" or name.endswith(".localhost"))


def site(scheme: str, host: str, port: int | None) -> Site:
    """The Site of a request to `scheme://host:port`; NotSecure where browsers offer no passkeys."""
    if not secure(scheme, host):
        raise NotSecure(SECURE_CONTEXT)
    name = host.lower().rstrip(".")
    default = {"http": 80, "https": 443}.get(scheme)
    return Site(name, f"{scheme}://{name}" + (f":{port}" if port and port != default else ""))


def _hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


def _owned(owner: Owner) -> Any:
    return Passkey.person == owner.id if owner.kind == "person" else Passkey.staff == owner.id


def passkeys_of(session: Session, owner: Owner) -> list[Passkey]:
    """The owner's passkeys, oldest first."""
    return list(session.scalars(select(Passkey).where(_owned(owner)).order_by(Passkey.created_at, Passkey.id)))


def _challenge(session: Session, purpose: str, owner: Owner | None = None, user_handle: str | None = None) -> bytes:
    """A new challenge, kept for CHALLENGE_LIFETIME; expired ones go first. TooManyCeremonies past MAX_CHALLENGES."""
    now = _now()
    session.execute(delete(PasskeyChallenge).where(PasskeyChallenge.expires_at < now))
    if (session.scalar(select(func.count()).select_from(PasskeyChallenge)) or 0) >= MAX_CHALLENGES:
        raise TooManyCeremonies("too many passkey sign-ins under way on this server; wait a minute and try again")
    challenge = secrets.token_bytes(32)
    columns = owner.columns() if owner else {"person": None, "staff": None}
    session.add(PasskeyChallenge(id=_hash(challenge), purpose=purpose, user_handle=user_handle, expires_at=now + CHALLENGE_LIFETIME, **columns))
    session.flush()
    return challenge


def _spend(session: Session, challenge: bytes, purpose: str) -> PasskeyChallenge:
    """The challenge's row, spent now (one conditional DELETE: a second request with it finds nothing);
    PasskeyDenied if it was never made, is spent already, has expired or is of the other ceremony."""
    key = _hash(challenge)
    row = session.get(PasskeyChallenge, key)
    if row is None or row.purpose != purpose:
        raise PasskeyDenied("this passkey prompt is no longer valid: start again", "unknown or spent challenge")
    session.expunge(row)
    gone = session.execute(delete(PasskeyChallenge).where(PasskeyChallenge.id == key))
    if gone.rowcount != 1:  # type: ignore[attr-defined]
        raise PasskeyDenied("this passkey prompt is no longer valid: start again", "challenge spent at the same time")
    if as_utc(row.expires_at) < _now():
        raise PasskeyDenied("this passkey prompt took too long: start again", "expired challenge")
    return row


def _answer(response: str) -> tuple[dict[str, Any], bytes]:
    """An authenticator's answer as JSON (what the page's script sends) and the challenge its client data names."""
    from webauthn.helpers import base64url_to_bytes, parse_client_data_json
    from webauthn.helpers.exceptions import WebAuthnException

    if len(response) > MAX_RESPONSE:
        raise Usage(f"the passkey's answer is longer than {MAX_RESPONSE} characters")
    try:
        answer = json.loads(response)
        client_data = answer["response"]["clientDataJSON"]
        return answer, parse_client_data_json(base64url_to_bytes(client_data)).challenge
    except (ValueError, TypeError, KeyError, WebAuthnException):
        raise Usage("the passkey's answer could not be read; start again") from None


def registration_options(session: Session, owner: Owner, shown_name: str, where: Site) -> str:
    """The JSON the page hands to `navigator.credentials.create`: a new challenge for `owner`, their user handle
    (their passkeys' one, else a new random one), their passkeys excluded (an authenticator holds one)."""
    from webauthn import generate_registration_options, options_to_json
    from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        PublicKeyCredentialDescriptor,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    mine = passkeys_of(session, owner)
    if len(mine) >= MAX_PASSKEYS:
        raise Conflict(f"you have {MAX_PASSKEYS} passkeys already, the most one person may have: remove one first")
    handle = mine[0].user_handle if mine else bytes_to_base64url(secrets.token_bytes(32))
    options = generate_registration_options(
        rp_id=where.rp_id, rp_name=RP_NAME, user_name=shown_name, user_id=base64url_to_bytes(handle), user_display_name=shown_name,
        challenge=_challenge(session, REGISTER, owner, handle), timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement(USER_VERIFICATION)
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=p.credential) for p in mine],
    )
    return options_to_json(options)


def passkey_name(text: str) -> str:
    """What an owner calls a passkey (`My phone`): at most MAX_NAME characters, no control characters; a default
    with the date when empty."""
    name = " ".join(text.split())
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in name):
        raise Usage("a passkey's name may not hold control characters")
    if len(name) > MAX_NAME:
        raise Usage(f"a passkey's name is at most {MAX_NAME} characters")
    return name or f"Passkey added {_now():%-d %b %Y}"


def register(session: Session, owner: Owner, where: Site, response: str, name: str = "") -> Passkey:
    """Keep the passkey an authenticator made for `owner` at `where` (its challenge spent, its attestation
    checked by the library); PasskeyDenied if it does not answer this owner's challenge here."""
    from webauthn import verify_registration_response
    from webauthn.helpers.exceptions import WebAuthnException

    label = passkey_name(name)
    answer, challenge = _answer(response)
    row = _spend(session, challenge, REGISTER)
    if (row.person, row.staff) != tuple(owner.columns().values()):
        raise PasskeyDenied("this passkey prompt was made for someone else: start again", "another owner's challenge")
    try:
        made = verify_registration_response(credential=answer, expected_challenge=challenge, expected_rp_id=where.rp_id, expected_origin=where.origin)
    except WebAuthnException as exc:
        raise PasskeyDenied(f"the passkey was not made for this address ({where.origin}): start again here", str(exc)) from None
    if len(passkeys_of(session, owner)) >= MAX_PASSKEYS:
        raise Conflict(f"you have {MAX_PASSKEYS} passkeys already, the most one person may have: remove one first")
    if session.get(Passkey, _hash(made.credential_id)) is not None:
        raise Conflict("this passkey is registered here already")
    transports = answer["response"].get("transports")
    kept = Passkey(
        id=_hash(made.credential_id), credential=made.credential_id, public_key=made.credential_public_key, sign_count=made.sign_count,
        user_handle=row.user_handle, name=label, created_at=_now(), last_used_at=None,
        transports=" ".join(str(t) for t in transports if isinstance(t, str))[:100] if isinstance(transports, list) else "",
        **owner.columns(),
    )
    session.add(kept)
    session.flush()
    return kept


def sign_in_options(session: Session, where: Site) -> str:
    """The JSON the page hands to `navigator.credentials.get`: a new challenge, no credentials named (a passkey
    is discoverable: the authenticator offers the ones it holds for this address)."""
    from webauthn import generate_authentication_options, options_to_json
    from webauthn.helpers.structs import UserVerificationRequirement

    options = generate_authentication_options(
        rp_id=where.rp_id, challenge=_challenge(session, SIGN_IN), timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement(USER_VERIFICATION),
    )
    return options_to_json(options)


DENIED = "that passkey did not sign you in: it may have been removed, or made for another address. Sign in with your card or code"


def sign_in(session: Session, where: Site, response: str) -> Owner:
    """Whose passkey answered the sign-in challenge it names, at `where`; PasskeyDenied when it proves nobody
    (unknown or removed, a spent challenge, another origin or RP id, a bad signature, a counter gone back)."""
    from webauthn import verify_authentication_response
    from webauthn.helpers import base64url_to_bytes
    from webauthn.helpers.exceptions import WebAuthnException

    answer, challenge = _answer(response)
    _spend(session, challenge, SIGN_IN)
    try:
        raw_id = base64url_to_bytes(str(answer.get("rawId", "")))
    except ValueError:
        raise Usage("the passkey's answer could not be read; start again") from None
    key = session.get(Passkey, _hash(raw_id))
    if key is None:
        raise PasskeyDenied(DENIED, "unknown credential")
    handle = answer["response"].get("userHandle")
    if handle and handle != key.user_handle:
        raise PasskeyDenied(DENIED, "user handle is not the credential's")
    try:
        checked = verify_authentication_response(
            credential=answer, expected_challenge=challenge, expected_rp_id=where.rp_id, expected_origin=where.origin,
            credential_public_key=key.public_key, credential_current_sign_count=key.sign_count,
        )
    except WebAuthnException as exc:
        raise PasskeyDenied(DENIED, str(exc)) from None
    # a counter that does not grow past the one kept (another request raised it meanwhile) is a clone's or a replay's
    moved = session.execute(
        update(Passkey).where(Passkey.id == key.id, Passkey.sign_count == key.sign_count).values(sign_count=checked.new_sign_count, last_used_at=_now())
    )
    if moved.rowcount != 1:  # type: ignore[attr-defined]
        raise PasskeyDenied(DENIED, "sign counter moved meanwhile")
    return Owner("person", key.person) if key.person is not None else Owner("staff", str(key.staff))


def owner_name(session: Session, owner: Owner) -> str:
    """The name the owner's authenticator shows beside this server's passkeys (their display name)."""
    found = session.get(Person, owner.id) if owner.kind == "person" else session.get(StaffMember, owner.id)
    if found is None:
        raise NotFound(f"no {owner.kind} {owner.id!r}")
    return found.name


def remove(session: Session, owner: Owner, passkey_id: str) -> str:
    """Remove one of the owner's passkeys (it signs nobody in from now on): its name. NotFound for another's."""
    found = session.get(Passkey, passkey_id) if len(passkey_id) == 64 else None
    if found is None or (found.person, found.staff) != tuple(owner.columns().values()):
        raise NotFound("no such passkey of yours (removed already?)")
    session.delete(found)
    session.flush()
    return found.name


def remove_all(session: Session, owner: Owner) -> int:
    """Remove every passkey of the owner (a staff member revoked, a person merged away): how many."""
    gone = session.execute(delete(Passkey).where(_owned(owner)))
    return int(gone.rowcount)  # type: ignore[attr-defined]
