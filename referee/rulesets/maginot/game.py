"""Maginot, as RULES.md beside this file numbers it.

Setup is a `base` record per player and five draws each; then every turn is
draw and untap, construction, battle (any number of battles: attack,
engagement, the KD window, two combat steps, the outcome) and consolidation.
Untapping, the outcome of a battle, the end of a turn and elimination are not
records: `apply` performs them when the record before them makes them due
(flow.py). Event cards and the base tap live in events.py, the state in
state.py, the legal records in options.py and the bot in bot.py.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import msgspec

from referee import unseen
from referee.ruleset import CHANCE, JUDGE, Illegal, RecordFields, Seat, TableRuleset, require_actor
from referee.rulesets.maginot import bot, events, flow, options, seats
from referee.rulesets.maginot.state import (
    ACE_LIFE,
    ACES,
    MAX_UNITS,
    PART,
    Battle,
    Side,
    State,
    Unit,
    class_of,
    is_component,
    is_resource,
    may_engage,
    sort_cards,
    suit,
    value,
)
from schemas import maginot as mg
from schemas.log import Concede, GameLoss, Header, Record, Time
from schemas.verdict import Result

BOT_ROUNDS = 22  # bot games end by time after this many turns per player


class Maginot(TableRuleset):
    """The maginot ruleset."""

    id = "maginot"
    title = "Maginot (Complicated Free Card Game): units built from cards, bases of aces, 2 to 6 players"
    setup_type = mg.Setup
    records = mg.RECORDS
    min_players = 2
    max_players = 6
    fixed_deck = "a full standard 54-card deck for every player, the 52 cards and both jokers (MG-1.2)"
    unordered: ClassVar[RecordFields] = {mg.Attack: ("units",)}  # MG-R3: the same game

    # -- the interface ---------------------------------------------------------

    def default_setup(self, players: list[str], rng: random.Random) -> mg.Setup:
        """A random first player."""
        return mg.Setup(first=rng.choice(players))

    def start(self, header: Header, setup: mg.Setup) -> State:
        """Check the seats (MG-1.1) and the first player (MG-1.3); the aces come next, as records."""
        players = list(header.players)
        if not self.min_players <= len(players) <= self.max_players:
            raise Illegal("MG-1.1", f"maginot is for 2 to 6 players; the header lists {len(players)}")
        if setup.first not in players:
            raise Illegal("MG-1.3", f"the first player {setup.first!r} is not one of the players")
        state = State(players, setup.first)
        state.handlers = dict(HANDLERS)
        return state

    def to_act(self, state: State) -> tuple[str, ...]:
        """Chance while cards are drawn, the defender while engaging, the side in its step, else the active player."""
        return _to_act(state)

    def legal(self, state: State) -> Iterator[Record]:
        """Every legal game record here: `pass` first, then the rest; attacks and engagements lazily (options.py)."""
        if state.phase == "over":
            return
        yield from options.legal(state, self.to_act(state)[0])

    def sample(self, state: State, rng: random.Random) -> Record:
        """A legal record for a bot that builds and attacks (bot.py)."""
        return bot.sample(self, state, rng)

    def result(self, state: State) -> Result | None:
        """The Result once the game is over; the score is how many players placed below (MG-9.6)."""
        return state.outcome

    def unname(self, state: State, record: Record) -> Record:
        """MG-3.4: a draw may be recorded without its card, but a king of diamonds'."""
        if type(record) is mg.Draw and record.card != "KD":
            return msgspec.structs.replace(record, card=None)
        return record

    def describe(self, state: State) -> dict[str, Any]:
        """Every side's zones, the turn, the phase, the pool and the battle in progress."""
        battle = state.battle
        return {
            "turn": state.turn,
            "active": state.active,
            "phase": state.phase,
            "pool": state.pool,
            "out": list(state.out_order),
            "players": {p: _describe_side(state, p) for p in state.players},
            "battle": None
            if battle is None
            else {
                "attacker": battle.attacker,
                "defender": battle.defender,
                "units": list(battle.units),
                "ace": battle.ace,
                "engaged": dict(battle.pairs),
                "steps_to_come": list(battle.order),
            },
        }

    def view(self, state: State) -> dict[str, Any]:
        """What view.html.j2 draws: the described state, the damage an ace takes (MG-1.4), and each player's
        components under construction as a list (a face-down one has no name in another player's view)."""
        view = self.describe(state) | {"ace_life": ACE_LIFE}
        for entry in view["players"].values():
            entry["building"] = [{"card": card, "tokens": tokens} for card, tokens in entry["building"].items()]
        return view

    def hidden(self, state: State) -> dict[str, set[str]]:
        """MG-10: each player's hand, deck and face-down components."""
        return seats.hidden(state)

    def seat_view(self, state: State, seat: Seat) -> dict[str, Any]:
        """MG-10: the judge's view as `seat` may see it."""
        return unseen.veiled(seats.seat_view(state, self.view(state), seat), seat, "hand", "deck_cards")

    def record_view(self, record: Record, seat: Seat, state: State) -> dict[str, Any]:
        """MG-10: a draw's card, a base's order and a face-down build stay with their owner."""
        return seats.record_view(super().record_view(record, seat, state), record, seat, state)

    def render(self, state: State) -> str:
        """A few lines a player can read at the table."""
        lines = [f"turn {state.turn}: {state.active} is active, {state.phase} phase, pool {state.pool}"]
        for p in state.players:
            s = state.sides[p]
            if s.out:
                lines.append(f"  {p}: out")
                continue
            base = " ".join(f"{a}({ACE_LIFE - s.damage[a]})" for a in s.base) or "none standing"
            res = " ".join(c + ("*" if t else "") for c, t in s.resources.items()) or "-"
            units = " ".join(
                f"{u.life}/{u.armor}/{u.weapon}[{u.zone[0]}{'*' if u.tapped else ''} w{u.wounds}]" for u in s.units.values()
            )
            lines.append(
                f"  {p}: base {base}{' (tapped)' if s.base_tapped else ''}; hand {' '.join(sort_cards(s.hand)) or '-'}{unseen.rendered(state, p)}; "
                f"resources {res}; building {len(s.building)}, built {len(s.built)}; units {units or '-'}"
            )
        if state.battle is not None:
            b = state.battle
            lines.append(f"  battle: {b.attacker} attacks {b.defender} with {' '.join(b.units)}; engaged {b.pairs or 'none'}")
        lines.append("  (* tapped; units life/armor/weapon [zone, wounds])")
        return "\n".join(lines)

    def turn_limit(self, state: State) -> bool:
        """Bot games end by time after BOT_ROUNDS turns per player."""
        return state.turn > BOT_ROUNDS * len(state.players)


# -- records: setup and draws (a handler per record type: HANDLERS, below) -----

def _base(state: State, record: mg.Base) -> None:
    """MG-1.4: each player in seat order lays out the four aces, top first."""
    if state.phase != "base":
        raise Illegal("MG-2.2", "the bases are already laid out")
    if record.by != state.bases_due[0]:
        _by(record, state.bases_due[0], "the bases are laid out in seat order")
    if sorted(record.aces) != sorted(ACES):
        raise Illegal("MG-1.4", "a base is the four aces, each once")
    side = state.sides[record.by]
    side.base = list(record.aces)
    side.damage = dict.fromkeys(record.aces, 0)
    state.bases_due.pop(0)
    if not state.bases_due:
        state.draws = [p for p in state.players for _ in range(flow.OPENING_HAND)]
        flow.continue_draws(state)


def _draw(state: State, record: mg.Draw) -> None:
    """MG-1.5, MG-3.2: chance draws a card from the deck of the player who draws."""
    if state.phase != "draw":
        raise Illegal("MG-2.2", f"no draw is due: it is {state.active}'s {state.phase} phase")
    if record.by != CHANCE:
        _by(record, CHANCE, "a draw is a chance record")
    player = state.draws[0]
    if record.player != player:
        raise Illegal("MG-3.2", f"{player} draws next, not {record.player}")
    side = state.sides[player]
    card = record.card
    if card not in side.deck:
        if card is not None:
            raise Illegal("MG-3.2", f"{card} is not in {player}'s deck")
        unseen.draw(state, UNKNOWN, player, state.handlers)  # MG-3.4: an unknown card
    else:
        side.deck.discard(card)
        side.hand.add(card)
    state.draws.pop(0)
    flow.continue_draws(state)


# -- construction ----------------------------------------------------------------

def _resource(state: State, record: mg.Resource) -> None:
    """MG-4.1: a number card of diamonds goes from hand into the resource area, free."""
    side = _active_in(state, record, "construction", "put out a resource")
    card = record.card
    _in_hand(side, card, record.by)
    if not is_resource(card):
        raise Illegal("MG-4.1", f"{card} is not a number card of diamonds, so it is not a resource")
    side.hand.discard(card)
    side.resources[card] = False
    side.initiative += value(card) or 0


def _tap(state: State, record: mg.Tap) -> None:
    """MG-4.2: tapping an untapped resource adds its production to the pool."""
    if state.phase != "construction" or record.by != state.active:  # the usual record skips the call
        _active_in(state, record, "construction", "tap a resource")
    side = state.sides[state.active]
    card = record.card
    tapped = side.resources.get(card)
    if tapped is None:
        raise Illegal("MG-2.4", f"{card} is not in {record.by}'s resource area")
    if tapped:
        raise Illegal("MG-4.2", f"{card} is already tapped; it untaps at the start of {record.by}'s next turn")
    side.resources[card] = True
    state.tapped_now.add(card)
    state.pool += 3 if card in side.queens else 1


def _build(state: State, record: mg.Build) -> None:
    """MG-4.3, MG-4.4, MG-4.6: tokens from the pool onto a component, face down, until it is complete."""
    if state.phase != "construction" or record.by != state.active:  # the usual record skips the call
        _active_in(state, record, "construction", "build")
    side = state.sides[state.active]
    card, tokens = record.card, record.tokens
    if card in side.built:
        raise Illegal("MG-4.4", f"{card} is already complete")
    if card not in side.hand and card not in side.building:
        raise Illegal("MG-2.4", f"{card} is neither in {record.by}'s hand nor under construction")
    if not is_component(card):
        raise Illegal("MG-4.6", f"{card} is not a component: only number cards of spades, hearts and clubs are built")
    if tokens > state.pool:
        raise Illegal("MG-4.3", f"there are only {state.pool} tokens in the pool, not {tokens}")
    side.hand.discard(card)
    state.pool -= tokens
    if tokens >= (value(card) or 0) - side.building.get(card, 0):  # MG-4.4: surplus tokens are simply spent
        side.building.pop(card, None)
        side.built.add(card)
    else:
        side.building[card] = side.building.get(card, 0) + tokens


# -- battle --------------------------------------------------------------------

def _attack(state: State, record: mg.Attack) -> None:
    """MG-6.1, MG-6.2: a battle against one ace of another player's base with untapped patrol units."""
    if state.phase != "battle" or record.by != state.active:  # the usual record skips the call
        _active_in(state, record, "battle", "attack")
    side = state.sides[state.active]
    target, units = record.target, record.units
    if target == record.by or target not in state.sides or state.sides[target].out:
        raise Illegal("MG-6.1", f"{target} is not another player still in the game")
    if not units:
        raise Illegal("MG-6.1", "a battle needs at least one attacking unit; pass to end the battle phase")
    if len(set(units)) != len(units):
        raise Illegal("MG-2.4", "a unit is named twice")
    for name in units:
        unit = _unit(side, name, record.by)
        if unit.zone != "patrol":
            raise Illegal("MG-6.1", f"{name} is in the guardian zone; only patrol units attack")
        if unit.tapped:
            raise Illegal("MG-6.1", f"{name} is tapped; it has attacked since {record.by}'s last untap")
    base = state.sides[target].base
    if record.ace is not None and record.ace not in base:
        raise Illegal("MG-6.2", f"{target}'s {record.ace} is not standing, so it cannot be attacked")
    for name in units:
        side.units[name].tapped = True
    state.battle = Battle(record.by, target, list(units), record.ace or (base[0] if base else None))
    if options.any_engager(state):
        state.phase = "engage"
    else:
        flow.initiative(state)


def _engage(state: State, record: mg.Engage) -> None:
    """MG-6.3: each untapped guardian unit may engage one attacker its speed allows."""
    battle = state.battle
    if state.phase != "engage" or battle is None:
        raise Illegal("MG-2.2", "no engagement is due: no battle has just been declared")
    if record.by != battle.defender:
        _by(record, battle.defender, f"only the defender, {battle.defender}, engages")
    defender = state.sides[battle.defender]
    attacking = state.sides[battle.attacker].units
    seen: set[str] = set()
    for guard, target in record.pairs.items():
        unit = _unit(defender, guard, record.by)
        if unit.zone != "guardian" or unit.tapped:
            raise Illegal("MG-6.3", f"{guard} cannot engage: only untapped units in the guardian zone engage")
        if target not in battle.units:
            raise Illegal("MG-6.3", f"{battle.attacker}'s {target} is not attacking")
        if target in seen:
            raise Illegal("MG-6.3", f"{target} is engaged twice; an attacker is engaged by at most one unit")
        seen.add(target)
        if not may_engage(unit, attacking[target]):
            raise Illegal(
                "MG-6.3",
                f"{guard} is {unit.unit_class} and cannot engage {target}, which is {attacking[target].unit_class}",
            )
    battle.pairs = dict(record.pairs)
    flow.initiative(state)


# -- events --------------------------------------------------------------------

def _play(state: State, record: mg.Play) -> None:
    """MG-7.1 to MG-7.8: an event card or a joker (events.py)."""
    events.check_play(state, record)()


def _tap_base(state: State, record: mg.TapBase) -> None:
    """MG-7.9: the base tap (events.py)."""
    events.check_tap_base(state, record)()


# -- consolidation -------------------------------------------------------------

def _move(state: State, record: mg.Move) -> None:
    """MG-8.1, MG-8.2: each unit moves once, before any unit is assembled."""
    side = _active_in(state, record, "consolidation", "move a unit")
    unit = _unit(side, record.unit, record.by)
    if state.assembled:
        raise Illegal("MG-8.2", "units move before any is assembled, not after")
    if unit.zone == record.zone:
        raise Illegal("MG-8.1", f"{record.unit} is already in the {record.zone} zone")
    if record.unit in state.moved:
        raise Illegal("MG-8.1", f"{record.unit} has already moved this phase")
    unit.zone = record.zone
    state.moved.add(record.unit)


def _assemble(state: State, record: mg.Assemble) -> None:
    """MG-8.2, MG-8.3, MG-5.3: three complete components of one class make a unit in the patrol zone."""
    side = _active_in(state, record, "consolidation", "assemble a unit")
    parts = {"life": record.life, "armor": record.armor, "weapon": record.weapon}
    for part, card in parts.items():
        if card not in side.built:
            raise Illegal("MG-8.2", f"{card} is not a complete component in {record.by}'s construction area")
        if PART.get(suit(card)) != part:
            raise Illegal("MG-8.2", f"the {part} card must be a {_PART_SUIT[part]}, not {card}")
    classes = {class_of(value(c) or 0) for c in parts.values()}
    if len(classes) > 1:
        raise Illegal("MG-5.3", f"{record.life}, {record.armor} and {record.weapon} are not all of one class")
    if len(side.units) >= MAX_UNITS:
        raise Illegal("MG-8.3", f"{record.by} already controls {MAX_UNITS} units")
    side.built -= set(parts.values())
    side.units[record.life] = Unit(record.life, record.armor, record.weapon)
    state.assembled = True


# -- pass ----------------------------------------------------------------------

def _pass(state: State, record: mg.Pass) -> None:
    """MG-2.3: end the current step."""
    phase = state.phase
    if phase in ("base", "draw", "engage"):
        raise Illegal("MG-2.2", f"pass does not answer this step: {_to_act(state)[0]} must {_DUE[phase]}")
    if record.by != (state.battle.order[0] if state.battle is not None and phase in ("kd", "combat") else state.active):
        _by(record, _to_act(state)[0], "it is not their step to end")
    if phase == "construction":
        state.pool = 0  # MG-4.5: unused tokens are lost
        state.phase = "battle"
    elif phase == "battle":
        state.phase = "consolidation"
    elif phase == "kd":
        state.phase = "combat"
    elif phase == "combat":
        assert state.battle is not None
        state.battle.order.pop(0)
        if not state.battle.order:
            flow.outcome(state)
    else:
        flow.end_turn(state)


# -- the end of the game ---------------------------------------------------------

def _concede(state: State, record: Concede) -> None:
    """MG-9.3: a player still in may concede at any time."""
    if record.by not in state.sides or state.sides[record.by].out:
        raise Illegal("MG-9.3", "only a player still in the game may concede")
    flow.leave(state, record.by)


def _game_loss(state: State, record: GameLoss) -> None:
    """MG-9.4: the judge puts a player out."""
    _by(record, JUDGE, "only the judge gives a game loss")
    if record.player not in state.sides or state.sides[record.player].out:
        raise Illegal("MG-9.4", f"{record.player!r} is not a player still in this game")
    flow.leave(state, record.player)


def _time(state: State, record: Time) -> None:
    """MG-9.5: the judge calls time; the players still in are placed by their bases."""
    _by(record, JUDGE, "only the judge calls time")
    flow.finish(state, "time")


# -- helpers -------------------------------------------------------------------

def _to_act(state: State) -> tuple[str, ...]:
    """Who acts now (Maginot.to_act); a pass names them when it fails."""
    phase = state.phase
    if phase == "over":
        return ()
    if phase == "base":
        return (state.bases_due[0],)
    if phase == "draw":
        return (CHANCE,)
    if phase == "engage":
        assert state.battle is not None
        return (state.battle.defender,)
    if phase in ("kd", "combat"):
        assert state.battle is not None
        return (state.battle.order[0],)
    return (state.active,)


def _active_in(state: State, record: Record, phase: str, doing: str) -> Side:
    """The active player's side, once `record` is theirs and made in `phase` (the hottest handlers test first)."""
    if state.phase != phase:
        raise Illegal("MG-2.2", f"cannot {doing} now: it is {state.active}'s {state.phase} phase, not {phase}")
    if record.by != state.active:
        _by(record, state.active, f"only the active player, {state.active}, may {doing}")
    return state.sides[state.active]


# MG-3.4: a draw may leave out its card, but for a king of diamonds, which the rules read in a hand at once
# (MG-6.5: the KD window opens only for a side that holds one).
UNKNOWN = unseen.UnknownCards(
    zones=lambda state, player: (state.sides[player].deck, state.sides[player].hand),
    taken=dict.fromkeys((mg.Resource, mg.Build, mg.Play), unseen.by_card),
    draw=mg.Draw,
    read_at_once=lambda state, player, card: "MG-6.5" if card == "KD" else None,
    rule="MG-3.4",
)


# record type -> handler: start copies it into the state, and the engine calls the handlers itself
HANDLERS: dict[type[Record], Callable[[State, Any], None]] = {
    mg.Base: _base,
    mg.Draw: _draw,
    mg.Resource: _resource,
    mg.Tap: _tap,
    mg.Build: _build,
    mg.Attack: _attack,
    mg.Engage: _engage,
    mg.Play: _play,
    mg.TapBase: _tap_base,
    mg.Move: _move,
    mg.Assemble: _assemble,
    mg.Pass: _pass,
    Concede: _concede,
    Time: _time,
    GameLoss: _game_loss,
}


_PART_SUIT = {"life": "heart", "armor": "spade", "weapon": "club"}
_DUE = {"base": "lay out their base", "draw": "draw (a chance record)", "engage": "declare engagements (engage)"}


# Who may make a record (MG-2.2). Handlers call it only once `by` is wrong, so the
# usual record does not pay for building the message.
_by = functools.partial(require_actor, rule="MG-2.2")


def _in_hand(side: Side, card: str, player: str) -> None:
    """MG-2.4: raise unless `card` is in `player`'s hand."""
    if card not in side.hand:
        raise Illegal("MG-2.4", f"{card} is not in {player}'s hand")


def _unit(side: Side, name: str, player: str) -> Unit:
    """MG-2.4: `player`'s unit named `name` (by its heart card), or raise."""
    unit = side.units.get(name)
    if unit is None:
        raise Illegal("MG-2.4", f"{player} has no unit {name} (a unit is named by its heart card)")
    return unit


def _describe_side(state: State, player: str) -> dict[str, Any]:
    """One player's zones as plain data."""
    side = state.sides[player]
    return {
        "out": side.out,
        "hand": sort_cards(side.hand),
        **unseen.described(state, player),
        "deck": unseen.to_draw(state, player, side.deck),
        "discard": sort_cards(side.discard),
        "base": [{"ace": a, "damage": side.damage[a]} for a in side.base],
        "destroyed_aces": list(side.ruins),
        "base_tapped": side.base_tapped,
        "resources": [{"card": c, "tapped": t, "queen": side.queens.get(c)} for c, t in side.resources.items()],
        "building": dict(side.building),
        "built": sort_cards(side.built),
        "units": [
            {
                "name": n,
                "life": u.life,
                "armor": u.armor,
                "weapon": u.weapon,
                "queen": u.queen,
                "zone": u.zone,
                "tapped": u.tapped,
                "wounds": u.wounds,
                "class": u.unit_class,
            }
            for n, u in side.units.items()
        ],
    }
