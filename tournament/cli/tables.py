"""`tournament table`: a live table's game as it stands, or its log so far (service/livetable.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer

from referee.console import INT32_MAX, emit_json
from tournament.cli.common import (
    DbOpt,
    EventArg,
    JsonOpt,
    OutOpt,
    fail,
    lazy,
    service,
    transaction,
    write_bytes,
    write_text,
)

app = typer.Typer()
livetable = lazy("tournament.service.livetable")
JUDGE = "judge"  # the seat that sees everything: the database's owner is the organiser


@app.command(rich_help_panel="Results")
def table(
    event: EventArg,
    number: Annotated[int, typer.Argument(min=1, max=INT32_MAX, help="The table number.", metavar="TABLE")],
    round_number: Annotated[int | None, typer.Option("--round", min=1, max=INT32_MAX, help="The round (default: the current one).")] = None,
    game: Annotated[int | None, typer.Option("--game", min=1, max=INT32_MAX, help="The game of the match (default: the one being played).")] = None,
    log: Annotated[bool, typer.Option("--log", help="Write the game's referee log so far (JSON Lines) instead.")] = False,
    out_file: OutOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A live table's game as it stands (everything in view, as the judge sees it); --log writes its log so far."""
    if log and as_json:
        fail("--log writes the log itself; --json prints the table as it stands: give one")
    with transaction(db) as session:
        try:
            view = livetable.view(session, event, number, JUDGE, round_number=round_number, game_number=game)
        except livetable.NotStarted:  # nobody opened it yet: opening starts its first game, as a phone would
            livetable.open_table(session, event, number, round_number)
            view = livetable.view(session, event, number, JUDGE, round_number=round_number, game_number=game)
        row = livetable.game_row(session, event, view.round, view.table, view.game)
        data = livetable.log_bytes(session, row)
        text = livetable.state_text(session, row)
        names = service.display_names(session, event)  # the text names players as pages do, never by id
        counted = livetable.counted_words(view.players, view.counted, names) if view.counted else ""
    if log:
        if out_file is None:
            write_text(data.decode(), None)
        else:
            write_bytes(data, out_file)
        return
    if as_json:
        emit_json(view)
        return
    def named(ids: Sequence[str]) -> str:
        return ", ".join(names.get(p, p) for p in ids)

    ended = f"over: {named(view.result['winners']) or 'a draw'} ({view.result['reason']})" if view.result else f"to act: {named(view.to_act)}"
    games = ", ".join(f"game {g.game}: {named(g.winners or []) or 'a draw'}" for g in view.games if g.over)
    lines = [
        f"{view.event} round {view.round} table {view.table} ({view.mode}): {' vs '.join(names.get(p, p) for p in view.players)}",
        f"game {view.game}, {view.seq} records; {ended}" + (f"; {games}" if games else ""),
        f"the match result is reported: {counted}" if view.reported else ("the match is decided; waiting for the players to confirm" if view.match_over else ""),
        "",
        text,
    ]
    write_text("\n".join(line for line in lines if line is not None), out_file)
