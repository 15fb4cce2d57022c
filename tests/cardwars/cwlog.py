"""Helpers to write short cardwars logs in tests: records as dicts, judged by the real engine."""

from __future__ import annotations

from typing import Any

import msgspec

from referee.engine import Replay, judge

PLAYERS = ["ann", "bob"]
# ann: hearts and diamonds (+JK1); bob: spades and clubs (+JK2); ann goes first
SETUP: dict[str, Any] = {"first": "ann", "suits": {"ann": ["H", "D"], "bob": ["S", "C"]}}


def lines(records: list[dict[str, Any]], setup: dict[str, Any] | None = None, players: list[str] | None = None) -> list[bytes]:
    header = {"log": "referee-log/1", "ruleset": "cardwars", "game": "t", "players": players or PLAYERS, "setup": setup or SETUP}
    out = [msgspec.json.encode(header)]
    for seq, record in enumerate(records, start=1):
        out.append(msgspec.json.encode({"seq": seq, **record}))
    return out


def run(records: list[dict[str, Any]], **kw: Any) -> Replay:
    return judge(lines(records, **kw))


def draw(player: str, card: str) -> dict[str, Any]:
    return {"by": "chance", "type": "draw", "player": player, "card": card}


def res(player: str, card: str) -> dict[str, Any]:
    return {"by": player, "type": "play_resource", "card": card}


def face(player: str, card: str, *pay: str) -> dict[str, Any]:
    return {"by": player, "type": "play_face", "card": card, "pay": list(pay)}


def attack(player: str, *cards: str) -> dict[str, Any]:
    return {"by": player, "type": "attack", "attackers": list(cards)}


def block(player: str, blocks: dict[str, str]) -> dict[str, Any]:
    return {"by": player, "type": "block", "blocks": blocks}


def assign(player: str, attacker: str, damage: dict[str, int]) -> dict[str, Any]:
    return {"by": player, "type": "assign", "attacker": attacker, "damage": damage}


def joker(player: str, card: str) -> dict[str, Any]:
    return {"by": player, "type": "joker_defense", "card": card}


# A board used by many tests. After these 19 records it is ann's turn 7, play phase:
# ann has JH on the battlefield (played on turn 5, paid with 10H and 2H) and 3H in hand;
# bob has 10S, 5S and 3S on the battlefield; both at 20 life.
BOARD = [
    draw("ann", "10H"), res("ann", "10H"), attack("ann"),
    draw("bob", "10S"), res("bob", "10S"), attack("bob"),
    draw("ann", "2H"), res("ann", "2H"), attack("ann"),
    draw("bob", "5S"), res("bob", "5S"), attack("bob"),
    draw("ann", "JH"), face("ann", "JH", "10H", "2H"), attack("ann"),
    draw("bob", "3S"), res("bob", "3S"), attack("bob"),
    draw("ann", "3H"),
]


