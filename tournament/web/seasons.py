"""Seasons on the web (no sign-in, issue 36): every season, one season's standings by person (names, never ids),
its big screen, and its standings as CSV or JSON. `/api/seasons...` are the JSON twins of `tournament season`.

A season follows no one event's live stream: its standings move only when one of its events finishes, so its
page and big screen reload themselves every minute (a `refresh` meta tag: no script)."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get
from litestar.params import FromPath, FromQuery
from litestar.response import Template

from schemas.tournament import SeasonInfo, SeasonStandings
from tournament import service
from tournament.output import seasons as season_text
from tournament.service import seasons
from tournament.web.common import reading
from tournament.web.public import page
from tournament.web.screen import PAGE_SECONDS

REFRESH_SECONDS = 60


@get("/api/seasons", sync_to_thread=True, tags=["seasons"])
def api_seasons(request: Request[Any, Any, Any]) -> list[SeasonInfo]:
    """Every season, newest first, with its rule (as `tournament season list --json`)."""
    with reading(request) as session:
        return seasons.seasons(session)


@get("/api/seasons/{season_id:str}", sync_to_thread=True, tags=["seasons"])
def api_season(request: Request[Any, Any, Any], season_id: FromPath[str]) -> SeasonStandings:
    """The season's standings by person (as `tournament season standings SEASON --json`)."""
    with reading(request) as session:
        return seasons.season_standings(session, season_id)


@get("/seasons", sync_to_thread=True, include_in_schema=False)
def seasons_page(request: Request[Any, Any, Any]) -> Template:
    with reading(request) as session:
        return page(request, "seasons", seasons=seasons.seasons(session))


@get("/seasons/{season_id:str}", sync_to_thread=True, include_in_schema=False)
def season_page(request: Request[Any, Any, Any], season_id: FromPath[str]) -> Template:
    with reading(request) as session:
        table = seasons.season_standings(session, season_id)
    finished = [e for e in table.events if e.finished]
    return page(request, "season", table=table, finished=finished, refresh=REFRESH_SECONDS)


@get("/seasons/{season_id:str}/screen", sync_to_thread=True, include_in_schema=False)
def season_screen(request: Request[Any, Any, Any], season_id: FromPath[str], seconds: FromQuery[int] = 10) -> Template:
    """The season's standings on the big screen, paged as an event's (`?seconds=N`, 3 to 120)."""
    low, high = PAGE_SECONDS
    if not low <= seconds <= high:
        raise service.Usage(f"seconds: {low} to {high}, not {seconds}")
    with reading(request) as session:
        table = seasons.season_standings(session, season_id)
    finished = sum(1 for e in table.events if e.finished)
    return page(request, "season_screen", table=table, finished=finished, seconds=seconds, refresh=REFRESH_SECONDS)


@get("/seasons/{season_id:str}/files/{name:str}", sync_to_thread=True, include_in_schema=False)
def season_file(request: Request[Any, Any, Any], season_id: FromPath[str], name: FromPath[str]) -> Response[bytes]:
    """`standings.csv` or `standings.json` (the same bytes as `tournament season standings --format`)."""
    stem, _, fmt = name.partition(".")
    if stem != "standings" or fmt not in season_text.SEASON_FORMATS:
        raise service.NotFound(f"no file {name!r}: standings.csv or standings.json")
    with reading(request) as session:
        text = season_text.season_file(seasons.season_standings(session, season_id), fmt)
    kind = "text/csv; charset=utf-8" if fmt == "csv" else "application/json"
    return Response(text.encode(), media_type=kind, headers={"Content-Disposition": f'attachment; filename="{season_id}-standings.{fmt}"'})


HANDLERS = [api_seasons, api_season, seasons_page, season_page, season_screen, season_file]
