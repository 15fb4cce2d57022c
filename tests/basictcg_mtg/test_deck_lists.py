"""basictcg-mtg decks judged on their own (`referee deck check`), one case per deck rule BT-1.2 to BT-1.4.

Worked from seed 001 ("a card's level is its mana cost: total up the number
of mana symbols and the number of colorless mana") and the rulings of
RULES.md (BT-1.3: {X} counts 0; BT-1.4: no deck size and no copy limit, since
the known Basic TCG rules set none). The card names are invented.
"""

from __future__ import annotations

from typing import Any

from tests.decklists import legal, malformed, problems, same_verdict

TEXT = """\
4 Grove Titan ({3}{G}{G}, creature, 5/5, green, reach)
3 Hybrid Sprite ({W/U}, creature, 1/1, white, blue, flying)
2 Night Stalker ({X}{B}, creature, 2/2, black, deathtouch)
1 Forest Glade (land, terrain Forest)
"""
SPECS: dict[str, dict[str, Any]] = {
    "Grove Titan": {"cost": "{3}{G}{G}", "types": ["creature"], "power": 5, "stamina": 5, "colours": ["green"], "keywords": ["reach"]},
    "Hybrid Sprite": {"cost": "{W/U}", "types": ["creature"], "power": 1, "stamina": 1, "colours": ["white", "blue"],
                      "keywords": ["flying"]},
    "Night Stalker": {"cost": "{X}{B}", "types": ["creature"], "power": 2, "stamina": 2, "colours": ["black"], "keywords": ["deathtouch"]},
    "Forest Glade": {"cost": "", "types": ["land"], "terrain": ["Forest"]},
}  # fmt: skip
COUNTS = {"Grove Titan": 4, "Hybrid Sprite": 3, "Night Stalker": 2, "Forest Glade": 1}


def deck(counts: dict[str, int] = COUNTS, specs: dict[str, dict[str, Any]] = SPECS) -> dict[str, Any]:
    """The JSON form: declarations, and card ids as a setup would give them."""
    ids = [(f"ann-{i:02d}", name) for i, name in enumerate((n for n, c in counts.items() for _ in range(c)), start=1)]
    return {"cards": specs, "deck": dict(ids)}


def test_bt_1_2_to_1_4_a_declared_deck_is_legal_in_both_forms() -> None:
    verdict = same_verdict("basictcg-mtg", TEXT, deck())
    assert verdict["verdict"] == "legal" and verdict["cards"] == 10
    assert verdict["facets"] == {"colours": "white + blue + black + green"}


def test_bt_1_2_every_card_is_declared_with_a_type() -> None:
    error, _ = malformed("basictcg-mtg", TEXT.replace("({W/U}, creature,", "({W/U},"))
    assert (error["line"], error["field"]) == (2, "details") and "needs a type" in error["message"]
    error, _ = malformed("basictcg-mtg", TEXT.replace("deathtouch", "lifelink"))
    assert error["line"] == 3 and "'lifelink'" in error["message"]
    no_type = {**SPECS, "Forest Glade": {"cost": "", "types": []}}
    error, _ = malformed("basictcg-mtg", deck(specs=no_type))
    assert error["field"] == "cards[...].types"  # msgspec names no dict key


def test_bt_1_3_levels_from_mana_costs() -> None:
    # {3}{G}{G} is level 5, {W/U} level 1, {X}{B} level 1 (X counts 0), a land with no cost level 0
    verdict = legal("basictcg-mtg", TEXT)
    assert verdict["summary"].endswith(f"total level {4 * 5 + 3 * 1 + 2 * 1 + 1 * 0}")
    error, _ = malformed("basictcg-mtg", TEXT.replace("{3}{G}{G}", "{3}{Q}"))
    assert (error["line"], error["field"]) == (1, "details") and "mana cost" in error["message"]


def test_bt_1_4_no_size_and_no_copy_limit() -> None:
    assert legal("basictcg-mtg", "1 Forest Glade (land, terrain Forest)\n")["cards"] == 1
    assert legal("basictcg-mtg", "60 Grove Titan ({3}{G}{G}, creature, 5/5, green)\n")["cards"] == 60


def test_bt_1_4_every_card_of_the_deck_is_declared() -> None:
    data = deck()
    data["deck"]["ann-99"] = "Mystery Card"
    assert problems("basictcg-mtg", data) == [("BT-1.4", "Mystery Card")]


def test_built_in_cards_by_name_and_unknown_names() -> None:
    verdict = legal("basictcg-mtg", "3 Cinder Whelp\n2 Reef Strider\n")
    assert verdict["facets"] == {"colours": "blue + red"}
    error, stderr = malformed("basictcg-mtg", "3 Cinder Whelp\n4 Lightning Bolt\n")
    assert (error["line"], error["field"]) == (2, "card") and "unknown card 'Lightning Bolt'" in stderr


def test_a_card_declared_twice_differently() -> None:
    error, _ = malformed("basictcg-mtg", TEXT + "1 Grove Titan ({3}{G}{G}, creature, 6/6, green, reach)\n")
    assert (error["line"], error["field"]) == (5, "details") and "lines 1 and 5" in error["message"]
    # the same declaration twice is just more copies
    assert legal("basictcg-mtg", TEXT + "1 Grove Titan ({3}{G}{G}, creature, 5/5, green, reach)\n")["cards"] == 11
