"""One game counts once however its header is written (issue 23, defect 1; T-45), and events from before keep verifying.

The issue's variants, each a log the referee judges exactly as the original: `report --log g1 --log g1-copy`
scored 2-0 from one game for five of them. Now the second log is refused as the same game (exit 6).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from sqlalchemy import text

from referee import logio
from referee.bots import play
from referee.logio import (
    HEADER_DECODER,
    encode_lines,
    game_fingerprint,
    record_decoder,
    record_to_dict,
    strip_ending,
)
from referee.rulesets import get as get_ruleset
from schemas.log import LOG_FORMAT, Header
from tests.tournament.tlib import cli, cli_json, downgrade, game_log, rewrite_log, tables, winner
from tournament.storage.db import make_engine

Variant = Callable[[dict[str, Any]], None]  # changes a header in place


def compact(line: dict[str, Any]) -> bytes:
    return json.dumps(line, separators=(",", ":"), ensure_ascii=False).encode()


def rechained(data: bytes, change: Variant) -> bytes:
    """The log with its header changed and every `prev` computed again, as a cheater would."""
    header, *records = (json.loads(line) for line in data.splitlines())
    change(header)
    lines = [compact(header)]
    for record in records:
        record["prev"] = hashlib.sha256(lines[-1]).hexdigest()
        lines.append(compact(record))
    return b"".join(line + b"\n" for line in lines)


def swap_seats(header: dict[str, Any]) -> None:
    header["players"].reverse()


def suits_turned(header: dict[str, Any]) -> None:
    header["setup"]["suits"] = {p: s[::-1] for p, s in header["setup"]["suits"].items()}


def defaults_written_out(header: dict[str, Any]) -> None:
    header["setup"] |= {"scenario": "act_threshold", "hand": 5} | ({} if "threshold" in header["setup"] else {"threshold": 15})


def empty_traits_and_stats(header: dict[str, Any]) -> None:
    for deck in header["setup"]["decks"].values():
        for card in deck["cards"]:
            card.setdefault("traits", [])
            card.setdefault("stats", {})


VARIANTS = [
    ("cardwars", suits_turned),
    ("basictcg-mtg", defaults_written_out),
    ("basictcg-mtg", swap_seats),
    ("crossover", empty_traits_and_stats),
    ("crossover", swap_seats),
]


def decisive_game(a: str, b: str, ruleset: str) -> bytes:
    return next(data for seed in range(1, 60) if winner(data := game_log(a, b, seed, ruleset=ruleset)) is not None)


@pytest.mark.parametrize(("ruleset", "variant"), VARIANTS, ids=[f"{r}-{v.__name__}" for r, v in VARIANTS])
def test_one_game_written_otherwise_cannot_count_twice(db_url: str, tmp_path: Path, ruleset: str, variant: Variant) -> None:
    # Issue 23, defect 1 (fails on 0552c76: the report scored 2-0, exit 0).
    cli(db_url, "create", "ev", "--ruleset", ruleset, "--best-of", "3", "--seed", "1")
    cli(db_url, "register", "ev", "ann", "bob")
    cli(db_url, "pair", "ev")
    (a, b), = (t["players"] for t in tables(db_url, "ev"))
    first = decisive_game(a, b, ruleset)
    copy = rechained(first, variant)
    assert copy != first
    (tmp_path / "g1.jsonl").write_bytes(first)
    (tmp_path / "g1-copy.jsonl").write_bytes(copy)
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "g1.jsonl"), "--log", str(tmp_path / "g1-copy.jsonl"), code=6)
    assert "the same game is given twice" in refused.stderr
    assert cli_json(db_url, "pairings", "ev")["tables"][0]["games"] is None


def scheme_1_fingerprint(data: bytes) -> str:
    """How a fingerprint was taken before scheme 2: the header's setup as written, the players in order, the records."""
    lines = [strip_ending(line) for line in data.splitlines()]
    header = HEADER_DECODER.decode(lines[0])
    decode = record_decoder(header.ruleset).decode
    records = [record_to_dict(decode(line)) for line in lines[1:] if line]
    game = [header.ruleset, header.players, msgspec.json.decode(header.setup), records]
    return hashlib.sha256(msgspec.json.encode(game, order="sorted")).hexdigest()


def as_before(db: str, revision: str, logs: dict[str, bytes], scheme: int, fingerprint: Callable[[bytes], str]) -> None:
    """Make the database what older code left: every stored fingerprint of an older `scheme`, taken by
    `fingerprint`, in the entries (chain redone as that code computed it) and in the tables, and the schema at
    `revision`, the migrations after it undone."""

    def older(_seq: int, kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        if kind not in ("result_reported", "result_corrected"):
            return None
        for record in payload["logs"]:
            record.pop("scheme", None)
            if scheme > 1:  # an entry of scheme 1 names none
                record["scheme"] = scheme
            record["fingerprint"] = fingerprint(logs[record["sha256"]])
        return payload

    engine = make_engine(db)
    with engine.begin() as connection:
        downgrade(connection, revision)
    with engine.begin() as connection:
        rewrite_log(connection, "ev", older)
        for sha, data in logs.items():
            connection.execute(text("UPDATE game_logs SET fingerprint = :f WHERE sha256 = :s"), {"f": fingerprint(data), "s": sha})
    engine.dispose()


def as_before_0009(db: str, logs: dict[str, bytes]) -> None:
    as_before(db, "0008", logs, 1, scheme_1_fingerprint)


def test_an_event_recorded_before_scheme_2_verifies_and_still_counts_each_game_once(db_url: str, tmp_path: Path) -> None:
    # T-45: an event whose entries hold fingerprints of the first scheme verifies after migration 0009, and its
    # games are still recognised (the check reads a log stored without a current fingerprint).
    cli(db_url, "create", "ev", "--seed", "1", "--best-of", "1")
    cli(db_url, "register", "ev", "ann", "bob")
    cli(db_url, "pair", "ev")
    (a, b), = (t["players"] for t in tables(db_url, "ev"))
    old = decisive_game(a, b, "cardwars")
    (tmp_path / "g.jsonl").write_bytes(old)
    cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "g.jsonl"))
    as_before_0009(db_url, {hashlib.sha256(old).hexdigest(): old})
    assert "chain intact" in cli(db_url, "verify", "ev").stdout  # the first command migrates to 0009, then verifies
    cli(db_url, "pair", "ev")  # round 2: a rematch
    (tmp_path / "again.jsonl").write_bytes(rechained(old, suits_turned))  # the same game, its suits the other way round
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "again.jsonl"), code=5)
    assert "table 1, round 1 was already reported with this game's log" in refused.stderr
    assert "chain intact" in cli(db_url, "verify", "ev").stdout


def pod_game(players: list[str], seed: int) -> bytes:
    """A bot game of crossover at one pod, its seats in the pod's order."""
    setup = get_ruleset("crossover").default_setup(players, random.Random(seed))
    header = Header(log=LOG_FORMAT, ruleset="crossover", game=f"pod-{seed}", players=players, setup=msgspec.Raw(msgspec.json.encode(setup)))
    return b"".join(line + b"\n" for line in encode_lines(header, play(header, seed)))


def test_one_game_with_its_seats_turned_cannot_decide_another_pod(db_url: str, tmp_path: Path) -> None:
    # The same three players meet again in round 2: their round-1 game, listed from another seat, is refused (exit 5).
    cli(db_url, "create", "ev", "--format", "pods", "--ruleset", "crossover", "--table-size", "3", "--seed", "1")
    cli(db_url, "register", "ev", "ann", "bob", "cat")
    cli(db_url, "pair", "ev")
    seats = tables(db_url, "ev")[0]["players"]
    game = pod_game(seats, 1)
    (tmp_path / "g.jsonl").write_bytes(game)
    cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "g.jsonl"))
    cli(db_url, "pair", "ev")

    def turned(header: dict[str, Any]) -> None:
        header["players"] = header["players"][1:] + header["players"][:1]

    (tmp_path / "again.jsonl").write_bytes(rechained(game, turned))
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "again.jsonl"), code=5)
    assert "table 1 of round 1 was already reported with this game's log" in refused.stderr


def scheme_2_fingerprint(data: bytes, monkeypatch: pytest.MonkeyPatch) -> str:
    """How a fingerprint was taken before scheme 3: maginot's attacking units in the order written (T-148)."""
    with monkeypatch.context() as patch:
        patch.setattr(logio, "FINGERPRINT_SCHEME", 2)
        patch.setattr(type(get_ruleset("maginot")), "unordered", {})
        return game_fingerprint(data)


def units_reversed(data: bytes) -> bytes:
    """The log with every maginot `attack`'s units the other way round, chained again."""
    header, *records = (json.loads(line) for line in data.splitlines())
    lines = [compact(header)]
    for record in records:
        if record["type"] == "attack":
            record["units"].reverse()
        record["prev"] = hashlib.sha256(lines[-1]).hexdigest()
        lines.append(compact(record))
    return b"".join(line + b"\n" for line in lines)


def test_an_event_recorded_before_scheme_3_verifies_and_still_counts_each_game_once(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # T-148: entries and tables holding fingerprints of scheme 2 verify after migration 0015 (it clears the
    # tables' copies, as the projection leaves them), and the game is still recognised with its units reversed.
    cli(db_url, "create", "ev", "--seed", "1", "--best-of", "1", "--ruleset", "maginot")
    cli(db_url, "register", "ev", "ann", "bob")
    cli(db_url, "pair", "ev")
    (a, b), = (t["players"] for t in tables(db_url, "ev"))
    old = decisive_game(a, b, "maginot")
    assert scheme_2_fingerprint(old, monkeypatch) != scheme_2_fingerprint(units_reversed(old), monkeypatch)  # two games then
    (tmp_path / "g.jsonl").write_bytes(old)
    cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "g.jsonl"))
    as_before(db_url, "0013", {hashlib.sha256(old).hexdigest(): old}, 2, lambda data: scheme_2_fingerprint(data, monkeypatch))
    assert "chain intact" in cli(db_url, "verify", "ev").stdout  # the first command migrates to 0015, then verifies
    cli(db_url, "pair", "ev")  # round 2: a rematch
    (tmp_path / "again.jsonl").write_bytes(units_reversed(old))
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "again.jsonl"), code=5)
    assert "table 1, round 1 was already reported with this game's log" in refused.stderr
    assert "chain intact" in cli(db_url, "verify", "ev").stdout
