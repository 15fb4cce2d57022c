"""The `referee` command line: exit codes, JSON output, and each command's job."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.schemagen import stale_files
from tests.cardwars.cwlog import BOARD, attack, lines

runner = CliRunner()


def invoke(*args: str, stdin: bytes | None = None):  # type: ignore[no-untyped-def]
    result = runner.invoke(app, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    assert invoke("play", "cardwars", "--seed", "7", "--out", str(path)).exit_code == 0
    return path


def write(tmp_path: Path, name: str, data: list[bytes]) -> Path:
    path = tmp_path / name
    path.write_bytes(b"\n".join(data) + b"\n")
    return path


def test_validate_complete_exit_0(game: Path) -> None:
    result = invoke("validate", str(game))
    assert result.exit_code == 0 and "complete" in result.stdout and "won" in result.stdout


def test_validate_json_one_object(game: Path) -> None:
    data = json.loads(invoke("validate", "--json", str(game)).stdout)
    assert data["verdict"] == "complete" and data["chain"] == "verified" and data["result"]["winners"]


def test_validate_illegal_exit_1_with_rule_and_legal(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.jsonl", lines([*BOARD, attack("ann", "QH")]))
    result = invoke("validate", str(path))
    assert result.exit_code == 1
    assert "CW-5.1" in result.stdout and "legal instead" in result.stdout and "record 20 (line 21)" in result.stdout


def test_validate_malformed_exit_3(tmp_path: Path) -> None:
    path = write(tmp_path, "m.jsonl", [lines([])[0], b"{nope"])
    assert invoke("validate", str(path)).exit_code == 3


def test_validate_tampered_exit_4(game: Path) -> None:
    data = game.read_bytes().split(b"\n")
    data[3] = data[3].replace(b'"by"', b'"note":"edited","by"')
    game.write_bytes(b"\n".join(data))
    assert invoke("validate", str(game)).exit_code == 4


def test_missing_file_is_a_usage_error_exit_2(tmp_path: Path) -> None:
    result = invoke("validate", str(tmp_path / "nope.jsonl"))
    assert result.exit_code == 2 and "no such file" in result.stderr and "Traceback" not in result.stderr


def test_validate_many_gives_an_array_and_the_worst_exit(tmp_path: Path, game: Path) -> None:
    bad = write(tmp_path, "bad.jsonl", lines([*BOARD, attack("ann", "QH")]))
    result = invoke("validate", "--json", str(game), str(bad))
    data = json.loads(result.stdout)
    assert [v["verdict"] for v in data] == ["complete", "illegal"] and result.exit_code == 1
    assert [v["path"] for v in data] == [str(game), str(bad)]


def test_validate_with_jobs_matches_one_job(tmp_path: Path) -> None:
    paths = []
    for seed in range(6):
        path = tmp_path / f"{seed}.jsonl"
        invoke("play", "cardwars", "--seed", str(seed), "--out", str(path))
        paths.append(str(path))
    one = json.loads(invoke("validate", "--json", *paths).stdout)
    two = json.loads(invoke("validate", "--json", "--jobs", "2", *paths).stdout)
    assert one == two and all(v["verdict"] == "complete" for v in one)


def test_validate_summary_table(tmp_path: Path, game: Path) -> None:
    other = tmp_path / "other.jsonl"
    invoke("play", "cardwars", "--seed", "8", "--out", str(other))
    assert "summary" in invoke("validate", str(game), str(other)).stdout


def test_validate_reads_stdin(game: Path) -> None:
    assert json.loads(invoke("validate", "--json", "-", stdin=game.read_bytes()).stdout)["verdict"] == "complete"


def test_play_is_reproducible_and_chained() -> None:
    one = invoke("play", "cardwars", "--seed", "5").stdout
    assert one == invoke("play", "cardwars", "--seed", "5").stdout
    assert one != invoke("play", "cardwars", "--seed", "6").stdout
    first, second = one.splitlines()[:2]
    assert json.loads(second)["prev"] == hashlib.sha256(first.encode()).hexdigest()


def test_play_unknown_ruleset_exit_2() -> None:
    assert invoke("play", "chess").exit_code == 2


def test_play_refuses_a_player_count_in_words_a_fixed_count_reads_well_in() -> None:
    assert invoke("play", "cardwars", "--players", "9").stderr == "referee: cardwars is for 2 players, not 9\n"
    assert "maginot is for 2 to 6 players, not 9" in invoke("play", "maginot", "--players", "9").stderr


def test_play_seats_the_players_it_is_given_so_a_tournament_table_can_report_the_log() -> None:
    played = invoke("play", "cardwars", "--seed", "3", "--names", "zoe,jose-ramirez")
    header = json.loads(played.stdout.splitlines()[0])
    assert played.exit_code == 0 and header["players"] == ["zoe", "jose-ramirez"] and set(header["setup"]["suits"]) == {"zoe", "jose-ramirez"}
    assert json.loads(invoke("validate", "--json", "-", stdin=played.stdout.encode()).stdout)["verdict"] == "complete"
    for names, said in (("zoe,zoe", "different player ids"), ("zoe, ann", "different player ids"), ("zoe", "cardwars is for 2 players, not 1")):
        refused = invoke("play", "cardwars", "--names", names)
        assert refused.exit_code == 2 and said in refused.stderr, refused.stderr
    assert "disagree" in invoke("play", "maginot", "--names", "ann,bob", "--players", "3").stderr


def test_replay_to_a_record(game: Path) -> None:
    data = json.loads(invoke("replay", str(game), "--to", "3", "--json").stdout)
    assert data["seq"] == 3 and data["state"]["turn"] == 2
    assert "turn 2" in invoke("replay", str(game), "--to", "3").stdout


def test_replay_past_the_end_is_a_usage_error(game: Path) -> None:
    assert invoke("replay", str(game), "--to", "100000").exit_code == 2


def test_legal_at_a_record(game: Path) -> None:
    data = json.loads(invoke("legal", str(game), "--at", "0", "--json").stdout)
    assert data["to_act"] == ["chance"] and len(data["legal"]) + data["more"] == 27


def test_legal_on_a_broken_log_reports_the_break(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.jsonl", lines([*BOARD, attack("ann", "QH")]))
    result = invoke("legal", str(path))
    assert result.exit_code == 1 and "CW-5.1" in result.stderr


def test_append_checks_then_appends_with_prev(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(lines([])[0] + b"\n")
    assert invoke("append", str(path), '{"by": "chance", "type": "draw", "player": "ann", "card": "7H"}').exit_code == 0
    assert invoke("append", str(path), '{"by": "ann", "type": "play_resource", "card": "7H"}').exit_code == 0
    rows = path.read_bytes().splitlines()
    assert json.loads(rows[2])["seq"] == 2 and json.loads(rows[2])["prev"] == hashlib.sha256(rows[1]).hexdigest()
    assert json.loads(invoke("validate", "--json", str(path)).stdout)["chain"] == "verified"


def test_append_refuses_an_illegal_record_and_leaves_the_file(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(lines([])[0] + b"\n")
    before = path.read_bytes()
    result = invoke("append", str(path), '{"by": "ann", "type": "play_resource", "card": "7H"}')
    assert result.exit_code == 1 and "CW-2.1" in result.stderr and path.read_bytes() == before


@pytest.mark.parametrize(
    ("record", "code"),
    [('{"by": "ann", "type": "fly"}', 3), ("not json", 3), ("[1]", 3), ('{"by": "ann", "type": "attack", "attackers": [], "seq": 9}', 3)],
)
def test_append_refuses_malformed_records(tmp_path: Path, record: str, code: int) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(lines([])[0] + b"\n")
    before = path.read_bytes()
    result = invoke("append", str(path), record)
    assert result.exit_code == code and path.read_bytes() == before and "Traceback" not in result.stderr


def test_append_to_an_unchained_log_keeps_it_unchained(tmp_path: Path) -> None:
    path = write(tmp_path, "g.jsonl", lines(BOARD))
    assert invoke("append", str(path), '{"by": "ann", "type": "attack", "attackers": []}').exit_code == 0
    assert json.loads(invoke("validate", "--json", str(path)).stdout)["chain"] == "absent"


def test_append_after_the_end_is_refused(game: Path) -> None:
    assert invoke("append", str(game), '{"by": "ann", "type": "concede"}').exit_code == 1


def test_dispute_finds_the_parting_record(tmp_path: Path) -> None:
    a = write(tmp_path, "a.jsonl", lines([*BOARD, attack("ann", "JH")]))
    b = write(tmp_path, "b.jsonl", lines([*BOARD, attack("ann", "QH")]))
    report = json.loads(invoke("dispute", str(a), str(b), "--json").stdout)
    assert report["parted_at"] == {"line": 21, "seq": 20}
    assert report["branch_a"]["judgement"] == "legal"
    assert report["branch_b"]["judgement"].startswith("illegal: CW-5.1")
    assert report["state"]["players"]["ann"]["hand"] == ["3H"]
    assert "part at record 20" in invoke("dispute", str(a), str(b)).stdout


def test_dispute_ignores_chain_and_notes(tmp_path: Path, game: Path) -> None:
    rows = [json.loads(r) for r in game.read_bytes().splitlines()]
    for row in rows[1:]:
        row.pop("prev")
        row["note"] = "copied by hand"
    copy = write(tmp_path, "copy.jsonl", [json.dumps(r).encode() for r in rows])
    report = json.loads(invoke("dispute", str(game), str(copy), "--json").stdout)
    assert report["parted_at"] is None and "same game" in report["summary"]


def test_dispute_when_one_log_is_shorter(tmp_path: Path) -> None:
    a = write(tmp_path, "a.jsonl", lines(BOARD))
    b = write(tmp_path, "b.jsonl", lines(BOARD[:10]))
    report = json.loads(invoke("dispute", str(a), str(b), "--json").stdout)
    assert report["parted_at"]["seq"] == 11 and report["branch_b"]["judgement"] == "the log ends here"


def test_rulesets_lists_cardwars() -> None:
    data = json.loads(invoke("rulesets", "--json").stdout)
    assert {"id": "cardwars", "title": data[[r["id"] for r in data].index("cardwars")]["title"], "min_players": 2, "max_players": 2} in data


def test_schema_files_are_current() -> None:
    assert stale_files() == [], "run `referee schema` and commit schemas/json"


def test_schema_writes_to_a_folder(tmp_path: Path) -> None:
    assert invoke("schema", "--out", str(tmp_path)).exit_code == 0
    assert json.loads((tmp_path / "cardwars.records.schema.json").read_text())["discriminator"]["propertyName"] == "type"
    assert invoke("schema", "--out", str(tmp_path), "--check").exit_code == 0


def test_grid_of_a_game_without_a_map_is_a_usage_error(game: Path) -> None:
    result = invoke("grid", str(game))
    assert result.exit_code == 2 and "no map" in result.stderr


def test_validate_text_counts_the_legal_records_not_shown(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.jsonl", lines([{"by": "chance", "type": "draw", "player": "ann", "card": "7S"}]))
    result = invoke("validate", str(path))
    assert result.exit_code == 1 and "... and 7 more" in result.stdout


def test_legal_text_lists_records_ready_to_append(game: Path) -> None:
    result = invoke("legal", str(game), "--at", "0", "--limit", "3")
    rows = result.stdout.splitlines()
    assert result.exit_code == 0 and json.loads(rows[1])["type"] == "draw" and rows[-1] == "... and 24 more (--limit)"


def test_nothing_is_legal_after_the_end(tmp_path: Path) -> None:
    path = write(tmp_path, "over.jsonl", lines([{"by": "ann", "type": "concede"}, {"by": "bob", "type": "concede"}]))
    assert "nothing: the game is over" in invoke("validate", str(path)).stdout


def test_play_reports_a_ruleset_bug_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.ruleset import Illegal
    from referee.rulesets import get

    def broken(state: object, rng: object) -> object:
        raise Illegal("CW-0.0", "this bot is broken")

    monkeypatch.setattr(get("cardwars"), "sample", broken)
    result = invoke("play", "cardwars", "--seed", "1")
    assert result.exit_code == 1 and "internal error" in result.stderr and "CW-0.0" in result.stderr


def test_grid_draws_the_spacegrid_as_text_and_svg(tmp_path: Path) -> None:
    path = tmp_path / "sg.jsonl"
    assert invoke("play", "stccg-multiplayer", "--seed", "3", "--players", "3", "--out", str(path)).exit_code == 0
    text = invoke("grid", str(path), "--at", "20")
    assert text.exit_code == 0 and text.stdout.startswith("centre: N") and "spoke 3:" in text.stdout
    svg = tmp_path / "grid.svg"
    assert invoke("grid", str(path), "--svg", str(svg)).exit_code == 0
    assert svg.read_text().startswith("<svg") and "</svg>" in svg.read_text()


def test_schema_to_a_folder_that_cannot_be_made_is_a_usage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = invoke("schema", "--out", str(blocker / "json"))
    assert result.exit_code == 2 and result.stderr.startswith("referee: ") and "Traceback" not in result.stderr
