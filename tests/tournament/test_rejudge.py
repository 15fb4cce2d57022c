"""`tournament rejudge EVENT` (T-70): the tables whose result today's referee would change, and nothing changed.

A stored result that today's referee would not give is made here by editing
the stored winner or places, as an older referee's recording would differ.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.tournament.tlib import cli, cli_json


def _dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as connection:
        return list(connection.iterdump())


def test_rejudge_lists_the_tables_whose_result_would_change_and_changes_nothing(tmp_path: Path) -> None:
    file = tmp_path / "t.db"
    db = str(file)
    cli(db, "demo", "--players", "4", "--rounds", "1", "--best-of", "3", "--logs", str(tmp_path / "logs"))
    cli(db, "demo", "--players", "6", "--rounds", "1", "--format", "pods", "--ruleset", "stccg-multiplayer", "--table-size", "3", "--seed", "2",
        "--logs", str(tmp_path / "pod-logs"))
    events = [e["id"] for e in cli_json(db, "events")]
    swiss, pods = events[0], events[1]
    assert "every stored log the result recorded" in cli(db, "rejudge", swiss).stdout
    assert cli_json(db, "rejudge", pods) == []
    with sqlite3.connect(file) as connection:  # as if recorded by a referee that said otherwise
        game, table, winner, a, b = connection.execute(
            "SELECT g.game, g.\"table\", g.winner, m.player_a, m.player_b FROM game_logs g JOIN matches m "
            "ON m.event_id = g.event_id AND m.round = g.round AND m.number = g.\"table\" WHERE g.event_id = ? "
            "ORDER BY g.\"table\", g.game LIMIT 1", (swiss,)).fetchone()
        connection.execute("UPDATE game_logs SET winner = ? WHERE event_id = ? AND \"table\" = ? AND game = ?",
                           (b if winner == a else a, swiss, table, game))
        seat, pod = connection.execute("SELECT player, \"table\" FROM pod_seats WHERE event_id = ? AND place = 1 LIMIT 1", (pods,)).fetchone()
        connection.execute("UPDATE pod_seats SET place = 9 WHERE event_id = ? AND player = ?", (pods, seat))
    before = _dump(file)
    listed = cli(db, "rejudge", swiss, code=1).stdout
    assert f"round 1, table {table}: recorded" in listed and f"game {game}: was" in listed
    [changed] = cli_json_code(db, "rejudge", swiss)
    assert (changed["round"], changed["table"], [g["game"] for g in changed["games"]]) == (1, table, [game])
    [pod_changed] = cli_json_code(db, "rejudge", pods, "--jobs", "2")
    assert pod_changed["table"] == pod and "1st" in pod_changed["now"] and "9th" in pod_changed["recorded"]
    assert _dump(file) == before  # nothing changed, not even the view cache
    assert "unknown event" in cli(db, "rejudge", "nope", code=3).stderr


def cli_json_code(db: str, *args: str) -> list[dict]:
    """`--json` output of a command that exits 1 (some table would change)."""
    import json

    return json.loads(cli(db, *args, "--json", code=1).stdout)


def test_rejudge_on_a_cluster_lists_what_the_serial_run_lists(tmp_path: Path) -> None:
    from distributed import LocalCluster

    db = str(tmp_path / "t.db")
    cli(db, "demo", "--players", "4", "--rounds", "1", "--best-of", "3", "--logs", str(tmp_path / "logs"))
    [event] = [e["id"] for e in cli_json(db, "events")]
    with sqlite3.connect(tmp_path / "t.db") as connection:  # one stored winner today's referee would not give
        connection.execute(
            "UPDATE game_logs SET winner = (SELECT CASE WHEN g.winner = m.player_a THEN m.player_b ELSE m.player_a END "
            "FROM game_logs g JOIN matches m ON m.event_id = g.event_id AND m.round = g.round AND m.number = g.\"table\" "
            "WHERE g.rowid = game_logs.rowid) WHERE rowid = (SELECT MIN(rowid) FROM game_logs)"
        )
    serial = cli_json_code(db, "rejudge", event)
    assert len(serial) == 1
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, silence_logs=40) as cluster:
        assert cli_json_code(db, "rejudge", event, "--cluster", cluster.scheduler_address) == serial
    assert "do not go together" in cli(db, "rejudge", event, "--cluster", "tcp://127.0.0.1:9", "--jobs", "2", code=2).stderr
    unreachable = cli(db, "rejudge", event, "--cluster", "tcp://127.0.0.1:9", code=2).stderr
    assert unreachable.count("\n") == 1 and "127.0.0.1:9" in unreachable


def test_rejudge_reports_a_tampered_copy_as_tampered_not_as_a_change_of_ruling(tmp_path: Path) -> None:
    """Issue 34: the tables' copy of a log is checked against the SHA-256 its result's entry names (T-165)."""
    import hashlib

    file = tmp_path / "t.db"
    db = str(file)
    cli(db, "demo", "--players", "4", "--rounds", "1", "--best-of", "3", "--logs", str(tmp_path / "logs"))
    (event,) = [e["id"] for e in cli_json(db, "events")]
    with sqlite3.connect(file) as connection:  # someone with the database puts another game's log in one's place
        rows = connection.execute('SELECT "table", game, data FROM game_logs WHERE event_id = ? ORDER BY "table", game', (event,)).fetchall()
        (table, game, _), (_, _, other) = rows[0], next(r for r in rows if r[0] != rows[0][0])
        # the whole other log, a legal game with its own winner, and its hash in the tables' own column
        connection.execute('UPDATE game_logs SET data = ?, sha256 = ? WHERE event_id = ? AND "table" = ? AND game = ?',
                           (other, hashlib.sha256(other).hexdigest(), event, table, game))
    [listed] = cli_json_code(db, "rejudge", event)
    assert (listed["table"], [(g["game"], g["verdict"]) for g in listed["games"]]) == (table, [(game, "tampered")])
    assert "a log tampered with" in listed["now"]
    text = cli(db, "rejudge", event, code=1).stdout
    assert f"game {game}: was " in text and "now tampered: the kept copy is not the log the event log names" in text
