"""`tournament` commands about people across events: people, person, ratings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from referee.console import INT32_MAX, emit_json, out
from tournament.cli.common import DbOpt, JsonOpt, fail, reading
from tournament.output import people as people_text
from tournament.output import render

if TYPE_CHECKING:
    from schemas.tournament import RatingRow

app = typer.Typer()


def _table(title: str, header: list[str], rows: list[list[str]], right: set[str]) -> None:
    from rich.table import Table

    table = Table(title=title)
    for name in header:
        table.add_column(name, justify="right" if name in right else "left", overflow="fold")
    for row in rows:
        table.add_row(*row)
    out.print(table)


@app.command(rich_help_panel="People across events")
def people(db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Everyone who has played on this database, by name, with their events."""
    from tournament.service import history

    with reading(db) as session:
        rows = history.people_rows(session)
    if as_json:
        emit_json(rows)
        return
    _table(
        "people", ["person", "name", "external id", "events", "last event"],
        [[r.id, render.labelled(r.name, r.label), r.external_id or "", str(r.events), r.last_event or ""] for r in rows], {"events"},
    )


@app.command(rich_help_panel="People across events")
def person(
    person_id: Annotated[str, typer.Argument(help="The person's id (`tournament people`).", metavar="PERSON")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """One person: their events with where they finished, every table they sat at, and their ratings."""
    from tournament.service import history

    with reading(db) as session:
        info = history.person_info(session, person_id)
    if as_json:
        emit_json(info)
        return
    external = f", external id {info.external_id}" if info.external_id else ""
    out.print(f"{info.name} ({info.id}{external})", markup=False, highlight=False)
    events = {e.event: e for e in info.events}
    _table(
        "events", ["event", "as", "rank", "points", "W-L-D", "rated"],
        [
            [e.event_name, e.name, str(e.rank or ""), "" if e.points is None else str(e.points),
             f"{e.wins}-{e.losses}-{e.draws}" + (" dropped" if e.dropped else ""), "yes" if e.rated else "no"]
            for e in info.events
        ],
        {"rank", "points"},
    )
    _table(
        "tables", ["event", "round", "table", "against", "result"],
        [
            [events[m.event].event_name, str(m.round), str(m.table or ""), ", ".join(m.opponent_names), people_text.match_text(m)]
            for m in info.matches
        ],
        {"round", "table"},
    )
    if info.ratings:
        _ratings_table("ratings", info.ratings, rank=True)
    if info.seasons:
        _table(
            "seasons", ["season", "place", "points", "played"],
            [[f"{s.name} ({s.season})", f"{s.rank} of {s.of}", str(s.points), f"{s.played} of {s.events}"] for s in info.seasons],
            {"points"},
        )


def _ratings_table(title: str, rows: list[RatingRow], rank: bool) -> None:

    _table(
        title, ["game", "system", "rank", "rating", "±", "volatility", "ranked by", "events", "games"],
        [
            [r.ruleset, people_text.SYSTEMS[r.system], str(r.rank) if rank else "", f"{r.rating:.1f}", f"{r.deviation:.1f}",
             "" if r.volatility is None else f"{r.volatility:.4f}", f"{r.low:.1f}", str(r.events), str(r.games)]
            for r in rows
        ],
        {"rank", "rating", "±", "volatility", "ranked by", "events", "games"},
    )


@app.command(rich_help_panel="People across events")
def ratings(
    ruleset: Annotated[str | None, typer.Option("--ruleset", "-r", help="Only this game's leaderboards.")] = None,
    system: Annotated[
        str | None, typer.Option("--system", help="glicko2 (two-player events) or openskill (pods); default both.")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=0, max=INT32_MAX, help="Rows of each leaderboard shown (0: all; --json has all).")] = 100,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The leaderboards: every rated event's results, rated again (Glicko-2 for two players, OpenSkill for pods)."""
    from tournament.service import history

    if system not in (None, "glicko2", "openskill"):
        fail(f"--system must be glicko2 or openskill, not {system!r}")
    if limit < 0:
        fail(f"--limit must be 0 or more, not {limit}")
    with reading(db) as session:
        rows = history.leaderboard(session, ruleset, system)
    if as_json:
        emit_json(rows)
        return
    pools: dict[tuple[str, str], list[RatingRow]] = {}
    for row in rows:
        pools.setdefault((row.ruleset, row.system), []).append(row)
    if not pools:
        out.print("no rated results yet (`tournament create EVENT --rated`)", markup=False)
    for (game, kind), shown in pools.items():
        cut = shown[:limit] if limit else shown
        _table(
            f"{game}, {people_text.SYSTEMS[kind]}", ["rank", "person", "name", "rating", "±", "ranked by", "events", "games"],
            [[str(r.rank), r.person, render.labelled(r.name, r.label), f"{r.rating:.1f}", f"{r.deviation:.1f}", f"{r.low:.1f}", str(r.events), str(r.games)] for r in cut],
            {"rank", "rating", "±", "ranked by", "events", "games"},
        )
        if len(cut) < len(shown):
            out.print(f"{len(shown) - len(cut)} more (--limit 0 shows all)", markup=False)
