"""Any record at all, at any point of a game, gets a verdict: never a traceback."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.stccg_multiplayer.sglog import STANDARD_SEEDING, TO_PLAY, VIGIL_AND_FIRE, run

PLACES = st.sampled_from(["N", "S1.1", "S1.3", "S2.2", "R1.1", "R2.3", "S3.1", "X1", "R6.2"])
NAMES = st.sampled_from(["Borg Ship", "Plasma Fire", "Q", "Vigil", "Meridian", "Alien Probe", "Lakanta", "Borg Outpost", "Q's Planet", "A1"])
WHO = st.sampled_from(["ann", "bob", "judge", "chance"])
FIELDS: dict[str, Any] = {
    "mission": NAMES, "place": PLACES, "shift": st.lists(PLACES, max_size=3), "cards": st.lists(NAMES, max_size=2),
    "card": NAMES, "after": PLACES, "before": PLACES, "span": st.integers(1, 9), "planet": st.booleans(),
    "player": WHO, "extra": st.booleans(), "players": st.lists(WHO, max_size=2), "ship": NAMES, "text": st.just("x"),
    "path": st.lists(PLACES, max_size=3), "ships": st.lists(NAMES, max_size=2), "to": PLACES,
    "pairs": st.lists(st.tuples(PLACES, PLACES), max_size=2), "borg": st.just("Borg Ship#32"),
    "group": st.just("Rogue Borg Mercenaries#32"), "scores": st.dictionaries(WHO, st.integers(0, 9), max_size=2),
    "personnel": st.lists(st.fixed_dictionaries({"card": NAMES, "owner": WHO}), max_size=3),
}  # fmt: skip
TYPES = {
    "seed_mission": ["mission", "place", "shift"], "seed_dilemmas": ["place", "cards"], "seed_card": ["card", "place"],
    "insert": ["card", "after", "before", "span", "planet"], "pass": [], "draw": ["player", "card", "extra"],
    "report_ship": ["card", "place"], "play": ["card", "players", "ship", "personnel"], "action": ["text"],
    "move": ["ship", "path"], "relocate": ["card", "ships", "to", "planet"], "q_swap": ["pairs"],
    "encounter": ["card", "place", "ship"], "borg_ship_move": ["borg", "to"], "mercenaries_attack": ["group"],
    "plasma_fire_damage": ["ship"], "destroy": ["ship"], "end_turn": [], "final": ["scores"], "concede": [],
    "time": [], "game_loss": ["player"],
}  # fmt: skip


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(sorted(TYPES)))
    fields = {name: draw(FIELDS[name]) for name in TYPES[kind] if draw(st.integers(0, 9))}
    return {"by": draw(WHO), "type": kind, **fields}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([STANDARD_SEEDING[:5], TO_PLAY, VIGIL_AND_FIRE]), records())
def test_any_record_gets_a_verdict(prefix: list[dict[str, Any]], record: dict[str, Any]) -> None:
    verdict = run([*prefix, record]).verdict
    assert verdict.verdict in ("ongoing", "complete", "illegal", "malformed")
    if verdict.verdict in ("illegal", "malformed"):
        assert verdict.error is not None and verdict.error.seq == len(prefix) + 1 and verdict.error.message
