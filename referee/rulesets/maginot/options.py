"""The legal records of a maginot position, for `legal` and the bot (game.py applies and checks them).

Each phase lists its own choices; event cards and the base tap are listed by
trying each candidate against events.py's checks, so a listed record is one
`apply` accepts.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from referee.ruleset import CHANCE, Illegal
from referee.rulesets.maginot import events
from referee.rulesets.maginot.state import (
    ACES,
    MAX_UNITS,
    PART,
    State,
    class_of,
    is_component,
    is_resource,
    may_engage,
    sort_cards,
    suit,
    value,
)
from schemas import maginot as mg
from schemas.log import Record


def legal(state: State, actor: str) -> Iterator[Record]:
    """Every legal game record for `actor`, who is to act: `pass` first, then the rest."""
    phase = state.phase
    if phase == "base":
        for aces in itertools.permutations(ACES):
            yield mg.Base(by=actor, aces=list(aces))
        return
    if phase == "draw":
        player = state.draws[0]
        for card in sort_cards(state.sides[player].deck):
            yield mg.Draw(by=CHANCE, player=player, card=card)
        return
    if phase != "engage":
        yield mg.Pass(by=actor)
    if phase == "construction":
        yield from _construction(state)
    elif phase == "battle":
        yield from _attacks(state, actor)
    elif phase == "engage":
        yield from _engagements(state)
    elif phase == "consolidation":
        yield from _consolidation(state)
    yield from _events(state, actor)


def ready(state: State) -> list[str]:
    """The active player's untapped patrol units: those that may attack (MG-6.1)."""
    units = state.sides[state.active].units
    return [n for n in sort_cards(units) if units[n].zone == "patrol" and not units[n].tapped]


def targets(state: State) -> list[str]:
    """The players the active player may attack (MG-6.1)."""
    return [p for p in state.still_in() if p != state.active]


def engagers(state: State) -> list[str]:
    """The defender's untapped guardian units (MG-6.3)."""
    assert state.battle is not None
    units = state.sides[state.battle.defender].units
    return [n for n in sort_cards(units) if units[n].zone == "guardian" and not units[n].tapped]


def any_engager(state: State) -> bool:
    """Whether `engagers(state)` is not empty, without sorting: an attack asks this every time (MG-6.3)."""
    assert state.battle is not None
    for unit in state.sides[state.battle.defender].units.values():
        if unit.zone == "guardian" and not unit.tapped:
            return True
    return False


def _attacks(state: State, actor: str) -> Iterator[mg.Attack]:
    """Every battle open to the active player: each target, each set of ready units, each standing ace."""
    units_ready = ready(state)
    for target in targets(state):
        base = state.sides[target].base
        lower = [a for a in ACES if a in base[1:]]  # the top ace is the one named by omission (MG-6.2)
        for size in range(1, len(units_ready) + 1):
            for units in itertools.combinations(units_ready, size):
                yield mg.Attack(by=actor, target=target, units=list(units))
                for ace in lower:
                    yield mg.Attack(by=actor, target=target, units=list(units), ace=ace)


def _engagements(state: State) -> Iterator[mg.Engage]:
    """Every legal engagement: each guard takes no attacker or one it may engage, no attacker twice."""
    battle = state.battle
    assert battle is not None
    guards = engagers(state)
    defender, attacking = state.sides[battle.defender].units, state.sides[battle.attacker].units
    choices = [[None, *(a for a in battle.units if may_engage(defender[g], attacking[a]))] for g in guards]
    for picks in itertools.product(*choices):
        taken = [a for a in picks if a is not None]
        if len(taken) == len(set(taken)):
            yield mg.Engage(by=battle.defender, pairs={g: a for g, a in zip(guards, picks, strict=True) if a is not None})


def _construction(state: State) -> Iterator[Record]:
    """Resources, taps and builds open to the active player."""
    me, side = state.active, state.sides[state.active]
    for card in sort_cards(side.hand):
        if is_resource(card):
            yield mg.Resource(by=me, card=card)
    for card in sort_cards(side.resources):
        if not side.resources[card]:
            yield mg.Tap(by=me, card=card)
    components = [c for c in sort_cards(side.hand) if is_component(c)]
    for card in sort_cards(side.building) + components:
        for tokens in range(1, state.pool + 1):
            yield mg.Build(by=me, card=card, tokens=tokens)


def _consolidation(state: State) -> Iterator[Record]:
    """Moves (before any assembly) and the assemblies open to the active player."""
    me, side = state.active, state.sides[state.active]
    if not state.assembled:
        for name in sort_cards(side.units):
            if name not in state.moved:
                zone: mg.Zone = "guardian" if side.units[name].zone == "patrol" else "patrol"
                yield mg.Move(by=me, unit=name, zone=zone)
    if len(side.units) >= MAX_UNITS:
        return
    built = sort_cards(side.built)
    by_suit = {s: [c for c in built if suit(c) == s] for s in PART}
    for life, armor, weapon in itertools.product(by_suit["H"], by_suit["S"], by_suit["C"]):
        if class_of(value(life) or 0) == class_of(value(armor) or 0) == class_of(value(weapon) or 0):
            yield mg.Assemble(by=me, life=life, armor=armor, weapon=weapon)


def _events(state: State, player: str) -> Iterator[Record]:
    """The `play` and `tap_base` records `player` may make now: candidates kept when their check passes."""
    if events.window_of(state, player) is None:
        return
    side = state.sides[player]
    candidates: list[Record] = [
        mg.Play(by=player, card=card, target=target, owner=owner)
        for card in sort_cards(c for c in side.hand if c in events.WINDOWS)
        for target, owner in events.targets(state, player, card)
    ]
    if not side.base_tapped and side.base:
        candidates.append(mg.TapBase(by=player))
        candidates += [mg.TapBase(by=player, target=t) for t in sort_cards(side.units)]
    for record in candidates:
        try:
            if isinstance(record, mg.Play):
                events.check_play(state, record)
            else:
                assert isinstance(record, mg.TapBase)
                events.check_tap_base(state, record)
        except Illegal:
            continue
        yield record
