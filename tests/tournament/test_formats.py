"""Single elimination, round robin and the top cut through the CLI, on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import itertools
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from sqlalchemy.orm import Session

from referee.bots import play
from referee.engine import judge_file
from referee.logio import encode_lines
from referee.rulesets import get as get_ruleset
from schemas.log import LOG_FORMAT, Header, Time
from schemas.tournament import Export
from tests.tournament.tlib import cli, cli_json, downgrade, tables, write_log
from tournament import service
from tournament.storage.db import make_engine, open_database
from tournament.storage.eventlog import BracketSeeded, PodsPaired, RoundPaired, append


def create(db: str, fmt: str, players: list[str], *, event: str = "ev", best_of: int = 1) -> None:
    cli(db, "create", event, "--format", fmt, "--seed", "3", "--best-of", str(best_of))
    cli(db, "register", event, *players)


def report_round(db: str, tmp_path: Path, event: str = "ev", *, lower: bool = False) -> None:
    """Report every open table with a judge's 1-0: the first-listed player wins, or the second with `lower`."""
    for row in tables(db, event):
        if row["games"] is None:
            a, b = row["players"]
            won, lost = (b, a) if lower else (a, b)
            cli(db, "report", event, "--table", str(row["table"]), "--result", f"{won}=1,{lost}=0", "--reason", "test")


def bracket(db: str, event: str = "ev") -> Any:
    return cli_json(db, "bracket", event)


def test_single_elimination_seeds_byes_and_champion(db_url: str, tmp_path: Path) -> None:
    create(db_url, "single", ["a", "b", "c", "d", "e", "f"])
    cli(db_url, "seed", "ev", "a", "b", "c", "d", "e", "f")
    cli(db_url, "pair", "ev")
    first = bracket(db_url)["rounds"][0]["pairs"]
    assert [p["players"] for p in first] == [["a", None], ["d", "e"], ["b", None], ["c", "f"]]
    assert [p["winner"] for p in first if None in p["players"]] == ["a", "b"]  # byes to the top seeds
    assert [t["players"] for t in tables(db_url, "ev")] == [["d", "e"], ["c", "f"]]
    assert cli_json(db_url, "pairings", "ev")["advanced"] == ["a", "b"]
    assert [row[:2] for row in csv.reader(io.StringIO(cli(db_url, "pairings", "ev", "--format", "csv").stdout))][-2:] == [
        ["bye", "a"], ["bye", "b"]
    ]
    report_round(db_url, tmp_path, lower=True)  # e and f win
    cli(db_url, "pair", "ev")
    assert [t["players"] for t in tables(db_url, "ev")] == [["a", "e"], ["b", "f"]]
    report_round(db_url, tmp_path)
    cli(db_url, "pair", "ev")
    assert [t["players"] for t in tables(db_url, "ev")] == [["a", "b"]]
    report_round(db_url, tmp_path, lower=True)
    done = bracket(db_url)
    assert done["champion"] == "b"
    assert "champion: b" in cli(db_url, "bracket", "ev").stdout
    ranks = [s["player"] for s in cli_json(db_url, "standings", "ev")]
    assert ranks == ["b", "a", "e", "f", "c", "d"]  # by how far they got, then by seed
    refused = cli(db_url, "pair", "ev", code=service.EXIT_CONFLICT)
    assert "decided: b won" in refused.stderr
    cli(db_url, "verify", "ev")
    html = cli(db_url, "standings", "ev", "--format", "html").stdout
    assert "<svg" in html and '<text x="' in html and 'class="champion" text-anchor="start">b</text>' in html  # the champion's box


def test_a_bracket_match_needs_a_winner(db_url: str, tmp_path: Path) -> None:
    create(db_url, "single", ["a", "b"], best_of=1)
    cli(db_url, "pair", "ev")
    a, b = tables(db_url, "ev")[0]["players"]
    refused = cli(db_url, "report", "ev", "--table", "1", "--result", f"{a}=0,{b}=0", "--draws", "1", "--reason", "r",
                  code=service.EXIT_USAGE)
    assert "needs a winner" in refused.stderr
    # A tied match goes on past the best of N: a draw and then a win is a finished match.
    cli(db_url, "report", "ev", "--table", "1", "--result", f"{a}=1,{b}=0", "--draws", "1", "--reason", "playoff game")
    assert bracket(db_url)["champion"] == a
    # A drawn game's log leaves the match unfinished; the next game's log decides it.
    create(db_url, "single", ["c", "d"], event="ev2")
    cli(db_url, "pair", "ev2")
    c, d = tables(db_url, "ev2")[0]["players"]
    drawn = tmp_path / "drawn.jsonl"
    drawn.write_bytes(timed_out(c, d))
    refused = cli(db_url, "report", "ev2", "--table", "1", "--log", str(drawn), code=service.EXIT_LOG_REJECTED)
    assert "tied: a bracket match goes on" in refused.stderr
    decider, won = write_log(tmp_path, c, d, 5)
    reported = cli_json(db_url, "report", "ev2", "--table", "1", "--log", str(drawn), "--log", str(decider))
    assert reported["table"]["draws"] == 1 and reported["table"]["games"][won] == 1


def timed_out(a: str, b: str) -> bytes:
    """A cardwars game the judge ends early for time: a drawn game (CW rules: `time` is a draw)."""
    setup = get_ruleset("cardwars").default_setup([a, b], random.Random(1))
    header = Header(log=LOG_FORMAT, ruleset="cardwars", game="timed", players=[a, b], setup=msgspec.Raw(msgspec.json.encode(setup)))
    records = [*itertools.islice(play(header, 1), 5), Time(seq=0, by="judge")]
    return b"".join(line + b"\n" for line in encode_lines(header, records))


def test_drops_in_a_bracket(db_url: str, tmp_path: Path) -> None:
    create(db_url, "single", ["a", "b", "c", "d"])
    cli(db_url, "seed", "ev", "a", "b", "c", "d")
    cli(db_url, "pair", "ev")
    cli(db_url, "drop", "ev", "d")  # mid-round: concedes to a
    report_round(db_url, tmp_path)  # b beats c
    cli(db_url, "drop", "ev", "b")  # between rounds: a goes through; a final without an opponent is not played
    assert "decided: a won it" in cli(db_url, "pair", "ev", code=service.EXIT_CONFLICT).stderr
    assert bracket(db_url)["rounds"][1]["pairs"] == [{"players": ["a", None], "table": None, "winner": "a", "node": None, "games": None}]
    assert bracket(db_url)["champion"] == "a"
    cli(db_url, "verify", "ev")


def test_round_robin_plays_everyone_once(db_url: str, tmp_path: Path) -> None:
    players = ["a", "b", "c", "d", "e"]
    create(db_url, "roundrobin", players)
    met: set[frozenset[str]] = set()
    byes = []
    for _ in range(5):
        paired = cli_json(db_url, "pair", "ev")
        byes.append(paired["bye"])
        met.update(frozenset(t["players"]) for t in paired["tables"])
        report_round(db_url, tmp_path)
    assert len(met) == 10 and sorted(byes) == players
    assert "all 5 rounds" in cli(db_url, "pair", "ev", code=service.EXIT_CONFLICT).stderr
    cli(db_url, "register", "ev", "late", code=service.EXIT_CONFLICT)
    cli(db_url, "verify", "ev")
    cli(db_url, "bracket", "ev", code=service.EXIT_NOT_FOUND)


def test_top_cut_seeds_in_ranking_order(db_url: str, tmp_path: Path) -> None:
    players = [f"p{i}" for i in range(1, 11)]
    create(db_url, "swiss", players)
    for _ in range(3):
        cli(db_url, "pair", "ev")
        report_round(db_url, tmp_path)
    order = [s["player"] for s in cli_json(db_url, "standings", "ev")]
    cut = cli_json(db_url, "cut", "ev", "--cut", "8")
    assert cut["seeds"] == order[:8] and cut["bracket_round"] == 4
    cli(db_url, "cut", "ev", "--cut", "8", code=service.EXIT_CONFLICT)
    seeds = cut["seeds"]
    cli(db_url, "drop", "ev", seeds[2])  # seed 3 drops after the cut: seed 1 gets the bye
    cli(db_url, "pair", "ev")
    first = bracket(db_url)["rounds"][0]["pairs"]
    left = [s for s in seeds if s != seeds[2]]
    assert first[0]["players"] == [left[0], None]
    assert [t["players"] for t in tables(db_url, "ev")] == [[left[3], left[4]], [left[1], left[6]], [left[2], left[5]]]
    cli(db_url, "register", "ev", "late", code=service.EXIT_CONFLICT)
    while not bracket(db_url)["champion"]:
        report_round(db_url, tmp_path)
        if not bracket(db_url)["champion"]:
            cli(db_url, "pair", "ev")
    standings = [s["player"] for s in cli_json(db_url, "standings", "ev")]
    assert standings[0] == bracket(db_url)["champion"]
    assert set(standings[:8]) == set(seeds) and standings[8:] == order[8:]
    cli(db_url, "verify", "ev")


def test_eight_player_cut_pairs_one_eight_four_five_two_seven_three_six(db_url: str, tmp_path: Path) -> None:
    players = [f"p{i}" for i in range(1, 9)]
    create(db_url, "swiss", players)
    cli(db_url, "pair", "ev")
    report_round(db_url, tmp_path)
    seeds = cli_json(db_url, "cut", "ev", "--cut", "8")["seeds"]
    cli(db_url, "pair", "ev")
    expected = [[seeds[a - 1], seeds[b - 1]] for a, b in ((1, 8), (4, 5), (2, 7), (3, 6))]
    assert [t["players"] for t in tables(db_url, "ev")] == expected


def test_format_refusals(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "bad", "--format", "knockout", code=service.EXIT_USAGE)
    create(db_url, "single", ["a", "b", "c"])
    cli(db_url, "cut", "ev", code=service.EXIT_USAGE)
    cli(db_url, "seed", "ev", "a", "b", code=service.EXIT_USAGE)  # c is missing
    cli(db_url, "seed", "ev", "a", "b", "c", "x", code=service.EXIT_USAGE)
    create(db_url, "swiss", ["a", "b", "c"], event="sw")
    cli(db_url, "seed", "sw", "a", "b", "c", code=service.EXIT_USAGE)
    cli(db_url, "cut", "sw", "--cut", "2", code=service.EXIT_CONFLICT)  # no Swiss round yet
    cli(db_url, "pair", "sw")
    cli(db_url, "cut", "sw", "--cut", "2", code=service.EXIT_RESULTS_MISSING)
    report_round(db_url, tmp_path, "sw")
    cli(db_url, "cut", "sw", "--cut", "4", code=service.EXIT_CONFLICT)  # three players
    cli(db_url, "cut", "sw", "--cut", "3", code=service.EXIT_USAGE)


def test_demo_in_each_bracket_format(db_url: str, tmp_path: Path) -> None:
    single = cli_json(db_url, "demo", "--format", "single", "--players", "5", "--best-of", "1", "--logs", str(tmp_path))
    assert single["bracket"]["champion"] == single["standings"][0]["player"]
    assert single["games"] >= 4
    robin = cli_json(db_url, "demo", "--format", "roundrobin", "--players", "4", "--best-of", "1", "--logs", str(tmp_path))
    assert robin["games"] == 6 and robin["bracket"] is None
    topcut = cli_json(db_url, "demo", "--cut", "4", "--players", "6", "--rounds", "2", "--best-of", "1", "--logs", str(tmp_path))
    assert topcut["games"] == 2 * 3 + 3 and topcut["bracket"]["champion"]
    for ran in (single, robin, topcut):
        cli(db_url, "verify", ran["event"])


def test_double_elimination_with_a_reset_final(db_url: str, tmp_path: Path) -> None:
    create(db_url, "double", ["a", "b", "c", "d"])
    cli(db_url, "seed", "ev", "a", "b", "c", "d")

    def play(winners: dict[str, str]) -> list[str]:
        """Pair the next round and report it: `winners` maps a match's node to its winner."""
        cli(db_url, "pair", "ev")
        pairs = bracket(db_url)["rounds"][-1]["pairs"]
        for pair in pairs:
            won = winners[pair["node"]]
            lost = next(p for p in pair["players"] if p != won)
            cli(db_url, "report", "ev", "--table", str(pair["table"]), "--result", f"{won}=1,{lost}=0", "--reason", "t")
        return [p["node"] for p in pairs]

    assert play({"W1-1": "a", "W1-2": "c"}) == ["W1-1", "W1-2"]  # 1-4, 2-3: b loses to c
    assert play({"W2-1": "a", "L1-1": "b"}) == ["W2-1", "L1-1"]  # d out (two losses)
    assert play({"L2-1": "b"}) == ["L2-1"]  # b beats c, the winners' final loser
    assert play({"GF": "b"}) == ["GF"]  # the losers' side wins: reset
    assert play({"GF2": "a"}) == ["GF2"]
    assert bracket(db_url)["champion"] == "a"
    assert [s["player"] for s in cli_json(db_url, "standings", "ev")] == ["a", "b", "c", "d"]
    cli(db_url, "pair", "ev", code=service.EXIT_CONFLICT)
    cli(db_url, "verify", "ev")
    assert "GF2" in cli(db_url, "bracket", "ev").stdout


def test_double_elimination_demo(db_url: str, tmp_path: Path) -> None:
    ran = cli_json(db_url, "demo", "--format", "double", "--players", "6", "--best-of", "1", "--logs", str(tmp_path))
    assert ran["bracket"]["double"] and ran["bracket"]["champion"] == ran["standings"][0]["player"]
    assert ran["games"] in (10, 11)  # 2n - 2 matches, one more with a reset
    cli(db_url, "verify", ran["event"])


@pytest.mark.parametrize("ruleset", ["cardwars", "crossover", "maginot", "stccg-multiplayer", "basictcg-mtg"])
def test_every_two_player_format_runs_a_demo_in_every_game(ruleset: str, tmp_path: Path) -> None:
    """Bot-played, referee-validated demo events (on SQLite; the formats' database tests run on both)."""
    db = f"sqlite:///{tmp_path / 't.db'}"
    runs = [
        ("--format", "single", "--players", "5"),
        ("--format", "double", "--players", "4"),
        ("--format", "roundrobin", "--players", "4"),
        ("--cut", "2", "--rounds", "2", "--players", "4"),
    ]
    for options in runs:
        ran = cli_json(db, "demo", "--ruleset", ruleset, "--best-of", "1", "--logs", str(tmp_path), *options)
        logs = sorted((tmp_path / ran["event"]).glob("*.jsonl"))
        assert len(logs) == ran["games"] > 0
        assert all(judge_file(str(p)).verdict.verdict == "complete" for p in logs)
        cli(db, "verify", ran["event"])
        if ran["bracket"] is not None:
            assert ran["bracket"]["champion"] == ran["standings"][0]["player"]


def hand_made(db: str, payload: BracketSeeded | RoundPaired | PodsPaired, event: str = "ev") -> None:
    """Append an entry made by hand (not by the pairing functions), as a tampering tool would."""
    _, engine = open_database(db)
    with Session(engine) as session, session.begin():
        service.lock_event(session, event)
        append(session, event, payload)
    engine.dispose()


def test_verify_pairs_brackets_pods_and_cuts_again(db_url: str, tmp_path: Path) -> None:
    create(db_url, "single", ["a", "b", "c", "d"])
    cli(db_url, "seed", "ev", "a", "b", "c", "d")
    hand_made(db_url, RoundPaired(1, 3, [("a", "b"), ("c", "d")], None, 0))  # the bracket says 1-4, 2-3
    assert "pairing round 1 again" in cli(db_url, "verify", "ev", code=service.EXIT_VERIFY_FAILED).stderr
    cli(db_url, "verify", "ev", "--no-pairings")


def test_verify_checks_a_pods_round_and_a_cut(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev", "--format", "pods", "--ruleset", "crossover", "--table-size", "3", "--seed", "3")
    cli(db_url, "register", "ev", "a", "b", "c", "d", "e", "f")
    hand_made(db_url, PodsPaired(1, 3, [["a", "b", "c"], ["d", "e", "f"]], [], 0))  # seed 3 seats f e d, b c a
    assert "pairing round 1 again" in cli(db_url, "verify", "ev", code=service.EXIT_VERIFY_FAILED).stderr
    create(db_url, "swiss", ["a", "b", "c", "d"], event="sw")
    cli(db_url, "pair", "sw")
    report_round(db_url, tmp_path, "sw")
    last = [s["player"] for s in cli_json(db_url, "standings", "sw")][::-1]
    hand_made(db_url, BracketSeeded(2, last[:2]), "sw")  # the bottom two, not the top two
    assert "another top cut" in cli(db_url, "verify", "sw", code=service.EXIT_VERIFY_FAILED).stderr


def test_a_swiss_event_from_before_the_format_migrations_still_verifies(db_url: str, tmp_path: Path) -> None:
    """Down to 0001 (no format columns) and up again: the defaults make it the Swiss event its log says."""
    # An event from before 0005 did not require chained logs (its event_created entry has no require_chain).
    cli(db_url, "create", "ev", "--seed", "3", "--no-require-chain")
    cli(db_url, "register", "ev", "a", "b", "c", "d")
    cli(db_url, "pair", "ev")
    report_round(db_url, tmp_path)
    engine = make_engine(db_url)
    with engine.begin() as connection:
        downgrade(connection, "0001")
    engine.dispose()
    cli(db_url, "verify", "ev")  # every command migrates to the newest revision first
    assert cli_json(db_url, "events")[0]["format"] == "swiss"


def test_exports_of_every_format_fit_the_schema(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    runs = [
        ("--format", "double", "--players", "5"),
        ("--cut", "2", "--rounds", "1", "--players", "4"),
        ("--format", "roundrobin", "--players", "3"),
        ("--format", "pods", "--ruleset", "crossover", "--players", "5", "--rounds", "2"),
    ]
    for options in runs:
        ran = cli_json(db, "demo", "--best-of", "1", "--logs", str(tmp_path), *options)
        exported = msgspec.json.decode(cli(db, "export", ran["event"]).stdout, type=Export)  # strict: no unknown fields
        assert exported.event.format == ("pods" if "pods" in options else "double" if "double" in options else
                                         "roundrobin" if "roundrobin" in options else "swiss")
        assert (exported.bracket is not None) == ("double" in options or "--cut" in options)
