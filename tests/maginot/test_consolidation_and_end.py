"""MG-8 consolidation and MG-9 the end of the game: elimination, placements, concede, game loss, time, score."""

from __future__ import annotations

from referee.rulesets.maginot.state import Unit
from tests.maginot.mglog import RULESET, Table, armies, battle_ready


def consolidation(t: Table) -> Table:
    """From a draw phase: fillers, then construction and battle passed."""
    return t.finish_draws().passes(2)


def destroy_base(t: Table, player: str, keep: int = 0) -> None:
    """Fast-forward: every ace of `player` but the last `keep` was destroyed in earlier battles."""
    side = t.side(player)
    lost = side.base[: len(side.base) - keep]
    side.ruins += lost
    side.base = side.base[len(lost) :]
    for ace in lost:
        del side.damage[ace]


# -- MG-8 consolidation ---------------------------------------------------------------


def test_mg_8_1_ruling_a_unit_moves_once_a_phase_to_the_other_zone() -> None:
    t = consolidation(armies())
    assert t.illegal(None, "move", unit="2H", zone="patrol").rule == "MG-8.1"
    t.act("move", unit="2H", zone="guardian")
    assert t.illegal(None, "move", unit="2H", zone="patrol").rule == "MG-8.1"
    assert t.illegal(None, "move", unit="3H", zone="patrol").rule == "MG-2.4"


def test_mg_8_2_assemble_three_complete_components_after_the_moves() -> None:
    t = Table(hands={"ann": ["2D", "3D", "4D", "5D", "6D"]}).draw("2H", "2S").resources_and_tap()
    t.act("build", card="2H", tokens=2).act("build", card="2S", tokens=1).passes(2)
    assert t.illegal(None, "assemble", life="2H", armor="2S", weapon="2C").rule == "MG-8.2"  # 2S, 2C not complete
    t.passes(1).quiet_turn().draw("2C", "3H").resources_and_tap()
    t.act("build", card="2S", tokens=1).act("build", card="2C", tokens=2).act("build", card="3H", tokens=2).passes(2)
    assert t.illegal(None, "assemble", life="2S", armor="2H", weapon="2C").rule == "MG-8.2"  # suits swapped
    t.act("assemble", life="2H", armor="2S", weapon="2C")
    assert t.side("ann").units["2H"].zone == "patrol" and not t.side("ann").built
    assert t.illegal(None, "move", unit="2H", zone="guardian").rule == "MG-8.2"  # new units wait a turn


def test_mg_8_3_at_most_five_units() -> None:
    t = Table(hands={"ann": ["2D", "3D", "4D", "5D", "6D"]}).draw("2H", "2S").resources_and_tap()
    t.act("build", card="2H", tokens=2).act("build", card="2S", tokens=2).passes(3).quiet_turn()
    t.draw("2C", "").resources_and_tap().act("build", card="2C", tokens=2).passes(2)
    ann = t.side("ann")
    for life in ("6H", "7H", "8H", "9H", "10H"):  # fast-forward: five units built in earlier turns
        ann.units[life] = Unit(life, life[:-1] + "S", life[:-1] + "C")
    assert t.illegal(None, "assemble", life="2H", armor="2S", weapon="2C").rule == "MG-8.3"


# -- MG-9 the end -----------------------------------------------------------------------


def test_mg_9_1_out_only_at_the_end_of_the_own_consolidation() -> None:
    t = battle_ready(armies(("ann", "bob", "cat")))
    destroy_base(t, "bob", keep=1)
    t.side("bob").damage["AC"] = 15
    t.act("attack", target="bob", units=["2H"]).passes(2)
    assert t.side("bob").base == [] and not t.side("bob").out
    t.passes(2)  # ann's turn ends; bob's begins and he may still act
    consolidation(t)
    assert not t.side("bob").out
    t.passes(1)
    assert t.side("bob").out and t.state.active == "cat"
    assert t.state.out_order == ["bob"]


def test_mg_9_1_a_joker_saves_a_player_before_the_end_of_the_turn() -> None:
    t = armies()
    destroy_base(t, "bob")
    t.quiet_turn().draw("JK1", "").act("play", card="JK1", target="AD").passes(3)
    assert not t.side("bob").out and t.side("bob").base == ["AD"]
    assert RULESET.result(t.state) is None


def test_mg_9_2_last_player_standing_wins_placements_in_elimination_order() -> None:
    t = Table(("ann", "bob", "cat", "dan"))
    for player in ("cat", "ann", "dan"):
        destroy_base(t, player)
    t.quiet_turn()  # ann is out
    t.quiet_turn()  # bob keeps his aces
    t.quiet_turn()  # cat is out
    assert RULESET.result(t.state) is None
    t.quiet_turn()  # dan is out: bob is the last one standing
    result = RULESET.result(t.state)
    assert result is not None
    assert result.placements == {"bob": 1, "dan": 2, "cat": 3, "ann": 4}
    assert result.winners == ["bob"] and result.reason == "elimination"
    assert result.score == {"bob": 3.0, "dan": 2.0, "cat": 1.0, "ann": 0.0}  # MG-9.6


def test_mg_9_3_concede_at_any_time() -> None:
    t = battle_ready(armies(("ann", "bob", "cat")))
    t.act("attack", target="bob", units=["2H"])
    t.do("bob", "concede")  # the defender leaves mid-battle: the battle ends without an outcome
    assert t.state.battle is None and t.state.phase == "battle" and t.side("bob").out
    assert t.illegal("bob", "concede").rule == "MG-9.3"
    t.do("ann", "concede")  # the active player leaves: cat's turn begins
    result = RULESET.result(t.state)
    assert result is not None and result.placements == {"cat": 1, "ann": 2, "bob": 3}


def test_mg_9_3_concede_passes_the_turn_on() -> None:
    t = Table(("ann", "bob", "cat")).finish_draws()
    t.do("ann", "concede")
    assert t.state.active == "bob" and t.state.phase == "draw"


def test_mg_9_4_game_loss_by_the_judge() -> None:
    t = Table()
    assert t.illegal("ann", "game_loss", player="bob").rule == "MG-2.2"
    assert t.illegal("judge", "game_loss", player="zed").rule == "MG-9.4"
    t.do("judge", "game_loss", player="bob")
    result = RULESET.result(t.state)
    assert result is not None and result.winners == ["ann"] and result.reason == "elimination"


def test_mg_9_5_ruling_time_places_by_standing_aces_then_life() -> None:
    t = Table(("ann", "bob", "cat", "dan"))
    destroy_base(t, "bob", keep=2)
    t.side("cat").damage["AS"] = 5
    t.do("judge", "time")
    result = RULESET.result(t.state)
    assert result is not None and result.reason == "time"
    assert result.placements == {"ann": 1, "dan": 1, "cat": 3, "bob": 4}
    assert result.winners == ["ann", "dan"]
    assert result.score == {"ann": 2.0, "dan": 2.0, "cat": 1.0, "bob": 0.0}


def test_mg_9_7_nothing_after_the_end() -> None:
    t = Table()
    t.do("judge", "time")
    assert t.illegal("ann", "concede").rule == "MG-9.7"
    assert RULESET.to_act(t.state) == ()
    assert list(RULESET.legal(t.state)) == []


def test_mg_9_6_score_is_the_number_of_players_placed_below() -> None:
    t = Table(("ann", "bob", "cat"))
    t.do("cat", "concede")
    t.do("judge", "game_loss", player="ann")
    result = RULESET.result(t.state)
    assert result is not None and result.score == {"bob": 2.0, "ann": 1.0, "cat": 0.0}
