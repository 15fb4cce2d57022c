"""stccg-multiplayer decks judged on their own (`referee deck check`), one case per deck rule SG-1.2 to SG-1.5.

Worked from seed 002: "each player must construct a deck according to the
standard 30-30 deck-building rule" (read by SG-1.2's ruling as 30 seed cards,
six of them missions, and 30 draw cards), "The Space mission may not be
used", and the Nebula seeded in the centre by the rules; mission names are
the project's invention.
"""

from __future__ import annotations

import copy
from typing import Any

from tests.decklists import legal, malformed, problems, same_verdict

MISSIONS = [
    ("Cargo Rendezvous", "Alpha", "space", 2, None),
    ("Investigate Rogue Comet", "Alpha", "space", 3, None),
    ("Bajoran Relief", "Alpha", "planet", 2, "Bajor Region"),
    ("Explore Black Cluster", "Gamma", "space", 4, None),
    ("Study Plasma Streamer", "Gamma", "dual", 3, None),
    ("Hunt for the Wounded", "Delta", "planet", 5, None),
]
SEEDS = [("Sensor Ghost", 6), ("Borg Ship", 2), ("Q", 1), ("Hull Fatigue", 6), ("Borg Outpost", 1), ("Supply Cache", 8)]
DRAW = [("Runabout", 3), ("Ensign Ro", 1), ("Tricorder", 4), ("Alien Probe", 2), ("Red Alert", 20)]


def text(missions: list[tuple[str, str, str, int, str | None]] = MISSIONS, seeds: list[tuple[str, int]] = SEEDS,
         draw: list[tuple[str, int]] = DRAW) -> str:  # fmt: skip
    lines = ["Missions:"]
    lines += [f"{n} ({q}, {k}, span {s}{f', region {r}' if r else ''})" for n, q, k, s, r in missions]
    lines += ["", "Seed deck (24)"] + [f"{c} {n}" for n, c in seeds]
    lines += ["", "Draw deck"] + [f"{c}x {n}" for n, c in draw]
    return "\n".join(lines) + "\n"


def data(missions: list[tuple[str, str, str, int, str | None]] = MISSIONS, seeds: list[tuple[str, int]] = SEEDS,
         draw: list[tuple[str, int]] = DRAW) -> dict[str, Any]:  # fmt: skip
    return {
        "missions": [{"name": n, "quadrant": q, "kind": k, "span": s, "region": r} for n, q, k, s, r in missions],
        "seeds": [n for n, c in seeds for _ in range(c)],
        "draw": [n for n, c in draw for _ in range(c)],
    }


def test_sg_1_2_a_30_30_deck_is_legal_in_both_forms() -> None:
    verdict = same_verdict("stccg-multiplayer", text(), data())
    assert verdict["verdict"] == "legal" and verdict["cards"] == 60
    assert verdict["facets"] == {"quadrants": "Alpha + Gamma + Delta", "missions": "2 planet, 3 space, 1 dual"}


def test_sg_1_2_thirty_seed_cards_six_missions_and_thirty_to_draw() -> None:
    five = MISSIONS[:5]
    seeds = [*SEEDS, ("Spore Cloud", 1)]  # still 30 seed cards, but only five of them missions
    verdict = same_verdict("stccg-multiplayer", text(five, seeds), data(five, seeds))
    assert [p["rule"] for p in verdict["problems"]] == ["SG-1.2"] and "six of them missions" in verdict["problems"][0]["message"]
    short = [*DRAW[:-1], ("Red Alert", 19)]
    assert problems("stccg-multiplayer", text(draw=short)) == [("SG-1.2", None)]
    assert problems("stccg-multiplayer", text(seeds=[*SEEDS, ("Spore Cloud", 1)])) == [("SG-1.2", None)]


def test_sg_1_3_a_mission_gives_quadrant_kind_and_span() -> None:
    error, _ = malformed("stccg-multiplayer", text().replace("(Gamma, dual, span 3)", "(Beta, dual, span 3)"))
    assert (error["line"], error["field"]) == (6, "details") and "'Beta' is not a quadrant" in error["message"]
    error, _ = malformed("stccg-multiplayer", text().replace("span 5", "span 10"))
    assert "span is 1 to 9" in error["message"]
    error, _ = malformed("stccg-multiplayer", text().replace(" (Alpha, space, span 2)", ""))
    assert error["line"] == 2 and "quadrant, kind and span" in error["message"]
    wrong = data()
    wrong["missions"][3]["quadrant"] = "Beta"
    error, _ = malformed("stccg-multiplayer", wrong)
    assert error["field"] == "missions[3].quadrant"


def test_sg_1_4_distinct_missions_and_no_nebula() -> None:
    twice = [*MISSIONS[:5], MISSIONS[0]]
    verdict = same_verdict("stccg-multiplayer", text(twice), data(twice))
    assert [(p["rule"], p["card"]) for p in verdict["problems"]] == [("SG-1.4", "Cargo Rendezvous")]
    nebula = [*MISSIONS[:5], ("Nebula", "Alpha", "space", 2, None)]
    assert problems("stccg-multiplayer", text(nebula)) == [("SG-1.4", "Nebula")]


def test_sg_1_5_the_space_may_not_be_used() -> None:
    as_mission = [*MISSIONS[:5], ("The Space", "Alpha", "space", 1, None)]
    assert problems("stccg-multiplayer", text(as_mission)) == [("SG-1.5", "The Space")]
    in_draw = [*DRAW[:-1], ("Red Alert", 19), ("The Space", 1)]
    verdict = same_verdict("stccg-multiplayer", text(draw=in_draw), data(draw=in_draw))
    assert [(p["rule"], p["card"]) for p in verdict["problems"]] == [("SG-1.5", "The Space")]


def test_sections_headings_and_their_faults() -> None:
    # headings in any case, with or without a colon or a count; other names for them
    relaxed = text().replace("Missions:", "MISSIONS").replace("Seed deck (24)", "seeds:").replace("Draw deck", "Draw")
    legal("stccg-multiplayer", relaxed)
    error, _ = malformed("stccg-multiplayer", text() + "\nMissions\nOther Mission (Alpha, planet, span 1)\n")
    assert error["field"] == "section" and "given twice (lines 1 and" in error["message"]
    error, _ = malformed("stccg-multiplayer", "Runabout\n" + text())
    assert (error["line"], error["field"]) == (1, "section")
    # a seed or draw card is a name only: parentheses are part of it
    parens = text(draw=[*DRAW[:-1], ("Red Alert", 19), ("Data (Android)", 1)])
    assert legal("stccg-multiplayer", parens)


def test_a_region_is_the_rest_of_the_details() -> None:
    regional = copy.deepcopy(MISSIONS)
    regional[0] = ("Cargo Rendezvous", "Alpha", "space", 2, "Badlands, Inner")
    assert same_verdict("stccg-multiplayer", text(regional), data(regional))["verdict"] == "legal"
