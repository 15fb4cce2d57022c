"""`tournament rejudge`: every game log an event keeps, judged again by today's referee; nothing is changed."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.console import emit_json, out, say
from tournament.cli.common import DbOpt, EventArg, JsonOpt, fail, reading, service

app = typer.Typer()


@app.command()
def rejudge(
    event: EventArg,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=256, help="Worker processes on this machine.")] = 1,
    cluster: Annotated[
        str | None, typer.Option("--cluster", help="A Dask scheduler's address (tcp://HOST:8786): judge on its workers.", metavar="ADDRESS")
    ] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List the tables whose result today's referee would change, with the rule; change nothing (exit 1 when any would)."""
    from referee.rejudge import NO_DASK, ClusterError, dask_installed

    if cluster is not None and jobs > 1:
        fail("--jobs and --cluster do not go together: a cluster's workers are its own")
    if cluster is not None and not dask_installed():
        fail(NO_DASK)
    with reading(db) as session:
        try:
            tables = service.rejudge_event(session, event, jobs=jobs, cluster=cluster)
        except ClusterError as exc:
            fail(str(exc))
    if as_json:
        emit_json(tables)
    elif not tables:
        say(f"{event}: today's referee gives every stored log the result recorded")
    for table in tables if not as_json else []:
        out.print(f"round {table.round}, table {table.table}: recorded {table.recorded}; now {table.now}", markup=False)
        for game in table.games:
            which = f"game {game.game}" if game.game is not None else "the log"
            why = f"{game.verdict} ({game.rule})" if game.rule else game.verdict
            if game.rule == service.UNPROVEN_RULE:  # complete by the rules, its draws unproven
                why = f"{service.UNPROVEN_DEAL} ({game.rule})"
            out.print(f"  {which}: was {game.recorded}, now {game.now if game.now != 'refused' else 'refused: ' + why}", markup=False)
    raise typer.Exit(service.EXIT_VERIFY_FAILED if tables else 0)
