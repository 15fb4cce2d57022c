"""Crossover decks judged on their own (`referee deck check`), one case per deck rule XO-1.2 to XO-1.6.

The decks are written from seed 000's deck-building paragraph ("exactly 20
cards ... a maximum of one copy of any one card ... all 20 cards must also
come from the same card game") and its .hack//Enemy translation (PC cards are
leaders with their destiny as play value, Monster cards minions, Item cards
equipment, Event and Action cards events), not from the project's output.
"""

from __future__ import annotations

from typing import Any

from tests.decklists import legal, malformed, problems, same_verdict

# A .hack//Enemy deck a player might write: two PCs, eleven monsters, three items, two events, two actions.
LINES = [
    "Sword Dancer Reiko (pc: destiny 2, level 4)",
    "Twin Blade Aro (pc: destiny 1)",
    *(f"Field Monster {n} (monster: strength {1 + n % 3})" for n in range(1, 12)),
    "Iron Gauntlet (item: strength 1, endurance 0)",
    "Chain Mail (item: strength 0, endurance 2)",
    "Rune Blade (item: strength 2, endurance 1)",
    "Gate Out (event)",
    "Chim Chim Festival (event)",
    "Dodge Roll (action)",
    "Guard Stance (action)",
]
TEXT = "# my .hack deck\ngame: dothack\n\n" + "\n".join(LINES) + "\n"


def _card(line: str) -> dict[str, Any]:
    """The JSON form of one of LINES, written out by hand."""
    name, _, details = line.rstrip(")").partition(" (")
    kind, _, stats = details.partition(": ")
    numbers = {s.split()[0]: int(s.split()[1]) for s in stats.split(", ")} if stats else {}
    return {"name": name, "kind": kind, "stats": numbers}


DECK = {"game": "dothack", "cards": [_card(line) for line in LINES]}


def test_xo_1_2_to_1_6_a_deck_by_the_seed_is_legal_in_both_forms() -> None:
    verdict = same_verdict("crossover", TEXT, DECK)
    assert verdict["verdict"] == "legal" and verdict["cards"] == 20
    assert verdict["facets"] == {"game": ".hack//Enemy", "leaders": "Sword Dancer Reiko, Twin Blade Aro"}


def test_xo_1_2_exactly_twenty_cards() -> None:
    short = "game: dothack\n" + "\n".join(LINES[:19])
    verdict = same_verdict("crossover", short, dict(DECK, cards=DECK["cards"][:19]))
    assert verdict["problems"] == [{"rule": "XO-1.2", "message": "the deck holds 19 cards; a deck holds exactly 20"}]
    assert problems("crossover", TEXT + "Extra Monster (monster: strength 1)\n") == [("XO-1.2", None)]


def test_xo_1_3_one_copy_of_any_card() -> None:
    # 20 cards, the 20th a second copy of a monster
    text = "game: dothack\n" + "\n".join([*LINES[:19], LINES[2]])
    verdict = same_verdict("crossover", text, dict(DECK, cards=[*DECK["cards"][:19], DECK["cards"][2]]))
    assert [(p["rule"], p["card"]) for p in verdict["problems"]] == [("XO-1.3", "Field Monster 1")]
    counted = TEXT.replace("Field Monster 3 (monster: strength 1)", "2 Field Monster 3 (monster: strength 1)")
    assert ("XO-1.3", "Field Monster 3") in problems("crossover", counted)


def test_xo_1_4_one_game_with_a_translation() -> None:
    # Pokémon has no translation in the seed ("Just three games for now")
    assert problems("crossover", TEXT.replace("game: dothack", "game: pokemon")) == [("XO-1.4", None)]
    data = dict(DECK, game="pokemon")
    assert same_verdict("crossover", TEXT.replace("game: dothack", "game: pokemon"), data)["problems"][0]["rule"] == "XO-1.4"


def test_xo_1_4_and_1_5_a_card_from_another_game_does_not_translate() -> None:
    # a Star Trek personnel card shuffled into a .hack deck: .hack maps no personnel
    text = TEXT.replace("Field Monster 11 (monster: strength 3)", "Lt. Data (personnel: integrity 8, cunning 9)")
    assert problems("crossover", text) == [("XO-1.5", "Lt. Data")]


def test_xo_1_5_every_card_translates() -> None:
    missing = TEXT.replace("Field Monster 2 (monster: strength 3)", "Field Monster 2 (monster)")
    misspelt = TEXT.replace("(monster: strength 3)", "(monster: strenght 3)", 1)
    negative = TEXT.replace("Chain Mail (item: strength 0, endurance 2)", "Chain Mail (item: strength -1, endurance 2)")
    assert problems("crossover", missing) == [("XO-1.5", "Field Monster 2")]
    assert problems("crossover", misspelt) == [("XO-1.5", "Field Monster 2")]
    assert problems("crossover", negative) == [("XO-1.5", "Chain Mail")]


def test_xo_1_6_a_deck_needs_a_leader_and_one_is_enough() -> None:
    no_pc = TEXT.replace("Sword Dancer Reiko (pc: destiny 2, level 4)", "Field Monster 12 (monster: strength 1)")
    no_pc = no_pc.replace("Twin Blade Aro (pc: destiny 1)", "Field Monster 13 (monster: strength 1)")
    assert problems("crossover", no_pc) == [("XO-1.6", None)]
    # the seed's own note: a deck may hold a single leader
    one_pc = TEXT.replace("Twin Blade Aro (pc: destiny 1)", "Field Monster 12 (monster: strength 1)")
    assert legal("crossover", one_pc)["facets"]["leaders"] == "Sword Dancer Reiko"


def test_every_problem_is_listed_in_rule_order_with_its_card() -> None:
    text = "game: dothack\nSword Dancer Reiko (monster)\n2 Dodge Roll (action)\nOdd (field)\n"
    assert problems("crossover", text) == [
        ("XO-1.2", None), ("XO-1.5", "Sword Dancer Reiko"), ("XO-1.3", "Dodge Roll"), ("XO-1.5", "Odd"), ("XO-1.6", None),
    ]  # fmt: skip


def test_built_in_cards_by_name_and_unknown_names() -> None:
    from referee.rulesets.crossover.decks import DECKS

    names = [card.name for card in DECKS["mtg"]]
    assert legal("crossover", "game: mtg\n" + "\n".join(names))["facets"]["game"] == "Magic: The Gathering (experimental)"
    error, stderr = malformed("crossover", "game: mtg\n" + "\n".join(names[:5]) + "\nBlack Lotus\n")
    assert error == {"line": 7, "field": "card", "message": error["message"]} and "Black Lotus" in error["message"]
    assert stderr.startswith("referee: stdin line 7, field card: unknown card 'Black Lotus'")


def test_the_list_names_its_game_once() -> None:
    error, _ = malformed("crossover", "\n".join(LINES))
    assert error["field"] == "game" and "game: dothack" in error["message"]
    error, _ = malformed("crossover", TEXT + "game: mtg\n")
    assert (error["line"], error["field"]) == (len(TEXT.splitlines()) + 1, "game") and "twice" in error["message"]


def test_details_that_cannot_be_read_name_their_line() -> None:
    error, _ = malformed("crossover", TEXT.replace("(monster: strength 3)", "(monster: strength three)", 1))
    assert (error["line"], error["field"]) == (7, "details") and "strength three" in error["message"]
    error, _ = malformed("crossover", TEXT.replace("Gate Out (event)", "Gate Out (event"))
    assert error["field"] == "details" and "parenthesis" in error["message"]
