"""Deck lists in an event (issue 25): registration, the deadline and its policy, and every game's decks compared.

Rulings T-110 to T-115 (tournament/README.md, "Decks").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.inputs import EXIT_TOO_LARGE
from schemas.log import Event
from tests.tournament.decklib import (
    crossover_log,
    deck_of,
    list_text,
    swapped,
    table_log,
    write_lists,
)
from tests.tournament.tlib import cli, cli_json, downgrade, tables
from tournament import service

PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay"]


def entries(db: str, event: str = "ev") -> int:
    return len(json.loads(cli(db, "log", event, "--json").stdout))


def made(db: str, tmp_path: Path, players: list[str] = PLAYERS, listed: list[str] | None = None, ruleset: str = "crossover") -> Path:
    cli(db, "create", "ev", "--ruleset", ruleset, "--best-of", "1", "--no-require-chain")
    cli(db, "register", "ev", *players)
    return write_lists(tmp_path / "lists", players if listed is None else listed)


def status(db: str) -> dict[str, str]:
    return {p["player"]: p["verdict"] for p in cli_json(db, "decks", "ev")["players"]}


def test_t110_lists_from_a_folder_and_who_has_none_or_an_illegal_one(db_url: str, tmp_path: Path) -> None:
    folder = made(db_url, tmp_path, listed=PLAYERS[:5])
    (folder / "eve.txt").write_text(list_text(deck_of("eve")).replace("game: ", "game: x"))  # XO-1.4: no such game
    (folder / "notes.md").write_text("not a list")
    assert "registered 5 list(s)" in cli(db_url, "decks", "ev", "--from", str(folder)).stdout
    shown = cli_json(db_url, "decks", "ev")
    assert status(db_url) == {"ann": "legal", "bob": "legal", "cat": "legal", "dan": "legal", "eve": "illegal", "fay": "none"}
    assert shown["without_legal_list"] == ["eve", "fay"] and shown["policy"] == "unpaired"
    eve = next(p for p in shown["players"] if p["player"] == "eve")
    assert eve["problems"][0]["rule"] == "XO-1.4"
    text = cli(db_url, "decks", "ev")
    assert "no list" in text.stdout and "2 player(s) without a legal list: eve, fay" in text.stderr
    # every registration is an entry with the list's text and SHA-256
    log = json.loads(cli(db_url, "log", "ev", "--json").stdout)
    registered = [e["payload"] for e in log if e["type"] == "deck_registered"]
    assert [p["player"] for p in registered] == ["ann", "bob", "cat", "dan", "eve"]
    import hashlib

    assert registered[0]["sha256"] == hashlib.sha256(registered[0]["text"].encode()).hexdigest()
    assert registered[0]["text"] == list_text(deck_of("ann"))
    # the same lists again change nothing
    before = entries(db_url)
    cli(db_url, "decks", "ev", "--from", str(folder))
    assert entries(db_url) == before
    cli(db_url, "verify", "ev")


def test_t113_unpaired_by_default_until_a_legal_list_comes(db_url: str, tmp_path: Path) -> None:
    folder = made(db_url, tmp_path, listed=PLAYERS[:4])
    cli(db_url, "decks", "ev", "--from", str(folder))
    cli(db_url, "pair", "ev")
    seated = {p for t in tables(db_url, "ev") for p in t["players"]}
    assert seated == {"ann", "bob", "cat", "dan"}  # eve and fay: no list, not paired (and not dropped)
    assert not any(p["dropped_round"] is not None for p in json.loads(cli(db_url, "export", "ev").stdout)["players"])
    # T-112: after the deadline a list changes only with a judge's reason
    eve = tmp_path / "eve.txt"
    eve.write_text(list_text(deck_of("eve")))
    refused = cli(db_url, "deck", "ev", "eve", str(eve), code=service.EXIT_CONFLICT)
    assert "deadline" in refused.stderr and refused.stderr.count("\n") == 1
    cli(db_url, "deck", "ev", "eve", str(eve), "--reason", "list handed in at the desk before round 2")
    log = json.loads(cli(db_url, "log", "ev", "--json").stdout)
    assert log[-1]["payload"]["reason"] == "list handed in at the desk before round 2"
    for table in tables(db_url, "ev"):
        cli(db_url, "report", "ev", "--table", str(table["table"]), "1-0")
    cli(db_url, "pair", "ev")
    paired = cli_json(db_url, "pairings", "ev")
    seated = {p for t in paired["tables"] for p in t["players"]} | {paired["bye"]}
    assert "eve" in seated and "fay" not in seated
    cli(db_url, "verify", "ev")


def test_t113_the_dropped_policy_drops_at_the_deadline(db_url: str, tmp_path: Path) -> None:
    folder = made(db_url, tmp_path, listed=PLAYERS[:4])
    cli(db_url, "decks", "ev", "--policy", "dropped")
    cli(db_url, "decks", "ev", "--from", str(folder))
    cli(db_url, "pair", "ev")
    dropped = {p["name"] for p in json.loads(cli(db_url, "export", "ev").stdout)["players"] if p["dropped_round"] is not None}
    assert dropped == {"eve", "fay"}
    cli(db_url, "verify", "ev")


def test_t112_a_deadline_time_and_the_policy_after_round_1(db_url: str, tmp_path: Path) -> None:
    folder = made(db_url, tmp_path)
    cli(db_url, "decks", "ev", "--deadline", "2020-01-01T09:00Z")
    refused = cli(db_url, "decks", "ev", "--from", str(folder), code=service.EXIT_CONFLICT)
    assert "deadline" in refused.stderr
    from datetime import UTC, datetime, timedelta, timezone

    # half an hour ago, written in a zone five hours east: its wall clock reads hours ahead, and it is past all the same
    east = (datetime.now(UTC) - timedelta(minutes=30)).astimezone(timezone(timedelta(hours=5)))
    cli(db_url, "decks", "ev", "--deadline", east.strftime("%Y-%m-%dT%H:%M%z"))
    cli(db_url, "decks", "ev", "--from", str(folder), code=service.EXIT_CONFLICT)
    assert status(db_url) == dict.fromkeys(PLAYERS, "none")
    cli(db_url, "decks", "ev", "--policy", "dropped")
    said = cli(db_url, "decks", "ev", "--deadline", "2099-01-01T09:00+01:00").stdout
    assert "is dropped; the deadline is 2099-01-01 08:00 UTC" in said, said  # the policy stays; the time in UTC
    assert "is unpaired; the deadline is 2099-01-01 08:00 UTC" in cli(db_url, "decks", "ev", "--policy", "unpaired").stdout
    cli(db_url, "decks", "ev", "--from", str(folder))
    cli(db_url, "pair", "ev")
    assert "round 1" in cli(db_url, "decks", "ev", "--policy", "dropped", code=service.EXIT_CONFLICT).stderr
    cli(db_url, "decks", "ev", "--deadline", "2099-01-01T09:00", code=service.EXIT_USAGE)


def bad(db: str, tmp_path: Path, name: str, data: bytes, words: str, code: int = service.EXIT_USAGE) -> str:
    before = entries(db)
    path = tmp_path / name
    path.write_bytes(data)
    failed = cli(db, "deck", "ev", name.partition(".")[0], str(path), code=code)
    assert failed.stderr.count("\n") == 1 and "Traceback" not in failed.stderr, failed.stderr
    assert words in failed.stderr, failed.stderr
    assert entries(db) == before
    return failed.stderr


def test_bad_lists_are_one_line_naming_the_line_and_nothing_is_written(db_url: str, tmp_path: Path) -> None:
    made(db_url, tmp_path)
    good = list_text(deck_of("ann"))
    bad(db_url, tmp_path, "ann.txt", good.encode() + b"#" * (1 << 20), "more than 1 MiB, the most a deck list may hold", EXIT_TOO_LARGE)  # T-161
    unknown = good.replace(deck_of("ann").cards[3].name, "Nobody Knows Me", 1).split("\n")
    line = next(n for n, text in enumerate(unknown, start=1) if "Nobody Knows Me" in text)
    bad(db_url, tmp_path, "ann.txt", "\n".join(line.split(" (")[0] if "Nobody" in line else line for line in unknown).encode(),
        f"ann.txt line {line}, field card: unknown card 'Nobody Knows Me'")  # fmt: skip
    bad(db_url, tmp_path, "ann.txt", good.encode() + b"game: dothack\n", "field game: game is given twice")
    bad(db_url, tmp_path, "zed.txt", good.encode(), "'zed' is not a player of 'ev'", service.EXIT_NOT_FOUND)
    bad(db_url, tmp_path, "ann.txt", b"\xff\xfe", "not UTF-8")
    # T-111: a byte-order mark is dropped, not refused; the list kept is the text without it
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf" + good.encode())
    cli(db_url, "deck", "ev", "ann", str(tmp_path / "bom.txt"))
    kept = json.loads(cli(db_url, "log", "ev", "--json").stdout)[-1]["payload"]
    assert kept["text"] == good and status(db_url)["ann"] == "legal"


def test_duplicate_sections_are_refused_by_line(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev", "--ruleset", "stccg-multiplayer", "--best-of", "1", "--no-require-chain")
    cli(db_url, "register", "ev", "ann", "bob", "cat")
    text = "Seed deck\n1 Earth\nDraw deck\n1 Kirk\nSeed deck\n1 Risa\n"
    bad(db_url, tmp_path, "ann.txt", text.encode(), "ann.txt line 5, field section: the section Seed deck is given twice")


def test_a_folder_or_csv_is_all_or_nothing(db_url: str, tmp_path: Path) -> None:
    folder = made(db_url, tmp_path)
    (folder / "zed.txt").write_text(list_text(deck_of("ann")))
    failed = cli(db_url, "decks", "ev", "--from", str(folder), code=service.EXIT_NOT_FOUND)
    assert "zed.txt: 'zed' is not a player of 'ev'" in failed.stderr and failed.stderr.count("\n") == 1
    assert status(db_url) == dict.fromkeys(PLAYERS, "none")
    import csv
    import io

    rows = io.StringIO()
    writer = csv.writer(rows, lineterminator="\n")
    writer.writerow(["player", "list"])
    writer.writerow(["ann", list_text(deck_of("ann"))])
    writer.writerow(["bob", list_text(deck_of("bob")).replace("\n", "\nOdd Card\n", 2)])
    (tmp_path / "lists.csv").write_text(rows.getvalue())
    ann_lines = list_text(deck_of("ann")).count("\n") + 1
    failed = cli(db_url, "decks", "ev", "--from", str(tmp_path / "lists.csv"), code=service.EXIT_USAGE)
    assert f"lists.csv line {2 + ann_lines + 1}, field card: unknown card 'Odd Card'" in failed.stderr, failed.stderr
    assert status(db_url) == dict.fromkeys(PLAYERS, "none")
    writer.writerow(["cat", list_text(deck_of("cat"))])
    rows = io.StringIO()
    csv.writer(rows).writerows([["player", "list"], ["ann", list_text(deck_of("ann"))], ["cat", list_text(deck_of("cat"))]])
    (tmp_path / "lists.csv").write_text(rows.getvalue())
    cli(db_url, "decks", "ev", "--from", str(tmp_path / "lists.csv"))
    assert status(db_url)["cat"] == "legal"


def test_a_fixed_deck_game_takes_no_list(db_url: str, tmp_path: Path) -> None:
    made(db_url, tmp_path, ruleset="cardwars")
    (tmp_path / "ann.txt").write_text("1 Ace\n")
    failed = cli(db_url, "deck", "ev", "ann", str(tmp_path / "ann.txt"), code=service.EXIT_USAGE)
    assert "standard 54-card deck" in failed.stderr


def test_t114_t115_a_deck_that_differs_is_refused_into_the_judge_queue_and_ruled(db_url: str, tmp_path: Path) -> None:
    folder = made(db_url, tmp_path, players=["ann", "bob", "cat", "dan"])
    cli(db_url, "decks", "ev", "--from", str(folder))
    cli(db_url, "pair", "ev")
    first, second = tables(db_url, "ev")
    a, b = first["players"]
    where = Event(tournament="ev", round=1, table=1)
    cheat = tmp_path / "cheat.jsonl"
    cheat.write_bytes(crossover_log(a, b, 3, event=where, decks={b: swapped(deck_of(b))}))
    before = entries(db_url)
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(cheat), code=service.EXIT_LOG_REJECTED)
    last = next(c.name for c in reversed(deck_of(b).cards) if c.stats)
    assert f"{b}: {last}: registered" in refused.stderr and "waits for a judge" in refused.stderr
    assert entries(db_url) == before + 1  # the refusal is logged, no result
    assert tables(db_url, "ev")[0]["games"] is None
    as_json = cli(db_url, "report", "ev", "--table", "1", "--log", str(cheat), "--json", code=service.EXIT_LOG_REJECTED)
    found = json.loads(as_json.stdout)["deck_differences"]
    assert [(d["card"], d["change"]) for d in found[b]] == [(last, "stats")]
    assert entries(db_url) == before + 1  # the same refusal again adds nothing
    # the other table plays its own decks: accepted
    honest = tmp_path / "honest.jsonl"
    honest.write_bytes(crossover_log(*second["players"], 4, event=Event(tournament="ev", round=1, table=2)))
    cli(db_url, "report", "ev", "--table", "2", "--log", str(honest))
    cli(db_url, "pair", "ev", code=service.EXIT_RESULTS_MISSING)
    ruled = cli_json(db_url, "deck-ruling", "ev", "--table", "1", "--reason", "deck problem: game loss, as T-115")
    assert ruled["table"]["games"] == {a: 1, b: 0} and ruled["table"]["source"] == "judge"
    cli(db_url, "deck-ruling", "ev", "--table", "1", "--reason", "again", code=service.EXIT_CONFLICT)
    cli(db_url, "verify", "ev")


def test_a_judge_may_accept_the_refused_logs(db_url: str, tmp_path: Path) -> None:
    folder = made(db_url, tmp_path, players=["ann", "bob"])
    cli(db_url, "decks", "ev", "--from", str(folder))
    cli(db_url, "pair", "ev")
    (table,) = tables(db_url, "ev")
    a, b = table["players"]
    log = tmp_path / "g.jsonl"
    log.write_bytes(crossover_log(a, b, 5, decks={a: swapped(deck_of(a)), b: swapped(deck_of(b))}))
    cli(db_url, "report", "ev", "--table", "1", "--log", str(log), code=service.EXIT_LOG_REJECTED)
    both = cli(db_url, "deck-ruling", "ev", "--table", "1", "--reason", "x", code=service.EXIT_USAGE)
    assert "both decks" in both.stderr
    ruled = cli_json(db_url, "deck-ruling", "ev", "--table", "1", "--accept", "--reason", "both lists had a typo")
    assert ruled["table"]["source"] == "log" and sum(ruled["table"]["games"].values()) + ruled["table"]["draws"] == 1
    cli(db_url, "verify", "ev")


def test_publish_and_the_metagame_from_the_command_line(db_url: str, tmp_path: Path) -> None:
    folder = made(db_url, tmp_path, players=["ann", "bob", "cat", "dan"])
    cli(db_url, "decks", "ev", "--from", str(folder))
    cli(db_url, "pair", "ev")
    for table in tables(db_url, "ev"):
        cli(db_url, "report", "ev", "--table", str(table["table"]), "1-0")
    winners = {t["players"][0] for t in tables(db_url, "ev")}
    meta = cli_json(db_url, "meta", "ev")
    kinds = {k["kind"]: k for k in meta["kinds"]}
    assert meta["facet"] == "game" and sum(k["players"] for k in kinds.values()) == 4 and meta["unknown"] == 0
    game = {e["player"]: e["facets"]["game"] for e in cli_json(db_url, "decks", "ev")["players"]}
    for kind in kinds.values():  # mirrors left out: a kind's record counts only its matches against other kinds
        mine = [p for p in game if game[p] == kind["kind"]]
        assert kind["wins"] <= sum(p in winners for p in mine)
    cli(db_url, "meta", "ev", "-o", str(tmp_path / "meta.svg"))
    cli(db_url, "meta", "ev", "-o", str(tmp_path / "meta.html"))
    assert (tmp_path / "meta.svg").read_text().startswith("<svg") and "<svg" in (tmp_path / "meta.html").read_text()
    assert "players by game" in (tmp_path / "meta.html").read_text()
    cli(db_url, "meta", "ev", "-o", str(tmp_path / "meta.png"), code=service.EXIT_USAGE)
    cli(db_url, "decks", "ev", "-o", str(tmp_path / "lists.csv"))
    cli(db_url, "decks", "ev", "-o", str(tmp_path / "lists.json"))
    listed = json.loads((tmp_path / "lists.json").read_text())
    assert [e["text"] for e in listed] == [list_text(deck_of(p)) for p in ["ann", "bob", "cat", "dan"]]
    assert cli(db_url, "decks", "ev", "--publish").stdout.strip() == "ev: the lists are public"
    assert "already" in cli(db_url, "decks", "ev", "--publish").stdout
    assert json.loads(cli(db_url, "log", "ev", "--json").stdout)[-1]["type"] == "decks_published"
    cli(db_url, "verify", "ev")


def test_the_metagame_worked_by_hand() -> None:
    from tournament.formats.metagame import kinds_of

    decks = {"a": ("X", "L1"), "b": ("Y", "L2"), "c": ("X", "L1, L3"), "d": ("Z", "none")}
    tables: list[dict[str, Any]] = [{"a": "win", "b": "loss"}, {"c": "win", "a": "loss"}, {"d": "draw", "b": "draw"}, {"z": "win", "d": "loss"}]
    found = {k.kind: k for k in kinds_of(decks, tables, {"a"})}
    assert [k.kind for k in kinds_of(decks, tables, {"a"})] == ["X", "Y", "Z"]  # most played first
    x, y, z = found["X"], found["Y"], found["Z"]
    assert (x.players, x.top_cut, x.wins, x.losses, x.draws, x.win_rate, x.details) == (2, 1, 1, 0, 0, 1.0, ["L1", "L3"])
    assert (y.players, y.top_cut, y.wins, y.losses, y.draws, y.win_rate) == (1, 0, 0, 1, 1, 0.25)
    assert (z.wins, z.losses, z.draws, z.win_rate, z.details) == (0, 0, 1, 0.5, [])  # no kind known for z: no record


@pytest.mark.parametrize("ruleset", ["crossover", "basictcg-mtg"])
def test_the_demo_registers_each_bots_list_and_brings_it_to_every_game(db_url: str, tmp_path: Path, ruleset: str) -> None:
    ran = cli_json(db_url, "demo", "--ruleset", ruleset, "--players", "4", "--rounds", "2", "--best-of", "1", "--logs", str(tmp_path))
    shown = cli_json(db_url, "decks", ran["event"])
    assert [p["verdict"] for p in shown["players"]] == ["legal"] * 4 and shown["without_legal_list"] == []
    log = json.loads(cli(db_url, "log", ran["event"], "--json").stdout)
    assert sum(e["type"] == "deck_registered" for e in log) == 4
    assert not any(e["type"] == "decks_differ" for e in log)  # every game's decks are the lists
    assert sum(e["type"] == "result_reported" for e in log) == 4
    assert cli_json(db_url, "meta", ran["event"])["players"] == 4
    cli(db_url, "verify", ran["event"])


@pytest.mark.parametrize("ruleset", ["cardwars", "stccg-multiplayer"])
def test_a_demo_whose_decks_are_fixed_or_made_per_game_registers_none(db_url: str, tmp_path: Path, ruleset: str) -> None:
    ran = cli_json(db_url, "demo", "--ruleset", ruleset, "--players", "4", "--rounds", "1", "--best-of", "1", "--logs", str(tmp_path))
    log = json.loads(cli(db_url, "log", ran["event"], "--json").stdout)
    assert not any(e["type"].startswith("deck") for e in log)


def test_t115_a_pod_places_the_offender_last_and_keeps_the_others_order() -> None:
    from tournament.service.claims import _last_places

    assert _last_places({"a": 1, "b": 2, "c": 3, "d": 4}, {"b"}) == {"a": 1, "c": 2, "d": 3, "b": 4}
    assert _last_places({"a": 1, "b": 1, "c": 3}, {"a"}) == {"b": 1, "c": 2, "a": 3}
    assert _last_places({"a": 1, "b": 2, "c": 2, "d": 4}, {"a", "d"}) == {"b": 1, "c": 1, "a": 3, "d": 3}


def test_t115_a_pod_refused_for_a_deck_and_ruled_by_default(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev", "--ruleset", "crossover", "--format", "pods", "--table-size", "4", "--no-require-chain", "--seed", "3")
    cli(db_url, "register", "ev", "ann", "bob", "cat", "dan")
    cli(db_url, "decks", "ev", "--from", str(write_lists(tmp_path / "lists", ["ann", "bob", "cat", "dan"])))
    cli(db_url, "pair", "ev")
    (table,) = tables(db_url, "ev")
    seats = table["players"]
    offender = seats[1]
    log = tmp_path / "pod.jsonl"
    log.write_bytes(table_log(seats, 11, event=Event(tournament="ev", round=1, table=1), decks={offender: swapped(deck_of(offender))}))
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(log), code=service.EXIT_LOG_REJECTED)
    assert f"{offender}: " in refused.stderr
    ruled = cli_json(db_url, "deck-ruling", "ev", "--table", "1", "--reason", "deck problem")
    places = ruled["table"]["places"]
    others = [places[p] for p in seats if p != offender]
    assert places[offender] == 4 and max(others) <= 3 and min(others) == 1  # last; the others as the log placed them
    cli(db_url, "verify", "ev")


def test_an_event_with_lists_downgraded_and_upgraded_again_verifies(db_url: str, tmp_path: Path) -> None:
    """Migration 0012 rebuilds the lists, the policy, the deadline, the publication and the refusals from the log."""
    from tournament.storage.db import make_engine

    folder = made(db_url, tmp_path, players=["ann", "bob", "cat", "dan", "eve"], listed=["ann", "bob", "cat", "dan"])
    (folder / "dan.txt").write_text(list_text(deck_of("dan")).replace("game: ", "game: x"))
    cli(db_url, "decks", "ev", "--policy", "dropped")
    said = cli(db_url, "decks", "ev", "--deadline", "2099-01-01T09:00+01:00").stdout
    assert "is dropped; the deadline is 2099-01-01 08:00 UTC" in said, said  # the policy stays; the time in UTC
    assert "is unpaired; the deadline is 2099-01-01 08:00 UTC" in cli(db_url, "decks", "ev", "--policy", "unpaired").stdout
    cli(db_url, "decks", "ev", "--from", str(folder))
    cli(db_url, "pair", "ev")
    (first, *_) = tables(db_url, "ev")
    a, b = first["players"]
    log = tmp_path / "g.jsonl"
    log.write_bytes(crossover_log(a, b, 5, decks={a: swapped(deck_of(a))}))
    cli(db_url, "report", "ev", "--table", "1", "--log", str(log), code=service.EXIT_LOG_REJECTED)
    cli(db_url, "deck-ruling", "ev", "--table", "1", "--reason", "default")
    cli(db_url, "report", "ev", "--table", "1", "--log", str(log), code=service.EXIT_CONFLICT)  # a second refusal stays open
    cli(db_url, "decks", "ev", "--publish")
    before = cli_json(db_url, "decks", "ev")
    engine = make_engine(db_url)
    with engine.begin() as connection:
        downgrade(connection, "0011")
    engine.dispose()
    cli(db_url, "verify", "ev")  # every command migrates to the newest revision first
    assert cli_json(db_url, "decks", "ev") == before
