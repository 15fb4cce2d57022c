"""People across events: who each event's players are (T-90), and a person's events, matches and results.

A `Person` (the `people` table; not `service.Person`, someone to register) is
someone on this database; each event's `Player` names one
(`players.person`, written in the event's log: `player_registered` and
`player_linked`). Registration finds the person by what it is told, never by
a name: an existing person's id, or an external id (a federation's number);
otherwise it makes a new person. Two people are never merged silently: a
registration that makes a new person with the name of an existing one says so
(`namesakes`), and `link` moves a player to the right person, in the log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from tournament.output import render
from tournament.service import people as registering
from tournament.service.errors import Conflict, NotFound, Usage
from tournament.service.passkeys import Owner, remove_all
from tournament.service.people import slug, unique_ids
from tournament.service.queries import check_id, get_event, get_player, lock_event
from tournament.service.tokens import spend_code
from tournament.storage.eventlog import CLI, PlayerLinked, append, decode
from tournament.storage.models import (
    Credential,
    Event,
    LogEntry,
    Passkey,
    Person,
    PersonChange,
    Player,
    Subscription,
    Waiting,
)


def get_person(session: Session, person_id: str) -> Person:
    person = session.get(Person, person_id)
    if person is None:
        raise NotFound(f"unknown person {person_id!r} (`tournament people` lists them)")
    return person


def known_people(session: Session, people: Sequence[registering.Person]) -> list[Person | None]:
    """Each registrant's existing person (by `person`, else by `external_id`), or None for one to be made.

    A `person` given must exist; one given with an `external_id` must have that external id or none
    (it then takes it), and the external id may be no one else's.
    """
    wanted = {p.person for p in people if p.person} | {p.external_id for p in people if p.external_id}
    given: set[str] = set()
    for registrant in people:
        at = f"{registrant.where}, field " if registrant.where else ""
        if registrant.person is not None:
            _checked(f"{at}person: " if at else "", "person", registrant.person)
        if registrant.external_id is not None:
            _checked(f"{at}external_id: " if at else "", "external id", registrant.external_id)
            if registrant.external_id in given:
                raise Usage((f"{at}external_id: " if at else "") + f"external id {registrant.external_id!r} is given twice")
            given.add(registrant.external_id)
    rows = session.scalars(select(Person).where(Person.id.in_(wanted) | Person.external_id.in_(wanted))).all() if wanted else []
    by_id, by_external = {p.id: p for p in rows}, {p.external_id: p for p in rows if p.external_id}
    found: list[Person | None] = []
    for registrant in people:
        at = f"{registrant.where}: " if registrant.where else ""
        holder = by_external.get(registrant.external_id) if registrant.external_id else None
        if registrant.person is None:
            found.append(holder)
            continue
        person = by_id.get(registrant.person)
        if person is None:
            raise NotFound(f"{at}unknown person {registrant.person!r} (`tournament people` lists them)")
        if registrant.external_id is not None:
            if holder is not None and holder is not person:
                raise Conflict(f"{at}external id {registrant.external_id!r} is person {holder.id!r}'s, not {person.id!r}'s")
            if person.external_id not in (None, registrant.external_id):
                raise Conflict(f"{at}person {person.id!r} has external id {person.external_id!r}, not {registrant.external_id!r}")
        found.append(person)
    return found


def _checked(at: str, kind: str, value: str) -> None:
    try:
        check_id(kind, value)
    except Usage as exc:
        raise Usage(at + exc.message) from None


def enrol(
    session: Session, event_id: str, people: Sequence[registering.Person], found: Sequence[Person | None], ids: Sequence[str],
    names: Sequence[str],
) -> list[str]:
    """The person of each registrant, as `known_people` found them, making the new ones (their id from `ids`:
    the player id given, else the name's; `-2`, `-3`, ... when taken). A person plays an event once."""
    here = set(session.scalars(select(Player.person).filter_by(event_id=event_id).where(Player.person.is_not(None))))
    here |= set(session.scalars(select(Waiting.person).filter_by(event_id=event_id).where(Waiting.person.is_not(None))))
    seen: set[str] = set()
    for registrant, person in zip(people, found, strict=True):
        if person is None:
            continue
        at = f"{registrant.where}: " if registrant.where else ""
        if person.id in here or person.id in seen:
            raise Conflict(f"{at}person {person.id!r} ({person.name}) is already registered in {event_id!r}")
        seen.add(person.id)
    fresh = [i for i, person in zip(ids, found, strict=True) if person is None]
    if not fresh:
        return [p.id for p in found if p is not None]
    taken = set(session.scalars(select(Person.id)))
    made = iter(unique_ids(fresh, taken))
    now = datetime.now(UTC)
    result = []
    for registrant, person, name in zip(people, found, names, strict=True):
        if person is None:
            person = Person(id=next(made), name=name, external_id=registrant.external_id, created_at=now)
            session.add(person)
        elif person.external_id is None and registrant.external_id is not None:
            person.external_id = registrant.external_id  # told both: the person now has the external id
        result.append(person.id)
    session.flush()  # the players about to be registered point to these rows
    return result


def namesakes(session: Session, players: Sequence[Player]) -> dict[str, list[Person]]:
    """For each player whose person plays their first event, the other people with the same name (accents and
    case aside): a hint that the organiser may have meant one of them (`link`)."""
    mine = [p.person for p in players if p.person]
    if not mine:
        return {}
    query = select(Player.person, func.count()).where(Player.person.in_(mine)).group_by(Player.person)
    counts = {person: n for person, n in session.execute(query)}
    new = {p.person: p for p in players if p.person and counts.get(p.person) == 1}
    if not new:
        return {}
    wanted = {render.folded(p.display_name) for p in new.values()}
    others: dict[str, list[Person]] = {}
    for person in session.scalars(select(Person).order_by(Person.id)):
        if person.id not in new and render.folded(person.name) in wanted:
            others.setdefault(render.folded(person.name), []).append(person)
    return {p.name: others[render.folded(p.display_name)] for p in new.values() if render.folded(p.display_name) in others}


MAX_REASON = 200  # characters of a link's, merge's or split's reason (the column's width)


def link(
    session: Session, event_id: str, player: str, person_id: str, reason: str | None = None, *, actor: str = CLI,
    action: str = "link",
) -> Player:
    """The player is `person_id` (an existing person): a `player_linked` entry in the event's log, and the change
    recorded (T-184) with `actor` and `reason`. The person the player was goes when nothing else is theirs."""
    lock_event(session, event_id)
    row = get_player(session, event_id, player)
    person = get_person(session, person_id)
    if row.person == person.id:
        raise Conflict(f"{row.display_name} is {person.name} ({person.id}) already")
    before = row.person
    _move(session, [row], person.id, action, actor, reason, before)
    if before is not None:
        _forget_if_empty(session, before)
    return row


def _move(
    session: Session, rows: Sequence[Player], person_id: str, action: str, actor: str, reason: str | None, other: str | None,
) -> None:
    """Each player is now `person_id`: one `player_linked` entry in each player's event, one `person_changes` row."""
    text = _reason(reason)
    for row in rows:
        event = lock_event(session, row.event_id)
        taken = session.scalars(select(Player.display_name).filter_by(event_id=row.event_id, person=person_id)).first()
        if taken is not None:  # said in names: a person claiming an entry on their own page reads it
            raise Conflict(f"{get_person(session, person_id).name} plays {event.name} already, as {taken}: a person plays an event once")
        append(session, row.event_id, PlayerLinked(row.name, person_id, text), actor)
    session.add(PersonChange(
        at=datetime.now(UTC), action=action, person=person_id, other=other, players=" ".join(f"{r.event_id}/{r.name}" for r in rows),
        actor=actor[:120], reason=text,
    ))


def _reason(reason: str | None) -> str | None:
    text = " ".join((reason or "").split())
    if len(text) > MAX_REASON:
        raise Usage(f"reason: at most {MAX_REASON} characters, not {len(text)}")
    return text or None


def _forget_if_empty(session: Session, person_id: str) -> None:
    """A person no player, waitlist, credential or subscription names any more goes from the people (a namesake
    made by a public registration and then linked to who they are); their history stays in `person_changes`."""
    session.flush()
    for model in (Player, Waiting, Credential, Passkey, Subscription):
        if session.scalars(select(model.person).where(model.person == person_id).limit(1)).first() is not None:
            return
    person = session.get(Person, person_id)
    if person is not None:
        session.delete(person)
        session.flush()


def claim_entry(session: Session, person_id: str, code: str, client: str, actor: str) -> Player:
    """A person claims an entry (T-183): the entry's one-time code proves the entry (it is spent), the person's
    own sign-in proves who they are; the player is linked to them."""
    who = spend_code(session, code, client)
    if who.event_id is None or who.player is None:
        raise Usage("that is a staff member's code, not an entry's")
    row = get_player(session, who.event_id, who.player)
    if row.person == person_id:
        raise Conflict(f"that entry in {get_event(session, who.event_id).name} is yours already")
    if row.person is not None and _established(session, row.person):
        raise Conflict(
            f"that entry is {get_person(session, row.person).name}'s, who has played other events or holds a player card: "
            "if it is yours, the organiser links it"
        )
    return link(session, who.event_id, who.player, person_id, "claimed with the entry's slip code", actor=actor, action="claim")


def _established(session: Session, person_id: str) -> bool:
    """Whether the person is more than one entry: they play another event, wait on a waitlist or hold a card or a passkey."""
    entries = session.scalar(select(func.count()).select_from(Player).filter_by(person=person_id)) or 0
    held = session.scalars(select(Credential.selector).filter_by(person=person_id).limit(1)).first() or session.scalars(
        select(Passkey.id).filter_by(person=person_id).limit(1)
    ).first()
    waiting = session.scalars(select(Waiting.player).filter_by(person=person_id).limit(1)).first()
    return entries > 1 or held is not None or waiting is not None


def merge(session: Session, keep: str, gone: str, reason: str | None, actor: str) -> Person:
    """Two people who are one: every player of `gone` becomes `keep` (a `player_linked` entry in each of their
    events), `gone`'s external id moves to `keep` when it has none, its player card ends, its subscriptions to
    messages become `keep`'s (T-242), and `gone` goes."""
    kept, leaving = get_person(session, keep), get_person(session, gone)
    if kept.id == leaving.id:
        raise Usage("merge: name two different people")
    if not _reason(reason):
        raise Usage("reason: say why they are one person (it is kept with the change)")
    if session.scalars(select(Waiting.event_id).filter_by(person=leaving.id).limit(1)).first() is not None:
        raise Conflict(f"{leaving.name} ({leaving.id}) is on a waitlist: merge once they have a place or have left it")
    rows = list(session.scalars(select(Player).filter_by(person=leaving.id)))
    both = set(session.scalars(select(Player.event_id).filter_by(person=kept.id))) & {r.event_id for r in rows}
    if both:
        raise Conflict(f"{kept.name} ({kept.id}) and {leaving.name} ({leaving.id}) both play {', '.join(sorted(both))}: not one person")
    _move(session, rows, kept.id, "merge", actor, reason, leaving.id)
    session.execute(delete(Credential).where(Credential.person == leaving.id))
    remove_all(session, Owner("person", leaving.id))  # as its card: a merge hands no one's sign-in to another
    _move_subscriptions(session, leaving.id, kept.id)
    external = leaving.external_id
    leaving.external_id = None
    session.flush()
    if kept.external_id is None and external is not None:
        kept.external_id = external
    _forget_if_empty(session, leaving.id)
    return kept


def _move_subscriptions(session: Session, gone: str, kept: str) -> None:
    """A merge's (T-242): `gone`'s subscriptions to messages become `kept`'s, the addresses of one person; one
    `kept` has already (its channel and address) is dropped. Not in the service's messages module: it is about
    who a person is, and messages reads the people."""
    mine = list(session.scalars(select(Subscription).where(Subscription.person.in_((gone, kept))).order_by(Subscription.id)))
    have = {(s.channel, s.address) for s in mine if s.person == kept}
    for row in mine:
        if row.person != gone:
            continue
        if (row.channel, row.address) in have:
            session.delete(row)
        else:
            row.person = kept
    session.flush()


def split(session: Session, person_id: str, players: Sequence[tuple[str, str]], name: str, reason: str | None, actor: str) -> Person:
    """One person who is two: the players named (event, player) become a new person called `name`; the others
    stay, and so do the person's subscriptions to messages (T-242: the new person subscribes for themselves).
    Refused for all of them (that is a rename) or none."""
    person = get_person(session, person_id)
    if not _reason(reason):
        raise Usage("reason: say why they are two people (it is kept with the change)")
    rows = list(session.scalars(select(Player).filter_by(person=person.id).order_by(Player.event_id)))
    chosen = [r for r in rows if (r.event_id, r.name) in set(players)]
    if len(chosen) != len(set(players)):
        raise NotFound(f"split: name players of {person.name} ({person.id}) only")
    if not chosen or len(chosen) == len(rows):
        raise Usage("split: choose some of their entries, not none and not all")
    shown = registering.clean_name(name)
    [new_id] = unique_ids([slug(shown)], set(session.scalars(select(Person.id))))
    made = Person(id=new_id, name=shown, external_id=None, created_at=datetime.now(UTC))
    session.add(made)
    session.flush()
    _move(session, chosen, made.id, "split", actor, reason, person.id)
    return made


def person_changes(session: Session, person_id: str | None = None) -> list[PersonChange]:
    """The record of links, claims, merges and splits (newest first), or those that touched one person."""
    query = select(PersonChange).order_by(PersonChange.id.desc())
    if person_id is not None:
        query = query.where((PersonChange.person == person_id) | (PersonChange.other == person_id))
    return list(session.scalars(query))


@dataclass(frozen=True)
class Played:
    """One player of one event: the person's row there, and the event."""

    event: Event
    player: Player


def careers(session: Session, person_ids: Sequence[str] | None = None) -> dict[str, list[Played]]:
    """Each person's events (oldest first), or only those of `person_ids`."""
    query = select(Player, Event).join(Event, Event.id == Player.event_id).where(Player.person.is_not(None))
    if person_ids is not None:
        query = query.where(Player.person.in_(person_ids))
    found: dict[str, list[Played]] = {}
    for player, event in session.execute(query.order_by(Event.created_at, Event.id)):
        assert player.person is not None
        found.setdefault(player.person, []).append(Played(event, player))
    return found


def waiting_events(session: Session, person_id: str) -> set[str]:
    """The events whose waitlist the person is on."""
    return set(session.scalars(select(Waiting.event_id).filter_by(person=person_id)))


def labels(session: Session) -> dict[str, str]:
    """What tells same-name people apart (T-185), for each person whose name (`render.folded`, as `namesakes`
    compares) someone else has too: the name of the first event they played, and a letter when that is the same
    for two of them ("Spring Open", "Spring Open B"), by who was made first; "no event yet" before any. Never an
    id: a person reads it. The others have none (their name says who they are)."""
    rows = session.execute(select(Person.id, Person.name).order_by(Person.created_at, Person.id)).all()
    counts = Counter(render.folded(name) for _, name in rows)
    shared = [(person_id, name) for person_id, name in rows if counts[render.folded(name)] > 1]
    if not shared:
        return {}
    first = {p: played[0].event.name for p, played in careers(session, [i for i, _ in shared]).items()}
    return render.told_apart([render.Named(i, name, first.get(i, "no event yet")) for i, name in shared])


def display_names(session: Session, event_id: str, *, waiting: bool = False) -> dict[str, str]:
    """Every player's name as people read it, by id (`waiting`: the waitlist's too), namesakes told apart (T-235):
    two entries of the event with one name (`render.folded`: the players and the waitlist) each show their place
    among the namesakes in the order they registered ("Ann Lee (2nd entry)"). Never an id: every page, file and
    CLI text reads names from here. Only the event's own rows and log: its cached views (and `verify`, which
    rebuilds them from the log) give the same names whatever changes elsewhere on the server."""
    players = session.execute(select(Player.name, Player.display_name).filter_by(event_id=event_id)).all()
    queue = session.execute(select(Waiting.player, Waiting.display_name).filter_by(event_id=event_id).order_by(Waiting.position)).all()
    everyone = [*players, *queue]
    names = {i: n for i, n in (everyone if waiting else players)}
    if len({render.folded(n) for _, n in everyone}) == len(everyone):  # no namesakes: the usual case, no more queries
        return names
    registered: dict[str, int] = {}  # the order they registered in: the log's, as no column keeps it
    for entry in session.scalars(select(LogEntry).filter_by(event_id=event_id, type="player_registered").order_by(LogEntry.seq)):
        registered.setdefault(decode(entry).player, entry.seq)
    players = sorted(players, key=lambda p: (registered.get(p[0], 0), p[0]))
    told = render.told_apart([render.Named(i, n) for i, n in [*players, *queue]])
    return {i: render.labelled(n, told.get(i)) for i, n in names.items()}


def people(session: Session) -> list[Person]:
    """Everyone, alphabetically: accents and case set aside (the name's id form, T-27), then as written."""
    return sorted(session.scalars(select(Person)), key=lambda p: (slug(p.name), p.name, p.id))
