"""Seasons (issue 36, T-210..T-214): an organiser groups events of one game into a series, and its standings
by person are worked out on each read from the events' own standings, by the rule the season writes down
(`formats.season`). Only finished events count, so the standings move when an event finishes (T-213).

A season is not any one event's history: its rows are a table of their own, as people are (T-211).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.rulesets import ids as ruleset_ids
from schemas.tournament import PersonSeason, SeasonEvent, SeasonInfo, SeasonRow, SeasonStandings
from tournament.formats import season as rules
from tournament.output import render
from tournament.service.errors import Conflict, NotFound, Usage
from tournament.service.persons import labels as person_labels
from tournament.service.queries import check_id, get_event
from tournament.service.ranking import standings as event_standings
from tournament.storage.eventlog import as_utc
from tournament.storage.models import Event, Person, Player, Season
from tournament.storage.models import SeasonEvent as SeasonEventRow

NAME_LENGTH = 200


def rule_of(row: Season) -> rules.Rule:
    return rules.Rule(row.win, row.draw, row.loss, row.attend, row.best, tuple(t for t in row.tiebreakers.split(",") if t))


def make_rule(
    win: int = 3, draw: int = 1, loss: int = 0, attend: int = 1, best: int | None = None, tiebreakers: str | None = None,
) -> rules.Rule:
    """A rule from the organiser's numbers; out of range or unknown: Usage, saying what is allowed."""
    ties = rules.Rule().tiebreakers if tiebreakers is None else tuple(t.strip() for t in tiebreakers.split(",") if t.strip())
    try:
        return rules.Rule(win, draw, loss, attend, best, ties)
    except rules.RuleError as exc:
        raise Usage(str(exc)) from None


def _name(name: str) -> str:
    text = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(text) <= NAME_LENGTH or any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in text):
        raise Usage(f"a season's name is 1 to {NAME_LENGTH} characters without control characters, not {name[:40]!r}")
    return text


def get_season(session: Session, season_id: str) -> Season:
    row = session.get(Season, season_id)
    if row is None:
        raise NotFound(f"unknown season {season_id!r}")
    return row


def create_season(session: Session, season_id: str, name: str, ruleset: str, rule: rules.Rule) -> Season:
    check_id("season", season_id)
    if ruleset not in ruleset_ids():
        raise Usage(f"unknown ruleset {ruleset!r} (known: {', '.join(ruleset_ids())})")
    if session.get(Season, season_id) is not None:
        raise Conflict(f"season {season_id!r} exists already")
    row = Season(id=season_id, name=_name(name), ruleset=ruleset, created_at=datetime.now(UTC))
    _write_rule(row, rule)
    session.add(row)
    session.flush()
    return row


def _write_rule(row: Season, rule: rules.Rule) -> None:
    row.win, row.draw, row.loss, row.attend, row.best = rule.win, rule.draw, rule.loss, rule.attend, rule.best
    row.tiebreakers = ",".join(rule.tiebreakers)


def _events(session: Session, season_id: str) -> list[Event]:
    """The season's events in season order: the order they were created."""
    query = select(Event).join(SeasonEventRow, SeasonEventRow.event_id == Event.id).where(SeasonEventRow.season == season_id)
    return list(session.scalars(query.order_by(Event.created_at, Event.id)))


def set_rule(session: Session, season_id: str, rule: rules.Rule) -> Season:
    """Change the rule: only while no event of the season has finished, so no standing ever shown is re-scored (T-212)."""
    row = get_season(session, season_id)
    done = [e.id for e in _events(session, season_id) if e.finished]
    if done:
        raise Conflict(f"season {season_id!r} has finished events ({', '.join(done)}): its rule is written down")
    _write_rule(row, rule)
    return row


def add_events(session: Session, season_id: str, event_ids: Sequence[str]) -> Season:
    """Put events in the season (all or none): each of the season's game, and not in it already."""
    row = get_season(session, season_id)
    have = {e.id for e in _events(session, season_id)}
    for event_id in event_ids:
        event = get_event(session, event_id)
        if event.ruleset != row.ruleset:
            raise Conflict(f"{event_id!r} is {event.ruleset}; season {season_id!r} is {row.ruleset}")
        if event_id in have:
            raise Conflict(f"{event_id!r} is in season {season_id!r} already")
        have.add(event_id)
        session.add(SeasonEventRow(season=season_id, event_id=event_id))
    session.flush()
    return row


def remove_event(session: Session, season_id: str, event_id: str) -> Season:
    row = get_season(session, season_id)
    link = session.get(SeasonEventRow, (season_id, event_id))
    if link is None:
        raise NotFound(f"{event_id!r} is not in season {season_id!r}")
    session.delete(link)
    session.flush()
    return row


def season_info(row: Season) -> SeasonInfo:
    rule = rule_of(row)
    return SeasonInfo(row.id, row.name, row.ruleset, rule.win, rule.draw, rule.loss, rule.attend, rule.best, list(rule.tiebreakers), rule.text())


def seasons(session: Session) -> list[SeasonInfo]:
    """Every season, newest first."""
    return [season_info(s) for s in session.scalars(select(Season).order_by(Season.created_at.desc(), Season.id))]


def _played(session: Session, event: Event) -> tuple[dict[str, rules.Played], int]:
    """Each person's record in a finished event, and how many of its players are linked to nobody.
    A player left out before round 1 (dropped with no round played) did not play it."""
    everyone = {p.name: p for p in session.scalars(select(Player).filter_by(event_id=event.id))}
    found, unlinked = {}, 0
    for s in event_standings(session, event.id):
        player = everyone[s.player]
        if player.dropped_round == 0:
            continue
        if player.person is None:
            unlinked += 1
            continue
        found[player.person] = rules.Played(event.id, s.wins, s.draws, s.losses, s.rank)
    return found, unlinked


def season_standings(session: Session, season_id: str) -> SeasonStandings:
    row = get_season(session, season_id)
    events = _events(session, season_id)
    results: dict[str, list[rules.Played]] = {}
    unlinked = 0
    for event in events:
        if not event.finished:
            continue
        played, missing = _played(session, event)
        unlinked += missing
        for person, record in played.items():
            results.setdefault(person, []).append(record)
    names = {i: n for i, n in session.execute(select(Person.id, Person.name).where(Person.id.in_(list(results))))}
    finished = [e.id for e in events if e.finished]
    lines = rules.standings(rule_of(row), finished, results, names)
    labels = person_labels(session)  # T-185: two people of one name told apart by a label, never by their ids
    shown = {p: render.labelled(names.get(p, p), labels.get(p)) for p in results}
    return SeasonStandings(
        season_info(row),
        [SeasonEvent(e.id, e.name, e.finished, as_utc(e.created_at)) for e in events],
        [SeasonRow(li.rank, li.person, shown[li.person], li.points, li.by_event, list(li.counted), li.wins, li.place, li.events)
         for li in lines],
        unlinked,
    )


def person_seasons(session: Session, person_id: str) -> list[PersonSeason]:
    """The seasons a person has a standing in, newest season first."""
    query = (
        select(SeasonEventRow.season).join(Player, Player.event_id == SeasonEventRow.event_id).where(Player.person == person_id).distinct()
    )
    mine_in = set(session.scalars(query))
    found = []
    for info in seasons(session):
        if info.id not in mine_in:
            continue
        table = season_standings(session, info.id)
        mine = next((r for r in table.standings if r.person == person_id), None)
        if mine is not None:
            finished = sum(1 for e in table.events if e.finished)
            found.append(PersonSeason(info.id, info.name, mine.rank, len(table.standings), mine.points, mine.played, finished))
    return found
