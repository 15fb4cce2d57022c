"""The sender (issue 36, T-222): delivers the outbox's messages by e-mail (SMTP) and Web Push, at least once.

One round of `Sender.once`: write the reminders now due (`messages.due_reminders`); claim a batch of messages
due on the channels this sender has (`claim`: each row held for `lease` seconds, `SELECT ... FOR UPDATE SKIP
LOCKED` on PostgreSQL so two senders never wait on, or take, each other's rows; SQLite's `BEGIN IMMEDIATE`
makes the claim one writer's at a time); deliver each; then mark each sent, or due again after a backoff
(5 s doubling to an hour, at most `MAX_ATTEMPTS` tries), or given up (a refusal no retry mends). A sender
killed between delivery and marking leaves its claim to lapse: the message goes again with the same id,
and the receiver knows it by that id (the e-mail's Message-ID; the push payload's `id` and `Topic` header).

Every `REMINDERS_EVERY` seconds a round also prunes the outbox (`prune`, T-243): a sent message's row goes
after `KEEP_SENT`, a given-up one's (`failed`, what the organiser is shown: `given_up`) after `KEEP_FAILED`, at
most `PRUNE_BATCH` rows a round so a long-idle outbox never makes one long transaction.

`tournament send` runs it as its own process; `tournament serve` runs one in each worker (a thread).
"""

from __future__ import annotations

import base64
import contextlib
import logging
import random
import smtplib
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import formataddr
from typing import Any, Protocol
from urllib.parse import parse_qs, unquote, urlsplit

import msgspec
from sqlalchemy import Engine, and_, delete, func, or_, select, update
from sqlalchemy.orm import Session

from schemas.tournament import FailedMessage
from tournament.output.messages import Words, words
from tournament.service import messages
from tournament.service.errors import Usage
from tournament.service.tokens import public_url, published_url
from tournament.storage.eventlog import as_utc
from tournament.storage.models import Message, ServerSecret, Subscription

LEASE = timedelta(seconds=60)  # how long a claim holds a message before another sender may take it over
BATCH = 64  # messages claimed at once: a batch at its slowest (8 pushes at a time, 5 s each) ends within the lease
MAX_ATTEMPTS = 12  # tries before a message is given up (5 s, 10 s, ... an hour: about 3.5 hours in all)
FIRST_RETRY = 5.0  # seconds
LAST_RETRY = 3600.0
POLL = 0.25  # seconds between looks at an empty outbox
REMINDERS_EVERY = 5.0  # seconds between looks for reminders due (their windows are 10 and 30 minutes, T-224)
PUSH_THREADS = 8  # pushes in flight at once (each is a request to a push service)
PUSH_TTL = 4 * 3600  # seconds a push service keeps a message for a phone that is off
VAPID_SECRET = "vapid"  # server_secrets: the VAPID private key, raw, base64url
KEEP_SENT = timedelta(days=7)  # a sent message's row, kept past every reminder's window so its id still dedupes (T-243)
KEEP_FAILED = timedelta(days=30)  # a given-up message's row, for the organiser to see (T-243)
PRUNE_BATCH = 500  # rows pruned at most in one round
STOPPED = "the subscription was stopped"  # `failed` of a message whose subscription went first: not a failure
log = logging.getLogger("tournament.send")


@dataclass(frozen=True)
class Outgoing:
    """A claimed message, with where it goes."""

    id: str
    event_id: str | None
    kind: str
    channel: str
    facts: dict[str, Any]
    subscription: int
    address: str
    p256dh: str | None
    auth: str | None
    token: str  # the subscription's: the message's link to stop it


@dataclass(frozen=True)
class Failure:
    reason: str
    permanent: bool = False  # no retry mends it (a refused address): given up at once
    gone: bool = False  # the subscription is gone for good (a push service's 404 or 410): forgotten
    untried: bool = False  # not tried: the batch ran out of its time; released for the next round, no try counted


class Channel(Protocol):
    name: str

    def deliver(self, batch: Sequence[tuple[Outgoing, Words]]) -> list[Failure | None]: ...


# Claiming and marking -------------------------------------------------------------------------------------------


def claim(session: Session, channels: Sequence[str], now: datetime, lease: timedelta = LEASE, limit: int = BATCH) -> tuple[list[Outgoing], list[str]]:
    """Hold up to `limit` due messages on `channels` until `now + lease`: those to deliver, and the ids of those
    whose subscription is gone (marked given up here)."""
    query = (
        select(Message, Subscription)
        .join(Subscription, Subscription.id == Message.subscription, isouter=True)
        .where(
            Message.sent_at.is_(None), Message.due_at <= now, Message.channel.in_(channels),
            or_(Message.claimed_until.is_(None), Message.claimed_until < now),
        )
        .order_by(Message.due_at, Message.id)
        .limit(limit)
    )
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True, of=Message)
    taken: list[Outgoing] = []
    orphans: list[str] = []
    for row, sub in session.execute(query).all():
        if sub is None:
            row.sent_at, row.failed, row.claimed_until = now, STOPPED, None
            orphans.append(row.id)
            continue
        row.claimed_until = now + lease
        facts = msgspec.json.decode(row.facts)
        taken.append(Outgoing(row.id, row.event_id, row.kind, row.channel, facts, sub.id, sub.address, sub.p256dh, sub.auth, sub.token))
    return taken, orphans


def backoff(attempts: int) -> float:
    """Seconds before try `attempts + 1`: 5 s doubling to an hour, with a tenth either way so retries spread."""
    return min(FIRST_RETRY * 2 ** (attempts - 1), LAST_RETRY) * random.uniform(0.9, 1.1)


def settle(session: Session, outcomes: Sequence[tuple[Outgoing, Failure | None]], now: datetime) -> None:
    """Mark each delivered message sent; each failed one due again later, or given up."""
    delivered = [o.id for o, failure in outcomes if failure is None]
    for start in range(0, len(delivered), 500):
        chunk = delivered[start:start + 500]
        session.execute(update(Message).where(Message.id.in_(chunk)).values(sent_at=now, claimed_until=None, failed=None))
    for outgoing, failure in outcomes:
        if failure is None:
            continue
        row = session.get(Message, outgoing.id)
        if row is None or row.sent_at is not None:
            continue
        if failure.untried:
            row.claimed_until = None
            continue
        row.attempts += 1
        row.failed, row.claimed_until = failure.reason[:500], None
        if failure.permanent or row.attempts >= MAX_ATTEMPTS:
            row.sent_at = now  # given up: `failed` says why
        else:
            row.due_at = now + timedelta(seconds=backoff(row.attempts))
        if failure.gone:
            messages.gone(session, outgoing.subscription)


def pending(session: Session) -> int:
    """Messages not yet sent (nor given up)."""
    return session.scalar(select(func.count()).select_from(Message).where(Message.sent_at.is_(None))) or 0


def prune(session: Session, now: datetime, limit: int = PRUNE_BATCH) -> int:
    """Delete up to `limit` rows of messages sent more than `KEEP_SENT` ago (or whose subscription was stopped),
    and of messages given up more than `KEEP_FAILED` ago (T-243). The number deleted."""
    done = or_(Message.failed.is_(None), Message.failed == STOPPED)
    old = or_(and_(done, Message.sent_at < now - KEEP_SENT), Message.sent_at < now - KEEP_FAILED)
    ids = list(session.scalars(select(Message.id).where(Message.sent_at.is_not(None), old).limit(limit)))
    if ids:
        session.execute(delete(Message).where(Message.id.in_(ids)))
    return len(ids)


def given_up(session: Session, limit: int = 500) -> list[FailedMessage]:
    """The messages given up (newest first, at most `limit`): after `MAX_ATTEMPTS` tries, or at once on a refusal.
    Names as the message said them (its facts); the address while its subscription lasts."""
    query = (
        select(Message, Subscription.address)
        .join(Subscription, Subscription.id == Message.subscription, isouter=True)
        .where(Message.sent_at.is_not(None), Message.failed.is_not(None), Message.failed != STOPPED)
        .order_by(Message.sent_at.desc(), Message.id)
        .limit(limit)
    )
    found = []
    for row, address in session.execute(query).all():
        facts = msgspec.json.decode(row.facts)
        assert row.sent_at is not None and row.failed is not None
        found.append(FailedMessage(
            row.id, row.event_id, facts.get("event", ""), facts.get("player", ""), row.kind, row.channel,
            messages.described(row.channel, address) if address is not None else None, row.attempts,
            as_utc(row.sent_at), row.failed,
        ))
    return found


# The sender -----------------------------------------------------------------------------------------------------


class Sender:
    """Delivers the outbox on `channels` (by name); `base_url`: where phones reach the server (None: as `serve`
    stored it)."""

    def __init__(self, engine: Engine, channels: Sequence[Channel], *, base_url: str | None = None, lease: timedelta = LEASE) -> None:
        self.engine = engine
        self.channels = {c.name: c for c in channels}
        self.base_url = base_url
        self.lease = lease
        self.reminded = float("-inf")  # time.monotonic() of the last look for reminders

    def once(self, now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> int:
        """One round: reminders, a claimed batch delivered and marked. The number of messages claimed."""
        if not self.channels:
            return 0
        if time.monotonic() - self.reminded >= REMINDERS_EVERY:
            with Session(self.engine) as session, session.begin():
                messages.due_reminders(session, now())
                prune(session, now())
            self.reminded = time.monotonic()
        with Session(self.engine) as session, session.begin():
            taken, orphans = claim(session, list(self.channels), now(), self.lease)
            base = self.base_url or public_url(session) or published_url(session) or "http://localhost:8000"
        outcomes: list[tuple[Outgoing, Failure | None]] = []
        for name, channel in self.channels.items():
            batch = [(o, words(o.kind, o.facts, base, token=o.token)) for o in taken if o.channel == name]
            if batch:
                outcomes.extend(zip((o for o, _w in batch), channel.deliver(batch), strict=True))
        if outcomes:
            with Session(self.engine) as session, session.begin():
                settle(session, outcomes, now())
        return len(taken) + len(orphans)

    def run(self, stop: threading.Event, poll: float = POLL) -> None:
        """Deliver until `stop` is set; a database or channel error is logged and tried again after a pause."""
        while not stop.is_set():
            try:
                busy = self.once()
            except Exception:  # the loop outlives a database that is briefly away; the outbox keeps the messages
                log.exception("the sender failed a round; trying again")
                busy = 0
            if not busy:
                stop.wait(poll)


def start_thread(sender: Sender) -> Callable[[], None]:
    """Run `sender` in a daemon thread; the function it returns stops it."""
    stop = threading.Event()
    thread = threading.Thread(target=sender.run, args=(stop,), name="tournament-send", daemon=True)
    thread.start()

    def halt() -> None:
        stop.set()
        thread.join(timeout=10)

    return halt


# E-mail ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SmtpSettings:
    """`smtp://[user:password@]host[:port][?from=ADDRESS&starttls=1]`, or `smtps://` (TLS from the start)."""

    host: str
    port: int
    tls: bool
    starttls: bool
    user: str | None
    password: str | None
    sender: str


def smtp_settings(url: str) -> SmtpSettings:
    """The organiser's `--smtp URL`, read; Usage in one line if it is not one."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise Usage(f"--smtp: not a URL: {url!r}") from None
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise Usage(f"--smtp: smtp://host[:port] or smtps://host[:port], not {url!r}")
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    sender = query.get("from") or f"headjudge@{parts.hostname}"
    if not messages.is_email(sender):
        raise Usage(f"--smtp: from= must be an e-mail address, not {sender!r}")
    tls = parts.scheme == "smtps"
    return SmtpSettings(
        parts.hostname, port or (465 if tls else 25), tls, query.get("starttls", "") in ("1", "true", "yes"),
        unquote(parts.username) if parts.username else None, unquote(parts.password) if parts.password else None, sender,
    )


class Email:
    """E-mail through the organiser's SMTP server: one connection for a batch, a Message-ID of the message's id.

    `timeout` bounds each wait on the server (a hung one fails the batch); `budget` bounds the batch: e-mail goes
    one message at a time, and a slow server (a tarpit, a scanner on every DATA) would otherwise keep a batch past
    its claim's lease, when another sender (`serve`'s other worker) takes the same messages and sends them again.
    A message not started within the budget is released untried for the next round."""

    name = "email"

    def __init__(self, settings: SmtpSettings, timeout: float = 10, budget: float = LEASE.total_seconds() / 3) -> None:
        self.settings = settings
        self.timeout = timeout
        self.budget = budget

    def _connect(self) -> smtplib.SMTP:
        s = self.settings
        server = smtplib.SMTP_SSL(s.host, s.port, timeout=self.timeout) if s.tls else smtplib.SMTP(s.host, s.port, timeout=self.timeout)
        if s.starttls:
            server.starttls()
        if s.user:
            server.login(s.user, s.password or "")
        return server

    def deliver(self, batch: Sequence[tuple[Outgoing, Words]]) -> list[Failure | None]:
        ends = time.monotonic() + self.budget
        try:
            server = self._connect()
        except (OSError, smtplib.SMTPException) as exc:
            return [Failure(f"the SMTP server: {exc}")] * len(batch)
        results: list[Failure | None] = []
        try:
            for outgoing, said in batch:
                if time.monotonic() >= ends:
                    results.append(Failure("not tried: the batch's time ran out", untried=True))
                    continue
                if results and results[-1] is not None and not results[-1].permanent:  # the connection failed: the
                    results.append(results[-1])  # rest wait for the next try, not a timeout each (the lease, T-223)
                    continue
                results.append(self._send(server, outgoing, said))
        finally:
            with contextlib.suppress(OSError, smtplib.SMTPException):
                server.quit()
        return results

    def _send(self, server: smtplib.SMTP, outgoing: Outgoing, said: Words) -> Failure | None:
        mail = EmailMessage()
        mail["From"] = formataddr(("headjudge", self.settings.sender))
        mail["To"] = outgoing.address
        mail["Subject"] = said.title
        domain = self.settings.sender.rpartition("@")[2]
        mail["Message-ID"] = f"<{outgoing.id}@{domain}>"  # the same id on a repeat: a mail client can tell
        mail["X-Headjudge-Message"] = outgoing.id
        if said.stop:
            mail["List-Unsubscribe"] = f"<{said.stop}>"  # a mail client's own "unsubscribe" opens the page that stops them
        mail.set_content(said.text + (f"\nNo more of these messages: {said.stop}\n" if said.stop else ""))
        try:
            server.send_message(mail)
        except smtplib.SMTPRecipientsRefused as exc:
            return Failure(f"the SMTP server refused {outgoing.address}: {exc.recipients}", permanent=True)
        except smtplib.SMTPResponseException as exc:
            return Failure(f"the SMTP server: {exc.smtp_code} {exc.smtp_error!r}", permanent=500 <= exc.smtp_code < 600)
        except (OSError, smtplib.SMTPException) as exc:
            return Failure(f"the SMTP server: {exc}")
        return None


# Web Push -------------------------------------------------------------------------------------------------------


def push_missing() -> str | None:
    """Why this install cannot send Web Push (None: it can): pywebpush and py-vapid are the `push` extra."""
    try:
        import py_vapid  # noqa: F401
        import pywebpush  # noqa: F401
    except ImportError:
        return "this server was installed without Web Push (pip install 'headjudge[push]')"
    return None


def vapid_private(session: Session) -> str:
    """The server's VAPID private key (raw P-256, base64url), made on first use and kept for every worker."""
    row = session.get(ServerSecret, VAPID_SECRET)
    if row is not None:
        return row.value
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    raw = key.private_numbers().private_value.to_bytes(32, "big")
    from sqlalchemy.exc import IntegrityError

    try:
        with session.begin_nested():
            session.add(ServerSecret(name=VAPID_SECRET, value=_b64(raw)))
    except IntegrityError:
        pass  # another worker made it first
    row = session.get(ServerSecret, VAPID_SECRET)
    assert row is not None
    return row.value


def vapid_public(private: str) -> str:
    """The public key browsers subscribe with (`applicationServerKey`): uncompressed P-256, base64url."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = ec.derive_private_key(int.from_bytes(_unb64(private), "big"), ec.SECP256R1())
    return _b64(key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Push:
    """Web Push (RFC 8030) with RFC 8291's aes128gcm and VAPID (RFC 8292), through pywebpush: each payload is
    JSON `{"id", "title", "body", "url"}`, and the `Topic` header is the id (a push service keeps one of two
    undelivered messages with one topic)."""

    name = "push"

    def __init__(self, private_key: str, subject: str, timeout: float = 5) -> None:
        import requests
        from py_vapid import Vapid

        self.vapid = Vapid.from_raw(private_key.encode())
        self.subject = subject
        self.timeout = timeout
        self.requests = requests.Session()
        adapter = requests.adapters.HTTPAdapter(pool_connections=16, pool_maxsize=PUSH_THREADS * 2)
        self.requests.mount("http://", adapter)
        self.requests.mount("https://", adapter)
        self.headers: dict[str, tuple[float, dict[str, str]]] = {}  # audience -> (expiry, VAPID headers)
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(PUSH_THREADS, thread_name_prefix="push")

    def _vapid_headers(self, endpoint: str) -> dict[str, str]:
        """The VAPID Authorization for the endpoint's origin, signed once an hour, not once a message."""
        parts = urlsplit(endpoint)
        audience = f"{parts.scheme}://{parts.netloc}"
        with self.lock:
            kept = self.headers.get(audience)
            if kept is None or kept[0] < time.time() + 600:
                expiry = int(time.time()) + 3600
                signed = self.vapid.sign({"aud": audience, "exp": expiry, "sub": self.subject})
                kept = (expiry, {k: str(v) for k, v in signed.items()})
                self.headers[audience] = kept
            return dict(kept[1])

    def _send(self, outgoing: Outgoing, said: Words) -> Failure | None:
        from pywebpush import WebPusher

        payload = msgspec.json.encode({"id": outgoing.id, "title": said.title, "body": said.text, "url": said.link, "stop": said.stop})
        info = {"endpoint": outgoing.address, "keys": {"p256dh": outgoing.p256dh, "auth": outgoing.auth}}
        headers = {**self._vapid_headers(outgoing.address), "Topic": outgoing.id, "Urgency": "high"}
        try:
            answer = WebPusher(info, requests_session=self.requests).send(
                payload, headers=headers, ttl=PUSH_TTL, content_encoding="aes128gcm", timeout=self.timeout,
            )
        except Exception as exc:  # a connection refused, a timeout, a key the library cannot use: tried again
            return Failure(f"the push service: {type(exc).__name__}: {exc}"[:500])
        status = int(getattr(answer, "status_code", 0))
        if status in (404, 410):
            return Failure(f"the push service: {status}, the subscription is gone", permanent=True, gone=True)
        if status == 413 or (400 <= status < 500 and status != 429):
            return Failure(f"the push service refused the message: {status}", permanent=True)
        if not 200 <= status < 300:
            return Failure(f"the push service: {status}")
        return None

    def deliver(self, batch: Sequence[tuple[Outgoing, Words]]) -> list[Failure | None]:
        return list(self.pool.map(lambda item: self._send(*item), batch))


def channels_for(session: Session, smtp: str | None, subject: str | None = None) -> list[Channel]:
    """The channels this process can deliver on: e-mail with an SMTP URL, Web Push with the `push` extra."""
    found: list[Channel] = []
    if smtp:
        found.append(Email(smtp_settings(smtp)))
    if push_missing() is None:
        settings = smtp_settings(smtp) if smtp else None
        found.append(Push(vapid_private(session), subject or f"mailto:{settings.sender if settings else 'organiser@headjudge.invalid'}"))
    return found
