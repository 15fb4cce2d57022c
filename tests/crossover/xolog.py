"""Helpers to write short crossover logs in tests: test decks, records as dicts, the real engine, and the
openings, fields and assertions the rule tests share."""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from referee.engine import Replay, judge
from referee.logio import record_decoder
from referee.rulesets import get


def _cards(kind: str, *specs: tuple[Any, ...], **common: Any) -> list[dict[str, Any]]:
    """Cards of one kind: each spec is (name, stats dict[, traits list])."""
    out = []
    for name, stats, *traits in specs:
        card: dict[str, Any] = {"name": name, "kind": kind, "stats": stats, **common}
        if traits:
            card["traits"] = traits[0]
        out.append(card)
    return out


# dothack: four leaders (play values 0-3), nine monsters, three items, two actions (Stop!), two events (Draw)
DOT = (
    _cards("pc", ("Lead One", {"destiny": 1}), ("Lead Two", {"destiny": 2}), ("Lead Three", {"destiny": 3}), ("Lead Zero", {"destiny": 0}))
    + _cards("monster", *((f"M{i}", {"strength": s}) for i, s in enumerate([1, 1, 2, 2, 3, 3, 4, 5, 6], start=1)))
    + _cards("item", ("Sword", {"strength": 1, "endurance": 0}), ("Shield", {"strength": 0, "endurance": 1}), ("Relic", {"strength": 1, "endurance": 1}))
    + _cards("action", ("Stop A", {}), ("Stop B", {}))
    + _cards("event", ("Draw A", {}), ("Draw B", {}))
)
# stccg1e: even integrity = double attack and dies together
ONE = (
    _cards("ship", ("Ship One", {"staffing": 1}), ("Ship Two", {"staffing": 2}))
    + _cards("personnel", *((n, {"integrity": i, "cunning": c}) for n, i, c in [
        ("Even A", 6, 7), ("Even B", 8, 5), ("Even C", 4, 3), ("Odd A", 5, 4), ("Odd B", 7, 9), ("Odd C", 3, 2),
        ("Odd D", 5, 6), ("Odd E", 9, 1), ("Odd F", 1, 0), ("Odd G", 3, 3), ("Odd H", 5, 2), ("Odd I", 7, 2),
    ]))
    + _cards("equipment", ("Kit A", {}), ("Kit B", {}))
    + _cards("event", ("Relay A", {}), ("Relay B", {}))
    + _cards("interrupt", ("Halt A", {}), ("Halt B", {}))
)  # fmt: skip
# stccg2e: a single ship (the search option); even strength = endurance and half hits
TWO = (
    _cards("ship", ("Only Ship", {}))
    + _cards("personnel", *((n, {"strength": s, "cunning": c}) for n, s, c in [
        ("Strong A", 6, 5), ("Strong B", 4, 7), ("Weak A", 5, 4), ("Weak B", 3, 3), ("Weak C", 5, 2), ("Weak D", 7, 2),
        ("Weak E", 1, 1), ("Weak F", 9, 1), ("Weak G", 3, 0), ("Weak H", 5, 0), ("Weak I", 7, 1), ("Weak J", 1, 1),
        ("Weak K", 3, 3),
    ]))
    + _cards("equipment", ("Phaser A", {}), ("Phaser B", {}))
    + _cards("event", ("Scan A", {}), ("Scan B", {}))
    + _cards("interrupt", ("Evade A", {}), ("Evade B", {}))
)  # fmt: skip
# mtg: two legendary creatures, nine creatures, four auras, five instants
MTG = (
    _cards("creature", ("Legend Two", {"power": 2}, ["legendary"]), ("Legend One", {"power": 1}, ["legendary", "green"]))
    + _cards("creature", *((n, {"power": p}, t) for n, p, t in [
        ("Bear A", 2, []), ("Bear B", 2, []), ("Striker", 3, ["first strike"]), ("Wall A", 0, ["wall"]), ("Elf", 1, []),
        ("Goblin", 1, []), ("Knight", 2, []), ("Ogre", 3, []), ("Sprite", 1, ["flying"]),
    ]))
    + _cards("aura", ("Red Aura", {}, ["red"]), ("White Aura", {}, ["white"]), ("Gold Aura", {}, ["red", "white"]), ("Green Aura", {}, ["green"]))
    + _cards("instant", ("Blue A", {}, ["blue"]), ("Blue B", {}, ["blue"]), ("Red A", {}, ["red"]), ("Red B", {}, ["red"]), ("Red C", {}, ["red"]))
)  # fmt: skip
DECKS = {"dothack": DOT, "stccg1e": ONE, "stccg2e": TWO, "mtg": MTG}


def header(games: dict[str, str] | None = None, first: str = "ann") -> dict[str, Any]:
    """A header seating the players of `games` (player -> game) in that order; ann and bob on dothack by default."""
    games = games or {"ann": "dothack", "bob": "dothack"}
    decks = {p: {"game": g, "cards": copy.deepcopy(DECKS[g])} for p, g in games.items()}
    return {"log": "referee-log/1", "ruleset": "crossover", "game": "t", "players": list(games), "setup": {"first": first, "decks": decks}}


def lines(records: list[dict[str, Any]], head: dict[str, Any] | None = None) -> list[bytes]:
    """The header and `records` numbered from 1, without a hash chain."""
    out = [msgspec.json.encode(head or header())]
    out += [msgspec.json.encode({"seq": seq, **record}) for seq, record in enumerate(records, start=1)]
    return out


def run(records: list[dict[str, Any]], head: dict[str, Any] | None = None) -> Replay:
    return judge(lines(records, head))


def draws(player: str, *cards: str) -> list[dict[str, Any]]:
    return [{"by": "chance", "type": "draw", "player": player, "card": c} for c in cards]


def rec(by: str, type_: str, **fields: Any) -> dict[str, Any]:
    return {"by": by, "type": type_, **fields}


def summon(by: str, card: str) -> dict[str, Any]:
    return rec(by, "summon", card=card)


def equip(by: str, card: str, minion: str) -> dict[str, Any]:
    return rec(by, "equip", card=card, minion=minion)


def event(by: str, card: str, draw: int = 0) -> dict[str, Any]:
    return rec(by, "event", card=card, draw=draw)


def pass_(by: str, draw: bool = False) -> dict[str, Any]:
    return rec(by, "pass", draw=draw)


def attack(by: str, minion: str, *targets: str) -> dict[str, Any]:
    return rec(by, "attack", minion=minion, targets=list(targets))


def respond(by: str, card: str, minion: str) -> dict[str, Any]:
    return rec(by, "respond", card=card, minion=minion)


def done(by: str) -> dict[str, Any]:
    return rec(by, "done")


def resolve(by: str, leader: str | None = None, *discard: str) -> dict[str, Any]:
    fields: dict[str, Any] = {"discard": list(discard)}
    if leader:
        fields["leader"] = leader
    return rec(by, "resolve", **fields)


XO = get("crossover")
DECODE = record_decoder("crossover").decode

# ann and bob (dothack, play value 1) hold events: ann a Stop!, bob a Draw.
OPEN = draws("ann", "Lead One", "M1", "M2", "Stop A", "Sword") + draws("bob", "Lead One", "M3", "M4", "Draw A", "Shield")
# Two minions each; ann's initiative 2, bob's 4: bob attacks ann.
TO_COMBAT = [*OPEN, summon("ann", "M1"), summon("bob", "M3"), summon("ann", "M2"), summon("bob", "M4"), pass_("ann"), pass_("bob")]
# The same without any events in hand, so no response window opens.
ANN_PLAIN = ("Lead One", "M1", "M2", "M5", "Sword")
BOB_PLAIN = ("Lead One", "M3", "M4", "M6", "Shield")
PLAIN = draws("ann", *ANN_PLAIN) + draws("bob", *BOB_PLAIN)


def illegal(records: list[dict[str, Any]], rule: str, head: dict[str, Any] | None = None) -> str:
    """Assert the last record breaks `rule`; return the message."""
    verdict = run(records, head).verdict
    assert verdict.verdict == "illegal", verdict
    assert verdict.error is not None
    assert (verdict.error.rule, verdict.error.seq) == (rule, len(records)), verdict.error
    return verdict.error.message


def legal(records: list[dict[str, Any]], head: dict[str, Any] | None = None) -> Any:
    """Assert every record is legal; return the final state."""
    replay = run(records, head)
    assert replay.verdict.error is None, replay.verdict.error
    return replay.state


def apply(state: Any, record: dict[str, Any]) -> None:
    """Apply one record, given as a dict, straight to a state (for states a log cannot reach)."""
    XO.apply(state, DECODE(msgspec.json.encode({"seq": 1, **record})))


def setup_illegal(head: dict[str, Any], rule: str) -> str:
    verdict = run([], head).verdict
    assert verdict.verdict == "illegal" and verdict.error is not None, verdict
    assert verdict.error.rule == rule, verdict.error
    return verdict.error.message


def card_deck(**change: Any) -> dict[str, Any]:
    """A header whose ann deck has its first monster replaced by `change`."""
    head = header()
    cards = copy.deepcopy(DOT)
    cards[4] = {"name": "Odd", **change}
    head["setup"]["decks"]["ann"]["cards"] = cards
    return head


def four_players(first: str = "ann") -> dict[str, Any]:
    return header({p: "dothack" for p in ("ann", "bob", "cat", "dan")}, first=first)


def four_openings(order: tuple[str, ...] = ("ann", "bob", "cat", "dan")) -> list[dict[str, Any]]:
    hands = {"ann": ["M1", "M2", "M3", "M4"], "bob": ["M5", "M6", "M7", "M8"], "cat": ["M1", "M3", "M5", "M7"], "dan": ["M2", "M4", "M6", "M8"]}
    return [r for p in order for r in draws(p, "Lead One", *hands[p])]


def three_players() -> dict[str, Any]:
    return header({p: "dothack" for p in ("ann", "bob", "cat")})


# ann M1 + M2 (Sword on M1: double attack) vs bob M3 + M4 (Shield on M3: endurance); no events in hand.
ARMED = [*PLAIN, summon("ann", "M1"), summon("bob", "M3"), summon("ann", "M2"), summon("bob", "M4"), equip("ann", "Sword", "M1"), equip("bob", "Shield", "M3"), pass_("ann"), pass_("bob")]
