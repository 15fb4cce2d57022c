"""Namesakes told apart by words a person reads, never by an id (issue 35, T-185, T-235): one event with two
"Ann Lee" (a returning person's entry and one from before people were kept, linked to no one), an "Ann LEE"
(a new person: case aside, the same name) and an "ann lée" on the waitlist; every page, file and CLI text that
names its players shows each with their label, and none shows the ids that were all that told them apart."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from referee import console
from tests.tournament.tlib import cli, cli_json
from tests.tournament.webkit import (
    ORGANISER_TOKEN,
    client,
    codes,
    database,
    looks_right,
    organiser,
    organiser_page,
    player_page,
    serving,
)
from tournament import service
from tournament.output import render
from tournament.storage.eventlog import PlayerRegistered, append

RETURNING = "Ann Lee (1st entry)"  # a returning person: within the event, her place among its namesakes (T-235)
NEW = "Ann LEE (2nd entry)"  # a new person of the same name
# across events (a season, /people): each person's label, her first event (T-185)
PERSON_RETURNING, PERSON_NEW = "Ann Lee (Spring Open)", "Ann LEE (Summer Open)"
OLD = "Ann Lee (3rd entry)"  # no person (an entry from before 0011): her place among the namesakes, as registered
WAITING = "ann lée (4th entry)"  # on the waitlist, no person yet
PLAYING = (RETURNING, NEW, OLD)
IDS = re.compile(r"\bann-(lee|old)(-\d)?\b")  # the players' ids: never in text a person reads


def text_of(page: str) -> str:
    """What a reader sees of a page: no scripts, styles or tags (an id in a link or a form's field is not read)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def no_ids(text: str, where: str) -> None:
    found = IDS.search(text)
    assert found is None, f"{where} shows an id: ...{text[max(0, found.start() - 100):found.end() + 40]}..."


def close_and_pair(db: str) -> None:
    with database(db) as engine, Session(engine) as session, session.begin():
        service.set_registration(session, "ev", open=False, cap=6)  # the cap kept: ann lée waits on
        service.pair(session, "ev")


def namesakes(db: str) -> None:
    """Spring Open with Ann Lee; Summer Open (`ev`) with her, a new Ann LEE, an Ann Lee of an old log, three
    others (two of names with no Latin letter), an ann lée waiting."""
    cli(db, "db", "upgrade")
    with database(db) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)
        service.create_event(session, "spring", name="Spring Open", ruleset="cardwars", profile="mtg", best_of=1, seed=1)
        service.register_people(session, "spring", [service.Person("Ann Lee")])
        service.create_event(session, "ev", name="Summer Open", ruleset="cardwars", profile="mtg", best_of=1, seed=3)
        service.register_people(session, "ev", [
            service.Person("Ann Lee", person="ann-lee"), service.Person("Ann LEE"), service.Person("Bob Marsh"),
            service.Person("田中 健"), service.Person("李 娜"),  # no letter in common: no namesakes (T-235)
        ])
        service.lock_event(session, "ev")
        append(session, "ev", PlayerRegistered("ann-old", "Ann Lee"))  # as a log from before people were kept
        service.set_registration(session, "ev", open=True, cap=6)
        assert service.sign_up(session, "ev", "ann lée").position == 1


def test_the_labeller_tells_namesakes_apart_by_hint_letter_or_place() -> None:
    named = [render.Named("a", "Ann Lee", "Spring Open"), render.Named("b", "ANN  LÉE"), render.Named("c", "Bob"),
             render.Named("d", "ann lee", "Spring Open"), render.Named("e", "Søren"), render.Named("f", "Soren")]
    assert render.told_apart(named) == {"a": "Spring Open A", "b": "2nd entry", "d": "Spring Open B", "e": "1st entry", "f": "2nd entry"}
    assert render.told_apart([render.Named("x", "田中"), render.Named("y", "李")]) == {}, "names of no Latin letters are not alike"


def test_every_page_and_file_of_the_event_shows_labels_never_ids(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    namesakes(db)
    with client(db) as c:
        token = organiser_page(c)
        desk = text_of(c.get("/admin/e/ev/registration").text)
        for name in (*PLAYING, WAITING):
            assert name in desk, f"the registration and check-in list names {name}"
        no_ids(desk, "the registration page")
        said = c.post("/admin/e/ev/checkin", data={"_csrf_token": token, "player": "ann-old"})
        assert f"{OLD} is checked in" in text_of(said.text)
    close_and_pair(db)
    slips = codes(db)
    with client(db) as c:
        boss = organiser(c)
        tables = c.get("/api/events/ev/round").json()["tables"]
        assert {n for t in tables for n in t["names"]} >= set(PLAYING), "the JSON names them as the pages do"
        assert {p for t in tables for p in t["players"]} >= {"ann-lee", "ann-lee-2", "ann-old"}, "and keeps the ids as fields"
        c.post("/api/admin/events/ev/results", json={"scores": {str(tables[0]["table"]): "1-0"}}, headers=boss)
        pages = {
            "pairings": c.get("/e/ev/round/1").text, "standings": c.get("/e/ev/standings").text, "big screen": c.get("/e/ev/screen").text,
        }
        organiser_page(c)
        pages |= {
            "day view": c.get("/admin/e/ev").text, "registration": c.get("/admin/e/ev/registration").text,
            "round.csv": c.get("/admin/e/ev/files/round.csv").text, "round.html": c.get("/admin/e/ev/files/round.html").text,
            "standings.csv": c.get("/admin/e/ev/files/standings.csv").text, "standings.html": c.get("/admin/e/ev/files/standings.html").text,
            "slips.html": c.get("/admin/e/ev/files/slips.html").text,
        }
        for where, page in pages.items():
            text = text_of(page)
            for name in PLAYING:
                assert name in text, f"the {where} names {name}"
            no_ids(text, f"the {where}")
        assert pages["standings.csv"].splitlines()[0].startswith("rank,player,person,"), "the CSV's columns as they were"
    with client(db) as c:  # the unlinked Ann's own page: her table, her opponent, by name
        player_page(c, slips["ann-old"])
        mine = text_of(c.get("/me").text)
        no_ids(mine, "her page")
        assert OLD in mine or "Ann Lee" in mine


def test_every_cli_text_shows_labels_never_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # a terminal wide enough that no name wraps in its cell
    monkeypatch.setattr(console.out, "_made", None)  # the console made afresh, at that width
    db = f"sqlite:///{tmp_path / 't.db'}"
    namesakes(db)
    waiting = cli(db, "registration", "ev").stdout
    assert WAITING in waiting, waiting
    checked = cli(db, "checkin", "ev", "ann-old", "ann-lee").stdout + cli(db, "checkin", "ev", "ann-lee-2").stdout
    assert OLD in checked and RETURNING in checked and NEW in checked, checked
    close_and_pair(db)
    with database(db) as engine, Session(engine) as session, session.begin():
        service.call_judge(session, "ev", "ann-old", "a question")
    outputs = {
        "pairings": cli(db, "pairings", "ev").stdout, "pairings by name": cli(db, "pairings", "ev", "--by", "name").stdout,
        "standings": cli(db, "standings", "ev").stdout, "standings csv": cli(db, "standings", "ev", "--format", "csv").stdout,
        "pairings csv": cli(db, "pairings", "ev", "--format", "csv").stdout,
    }
    for where, text in outputs.items():
        for name in PLAYING:
            assert name in text, f"`{where}` names {name}:\n{text}"
        no_ids(text, f"`{where}`")
    calls = cli(db, "calls", "ev").stdout
    assert OLD in calls and not IDS.search(calls), calls
    assert {r["name"] for r in cli_json(db, "standings", "ev")} >= set(PLAYING), "the JSON names them as the text does"
    people = cli(db, "people").stdout
    assert PERSON_RETURNING in people and PERSON_NEW in people, people


def test_a_season_page_tells_its_namesakes_apart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    namesakes(db)
    close_and_pair(db)
    with client(db) as c:
        tables = c.get("/api/events/ev/round").json()["tables"]
        c.post("/api/admin/events/ev/results", json={"scores": {str(t["table"]): "1-0" for t in tables}}, headers=organiser(c))
    cli(db, "finish", "ev")
    cli(db, "season", "create", "s", "--name", "Summer Series")
    cli(db, "season", "add", "s", "spring", "ev")
    with client(db) as c:
        for where in ("/seasons/s", "/seasons/s/screen"):
            text = text_of(c.get(where).text)
            assert PERSON_RETURNING in text and PERSON_NEW in text, f"{where}: {text[-1500:]}"
            assert "田中 健" in text and "田中 健 (" not in text and "李 娜 (" not in text, "names of no Latin letter are not alike"
            no_ids(text, where)
    table = cli(db, "season", "standings", "s").stdout
    assert PERSON_RETURNING in table and PERSON_NEW in table and not IDS.search(table), table


def test_the_pairings_and_the_big_screen_on_a_phone_read_the_labels(tmp_path: Path, page: Any) -> None:
    """Chromium at 390 px: the pairings and the big screen name everyone with their label, and draw no id."""
    db = f"sqlite:///{tmp_path / 't.db'}"
    namesakes(db)
    close_and_pair(db)
    with serving(db) as base:
        for where, shot in (("/e/ev/round/1", "pairings.png"), ("/e/ev/screen", "screen.png")):
            page.goto(base + where)
            shown = page.inner_text("body")
            for name in PLAYING:
                assert name in shown, f"{where} names {name}"
            no_ids(shown, where)
            looks_right(page, tmp_path / shot)
