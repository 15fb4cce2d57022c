"""An agreed take-back and a scorekeeper's page at a live table (issue 37; TB-R1 to TB-R3, T-200 to T-202)."""

from __future__ import annotations

import io
import random

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from referee.engine import judge
from referee.ruleset import JUDGE
from tests.tournament.tablelib import live_event, look, play_game
from tournament import service
from tournament.service import livetable
from tournament.storage.models import LiveGame


def record(engine: Engine, seat: str, data: dict[str, object]) -> None:
    with Session(engine) as session, session.begin():
        livetable.append(session, "ev", 1, seat, data, look(engine, seat).seq)


def refused(engine: Engine, seat: str, data: dict[str, object]) -> str:
    with pytest.raises(livetable.Refused) as caught, Session(engine) as session, session.begin():
        livetable.append(session, "ev", 1, seat, data, look(engine, seat).seq)
    return caught.value.rule or ""


def log_of(engine: Engine) -> bytes:
    with Session(engine) as session:
        game = session.get(LiveGame, ("ev", 1, 1, 1))
        assert game is not None
        return livetable.log_bytes(session, game)


def test_a_take_back_asked_and_agreed_at_a_paper_table(db_url: str) -> None:
    engine = live_event(db_url)
    first = look(engine, "ann")
    draw = next(r for r in first.legal if r["type"] == "draw")
    record(engine, "ann", draw)
    ann, bob = look(engine, "ann"), look(engine, "bob")
    assert ann.take_backs == [{"type": "take_back", "by": "ann", "record": 1}] and bob.take_backs == []
    assert refused(engine, "bob", {"type": "agree_take_back", "by": "bob", "record": 1}) == "TB-R2"  # nothing asked
    assert refused(engine, "bob", {"type": "take_back", "by": "bob", "record": 1}) == "TB-R1"  # not bob's
    record(engine, "ann", ann.take_backs[0])
    ann, bob = look(engine, "ann"), look(engine, "bob")
    assert ann.take_backs == [] and bob.take_backs == [{"type": "agree_take_back", "by": "bob", "record": 1}]
    assert [r["type"] for r in bob.records][-1] == "take_back", "bob sees the ask"
    assert refused(engine, "ann", {"type": "agree_take_back", "by": "ann", "record": 1}) == "TB-R2"  # not her own
    record(engine, "bob", bob.take_backs[0])
    ann = look(engine, "ann")
    assert ann.withdrawn == [1] and look(engine, "bob").withdrawn == [1]
    assert ann.state == first.state and ann.legal == first.legal, "the game is as if the draw had not been made"
    other = next(r for r in ann.legal if r["type"] == "draw" and r != draw)
    record(engine, "ann", other)
    end = play_game(engine)
    assert end.reported and judge(io.BytesIO(log_of(engine))).verdict.verdict == "complete"


def test_a_judge_withdraws_a_record_with_a_reason(db_url: str) -> None:
    engine = live_event(db_url)
    drawn = next(r for r in look(engine, "ann").legal if r["type"] == "draw")
    record(engine, "ann", drawn)
    before = look(engine, "ann")
    played = next(r for r in before.legal if r.get("card") == drawn["card"])  # the card just drawn, played
    record(engine, "ann", played)
    with pytest.raises(service.Usage), Session(engine) as session, session.begin():  # a withdrawal names its reason
        livetable.append(session, "ev", 1, JUDGE, {"type": "withdraw", "by": JUDGE, "record": 2, "reason": ""}, 2)
    assert refused(engine, "ann", {"type": "withdraw", "by": JUDGE, "record": 2, "reason": "mine"}) == "T-81"
    # the draw cannot go while the record that played its card stands: refused at the withdrawal, naming both
    with pytest.raises(livetable.Refused) as caught, Session(engine) as session, session.begin():
        livetable.append(session, "ev", 1, JUDGE, {"type": "withdraw", "by": JUDGE, "record": 1, "reason": "r"}, 2)
    assert caught.value.rule == "TB-R3" and "without record 1, record 2 breaks" in caught.value.message
    record(engine, JUDGE, {"type": "withdraw", "by": JUDGE, "record": 2, "reason": "Ann tapped the wrong card"})
    after = look(engine, "bob")
    assert after.withdrawn == [2] and after.records[-1]["reason"] == "Ann tapped the wrong card"
    assert look(engine, "ann").state == before.state and look(engine, "ann").legal == before.legal


def test_a_scorekeepers_page_records_a_whole_game_for_both_seats(db_url: str) -> None:
    engine = live_event(db_url)
    assert {"type": "keeper", "by": JUDGE, "device": "ann"} in look(engine, JUDGE).legal
    record(engine, JUDGE, {"type": "keeper", "by": JUDGE, "device": "ann"})
    assert look(engine, "bob").legal == [] and look(engine, "ann").keeper == "ann"
    draw = next(r for r in look(engine, "ann").legal if r["type"] == "draw")
    assert refused(engine, "bob", draw | {"player": "bob"}) == "T-200"
    rng, made_for = random.Random(1), set()
    for _ in range(400):
        view = look(engine, "ann")
        if view.over:
            break
        chosen = rng.choice([r for r in view.legal if r["type"] != "concede"] or view.legal)
        made_for.add(chosen.get("player", chosen["by"]))
        record(engine, "ann", chosen)
    else:
        record(engine, JUDGE, {"type": "time", "by": JUDGE})
    assert made_for == {"ann", "bob"}, "ann's page recorded for both seats"
    assert not look(engine, JUDGE).reported, "not reported until each player confirms on their own page"
    end = play_game(engine)  # each player confirms the last line themselves
    assert end.reported
    log = log_of(engine)
    assert b'{"type":"keeper","device":"ann","seq":1,"by":"judge"' in log, "the log says which page recorded"
    assert judge(io.BytesIO(log)).verdict.verdict == "complete"
