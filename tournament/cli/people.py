"""`tournament` commands about people: register (by name, id or a CSV file), rename, drop, pause, resume, bye."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.console import INT32_MAX, emit_json, err, say
from tournament.cli.common import (
    DbOpt,
    EventArg,
    JsonOpt,
    export,
    fail,
    read_text,
    service,
    transaction,
)
from tournament.output import render

if TYPE_CHECKING:
    from tournament.storage.models import Player

app = typer.Typer()
PlayerArg = Annotated[str, typer.Argument(help="The player's id.", metavar="PLAYER")]


def who(player: Player) -> str:
    """`José Ramírez (jose-ramirez)`, or just the id when the name is the id."""
    return player.name if player.display_name == player.name else f"{player.display_name} ({player.name})"


@app.command(rich_help_panel="People")
def register(
    event: EventArg,
    names: Annotated[
        list[str] | None,
        typer.Argument(
            help="Display names (any Unicode, up to 100 characters). A name that is already an id ([A-Za-z0-9_.-]) "
            "is used as it is; others get an id derived from them (José Ramírez: jose-ramirez).",
            metavar="NAME...",
        ),
    ] = None,
    player_id: Annotated[str | None, typer.Option("--id", help="The id for the one NAME given (as in game logs).")] = None,
    rating: Annotated[int | None, typer.Option("--rating", min=-INT32_MAX, max=INT32_MAX, help="A rating for the one NAME given (higher is stronger).")] = None,
    person: Annotated[
        list[str] | None,
        typer.Option("--person", help="An existing person (`tournament people`), once per person; with one NAME, shown by it."),
    ] = None,
    external_id: Annotated[
        str | None, typer.Option("--external-id", help="The one NAME's external id (a federation's): that person, or a new one.")
    ] = None,
    source: Annotated[
        Path | None,
        typer.Option("--from", help="A CSV file with a header row: name, and optionally id, rating, person, external_id."),
    ] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Register players, all or none. After round 1 is paired they are late entries joining the next round.

    Each player is a person across events (T-90): the one named by --person or --external-id, or a new one.
    """
    given, known = names or [], person or []
    if source is not None:
        if given or known or player_id or rating is not None or external_id:
            fail("--from reads every player from the file: give no NAME, --id, --rating, --person or --external-id with it")
        try:
            people = service.people_from_csv(read_text(source), str(source))
        except service.Usage as exc:
            fail(exc.message, exc.code)
    elif known and not given:
        if len(known) > 1 and (player_id or rating is not None or external_id):
            fail("--id, --rating and --external-id go with exactly one player")
        people = [service.Person("", player_id, rating, person=p, external_id=external_id) for p in known]
    elif player_id is not None or rating is not None or known or external_id:
        if len(given) != 1 or len(known) > 1:
            fail("--id, --rating, --person and --external-id go with exactly one NAME")
        people = [service.Person(given[0], player_id, rating, person=known[0] if known else None, external_id=external_id)]
    else:
        if not given:
            fail("name the players to register (or --person ID, or --from FILE)")
        people = service.people_from_args(given)
    with transaction(db) as session:
        added = service.register_people(session, event, people)
        found = service.get_event(session, event)
        rounds, missed = found.rounds, "a loss each" if found.late_entry == "loss" else "not counted"
        shown = [(p.name, p.display_name, p.rating, who(p), p.person) for p in added]
        namesakes = {n: [o.id for o in others] for n, others in service.namesakes(session, added).items()}
        person_of = {p.name: p.person for p in added}
    if as_json:
        emit_json(
            {"event": event, "registered": [i for i, *_ in shown], "late": rounds > 0, "joins_round": rounds + 1,
             "players": [{"id": i, "name": n, "rating": r, "person": p} for i, n, r, _, p in shown], "namesakes": namesakes}
        )
        return
    late = f" (late entry: from round {rounds + 1}; rounds missed: {missed})" if rounds else ""
    if len(shown) > 10:
        say(f"registered {len(shown)} players in {event}{late}")
    else:
        say(f"registered {', '.join(w for *_, w, _ in shown)} in {event}{late}")
    for player, others in namesakes.items():
        err.print(
            f"note: {person_of[player]} is a new person with the name of {', '.join(others)}; if they are the same, "
            f"`tournament link {event} {player} --person {others[0]}` (T-90)", markup=False,
        )


@app.command(rich_help_panel="People")
def link(
    event: EventArg,
    player: PlayerArg,
    person: Annotated[str, typer.Option("--person", help="The person (`tournament people`) this player is.")],
    reason: Annotated[str | None, typer.Option("--reason", help="Why (kept in the event log).")] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Say which person a player of an event is (a registration that made a new person by mistake, T-90)."""
    with transaction(db) as session:
        service.link(session, event, player, person, reason)
        name = service.get_person(session, person).name
    if as_json:
        emit_json({"event": event, "player": player, "person": person})
    else:
        say(f"{player} in {event} is now person {person} ({name})")


@app.command(rich_help_panel="People")
def rename(
    event: EventArg,
    player: PlayerArg,
    name: Annotated[str, typer.Argument(help="The new display name.", metavar="NAME")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Change a player's display name (the id, used in game logs, stays)."""
    with transaction(db) as session:
        renamed = service.rename(session, event, player, name)
        shown = renamed.display_name
    if as_json:
        emit_json({"event": event, "player": player, "name": shown})
    else:
        say(f"{player} is now shown as {shown}")


@app.command(rich_help_panel="People")
def drop(event: EventArg, player: PlayerArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Drop a player from later rounds. Mid-round, their unfinished match goes to the opponent."""
    with transaction(db) as session:
        conceded = service.drop(session, event, player)
        rounds = service.get_event(session, event).rounds
        table = export.table_row(session, conceded) if conceded else None
    if as_json:
        emit_json({"event": event, "dropped": player, "after_round": rounds, "conceded": table})
    else:
        say(f"dropped {player} from {event} after round {rounds}")
        if table is not None:
            say(f"table {table.table} of round {table.round} goes to the opponent: {render.result_text(table)}")


@app.command(rich_help_panel="People")
def pause(event: EventArg, player: PlayerArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Sit a player out of the next rounds without dropping them (not paired, no points) until `resume`."""
    _pausing(event, player, db, as_json, paused=True)


@app.command(rich_help_panel="People")
def resume(event: EventArg, player: PlayerArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Pair a paused player again from the next round."""
    _pausing(event, player, db, as_json, paused=False)


def _pausing(event: str, player: str, db: str | None, as_json: bool, *, paused: bool) -> None:
    with transaction(db) as session:
        changed = service.set_paused(session, event, player, paused)
        shown, rounds = who(changed), service.get_event(session, event).rounds
    if as_json:
        emit_json({"event": event, "player": player, "paused": paused, "from_round": rounds + 1})
    elif paused:
        say(f"{shown} sits out from round {rounds + 1} until `tournament resume {event} {player}`")
    else:
        say(f"{shown} is paired again from round {rounds + 1}")


@app.command(rich_help_panel="People")
def bye(
    event: EventArg,
    player: PlayerArg,
    round_number: Annotated[int | None, typer.Option("--round", min=1, max=INT32_MAX, help="The round of the bye (not yet paired).")] = None,
    cancel: Annotated[bool, typer.Option("--cancel", help="Take back the player's pre-assigned bye.")] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Pre-assign a bye (a Swiss or pods round): the pairing leaves the player out that round, a 2-0 win, their one bye."""
    if cancel == (round_number is not None):
        fail("give --round N for the bye, or --cancel to take it back")
    with transaction(db) as session:
        service.assign_bye(session, event, player, round_number)
    if as_json:
        emit_json({"event": event, "player": player, "bye_round": round_number})
    elif round_number is None:
        say(f"{player} has no pre-assigned bye now")
    else:
        say(f"{player} has the bye in round {round_number}")
