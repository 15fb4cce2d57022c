"""Helpers to write short stccg-multiplayer logs in tests: records as dicts, judged by the real engine.

The standard game: ann (first) and bob, a 2-spoke grid filled by STANDARD_SEEDING:

    N Nebula | spoke 1: S1.1 A1, S1.2 A2, S1.3 A3 | spoke 2: S2.1 B1, S2.2 B2, S2.3 B3
    ring clockwise: S1.3 A3, R1.1 A4, R1.2 G2, R1.3 G1, S2.3 B3, R2.1 B4, R2.2 D2, R2.3 D1

A* and B* are Alpha, G* Gamma, D* Delta. After both pass the dilemma phase,
OPENING gives ann and bob seven cards each; then it is ann's turn 1.
"""

from __future__ import annotations

from typing import Any

import msgspec

from referee.engine import Replay, judge

PLAYERS = ["ann", "bob"]
SEEDS = [
    "Borg Ship", "Rogue Borg Mercenaries", "Plasma Fire", "Q", "Borg Outpost", "Transwarp Network Gateway",
    "Bajoran Wormhole", "Gaps in Normal Space", "Sensor Ghost", "Ion Squall", "Cargo Dispute", "Subspace Echo",
    "Hull Fatigue", "Spore Cloud", "Rogue Comet", "Gravimetric Shear", "Relay Station", "Listening Post",
    "Ancient Beacon", "Supply Cache", "Derelict Hulk", "Survey Buoy", "Sensor Ghost", "Ion Squall",
]  # fmt: skip
NAMED = [
    "Alien Probe", "Static Warp Bubble", "Telepathic Alien Kidnappers", "Dial Martok for Murder", "Plasma Fire",
    "Where No One Has Gone Before", "Lakanta", "Q's Planet",
]  # fmt: skip
SHIPS = {"ann": ["Vigil", "Lantern"], "bob": ["Meridian", "Halyard"], "cat": ["Skiff", "Tender"]}


def mission(name: str, quadrant: str = "Alpha", span: int = 2, kind: str = "planet", region: str | None = None) -> dict[str, Any]:
    return {"name": name, "quadrant": quadrant, "span": span, "kind": kind, "region": region}


def deck(player: str, missions: list[dict[str, Any]]) -> dict[str, Any]:
    draw = SHIPS[player] + NAMED + [f"Crewman {i}" for i in range(1, 21)]
    return {"missions": [dict(m) for m in missions], "seeds": list(SEEDS), "draw": draw}


STANDARD = {
    "ann": [mission("A1"), mission("A2"), mission("A3", span=3), mission("A4", kind="space"),
            mission("G1", "Gamma"), mission("G2", "Gamma", span=4)],
    "bob": [mission("B1"), mission("B2"), mission("B3", kind="space"), mission("B4", span=5),
            mission("D1", "Delta"), mission("D2", "Delta", kind="space")],
}  # fmt: skip


def setup(missions: dict[str, list[dict[str, Any]]] | None = None, first: str = "ann") -> dict[str, Any]:
    missions = missions or STANDARD
    return {"first": first, "decks": {p: deck(p, m) for p, m in missions.items()}}


def rec(by: str, type_: str, **fields: Any) -> dict[str, Any]:
    return {"by": by, "type": type_, **fields}


def seed(by: str, name: str, place: str, shift: list[str] | None = None) -> dict[str, Any]:
    return rec(by, "seed_mission", mission=name, place=place, **({"shift": shift} if shift else {}))


def draw(player: str, card: str, extra: bool = False) -> dict[str, Any]:
    return rec("chance", "draw", player=player, card=card, **({"extra": True} if extra else {}))


STANDARD_SEEDING = [
    seed("ann", "A1", "S1.1"), seed("bob", "B1", "S2.1"), seed("ann", "A2", "S1.2"), seed("bob", "B2", "S2.2"),
    seed("ann", "A3", "S1.3"), seed("bob", "B3", "S2.3"), seed("ann", "A4", "R1.1"), seed("bob", "B4", "R2.1"),
    seed("ann", "G1", "R1.3"), seed("bob", "D1", "R2.3"), seed("ann", "G2", "R1.2"), seed("bob", "D2", "R2.2"),
]  # fmt: skip
PASSES = [rec("ann", "pass"), rec("bob", "pass")]
ANN_HAND = ["Vigil", "Lantern", "Alien Probe", "Static Warp Bubble", "Plasma Fire", "Where No One Has Gone Before", "Q's Planet"]
BOB_HAND = ["Meridian", "Halyard", "Telepathic Alien Kidnappers", "Dial Martok for Murder", "Lakanta", "Plasma Fire", "Crewman 1"]
OPENING = [draw("ann", c) for c in ANN_HAND] + [draw("bob", c) for c in BOB_HAND]
TO_PLAY = STANDARD_SEEDING + PASSES + OPENING  # ann's turn 1 follows


def lines(records: list[dict[str, Any]], setup_: dict[str, Any] | None = None, players: list[str] | None = None) -> list[bytes]:
    players = players or PLAYERS
    header = {"log": "referee-log/1", "ruleset": "stccg-multiplayer", "game": "t", "players": players, "setup": setup_ or setup()}
    return [msgspec.json.encode(header)] + [msgspec.json.encode({"seq": i, **r}) for i, r in enumerate(records, start=1)]


def run(records: list[dict[str, Any]], **kw: Any) -> Replay:
    return judge(lines(records, **kw))


def rule_of(replay: Replay) -> str | None:
    error = replay.verdict.error
    return error.rule if error else None


def ok(replay: Replay) -> Replay:
    assert replay.verdict.verdict in ("ongoing", "complete"), replay.verdict.error
    return replay
# ann's ship Vigil on S1.1 with Plasma Fire, a Borg Ship met on S1.1 ("Borg Ship#32"), in ann's main step
VIGIL_AND_FIRE = [
    *STANDARD_SEEDING, rec("ann", "seed_dilemmas", place="S1.1", cards=["Borg Ship"]), rec("bob", "pass"), rec("ann", "pass"),
    *OPENING, rec("ann", "report_ship", card="Vigil", place="S1.1"), rec("ann", "play", card="Plasma Fire", ship="Vigil"),
    rec("ann", "encounter", card="Borg Ship", place="S1.1"),
]  # fmt: skip
