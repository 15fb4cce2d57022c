"""Deck lists (issue 25): registered before the event, judged by the referee, compared with every game's decks.

A list is registered as text (`tournament deck`, `decks --from`, a player's
form on `tournament serve`): the referee reads it (a list that cannot be read
is refused, naming its line) and judges it; the entry keeps the text, its
SHA-256 and the verdict, so `verify` rebuilds every list. An event asks for
lists from its first list or its first policy (T-110). Until the deadline a
player may replace their list; after it, only with a judge's reason (T-112).
At the deadline a player without a legal list is not paired, or dropped,
as the event's policy says (T-113). Every game log that reaches the event is
compared with its players' lists (`differences`); a difference refuses it
into the judge queue (`refuse`; the ruling is `claims.rule_decks`).
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.deckcheck import game_differences
from referee.decks import BOM, LIST_LIMIT, DeckMalformed, DeckRules, read, verdict_of
from referee.rulesets import get as get_ruleset
from schemas.deck import DeckProblem, Difference
from schemas.tournament import DeckEntry, Metagame
from tournament.formats.metagame import Outcome, kinds_of
from tournament.service.errors import Conflict, NotFound, Usage
from tournament.service.persons import display_names
from tournament.service.queries import get_event, lock_event, players
from tournament.storage.desklog import WaitlistPromoted
from tournament.storage.eventlog import (
    DeckPolicySet,
    DeckRegistered,
    DecksDiffer,
    DecksPublished,
    GameRecord,
    PlayerDropped,
    append,
    append_many,
    as_utc,
)
from tournament.storage.models import (
    DeckCheck,
    DeckList,
    Event,
    LogEntry,
    Match,
    Player,
    PodSeat,
    Round,
    RoundBye,
    Waiting,
)

POLICIES = ("unpaired", "dropped")
GRACE = timedelta(minutes=30)  # T-150: a place that came later than this before the deadline brings its own
PAIRED = ("round_paired", "pods_paired")  # the entries that pair a round: the first passes the deadline


@dataclass(frozen=True)
class Submitted:
    """A list as it came in: where from (`source`, for errors: a file, a CSV line), whose, and its bytes."""

    source: str
    player: str
    data: bytes
    line: int = 0  # the CSV line the list starts on (its own lines count from there); 0: a file of its own

    @property
    def where(self) -> str:
        return f"{self.source} line {self.line}" if self.line else self.source


@dataclass(frozen=True)
class DeckStatus:
    """A player's list as the event knows it: `verdict` is `legal`, `illegal` or `none` (no list yet)."""

    player: str
    name: str
    verdict: str
    summary: str = ""
    facets: dict[str, str] | None = None
    problems: list[DeckProblem] | None = None
    sha256: str | None = None
    text: str | None = None
    dropped: bool = False


def rules_for(event: Event) -> DeckRules[Any]:
    """The event's game's deck rules; Usage for a game played with a fixed deck (no list to register)."""
    ruleset = get_ruleset(event.ruleset)
    rules = ruleset.deck_rules()
    if rules is None:
        raise Usage(f"{event.id!r} plays {event.ruleset}, which is played with {ruleset.fixed_deck}: there is no deck list to register")
    return rules


def deadline_passed(event: Event, now: datetime | None = None) -> bool:
    """Round 1 is paired, or the organiser's deadline time is past (T-112)."""
    if event.rounds > 0:
        return True
    if event.decks_deadline is None:
        return False
    return (now or datetime.now(UTC)) >= as_utc(event.decks_deadline)


def _entry(event: Event, rules: DeckRules[Any], item: Submitted, reason: str | None) -> DeckRegistered:
    """The entry registering one list, after reading and judging it; Usage names the file, line and field."""
    if len(item.data) > LIST_LIMIT:
        raise Usage(f"{item.where}: the list holds {len(item.data):,} bytes; a deck list is at most {LIST_LIMIT:,} (1 MiB)")
    try:
        deck = read(item.data, rules)
    except DeckMalformed as exc:
        if item.line:  # a list in a CSV cell: its lines are the file's from the cell's
            exc.line = item.line + (exc.line or 1) - 1
        raise Usage(exc.where(item.source)) from None
    text = item.data.decode("utf-8").removeprefix(BOM)  # read() decoded it already: a BOM is dropped (T-111)
    verdict = verdict_of(event.ruleset, rules, deck)
    return DeckRegistered(
        item.player, hashlib.sha256(text.encode()).hexdigest(), text, "legal" if verdict.verdict == "legal" else "illegal",
        verdict.summary or "", verdict.facets, verdict.problems, reason,
    )


def register_lists(session: Session, event_id: str, items: Sequence[Submitted], reason: str | None = None) -> list[DeckStatus]:
    """Register (or replace) lists, every one or none: the first bad one is named and nothing is written.

    A list the same as the player's registered one changes nothing. After the deadline a change needs `reason`.
    """
    event = lock_event(session, event_id)
    rules = rules_for(event)
    reason = reason.strip() if reason and reason.strip() else None
    known = {p.name: p for p in players(session, event_id)}
    waiting = set(session.scalars(select(Waiting.player).filter_by(event_id=event_id)))
    if reason is None and deadline_passed(event):
        own = waiting | graced(session, event)  # who still sends their own list: T-150
        if any(item.player not in own for item in items):
            raise Conflict(
                f"the deck deadline of {event_id!r} has passed ({_deadline_text(event)}): a list changes now only with a judge's --reason"
            )
    current = {row.player: row.sha256 for row in session.scalars(select(DeckList).filter_by(event_id=event_id))}
    entries: dict[str, DeckRegistered] = {}
    for item in items:
        if item.player not in known and item.player not in waiting:
            raise NotFound(f"{item.where}: {item.player!r} is not a player of {event_id!r}, nor on its waitlist")
        if item.player in entries:
            raise Usage(f"{item.where}: a second list for {item.player!r}")
        if item.player in known and known[item.player].dropped_round is not None:
            raise Conflict(f"{item.where}: {item.player!r} has dropped from {event_id!r}")
        entries[item.player] = _entry(event, rules, item, reason)
    fresh = [e for e in entries.values() if current.get(e.player) != e.sha256]
    if fresh:
        append_many(session, event.id, fresh)
    return statuses(session, event_id, [e.player for e in entries.values()])


def _deadline_moment(session: Session, event: Event, now: datetime) -> datetime:
    """When the deck deadline passed (or passes, if `now` is the moment round 1 is being paired): the organiser's
    time or round 1's pairing, whichever came first."""
    paired = session.scalar(
        select(LogEntry.at).where(LogEntry.event_id == event.id, LogEntry.type.in_(PAIRED)).order_by(LogEntry.seq).limit(1)
    )
    moments = [as_utc(paired) if paired is not None else now]
    if event.decks_deadline is not None:
        moments.append(as_utc(event.decks_deadline))
    return min(moments)


def late_places(session: Session, event: Event, now: datetime | None = None) -> set[str]:
    """T-150: the active players promoted from the waitlist less than GRACE before the deck deadline, or after it
    (a place freed at the last moment, as when the absent are left out just before round 1 is paired)."""
    if event.decks_policy is None:
        return set()
    cutoff = _deadline_moment(session, event, now or datetime.now(UTC)) - GRACE
    query = select(LogEntry.payload).where(LogEntry.event_id == event.id, LogEntry.type == "waitlist_promoted", LogEntry.at > cutoff)
    came = {msgspec.json.decode(data, type=WaitlistPromoted).player for data in session.scalars(query)}
    if not came:
        return set()
    active = set(session.scalars(select(Player.name).filter_by(event_id=event.id, dropped_round=None)))
    return came & active


def ever_paired(session: Session, event_id: str) -> set[str]:
    """Every player the event has paired at least once: at a table, a pod, or with a bye."""
    found = set(session.scalars(select(Match.player_a).filter_by(event_id=event_id)))
    found |= set(session.scalars(select(Match.player_b).filter_by(event_id=event_id)))
    found |= set(session.scalars(select(PodSeat.player).filter_by(event_id=event_id)))
    found |= {bye for bye in session.scalars(select(Round.bye).filter_by(event_id=event_id)) if bye is not None}
    found |= set(session.scalars(select(RoundBye.player).filter_by(event_id=event_id)))
    return found


def graced(session: Session, event: Event, now: datetime | None = None) -> set[str]:
    """T-150: the players given a place at the last moment who have not been paired yet: each sends their own
    list, without a judge, until their first round; no policy drops them for want of one (they are not paired
    until they have it)."""
    late = late_places(session, event, now)
    return late - ever_paired(session, event.id) if late else set()


def list_locked(session: Session, event: Event, player: str) -> bool:
    """Whether `player`'s own list is past its deadline (a change goes through a judge): the event's deadline,
    unless they wait for a place or have a late one not yet paired (T-150)."""
    if not deadline_passed(event):
        return False
    if session.get(Waiting, (event.id, player)) is not None:
        return False
    return player not in graced(session, event)


def lists_from_folder(folder: Iterable[tuple[str, bytes]]) -> list[Submitted]:
    """A folder's files as lists: `PLAYER.txt` or `PLAYER.json` (the name without its suffix is the player's id)."""
    items = []
    for name, data in sorted(folder):
        stem, dot, suffix = name.rpartition(".")
        if not dot or suffix.lower() not in ("txt", "json", "dek", "deck"):
            continue  # notes and other files beside the lists
        items.append(Submitted(name, stem, data))
    if not items:
        raise Usage("the folder holds no lists: name each PLAYER.txt (or .json), after the player's id")
    return items


def lists_from_csv(data: bytes, source: str) -> list[Submitted]:
    """A CSV file with a header naming `player` and `list` (the list's text in one cell, line breaks and all)."""
    if len(data) > LIST_LIMIT * 64:
        raise Usage(f"{source}: {len(data):,} bytes is more than a CSV file of lists may hold ({LIST_LIMIT * 64:,})")
    try:
        text = data.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise Usage(f"{source} line {line}: not UTF-8 text; save it as UTF-8 CSV") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        raise Usage(f"{source}: the file is empty; its first line names the columns player,list") from None
    except csv.Error as exc:
        raise Usage(f"{source} line 1: {exc}") from None
    if "player" not in header or "list" not in header:
        raise Usage(f"{source} line 1, field header: the columns are player,list (found {','.join(header)})")
    at_player, at_list = header.index("player"), header.index("list")
    items, line = [], reader.line_num + 1
    try:
        for row in reader:
            start, line = line, reader.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise Usage(f"{source} line {start}: {len(row)} fields, not {len(header)}")
            player = row[at_player].strip()
            if not player:
                raise Usage(f"{source} line {start}, field player: empty")
            items.append(Submitted(source, player, row[at_list].encode(), start))
    except csv.Error as exc:
        raise Usage(f"{source} line {line}: {exc}") from None
    return items


def set_policy(session: Session, event_id: str, policy: str | None, deadline: datetime | None) -> Event:
    """The organiser's deck rules: the policy (T-113) and the deadline's time (T-112); what is not given (None)
    stays as it was (at first: `unpaired`, and round 1's pairing)."""
    event = lock_event(session, event_id)
    rules_for(event)
    policy = policy or event.decks_policy or "unpaired"
    if policy not in POLICIES:
        raise Usage(f"--policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    if event.rounds > 0:
        raise Conflict(f"{event_id!r} has paired round 1: its deck deadline is past, and its policy applied")
    if deadline is not None and deadline.tzinfo is None:
        raise Usage("--deadline needs its time zone (2026-12-05T09:30+01:00, or ...Z for UTC)")
    deadline = deadline or (as_utc(event.decks_deadline) if event.decks_deadline else None)
    # kept in UTC: SQLite keeps a time without its zone
    append(session, event.id, DeckPolicySet(policy, deadline.astimezone(UTC) if deadline else None))  # type: ignore[arg-type]
    return event


def policy_said(event: Event) -> str:
    """The deck policy and deadline in words (the CLI's and the organiser's page's answer)."""
    return f"{event.id}: a player without a legal list at the deadline is {event.decks_policy}; the deadline is " + (
        f"{as_utc(event.decks_deadline):%Y-%m-%d %H:%M} UTC, or round 1's pairing if it comes first" if event.decks_deadline
        else "round 1's pairing"
    )


def publish(session: Session, event_id: str) -> bool:
    """Make every list public; False when they were already."""
    event = lock_event(session, event_id)
    rules_for(event)
    if event.decks_published:
        return False
    append(session, event.id, DecksPublished())
    return True


def statuses(session: Session, event_id: str, only: Sequence[str] | None = None) -> list[DeckStatus]:
    """Every player's list (or `only` these players'), by player id."""
    rows = {row.player: row for row in session.scalars(select(DeckList).filter_by(event_id=event_id))}
    shown = display_names(session, event_id, waiting=True)
    people: list[tuple[str, str, bool]] = [(p.name, shown[p.name], p.dropped_round is not None) for p in players(session, event_id)]
    if only is not None:  # someone waiting for a place is asked about by name (their own page; a judge's form)
        query = select(Waiting.player).filter_by(event_id=event_id).where(Waiting.player.in_(list(only)))
        people += [(w, shown[w], False) for w in session.scalars(query)]
    found = []
    for name, named, dropped in people:
        if only is not None and name not in only:
            continue
        row = rows.get(name)
        if row is None:
            found.append(DeckStatus(name, named, "none", dropped=dropped))
            continue
        found.append(
            DeckStatus(
                name, named, row.verdict, row.summary, msgspec.json.decode(row.facets, type=dict[str, str]),
                msgspec.json.decode(row.problems, type=list[DeckProblem]), row.sha256, row.text, dropped,
            )
        )
    return found


def without_legal_list(session: Session, event: Event) -> set[str]:
    """The active players with no legal list, once the event asks for lists and its deadline has passed (or is
    being passed: pairing round 1 passes it); empty otherwise."""
    if event.decks_policy is None:
        return set()
    legal = set(session.scalars(select(DeckList.player).filter_by(event_id=event.id, verdict="legal")))
    active = session.scalars(select(Player.name).filter_by(event_id=event.id, dropped_round=None))
    return {name for name in active if name not in legal}


def apply_policy(session: Session, event: Event) -> list[str]:
    """Before a round is paired: with the `dropped` policy (or in a bracket or round robin, whose seeds cannot
    leave a player out for a round: T-113), drop each active player without a legal list; return them. The
    `dropped` policy spares a late place not yet paired (T-150): that player sits out until their list is in."""
    bracket = event.format in ("single", "double", "roundrobin")
    dropping = event.decks_policy == "dropped" or bracket
    lacking = without_legal_list(session, event) if dropping else set()
    missing = sorted(lacking - graced(session, event) if lacking and not bracket else lacking)
    if missing:
        append_many(session, event.id, [PlayerDropped(name) for name in missing])
    return missing


def _deadline_text(event: Event) -> str:
    if event.rounds > 0:
        return "round 1 is paired"
    assert event.decks_deadline is not None
    return f"it was {event.decks_deadline:%Y-%m-%d %H:%M %Z}".rstrip()


# -- every game log against the lists ------------------------------------------------------------


def differences(session: Session, event: Event, logs: Sequence[bytes], players: Iterable[str]) -> dict[str, list[Difference]]:
    """Each of the table's `players` whose deck in one of `logs` is not their registered list, with the
    differences card by card (a player without a list is not compared: the policy dealt with them). What a live
    table calls too."""
    if event.decks_policy is None or not logs:
        return {}
    query = select(DeckList.player, DeckList.text).where(DeckList.event_id == event.id, DeckList.player.in_(list(players)))
    registered = {player: text.encode() for player, text in session.execute(query)}
    found: dict[str, list[Difference]] = {}
    for data in logs:
        for player, changed in game_differences(data, registered).items():
            seen = found.setdefault(player, [])
            seen += [d for d in changed if d not in seen]
    return found


def refuse(
    session: Session, event: Event, round_number: int, table: int, found: dict[str, list[Difference]], records: list[GameRecord]
) -> DeckCheck:
    """Log the refusal of a table's logs for their decks: the table waits in the judge queue (T-114). The same
    refusal again (the same logs sent twice) adds nothing: the table's open check stands."""
    encoded = msgspec.json.encode(found)
    for standing in session.scalars(select(DeckCheck).filter_by(event_id=event.id, round=round_number, table=table, ruled_seq=None)):
        if standing.differences == encoded:
            return standing
    entry = append(session, event.id, DecksDiffer(round_number, table, found, records))
    check = session.get(DeckCheck, (event.id, entry.seq))
    assert check is not None
    return check


def open_checks(session: Session, event_id: str) -> list[DeckCheck]:
    """The refusals no judge has ruled on yet, oldest first."""
    get_event(session, event_id)
    query = select(DeckCheck).filter_by(event_id=event_id, ruled_seq=None).order_by(DeckCheck.seq)
    return list(session.scalars(query))


def decoded(check: DeckCheck) -> dict[str, list[Difference]]:
    """A refusal's differences, by player."""
    return msgspec.json.decode(check.differences, type=dict[str, list[Difference]])


def difference_lines(found: dict[str, list[Difference]]) -> list[str]:
    """The differences as lines for people: `ann: Dodge Roll: in the game (...), not registered`."""
    return [f"{player}: {d.message}" for player in sorted(found) for d in found[player]]


# -- what the lists show --------------------------------------------------------------------------


def entry_of(status: DeckStatus, *, whole: bool) -> DeckEntry:
    """A player's list as the wire shows it; `whole`: with its text and SHA-256 (its player, the organiser, or
    published lists)."""
    facets = status.facets or {}
    return DeckEntry(
        status.player, status.name, status.verdict, status.summary,  # type: ignore[arg-type]
        next(iter(facets.values()), None), facets, status.problems or [],
        status.sha256 if whole else None, status.text if whole else None, status.dropped,
    )


def may_see(event: Event, viewer: str | None, organiser: bool, player: str) -> bool:
    """Whether a list may be shown whole: published lists to everyone; before, only to its player and the
    organiser (the judges act through the organiser's session). T-116."""
    return event.decks_published or organiser or viewer == player


def metagame(session: Session, event_id: str) -> Metagame:
    """The kinds of deck the event's players brought (their legal lists' main facet), with each kind's record."""
    event = get_event(session, event_id)
    rules_for(event)
    placed = select(Player.name).filter_by(event_id=event_id)  # not the lists of those still waiting for a place
    rows = list(session.scalars(select(DeckList).filter_by(event_id=event_id, verdict="legal").where(DeckList.player.in_(placed))))
    decks: dict[str, tuple[str, str]] = {}
    facet = ""
    for row in rows:
        facets = msgspec.json.decode(row.facets, type=dict[str, str])
        values = list(facets.items())
        if values:
            facet = values[0][0]
            decks[row.player] = (values[0][1], values[1][1] if len(values) > 1 else "")
    tables: list[dict[str, Outcome]] = []
    for match in session.scalars(select(Match).filter_by(event_id=event_id).where(Match.games_a.is_not(None))):
        a, b = match.games_a or 0, match.games_b or 0
        tables.append({match.player_a: _outcome(a, b), match.player_b: _outcome(b, a)})
    pods: dict[tuple[int, int], dict[str, int]] = {}
    for seat in session.scalars(select(PodSeat).filter_by(event_id=event_id).where(PodSeat.place.is_not(None))):
        pods.setdefault((seat.round, seat.table), {})[seat.player] = seat.place or 0
    for places in pods.values():
        if len(places) > 1:
            firsts = sum(1 for p in places.values() if p == 1)
            tables.append({p: ("win" if firsts == 1 else "draw") if place == 1 else "loss" for p, place in places.items()})
    cut = set()
    if event.format == "swiss" and event.bracket_round is not None:
        cut = set(session.scalars(select(Player.name).filter_by(event_id=event_id).where(Player.seed.is_not(None))))
    active = [p for p in players(session, event_id) if p.dropped_round is None or p.name in decks]
    return Metagame(
        event.id, event.name, event.ruleset, facet or "kind", len(active), sum(1 for p in active if p.name not in decks),
        len(cut), kinds_of(decks, tables, cut),
    )


def _outcome(mine: int, theirs: int) -> Outcome:
    return "win" if mine > theirs else "loss" if mine < theirs else "draw"
