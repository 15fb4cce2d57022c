"""XO-1.5 and XO-2: each translation maps native cards as RULES.md says; the registry finds them."""

from __future__ import annotations

import pytest

from referee.rulesets.crossover.translations import Mapped, Untranslatable, games, translate
from referee.rulesets.crossover.translations import mtg as mtg_module
from schemas.crossover import Card


def card(kind: str, *traits: str, **stats: int) -> Card:
    return Card(name="Test Card", kind=kind, stats=stats, traits=list(traits))


def test_xo_2_registry_has_one_module_per_game() -> None:
    assert games() == ["dothack", "mtg", "stccg1e", "stccg2e"]
    assert mtg_module.EXPERIMENTAL is True


@pytest.mark.parametrize(
    ("native", "expected"),
    [
        (card("pc", destiny=3, strength=5, level=2, endurance=1), Mapped("leader", play_value=3)),
        (card("item", strength=2, endurance=0), Mapped("equipment", double_attack=True)),
        (card("item", strength=0, endurance=3, level=1), Mapped("equipment", endurance=True)),
        (card("item", strength=1, endurance=1), Mapped("equipment", double_attack=True, endurance=True)),
        (card("item", strength=0, endurance=0), Mapped("equipment")),
        (card("monster", strength=4, level=9), Mapped("minion", initiative=4)),
        (card("action"), Mapped("event", event="stop")),
        (card("event"), Mapped("event", event="draw")),
    ],
)
def test_xo_2_1_dothack(native: Card, expected: Mapped) -> None:
    assert translate("dothack", native) == expected


@pytest.mark.parametrize(
    ("native", "expected"),
    [
        (card("ship", staffing=3, range=7), Mapped("leader", play_value=3)),
        (card("equipment"), Mapped("equipment", endurance=True)),
        (card("personnel", integrity=6, cunning=7, strength=5), Mapped("minion", initiative=3, double_attack=True, dies_together=True)),
        (card("personnel", integrity=7, cunning=4), Mapped("minion", initiative=2)),
        (card("event"), Mapped("event", event="draw")),
        (card("interrupt"), Mapped("event", event="stop")),
    ],
)
def test_xo_2_2_stccg1e(native: Card, expected: Mapped) -> None:
    assert translate("stccg1e", native) == expected


@pytest.mark.parametrize(
    ("native", "expected"),
    [
        (card("ship", range=9, weapons=8), Mapped("leader", play_value=2)),
        (card("equipment", cost=1), Mapped("equipment", double_attack=True)),
        (card("personnel", strength=6, cunning=5, integrity=4), Mapped("minion", initiative=2, endurance=True, half_hits=True)),
        (card("personnel", strength=5, cunning=9), Mapped("minion", initiative=4)),
        (card("event"), Mapped("event", event="draw")),
        (card("interrupt"), Mapped("event", event="stop")),
    ],
)
def test_xo_2_3_stccg2e(native: Card, expected: Mapped) -> None:
    assert translate("stccg2e", native) == expected


@pytest.mark.parametrize(
    ("native", "expected"),
    [
        (card("creature", "legendary", "red", power=4, toughness=4), Mapped("leader", play_value=4)),
        (card("creature", "green", power=3), Mapped("minion", initiative=3)),
        (card("creature", "first strike", power=2), Mapped("minion", initiative=2, double_attack=True)),
        (card("creature", "wall", power=0, toughness=5), Mapped("minion", endurance=True)),
        (card("aura", "red"), Mapped("equipment", double_attack=True)),
        (card("aura", "white", mv=2), Mapped("equipment", endurance=True)),
        (card("instant", "blue"), Mapped("event", event="draw")),
        (card("instant", "red"), Mapped("event", event="stop")),
    ],
)
def test_xo_2_4_mtg(native: Card, expected: Mapped) -> None:
    assert translate("mtg", native) == expected


def test_xo_2_4_ruling_red_white_and_other_auras_grant_nothing() -> None:
    assert translate("mtg", card("aura", "red", "white")) == Mapped("equipment")
    assert translate("mtg", card("aura", "green")) == Mapped("equipment")


@pytest.mark.parametrize("traits", [("blue", "red"), ("green",), ()])
def test_xo_2_4_ruling_an_instant_is_blue_or_red(traits: tuple[str, ...]) -> None:
    with pytest.raises(Untranslatable, match=r"blue \(Draw\) or red"):
        translate("mtg", card("instant", *traits))


@pytest.mark.parametrize(
    ("game", "native", "words"),
    [
        ("mtg", card("land"), "maps no 'land' cards"),
        ("mtg", card("creature"), "needs its power"),
        ("stccg1e", card("mission"), "maps no 'mission'"),
        ("stccg1e", card("personnel", integrity=4), "needs its cunning"),
        ("stccg2e", card("personnel", strength=4, cunning=2, loyalty=1), "no number 'loyalty'"),
        ("dothack", card("pc", destiny=-1), "never negative"),
        ("dothack", card("action", strength=1), "no number 'strength'"),
    ],
)
def test_xo_1_5_untranslatable_cards_are_named(game: str, native: Card, words: str) -> None:
    with pytest.raises(Untranslatable) as exc:
        translate(game, native)
    assert str(exc.value).startswith("Test Card:") and words in str(exc.value)
