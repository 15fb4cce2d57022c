"""The basictcg-mtg bot: a seeded policy that plays materials, summons, attacks and blocks.

Every record it returns is one `apply` accepts (the self-play tests check
this). It nearly always uses its free play, sometimes pays for a bigger
summon, attacks more often than not, and now and then uses the text of a
built-in instant in its discard pile (BOT_EFFECTS). Chance draws and the
rest of its choices come from the caller's seeded generator.
"""

from __future__ import annotations

import random

import msgspec

from referee.ruleset import CHANCE
from referee.rulesets.basictcg_mtg import options
from referee.rulesets.basictcg_mtg.cards import BOT_EFFECTS
from referee.rulesets.basictcg_mtg.state import State, card_level, is_creature
from schemas import basictcg_mtg as bt
from schemas.log import Record


def sample(state: State, rng: random.Random) -> Record:
    """A bot's record: it nearly always uses its free play, sometimes summons, attacks and blocks."""
    phase, active = state.phase, state.active
    if phase == "draw":
        player = state.draws[0]
        return bt.Draw(by=CHANCE, player=player, card=rng.choice(sorted(state.sides[player].deck)))
    if phase == "block":
        return bt.Block(by=state.defender, blocker=rng.choice([None, *options.blockers(state)]))
    if phase == "regen":
        creature = state.doomed[0]
        owner = state.owner[creature]
        hand = sorted(state.sides[owner].hand)
        return bt.Regenerate(by=owner, creature=creature, discard=rng.choice(hand) if rng.random() < 0.7 else None)
    hand = sorted(state.sides[active].hand)
    if hand and not state.free_used and rng.random() < 0.9:
        card = rng.choice(hand)
        if state.cards[card].level <= 1 and rng.random() < 0.6:
            return bt.Summon(by=active, card=card, sacrifice=[])
        return bt.Material(by=active, card=card)
    if hand and rng.random() < 0.3:
        card = rng.choice(hand)
        sacrifice = random_payment(state, card, rng)
        if sacrifice is not None:
            return bt.Summon(by=active, card=card, sacrifice=sacrifice)
    attacks = [(a, t) for a in options.attackers(state) for t in options.targets(state, a)]
    if attacks and rng.random() < 0.6:
        attacker, target = rng.choice(attacks)
        return bt.Attack(by=active, attacker=attacker, target=target)
    effect = bot_effect(state, rng) if rng.random() < 0.05 else None
    return effect or bt.EndTurn(by=active)


def random_payment(state: State, card: str, rng: random.Random) -> list[str] | None:
    """A random minimal sacrifice for `card`, or None when the cards in play are too few."""
    level = state.cards[card].level
    if level <= 1:
        return None
    field = sorted(state.sides[state.active].field)
    rng.shuffle(field)
    pay, paid = [], 0
    for c in field:
        if paid >= level:
            break
        pay.append(c)
        paid += card_level(state, c)
    if paid < level:
        return None
    for c in list(pay):  # drop what is not needed, so the sacrifice is minimal
        if paid - card_level(state, c) >= level:
            pay.remove(c)
            paid -= card_level(state, c)
    return sorted(pay)


def bot_effect(state: State, rng: random.Random) -> bt.Effect | None:
    """A bot uses the text of a built-in instant it owns, as the card says (BOT_EFFECTS)."""
    active = state.active
    sources = [c for c in sorted(state.sides[active].discard) if state.cards[c].name in BOT_EFFECTS]
    if not sources:
        return None
    source_id = rng.choice(sources)
    source = state.cards[source_id]
    field, amount, whose = BOT_EFFECTS[source.name]
    players = [active] if whose == "own" else [p for p in state.in_game() if p != active]
    aims = [
        c for p in players for c, on in sorted(state.sides[p].field.items())
        if is_creature(state, c, on) and not state.cards[c].protected_from(source)
    ]  # fmt: skip
    if not aims:
        return None
    aim = rng.choice(aims)
    effect = bt.Effect(by=active, source=source_id, text=f"{source.name}: {field} {amount} on {aim}", targets=[aim])
    return msgspec.structs.replace(effect, **{field: {aim: amount}})
