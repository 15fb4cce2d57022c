"""Making rounds: seeding a bracket, the top cut, pairing the next round, and `verify`'s re-pairing check."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from tournament.formats import brackets, pairing, pods, podsolver
from tournament.service.decks import apply_policy
from tournament.service.elimination import (
    absent_from,
    bracket,
    double_bracket,
)
from tournament.service.errors import (
    Conflict,
    ResultsMissing,
    TournamentError,
    Usage,
)
from tournament.service.events import FORMATS, SEEDED
from tournament.service.queries import (
    lock_event,
    lock_open_event,
    matches,
    players,
    pod_tables,
    seeded,
)
from tournament.service.ranking import (
    entrants,
    pod_entrants,
    sitting_out,
    standings,
)
from tournament.storage.eventlog import (
    TYPES,
    BracketSeeded,
    Entry,
    EventFinished,
    Payload,
    PodsPaired,
    RoundPaired,
    append,
    decode,
)
from tournament.storage.models import Appeal, Event, LogEntry, Round


def pair(session: Session, event_id: str, seed: int | None = None) -> Round:
    """Pair the next round in the event's format; refuse while the current one has tables without a result.

    `seed` pairs with another seed than the event's (`pair --reseed`); it is kept in the round's entry.
    A single or double elimination or round robin not seeded by `seed` is seeded here: by rating (highest
    first), the unrated after them, ties at random from the event seed.
    """
    event = lock_open_event(session, event_id)
    if seed is not None and (event.format in SEEDED or event.bracket_round is not None):
        raise Usage(f"{event_id!r} pairs a bracket or round robin, which follows from its seeds: no --reseed")
    _refuse_open_tables(session, event, f"pairing round {event.rounds + 1}")
    apply_policy(session, event)  # the deck deadline: players without a legal list dropped, if the policy says so
    if event.format in SEEDED and event.bracket_round is None:
        entered = [p for p in players(session, event_id) if p.dropped_round is None]
        if len(entered) < 2:
            raise Conflict(f"event {event_id!r} has {len(entered)} active player(s); pairing needs two")
        random.Random(f"{event.seed}/seeds").shuffle(entered)  # reproducible from the event's seed
        entered.sort(key=lambda p: (p.rating is None, -(p.rating or 0)))  # rated players first, highest first
        append(session, event.id, BracketSeeded(1, [p.name for p in entered]))
    number = event.rounds + 1
    chosen = event.seed if seed is None else seed
    if event.format == "pods":
        grouped = next_pods(session, event, number, chosen)
        append(session, event.id, PodsPaired(number, chosen, grouped.tables, grouped.byes, grouped.repeats, grouped.proven, grouped.exact))
    else:
        result = next_round(session, event, number, chosen)
        byes = sitting_out(session, event_id, number)[1] if event.bracket_round is None else []
        append(session, event.id, RoundPaired(number, chosen, list(result.tables), result.bye, result.cost, byes))
    paired = session.get(Round, (event_id, number))
    assert paired is not None
    return paired


def next_pods(session: Session, event: Event, number: int, seed: int, exact: bool | None = None) -> pods.PodPairing:
    """A pods round; paused players sit out, and pre-assigned byes come first among the byes.

    `exact`: whether CP-SAT may take part (T-168); by default when OR-Tools is installed.
    """
    paused, byes = sitting_out(session, event.id, number)
    active = [e for e in pod_entrants(session, event.id, event.table_size) if e.id not in paused and e.id not in byes]
    if len(active) < max(2, event.table_size - 1):  # fewer could not fill even a table one seat short
        raise Conflict(f"event {event.id!r} has {len(active)} active player(s); its pods need {max(2, event.table_size - 1)}")
    grouped = pods.pair_pods(active, number, seed, event.table_size, podsolver.available() if exact is None else exact)
    return dataclasses.replace(grouped, byes=[*byes, *grouped.byes])


def pods_paired(session: Session, event_id: str, number: int) -> PodsPaired | None:
    """The entry that paired pods round `number` as it stands (the last, after an unpair), or None."""
    entries = session.scalars(
        select(LogEntry).filter_by(event_id=event_id, type=TYPES[PodsPaired]).order_by(LogEntry.seq.desc())
    )
    return next((p for p in (decode(e) for e in entries) if p.round == number), None)


def _refuse_open_tables(session: Session, event: Event, doing: str) -> None:
    missing = [m.number for m in matches(session, event.id, event.rounds) if m.games_a is None]
    missing += [pod.number for pod, _ in pod_tables(session, event.id, event.rounds) if pod.source is None]
    if missing:
        tables = ", ".join(str(n) for n in missing)
        raise ResultsMissing(
            f"round {event.rounds} has no result at table{'s' if len(missing) > 1 else ''} {tables}; "
            f"report {'them' if len(missing) > 1 else 'it'} before {doing}"
        )


def finish(session: Session, event_id: str) -> Event:
    """The organiser ends the event once every table has a result: it pairs no more rounds and takes no more players (T-104)."""
    event = lock_open_event(session, event_id)
    if event.rounds == 0:
        raise Conflict(f"{event_id!r} has played no round; there is nothing to finish")
    _refuse_open_tables(session, event, "finishing the event")
    # a finished event's rulings stand (T-178): an appeal still waiting would be decided on results already final
    waiting = session.execute(select(Appeal.round, Appeal.table).filter_by(event_id=event_id, decided_seq=None).order_by(Appeal.seq)).all()
    if waiting:
        which = "; ".join(f"round {r}, table {t}" for r, t in waiting)
        raise Conflict(f"{len(waiting)} appeal(s) wait for the head judge ({which}); decide them before finishing the event")
    append(session, event_id, EventFinished())
    return event


def seed(session: Session, event_id: str, names: Sequence[str]) -> list[str]:
    """Seed an elimination or round robin by hand (best first), before its first round."""
    event = lock_event(session, event_id)
    if event.format not in SEEDED:
        raise Usage(f"{event_id!r} is a {FORMATS[event.format]} event; only an elimination or round robin is seeded by hand")
    if event.bracket_round is not None:
        raise Conflict(f"{event_id!r} is already seeded")
    active = {p.name for p in players(session, event_id) if p.dropped_round is None}
    if len(set(names)) != len(names) or set(names) != active:
        missing, extra = sorted(active - set(names)), sorted(set(names) - active)
        raise Usage(
            "name every active player once, best first"
            + (f"; missing: {', '.join(missing)}" if missing else "") + (f"; not active: {', '.join(extra)}" if extra else "")
        )
    append(session, event.id, BracketSeeded(1, list(names)))
    return list(names)


CUT_SIZES = (2, 4, 8, 16, 32, 64)


def cut(session: Session, event_id: str, size: int) -> list[str]:
    """End a Swiss event's Swiss rounds: the top `size` active players of the standings, seeded in that order."""
    event = lock_open_event(session, event_id)
    if size not in CUT_SIZES:
        raise Usage(f"--cut must be one of {', '.join(map(str, CUT_SIZES))}, not {size}")
    if event.format != "swiss":
        raise Usage(f"{event_id!r} is a {FORMATS[event.format]} event; only a Swiss event has a top cut")
    if event.bracket_round is not None:
        raise Conflict(f"{event_id!r} has had its top cut already")
    if event.rounds == 0:
        raise Conflict(f"{event_id!r} has played no Swiss round yet")
    _refuse_open_tables(session, event, "cutting")
    seeds = top_cut(session, event_id, size)
    append(session, event.id, BracketSeeded(event.rounds + 1, seeds))
    return seeds


def top_cut(session: Session, event_id: str, size: int) -> list[str]:
    active = [s.player for s in standings(session, event_id) if not s.dropped]
    if len(active) < size:
        raise Conflict(f"a top {size} needs {size} active players; {event_id!r} has {len(active)}")
    return active[:size]


def next_round(session: Session, event: Event, number: int, seed: int) -> pairing.Pairing:
    """The tables of round `number` in the event's format (`pair` writes them; `verify` recomputes them).

    `seed` is the Swiss pairing seed; brackets and round robins follow from their seeds alone.
    """
    if event.bracket_round is None:  # Swiss: paused players and pre-assigned byes sit out
        out = set().union(*sitting_out(session, event.id, number))
        active = [e for e in entrants(session, event.id) if e.id not in out]
        if len(active) < 2:
            raise Conflict(f"event {event.id!r} has {len(active)} active player(s); pairing needs two")
        return pairing.pair_swiss(active, number, seed)
    k = number - event.bracket_round + 1  # the bracket's (or round robin's) own round number
    if event.format == "roundrobin":
        seeds = seeded(session, event.id)
        if k > brackets.round_robin_rounds(len(seeds)):
            raise Conflict(f"all {brackets.round_robin_rounds(len(seeds))} rounds of {event.id!r} are paired")
        tables, idle = brackets.round_robin(seeds, k, frozenset(absent_from(session, event)))
        return pairing.Pairing(tables, idle)
    if (said := decided(session, event)) is not None:
        raise Conflict(said)
    if event.format == "double":
        return pairing.Pairing([(a, b) for _, a, b in double_bracket(session, event).ready], None)
    return pairing.Pairing(bracket(session, event).rounds[k - 1].tables, None)


def decided(session: Session, event: Event) -> str | None:
    """Why no further round can be paired when an elimination bracket (or a top cut) is decided; else None.

    The organiser's page disables "Pair round N" with this line (T-167), as `pair` refuses with it."""
    if event.bracket_round is None or event.format == "roundrobin":
        return None
    if event.format == "double":
        twice = double_bracket(session, event)
        return f"the bracket of {event.id!r} is decided: {twice.champion} won it" if twice.finished else None
    state = bracket(session, event)
    if not state.finished:
        return None
    won = f"{state.champion} won it" if state.champion else "nobody is left in it"
    return f"the bracket of {event.id!r} is decided: {won}"


def repairing_problem(rebuilt: Session, entry: Entry, payload: Payload) -> str | None:
    """For `verify`: does pairing the round (or making the top cut) again, from the log up to here, agree?"""
    if not isinstance(payload, BracketSeeded | PodsPaired | RoundPaired):
        return None  # before looking the event up: most entries are registrations and results
    event = rebuilt.get(Event, entry.event_id)
    if event is None:
        return None
    where = f"log entry {entry.seq}"
    try:
        if isinstance(payload, BracketSeeded) and event.format == "swiss":
            same = top_cut(rebuilt, entry.event_id, len(payload.seeds)) == payload.seeds
            return None if same else f"{where}: the standings give another top cut"
        if isinstance(payload, PodsPaired):
            exact = payload.exact is not False  # None: paired when OR-Tools always was installed
            seated = sum(map(len, payload.tables))
            if exact and seated <= podsolver.EXACT_PLAYERS and not podsolver.available():
                return (f"{where}: round {payload.round} was paired with OR-Tools CP-SAT, which is not installed here; "
                        f"pip install '{podsolver.EXTRA}' to pair it again")  # fmt: skip
            grouped = next_pods(rebuilt, event, payload.round, payload.seed, exact)
            same = (grouped.tables, grouped.byes) == (payload.tables, payload.byes)
            if same and (grouped.repeats, grouped.proven) != (payload.repeats, grouped.proven if payload.proven is None else payload.proven):
                return (
                    f"{where}: round {payload.round} records {pods.repeats_text(payload.repeats, payload.proven)}; "
                    f"pairing it again gives {pods.repeats_text(grouped.repeats, grouped.proven)}"
                )
        elif isinstance(payload, RoundPaired):
            again = next_round(rebuilt, event, payload.round, payload.seed)
            byes = sitting_out(rebuilt, event.id, payload.round)[1] if event.bracket_round is None else []
            same = (list(again.tables), again.bye, byes) == ([tuple(t) for t in payload.tables], payload.bye, payload.byes)
        else:
            return None
    except TournamentError as exc:
        return f"{where}: it cannot be made again from the log: {exc.message}"
    return None if same else f"{where}: pairing round {payload.round} again with seed {payload.seed} gives other tables"

