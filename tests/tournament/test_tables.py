"""Live tables (issue 24): games recorded record by record, each judged at once, reported by themselves.

Every test runs on SQLite and on a real PostgreSQL (`db_url`).
"""

from __future__ import annotations

import copy
import io
import subprocess
import sys
import time

import msgspec
import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from referee.engine import judge
from referee.ruleset import CHANCE, JUDGE
from tests.tournament.tablelib import live_event, look, play_game
from tests.tournament.tlib import cli, cli_json
from tournament import service
from tournament.service import calls, livetable, witness
from tournament.service.verification import verify
from tournament.storage.models import Event, LiveGame, LiveLine


def log_of(engine: Engine, table: int = 1, game: int = 1, event: str = "ev") -> bytes:
    with Session(engine) as session:
        row = session.get(LiveGame, (event, 1, table, game))
        assert row is not None
        return livetable.log_bytes(session, row)


def lines(engine: Engine) -> int:
    with Session(engine) as session:
        return len(list(session.scalars(select(LiveLine.seq))))


def test_create_takes_a_table_mode_and_refuses_another(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = f"sqlite:///{tmp_path / 't.db'}"
    assert cli_json(db, "create", "ev", "--tables", "paper")["tables"] == "paper"
    assert cli_json(db, "create", "plain")["tables"] == "off"  # existing events behave as before
    refused = cli(db, "create", "odd", "--tables", "cards", code=2)
    assert "--tables must be off, paper, digital" in refused.output


def test_an_event_without_live_tables_has_none(db_url: str) -> None:
    engine = live_event(db_url, mode="off")
    with Session(engine) as session, pytest.raises(service.Usage, match="no live tables"):
        livetable.seating(session, "ev", 1)
    engine.dispose()


@pytest.mark.parametrize("ruleset", ["cardwars", "crossover"])
def test_a_paper_game_is_judged_record_by_record_and_reported_by_itself(db_url: str, ruleset: str) -> None:
    engine = live_event(db_url, mode="paper", ruleset=ruleset)
    final = play_game(engine)
    assert final.over and final.match_over and final.reported
    data = log_of(engine)
    verdict = judge(io.BytesIO(data)).verdict
    assert verdict.verdict == "complete" and verdict.chain == "verified" and verdict.deal is None
    header = msgspec.json.decode(data.splitlines()[0])
    assert header["event"] == {"tournament": "ev", "round": 1, "table": 1}
    with Session(engine) as session:
        match = service.matches(session, "ev", 1)[0]
        assert match.source == "log"  # through the results service, nobody typing the result
        winner = verdict.result.winners[0] if verdict.result and verdict.result.winners else None
        assert (match.games_a, match.games_b) == ((1, 0) if winner == match.player_a else (0, 1))
        standings = service.standings(session, "ev")
        assert sum(row.points for row in standings) == 3
        assert verify(session, "ev").ok
    engine.dispose()


def test_a_digital_game_is_dealt_from_its_committed_seed_and_revealed_at_the_end(db_url: str) -> None:
    engine = live_event(db_url, mode="digital", ruleset="crossover")
    play_game(engine)
    data = log_of(engine)
    header = msgspec.json.decode(data.splitlines()[0])
    assert header["deal"]["scheme"] == "hmac-sha256/1"
    last = msgspec.json.decode(data.splitlines()[-1])
    assert last["type"] == "reveal" and last["by"] == CHANCE
    verdict = judge(io.BytesIO(data)).verdict
    assert verdict.verdict == "complete" and verdict.deal == "verified"
    engine.dispose()


def test_a_refused_record_writes_nothing_and_says_rule_reason_and_alternatives(db_url: str) -> None:
    engine = live_event(db_url, mode="paper")
    view = look(engine, JUDGE)
    actor = next(p for p in view.players if look(engine, p).legal)
    other = next(p for p in view.players if p != actor)
    before = lines(engine)
    mine = look(engine, actor)
    with Session(engine) as session, session.begin(), pytest.raises(livetable.Refused) as refused:
        # the other player records an action of the player whose turn it is
        livetable.append(session, "ev", 1, other, {**mine.legal[0], "by": actor}, mine.seq)
    assert refused.value.rule == livetable.TABLE_RULE and refused.value.seq == mine.seq
    with Session(engine) as session, session.begin(), pytest.raises(livetable.Refused) as illegal:
        livetable.append(session, "ev", 1, other, {"type": "attack", "by": other, "attackers": ["AS"]}, mine.seq)
    assert illegal.value.rule and illegal.value.rule.startswith("CW-")
    assert lines(engine) == before  # nothing written
    with Session(engine) as session, session.begin(), pytest.raises(service.Usage, match="record"):
        livetable.append(session, "ev", 1, actor, {"type": "no_such_record", "by": actor}, mine.seq)
    assert lines(engine) == before
    engine.dispose()


def test_an_append_on_an_old_head_is_refused_with_the_head_now(db_url: str) -> None:
    engine = live_event(db_url, mode="paper")
    actor = next(p for p in ("ann", "bob") if look(engine, p).legal)
    mine = look(engine, actor)
    with Session(engine) as session, session.begin():
        livetable.append(session, "ev", 1, actor, mine.legal[0], mine.seq)
    with Session(engine) as session, session.begin(), pytest.raises(livetable.Stale) as stale:
        livetable.append(session, "ev", 1, actor, mine.legal[0], mine.seq)
    assert stale.value.seq == mine.seq + 1
    engine.dispose()


def test_a_game_kept_at_an_earlier_head_is_brought_up_by_the_lines_after_it(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another worker wrote since this one kept the game: only the new lines are judged, each chained to the one
    before; a kept game that is not the log's beginning is judged again from every line."""
    engine = live_event(db_url, mode="digital", ruleset="crossover")

    def record() -> None:
        actor = next(v for v in (look(engine, p) for p in ("ann", "bob")) if v.legal)
        with Session(engine) as session, session.begin():
            livetable.append(session, "ev", 1, actor.seat, actor.legal[0], actor.seq)

    record()
    key = (engine.url, "ev", 1, 1, 1)
    earlier_seq = livetable._cache[key].seq
    kept = copy.deepcopy(livetable._cache[key])
    for _ in range(3):
        record()
    wanted = look(engine, JUDGE)
    assert wanted.seq > earlier_seq
    judged = []
    monkeypatch.setattr(livetable, "judge", lambda *a, **k: judged.append(1) or judge(*a, **k))
    livetable._cache[key] = copy.deepcopy(kept)  # as a worker that last saw the game at `earlier_seq` kept it
    assert look(engine, JUDGE) == wanted and not judged  # brought up by the lines after it, none judged from scratch
    forged = copy.deepcopy(kept)
    forged.head = "0" * 64  # not the hash of the log's line there: the lines after it do not chain to it
    livetable._cache[key] = forged
    assert look(engine, JUDGE) == wanted and judged == [1]
    engine.dispose()


def test_only_a_judge_makes_judge_records_and_a_game_loss_ends_the_game(db_url: str) -> None:
    engine = live_event(db_url, mode="paper")
    view = look(engine, "ann")
    with Session(engine) as session, session.begin(), pytest.raises(livetable.Refused, match="only a judge"):
        livetable.append(session, "ev", 1, "ann", {"type": "game_loss", "by": JUDGE, "player": "bob"}, view.seq)
    with Session(engine) as session, session.begin():
        livetable.append(session, "ev", 1, JUDGE, {"type": "game_loss", "by": JUDGE, "player": "bob"}, view.seq)
    final = look(engine, JUDGE)
    assert final.over and final.result is not None and final.result["winners"] == ["ann"]
    engine.dispose()


def test_each_game_of_a_best_of_three_is_its_own_log_started_when_the_last_ends(db_url: str) -> None:
    engine = live_event(db_url, mode="digital", ruleset="crossover", best_of=3)
    view = play_game(engine, seed=1)
    while not view.match_over:
        assert view.game == len(view.games) and not view.over  # the next game started when the last ended
        view = play_game(engine, seed=view.game)
    assert 2 <= len(view.games) <= 3 and view.reported
    for number in range(1, len(view.games) + 1):
        data = log_of(engine, game=number)
        assert judge(io.BytesIO(data)).verdict.verdict == "complete"
        assert msgspec.json.decode(data.splitlines()[0])["game"] == f"ev-r1-t1-g{number}"
    with Session(engine) as session:
        match = service.matches(session, "ev", 1)[0]
        assert match.source == "log" and max(match.games_a or 0, match.games_b or 0) == 2
    engine.dispose()


def test_a_pod_plays_its_one_game_and_reports_its_places(db_url: str) -> None:
    engine = live_event(db_url, mode="digital", ruleset="stccg-multiplayer", players=3, pods=True)
    view = play_game(engine)
    assert view.reported
    with Session(engine) as session:
        (pod, seats), = service.pod_tables(session, "ev", 1)
        assert pod.source == "log" and all(s.place for s in seats)
    engine.dispose()


def test_the_result_waits_for_every_players_confirmation_of_the_last_line(db_url: str) -> None:
    engine = live_event(db_url, mode="paper", ruleset="crossover")
    view = look(engine, JUDGE)
    with Session(engine) as session, session.begin():
        livetable.append(session, "ev", 1, "ann", {"type": "concede", "by": "ann"}, view.seq)
    end = look(engine, JUDGE)
    with Session(engine) as session, session.begin(), pytest.raises(service.Conflict, match="ended at record"):
        witness.confirm(session, "ev", 1, "ann", 1, end.seq - 1)
    with Session(engine) as session, session.begin():
        assert not witness.confirm(session, "ev", 1, "ann", 1, end.seq)
    assert not look(engine, JUDGE).reported  # bob has not confirmed
    with Session(engine) as session, session.begin():
        assert witness.confirm(session, "ev", 1, "bob", 1, end.seq)
    assert look(engine, JUDGE).reported
    engine.dispose()


def test_a_device_acknowledges_the_head_it_saw(db_url: str) -> None:
    engine = live_event(db_url, mode="digital", ruleset="crossover")
    view = look(engine, "ann")
    with Session(engine) as session, session.begin():
        assert witness.acknowledge(session, "ev", 1, "ann", 1, view.seq) == view.seq
        with pytest.raises(service.Usage, match="not there"):
            witness.acknowledge(session, "ev", 1, "ann", 1, view.seq + 5)
    assert [w.seen for w in look(engine, JUDGE).witness if w.player == "ann"] == [view.seq]
    engine.dispose()


def test_a_player_who_disagrees_calls_the_judge(db_url: str) -> None:
    engine = live_event(db_url, mode="paper")
    look(engine, "bob")
    with Session(engine) as session, session.begin():
        number = calls.call_judge(session, "ev", "bob", "ann's last attack was not what we played", table=1).number
    with Session(engine) as session, session.begin():
        (call,) = calls.judge_calls(session, "ev")
        assert (call.number, call.table, call.player) == (number, 1, "bob")
        calls.answer_call(session, "ev", number)
    with Session(engine) as session:
        assert calls.judge_calls(session, "ev") == []
        assert verify(session, "ev").ok  # the calls are event-log entries, rebuilt by verify
    engine.dispose()


def test_a_bot_takes_a_seat_at_a_casual_digital_table_only(db_url: str) -> None:
    engine = live_event(db_url, mode="digital", ruleset="crossover")
    with Session(engine) as session, session.begin():
        assert witness.seat_bot(session, "ev", 1, "bob") == ["bob"]
    view = play_game(engine)  # ann plays; the server plays bob's seat
    assert view.reported
    records = [msgspec.json.decode(line) for line in log_of(engine).splitlines()[1:]]
    assert any(r["by"] == "bob" for r in records)
    engine.dispose()
    rated = live_event(db_url, mode="digital", ruleset="crossover", event="rated")
    with Session(rated) as session, session.begin():
        event = session.get(Event, "rated")
        assert event is not None
        event.rated = True  # as `create --rated` makes it
    with Session(rated) as session, session.begin(), pytest.raises(service.Usage, match="rated"):
        witness.seat_bot(session, "rated", 1, "bob", rated=False)
    with Session(rated) as session, session.begin():
        assert witness.seat_bot(session, "rated", 1, "bob", rated=True) == ["bob"]
    rated.dispose()


WORKER = """
import sys, time, msgspec
from sqlalchemy.orm import Session
from tournament.service import livetable
from tournament.storage.db import open_database

url, name, start_at, after, record = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
_, engine = open_database(url)
while time.time() < start_at:
    time.sleep(0.001)
try:
    with Session(engine) as session, session.begin():
        _, done = livetable.append(session, "ev", 1, name, msgspec.json.decode(record), after)
    print("won", done.seq)
except livetable.Stale as exc:
    print("stale", exc.seq)
engine.dispose()
"""


def test_two_openings_made_at_once_start_one_game(db_url: str) -> None:
    """T-129: an opening is made in a reading session and stored in a writing one; of two made at once (each its
    own seed and deal) one is stored, and the other request reads the stored game instead of writing its own."""
    engine = live_event(db_url, mode="digital", ruleset="crossover")
    openings = []
    for _ in range(2):  # both made before either is stored
        with Session(engine) as session:
            opening = livetable.table_opening(session, "ev", 1)
        assert opening is not None
        openings.append((opening, opening.game.seed, opening.game.head, len(opening.lines)))
    assert openings[0][1] != openings[1][1]  # each its own seed
    stored = []
    for opening, *_ in openings:
        with Session(engine) as session, session.begin():
            stored.append(livetable.store_table_opening(session, opening).head)
    assert stored == [openings[0][2], openings[0][2]]  # the second request got the first's game
    with Session(engine) as session:
        assert livetable.table_opening(session, "ev", 1) is None  # started: nothing more to open
    data = log_of(engine)
    assert len(data.splitlines()) == openings[0][3] > 1  # the header and the first deal, once
    assert judge(io.BytesIO(data)).verdict.verdict == "ongoing"
    assert look(engine, JUDGE).seq == openings[0][3] - 1
    engine.dispose()


def test_an_opening_made_before_the_next_round_was_paired_is_not_stored(db_url: str) -> None:
    """An opening prepared for round 1 is refused once round 2 is paired: it would start a game at a past table."""
    engine = live_event(db_url, mode="paper", ruleset="cardwars", players=4)
    with Session(engine) as session:
        opening = livetable.table_opening(session, "ev", 1)
    assert opening is not None
    with Session(engine) as session, session.begin():
        for match in service.matches(session, "ev", 1):
            service.report(session, "ev", match.number, result=service.Tally({match.player_a: 1, match.player_b: 0}, 0))
        service.pair(session, "ev")
    with Session(engine) as session, session.begin(), pytest.raises(service.Conflict, match="new round was paired"):
        livetable.store_table_opening(session, opening)
    with Session(engine) as session:
        assert session.scalar(select(LiveGame.game).filter_by(event_id="ev", round=1)) is None
    engine.dispose()


def test_sixteen_clients_appending_at_once_never_fork_the_log(db_url: str) -> None:
    engine = live_event(db_url, mode="paper", ruleset="crossover")
    for _ in range(2):
        view = look(engine, JUDGE)
        actor = next(p for p in view.players if look(engine, p).legal)
        mine = look(engine, actor)
        start_at = time.time() + 3
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", WORKER, db_url, actor, str(start_at), str(mine.seq), msgspec.json.encode(mine.legal[n % len(mine.legal)]).decode()],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )
            for n in range(16)
        ]
        answers = []
        for proc in procs:
            out, err = proc.communicate(timeout=180)
            assert proc.returncode == 0, err
            answers.append(out.split())
        won = [a for a in answers if a[0] == "won"]
        assert len(won) == 1, answers  # the first wins
        assert all(a == ["stale", won[0][1]] or (a[0] == "stale" and int(a[1]) > mine.seq) for a in answers if a[0] == "stale")
    data = log_of(engine)
    seqs = [msgspec.json.decode(line).get("seq", 0) for line in data.splitlines()]
    assert seqs == list(range(len(seqs)))  # one line a seq: no fork
    assert judge(io.BytesIO(data)).verdict.verdict in ("ongoing", "complete")
    engine.dispose()


def test_the_cli_prints_a_table_as_it_stands_and_writes_its_log(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = f"sqlite:///{tmp_path / 't.db'}"
    engine = live_event(db, mode="digital", ruleset="crossover")
    shown = cli_json(db, "table", "ev", "1")  # opening the table starts its first game
    assert (shown["table"], shown["game"], shown["mode"], shown["seat"]) == (1, 1, "digital", "judge")
    text = cli(db, "table", "ev", "1").output
    assert "ev round 1 table 1 (digital): ann vs bob" in text and "to act:" in text
    play_game(engine)
    log = tmp_path / "g1.jsonl"
    cli(db, "table", "ev", "1", "--game", "1", "--log", "--out", str(log))
    assert judge(io.BytesIO(log.read_bytes())).verdict.deal == "verified"
    assert cli(db, "table", "ev", "1", "--log").output.encode() == log.read_bytes()
    assert "the match result is reported" in cli(db, "table", "ev", "1").output
    assert "no table 9" in cli(db, "table", "ev", "9", code=3).output
    assert "give one" in cli(db, "table", "ev", "1", "--log", "--json", code=2).output
    engine.dispose()


def test_a_live_game_starts_from_the_registered_deck_lists_and_reports_without_a_deck_check(db_url: str) -> None:
    from referee.decks import read
    from referee.rulesets.crossover.decks import RULES
    from tests.tournament.decklib import deck_of, list_text
    from tournament.service import decks

    def register_lists(session: Session) -> None:
        decks.set_policy(session, "ev", "unpaired", None)
        decks.register_lists(session, "ev", [decks.Submitted(f"{p}.txt", p, list_text(deck_of(p)).encode()) for p in ("ann", "bob")])

    engine = live_event(db_url, mode="digital", ruleset="crossover", before_pairing=register_lists)
    play_game(engine)
    header = log_of(engine).splitlines()[0]
    setup = msgspec.json.decode(header)["setup"]
    for player in ("ann", "bob"):
        played = msgspec.convert(setup["decks"][player], type(deck_of(player)))
        assert played == read(list_text(deck_of(player)).encode(), RULES)
    with Session(engine) as session:
        match = service.matches(session, "ev", 1)[0]
        assert match.source == "log" and decks.open_checks(session, "ev") == []  # the decks are the lists: no check opened
    engine.dispose()
