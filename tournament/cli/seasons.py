"""`tournament season ...`: a series of events of one game and its standings by person (issue 36, T-210..T-214)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from referee.console import emit_json, err, out, say
from tournament.cli.common import (
    DbOpt,
    JsonOpt,
    OutOpt,
    check_format,
    fail,
    reading,
    transaction,
    write_text,
)
from tournament.formats.season import BEST_RANGE, POINTS_RANGE, TIEBREAKERS
from tournament.output import render
from tournament.output import seasons as season_text

if TYPE_CHECKING:
    from schemas.tournament import SeasonInfo

app = typer.Typer(help="Seasons: events of one game grouped into a series, with standings by person.", no_args_is_help=True)
PANEL = "Seasons"

SeasonArg = Annotated[str, typer.Argument(help="The season's id.", metavar="SEASON")]
LOW, HIGH = POINTS_RANGE


def _points(name: str, what: str) -> object:
    return typer.Option(f"--{name}", min=LOW, max=HIGH, help=f"Points {what} ({LOW} to {HIGH}).")


WinOpt = Annotated[int | None, _points("win", "a match won, a bye too (default 3)")]
DrawOpt = Annotated[int | None, _points("draw", "a match drawn (default 1)")]
LossOpt = Annotated[int | None, _points("loss", "a match lost (default 0)")]
AttendOpt = Annotated[int | None, _points("attend", "for each event played (default 1)")]
BestOpt = Annotated[int | None, typer.Option(
    "--best", min=BEST_RANGE[0], max=BEST_RANGE[1], help="Only each person's best N events count (default: every event).")]
AllOpt = Annotated[bool, typer.Option("--all-count", help="Every event counts again (takes --best away).")]
TiesOpt = Annotated[str | None, typer.Option(
    "--tiebreakers", help=f"In order, comma-separated, of: {', '.join(TIEBREAKERS)} (default wins,place,events).")]


def _shown(info: SeasonInfo, as_json: bool) -> None:
    if as_json:
        emit_json(info)
    else:
        say(f"season {info.id}, {info.name} ({info.ruleset}): {info.rule}")


@app.command("create", rich_help_panel=PANEL)
def create(
    season: SeasonArg,
    name: Annotated[str, typer.Option("--name", help="What people read: \"Thursday League, winter\".")],
    ruleset: Annotated[str, typer.Option("--ruleset", help="The season's game: only its events can be in it.")] = "cardwars",
    win: WinOpt = None, draw: DrawOpt = None, loss: LossOpt = None, attend: AttendOpt = None, best: BestOpt = None,
    tiebreakers: TiesOpt = None, db: DbOpt = None, as_json: JsonOpt = False,
) -> None:
    """A new season and its rule (T-212: 3 a win, 1 a draw, 0 a loss, 1 an event played, every event counted)."""
    from tournament.service import seasons

    with transaction(db, create=True) as session:  # a season may come before its first event
        rule = seasons.make_rule(
            3 if win is None else win, 1 if draw is None else draw, 0 if loss is None else loss, 1 if attend is None else attend,
            best, tiebreakers,
        )
        info = seasons.season_info(seasons.create_season(session, season, name, ruleset, rule))
    _shown(info, as_json)


@app.command("rule", rich_help_panel=PANEL)
def rule(
    season: SeasonArg, win: WinOpt = None, draw: DrawOpt = None, loss: LossOpt = None, attend: AttendOpt = None,
    best: BestOpt = None, all_count: AllOpt = False, tiebreakers: TiesOpt = None, db: DbOpt = None, as_json: JsonOpt = False,
) -> None:
    """Show the season's rule, or change it while none of its events has finished (exit 7 after)."""
    from tournament.service import seasons

    if best is not None and all_count:
        fail("--best and --all-count contradict each other", 2)
    changing = any(v is not None for v in (win, draw, loss, attend, best, tiebreakers)) or all_count
    with transaction(db) as session:
        row = seasons.get_season(session, season)
        if changing:
            now = seasons.rule_of(row)
            wanted = seasons.make_rule(
                now.win if win is None else win, now.draw if draw is None else draw, now.loss if loss is None else loss,
                now.attend if attend is None else attend, None if all_count else now.best if best is None else best,
                ",".join(now.tiebreakers) if tiebreakers is None else tiebreakers,
            )
            row = seasons.set_rule(session, season, wanted)
        info = seasons.season_info(row)
    _shown(info, as_json)


@app.command("add", rich_help_panel=PANEL)
def add(
    season: SeasonArg,
    events: Annotated[list[str], typer.Argument(help="Events of the season's game.", metavar="EVENT...")],
    db: DbOpt = None,
) -> None:
    """Put events in the season (all or none); each counts once it is finished (`tournament finish`)."""
    from tournament.service import seasons

    with transaction(db) as session:
        seasons.add_events(session, season, events)
    say(f"season {season}: {', '.join(events)} added")


@app.command("remove", rich_help_panel=PANEL)
def remove(season: SeasonArg, event: Annotated[str, typer.Argument(metavar="EVENT")], db: DbOpt = None) -> None:
    """Take an event out of the season."""
    from tournament.service import seasons

    with transaction(db) as session:
        seasons.remove_event(session, season, event)
    say(f"season {season}: {event} taken out")


@app.command("standings", rich_help_panel=PANEL)
def standings(
    season: SeasonArg,
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, csv or json.")] = "table",
    target: OutOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The season's standings by person, over its finished events, by its rule."""
    from tournament.service import seasons

    fmt = check_format(fmt, as_json, ("table", *season_text.SEASON_FORMATS))
    with reading(db) as session:
        table = seasons.season_standings(session, season)
    if fmt in season_text.SEASON_FORMATS or target is not None:
        write_text(season_text.season_file(table, fmt if fmt in season_text.SEASON_FORMATS else "csv"), target)
        return
    finished = sum(1 for e in table.events if e.finished)
    header, cells = season_text.season_cells(table)
    person = header.index("person")
    out.print(render.to_rich(
        f"{table.season.name}: after {finished} of {len(table.events)} events", [h for k, h in enumerate(header) if k != person],
        [[c for k, c in enumerate(row) if k != person] for row in cells], width=out.width,
    ))
    err.print(f"rule: {table.season.rule}; (N): played, not counted", markup=False, highlight=False)
    if table.unlinked:
        err.print(f"{table.unlinked} player(s) of its events are linked to no person and do not count: "
                  "tournament link EVENT PLAYER --person ID", markup=False, highlight=False)


@app.command("list", rich_help_panel=PANEL)
def list_(db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Every season, newest first, with its rule."""
    from tournament.service import seasons

    with reading(db) as session:
        rows = seasons.seasons(session)
    if as_json:
        emit_json(rows)
        return
    if not rows:
        say("no season yet: tournament season create SEASON --name NAME")
    for info in rows:
        out.print(f"{info.id}: {info.name} ({info.ruleset}); {info.rule}", markup=False, highlight=False)
