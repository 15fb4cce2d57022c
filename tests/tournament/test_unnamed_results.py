"""A paper table's log with unnamed draws is a result (T-196); a dealt game's log never holds one (T-197).

On SQLite and PostgreSQL: `tournament report --log`, a pod's report and a paper table's live log take a
complete log whose draws leave out their cards, as any complete log; a player's upload of a dealt log with an
unnamed draw is refused at that draw under DL-4.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from referee.bots import bot_header, play, unnamed
from referee.engine import judge
from referee.logio import HEADER_DECODER, encode_lines, record_decoder
from schemas.table import TableView
from tests.tournament.tablelib import any_legal, live_event, play_game
from tests.tournament.test_dealt_results import SEED, chained
from tests.tournament.tlib import cli, cli_json, game_log, tables
from tests.tournament.webkit import client, codes, database, make_event, sign_in
from tournament import service
from tournament.service import livetable
from tournament.storage.models import LiveGame


def on_paper(data: bytes) -> bytes:
    """`data`, a bot game's log, recorded as a paper table may: every draw the game allows left unnamed."""
    header_line, *lines = data.splitlines()
    header = HEADER_DECODER.decode(header_line)
    decode = record_decoder(header.ruleset).decode
    records = [decode(line) for line in lines]
    return b"".join(line + b"\n" for line in encode_lines(header, unnamed(header, records)))


def test_report_log_takes_a_paper_log_with_unnamed_draws(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev", "--seed", "1")
    cli(db_url, "register", "ev", "ann", "bob")
    cli(db_url, "pair", "ev")
    (a, b), = (t["players"] for t in tables(db_url, "ev"))
    paper = on_paper(game_log(a, b, 3))
    verdict = judge(paper.splitlines()).verdict
    assert verdict.verdict == "complete" and verdict.unnamed_draws > 0
    (tmp_path / "paper.jsonl").write_bytes(paper)
    cli(db_url, "report", "ev", "--table", "1", "--log", str(tmp_path / "paper.jsonl"))
    games = cli_json(db_url, "pairings", "ev")["tables"][0]["games"]
    assert games is not None and sum(games.values()) == len(verdict.result.winners)


def test_a_pods_report_takes_a_paper_log_with_unnamed_draws(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat"], format="pods", table_size=3, ruleset="maginot")
    header = bot_header("maginot", 5, players=3)
    paper = b"".join(line + b"\n" for line in encode_lines(header, unnamed(header, list(play(header, 5)))))
    verdict = judge(paper.splitlines()).verdict
    assert verdict.unnamed_draws > 0 and verdict.result is not None
    with database(db_url) as engine, Session(engine) as session, session.begin():
        taken = service.report_pod(session, "ev", 1, logs=[("pod.jsonl", paper)])
        assert taken.changed and {s.player: s.place for s in taken.seats} == verdict.result.placements


def unnamed_draws(view: TableView, rng: random.Random) -> dict[str, Any]:
    """A player at a paper table who records every draw as "a card", and anything else as it comes."""
    record = dict(any_legal(view, rng))
    if record["type"] == "draw":
        record.pop("card", None)
    return record


def test_a_paper_tables_live_log_with_unnamed_draws_is_its_result(db_url: str) -> None:
    engine = live_event(db_url, mode="paper", ruleset="cardwars")
    final = play_game(engine, choose=unnamed_draws, limit=120)
    assert final.over and final.reported
    with Session(engine) as session:
        game = session.get(LiveGame, ("ev", 1, 1, 1))
        assert game is not None
        verdict = judge(livetable.log_bytes(session, game).splitlines()).verdict
        assert verdict.verdict == "complete" and verdict.deal is None and verdict.unnamed_draws > 0
        assert service.matches(session, "ev", 1)[0].source == "log"
    engine.dispose()


def test_a_dealt_log_with_an_unnamed_draw_is_refused_under_dl4(db_url: str) -> None:
    """T-197: the reveal proves the draws only of a log that names them; the refusal names DL-4 and the draw."""
    make_event(db_url, ["ann", "bob"])
    keys = codes(db_url)
    with database(db_url) as engine, Session(engine) as session:
        (a, b), = ([m.player_a, m.player_b] for m in service.matches(session, "ev", 1))
    header, *lines = game_log(a, b, 3, deal=SEED).splitlines()
    records = [json.loads(line) for line in lines]
    at = next(n for n, r in enumerate(records) if r["type"] == "draw")
    del records[at]["card"]
    dealt = chained(header, records)
    with client(db_url) as c:
        answer = c.post("/api/me/logs", headers=sign_in(c, keys["ann"]), files={"log": ("dealt.jsonl", dealt)})
        assert answer.status_code == 422, answer.text
        assert f"record {at + 1} " in answer.json()["error"] and "DL-4" in answer.json()["error"]
        assert c.get("/api/events/ev/round").json()["tables"][0]["games"] is None
