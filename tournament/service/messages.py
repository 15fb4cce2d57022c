"""Messages that reach a closed phone (issue 36): subscriptions, and the transactional outbox (T-220).

A player signed in with their slip's code (or registering on the public page) asks to be told by e-mail or by
Web Push (`subscribe`). Every change that a player would want to hear of is a log entry; `eventlog.append_many`
notes each entry it appends in the session (`eventlog.appended`), and just before that transaction commits,
`_before_commit` here turns those entries into `outbox` rows for whoever subscribed: the message is committed
with the change that causes it, or not at all. What time alone brings (a round's clock near its end, the deck
deadline near) has no entry: `due_reminders`, run by the sender, writes those rows, once each by their id.

A person signed in across events (their player card or a passkey) may subscribe once for every entry linked to
them (`subscribe_person`, T-239): their subscriptions join the entry's own when the messages are written, one
message to each address however many subscriptions name it (T-240). A person's e-mail address is told nothing
until the link sent to it is opened (T-241); every message carries a link to stop its subscription (`token`).

A message's id is the SHA-256 of its cause and its address (T-221, T-240): the same cause written twice to one
address is one row, whichever subscription carried it, and the id travels with the message so a repeat after a
crash is recognised. The sender
(`service/sender.py`) claims rows, delivers them and marks them sent: at least once, deduplicated by id
where the channel allows (tournament/README.md, "Messages").
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import re
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import msgspec
from sqlalchemy import event as sa_event
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from tournament.service.errors import Conflict, NotFound, Usage
from tournament.service.persons import display_names
from tournament.service.queries import get_event, get_player
from tournament.storage import eventlog
from tournament.storage.desklog import CallAnswered, WaitlistJoined, WaitlistPromoted
from tournament.storage.eventlog import (
    EventFinished,
    PlayerRegistered,
    PodReported,
    PodsPaired,
    ResultClaimed,
    ResultReported,
    RoundPaired,
    as_utc,
)
from tournament.storage.models import (
    Claim,
    Event,
    JudgeCall,
    Match,
    Message,
    Person,
    Player,
    PodSeat,
    Round,
    Subscription,
    Waiting,
)

CHANNELS = ("email", "push")
MAX_SUBSCRIPTIONS = 5  # a player's subscriptions in one event, or a person's (a phone, a tablet, an address or two)
MAX_ADDRESS = 254  # an e-mail address's longest (RFC 5321's path limit)
MAX_ENDPOINT = 1000  # a push endpoint URL's longest (the column's width)
CLOCK_WARNING = timedelta(minutes=10)  # "10 minutes left" (T-224)
DEADLINE_WARNING = timedelta(minutes=30)  # "the deck deadline is in 30 minutes" (T-224)
_EMAIL = re.compile(r"[^@\s<>\"',;]+@[^@\s<>\"',;]+\.[^@\s<>\"',;.]+")
_LOOPBACK = ("localhost", "127.0.0.1", "::1")


class Facts(msgspec.Struct, omit_defaults=True):
    """What a message says (output/messages.py puts it in words): the event, the player, and per kind the rest."""

    event: str  # the event's name
    player: str  # the player's display name
    link: str  # the page it leads to, a path on this server
    round: int | None = None
    table: int | None = None
    opponents: list[str] = msgspec.field(default_factory=list)
    at: datetime | None = None  # paired: when; clock: the round's end; deadline: the deadline
    said: str | None = None  # confirm: the claim in words
    claimant: str | None = None  # confirm: who made it
    place: int | None = None  # final: the place; place, registered: the waitlist position (None: a place)
    of: int | None = None  # final: of how many


ENCODER = msgspec.json.Encoder()


def message_id(event_id: str | None, cause: str, channel: str, address: str) -> str:
    """The id of the message that `cause` (an entry's seq, or a reminder's name) makes for `address` on `channel`:
    the address, not the subscription, so an entry's and its person's subscription to one address are one
    message, and a cause written again after either changed is still known (T-240)."""
    return hashlib.sha256(f"{event_id or ''}\n{cause}\n{channel}\n{address}".encode()).hexdigest()[:32]


# Subscriptions --------------------------------------------------------------------------------------------------


def subscribe(
    session: Session, event_id: str, player: str, channel: str, address: str, *, p256dh: str | None = None, auth: str | None = None,
    now: datetime | None = None, local: bool = False,
) -> Subscription:
    """Tell `player` of `event_id`'s news on `channel` at `address` (an e-mail address; a push endpoint, with the
    browser's keys). The same address again is the same subscription (its keys renewed). `local`: a push endpoint
    may be plain HTTP on this machine (the tests' and the bench's receiver; never from the web, T-226). Told at
    once: an entry's address is taken as given (T-241)."""
    get_event(session, event_id)
    get_player_or_waiting(session, event_id, player)
    when = now or datetime.now(UTC)
    row, _new = _subscribe(session, subscriptions(session, event_id, player), channel, address, p256dh, auth, local, "player",
                           dict(event_id=event_id, player=player, created_at=when, confirmed_at=when))
    return row


def subscribe_person(
    session: Session, person_id: str, channel: str, address: str, *, p256dh: str | None = None, auth: str | None = None,
    now: datetime | None = None, local: bool = False,
) -> Subscription:
    """Tell person `person_id` of every entry linked to them, in any event, now or later (T-239). A push
    subscription is told at once (the browser it came from is theirs); an e-mail address once it is confirmed:
    the confirmation's message (kind `address`, its link the subscription's token) is written here (T-241)."""
    person = session.get(Person, person_id)
    if person is None:
        raise NotFound(f"unknown person {person_id!r}")
    when = now or datetime.now(UTC)
    row, new = _subscribe(session, person_subscriptions(session, person_id), channel, address, p256dh, auth, local, "person",
                          dict(person=person_id, created_at=when, confirmed_at=None if channel == "email" else when))
    if new and row.confirmed_at is None:
        facts = Facts("", person.name, f"/messages/{row.token}")
        write_to(session, None, [(Draft(f"address {row.token}", "", "address", facts), row)])
    return row


def _subscribe(
    session: Session, mine: list[Subscription], channel: str, address: str, p256dh: str | None, auth: str | None, local: bool,
    whose: str, fields: dict[str, Any],
) -> tuple[Subscription, bool]:
    """The subscription to `address` among `mine` (its keys renewed), or a new one with `fields`; whether it is new."""
    address = address.strip()
    if channel == "email":
        _check_email(address)
        p256dh = auth = None
    elif channel == "push":
        _check_endpoint(address, local)
        p256dh, auth = _key(p256dh, "p256dh", 65), _key(auth, "auth", 16)
    else:
        raise Usage(f"channel: email or push, not {channel!r}")
    same = next((s for s in mine if s.channel == channel and s.address == address), None)
    if same is not None:
        same.p256dh, same.auth = p256dh, auth
        return same, False
    if len(mine) >= MAX_SUBSCRIPTIONS:
        raise Conflict(f"at most {MAX_SUBSCRIPTIONS} ways to be told per {whose}; stop one first")
    row = Subscription(channel=channel, address=address, p256dh=p256dh, auth=auth, token=secrets.token_urlsafe(24), **fields)
    session.add(row)
    session.flush()
    return row, True


def unsubscribe(session: Session, event_id: str, player: str, number: int) -> Subscription:
    """Stop subscription `number` of `player` (theirs only); messages not yet sent to it are not sent."""
    return _stop_own(session, number, lambda row: row.event_id == event_id and row.player == player)


def unsubscribe_person(session: Session, person_id: str, number: int) -> Subscription:
    """Stop subscription `number` of person `person_id` (theirs only), as `unsubscribe`."""
    return _stop_own(session, number, lambda row: row.person is not None and row.person == person_id)


def _stop_own(session: Session, number: int, theirs: Callable[[Subscription], bool]) -> Subscription:
    row = session.get(Subscription, number) if 0 < number < 2**31 else None
    if row is None or not theirs(row):
        raise NotFound(f"you have no subscription {number}")
    session.delete(row)
    return row


def subscription_by_token(session: Session, token: str) -> Subscription:
    """The subscription a message's link names (its token is the only proof: whoever holds the message)."""
    row = session.scalars(select(Subscription).filter_by(token=token)).first() if 20 <= len(token) <= 43 else None
    if row is None:
        raise NotFound("no such messages: stopped already, or the link is not whole")
    return row


def confirm_address(session: Session, token: str, now: datetime | None = None) -> Subscription:
    """The link sent to a person's e-mail address was opened: the address is theirs to be told at (T-241)."""
    row = subscription_by_token(session, token)
    if row.confirmed_at is None:
        row.confirmed_at = now or datetime.now(UTC)
    return row


def stop_by_token(session: Session, token: str) -> Subscription:
    """The link every message carries: its subscription stops (an entry's or a person's)."""
    row = subscription_by_token(session, token)
    session.delete(row)
    return row


def gone(session: Session, number: int) -> None:
    """A push service said the subscription is gone for good (404, 410): forget it."""
    row = session.get(Subscription, number)
    if row is not None:
        session.delete(row)


def subscriptions(session: Session, event_id: str, player: str) -> list[Subscription]:
    query = select(Subscription).filter_by(event_id=event_id, player=player).order_by(Subscription.id)
    return list(session.scalars(query))


def person_subscriptions(session: Session, person_id: str) -> list[Subscription]:
    return list(session.scalars(select(Subscription).filter_by(person=person_id).order_by(Subscription.id)))


def get_player_or_waiting(session: Session, event_id: str, player: str) -> None:
    """A registered player, or someone on the waitlist (who may want to hear of their place)."""
    from tournament.service.signup import waitlist_place

    if waitlist_place(session, event_id, player) is None:
        get_player(session, event_id, player)


def described(channel: str, address: str) -> str:
    """What a page shows of an address: an e-mail address as it is; a push endpoint (a long secret URL) as the
    push service that carries it."""
    return address if channel == "email" else f"a browser (push by {urlsplit(address).hostname})"


def is_email(address: str) -> bool:
    return len(address) <= MAX_ADDRESS and _EMAIL.fullmatch(address) is not None


def _check_email(address: str) -> None:
    if not is_email(address):
        raise Usage(f"email: an address like name@example.org (at most {MAX_ADDRESS} characters), not {address[:60]!r}")


def _check_endpoint(url: str, local: bool) -> None:
    """A push service's endpoint is HTTPS (browsers give nothing else), so no player can make the server post to
    a plain-HTTP service of the venue's network or of this machine; plain HTTP on this machine only when `local`."""
    if len(url) > MAX_ENDPOINT:
        raise Usage(f"endpoint: at most {MAX_ENDPOINT} characters")
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        _ = parts.port
    except ValueError:
        raise Usage("endpoint: not a URL") from None
    if not host or parts.scheme not in ("https", "http") or (parts.scheme == "http" and not (local and host in _LOOPBACK)):
        raise Usage("endpoint: a push service's https:// URL")
    if not local and _internal(host):  # a push service is on the internet: never this machine or the venue's network
        raise Usage("endpoint: a push service's https:// URL, not an address of this machine or its network")


def _internal(host: str) -> bool:
    """`localhost`, or an IP address that is not a public one (loopback, private, link-local...)."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return not ipaddress.ip_address(host).is_global
    except ValueError:
        return False  # a name: push services are named hosts


def _key(value: str | None, name: str, size: int) -> str:
    """A browser's push key in base64url, checked for its length in bytes."""
    text = (value or "").strip()
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size or len(text) > 128:
        raise Usage(f"{name}: the browser's key, {size} bytes in base64url")
    return text


# The outbox: entries become messages at commit --------------------------------------------------------------


@sa_event.listens_for(Session, "before_commit")
def _before_commit(session: Session) -> None:
    appended: list[tuple[str, int, Any]] = session.info.pop(eventlog.APPENDED, [])
    if not appended:
        return
    by_event: dict[str, list[tuple[int, Any]]] = {}
    for event_id, seq, payload in appended:
        by_event.setdefault(event_id, []).append((seq, payload))
    for event_id, entries in by_event.items():
        if not any(isinstance(p, TOLD) for _seq, p in entries):
            continue
        subscribed = _subscribed(session, event_id)
        if subscribed:
            write(session, event_id, list(_messages(session, event_id, entries, subscribed)), subscribed)


@sa_event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop(eventlog.APPENDED, None)


TOLD = (
    RoundPaired, PodsPaired, ResultClaimed, CallAnswered, WaitlistPromoted, EventFinished, PlayerRegistered, WaitlistJoined,
)
"""The entries someone is told of; every other entry makes no message."""


@dataclass(frozen=True)
class Draft:
    """A message to write: its cause (for the id), to whom, what."""

    cause: str
    player: str
    kind: str
    facts: Facts


def _subscribed(session: Session, event_id: str) -> dict[str, list[Subscription]]:
    """Each player's confirmed subscriptions in the event, oldest first: their entry's own and their person's (an
    entry or a waitlist place linked to the person). Two of them to one address make one message: its id is of
    the address (T-240), and the first written, the oldest subscription's, is kept."""
    own = select(Subscription.player, Subscription).where(Subscription.event_id == event_id)
    players = select(Player.name, Subscription).join(Subscription, Subscription.person == Player.person).where(Player.event_id == event_id)
    waiting = select(Waiting.player, Subscription).join(Subscription, Subscription.person == Waiting.person).where(Waiting.event_id == event_id)
    rows = [r for query in (own, players, waiting) for r in session.execute(query.where(Subscription.confirmed_at.is_not(None)))]
    found: dict[str, list[Subscription]] = {}
    for player, row in sorted(rows, key=lambda r: r[1].id):
        assert player is not None  # an entry's own names its player
        found.setdefault(player, []).append(row)
    return found


def write(session: Session, event_id: str, drafts: Sequence[Draft], subscribed: dict[str, list[Subscription]] | None = None) -> int:
    """Write each draft for each of its player's subscriptions (`_subscribed`). The number of rows written."""
    if not drafts:
        return 0
    subscribed = subscribed if subscribed is not None else _subscribed(session, event_id)
    return write_to(session, event_id, [(draft, sub) for draft in drafts for sub in subscribed.get(draft.player, ())])


def write_to(session: Session, event_id: str | None, addressed: Sequence[tuple[Draft, Subscription]]) -> int:
    """Write each draft to its subscription; a message already written (its id) is left as it is (`INSERT ...
    ON CONFLICT DO NOTHING`). The number of rows written."""
    now = datetime.now(UTC)
    rows = [
        {
            "id": message_id(event_id, draft.cause, sub.channel, sub.address), "event_id": event_id, "player": draft.player or None,
            "subscription": sub.id, "channel": sub.channel, "kind": draft.kind, "facts": ENCODER.encode(draft.facts),
            "created_at": now, "due_at": now, "attempts": 0,
        }
        for draft, sub in addressed
    ]
    if not rows:
        return 0
    insert = sqlite_insert if session.get_bind().dialect.name == "sqlite" else postgresql_insert
    written = 0
    for start in range(0, len(rows), 500):  # SQLite's limit on a statement's variables
        # RETURNING counts what was written: psycopg's rowcount for a many-row INSERT ... ON CONFLICT is 0
        statement = insert(Message).values(rows[start:start + 500]).on_conflict_do_nothing().returning(Message.id)
        written += len(session.execute(statement).all())
    return written


def _messages(session: Session, event_id: str, entries: list[tuple[int, Any]], subscribed: dict[str, list[Subscription]]) -> Iterable[Draft]:
    """The messages the entries of one transaction make, for players who subscribed."""
    event = get_event(session, event_id)
    names = display_names(session, event_id)
    settled = {(p.round, p.table) for _seq, p in entries if isinstance(p, ResultReported | PodReported)}  # in this transaction
    promoted = {p.player for _seq, p in entries if isinstance(p, WaitlistPromoted)}  # told of their place, not registered again

    def facts(player: str, link: str, **more: Any) -> Facts:
        return Facts(event.name, names.get(player, player), link, **more)

    drafts: list[Draft] = []
    for seq, payload in entries:
        cause = str(seq)
        if isinstance(payload, RoundPaired | PodsPaired):
            drafts.extend(_paired(payload, cause, subscribed, names, event, facts))
        elif isinstance(payload, ResultClaimed) and (payload.round, payload.table) not in settled:
            drafts.extend(_to_confirm(session, event_id, payload, cause, subscribed, names, facts))
        elif isinstance(payload, CallAnswered):
            call = session.get(JudgeCall, (event_id, payload.number))
            if call is not None and call.player in subscribed:
                drafts.append(Draft(cause, call.player, "answered", facts(call.player, "/me", round=call.round, table=call.table)))
        elif isinstance(payload, WaitlistPromoted) and payload.player in subscribed:
            drafts.append(Draft(cause, payload.player, "place", facts(payload.player, "/me")))
        elif isinstance(payload, PlayerRegistered | WaitlistJoined) and payload.player in subscribed and payload.player not in promoted:
            place = _waiting_place(session, event_id, payload.player) if isinstance(payload, WaitlistJoined) else None
            drafts.append(Draft(cause, payload.player, "registered", facts(payload.player, "/me", place=place)))
        elif isinstance(payload, EventFinished):
            drafts.extend(_final(session, event_id, cause, subscribed, facts))
    return drafts


def _paired(payload: RoundPaired | PodsPaired, cause: str, subscribed: dict[str, list[Subscription]], names: dict[str, str], event: Event, facts: Any) -> Iterable[Draft]:
    tables: list[Sequence[str]] = list(payload.tables)
    byes = [payload.bye] if isinstance(payload, RoundPaired) and payload.bye else []
    byes += payload.byes
    now = datetime.now(UTC)
    link = f"/e/{event.id}/round/{payload.round}"
    for number, seated in enumerate(tables, 1):
        for player in seated:
            if player in subscribed:
                others = [names.get(p, p) for p in seated if p != player]
                yield Draft(cause, player, "paired", facts(player, link, round=payload.round, table=number, opponents=others, at=now))
    for player in byes:
        if player in subscribed:
            yield Draft(cause, player, "paired", facts(player, link, round=payload.round, at=now))


def _to_confirm(session: Session, event_id: str, payload: ResultClaimed, cause: str, subscribed: dict[str, list[Subscription]], names: dict[str, str], facts: Any) -> Iterable[Draft]:
    """A player's claim: the others at the table are asked to confirm it (unless it settled the table)."""
    match = session.get(Match, (event_id, payload.round, payload.table))
    if match is not None:
        seated = [match.player_a, match.player_b]
    else:
        seated = list(session.scalars(select(PodSeat.player).filter_by(event_id=event_id, round=payload.round, table=payload.table)))
    claim = session.get(Claim, (event_id, payload.round, payload.table, payload.player))
    said = claim.text if claim is not None else ""
    for player in seated:
        if player != payload.player and player in subscribed:
            yield Draft(cause, player, "confirm", facts(
                player, "/me", round=payload.round, table=payload.table, said=said, claimant=names.get(payload.player, payload.player),
            ))


def _waiting_place(session: Session, event_id: str, player: str) -> int | None:
    from tournament.service.signup import waitlist_place

    return waitlist_place(session, event_id, player)


def _final(session: Session, event_id: str, cause: str, subscribed: dict[str, list[Subscription]], facts: Any) -> Iterable[Draft]:
    from tournament.service.ranking import standings

    table = standings(session, event_id)
    for row in table:
        if row.player in subscribed:
            yield Draft(cause, row.player, "final", facts(row.player, f"/e/{event_id}/standings", place=row.rank, of=len(table)))


# Reminders: what time alone brings --------------------------------------------------------------------------


def due_reminders(session: Session, now: datetime | None = None) -> int:
    """Write the reminders now due, each once (its id): a table's clock within `CLOCK_WARNING` of its end (to
    players at tables without a result), the deck deadline within `DEADLINE_WARNING` (to players without a
    legal list). The number of messages written."""
    now = now or datetime.now(UTC)
    events = {e for e in session.scalars(select(Subscription.event_id).distinct()) if e is not None}
    events |= set(session.scalars(  # the events a subscribed person plays
        select(Player.event_id).distinct().join(Subscription, Subscription.person == Player.person)
        .join(Event, Event.id == Player.event_id).where(Event.finished.is_(False)),
    ))
    written = 0
    for event_id in sorted(events):
        event = session.get(Event, event_id)
        if event is None or event.finished:
            continue
        drafts = _clock_reminders(session, event, now) + _deadline_reminders(session, event, now)
        written += write(session, event_id, drafts)
    return written


def _clock_reminders(session: Session, event: Event, now: datetime) -> list[Draft]:
    current = session.get(Round, (event.id, event.rounds)) if event.rounds else None
    if current is None or current.started_at is None or current.minutes is None:
        return []
    names = display_names(session, event.id)
    start = as_utc(current.started_at)
    drafts = []
    for match in session.scalars(select(Match).filter_by(event_id=event.id, round=current.number, games_a=None)):
        ends = start + timedelta(minutes=current.minutes + match.extra_minutes)
        if ends - CLOCK_WARNING <= now < ends:
            for player in (match.player_a, match.player_b):
                cause = f"clock {current.number} {match.extra_minutes} {player}"
                facts = Facts(event.name, names.get(player, player), "/me", round=current.number, table=match.number, at=ends)
                drafts.append(Draft(cause, player, "clock", facts))
    return drafts


def _deadline_reminders(session: Session, event: Event, now: datetime) -> list[Draft]:
    if event.decks_policy is None or event.decks_deadline is None or event.rounds:
        return []
    deadline = as_utc(event.decks_deadline)
    if not deadline - DEADLINE_WARNING <= now < deadline:
        return []
    from tournament.service.decks import without_legal_list

    names = display_names(session, event.id)
    return [
        Draft(f"deadline {deadline.isoformat()} {player}", player, "deadline",
              Facts(event.name, names.get(player, player), "/me", at=deadline))
        for player in sorted(without_legal_list(session, event))
    ]
