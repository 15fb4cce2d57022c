"""A dealt game counts only once its deal is verified (DL-R1; issue 33, hole 1), on SQLite and PostgreSQL.

The forged log is made as a cheat would: a dealt game with one draw swapped
for another card of the same deck, its `reveal` cut off and the chain made
again. `referee validate` still says `complete, deal: committed` (exit 0: a
game being played has no reveal yet), and every path by which a log becomes a
result refuses it: `tournament report --log`, a pod's report, a player's
upload (a claim with logs), and `tournament rejudge` for a log taken before.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgspec
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from referee.bots import bot_header, play
from referee.cli import app as referee_app
from referee.engine import judge
from referee.logio import (
    FINGERPRINT_SCHEME,
    encode_lines,
    game_fingerprint,
    line_hash,
    record_decoder,
    record_to_dict,
)
from tests.tournament.tlib import cli, cli_json, game_log, tables
from tests.tournament.webkit import client, codes, database, make_event, sign_in
from tournament import service
from tournament.storage.eventlog import GameRecord, ResultReported, append

SEED = "5eed" * 16  # the dealer's secret seed (64 hex digits)
REFUSAL = "its deal is committed, not verified: the reveal is missing"


def compact(line: dict[str, object]) -> bytes:
    return json.dumps(line, separators=(",", ":"), ensure_ascii=False).encode()


def chained(header: bytes, records: list[dict[str, object]]) -> bytes:
    """The header and the records, each record's `prev` made again from the line before it."""
    lines = [header]
    for record in records:
        lines.append(compact(record | {"prev": line_hash(lines[-1])}))
    return b"".join(line + b"\n" for line in lines)


def forged(data: bytes) -> bytes:
    """`data`, a dealt game, with one draw swapped for another card that could have come there, its reveal cut off
    and the chain made again, such that the referee still judges it a complete game."""
    header, *lines = data.splitlines()
    assert json.loads(lines[-1])["type"] == "reveal"
    records = [json.loads(line) for line in lines[:-1]]
    decode = record_decoder(json.loads(header)["ruleset"]).decode
    for at in reversed([n for n, r in enumerate(records) if r["by"] == "chance"]):  # the last draws disturb least
        before = judge([header, *lines[:at]])
        assert before.ruleset is not None
        made = record_to_dict(decode(lines[at]))
        for option in before.ruleset.chance_options(before.state, decode(lines[at])):
            other = record_to_dict(option)
            if other == made:
                continue
            attempt = chained(header, [*records[:at], records[at] | other, *records[at + 1 :]])
            verdict = judge(attempt.splitlines()).verdict
            if verdict.verdict == "complete":
                assert verdict.deal == "committed"
                return attempt
    raise AssertionError("no draw of this game can be swapped and leave it complete")


def revealed(data: bytes, original: bytes) -> bytes:
    """A forged log with the original's reveal put back (chained): what the dealer's seed says of it."""
    header, *lines = data.splitlines()
    reveal = json.loads(original.splitlines()[-1])
    return chained(header, [*(json.loads(line) for line in lines), reveal])


def dealt_game(a: str, b: str) -> tuple[bytes, bytes]:
    """A dealt bot game between a and b, and its forgery."""
    genuine = game_log(a, b, 3, deal=SEED)
    return genuine, forged(genuine)


def test_the_forged_log_is_complete_and_committed_to_the_referee_and_illegal_once_revealed() -> None:
    genuine, fake = dealt_game("ann", "bob")
    checked = CliRunner().invoke(referee_app, ["validate", "-", "--json"], input=fake)
    assert checked.exit_code == 0, checked.output  # DL-R1: judged by the rules, its draws not yet proven
    verdict = json.loads(checked.stdout)
    assert (verdict["verdict"], verdict["deal"], verdict["chain"]) == ("complete", "committed", "verified")
    shown = judge(revealed(fake, genuine).splitlines()).verdict
    assert shown.verdict == "illegal" and shown.error is not None and shown.error.rule == "DL-2", "the swapped draw is not the seed's"


def test_report_log_refuses_a_dealt_log_without_its_reveal(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev", "--seed", "1")
    cli(db_url, "register", "ev", "ann", "bob")
    cli(db_url, "pair", "ev")
    (a, b), = (t["players"] for t in tables(db_url, "ev"))
    genuine, fake = dealt_game(a, b)
    (tmp_path / "fake.jsonl").write_bytes(fake)
    refused = cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "fake.jsonl"), code=service.EXIT_LOG_REJECTED)
    assert refused.stderr.strip().splitlines() == [f"tournament: {tmp_path / 'fake.jsonl'}: {REFUSAL}"]
    assert cli_json(db_url, "pairings", "ev")["tables"][0]["games"] is None
    (tmp_path / "genuine.jsonl").write_bytes(genuine)
    cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "genuine.jsonl"))  # revealed: verified, taken


def test_a_pods_report_refuses_a_dealt_log_without_its_reveal(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat"], format="pods", table_size=3, ruleset="maginot")
    header = bot_header("maginot", 5, players=3, deal=SEED)
    genuine = b"".join(line + b"\n" for line in encode_lines(header, play(header, 5, SEED)))
    with database(db_url) as engine, Session(engine) as session, session.begin():
        try:
            service.report_pod(session, "ev", 1, logs=[("pod.jsonl", forged(genuine))])
        except service.LogRejected as exc:
            assert exc.message == f"pod.jsonl: {REFUSAL}"
        else:
            raise AssertionError("a pod's dealt log without its reveal was taken")


def test_a_players_upload_of_a_dealt_log_without_its_reveal_is_refused(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    keys = codes(db_url)
    with database(db_url) as engine, Session(engine) as session:
        (a, b), = ([m.player_a, m.player_b] for m in service.matches(session, "ev", 1))
    _genuine, fake = dealt_game(a, b)
    with client(db_url) as c:
        ann = sign_in(c, keys["ann"])
        answer = c.post("/api/me/logs", headers=ann, files={"log": ("fake.jsonl", fake)})
        assert answer.status_code == 422, answer.text  # as any log the referee refuses
        assert answer.json()["error"].endswith(REFUSAL) and "\n" not in answer.json()["error"]
        assert c.get("/api/events/ev/round").json()["tables"][0]["games"] is None


def test_rejudge_names_a_stored_dealt_log_without_its_reveal(db_url: str) -> None:
    """A log taken before DL-R1 was enforced: `tournament rejudge` lists its table as refused, with the rule."""
    make_event(db_url, ["ann", "bob"])
    with database(db_url) as engine, Session(engine) as session, session.begin():
        (match,) = service.matches(session, "ev", 1)
        _genuine, fake = dealt_game(match.player_a, match.player_b)
        won = judge(fake.splitlines()).verdict.result
        assert won is not None
        winner = won.winners[0] if len(won.winners) == 1 else None
        games = {p: int(p == winner) for p in (match.player_a, match.player_b)}
        record = GameRecord(hashlib.sha256(fake).hexdigest(), winner, fake, game_fingerprint(fake), FINGERPRINT_SCHEME)
        append(session, "ev", ResultReported(1, 1, games, int(winner is None), "log", None, [record]))
    found = cli(db_url, "rejudge", "ev", code=service.EXIT_VERIFY_FAILED)
    assert f"now refused: {REFUSAL} (DL-R1)" in found.stdout
    (table,) = msgspec.json.decode(cli(db_url, "rejudge", "ev", "--json", code=service.EXIT_VERIFY_FAILED).stdout)
    assert [(g["verdict"], g["rule"], g["now"]) for g in table["games"]] == [("complete", "DL-R1", "refused")]
