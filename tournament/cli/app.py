"""The `tournament` command: events, players, rounds, results, standings, exports, the event log.

The CLI owns the engine and the sessions: every command that changes an
event is one transaction, so a refused request writes nothing. Results go to
stdout, errors and progress to stderr. Exit codes are in tournament/README.md
(and `service.EXIT_*`).
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer

from referee import console
from referee.console import INT32_MAX, INT64_MAX, emit_json, err, out, say
from tournament.cli import (
    decks,
    desk,
    people,
    persons,
    rejudge,
    results,
    rounds,
    seasons,
    staff,
    tables,
)
from tournament.cli.common import (
    CapOpt,
    ClosesOpt,
    DbOpt,
    EventArg,
    FormatOpt,
    JsonOpt,
    OutOpt,
    check_format,
    closing_time,
    database,
    demo,
    eventlog,
    export,
    fail,
    models,
    new_session,
    read_text,
    reading,
    service,
    show_round,
    transaction,
    verification,
    write_bytes,
    write_text,
)
from tournament.cli.send import send as send_cmd
from tournament.cli.serve import organiser_token as organiser_token_cmd
from tournament.cli.serve import serve as serve_cmd
from tournament.output import files, pictures, render
from tournament.storage import viewcache

app = typer.Typer(
    name="tournament",
    help="Run Swiss events whose results are referee-checked game logs; every change is kept in a hash-chained event log.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=console.UnixGroup,
)
db_app = typer.Typer(help="The database: migrations.", no_args_is_help=True)


@app.callback()
def _everywhere(
    db: Annotated[
        str | None,
        typer.Option("--db", help="As each command's --db, given before the command: tournament --db URL standings EVENT."),
    ] = None,
    version: Annotated[bool, console.version_option("tournament")] = False,
) -> None:
    """Run Swiss, elimination, round-robin and pods events whose results are referee-checked game logs."""
    if db is not None:
        # the commands read --db from TOURNAMENT_DB when it is not given after them
        os.environ["TOURNAMENT_DB"] = db

app.add_typer(db_app, name="db")
# Commands of `tournament` itself, kept by concern in their own modules.
app.add_typer(people.app)  # register, rename, link, drop, pause, resume, bye
app.add_typer(persons.app)  # people, person, ratings
app.add_typer(rounds.app)  # pair, unpair, swap, round start, extend, clock, notice
app.add_typer(results.app)  # report, correct, results, enter
app.add_typer(rejudge.app)  # rejudge: the stored logs judged again
app.add_typer(decks.app)  # deck, decks, deck-ruling
app.add_typer(desk.app)  # calls, answer; registration, checkin, absent
app.add_typer(tables.app)  # table: a live table's game, or its log so far
app.add_typer(seasons.app, name="season")  # season create, rule, add, remove, standings, list
app.add_typer(staff.app, name="staff")  # staff add, list, revoke, new-code


# Commands --------------------------------------------------------------------


@app.command()
def create(
    event: EventArg,
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="The game (see `referee rulesets`).")] = "cardwars",
    name: Annotated[str, typer.Option("--name", help="A title for printouts (default: the id).")] = "",
    profile: Annotated[str, typer.Option("--profile", help="Tiebreakers: mtg, pokemon or chess.")] = "mtg",
    best_of: Annotated[int, typer.Option("--best-of", min=1, max=INT32_MAX, help="Games per match (odd).")] = 1,
    seed: Annotated[int | None, typer.Option("--seed", min=0, max=INT64_MAX, help="The pairing seed (default: random; kept in the log).")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="swiss, single or double (elimination), roundrobin or pods.")] = "swiss",
    table_size: Annotated[int | None, typer.Option("--table-size", min=1, max=INT32_MAX, help="Pods: players a table, 3 to 6 (default 4).")] = None,
    points: Annotated[str, typer.Option("--points", help="Pods: points for a sole win, a shared win[, 2nd, 3rd...].")] = "3,1",
    late_entry: Annotated[
        str, typer.Option("--late-entry", help="A late entry's missed rounds: loss (a match loss each, as the MTR) or none.")
    ] = "loss",
    require_chain: Annotated[
        bool, typer.Option("--require-chain/--no-require-chain", help="Accept only hash-chained game logs (records with `prev`).")
    ] = True,
    rated: Annotated[bool, typer.Option("--rated", help="Its matches count for the ratings (`tournament ratings`).")] = False,
    tables: Annotated[
        str, typer.Option("--tables", help="Live tables: off (results as logs or slips), paper (players record their cards), digital (the server deals).")
    ] = "off",
    open_registration: Annotated[bool, typer.Option("--registration", help="Open public registration (/e/EVENT/register) now.")] = False,
    cap: CapOpt = None,
    closes: ClosesOpt = None,
    waitlist: Annotated[bool, typer.Option("--waitlist/--no-waitlist", help="Public registration: a waitlist once full (the default) or none.")] = True,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create an event (with `tournament registration`'s settings, when given)."""
    pairing_seed = random.SystemRandom().getrandbits(32) if seed is None else seed
    closes_at = closing_time(closes)
    with transaction(db, create=True) as session:
        created = service.create_event(
            session, event, name=name, ruleset=ruleset, profile=profile, best_of=best_of, seed=pairing_seed, format=fmt,
            table_size=table_size, points=points, late_entry=late_entry, require_chain=require_chain, rated=rated,
            tables=tables, open_registration=open_registration, cap=cap, closes_at=closes_at, waitlist=waitlist,
        )
        info = export.event_info(created)
    if as_json:
        emit_json(info)
    else:
        say(
            f"created {info.id}: {service.FORMATS[info.format]}, {info.ruleset}, best of {info.best_of}, "
            f"tiebreakers {info.profile}, seed {info.seed}" + (", rated" if info.rated else "")
            + (f", {info.tables} tables" if info.tables != "off" else "")
        )


@app.command()
def events(db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """List the events in the database."""
    with reading(db) as session:
        infos = export.event_infos(session)
    if as_json:
        emit_json(infos)
        return
    from rich.table import Table

    table = Table(title="events")
    for column in ("id", "name", "format", "ruleset", "best of", "rounds", "created"):
        table.add_column(column)
    for e in infos:
        table.add_row(
            e.id, e.name, e.format, e.ruleset, str(e.best_of), str(e.rounds), e.created_at.strftime("%Y-%m-%d %H:%M")
        )
    out.print(table)


@app.command()
def seed(
    event: EventArg,
    players: Annotated[list[str], typer.Argument(help="Every active player, best first.", metavar="PLAYER...")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Seed a single or double elimination or a round robin by hand, before round 1 (otherwise `pair` seeds at random)."""
    with transaction(db) as session:
        seeds = service.seed(session, event, players)
        names = service.display_names(session, event)
    if as_json:
        emit_json({"event": event, "seeds": seeds})
    else:
        say(f"seeded {event}: " + ", ".join(f"{k} {names.get(p, p)}" for k, p in enumerate(seeds, start=1)))


@app.command("cut")
def cut_cmd(
    event: EventArg,
    size: Annotated[int, typer.Option("--cut", min=1, max=INT32_MAX, help="Players in the top cut: 4, 8 or 16 (2, 32 and 64 work too).")] = 8,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """End the Swiss rounds: the top of the standings goes on to a single-elimination bracket, seeded in order."""
    with transaction(db) as session:
        seeds = service.cut(session, event, size)
        start = service.get_event(session, event).bracket_round
        names = service.display_names(session, event)
    if as_json:
        emit_json({"event": event, "cut": size, "seeds": seeds, "bracket_round": start})
    else:  # seeds by name, a namesake told apart (T-235), as the organiser's page says it
        say(f"top {size} of {event}, from round {start}: " + ", ".join(f"{k} {names.get(p, p)}" for k, p in enumerate(seeds, start=1)))


@app.command("bracket")
def bracket_cmd(
    event: EventArg,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text, json or html.")] = "text",
    target: OutOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The elimination bracket (single or double elimination, or a Swiss event's top cut) as a picture."""
    fmt = check_format(fmt, as_json, ("text", "json", "html"))
    with reading(db) as session:
        info = export.bracket_info(session, event)
        details = export.event_info(service.get_event(session, event))
    if info is None:
        fail(f"{event!r} has no bracket (yet)", service.EXIT_NOT_FOUND)
    picture = pictures.bracket_text(info)
    if fmt == "json":
        write_text(msgspec.json.encode(info).decode(), target)
    elif fmt == "html":
        header, cells = render.seed_cells(info)
        drawing = [pictures.bracket_picture(info)]
        write_text(render.to_html(f"{details.name}: bracket", "Seeds", details, header, cells, drawing), target)
    else:
        champion = f"champion: {info.names.get(info.champion, info.champion)}\n" if info.champion else ""
        write_text(picture + champion, target)


@app.command("standings")
def standings_cmd(
    event: EventArg,
    fmt: FormatOpt = "table",
    target: OutOpt = None,
    limit: Annotated[
        int, typer.Option("--limit", min=0, max=INT32_MAX, help="The table shows this many rows (0: all); csv, json and html show all.")
    ] = render.TERMINAL_ROWS,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The standings, with the event's tiebreakers."""
    fmt = check_format(fmt, as_json)
    view = viewcache.cached(db, viewcache.Standings, event)
    if view is None:
        with reading(db) as session:
            view = export.standings_view(session, event)
            export.remember(session, event, view)
    people: dict[str, str] = {}
    if fmt == "csv" or (fmt == "table" and target is not None):  # the CSV's person column: people across events, never cached
        from tournament.service import history

        with reading(db) as session:
            people = history.person_texts(session)
    show_standings(view, fmt, target, limit, people)


def show_standings(view: viewcache.Standings, fmt: str, target: Path | None, limit: int, people: dict[str, str]) -> None:
    info, rows, drawn = view.event, view.rows, view.bracket
    title = f"{info.name}: standings after round {info.rounds}"
    header, cells = render.standing_cells(rows)
    if fmt in files.FORMATS or target is not None:  # a `table` sent to a file is written as CSV
        write_text(files.standings_file(view, fmt if fmt in files.FORMATS else "csv", people), target)
    elif view.swiss is not None and drawn is not None and info.bracket_round is not None:
        # After a top cut, pages show the Swiss standings as they were at the cut and the bracket's places apart,
        # so no bracket result seems to re-rank the Swiss table.
        out.print(render.to_rich(f"Swiss standings at the cut, after round {info.bracket_round - 1}", *render.standing_cells(view.swiss), width=out.width))
        out.print(render.to_rich("Top cut: places", *render.place_cells(drawn), width=out.width))
    else:
        shown = cells[:limit] if limit else cells
        out.print(render.to_rich(title, header, shown, width=out.width))
        if len(shown) < len(cells):
            say(f"... and {len(cells) - len(shown):,} more: --limit 0 shows every row, --format csv or html writes them")


@app.command()
def pairings(
    event: EventArg,
    round_number: Annotated[int | None, typer.Option("--round", min=1, max=INT32_MAX, help="The round (default: the current one).")] = None,
    by: Annotated[str, typer.Option("--by", help="table (the default), or name: alphabetical, with table, opponent and seat.")] = "table",
    fmt: FormatOpt = "table",
    target: OutOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A round's tables, byes, results and end times; `--by name` lists everyone alphabetically, to find a seat."""
    fmt = check_format(fmt, as_json)
    if by not in ("table", "name"):
        fail(f"--by must be table or name, not {by!r}")
    args = "" if round_number is None else str(round_number)
    view = viewcache.cached(db, viewcache.Pairings, event, args)
    if view is None:
        with reading(db) as session:
            view = export.pairings_view(session, event, round_number)
            export.remember(session, event, view, args)
    show_round(view.round, fmt, target, view.event, by)


@app.command("export")
def export_cmd(event: EventArg, target: OutOpt = None, db: DbOpt = None) -> None:
    """The whole event as JSON (schemas/json/tournament-export.schema.json)."""
    with reading(db) as session:
        data = export.export_event(session, event)
    write_text(msgspec.json.format(msgspec.json.encode(data), indent=2).decode(), target)


@app.command("game-log")
def game_log(
    event: EventArg,
    table: Annotated[int, typer.Option("--table", "-t", min=1, max=INT32_MAX, help="The table number.")],
    round_number: Annotated[int | None, typer.Option("--round", min=1, max=INT32_MAX, help="The round (default: the current one).")] = None,
    game: Annotated[int, typer.Option("--game", "-g", min=1, max=INT32_MAX, help="The game of the match.")] = 1,
    target: OutOpt = None,
    db: DbOpt = None,
) -> None:
    """A stored game log, byte for byte as reported (its SHA-256 is in `pairings --json` and `export`)."""
    with reading(db) as session:
        event_row = service.get_event(session, event)
        if event_row.format == "pods":  # one game a pod, its log kept on the pod
            pod, _seats = service.find_pod(session, event_row, table, round_number)
            where, data = f"table {pod.number} of round {pod.round}", pod.log if game == 1 else None
        else:
            match = service.find_match(session, event_row, table, round_number)
            stored = session.get(models.GameLog, (event, match.round, match.number, game))
            where, data = f"table {match.number} of round {match.round}", stored.data if stored else None
        if data is None:
            fail(f"{where} has no stored log for game {game}", service.EXIT_NOT_FOUND)
    if target is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    write_bytes(data, target)


@app.command("log")
def log_cmd(event: EventArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """The event log: every change, in order, with its hash chain and who made it (`by`; `actor` in --json)."""
    with reading(db) as session:
        service.get_event(session, event)
        rows = [(e, summary(eventlog.decode(e))) for e in export.log_entries(session, event)]
        by = service.actor_names(session, event, (e.actor for e, _data in rows))
    if as_json:
        emit_json([
            {"seq": e.seq, "type": e.type, "at": eventlog.as_utc(e.at), "prev": e.prev, "hash": e.hash, "actor": e.actor, "by": by[e.actor], "payload": data}
            for e, data in rows
        ])
        return
    from rich.table import Table

    table = Table(title=f"event log of {event}")
    for column in ("seq", "type", "at (UTC)", "hash", "by", "details"):
        table.add_column(column, justify="right" if column == "seq" else "left", no_wrap=column not in ("details", "by"))
    for e, data in rows:
        details = ", ".join(
            f"{k}={len(v)} game log(s)" if k == "logs" else f"{k}={v}" for k, v in data.items() if v not in (None, [], "")
        )
        table.add_row(str(e.seq), e.type, eventlog.as_utc(e.at).strftime("%H:%M:%S"), e.hash[:8], by[e.actor], details)
    out.print(table)


def summary(payload: Any) -> dict[str, Any]:
    """A payload as plain data, with stored game logs shown by hash instead of whole."""
    data: dict[str, Any] = msgspec.to_builtins(payload)
    if "logs" in data:
        data["logs"] = [{"sha256": g["sha256"], "winner": g["winner"]} for g in data["logs"]]
    return data


@app.command("verify")
def verify_cmd(
    event: EventArg,
    pairings: Annotated[
        bool, typer.Option("--pairings/--no-pairings", help="Also pair every round again from the stored seed and compare.")
    ] = True,
    against: Annotated[
        Path | None,
        typer.Option("--against", help="A file of log heads kept from slips, pages or exports (EVENT@SEQ:HASH, one a line): each must still be in the log."),
    ] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check the event log's hash chain, rebuild the tables from it, and compare. Exit 1 on any difference."""
    from tournament.service import heads

    listed: list[heads.Head] = []
    kept: list[heads.Head] = []
    if against is not None:
        try:
            listed = heads.read_heads(read_text(against), str(against))
        except service.Usage as exc:
            fail(exc.message)
        kept = [h for h in listed if h.event == event]
        if not kept:
            fail(f"{against}: no head of {event} in it ({len(listed)} of other events)")
    with reading(db) as session:
        found = verification.verify(session, event, service.repairing_problem if pairings else None)
        if not found.exists:
            raise service.NotFound(f"unknown event {event!r}")
        if against is not None:
            found.problems += heads.missing(kept, verification.log_hashes(session, event))
    others = len(listed) - len(kept)
    if as_json:
        checked = {"heads": {"checked": len(kept), "other_events": others}} if against is not None else {}
        emit_json({"event": event, "ok": found.ok, "entries": found.entries, "problems": found.problems, **checked})
    elif found.ok:
        aside = f" ({others} of other events left aside)" if others else ""
        heads_said = f"; {len(kept)} kept heads, all in the log{aside}" if against is not None else ""
        say(f"{event}: {found.entries} log entries, chain intact, tables agree with the log{heads_said}")
    else:
        for problem in found.problems:
            err.print(f"{event}: {problem}", markup=False)
    raise typer.Exit(0 if found.ok else service.EXIT_VERIFY_FAILED)


@app.command("head")
def head_cmd(event: EventArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """The event log's head (EVENT@SEQ:HASH): keep it, and `verify --against` shows whether the log still holds it."""
    from tournament.service.heads import head_text

    with reading(db) as session:
        found = service.get_event(session, event)
        last = session.get(models.LogEntry, (event, found.last_seq))
        seq, digest, at = found.last_seq, found.last_hash, eventlog.as_utc(last.at) if last else None
    shown = head_text(event, seq, digest)
    if as_json:
        emit_json({"event": event, "seq": seq, "hash": digest, "head": shown, "at": at})
    else:
        say(shown)


@app.command("demo")
def demo_cmd(
    players: Annotated[int, typer.Option("--players", min=2, max=64, help="Bot players.")] = 8,
    rounds: Annotated[int, typer.Option("--rounds", min=1, max=20, help="Swiss rounds.")] = 3,
    ruleset: Annotated[str, typer.Option("--ruleset", help="The game (pods: one for 3 or more players).")] = "cardwars",
    fmt: Annotated[str, typer.Option("--format", "-f", help="swiss, single or double (elimination), roundrobin or pods.")] = "swiss",
    cut: Annotated[int | None, typer.Option("--cut", min=1, max=INT32_MAX, help="After the Swiss rounds, a top cut of 4, 8 or 16.")] = None,
    table_size: Annotated[int | None, typer.Option("--table-size", min=1, max=INT32_MAX, help="Pods: players a table, 3 to 6 (default 4).")] = None,
    best_of: Annotated[int | None, typer.Option("--best-of", min=1, max=INT32_MAX, help="Games per match (odd; default 3, pods 1).")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, max=INT64_MAX, help="Seeds pairings and every game.")] = 1,
    logs: Annotated[Path, typer.Option("--logs", help="Where the game logs go.")] = Path("tournament-logs"),
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A whole event played by referee bots: every game logged, validated and reported."""
    if cut is not None and fmt != "swiss":
        fail("--cut follows Swiss rounds: use it with --format swiss")
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from tournament.storage.db import shown

    with database(db, create=True) as (url, engine):
        total = demo.tables_expected(fmt, players, rounds, cut, table_size)
        with Progress(
            TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TextColumn("tables"), TimeElapsedColumn(),
            console=err.made(), transient=True,
        ) as progress:
            task = progress.add_task("tables", total=total)
            ran = demo.run(
                engine, logs, players=players, rounds=rounds, ruleset=ruleset, best_of=best_of or (1 if fmt == "pods" else 3),
                seed=seed,
                format=fmt, cut=cut, table_size=table_size, on_table=lambda: progress.advance(task),
            )
        with new_session(engine) as session:
            rows = export.standing_rows(session, ran.event_id)
            info = export.event_info(service.get_event(session, ran.event_id))
            drawn = export.bracket_info(session, ran.event_id)
    where = shown(url)
    if as_json:
        emit_json(
            {"event": ran.event_id, "database": where, "logs": str(ran.logs.resolve()), "games": ran.games, "standings": rows,
             "bracket": drawn}
        )
        return
    header, cells = render.standing_cells(rows)
    if drawn is not None:
        say(pictures.bracket_text(drawn))
    out.print(render.to_rich(f"{info.name} ({ran.event_id}): standings after round {info.rounds}", header, cells, width=out.width))
    db_flag = "" if db is None and "TOURNAMENT_DB" not in os.environ else f" --db {where}"
    say(f"database: {where}")
    say(f"game logs: {ran.logs.resolve()}/ ({ran.games} games, each validated by the referee)")
    say("next, try:")
    for command in ("log", "verify", "pairings", "standings", *(("bracket",) if drawn else ())):
        say(f"  tournament {command} {ran.event_id}{db_flag}")
    say(f"  tournament standings {ran.event_id}{db_flag} --format html -o standings.html")
    if ran.decks:
        say(f"  tournament decks {ran.event_id}{db_flag}            # each bot's registered list, checked against every game")
        say(f"  tournament meta {ran.event_id}{db_flag} -o meta.html  # the metagame")
    say(f"  tournament serve{db_flag}            # the event on the web: http://127.0.0.1:8000/")


@db_app.command("upgrade")
def db_upgrade(
    revision: Annotated[str, typer.Argument(help="The target revision.")] = "head",
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Apply the migrations (every command also does this on first use)."""
    from tournament.storage.db import revisions, shown

    with database(db, revision, create=True) as (url, engine):
        now = max(revisions(engine), default=None)  # one head: the migrations never branch
    if as_json:
        emit_json({"database": shown(url), "revision": now})
    else:
        say(f"{shown(url)}: at revision {now}")


app.command("serve")(serve_cmd)
app.command("organiser-token")(organiser_token_cmd)
app.command("send")(send_cmd)


def main() -> None:
    """Entry point of the `tournament` console script (and of `python -m tournament`)."""
    app(prog_name="tournament")
