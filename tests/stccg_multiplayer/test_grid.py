"""The spacegrid itself (SG-2, SG-3.6, SG-6.3, SG-7.2) and its drawings, on grids built by hand."""

from __future__ import annotations

import copy
import random
import xml.etree.ElementTree as ET

import pytest

from referee.rulesets import get as get_ruleset
from referee.rulesets.stccg_multiplayer.grid import Grid, Loc
from tests.stccg_multiplayer.sglog import TO_PLAY, ok, rec, run

RULES = get_ruleset("stccg-multiplayer")


def filled(spokes: int, quadrant: str = "Alpha", **overrides: tuple[str, int, str]) -> Grid:
    """A full grid of `quadrant` space locations of span 1; overrides give slot -> (quadrant, span, kind)."""
    grid = Grid(spokes)
    for slot in grid.slots:
        q, span, kind = overrides.get(slot.replace(".", "_"), (quadrant, 1, "space"))
        grid.slots[slot] = Loc(slot, q, span, kind)
    return grid


@pytest.mark.parametrize("spokes", [2, 3, 4, 5, 6])
def test_sg_2_1_and_2_2_ruling_the_wheel(spokes: int) -> None:
    grid = Grid(spokes)
    assert len(grid.slots) == 6 * spokes + 1
    assert sorted(grid.neighbours("N")) == sorted(f"S{i}.1" for i in range(1, spokes + 1))
    assert sorted(grid.neighbours("S1.2")) == ["S1.1", "S1.3"]
    assert sorted(grid.neighbours("S1.3")) == sorted(["S1.2", "R1.1", f"R{spokes}.3"])
    assert sorted(grid.neighbours("R1.3")) == ["R1.2", "S2.3"]
    assert len(grid.ring) == 4 * spokes and grid.clockwise(f"R{spokes}.3") == "S1.3"


def test_sg_2_6_insertion_on_the_ring_and_next_to_the_centre() -> None:
    grid = Grid(3)
    x1 = grid.insert("R3.3", "S1.3")
    assert sorted(grid.neighbours(x1)) == ["R3.3", "S1.3"] and grid.ring[-1] == x1
    x2 = grid.insert("N", "S2.1")
    assert sorted(grid.neighbours(x2)) == ["N", "S2.1"] and grid.spoke_end(x2) == ["S2.3"]


def test_an_insertion_changes_the_shape_as_rebuilding_it_would() -> None:
    """Each insert splices only what the new slot touches: the adjacency (in order), the ring and the spokes
    then are what a rebuild from the spoke and ring lists gives, and the grid it was copied from is untouched."""
    rng = random.Random(7)
    for _ in range(300):
        spokes = rng.randint(2, 6)
        grid, fresh = Grid(spokes), Grid(spokes)
        for _ in range(rng.randint(1, 8)):
            a = rng.choice(list(grid.slots))
            grid.insert(a, rng.choice(grid.neighbours(a)))
            rebuilt = copy.copy(grid)
            rebuilt._rebuild()
            assert grid._adjacency == rebuilt._adjacency
            assert (grid._on_ring, grid._ring_at, grid._spoke_of) == (rebuilt._on_ring, rebuilt._ring_at, rebuilt._spoke_of)
        fresh._rebuild()
        assert Grid(spokes)._adjacency == fresh._adjacency


def test_sg_3_6_ruling_shift_lines_go_out_along_the_spoke_then_either_way() -> None:
    grid = filled(2)
    grid.slots["R1.2"] = None
    assert list(grid.shift_paths("S1.2")) == [["S1.2", "S1.3", "R1.1", "R1.2"], ["S1.2", "S1.3", "R2.3", "R2.2", "R2.1", "S2.3", "R1.3", "R1.2"]]
    assert list(grid.shift_paths("N")) == []


def test_sg_3_9_fewest_missions_among_all_lines() -> None:
    grid = filled(2)
    grid.slots["S2.3"] = None
    shifts = grid.legal_shifts("Alpha", None)
    assert {tuple(s) for s in shifts} == {("S2.2", "S2.3"), ("R1.3", "S2.3"), ("R2.1", "S2.3")}


def test_sg_3_9_a_line_all_the_way_round_the_ring_may_be_the_only_shift() -> None:
    """Going round, the line brings the lone Gamma mission (R2.2) next to its start from the other side; the
    Badlands next to S1.3 stays put. No shorter line gives the new Gamma Badlands mission both neighbours."""
    grid = filled(2, S1_2=("Alpha", 1, "space"), R2_2=("Gamma", 1, "space"))
    grid.slots["S1.2"].region = "Badlands"  # type: ignore[union-attr]
    grid.slots["R2.3"] = None
    whole_ring = ["S1.3", "R1.1", "R1.2", "R1.3", "S2.3", "R2.1", "R2.2", "R2.3"]
    assert grid.legal_shifts("Gamma", "Badlands") == [whole_ring]
    assert grid.shorter_shift(9, "Gamma", "Badlands") and not grid.shorter_shift(8, "Gamma", "Badlands")


def test_sg_6_3_step_2_opposite_on_an_even_ring() -> None:
    grid = filled(3)
    assert grid.far_ends("S1.1", False) == {"R2.2"}  # S1.3 + 6 of 12 ring places
    assert grid.far_ends("R1.1", False) == {"R2.3"}


def test_sg_6_3_step_2_odd_ring_takes_the_higher_span() -> None:
    grid = filled(2, R1_3=("Alpha", 4, "space"))
    grid.slots[grid.insert("S1.3", "R1.1")] = Loc("Q's Planet", "Alpha", 1, "planet")
    # ring of 9: S1.3 X1 R1.1 R1.2 R1.3 S2.3 ...; from S1.3 the two nearest-opposite are R1.3 and S2.3
    assert grid.far_ends("S1.3", False) == {"R1.3"}
    grid.slots["R1.3"].span = 1  # type: ignore[union-attr]
    assert grid.far_ends("S1.3", False) == {"R1.3", "S2.3"}  # tied spans: the player's choice


def test_sg_6_3_step_3_ruling_closest_by_cards_then_higher_span() -> None:
    grid = filled(2, S2_3=("Gamma", 1, "space"), R1_3=("Alpha", 1, "planet"), R2_1=("Alpha", 3, "planet"))
    assert grid.far_ends("S1.1", True) == {"R2.1"}  # S2.3 is no planet; R1.3 and R2.1 are one card away
    grid.slots["R2.1"].span = 1  # type: ignore[union-attr]
    assert grid.far_ends("S1.1", True) == {"R1.3", "R2.1"}


def test_sg_6_3_step_4_spoke_fallback_farthest_from_the_centre() -> None:
    grid = filled(2, S1_1=("Gamma", 1, "space"), S1_2=("Gamma", 1, "space"), S2_2=("Gamma", 3, "space"))
    assert grid.far_ends("S1.1", False) == {"S2.2"}  # depth 2 on both spokes; the higher span wins
    assert grid.far_ends("S1.1", True) == set()  # step 5: no Gamma planet anywhere


def test_sg_6_3_ruling_from_the_nebula_every_spoke_is_direct() -> None:
    grid = filled(2)
    assert grid.far_ends("N", False) == {"S2.3", "S1.3"}


def test_sg_7_2_borg_ship_from_the_nebula_may_take_any_spoke() -> None:
    grid = Grid(4)
    assert grid.outward("N") == ["S1.1", "S2.1", "S3.1", "S4.1"] and grid.outward("S3.2") == ["S3.3"]


def test_grid_text_and_svg_draw_every_place_and_ship() -> None:
    state = ok(run([*TO_PLAY, rec("ann", "report_ship", card="Vigil", place="R1.2")])).state
    text, svg = RULES.grid_text(state), RULES.grid_svg(state)
    assert text is not None and svg is not None
    assert "R1.2 G2 [Gamma, span 4, planet] ships: Vigil" in text and text.startswith("centre: N Nebula")
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    labels = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {"N", "S1.1", "R2.3", "G2", "Vigil"} <= labels


def test_grid_drawings_of_an_empty_grid_show_empty_places() -> None:
    state = ok(run([])).state
    text, svg = RULES.grid_text(state), RULES.grid_svg(state)
    assert text is not None and svg is not None
    assert "S1.1 (empty)" in text and "R2.3 (empty)" in text
    assert ET.fromstring(svg).get("width") == "760"
