"""Log heads that outlive the database (issue 23): printed on pages, slips and exports, and `verify --against`.

Someone with the database can rewrite an entry and compute the whole chain again: `verify` alone then finds
nothing. A head kept from before (a slip, a screenshot, an export) is not in the rewritten log, and
`verify --against` names it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from tests.tournament.tlib import cli, cli_json, rewrite_log, tables, write_log
from tests.tournament.webkit import client
from tournament import service
from tournament.service.heads import Head, missing, read_heads

HEAD = re.compile(r"ev@(\d+):([0-9a-f]{16})")


def head(db: str) -> str:
    return cli(db, "head", "ev").stdout.strip()


def event_with_heads(db: str, tmp_path: Path) -> list[str]:
    """An event played through a round, with its head kept at each step (as people would keep slips and pages)."""
    kept = []
    cli(db, "create", "ev", "--seed", "1")
    kept.append(head(db))
    cli(db, "register", "ev", "ann", "bob", "cat", "dan")
    kept.append(head(db))
    cli(db, "pair", "ev")
    kept.append(head(db))
    for row in tables(db, "ev"):
        a, b = row["players"]
        path, _ = write_log(tmp_path, a, b, row["table"])
        cli(db, "report", "ev", "--table", str(row["table"]), "--log", str(path))
    kept.append(head(db))
    return kept


def test_head_prints_the_last_entry(db_url: str, tmp_path: Path) -> None:
    kept = event_with_heads(db_url, tmp_path)
    log = cli_json(db_url, "log", "ev")
    assert kept[-1] == f"ev@{log[-1]['seq']}:{log[-1]['hash'][:16]}"
    assert [HEAD.fullmatch(h) is not None for h in kept] == [True] * 4
    data = cli_json(db_url, "head", "ev")
    assert data == {"event": "ev", "seq": log[-1]["seq"], "hash": log[-1]["hash"], "head": kept[-1], "at": log[-1]["at"]}
    cli(db_url, "head", "nope", code=service.EXIT_NOT_FOUND)


def test_the_head_is_printed_on_pages_slips_and_exports(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev", "--seed", "1")
    cli(db_url, "register", "ev", "ann", "bob", "cat", "dan")
    cli(db_url, "pair", "ev")
    now = head(db_url)
    assert json.loads(cli(db_url, "export", "ev").stdout)["event"]["head"] == now
    for args in (["standings", "ev", "--format", "html"], ["pairings", "ev", "--format", "html"], ["pairings", "ev", "--by", "name", "--format", "html"]):
        assert f"log head <code>{now}</code>" in cli(db_url, *args).stdout, args
    slips = cli(db_url, "slips", "ev").stdout
    assert slips.count(f"log head <code>{now}</code>") == len(tables(db_url, "ev"))  # on every slip
    with client(db_url) as c:
        for page in ("/e/ev", "/e/ev/standings", "/e/ev/round/1"):
            assert f"log head <code>{now}</code>" in c.get(page).text, page
        assert c.get("/api/events/ev").json()["head"] == now


def rewrite_and_rechain(db: str, seq: int, player: str, name: str) -> None:
    """Rename `player` inside the `player_registered` entry `seq` and in the tables, then compute every hash
    after it again: a rewrite that `verify` alone cannot see."""

    def renamed(number: int, kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        if number != seq:
            return None
        assert kind == "player_registered" and payload["player"] == player
        return payload | {"name": name}

    engine = create_engine(db)
    with engine.begin() as connection:
        rewrite_log(connection, "ev", renamed)
        connection.execute(text("UPDATE players SET display_name = :n WHERE event_id = 'ev' AND name = :p"), {"n": name, "p": player})
    engine.dispose()


def test_verify_against_heads_catches_a_rewritten_and_rechained_log(db_url: str, tmp_path: Path) -> None:
    kept = event_with_heads(db_url, tmp_path)
    heads = tmp_path / "heads.txt"
    # as collected: a slip's line with words around it, another event's head, a blank line
    heads.write_text(f"slip of table 1: log head {kept[0]}\n{kept[1]}\n\nother@3:0123456789abcdef\n{kept[2]}\n{kept[3]}\n")
    honest = cli(db_url, "verify", "ev", "--against", str(heads))
    assert honest.stdout.startswith("ev: ") and "4 kept heads, all in the log" in honest.stdout, honest.stdout
    registered = int(HEAD.fullmatch(kept[1]).group(1))  # type: ignore[union-attr]
    rewrite_and_rechain(db_url, registered - 1, "cat", "Someone Else")  # an entry between the first two heads
    assert "chain intact, tables agree with the log" in cli(db_url, "verify", "ev").stdout  # unseen without heads
    caught = cli(db_url, "verify", "ev", "--against", str(heads), code=service.EXIT_VERIFY_FAILED)
    findings = caught.stderr.strip().splitlines()
    assert len(findings) == 3, findings  # every head after the rewritten entry
    for finding, kept_head in zip(findings, kept[1:], strict=True):
        assert finding.startswith(f"ev: head {kept_head} ({heads} line ") and " is not in the log: entry " in finding
    assert kept[0] not in caught.stderr  # the log up to the first head is as it was
    as_json = json.loads(cli(db_url, "verify", "ev", "--against", str(heads), "--json", code=service.EXIT_VERIFY_FAILED).stdout)
    assert as_json["ok"] is False and as_json["heads"] == {"checked": 4, "other_events": 1} and len(as_json["problems"]) == 3


def test_a_heads_file_without_a_head_on_a_line_is_a_usage_error(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "ev", "--seed", "1")
    heads = tmp_path / "heads.txt"
    heads.write_text(f"{head(db_url)}\nev@12:not-a-hash\n")
    failed = cli(db_url, "verify", "ev", "--against", str(heads), code=service.EXIT_USAGE)
    assert failed.stderr.startswith(f"tournament: {heads} line 2: no log head") and len(failed.stderr.splitlines()) == 1
    cli(db_url, "verify", "ev", "--against", str(tmp_path / "missing.txt"), code=service.EXIT_USAGE)


def test_a_head_past_the_end_of_the_log_is_a_finding() -> None:
    heads = read_heads("ev@9:0123456789abcdef\nev@2:aaaaaaaaaaaaaaaa\nev@1:0123456789abcdef0123\n", "h.txt")
    assert heads[0] == Head("ev", 9, "0123456789abcdef", "h.txt line 1")
    found = missing(heads, {1: "0123456789abcdef0123" + "0" * 44, 2: "b" * 64})
    assert found == [
        "head ev@9:0123456789abcdef (h.txt line 1) is not in the log: it has no entry 9 (2 entries)",
        "head ev@2:aaaaaaaaaaaaaaaa (h.txt line 2) is not in the log: entry 2 is now bbbbbbbbbbbbbbbb",
    ]


def test_a_head_in_quotes_or_brackets_is_read_as_the_head_it_is() -> None:
    """A head copied from `tournament head --json` (in quotes), a list or a page's markup is a whole head: the check
    for a head cut short beside a good one must not take the quote or bracket after it for part of its hash."""
    head = "ev@12:" + "0123456789abcdef" * 4
    emitted = json.dumps({"event": "ev", "seq": 12, "head": head})  # as `head --json` prints it
    for line in (emitted, f"[{head}]", f"<code>{head}</code>", f"'{head}'", f"({head}).", f"{head}!"):
        assert [h.text for h in read_heads(line, "heads.txt")] == [head], line
    short = "ev@13:0123abc"
    try:
        read_heads(f'"{head}" and "{short}"', "heads.txt")
    except service.Usage as exc:
        assert f"{short!r} is not a whole log head" in exc.message
    else:
        raise AssertionError("a head cut short beside a good one was passed over")
