"""The maginot bot: a seeded policy that builds units and attacks until players are out.

Every record it returns is one `legal` would list (the self-play tests check
this). The policy: put out every resource and tap it, build towards a unit of
one class, assemble whenever it can, keep most units on patrol, and send every
ready unit against the weakest opponent's most damaged ace, so that damage
goes where it finishes an ace and players fall one after another. Chance
draws and the rest of its choices come from the caller's seeded generator.
"""

from __future__ import annotations

import random
from collections import Counter

from referee.ruleset import CHANCE, Ruleset
from referee.rulesets.maginot import options
from referee.rulesets.maginot.state import (
    ACE_LIFE,
    ACES,
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

ATTACK = 0.95  # how often a bot with ready units attacks rather than passing the battle phase
GUARD = 0.4  # how often a bot with three or more units and no guard posts one
EVENT = 0.5  # how often a bot plays an event card or taps its base when one is open to it


def sample(rules: Ruleset, state: State, rng: random.Random) -> Record:
    """The bot's next record."""
    phase = state.phase
    if phase == "draw":
        player = state.draws[0]
        return mg.Draw(by=CHANCE, player=player, card=rng.choice(sort_cards(state.sides[player].deck)))
    if phase == "base":
        return rng.choice(list(rules.legal(state)))
    if phase == "battle":
        return _attack(rules, state, rng)
    if phase == "engage":
        return _engagement(rules, state, rng)
    if phase == "construction":
        plan = _construction(state)
        if plan is not None:
            return plan
    if phase == "consolidation":
        plan = _consolidation(rules, state, rng)
        if plan is not None:
            return plan
    events = [r for r in rules.legal(state) if isinstance(r, mg.Play | mg.TapBase)]
    if events and rng.random() < EVENT:
        return rng.choice(events)
    return mg.Pass(by=rules.to_act(state)[0])


def _attack(rules: Ruleset, state: State, rng: random.Random) -> Record:
    """Every ready unit against the opponent with the least base left, on their most damaged ace."""
    me = state.active
    ready = options.ready(state)
    if not ready or rng.random() >= ATTACK:
        return mg.Pass(by=me)

    def base_left(player: str) -> tuple[int, int, float]:
        side = state.sides[player]
        return len(side.base), sum(ACE_LIFE - side.damage[a] for a in side.base), rng.random()

    target = min(options.targets(state), key=base_left)
    side = state.sides[target]
    standing = [a for a in ACES if a in side.base]
    ace = max(standing, key=lambda a: (side.damage[a], a == side.base[0]), default=None)
    if ace is None or ace == side.base[0]:  # the top ace is the one an attack names by omission (MG-6.2)
        return mg.Attack(by=me, target=target, units=ready)
    return mg.Attack(by=me, target=target, units=ready, ace=ace)


def _engagement(rules: Ruleset, state: State, rng: random.Random) -> mg.Engage:
    """Each guard in turn engages a free attacker it may engage (most of the time), or none."""
    battle = state.battle
    assert battle is not None
    defender, attacking = state.sides[battle.defender].units, state.sides[battle.attacker].units
    pairs: dict[str, str] = {}
    for guard in options.engagers(state):
        free = [a for a in battle.units if a not in pairs.values() and may_engage(defender[guard], attacking[a])]
        if free and rng.random() < 0.8:
            pairs[guard] = rng.choice(free)
    return mg.Engage(by=battle.defender, pairs=pairs)


def _construction(state: State) -> Record | None:
    """Resources out, every resource tapped, then tokens where a unit is closest; None when done."""
    me, side = state.active, state.sides[state.active]
    hand = sort_cards(side.hand)
    diamonds = [c for c in hand if is_resource(c)]
    if diamonds:
        return mg.Resource(by=me, card=diamonds[0])
    untapped = [c for c in sort_cards(side.resources) if not side.resources[c]]
    if untapped:
        return mg.Tap(by=me, card=untapped[0])
    if not state.pool:
        return None
    if side.building:  # finish what was started, least left first
        card = min(sort_cards(side.building), key=lambda c: (value(c) or 0) - side.building[c])
    else:  # start a component the best-begun class still lacks, cheapest first
        have = {(class_of(value(c) or 0), suit(c)) for c in side.built}
        begun = Counter(kind for kind, _ in have)
        fresh = [c for c in hand if is_component(c) and (class_of(value(c) or 0), suit(c)) not in have]
        if not fresh:
            return None
        card = min(fresh, key=lambda c: (-begun[class_of(value(c) or 0)], value(c) or 0))
    needed = (value(card) or 0) - side.building.get(card, 0)
    return mg.Build(by=me, card=card, tokens=min(state.pool, needed))


def _consolidation(rules: Ruleset, state: State, rng: random.Random) -> Record | None:
    """Post one guard now and then (before any assembly), then assemble every unit it can; None when done."""
    side = state.sides[state.active]
    choices = list(rules.legal(state))
    guards = [u for u in side.units.values() if u.zone == "guardian"]
    posts = [r for r in choices if isinstance(r, mg.Move) and r.zone == "guardian"]
    if posts and not guards and len(side.units) >= 3 and not state.moved and rng.random() < GUARD:
        return rng.choice(posts)
    assemble = [r for r in choices if isinstance(r, mg.Assemble)]
    if assemble:
        return rng.choice(assemble)
    return None
