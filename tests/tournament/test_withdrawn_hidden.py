"""A record taken back or withdrawn at a live table shows no other seat a card it kept face down (SG/MG hidden
information, T-201): the record stays in the log, its card back in its owner's hand."""

from __future__ import annotations

import random

from sqlalchemy.orm import Session

from referee.ruleset import JUDGE
from tests.tournament.tablelib import live_event, look
from tournament.service import livetable


def test_a_withdrawn_face_down_build_stays_hidden_from_the_other_seat(db_url: str) -> None:
    engine = live_event(db_url, mode="paper", ruleset="maginot")
    rng = random.Random(3)
    for _ in range(300):
        judge_view = look(engine, JUDGE)
        actors = [p for p in judge_view.players if p in judge_view.to_act] or judge_view.players
        views = [v for v in (look(engine, p) for p in actors) if v.legal]
        view = rng.choice(views)
        builds = [r for r in view.legal if r["type"] == "build"]
        named = [r for r in view.legal if not (r.get("type") == "draw" and "card" not in r)]
        data = builds[0] if builds else rng.choice(named)
        with Session(engine) as session, session.begin():
            livetable.append(session, "ev", 1, view.seat, data, view.seq)
        if builds:
            break
    else:
        raise AssertionError("no build in 300 records")
    builder, card = view.seat, data["card"]
    other = next(p for p in judge_view.players if p != builder)
    seq = look(engine, JUDGE).seq
    assert look(engine, other).records[-1].get("card") is None, "a face-down build is hidden from the other seat"
    with Session(engine) as session, session.begin():
        livetable.append(session, "ev", 1, JUDGE, {"type": "withdraw", "by": JUDGE, "record": seq, "reason": "r"}, seq)
    after = look(engine, other)
    assert after.withdrawn == [seq]
    withdrawn = next(r for r in after.records if r.get("seq") == seq)
    assert withdrawn.get("card") is None, f"the withdrawn build shows {other} the card {card} back in {builder}'s hand"


def test_a_paper_seat_is_never_offered_a_dilemma_another_player_seeded(db_url: str) -> None:
    """SG-11.3 (`Ruleset.seat_legal`): a player learns a dilemma by meeting it, so the buttons of an encounter
    name only dilemmas the seat seeded itself; the live table listed every legal encounter."""
    engine = live_event(db_url, mode="paper", ruleset="stccg-multiplayer")
    rng = random.Random(1)
    encounters = 0
    for _ in range(90):
        judge_view = look(engine, JUDGE)
        if judge_view.over:
            break
        under = {place: {(d["card"], d["by"]) for d in loc.get("dilemmas", [])}
                 for place, loc in judge_view.state["grid"].items() if isinstance(loc, dict)}
        actors = [p for p in judge_view.players if p in judge_view.to_act] or judge_view.players
        views = [v for v in (look(engine, p) for p in actors) if v.legal]
        for v in views:
            for r in v.legal:
                if r["type"] == "encounter":
                    encounters += 1
                    assert (r["card"], v.seat) in under[r["place"]], f"{v.seat} is offered another's dilemma: {r}"
        view = rng.choice(views)
        named = [r for r in view.legal if not (r.get("type") == "draw" and "card" not in r)]
        with Session(engine) as session, session.begin():
            livetable.append(session, "ev", 1, view.seat, rng.choice(named), view.seq)
    assert encounters, "the game reached an encounter"
