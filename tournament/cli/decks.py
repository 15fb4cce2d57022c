"""`tournament` commands about deck lists: deck (one player's), decks (list, import, policy, publish), deck-ruling."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated

import msgspec
import typer

from referee.console import INT32_MAX, emit_json, err, out, say
from referee.decks import LIST_LIMIT
from schemas.deck import Difference
from tournament.cli.common import (
    DbOpt,
    EventArg,
    JsonOpt,
    export,
    fail,
    read_bytes,
    reading,
    service,
    transaction,
    write_bytes,
    write_text,
)
from tournament.output import metagame

app = typer.Typer()
ReasonOpt = Annotated[str | None, typer.Option("--reason", help="After the deadline: the judge's reason for the change (logged).")]


def _read(path: Path, limit: int = LIST_LIMIT) -> bytes:
    return read_bytes(path, limit, "a deck list" if limit == LIST_LIMIT else "a CSV file of lists")


@app.command(rich_help_panel="Decks")
def deck(
    event: EventArg,
    player: Annotated[str, typer.Argument(help="The player's id.", metavar="PLAYER")],
    file: Annotated[Path, typer.Argument(help="The list: text (`1 Name (details)` a line) or JSON, as `referee deck check` reads.", metavar="FILE")],
    reason: ReasonOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Register or replace a player's deck list; the referee's verdict is printed (an illegal list is kept, and shown)."""
    item = service.Submitted(str(file), player, _read(file))
    with transaction(db) as session:
        (status,) = service.register_lists(session, event, [item], reason)
    if as_json:
        emit_json(status)
        return
    say(_line(status))
    for problem in status.problems or []:
        say(f"  {problem.rule}{f' ({problem.card})' if problem.card else ''}: {problem.message}")


def _line(status: service.DeckStatus) -> str:
    if status.verdict == "none":
        return f"{status.name}: no list"
    return f"{status.name}: {status.verdict} ({status.summary})"


@app.command(rich_help_panel="Decks")
def decks(
    event: EventArg,
    source: Annotated[
        Path | None, typer.Option("--from", help="A folder of PLAYER.txt (or .json) lists, or a CSV file with columns player,list.")
    ] = None,
    policy: Annotated[
        str | None, typer.Option("--policy", help="A player without a legal list at the deadline is `unpaired` (default) or `dropped`.")
    ] = None,
    deadline: Annotated[
        datetime | None,
        typer.Option("--deadline", formats=["%Y-%m-%dT%H:%M%z", "%Y-%m-%dT%H:%M:%S%z"], help="Lists change freely until then (with its zone; default: round 1's pairing)."),
    ] = None,
    publish: Annotated[bool, typer.Option("--publish", help="Make every list public (pages, CSV and JSON on `tournament serve`).")] = False,
    reason: ReasonOpt = None,
    target: Annotated[Path | None, typer.Option("--out", "-o", help="Write every list to a file: FILE.csv or FILE.json (with each list's text).")] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every player's deck list and its verdict (who has none, or an illegal one); or import lists, set the policy, publish."""
    if sum((source is not None, policy is not None or deadline is not None, publish)) > 1:
        fail("give one of: --from, --policy/--deadline, --publish")
    if source is not None:
        items = _items(source)
        with transaction(db) as session:
            done = service.register_lists(session, event, items, reason)
        if as_json:
            emit_json({"event": event, "registered": done})
            return
        say(f"registered {len(done)} list(s) from {source}: {sum(s.verdict == 'legal' for s in done)} legal, "
            f"{sum(s.verdict == 'illegal' for s in done)} illegal")  # fmt: skip
        return
    if policy is not None or deadline is not None:
        with transaction(db) as session:
            said = service.policy_said(service.set_policy(session, event, policy, deadline))
        say(said)
        return
    if publish:
        with transaction(db) as session:
            changed = service.publish(session, event)
        say(f"{event}: the lists are public" + ("" if changed else " already"))
        return
    if target is not None and target.suffix.lower() not in (".csv", ".json"):
        fail(f"-o {target}: write a .csv or a .json file")
    with reading(db) as session:
        found = service.get_event(session, event)
        service.rules_for(found)
        rows = service.statuses(session, event)
        passed = service.deadline_passed(found)
        refused = [(c.round, c.table, service.decoded(c)) for c in service.open_checks(session, event)]
    if target is not None:
        entries = [service.entry_of(r, whole=True) for r in rows]
        if target.suffix.lower() == ".csv":
            write_text(metagame.lists_csv(entries), target)
        else:
            write_bytes(msgspec.json.format(msgspec.json.encode(entries), indent=2) + b"\n", target)
        return
    _show(event, rows, found.decks_policy, passed, as_json, refused)


def _items(source: Path) -> list[service.Submitted]:
    try:
        if source.is_dir():
            files = [(p.name, _read(p)) for p in source.iterdir() if p.is_file()]
            return service.lists_from_folder(files)
        return service.lists_from_csv(_read(source, LIST_LIMIT * 64), str(source))
    except service.Usage as exc:
        fail(exc.message, exc.code)


Refused = list[tuple[int, int, dict[str, list[Difference]]]]


def _show(event: str, rows: list[service.DeckStatus], policy: str | None, passed: bool, as_json: bool, refused: Refused) -> None:
    """The lists, who has no legal one, and the tables refused for their decks that wait for a judge."""
    active = [r for r in rows if not r.dropped]
    missing = [r for r in active if r.verdict != "legal"]
    if as_json:
        waiting = [{"round": n, "table": t, "differences": found} for n, t, found in refused]
        emit_json({"event": event, "policy": policy, "deadline_passed": passed, "players": rows,
                   "without_legal_list": [r.player for r in missing], "refused": waiting})  # fmt: skip
        return
    from rich.table import Table

    table = Table(title=f"{event}: deck lists", title_justify="left")
    for column in ("player", "list", "deck"):
        table.add_column(column)
    for row in active:
        shown = row.summary if row.verdict != "illegal" else "; ".join(p.message for p in row.problems or [])
        table.add_row(row.name, row.verdict if row.verdict != "none" else "no list", shown)
    out.print(table)
    if policy is None:
        err.print(f"{event} asks for no deck lists yet: its first list (or `decks --policy`) asks for them (T-110)", markup=False)
    elif missing:
        what = "not paired" if policy == "unpaired" else "dropped"
        when = "now" if passed else "at the deadline"
        err.print(f"{len(missing)} player(s) without a legal list: {', '.join(r.name for r in missing)} ({what} {when})", markup=False)
    for number, at, found in refused:
        err.print(f"table {at} of round {number} waits for a judge (`deck-ruling`): its decks are not the lists", markup=False)
        for line in service.difference_lines(found):
            err.print(f"  {line}", markup=False)


@app.command("deck-ruling", rich_help_panel="Decks")
def deck_ruling(
    event: EventArg,
    table: Annotated[int, typer.Option("--table", "-t", min=1, max=INT32_MAX, help="The table refused for its decks.")],
    reason: Annotated[str, typer.Option("--reason", help="Why (kept in the event log).")],
    accept: Annotated[bool, typer.Option("--accept", help="The refused logs' result stands.")] = False,
    result: Annotated[str | None, typer.Option("--result", help="A result of the judge's own: ann=2,bob=0 (a pod: places).")] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A judge rules on a table whose logs were refused for their decks; by default the player whose deck differed loses (T-115)."""
    try:
        tally = service.parse_result(result) if result is not None else None
    except service.Usage as exc:
        fail(exc.message, exc.code)
    with transaction(db) as session:
        pods = service.get_event(session, event).format == "pods"
        state = service.rule_decks(
            session, event, table, reason=reason, accept=accept,
            result=None if pods else tally, places=tally.games if pods and tally else None,
        )
        rows = export.round_rows(session, service.get_event(session, event), state.table.round)
        row = next(r for r in rows if r.table == table)
    if as_json:
        emit_json({"event": event, "table": row})
        return
    say(f"ruled on table {table} of round {state.table.round}: {state.state}")


@app.command(rich_help_panel="Decks")
def meta(
    event: EventArg,
    target: Annotated[Path | None, typer.Option("--out", "-o", help="meta.html (a printable page) or meta.svg (the picture alone).")] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The metagame: players per kind of deck (its game, quadrants or colours), each kind's match wins, the top cut marked."""
    if target is not None and target.suffix.lower() not in (".html", ".svg"):
        fail(f"-o {target}: write a .html or an .svg file")
    with reading(db) as session:
        found = service.metagame(session, event)
        info = export.event_info(service.get_event(session, event))
    if as_json:
        emit_json(found)
    elif target is not None:
        write_text(metagame.to_svg(found) if target.suffix.lower() == ".svg" else metagame.to_html(found, info), target)
    else:
        say(f"{found.name}: {found.players} players by {found.facet}" + (f" ({found.unknown} without a legal list)" if found.unknown else ""))
        for kind in found.kinds:
            say(f"  {kind.kind}: {metagame.players_text(kind)}; {metagame.record_text(kind)}")
