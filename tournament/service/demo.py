"""`tournament demo`: a whole event played by the referee's bots, in any format.

Each step is its own transaction, as a real event's would be: create,
register, and per round pair, then play every table with bots, write each
game's log to disk and report it through the same checks a scorekeeper's
report goes through (the referee replays every log). In a game whose
players register deck lists, each bot registers one and brings that deck to
every game, so every log is compared with the lists too. A Swiss event plays its
rounds, then its top cut if it has one; a bracket or round robin plays until
it is over.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from referee.bots import play
from referee.decks import encode_json, write_text
from referee.engine import judge
from referee.logio import encode_lines
from referee.outfile import write_file
from referee.rulesets import get as get_ruleset
from schemas.log import LOG_FORMAT, Header
from schemas.log import Event as LogEvent
from tournament import service
from tournament.formats.pods import table_sizes
from tournament.storage.models import Event

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lee")


@dataclass(frozen=True)
class Demo:
    event_id: str
    logs: Path
    games: int
    decks: int = 0  # lists registered


def bot_names(count: int) -> list[str]:
    return list(NAMES[:count]) if count <= len(NAMES) else [f"bot{n:02d}" for n in range(1, count + 1)]


def free_event_id(engine: Engine, directory: Path, base: str = "demo") -> str:
    """`demo`, or `demo-2`, `demo-3`... when earlier demos are in the database or their logs on disk."""
    with Session(engine) as session:
        for n in range(1, 10_000):
            candidate = base if n == 1 else f"{base}-{n}"
            if session.get(Event, candidate) is None and not (directory / candidate).exists():
                return candidate
    raise service.Conflict("too many demo events in this database")


def bot_decks(ruleset_id: str, names: list[str], seed: int) -> dict[str, Any]:
    """One deck a bot, for a game whose players register lists and bring them to every game (crossover,
    basictcg-mtg); none for a fixed deck, or where a game's decks depend on each other (stccg-multiplayer)."""
    ruleset = get_ruleset(ruleset_id)
    rules = ruleset.deck_rules()
    if rules is None or not rules.carried:
        return {}
    decks = {}
    for name in names:
        seats = [name, *(f"{name}-x{k}" for k in range(1, ruleset.min_players))]
        decks[name] = rules.deck_of(ruleset.default_setup(seats, random.Random(f"{seed}/deck/{name}")), name)
    return decks


def deck_lists(ruleset_id: str, decks: dict[str, Any]) -> list[service.Submitted]:
    """The bots' decks as the lists they register (text, or JSON for a deck a text list cannot hold)."""
    rules = get_ruleset(ruleset_id).deck_rules()
    assert rules is not None
    lists = []
    for name, deck in decks.items():
        try:
            data = write_text(rules, deck).encode()
        except ValueError:
            data = encode_json(deck)
        lists.append(service.Submitted(f"{name}'s list", name, data))
    return lists


def game_logs(event: Event, round_number: int, table: int, seats: list[str], decks: dict[str, Any] | None = None) -> Iterator[tuple[str, bytes]]:
    """Bot games at one table (players in seat order) until the match is decided: (file name, chained log bytes) each.

    A pod plays one game (its event is a best of 1). `decks`: the bots' registered decks, brought to every game.
    """
    ruleset = get_ruleset(event.ruleset)
    wins = dict.fromkeys(seats, 0)
    game = 0
    # A bracket match tied after N games goes on; bots draw rarely, so a few more games decide it.
    while not service.match_over(event, round_number, wins, game) and game < event.best_of + EXTRA_GAMES:
        game += 1
        seed = hash_seed(event.seed, round_number, table, game)
        setup = ruleset.default_setup(seats, random.Random(f"{seed}/setup"))
        if event.format == "pods":  # seat one plays first: pods rotate that seat to share the first turn
            setup = msgspec.structs.replace(setup, first=seats[0])
        rules = ruleset.deck_rules()
        if decks and rules is not None:
            for player in seats:
                setup = rules.with_deck(setup, player, decks[player])
        header = Header(
            log=LOG_FORMAT,
            ruleset=event.ruleset,
            game=f"{event.id}-r{round_number}-t{table}-g{game}",
            players=seats,
            setup=msgspec.Raw(msgspec.json.encode(setup)),
            event=LogEvent(event.id, round_number, table),
        )
        data = b"".join(line + b"\n" for line in encode_lines(header, play(header, seed)))
        yield f"r{round_number}-t{table}-g{game}.jsonl", data
        result = judge(data.splitlines()).verdict.result
        if result is not None and len(result.winners) == 1:
            wins[result.winners[0]] += 1


EXTRA_GAMES = 10


def hash_seed(*parts: int) -> int:
    """One reproducible game seed from the event seed and the game's place."""
    return random.Random("/".join(map(str, parts))).getrandbits(48)


def run(
    engine: Engine,
    directory: Path,
    *,
    players: int,
    rounds: int,
    ruleset: str,
    best_of: int,
    seed: int,
    format: str = "swiss",
    cut: int | None = None,
    table_size: int | None = None,
    on_table: Callable[[], None] = lambda: None,
) -> Demo:
    """Run a whole demo event; `on_table()` after each table is reported.

    Swiss: `rounds` rounds, then a top `cut` if given; pods: `rounds` rounds at
    tables of `table_size`. Single elimination and round robin: until the
    event is over (`rounds` is not used).
    """
    event_id = free_event_id(engine, directory)
    with Session(engine) as session, session.begin():
        service.create_event(
            session, event_id, name="Demo event", ruleset=ruleset, profile="mtg", best_of=best_of, seed=seed, format=format,
            table_size=table_size,
        )
    names = bot_names(players)
    decks = bot_decks(ruleset, names, seed)
    with Session(engine) as session, session.begin():
        service.register(session, event_id, names)
    if decks:  # each bot registers its list, and brings that deck to every game (every log is compared with it)
        with Session(engine) as session, session.begin():
            service.register_lists(session, event_id, deck_lists(ruleset, decks))
    logs = directory / event_id
    logs.mkdir(parents=True, exist_ok=True)
    games = 0
    while True:
        with Session(engine) as session, session.begin():
            event = service.get_event(session, event_id)
            if format in ("swiss", "pods") and event.bracket_round is None and event.rounds == rounds:
                if cut is None:
                    break
                service.cut(session, event_id, cut)
            elif service.is_finished(session, event):
                break
            number = service.pair(session, event_id).number
            event = service.get_event(session, event_id)
            session.expunge(event)
            if format == "pods":  # byes are tables of one, already placed
                tables = [(pod.number, [s.player for s in seats]) for pod, seats in service.pod_tables(session, event_id, number)
                          if pod.source is None]
            else:
                tables = [(m.number, [m.player_a, m.player_b]) for m in service.matches(session, event_id, number)]
        for table, seats in tables:
            played = []
            for name, data in game_logs(event, number, table, seats, decks):
                write_file(logs / name, data)
                played.append((str(logs / name), data))
            with Session(engine) as session, session.begin():
                if format == "pods":
                    service.report_pod(session, event_id, table, logs=played)
                else:
                    service.report(session, event_id, table, logs=played)
            games += len(played)
            on_table()
    return Demo(event_id, logs, games, len(decks))


def tables_expected(format: str, players: int, rounds: int, cut: int | None, table_size: int | None = None) -> int:
    """How many tables a demo event plays (for the progress bar)."""
    if format == "single":
        return players - 1
    if format == "double":
        return 2 * players - 2  # one more if the grand final is reset
    if format == "roundrobin":
        return players * (players - 1) // 2
    if format == "pods":
        return rounds * len(table_sizes(players, table_size or 4)[0])
    return rounds * (players // 2) + (cut - 1 if cut else 0)
