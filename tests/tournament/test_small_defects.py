"""Issue 34, point 8: the small defects of the tournament's command line, each with its test (T-161 to T-168)."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

from sqlalchemy.orm import Session

from referee.inputs import EXIT_TOO_LARGE, LOG_LIMIT, TEXT_LIMIT
from tests.tournament.decklib import deck_of, list_text
from tests.tournament.tablelib import live_event, look
from tests.tournament.tlib import cli, cli_json
from tests.tournament.webkit import client, codes, make_event, organiser, organiser_page
from tournament import service
from tournament.service import livetable


def sparse(path: Path, size: int) -> Path:
    """A regular file of `size` zero bytes that takes no disk."""
    with path.open("wb") as stream:
        os.truncate(stream.fileno(), size)
    return path


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


# -- verify --against reads every head of a line ---------------------------------------------------


def test_a_heads_line_with_a_right_head_then_a_wrong_one_fails_verify(db: str, tmp_path: Path) -> None:
    cli(db, "create", "ev", "--seed", "1")
    cli(db, "register", "ev", "ann", "bob")
    right = cli(db, "head", "ev").stdout.strip()
    seq = int(right.partition("@")[2].partition(":")[0])
    wrong = f"ev@{seq}:{'0' * 16}"
    heads = tmp_path / "heads.txt"
    heads.write_text(f"slip: {right} and {wrong}\n")
    failed = cli(db, "verify", "ev", "--against", str(heads), code=service.EXIT_VERIFY_FAILED)
    assert f"head {wrong} ({heads} line 1) is not in the log" in failed.stderr, failed.stderr
    heads.write_text(f"{right} ev@{seq}:0123abc\n")  # a head cut short beside a right one
    refused = cli(db, "verify", "ev", "--against", str(heads), code=service.EXIT_USAGE).stderr
    assert refused == f"tournament: {heads} line 1: 'ev@{seq}:0123abc' is not a whole log head (EVENT@SEQ:HASH, 16 hex digits or more)\n"


# -- every input read with a bound -----------------------------------------------------------------


def test_verify_against_and_register_from_read_with_a_bound(db: str, tmp_path: Path) -> None:
    cli(db, "create", "ev", "--seed", "1")
    huge = sparse(tmp_path / "huge.txt", TEXT_LIMIT + 1)
    for command in (["verify", "ev", "--against", str(huge)], ["register", "ev", "--from", str(huge)]):
        failed = cli(db, *command, code=EXIT_TOO_LARGE)
        assert one_line(failed.stderr) == f"tournament: {huge}: more than 16 MiB, the most a file may hold; nothing was read past it"
    for command in (["verify", "ev", "--against", "/dev/zero"], ["register", "ev", "--from", "/dev/zero"]):
        failed = cli(db, *command, code=service.EXIT_USAGE)  # a device is no file of heads or players: refused unread
        assert one_line(failed.stderr) == "tournament: /dev/zero: is a device or socket, not a regular file"
    cli(db, "register", "ev", "ann", "bob")
    cli(db, "pair", "ev")
    log = sparse(tmp_path / "game.jsonl", LOG_LIMIT + 1)
    failed = cli(db, "report", "ev", "--table", "1", "--log", str(log), code=EXIT_TOO_LARGE)
    assert f"{log}: more than 64 MiB, the most a log may hold" in one_line(failed.stderr)


def test_deck_refuses_a_fifo_nobody_writes(db: str, tmp_path: Path) -> None:
    cli(db, "create", "ev", "--ruleset", "crossover", "--best-of", "1", "--no-require-chain")
    cli(db, "register", "ev", "ann")
    fifo = tmp_path / "ann.txt"
    os.mkfifo(fifo)
    outcome: list[str] = []
    worker = threading.Thread(target=lambda: outcome.append(cli(db, "deck", "ev", "ann", str(fifo), code=service.EXIT_USAGE).stderr))
    worker.start()
    worker.join(30)
    if worker.is_alive():  # the old code waits for a writer: be one, so the test ends either way
        with fifo.open("w") as stream:
            stream.write(list_text(deck_of("ann")))
        worker.join(30)
        raise AssertionError("tournament deck waited on a FIFO nobody writes")
    assert one_line(outcome[0]) == f"tournament: {fifo}: is a FIFO, not a regular file"


# -- the web: HEAD, Cache-Control --------------------------------------------------------------------


def web_event(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'tournament.db'}"
    make_event(url)
    codes(url)
    return url


def test_head_requests_answer_like_get_without_a_body(tmp_path: Path) -> None:
    with client(web_event(tmp_path)) as c:
        for path in ("/", "/e/ev", "/e/ev/standings", "/api/events", "/static/headjudge.css"):
            got, head = c.get(path), c.head(path)
            assert (head.status_code, head.content) == (got.status_code, b""), path
            assert head.headers["content-type"] == got.headers["content-type"], path
        assert c.head("/no/such/page").status_code == 404
        # a code shown once is not spent by a HEAD of the page that shows it (a link checker, a prefetch)
        organiser_page(c)
        page = c.get("/admin/e/ev").text
        form = re.search(r'<form method="post" action="/admin/e/ev/code"[^>]*>(.*?)</form>', page, re.S)
        assert form
        fields = dict(re.findall(r'<input type="hidden" name="(_csrf_token|_key)" value="([^"]+)">', form.group(1)))
        made = c.post("/admin/e/ev/code", data={"player": "ann", **fields}, follow_redirects=False)
        assert c.head(made.headers["location"]).status_code == 200
        assert re.search(r"<p><code>([^<]+)</code></p>", c.get(made.headers["location"]).text), "the GET still shows it"


def test_pages_behind_a_session_carry_cache_control_private_no_store(tmp_path: Path) -> None:
    with client(web_event(tmp_path)) as c:
        assert "no-store" not in c.get("/e/ev").headers.get("cache-control", "")  # a public page, no session
        organiser_page(c)  # the session cookie from here on
        for path in ("/admin", "/admin/e/ev", "/e/ev"):
            answer = c.get(path)
            assert answer.status_code == 200 and answer.headers["cache-control"] == "private, no-store", path
        api = organiser(c)
        assert c.get("/api/me", headers=api).headers["cache-control"] == "private, no-store"
        assert "immutable" in c.get("/static/headjudge.css").headers["cache-control"]  # its own caching kept


# -- a paper table's records -----------------------------------------------------------------------


def test_a_paper_tables_records_do_not_read_the_deal(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tournament.db'}"
    engine = live_event(url, mode="paper", ruleset="cardwars")
    first = look(engine, None)
    actor = next(p for p in first.players if look(engine, p).legal)
    view = look(engine, actor)
    draw = next(r for r in view.legal if r.get("by") == "chance")  # at paper, a player writes down the draw
    with Session(engine) as session, session.begin():
        livetable.append(session, "ev", 1, actor, draw, view.seq)
    engine.dispose()
    with client(url) as c:
        panel = c.get("/e/ev/tables/1/panel").text
    assert "the deal" not in panel, panel
    assert "chance: draw" in panel


# -- standings: no game, no game-win percentage ----------------------------------------------------


def test_final_standings_give_no_game_win_percentage_to_who_never_played(db: str) -> None:
    cli(db, "create", "ev", "--seed", "1", "--best-of", "3")
    cli(db, "register", "ev", "ann", "bob", "cat", "dan", "eve")
    cli(db, "drop", "ev", "eve")  # a no-show, dropped before round 1
    for row in cli_json(db, "pair", "ev")["tables"]:
        cli(db, "report", "ev", "--table", str(row["table"]), "2-1")
    rows = {r["player"]: r for r in cli_json(db, "standings", "ev")}
    assert rows["eve"]["tiebreakers"] == {"omw": None, "gw": None, "ogw": None}  # nothing to measure
    assert all(isinstance(rows[p]["tiebreakers"]["gw"], float) for p in ("ann", "bob", "cat", "dan"))
    line = next(line for line in cli(db, "standings", "ev").stdout.splitlines() if "eve" in line)
    assert line.count("—") == 3, line
    csv = cli(db, "standings", "ev", "--format", "csv").stdout
    assert "—" in next(line for line in csv.splitlines() if "eve" in line)


# -- the top cut's notice --------------------------------------------------------------------------


def test_the_top_cut_notice_names_players_and_tells_namesakes_apart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tournament.db'}"
    make_event(url, ("ann", "ann-2", "cat", "dan"), display={"ann": "Ann Lee", "ann-2": "ann lee", "cat": "Cat Ruiz", "dan": "Dan Ode"})
    codes(url)
    with client(url) as c:
        admin = organiser(c)
        tables = c.get("/api/events/ev/round").json()["tables"]
        c.post("/api/admin/events/ev/results", json={"scores": {t["table"]: "1-0" for t in tables}}, headers=admin)
        cut = c.post("/api/admin/events/ev/cut", json={"size": 4}, headers=admin).json()
    message = cut["message"]
    assert message.startswith("top 4: ") and "Cat Ruiz" in message and "Dan Ode" in message, message
    # told apart by the order they registered (T-235), never by their ids
    assert "Ann Lee (1st entry)" in message and "ann lee (2nd entry)" in message, message
    assert "(ann" not in message, message
    assert "cat," not in message and not message.endswith("dan")


# -- a decided bracket, a finished event -----------------------------------------------------------


def test_a_decided_bracket_disables_pairing_and_a_finished_event_takes_no_clock(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tournament.db'}"
    make_event(url, format="single")
    codes(url)
    with client(url) as c:
        admin = organiser(c)
        for final in (False, True):  # the semifinals, then the final
            tables = c.get("/api/events/ev/round").json()["tables"]
            assert c.post("/api/admin/events/ev/results", json={"scores": {t["table"]: "1-0" for t in tables}}, headers=admin).status_code == 201
            if not final:
                assert c.post("/api/admin/events/ev/pair", headers=admin).status_code == 201
        organiser_page(c)
        page = c.get("/admin/e/ev").text
        assert re.search(r"<button type=\"submit\" disabled>Pair round 3</button>", page), page
        assert "the bracket is decided: finish the event" in page
        assert c.post("/api/admin/events/ev/finish", headers=admin).status_code == 201
        started = c.post("/api/admin/events/ev/clock", json={"minutes": 50}, headers=admin)
        assert started.status_code == 409 and started.json()["error"] == "'ev' is finished: its clock does not start"
        extended = c.post("/api/admin/events/ev/extend", json={"table": 1, "minutes": 5}, headers=admin)
        assert extended.status_code == 409 and extended.json()["error"] == "'ev' is finished: no table takes extra time"
        page = c.get("/admin/e/ev").text
        assert "Start the clock" not in page and "Give extra time" not in page and "the clock is stopped" in page
