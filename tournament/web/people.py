"""People across events on the web (no sign-in): everyone, one person's events and tables, the leaderboards.

Each page has an `/api/...` twin with the Structs `tournament people`,
`person` and `ratings` print with `--json`. External ids (a federation's
number) are the organiser's: the CLI shows them, the web does not.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, get
from litestar.params import FromPath, FromQuery
from litestar.response import Template

from schemas.tournament import PersonInfo, PersonRow, RatingRow
from tournament import service
from tournament.output import people as people_text
from tournament.service import history
from tournament.web import views
from tournament.web.common import reading
from tournament.web.public import page


def _system(system: str) -> str | None:
    if system not in ("", "glicko2", "openskill"):
        raise service.Usage(f"system must be glicko2 or openskill, not {system!r}")
    return system or None


def _public_people(rows: list[PersonRow]) -> list[PersonRow]:
    return [msgspec.structs.replace(r, external_id=None) for r in rows]


def _public_person(info: PersonInfo) -> PersonInfo:
    return msgspec.structs.replace(info, external_id=None)


@get("/api/people", sync_to_thread=True, tags=["people"])
def people_api(request: Request[Any, Any, Any]) -> list[PersonRow]:
    """Everyone who has played on this database, by name (as `tournament people --json`, without external ids)."""
    with reading(request) as session:
        return _public_people(history.people_rows(session))


@get("/api/people/{person_id:str}", sync_to_thread=True, tags=["people"])
def person_api(request: Request[Any, Any, Any], person_id: FromPath[str]) -> PersonInfo:
    """One person's events, tables and ratings (as `tournament person --json`, without the external id)."""
    with reading(request) as session:
        return _public_person(history.person_info(session, person_id))


@get("/api/ratings", sync_to_thread=True, tags=["people"])
def ratings_api(request: Request[Any, Any, Any], ruleset: FromQuery[str] = "", system: FromQuery[str] = "") -> list[RatingRow]:
    """The leaderboards (as `tournament ratings --json`): `ruleset` and `system` (glicko2, openskill) narrow them."""
    with reading(request) as session:
        return history.leaderboard(session, ruleset or None, _system(system))


@get("/people", sync_to_thread=True, include_in_schema=False)
def people_page(request: Request[Any, Any, Any]) -> Template:
    with reading(request) as session:
        names = {e.id: e.name for e in views.events(session)}
        return page(request, "people", people=history.people_rows(session), event_names=names)


@get("/people/{person_id:str}", sync_to_thread=True, include_in_schema=False)
def person_page(request: Request[Any, Any, Any], person_id: FromPath[str]) -> Template:
    with reading(request) as session:
        info = history.person_info(session, person_id)
        names = {e.event: e.event_name for e in info.events}
        return page(
            request, "person", person=info, event_names=names, result=people_text.match_text, systems=people_text.SYSTEMS,
            rating=people_text.rating_text,
        )


@get("/ratings", sync_to_thread=True, include_in_schema=False)
def ratings_page(request: Request[Any, Any, Any], ruleset: FromQuery[str] = "", system: FromQuery[str] = "") -> Template:
    with reading(request) as session:
        rows = history.leaderboard(session, ruleset or None, _system(system))
    pools: dict[tuple[str, str], list[RatingRow]] = {}
    for row in rows:
        pools.setdefault((row.ruleset, row.system), []).append(row)
    return page(request, "ratings", pools=pools, systems=people_text.SYSTEMS, rating=people_text.rating_text)


HANDLERS = [people_api, person_api, ratings_api, people_page, person_page, ratings_page]
