"""People across events (T-90): who a registration is, linking, a person's events, matches and results."""

from __future__ import annotations

import json
from pathlib import Path

from tests.tournament.tlib import cli, cli_json
from tournament import service


def players(db: str, event: str) -> list[dict[str, object]]:
    return list(json.loads(cli(db, "export", event).stdout)["players"])


def people(db: str) -> dict[str, dict[str, object]]:
    return {p["id"]: p for p in cli_json(db, "people")}


def test_a_registration_without_a_person_makes_a_new_one_and_names_its_namesakes(db_url: str) -> None:
    cli(db_url, "create", "one")
    cli(db_url, "register", "one", "Ann Lee", "bob")
    cli(db_url, "create", "two")
    out = cli_json(db_url, "register", "two", "Ann Lee", "Bob")  # the same names: never the same people silently
    assert [p["person"] for p in out["players"]] == ["ann-lee-2", "Bob"]
    assert out["namesakes"] == {"ann-lee": ["ann-lee"], "Bob": ["bob"]}
    text = cli(db_url, "register", "two", "ann lee").stderr
    assert "note: ann-lee-3 is a new person with the name of ann-lee, ann-lee-2" in text
    assert set(people(db_url)) == {"ann-lee", "ann-lee-2", "ann-lee-3", "bob", "Bob"}


def test_person_and_external_id_find_the_same_person(db_url: str, tmp_path: Path) -> None:
    cli(db_url, "create", "one")
    cli(db_url, "register", "one", "José Ramírez", "--external-id", "FIDE-123")
    cli(db_url, "create", "two")
    out = cli_json(db_url, "register", "two", "Jose R.", "--external-id", "FIDE-123")  # found by the external id
    assert out["players"] == [{"id": "jose-ramirez", "name": "Jose R.", "rating": None, "person": "jose-ramirez"}]
    assert out["namesakes"] == {}
    cli(db_url, "create", "three")
    out = cli_json(db_url, "register", "three", "--person", "jose-ramirez")  # by the person: their name and id
    assert out["players"][0] == {"id": "jose-ramirez", "name": "José Ramírez", "rating": None, "person": "jose-ramirez"}
    assert people(db_url)["jose-ramirez"]["events"] == 3
    # Refusals, each writing nothing.
    cli(db_url, "register", "three", "--person", "jose-ramirez", code=service.EXIT_CONFLICT)  # a person plays an event once
    cli(db_url, "register", "three", "--person", "nobody", code=service.EXIT_NOT_FOUND)
    cli(db_url, "register", "three", "Zed", "--external-id", "not an id", code=service.EXIT_USAGE)
    cli(db_url, "create", "four")
    cli(db_url, "register", "four", "Ann", "--external-id", "A-1")
    cli(db_url, "register", "four", "Ann", "--person", "ann", "--external-id", "FIDE-123", code=service.EXIT_CONFLICT)
    cli(db_url, "create", "five")
    cli(db_url, "register", "five", "X", "--person", "ann", "--external-id", "A-2", code=service.EXIT_CONFLICT)
    cli(db_url, "register", "five", "X", "--person", "jose-ramirez", "--external-id", "A-1", code=service.EXIT_CONFLICT)
    assert players(db_url, "five") == []
    # A CSV file names people and external ids by column; a bad row is named and nothing is registered.
    source = tmp_path / "players.csv"
    source.write_text("name,person,external_id\n,ann,\nNew Person,,N-9\n", encoding="utf-8")
    out = cli_json(db_url, "register", "five", "--from", str(source))
    assert [(p["id"], p["name"], p["person"]) for p in out["players"]] == [("ann", "Ann", "ann"), ("new-person", "New Person", "new-person")]
    source.write_text("name,person\nCat,\n,nobody\n", encoding="utf-8")
    failed = cli(db_url, "register", "five", "--from", str(source), code=service.EXIT_NOT_FOUND)
    assert "players.csv line 3: unknown person 'nobody'" in failed.stderr
    source.write_text("name,person\nCat,no body\n", encoding="utf-8")
    failed = cli(db_url, "register", "five", "--from", str(source), code=service.EXIT_USAGE)
    assert "players.csv line 2, field person: person 'no body' must be" in failed.stderr
    assert len(players(db_url, "five")) == 2
    assert "cat" not in people(db_url)


def test_link_moves_a_player_to_a_person_in_the_log(db_url: str) -> None:
    cli(db_url, "create", "one", "--seed", "1")
    cli(db_url, "register", "one", "ann", "bob")
    cli(db_url, "create", "two", "--seed", "1")
    cli(db_url, "register", "two", "ann", "bob")  # new people ann-2 and bob-2
    cli(db_url, "pair", "two")
    cli(db_url, "report", "two", "--table", "1", "1-0")
    cli(db_url, "link", "two", "ann", "--person", "ann", "--reason", "the same Ann")
    cli(db_url, "link", "two", "ann", "--person", "ann", code=service.EXIT_CONFLICT)  # already
    cli(db_url, "link", "two", "bob", "--person", "ann", code=service.EXIT_CONFLICT)  # ann plays this event as ann
    cli(db_url, "link", "two", "bob", "--person", "zed", code=service.EXIT_NOT_FOUND)
    cli(db_url, "link", "two", "zed", "--person", "bob", code=service.EXIT_NOT_FOUND)
    entry = cli_json(db_url, "log", "two")[-1]
    assert entry["type"] == "player_linked"
    assert {p["name"]: p["person"] for p in players(db_url, "two")} == {"ann": "ann", "bob": "bob-2"}
    assert people(db_url)["ann"]["events"] == 2 and "ann-2" not in people(db_url)  # T-184: no one else is ann-2
    info = cli_json(db_url, "person", "ann")
    assert [e["event"] for e in info["events"]] == ["one", "two"]
    assert [(m["event"], m["outcome"], m["games"], m["opponent_names"]) for m in info["matches"]] == [("two", "win", [1, 0], ["bob"])]
    cli(db_url, "verify", "two")
    cli(db_url, "person", "nobody", code=service.EXIT_NOT_FOUND)
    shown = cli(db_url, "person", "ann").stdout
    assert "won 1-0" in shown and "bob" in shown


def test_a_person_page_lists_byes_pods_and_drops(db_url: str) -> None:
    cli(db_url, "create", "swiss", "--seed", "5", "--best-of", "3")
    cli(db_url, "register", "swiss", "ann", "bob", "cat")
    bye = cli_json(db_url, "pair", "swiss")["bye"]
    cli(db_url, "drop", "swiss", next(p for p in ("ann", "bob", "cat") if p != bye))
    cli(db_url, "create", "night", "--format", "pods", "--ruleset", "crossover", "--seed", "2")
    cli(db_url, "register", "night", "--person", "ann", "--person", "bob", "--person", "cat")
    cli(db_url, "register", "night", "dan")
    (pod,) = cli_json(db_url, "pair", "night")["tables"]
    places = {p: n for n, p in enumerate(pod["players"], start=1)}
    cli(db_url, "report", "night", "--table", "1", "-".join(str(places[p]) for p in pod["players"]))
    matches = {m["event"]: m for m in cli_json(db_url, "person", bye)["matches"]}
    assert matches["swiss"]["outcome"] == "bye"
    assert (matches["night"]["place"], matches["night"]["seats"]) == (places[bye], 4)
    assert matches["night"]["outcome"] == ("win" if places[bye] == 1 else "loss")
    shown = cli(db_url, "person", bye).stdout
    assert "bye" in shown and "of 4" in shown
