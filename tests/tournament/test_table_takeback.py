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
from tests.tournament.webkit import ORGANISER_TOKEN, client, database, organiser, sign_in
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
    drawn = next(r for r in look(engine, "ann").legal if r["type"] == "draw" and "card" in r)
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


def test_a_scorekeepers_phone_records_for_both_and_each_player_confirms_with_their_own_session(db_url: str) -> None:
    """Through the web API: the organiser lets ann's phone keep the table; it records the whole game for both
    seats, bob's own session is refused a record (T-200), and each player confirms the end with their own session."""
    codes = web_event(db_url)
    with client(db_url) as c:
        heads = {p: sign_in(c, codes[p]) for p in ("ann", "bob")}
        judge = organiser(c)
        at = c.get(TABLE, headers=judge).json()
        answer = c.post(f"{TABLE}/records", json={"after": at["seq"], "record": {"type": "keeper", "by": JUDGE, "device": "ann"}},
                        headers=judge)
        assert answer.status_code == 201, answer.text
        rng = random.Random(3)
        for _ in range(400):
            view = c.get(TABLE, headers=heads["ann"]).json()
            if view["over"]:
                break
            bob = c.get(TABLE, headers=heads["bob"]).json()
            assert bob["legal"] == [] and bob["keeper"] == "ann"
            chosen = rng.choice([r for r in view["legal"] if r["type"] != "concede"])
            if chosen.get("player", chosen["by"]) == "bob":
                refused = c.post(f"{TABLE}/records", json={"after": view["seq"], "record": chosen}, headers=heads["bob"])
                assert refused.status_code == 422 and refused.json()["rule"] == "T-200"
            answer = c.post(f"{TABLE}/records", json={"after": view["seq"], "record": chosen}, headers=heads["ann"])
            assert answer.status_code == 201, answer.text
        end = c.get(TABLE, headers=heads["ann"]).json()
        assert end["over"]
        first = c.post(f"{TABLE}/confirm", json={"game": end["game"], "seq": end["seq"]}, headers=heads["ann"])
        assert first.json() == {"reported": False}, "ann's confirmation is hers only"
        second = c.post(f"{TABLE}/confirm", json={"game": end["game"], "seq": end["seq"]}, headers=heads["bob"])
        assert second.json() == {"reported": True}


TABLE = "/api/events/ev/tables/1"


def web_event(db_url: str) -> dict[str, str]:
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.create_event(session, "ev", name="ev", ruleset="cardwars", profile="mtg", best_of=1, seed=7, tables="paper")
        service.register(session, "ev", ["ann", "bob"])
        service.pair(session, "ev")
        service.ensure_organiser(session, ORGANISER_TOKEN)
        return {p: service.issue_code(session, "ev", p) for p in ("ann", "bob")}


def test_a_paper_draw_is_offered_without_its_card_first_and_can_be_taken_back(db_url: str) -> None:
    """Once draws may leave their card out (docs/referee.md, UD-1), the paper seat's first offer is "a card"."""
    engine = live_event(db_url)
    first = look(engine, "ann")
    assert first.legal[0] == {"type": "draw", "by": "chance", "player": "ann"}
    assert sum(1 for r in first.legal if "card" not in r and r["type"] == "draw") == 1
    record(engine, "ann", first.legal[0])
    assert look(engine, "bob").records[-1] == {"type": "draw", "by": "chance", "player": "ann", "seq": 1}
    record(engine, "ann", look(engine, "ann").take_backs[0])
    record(engine, "bob", look(engine, "bob").take_backs[0])
    assert look(engine, "ann").legal == first.legal and look(engine, "ann").withdrawn == [1]
