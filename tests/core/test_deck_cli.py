"""`referee deck check` and `referee deck show`: fixed decks, bad input, and lists made from logs read back the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee import decks
from referee.cli import app
from referee.rulesets import get as get_ruleset
from tests.decklists import deck_check, legal, malformed

runner = CliRunner()
WITH_DECKS = ("basictcg-mtg", "crossover", "stccg-multiplayer")
XO = "game: mtg\nGrand Marshal Orra\nHill Skirmisher\n"  # a short (illegal, XO-1.2) list of built-in cards


@pytest.mark.parametrize("ruleset", ["cardwars", "maginot"])
def test_a_fixed_deck_needs_no_list(ruleset: str) -> None:
    code, verdict, _ = deck_check(ruleset, b"anything at all")
    assert code == 0 and verdict["verdict"] == "fixed" and "standard 54-card deck" in verdict["fixed"]
    result = runner.invoke(app, ["deck", "check", "-", "--ruleset", ruleset], input=b"")
    assert result.exit_code == 0 and "no deck list is needed" in result.stdout


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["deck", "check", "-", "--ruleset", "chess"], input=b"")
    assert result.exit_code == 2 and "unknown ruleset 'chess'" in result.stderr
    result = runner.invoke(app, ["deck", "check", str(tmp_path / "none.txt"), "--ruleset", "crossover"])
    assert result.exit_code == 2 and "no such file" in result.stderr
    result = runner.invoke(app, ["deck", "check", str(tmp_path), "--ruleset", "crossover"])
    assert result.exit_code == 2 and "is a directory" in result.stderr


def test_a_list_over_one_mebibyte_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"game: mtg\n" + b"Hill Skirmisher\n" * 70_000)  # about 1.1 MB
    result = runner.invoke(app, ["deck", "check", str(big), "--ruleset", "crossover"])
    assert result.exit_code == 3 and f"{big}: the file holds" in result.stderr and "at most 1,048,576" in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_byte_order_mark_is_skipped() -> None:
    plain = deck_check("crossover", XO)
    assert deck_check("crossover", b"\xef\xbb\xbf" + XO.encode()) == plain
    assert deck_check("crossover", b"\xef\xbb\xbf" + json.dumps({"game": "mtg", "cards": []}).encode())[0] == 1


def test_blank_lines_comments_and_crlf_are_fine() -> None:
    messy = "\r\n# my deck\r\n\r\n   game:   mtg  \r\n\r\n  Grand Marshal Orra\r\n# a comment\r\n1x Hill Skirmisher\r\n\r\n"
    assert deck_check("crossover", messy) == deck_check("crossover", XO)


@pytest.mark.parametrize(
    ("data", "line", "field", "words"),
    [
        (b"game: mtg\nGrand Marshal Orra\n\xff\xfeHill\n", 3, None, "not UTF-8: byte 0xff at column 1"),
        (b"game: mtg\nGrand \x01Marshal\n", 2, "line", "control character"),
        (b"game: mtg\n0 Hill Skirmisher\n", 2, "count", "a count is 1 to 999"),
        (b"game: mtg\n1000 Hill Skirmisher\n", 2, "count", "a count is 1 to 999"),
        (b"game: mtg\n" + b"x" * 101 + b"\n", 2, "card", "at most 100 characters"),
        (b"game: mtg\n%%% garbage %%%\n", 2, "card", "unknown card '%%% garbage %%%'"),
        (b"game:\nHill Skirmisher\n", 1, "game", "game is empty"),
        (b'{"game": "mtg",\n "cards": [1]}', None, "cards[0]", "Expected `object`, got `int`"),
        (b'{"game": "mtg", "cards": [], "colour": "red"}', None, "colour", "unknown field"),
        (b'{"game": "mtg", "game": "dothack", "cards": []}', None, "game", "appears twice"),
        (b'{"game": "mtg",\n\n "cards": [}', 3, None, "not valid JSON"),
    ],
)
def test_bad_input_is_one_line_naming_the_line_and_field(data: bytes, line: int | None, field: str | None, words: str) -> None:
    error, stderr = malformed("crossover", data)
    assert error.get("line") == line and error.get("field") == field and words in error["message"], error
    where = "stdin" + (f" line {line}" if line else "") + (f", field {field}" if field else "")
    assert stderr.startswith(f"referee: {where}: ")


@pytest.mark.parametrize("ruleset", WITH_DECKS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_show_text_and_json_read_back_as_the_same_deck(ruleset: str, seed: int, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert runner.invoke(app, ["play", ruleset, "--seed", str(seed), "--players", "3", "--out", str(log)]).exit_code == 0
    header = json.loads(log.read_bytes().splitlines()[0])
    rules = decks.rules_of(get_ruleset(ruleset))
    for player in header["players"]:
        text = runner.invoke(app, ["deck", "show", str(log), player])
        shown = runner.invoke(app, ["deck", "show", str(log), player, "--json"])
        assert text.exit_code == 0 and shown.exit_code == 0
        by_text, by_json = legal(ruleset, text.stdout), legal(ruleset, shown.stdout)
        assert by_text == by_json
        # the list is the deck the game was played with, card for card
        played = rules.deck_of(_setup(ruleset, header), player)
        assert decks.differences(rules, decks.read(text.stdout.encode(), rules), played) == []
        assert decks.differences(rules, decks.read(shown.stdout.encode(), rules), played) == []


def _setup(ruleset: str, header: dict[str, object]) -> object:
    import msgspec

    return msgspec.convert(header["setup"], get_ruleset(ruleset).setup_type)


def test_show_errors(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    runner.invoke(app, ["play", "crossover", "--seed", "4", "--out", str(log)])
    result = runner.invoke(app, ["deck", "show", str(log), "zed"])
    assert result.exit_code == 2 and "'zed' is not a player of this game (players: ann, bob)" in result.stderr
    cardwars = tmp_path / "cw.jsonl"
    runner.invoke(app, ["play", "cardwars", "--seed", "4", "--out", str(cardwars)])
    result = runner.invoke(app, ["deck", "show", str(cardwars), "ann"])
    assert result.exit_code == 2 and "standard 54-card deck" in result.stderr and "no deck list" in result.stderr
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b'{"log": "referee-log/1", "ruleset": "crossover", "game": "g", "players": ["ann"], "setup": 5}\n')
    result = runner.invoke(app, ["deck", "show", str(broken), "ann"])
    assert result.exit_code == 3 and f"{broken} line 1, field setup" in result.stderr


def test_differences_name_each_card() -> None:
    rules = decks.rules_of(get_ruleset("stccg-multiplayer"))
    base = "Missions\n" + "".join(f"M{i} (Alpha, planet, span {i})\n" for i in range(1, 7))
    registered = decks.read((base + "Seed deck\n24 Sensor Ghost\nDraw deck\n29 Red Alert\n1 Tricorder\n").encode(), rules)
    played = decks.read(
        (base.replace("span 3", "span 4") + "Seed deck\n23 Sensor Ghost\n1 Q\nDraw deck\n30 Red Alert\n").encode(), rules
    )
    found = [(d.card, d.change, d.section) for d in decks.differences(rules, registered, played)]
    assert found == [
        ("M3", "stats", "Missions"), ("Sensor Ghost", "count", "Seed deck"), ("Red Alert", "count", "Draw deck"),
        ("Tricorder", "missing", "Draw deck"), ("Q", "added", "Seed deck"),
    ]  # fmt: skip
    messages = [d.message for d in decks.differences(rules, registered, played)]
    assert messages[0] == "M3 (Missions): registered 1 M3 (Alpha, planet, span 3), in the game 1 M3 (Alpha, planet, span 4)"
    assert messages[1] == "Sensor Ghost (Seed deck): 23 in the game, 24 registered"


def test_deck_show_and_check_read_a_pipe_as_every_referee_command_does(tmp_path: Path) -> None:
    """`referee deck show <(zcat g.jsonl.gz) ann`: a pipe was "no such file" (exit 2) to both deck commands,
    which checked for a regular file, where validate, replay and dispute read it (T-161: pipes as ever)."""
    import os
    import subprocess
    import sys
    import threading

    from referee.bots import bot_header, play
    from referee.logio import encode_lines

    header = bot_header("crossover", 3)
    log = b"".join(line + b"\n" for line in encode_lines(header, play(header, 3)))

    def through_a_fifo(name: str, data: bytes, args: list[str]) -> subprocess.CompletedProcess[bytes]:
        fifo = tmp_path / name
        os.mkfifo(fifo)
        writer = threading.Thread(target=fifo.write_bytes, args=(data,), daemon=True)
        writer.start()
        try:
            return subprocess.run([sys.executable, "-m", "referee", *[str(fifo) if a == "FIFO" else a for a in args]],
                                  capture_output=True, timeout=120)
        finally:
            writer.join(timeout=5)

    shown = through_a_fifo("log", log, ["deck", "show", "FIFO", "ann"])
    assert shown.returncode == 0 and shown.stdout.startswith(b"game: "), shown.stderr
    checked = through_a_fifo("deck", shown.stdout, ["deck", "check", "FIFO", "--ruleset", "crossover", "--json"])
    assert checked.returncode == 0 and json.loads(checked.stdout)["verdict"] == "legal", checked.stderr
