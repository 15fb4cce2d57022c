"""Scores and places that cannot be are refused at every door, with one message (issue 22, defect 2; T-67).

The service's checks are compared with oracles built from the rules, not from
the checks: every tally a best of N can reach game by game, and every ranking
of a pod's players with ties.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from sqlalchemy.orm import Session

from tests.tournament.tlib import cli
from tests.tournament.webkit import (
    client,
    codes,
    database,
    head,
    make_event,
    organiser,
    sign_in,
    tables,
)
from tournament import service
from tournament.storage.models import Event, Match


def reachable(best_of: int, bracket: bool) -> set[tuple[int, int, int]]:
    """Every (a, b, draws) a match can stand at when it ends: games are played one at a time (a win for either,
    or a draw) until someone has the wins a best of N needs, or N games are played; a bracket match tied after
    N goes on (here: at most N games more, T-67). A match may also stop early (time, a concession); and 0-0 is
    an intentional draw."""
    need = best_of // 2 + 1
    seen, todo = {(0, 0, 0)}, [(0, 0, 0)]
    while todo:
        a, b, d = todo.pop()
        played = a + b + d
        over = max(a, b) >= need or (played >= best_of and not (bracket and a == b))
        if over or played >= 2 * best_of:
            continue
        for step in ((a + 1, b, d), (a, b + 1, d), (a, b, d + 1)):
            if step not in seen:
                seen.add(step)
                todo.append(step)
    if bracket:  # a bracket match needs a winner: a tie is no result, not even 0-0
        return {(a, b, d) for a, b, d in seen if a != b}
    return seen


def test_a_typed_result_is_one_a_best_of_n_can_end_with() -> None:
    for best_of, bracket in itertools.product((1, 3, 5), (False, True)):
        event = Event(id="ev", best_of=best_of, format="single" if bracket else "swiss", bracket_round=1 if bracket else None)
        match = Match(event_id="ev", round=1, number=1, player_a="ann", player_b="bob")
        valid = reachable(best_of, bracket)
        for a, b, d in itertools.product(range(-2, 2 * best_of + 3), repeat=3):
            try:
                service.check_tally(event, match, service.Tally({"ann": a, "bob": b}, d))
                accepted = True
            except service.Usage as exc:
                accepted = False
                assert f"is not a result of a best of {best_of}" in exc.message
            assert accepted == ((a, b, d) in valid), (best_of, bracket, a, b, d)


def rankings(players: list[str]) -> set[tuple[int, ...]]:
    """Every way a pod's game can rank its players (a weak order: groups that tie), as places in player order:
    a group shares the best place left, and the places it fills are skipped (the referee's `1 + how many above`)."""
    found = set()
    for groups in itertools.product(range(len(players)), repeat=len(players)):  # each player's group, 0 best
        used = sorted(set(groups))
        if used != list(range(len(used))):
            continue
        found.add(tuple(1 + sum(1 for g in groups if g < mine) for mine in groups))
    return found


def test_a_pods_places_are_a_ranking_of_its_players() -> None:
    for size in (3, 4):
        players = [f"p{n}" for n in range(size)]
        valid = rankings(players)
        assert (1,) * size in valid and tuple(range(1, size + 1)) in valid and (1, 2, 2, 4)[:size] in valid | {(1, 2, 2)}
        for places in itertools.product(range(-1, size + 2), repeat=size):
            try:
                service.check_places(dict(zip(players, places, strict=True)), set(players), "table 1")
                accepted = True
            except service.Usage as exc:
                accepted = False
                assert "not a ranking" in exc.message
            assert accepted == (places in valid), places


def test_a_negative_score_is_refused_by_the_api_the_pages_and_the_cli_alike(db_url: str, tmp_path: Path) -> None:
    make_event(db_url, best_of=3)
    keys = codes(db_url)
    (a, b), (c, d) = tables(db_url)
    before = head(db_url)
    message = f"{a} -1-2 {b} is not a result of a best of 3: games won and drawn games are 0 or more"
    with client(db_url) as web:
        claim = web.post("/api/me/claim", headers=sign_in(web, keys[a]), json={"games": {a: -1, b: 2}})
        assert claim.status_code == 400 and claim.json()["error"] == message and claim.json()["exit_code"] == 2
        drawn = web.post("/api/me/claim", headers=sign_in(web, keys[c]), json={"games": {c: 2, d: 0}, "draws": -1})
        assert drawn.status_code == 400 and "0 or more" in drawn.json()["error"]
        boss = organiser(web)
        ruled = web.post("/api/admin/events/ev/rule", headers=boss, json={"table": 1, "reason": "slip", "games": {a: -1, b: 2}})
        assert ruled.status_code == 400 and ruled.json()["error"] == message
        assert web.get("/api/events/ev/standings").json()[0]["points"] == 0
    assert head(db_url) == before, "nothing was written"
    with database(db_url) as engine, Session(engine) as session, session.begin():  # the CLI's service call
        try:
            service.report(session, "ev", 1, result=service.Tally({a: -1, b: 2}))
        except service.Usage as exc:
            assert exc.message == message
        else:
            raise AssertionError("the CLI's report took it")
    cli(db_url, "report", "ev", "--table", "1", "--result", f"{a}=-1,{b}=2", code=2)
    cli(db_url, "report", "ev", "--table", "1", "2-1-9", code=2)  # nine drawn games in a best of 3
    rows = tmp_path / "round.csv"
    rows.write_text("table,result\n1,2-0\n2,1-0-7\n")
    refused = cli(db_url, "results", "ev", "--from", str(rows), code=2)
    assert "line 3, field result" in refused.stderr and "not a result of a best of 3" in refused.stderr
    assert head(db_url) == before


def test_places_that_are_no_ranking_are_refused_from_a_pod_on_the_api_and_the_cli(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat", "dan"], format="pods", table_size=4, ruleset="crossover")
    keys = codes(db_url)
    [seats] = tables(db_url)
    before = head(db_url)
    with client(db_url) as web:
        dense = {p: place for p, place in zip(seats, (1, 2, 2, 3), strict=True)}
        refused = web.post("/api/me/claim", headers=sign_in(web, keys[seats[0]]), json={"places": dense})
        assert refused.status_code == 400 and "not a ranking of 4 players" in refused.json()["error"]
        shared = {p: place for p, place in zip(seats, (1, 2, 2, 4), strict=True)}
        assert web.post("/api/me/claim", headers=sign_in(web, keys[seats[1]]), json={"places": shared}).status_code == 201
    assert cli(db_url, "report", "ev", "--table", "1", "1-1-2-3", code=2).stderr.count("not a ranking") == 1
    assert head(db_url) == before + 1
