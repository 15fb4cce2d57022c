"""Cardwars, as RULES.md beside this file numbers it.

A turn is recovery, draw, play, attack, defense and the end of the turn.
Recovery, damage and the end of a turn are not records: `apply` performs them
when the record before them makes them due. The state holds only what a rule
reads; decks are unordered sets, because the log names every card drawn.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import msgspec

from referee import unseen
from referee.ruleset import (
    CHANCE,
    JUDGE,
    Illegal,
    RecordFields,
    Seat,
    TableRuleset,
    require_actor,
    two_player_result,
    veil_players,
)
from schemas import cardwars as cw
from schemas.log import Concede, GameLoss, Header, Record, Time
from schemas.verdict import Result

RANKS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12, "K": 13}
SUITS = ("S", "H", "D", "C")
SIGN = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}  # a card's short label on a recorder's button
JOKERS = ("JK1", "JK2")
VALUE = {rank + suit: v for rank, v in RANKS.items() for suit in SUITS} | dict.fromkeys(JOKERS, 10)
SUIT = {rank + suit: suit for rank in RANKS for suit in SUITS}
FACES = frozenset(c for c in SUIT if c[0] in "JQK")
OF_SUIT = {suit: frozenset(c for c in SUIT if SUIT[c] == suit) for suit in SUITS}
START_LIFE = 20
BOT_TURN_LIMIT = 300
HIDDEN_ZONES = ("hand", "deck")  # CW-9.1: what only a card's owner (and the judge) sees


def order(cards: Any) -> list[str]:
    """Cards sorted by suit, then value: the order every listing and bot uses."""
    return sorted(cards, key=lambda c: (SUITS.index(SUIT[c]) if c in SUIT else 4, VALUE[c], c))


def pays_for(resource: str, face: str) -> bool:
    """Whether destroying `resource` may help pay for `face`: same suit, or a joker (CW-4.4)."""
    return resource in JOKERS or SUIT[resource] == SUIT[face]


class Side:
    """One player's cards and life. `field` maps each card on the battlefield to marked-or-not."""

    __slots__ = ("deck", "field", "grave", "hand", "life")

    def __init__(self, deck: set[str]) -> None:
        self.deck = deck
        self.hand: set[str] = set()
        self.field: dict[str, bool] = {}
        self.grave: set[str] = set()
        self.life = START_LIFE


class State:
    """The whole game: both sides, whose turn and phase it is, and the combat in progress."""

    def __init__(self, players: list[str], first: str, decks: dict[str, set[str]]) -> None:
        self.players = players
        self.sides = {p: Side(decks[p]) for p in players}
        self.active = first
        self.defender = players[1] if first == players[0] else players[0]
        self.turn = 1
        self.phase = "draw"
        self.resource_played = False
        self.fresh: set[str] = set()  # face cards that came into play this turn
        self.attackers: list[str] = []
        self.blocks: dict[str, str] = {}  # blocker -> attacker
        self.pending: list[str] = []  # attackers still waiting for an assign record
        self.split: dict[str, dict[str, int]] = {}  # attacker -> blocker -> damage
        self.outcome: Result | None = None
        # record type -> handler; every entry refuses once the game is over (referee.ruleset.TableRuleset, _finish)
        self.handlers: dict[type[Record], Callable[[State, Any], None]] = {}


class Cardwars(TableRuleset):
    """The cardwars ruleset."""

    id = "cardwars"
    title = "Cardwars: two 27-card half decks, 20 life"
    setup_type = cw.Setup
    records = cw.RECORDS
    fixed_deck = "half of one standard 54-card deck (two whole suits and a joker), which the setup's `suits` gives each player (CW-1.2)"
    unordered: ClassVar[RecordFields] = {cw.PlayFace: ("pay",)}  # CW-1.7: the same game

    def card_order(self, card: str) -> tuple[Any, ...]:
        """A hand as players hold it: by suit, then value, the jokers last (`order`)."""
        return (SUITS.index(SUIT[card]) if card in SUIT else 4, VALUE.get(card, 0), card)

    def card_label(self, card: str) -> str:
        """Rank and the suit's sign (`10♥`); a joker `Joker 1`."""
        return card[:-1] + SIGN[card[-1]] if card in SUIT else f"Joker {card[2:]}" if card in JOKERS else card

    def identity(self, players: list[str], setup: cw.Setup) -> tuple[list[str], Any]:
        """CW-1.7: the seats as listed (they deal the jokers), each player's suits in one order."""
        return list(players), {"first": setup.first, "suits": {p: sorted(s) for p, s in setup.suits.items()}}

    # -- the interface ---------------------------------------------------------

    def default_setup(self, players: list[str], rng: random.Random) -> cw.Setup:
        """Random suits and a random first player."""
        suits = list(SUITS)
        rng.shuffle(suits)
        return cw.Setup(first=rng.choice(players), suits={players[0]: suits[:2], players[1]: suits[2:]})

    def start(self, header: Header, setup: cw.Setup) -> State:
        """Check seats and half decks (CW-1.1 to CW-1.3) and deal nothing: there is no opening hand."""
        players = list(header.players)
        if len(players) != 2:
            raise Illegal("CW-1.1", f"cardwars is for two players; the header lists {len(players)}")
        if setup.first not in players:
            raise Illegal("CW-1.3", f"the first player {setup.first!r} is not one of the players")
        if set(setup.suits) != set(players):
            raise Illegal("CW-1.2", "the setup must give suits to exactly the two players")
        decks = {}
        for seat, player in enumerate(players):
            suits = setup.suits[player]
            if len(suits) != 2 or len(set(suits)) != 2:
                raise Illegal("CW-1.2", f"{player}'s half deck must be two different whole suits")
            decks[player] = {JOKERS[seat], *OF_SUIT[suits[0]], *OF_SUIT[suits[1]]}
        if len(set(setup.suits[players[0]]) | set(setup.suits[players[1]])) != 4:
            raise Illegal("CW-1.2", "the two half decks must not share a suit")
        state = State(players, setup.first, decks)
        state.handlers = dict(HANDLERS)
        _begin_turn(state)
        return state

    def to_act(self, state: State) -> tuple[str, ...]:
        """Chance in a draw phase, the defender in the defense phase, else the active player."""
        phase = state.phase
        if phase == "over":
            return ()
        if phase == "draw":
            return (CHANCE,)
        return (state.defender,) if phase == "defense" else (state.active,)

    def legal(self, state: State) -> Iterator[Record]:
        """Every legal game record here, simplest first; blocks and payments are generated lazily."""
        active, phase = state.active, state.phase
        me = state.sides[active]
        if phase == "draw":
            for card in order(me.deck):
                yield cw.Draw(by=CHANCE, player=active, card=card)
        elif phase == "play":
            if not state.resource_played:
                for card in order(me.hand):
                    if card not in FACES:
                        yield cw.PlayResource(by=active, card=card)
            ready = self._ready_attackers(state)
            for size in range(len(ready) + 1):
                for attackers in itertools.combinations(ready, size):
                    yield cw.Attack(by=active, attackers=list(attackers))
            for face in order(c for c in me.hand if c in FACES):
                for pay in self._payments(me, face):
                    yield cw.PlayFace(by=active, card=face, pay=pay)
        elif phase == "defense":
            defender = state.defender
            theirs = state.sides[defender]
            for joker in order(c for c in theirs.hand if c in JOKERS):
                yield cw.JokerDefense(by=defender, card=joker)
            blockers = self._ready_blockers(state)
            for targets in itertools.product([None, *state.attackers], repeat=len(blockers)):
                blocks = {b: a for b, a in zip(blockers, targets, strict=True) if a is not None}
                yield cw.Block(by=defender, blocks=blocks)
        elif phase == "assign":
            attacker = state.pending[0]
            blockers = [b for b in state.blocks if state.blocks[b] == attacker]
            for split in _compositions(VALUE[attacker], len(blockers)):
                yield cw.Assign(by=active, attacker=attacker, damage=dict(zip(blockers, split, strict=True)))

    def sample(self, state: State, rng: random.Random) -> Record:
        """A legal record for a bot that plays to win sooner or later: it attacks often."""
        active, phase = state.active, state.phase
        me = state.sides[active]
        if phase == "draw":
            return cw.Draw(by=CHANCE, player=active, card=rng.choice(order(me.deck)))
        if phase == "play":
            options: list[Record] = []
            if not state.resource_played:
                options += [cw.PlayResource(by=active, card=c) for c in order(me.hand) if c not in FACES]
            for face in order(c for c in me.hand if c in FACES):
                pay = self._random_payment(me, face, rng)
                if pay is not None:
                    options.append(cw.PlayFace(by=active, card=face, pay=pay))
            attackers = [c for c in self._ready_attackers(state) if rng.random() < 0.7]
            rng.shuffle(attackers)  # the order is the player's: it sets the order of damage assignment
            options.append(cw.Attack(by=active, attackers=attackers))
            return rng.choice(options)
        if phase == "defense":
            defender = state.defender
            jokers = order(c for c in state.sides[defender].hand if c in JOKERS)
            if jokers and rng.random() < 0.3:
                return cw.JokerDefense(by=defender, card=rng.choice(jokers))
            blocks = {}
            for blocker in self._ready_blockers(state):
                target = rng.choice([None, *state.attackers])
                if target is not None:
                    blocks[blocker] = target
            return cw.Block(by=defender, blocks=blocks)
        attacker = state.pending[0]
        blockers = [b for b in state.blocks if state.blocks[b] == attacker]
        damage = dict.fromkeys(blockers, 0)
        for _ in range(VALUE[attacker]):
            damage[rng.choice(blockers)] += 1
        return cw.Assign(by=active, attacker=attacker, damage=damage)

    def result(self, state: State) -> Result | None:
        """The Result once the game is over; the score is each player's life left (CW-8.5)."""
        return state.outcome

    def unname(self, state: State, record: Record) -> Record:
        """CW-3.4: every draw may be recorded without its card."""
        return msgspec.structs.replace(record, card=None) if type(record) is cw.Draw else record

    def describe(self, state: State) -> dict[str, Any]:
        """Both sides' zones, life, the turn, the phase, and the combat in progress."""
        return {
            "turn": state.turn,
            "active": state.active,
            "phase": state.phase,
            "resource_played": state.resource_played,
            "players": {
                p: {
                    "life": s.life,
                    "hand": order(s.hand),
                    "deck": order(s.deck),
                    **unseen.described(state, p),
                    "battlefield": [{"card": c, "marked": s.field[c]} for c in order(s.field)],
                    "graveyard": order(s.grave),
                }
                for p, s in state.sides.items()
            },
            "came_into_play": order(state.fresh),
            "attackers": list(state.attackers),
            "blocks": dict(state.blocks),
            "awaiting_assign": list(state.pending),
        }

    def hidden(self, state: State) -> dict[str, set[str]]:
        """CW-9.1: each player's hand and deck."""
        return {p: side.hand | side.deck for p, side in state.sides.items()}

    def seat_view(self, state: State, seat: Seat) -> dict[str, Any]:
        """CW-9: the judge's view with the hands and decks of the other players veiled."""
        return unseen.veiled(veil_players(self.view(state), seat, HIDDEN_ZONES), seat, "hand", "deck")

    def render(self, state: State) -> str:
        """A few lines a player can read at the table."""
        lines = [f"turn {state.turn}: {state.active} is active, {state.phase} phase"]
        for p, s in state.sides.items():
            field = " ".join(c + ("*" if s.field[c] else "") for c in order(s.field)) or "-"
            lines.append(
                f"  {p}: life {s.life}, deck {unseen.to_draw(state, p, s.deck)}, graveyard {len(s.grave)}; "
                f"hand {' '.join(order(s.hand)) or '-'}{unseen.rendered(state, p)}; battlefield {field}"
            )
        if state.attackers:
            blocks = ", ".join(f"{b}->{a}" for b, a in state.blocks.items()) or "none yet"
            lines.append(f"  attacking: {' '.join(state.attackers)}; blocks: {blocks}")
        lines.append("  (* marked)")
        return "\n".join(lines)

    def turn_limit(self, state: State) -> bool:
        """Bot games end by time after BOT_TURN_LIMIT turns."""
        return state.turn > BOT_TURN_LIMIT

    # -- helpers -----------------------------------------------------------------

    def _ready_attackers(self, state: State) -> list[str]:
        """Face cards of the active player that may attack this turn."""
        field = state.sides[state.active].field
        return [c for c in order(field) if c in FACES and c not in state.fresh and not field[c]]

    def _ready_blockers(self, state: State) -> list[str]:
        """Unmarked cards of the defender."""
        field = state.sides[state.defender].field
        return [c for c in order(field) if not field[c]]

    def _payments(self, side: Side, face: str) -> Iterator[list[str]]:
        """Every set of resources on the battlefield that may pay for `face`, smallest first."""
        eligible = [c for c in order(side.field) if c not in FACES and pays_for(c, face)]
        for size in range(1, len(eligible) + 1):
            for pay in itertools.combinations(eligible, size):
                if sum(VALUE[c] for c in pay) >= VALUE[face]:
                    yield list(pay)

    def _random_payment(self, side: Side, face: str, rng: random.Random) -> list[str] | None:
        """A random sufficient payment for `face`, or None when the resources are too few."""
        eligible = [c for c in order(side.field) if c not in FACES and pays_for(c, face)]
        rng.shuffle(eligible)
        pay, total = [], 0
        for card in eligible:
            if total >= VALUE[face]:
                break
            pay.append(card)
            total += VALUE[card]
        return pay if total >= VALUE[face] else None


# -- records (a handler per record type: HANDLERS, below) ------------------

def _draw(state: State, record: cw.Draw) -> None:
    """CW-3: chance draws a card from the active player's deck."""
    if state.phase != "draw":
        side = state.sides[state.active]
        if state.phase == "play" and not side.deck and not side.grave and not state.resource_played:
            raise Illegal("CW-3.3", f"there is no draw: {state.active}'s deck and graveyard are both empty")
        raise Illegal("CW-2.1", f"no draw is due: {_now(state)}")
    if record.by != CHANCE:
        _by(record, CHANCE, "a draw is a chance record")
    if record.player != state.active:
        raise Illegal("CW-3.1", f"it is {state.active}'s draw phase, not {record.player}'s")
    side = state.sides[state.active]
    card = record.card
    if card not in side.deck:
        if card is not None:
            raise Illegal("CW-3.1", f"{card} is not in {state.active}'s deck")
        unseen.draw(state, UNKNOWN, state.active, state.handlers)  # CW-3.4: an unknown card
    else:
        side.deck.discard(card)
        side.hand.add(card)
    state.phase = "play"


def _play_resource(state: State, record: cw.PlayResource) -> None:
    """CW-4.1: one resource card a turn, from hand."""
    if state.phase != "play" or record.by != state.active:  # the usual record skips the call
        _in_play_phase(state, record, "play a resource")
    side = state.sides[state.active]
    card = record.card
    if card not in side.hand:
        raise Illegal("CW-4.2", f"{card} is not in {state.active}'s hand")
    if card in FACES:
        raise Illegal("CW-4.1", f"{card} is a face card, not a resource; play it with play_face")
    if state.resource_played:
        raise Illegal("CW-4.1", f"{state.active} has already played a resource card this turn")
    side.hand.discard(card)
    side.field[card] = False
    state.resource_played = True


def _play_face(state: State, record: cw.PlayFace) -> None:
    """CW-4.3 to CW-4.5: a face card, paid for by destroying resources of its suit."""
    side = _in_play_phase(state, record, "play a face card")
    card, pay = record.card, record.pay
    if card not in side.hand:
        raise Illegal("CW-4.2", f"{card} is not in {state.active}'s hand")
    if card not in FACES:
        raise Illegal("CW-4.3", f"{card} is not a face card; play it with play_resource")
    if len(set(pay)) != len(pay):
        raise Illegal("CW-4.4", "the payment names a card twice")
    for paid in pay:
        if paid not in side.field:
            raise Illegal("CW-4.4", f"{paid} is not on {state.active}'s battlefield, so it cannot pay")
        if paid in FACES:
            raise Illegal("CW-4.4", f"{paid} is a face card; only resource cards pay for face cards")
        if not pays_for(paid, card):
            raise Illegal("CW-4.4", f"{paid} is not of {card}'s suit ({SUIT[card]}) and is not a joker")
    total = sum(VALUE[p] for p in pay)
    if total < VALUE[card]:
        raise Illegal("CW-4.5", f"{card} costs {VALUE[card]}, but the payment is worth only {total}")
    for paid in pay:
        del side.field[paid]
        side.grave.add(paid)
    side.hand.discard(card)
    side.field[card] = False
    state.fresh.add(card)


def _attack(state: State, record: cw.Attack) -> None:
    """CW-5: attack with face cards that did not come into play this turn; [] ends the turn."""
    if state.phase != "play" or record.by != state.active:  # the usual record skips the call
        _in_play_phase(state, record, "attack")
    side = state.sides[state.active]
    attackers = record.attackers
    if attackers and len(set(attackers)) != len(attackers):
        raise Illegal("CW-5.1", "an attacker is named twice")
    for card in attackers:
        if card not in side.field:
            raise Illegal("CW-5.1", f"{card} is not on {state.active}'s battlefield")
        if card not in FACES:
            raise Illegal("CW-5.1", f"{card} is a resource card; only face cards attack")
        if card in state.fresh:
            raise Illegal("CW-5.2", f"{card} cannot attack: it came into play this turn")
    if not attackers:
        _end_turn(state)
        return
    for card in attackers:
        side.field[card] = True
    state.attackers = list(attackers)
    state.phase = "defense"


def _joker_defense(state: State, record: cw.JokerDefense) -> None:
    """CW-6.1: a joker from the defender's hand destroys every attacker."""
    _in_defense(state, record, "play a joker")
    theirs = state.sides[state.defender]
    card = record.card
    if card not in JOKERS:
        raise Illegal("CW-6.1", f"{card} is not a joker; only a joker stops an attack")
    if card not in theirs.hand:
        where = "on the battlefield, and only a joker from hand" if card in theirs.field else "not in hand, and only a joker from hand"
        raise Illegal("CW-6.1", f"{card} is {where} stops an attack")
    theirs.hand.discard(card)
    theirs.grave.add(card)
    mine = state.sides[state.active]
    for attacker in state.attackers:
        del mine.field[attacker]
        mine.grave.add(attacker)
    _end_turn(state)


def _block(state: State, record: cw.Block) -> None:
    """CW-6.2: each unmarked card of the defender may block one attacker."""
    _in_defense(state, record, "block")
    theirs = state.sides[state.defender]
    for blocker, attacker in record.blocks.items():
        if blocker not in theirs.field:
            raise Illegal("CW-6.2", f"{blocker} is not on {state.defender}'s battlefield, so it cannot block")
        if theirs.field[blocker]:
            raise Illegal("CW-6.2", f"{blocker} is marked; only unmarked cards block")
        if attacker not in state.attackers:
            raise Illegal("CW-6.2", f"{blocker} blocks {attacker}, which is not attacking")
    state.blocks = dict(record.blocks)
    blocked = list(state.blocks.values())
    state.pending = [a for a in state.attackers if blocked.count(a) > 1]
    if state.pending:
        state.phase = "assign"
    else:
        _combat(state)


def _assign(state: State, record: cw.Assign) -> None:
    """CW-6.3: the attacker splits an attacker's whole value among its blockers."""
    if state.phase != "assign":
        raise Illegal("CW-2.1", f"no damage assignment is due: {_now(state)}")
    if record.by != state.active:
        _by(record, state.active, "the attacking player assigns damage")
    expected = state.pending[0]
    if record.attacker != expected:
        raise Illegal("CW-6.3", f"damage is assigned in attack order: {expected} is next, not {record.attacker}")
    blockers = {b for b, a in state.blocks.items() if a == expected}
    for blocker, amount in record.damage.items():
        if blocker not in blockers:
            raise Illegal("CW-6.3", f"{blocker} does not block {expected}")
        if amount < 0:
            raise Illegal("CW-6.3", f"{amount} damage to {blocker}: damage is a whole number, zero or more")
    total = sum(record.damage.values())
    if total != VALUE[expected]:
        raise Illegal("CW-6.3", f"{expected} deals {VALUE[expected]} damage in all; {total} was assigned")
    state.split[expected] = dict(record.damage)
    state.pending.pop(0)
    if not state.pending:
        _combat(state)


def _concede(state: State, record: Concede) -> None:
    """CW-8.1: a player may concede at any time, and loses."""
    if record.by not in state.sides:
        raise Illegal("CW-8.1", "only a player may concede")
    _finish(state, _other(state, record.by), "concede")


def _time(state: State, record: Time) -> None:
    """CW-8.2: the judge calls time; the game is a draw."""
    _by(record, JUDGE, "only the judge calls time", rule="CW-8.2")
    _finish(state, None, "time")


def _game_loss(state: State, record: GameLoss) -> None:
    """CW-8.3: the judge gives a player a game loss."""
    _by(record, JUDGE, "only the judge gives a game loss", rule="CW-8.3")
    if record.player not in state.sides:
        raise Illegal("CW-8.3", f"{record.player!r} is not a player in this game")
    _finish(state, _other(state, record.player), "game_loss")


# -- what follows by itself --------------------------------------------------

def _combat(state: State) -> None:
    """CW-7: all damage at once; destroyed cards go to their graveyards; then the turn ends."""
    mine, theirs = state.sides[state.active], state.sides[state.defender]
    taken: dict[str, int] = dict.fromkeys(state.attackers, 0)
    blocked_by: dict[str, list[str]] = {a: [] for a in state.attackers}  # in the order the blocks were made
    for blocker, attacker in state.blocks.items():
        blocked_by[attacker].append(blocker)
    to_player = 0
    for attacker, blockers in blocked_by.items():
        if not blockers:
            to_player += VALUE[attacker]
            continue
        split = state.split.get(attacker) or {blockers[0]: VALUE[attacker]}
        for blocker in blockers:
            amount = split.get(blocker, 0)
            to_player += max(0, amount - VALUE[blocker])
            if amount >= VALUE[blocker]:
                del theirs.field[blocker]
                theirs.grave.add(blocker)
            if blocker in FACES:
                taken[attacker] += VALUE[blocker]
    for attacker, amount in taken.items():
        if amount >= VALUE[attacker]:
            del mine.field[attacker]
            mine.grave.add(attacker)
    theirs.life -= to_player
    if theirs.life <= 0:
        _finish(state, state.active, "life")
    else:
        _end_turn(state)


def _end_turn(state: State) -> None:
    """CW-2.1: the turn passes to the other player, who recovers and draws."""
    state.active, state.defender = state.defender, state.active
    state.turn += 1
    state.resource_played = False
    state.fresh = set()
    state.attackers, state.blocks, state.pending, state.split = [], {}, [], {}
    _begin_turn(state)


def _begin_turn(state: State) -> None:
    """CW-2.2 and CW-3.2/3.3: unmark, take the graveyard as the deck if needed, draw if possible."""
    side = state.sides[state.active]
    for card in side.field:
        side.field[card] = False
    if not side.deck and side.grave:
        side.deck, side.grave = side.grave, set()
    state.phase = "draw" if side.deck else "play"


def _finish(state: State, winner: str | None, reason: str) -> None:
    """CW-8: the game ends; record who won and each player's life left."""
    score = {p: float(max(0, s.life)) for p, s in state.sides.items()}
    state.outcome = two_player_result(state.players, winner, reason, score)
    state.phase = "over"
    state.handlers.update(dict.fromkeys(state.handlers, _over))


# -- what every handler checks first ------------------------------------------

def _in_play_phase(state: State, record: Record, doing: str) -> Side:
    """The active player's side, once `record` is shown to be theirs and in their play phase."""
    if state.phase != "play":
        raise Illegal("CW-2.1", f"cannot {doing} now: {_now(state)}")
    if record.by != state.active:
        _by(record, state.active, f"only the active player, {state.active}, may {doing}")
    return state.sides[state.active]


def _in_defense(state: State, record: Record, doing: str) -> None:
    """Raise unless it is the defense phase and `record` is the defender's."""
    if state.phase != "defense":
        raise Illegal("CW-2.1", f"cannot {doing} now: {_now(state)}")
    if record.by != state.defender:
        _by(record, state.defender, f"only the defending player, {state.defender}, may {doing}")


# record type -> handler: start copies it into the state, and the engine calls the handlers itself
HANDLERS: dict[type[Record], Callable[[State, Any], None]] = {
    cw.Draw: _draw,
    cw.PlayResource: _play_resource,
    cw.PlayFace: _play_face,
    cw.Attack: _attack,
    cw.JokerDefense: _joker_defense,
    cw.Block: _block,
    cw.Assign: _assign,
    Concede: _concede,
    Time: _time,
    GameLoss: _game_loss,
}


# CW-3.4: a draw may leave out its card; the card is then named where it leaves the hand. No rule reads a
# card in hand before it is played, so every draw may be unnamed.
UNKNOWN = unseen.UnknownCards(
    zones=lambda state, player: (state.sides[player].deck, state.sides[player].hand),
    taken=dict.fromkeys((cw.PlayResource, cw.PlayFace, cw.JokerDefense), unseen.by_card),
    draw=cw.Draw,
    read_at_once=lambda state, player, card: None,
    rule="CW-3.4",
)


# Who may make a record (CW-2.1). Handlers call it only once `by` is wrong, so the
# usual record does not pay for building the message.
_by = functools.partial(require_actor, rule="CW-2.1")


def _over(state: State, record: Record) -> None:
    """CW-8.4: whatever the record, the game is over."""
    raise Illegal("CW-8.4", "the game is already over; no record may follow")


def _now(state: State) -> str:
    """What the game is waiting for, in a player's words."""
    if state.phase == "draw":
        return f"{state.active}'s draw is due"
    if state.phase == "defense":
        return f"{state.defender} must answer {state.active}'s attack (block or joker_defense)"
    if state.phase == "assign":
        return f"{state.active} must assign {state.pending[0]}'s damage among its blockers"
    return f"it is {state.active}'s play phase"


def _other(state: State, player: str) -> str:
    """The player who is not `player`."""
    return state.players[1] if player == state.players[0] else state.players[0]


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write `total` as `parts` whole numbers, zero or more, in order."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)
