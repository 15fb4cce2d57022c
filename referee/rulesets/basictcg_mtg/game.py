"""Basic TCG with the v.004 Magic creatures scenario, as RULES.md beside this file numbers it.

A turn is a draw, a main phase (free play, summons, attacks, card text) and
the end of the turn. An attack opens a window for the defender's `block`; a
creature with regeneration that would leave play opens a window for its
controller's `regenerate`. Fights, damage, the end of a turn and the Act
Threshold are not records: `apply` performs them when they fall due. Decks are
unordered sets of card ids, because the log names every card drawn.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from referee.ruleset import CHANCE, JUDGE, Illegal, Ruleset, require_actor
from referee.rulesets.basictcg_mtg.cards import BOT_EFFECTS, Card, built_in_setup, facts
from schemas import basictcg_mtg as bt
from schemas.log import Concede, GameLoss, Header, Record, Time
from schemas.verdict import Result

BOT_TURN_LIMIT = 200


class InPlay:
    """A card on the table and what lies on it: tokens, this turn's bonus and damage, its flags."""

    __slots__ = ("attacked", "boost", "damage", "face_down", "fresh", "tokens")

    def __init__(self, face_down: bool) -> None:
        self.face_down = face_down
        self.tokens = 0
        self.boost = 0
        self.damage = 0
        self.fresh = True  # came into play this turn (BT-5.2)
        self.attacked = False


class Side:
    """One player's zones. `field` maps each card id in play to what lies on it."""

    __slots__ = ("deck", "discard", "field", "hand")

    def __init__(self, deck: set[str]) -> None:
        self.deck = deck
        self.hand: set[str] = set()
        self.field: dict[str, InPlay] = {}
        self.discard: set[str] = set()


class State:
    """The whole game: every card, every side, whose turn and moment it is, and what waits."""

    def __init__(self, players: list[str], first: str, cards: dict[str, Card], threshold: int) -> None:
        self.players = players
        self.cards = cards
        self.sides = {p: Side({c.id for c in cards.values() if c.owner == p}) for p in players}
        self.threshold = threshold
        self.active = first
        self.turn = 1
        self.phase = "draw"  # draw, main, block, regen, over
        self.draws: list[str] = []  # players owed a draw, in order
        self.free_used = False
        self.attack: tuple[str, str] | None = None  # attacker, target
        self.defender = ""
        self.doomed: list[str] = []  # regenerating creatures waiting for their controller's answer
        self.resume = "main"  # where play goes once `doomed` is empty: main, block or end
        self.left: list[str] = []  # players who left, in order
        self.effects = 0
        self.outcome: Result | None = None

    def in_game(self) -> list[str]:
        """Players still in the game, in seat order."""
        return [p for p in self.players if p not in self.left]


class BasicTcgMtg(Ruleset):
    """The basictcg-mtg ruleset."""

    id = "basictcg-mtg"
    title = "Basic TCG with Magic creatures (v.004): Act Threshold, 2 to 4 players"
    setup_type = bt.Setup
    records = bt.RECORDS
    min_players = 2
    max_players = 4

    def __init__(self) -> None:
        self._handlers: dict[type, Any] = {
            bt.Draw: self._draw,
            bt.Material: self._material,
            bt.Summon: self._summon,
            bt.Attack: self._attack,
            bt.Block: self._block,
            bt.Regenerate: self._regenerate,
            bt.Effect: self._effect,
            bt.EndTurn: self._end_turn,
            Concede: self._concede,
            Time: self._time,
            GameLoss: self._game_loss,
        }

    # -- the interface ---------------------------------------------------------

    def default_setup(self, players: list[str], rng: random.Random) -> bt.Setup:
        """Built-in cards, 24 random ones a player, threshold 10 so bot games stay short."""
        return built_in_setup(players, rng)

    def start(self, header: Header, setup: bt.Setup) -> State:
        """Check seats, cards and decks (BT-1), then owe the opening hands and the first draw."""
        players = list(header.players)
        if not self.min_players <= len(players) <= self.max_players:
            raise Illegal("BT-1.1", f"basictcg-mtg is for 2 to 4 players; the header lists {len(players)}")
        if setup.first not in players:
            raise Illegal("BT-1.1", f"the first player {setup.first!r} is not one of the players")
        if set(setup.decks) != set(players):
            raise Illegal("BT-1.4", "the setup must give a deck to each player and to no one else")
        cards: dict[str, Card] = {}
        known = {name: facts(spec) for name, spec in setup.cards.items()}
        for player in players:
            for card_id, name in setup.decks[player].items():
                if name not in setup.cards:
                    raise Illegal("BT-1.4", f"{player}'s card {card_id} is {name!r}, which the setup does not declare")
                if card_id in cards:
                    raise Illegal("BT-1.4", f"card id {card_id} is in two decks; ids must be unique")
                cards[card_id] = Card(card_id, name, player, *known[name])
        state = State(players, setup.first, cards, setup.threshold)
        seat = players.index(setup.first)
        clockwise = players[seat:] + players[:seat]
        state.draws = [p for p in clockwise for _ in range(setup.hand)] + [setup.first]
        self._next_draw(state)
        return state

    def to_act(self, state: State) -> tuple[str, ...]:
        """Chance while draws are owed, the defender in a block, the controller in a regeneration."""
        phase = state.phase
        if phase == "over":
            return ()
        if phase == "draw":
            return (CHANCE,)
        if phase == "block":
            return (state.defender,)
        if phase == "regen":
            return (state.cards[state.doomed[0]].owner,)
        return (state.active,)

    def legal(self, state: State) -> Iterator[Record]:
        """The legal game records here, simplest first.

        `effect` records (free card text) are always open to the player to
        act and are not listed. Summons are listed with their minimal
        sacrifices only (no card could be left out); larger ones are legal too.
        """
        phase = state.phase
        if phase == "draw":
            player = state.draws[0]
            for card in sorted(state.sides[player].deck):
                yield bt.Draw(by=CHANCE, player=player, card=card)
        elif phase == "block":
            yield bt.Block(by=state.defender, blocker=None)
            for blocker in self._blockers(state):
                yield bt.Block(by=state.defender, blocker=blocker)
        elif phase == "regen":
            creature = state.doomed[0]
            owner = state.cards[creature].owner
            yield bt.Regenerate(by=owner, creature=creature, discard=None)
            for card in sorted(state.sides[owner].hand):
                yield bt.Regenerate(by=owner, creature=creature, discard=card)
        elif phase == "main":
            active = state.active
            me = state.sides[active]
            yield bt.EndTurn(by=active)
            for attacker in self._attackers(state):
                for target in self._targets(state, attacker):
                    yield bt.Attack(by=active, attacker=attacker, target=target)
            hand = sorted(me.hand)
            if not state.free_used:
                for card in hand:
                    yield bt.Material(by=active, card=card)
            for card in hand:
                for sacrifice in self._payments(state, card):
                    yield bt.Summon(by=active, card=card, sacrifice=sacrifice)

    def sample(self, state: State, rng: random.Random) -> Record:
        """A bot's record: it nearly always uses its free play, sometimes summons, attacks and blocks."""
        phase, active = state.phase, state.active
        if phase == "draw":
            player = state.draws[0]
            return bt.Draw(by=CHANCE, player=player, card=rng.choice(sorted(state.sides[player].deck)))
        if phase == "block":
            return bt.Block(by=state.defender, blocker=rng.choice([None, *self._blockers(state)]))
        if phase == "regen":
            creature = state.doomed[0]
            owner = state.cards[creature].owner
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
            sacrifice = self._random_payment(state, card, rng)
            if sacrifice is not None:
                return bt.Summon(by=active, card=card, sacrifice=sacrifice)
        attacks = [(a, t) for a in self._attackers(state) for t in self._targets(state, a)]
        if attacks and rng.random() < 0.6:
            attacker, target = rng.choice(attacks)
            return bt.Attack(by=active, attacker=attacker, target=target)
        effect = self._bot_effect(state, rng) if rng.random() < 0.05 else None
        return effect or bt.EndTurn(by=active)

    def apply(self, state: State, record: Record) -> None:
        """Check `record` against the rules, then perform it and whatever follows by itself."""
        if state.phase == "over":
            raise Illegal("BT-12.4", "the game is already over; no record may follow")
        self._handlers[type(record)](state, record)

    def result(self, state: State) -> Result | None:
        """The Result once the game is over; the score is each player's total level in play (BT-12.3)."""
        return state.outcome

    def unchecked(self, state: State) -> int:
        """BT-10.1: how many `effect` records were accepted without checking their text."""
        return state.effects

    def describe(self, state: State) -> dict[str, Any]:
        """Every side's zones and totals, the turn, the moment, and what waits for an answer."""
        return {
            "turn": state.turn,
            "active": state.active,
            "phase": state.phase,
            "threshold": state.threshold,
            "free_play_used": state.free_used,
            "draws_owed": list(state.draws),
            "attack": list(state.attack) if state.attack else None,
            "awaiting_regeneration": list(state.doomed),
            "left": list(state.left),
            "unchecked_effects": state.effects,
            "players": {
                p: {
                    "total": _total(state, p),
                    "hand": sorted(s.hand),
                    "deck": len(s.deck),
                    "discard": sorted(s.discard),
                    "in_play": [self._describe_card(state, c, s.field[c]) for c in sorted(s.field)],
                }
                for p, s in state.sides.items()
            },
        }

    def render(self, state: State) -> str:
        """A few lines a player can read at the table."""
        lines = [f"turn {state.turn}: {state.active} is active, {state.phase}; threshold {state.threshold}"]
        for p, s in state.sides.items():
            cards = []
            for c in sorted(s.field):
                on = s.field[c]
                if on.face_down:
                    cards.append(f"{c}(material)")
                    continue
                card = state.cards[c]
                stats = f" {_power(card, on)}/{_stamina(card, on)}" if card.creature else ""
                marks = "".join(m for m, n in (("+", on.tokens), ("!", on.damage)) if n)
                cards.append(f"{c}({card.name} L{card.level + on.tokens}{stats}{marks})")
            status = " (left)" if p in state.left else ""
            lines.append(
                f"  {p}{status}: total {_total(state, p)}, deck {len(s.deck)}, hand {len(s.hand)}, "
                f"discard {len(s.discard)}; in play {' '.join(cards) or '-'}"
            )
        if state.attack:
            lines.append(f"  {state.attack[0]} attacks {state.attack[1]}; {state.defender} to block")
        lines.append(f"  (+ tokens, ! damage; {state.effects} unchecked effects)")
        return "\n".join(lines)

    def turn_limit(self, state: State) -> bool:
        """Bot games end by time after BOT_TURN_LIMIT turns."""
        return state.turn > BOT_TURN_LIMIT

    # -- records -----------------------------------------------------------------

    def _draw(self, state: State, record: bt.Draw) -> None:
        """BT-3.2: chance draws a card from the deck of the player owed the draw."""
        if state.phase != "draw":
            raise Illegal("BT-2.1", f"no draw is due now ({self._moment(state)})")
        _by(record, CHANCE, "a draw is a chance record")
        player = state.draws[0]
        if record.player != player:
            raise Illegal("BT-3.2", f"the next draw is {player}'s, not {record.player}'s")
        side = state.sides[player]
        if record.card not in side.deck:
            raise Illegal("BT-3.2", f"{record.card} is not in {player}'s deck")
        side.deck.discard(record.card)
        side.hand.add(record.card)
        state.draws.pop(0)
        self._next_draw(state)

    def _material(self, state: State, record: bt.Material) -> None:
        """BT-4.3: any card from hand face down, as the turn's free play."""
        side = self._main(state, record, "play a material")
        _in_hand(state, state.active, record.card)
        if state.free_used:
            raise Illegal("BT-4.2", f"{state.active} has already used this turn's free play")
        side.hand.discard(record.card)
        side.field[record.card] = InPlay(face_down=True)
        state.free_used = True

    def _summon(self, state: State, record: bt.Summon) -> None:
        """BT-4.4 to BT-4.6: a card face up, free or paid by sacrificing levels in play."""
        side = self._main(state, record, "summon")
        _in_hand(state, state.active, record.card)
        card = state.cards[record.card]
        sacrifice = record.sacrifice
        if len(set(sacrifice)) != len(sacrifice):
            raise Illegal("BT-4.4", "the sacrifice names a card twice")
        for paid in sacrifice:
            if paid not in side.field:
                raise Illegal("BT-4.4", f"{paid} is not in play under {state.active}'s control, so it cannot be sacrificed")
        paid_levels = sum(_level(state, c) for c in sacrifice)
        free = not sacrifice and card.level == 1
        if not sacrifice and card.level > 1:
            raise Illegal("BT-4.5", f"{card.name} is level {card.level}; only a level 0 or 1 card is summoned without a sacrifice")
        if free and state.free_used:
            raise Illegal("BT-4.2", f"{state.active} has already used this turn's free play; {card.name} needs a sacrifice")
        if not free and paid_levels < card.level:
            raise Illegal("BT-4.4", f"{card.name} is level {card.level}, but the sacrifice is worth only {paid_levels}")
        for paid in sacrifice:
            _to_discard(state, paid)
        side.hand.discard(card.id)
        if card.one_shot:
            side.discard.add(card.id)
        else:
            side.field[card.id] = InPlay(face_down=False)
        state.free_used = state.free_used or free

    def _attack(self, state: State, record: bt.Attack) -> None:
        """BT-5: a creature that may attack this turn attacks another player's creature."""
        side = self._main(state, record, "attack")
        attacker = record.attacker
        if attacker not in side.field or not _is_creature(state, attacker, side.field[attacker]):
            raise Illegal("BT-5.1", f"{attacker} is not a creature in play under {state.active}'s control")
        on = side.field[attacker]
        if on.fresh:
            raise Illegal("BT-5.2", f"{attacker} came into play this turn and cannot attack yet")
        if on.attacked:
            raise Illegal("BT-5.2", f"{attacker} has already attacked this turn")
        card = state.cards[attacker]
        if "defender" in card.keywords:
            raise Illegal("BT-5.3", f"{card.name} has defender and cannot attack")
        target = state.cards.get(record.target)
        owner = target.owner if target else ""
        if target is None or owner == state.active or record.target not in state.sides[owner].field:
            raise Illegal("BT-5.1", f"{record.target} is not in play under another player's control")
        if not _is_creature(state, target.id, state.sides[owner].field[target.id]):
            raise Illegal("BT-5.1", f"{record.target} is not a creature; only creatures can be attacked")
        if target.protected_from(card):
            raise Illegal("BT-5.4", f"{target.name} has protection from {card.name}'s colour and cannot be its target")
        on.attacked = True
        state.attack = (attacker, target.id)
        state.defender = owner
        state.phase = "block"

    def _block(self, state: State, record: bt.Block) -> None:
        """BT-6: the defender blocks with another creature, or not; then the fight (BT-7)."""
        if state.phase != "block":
            raise Illegal("BT-2.1", f"no attack is waiting for a block ({self._moment(state)})")
        _by(record, state.defender, f"only the defending player, {state.defender}, answers the attack")
        assert state.attack is not None
        attacker, target = state.attack
        blocker = record.blocker
        if blocker is not None:
            field = state.sides[state.defender].field
            if blocker not in field or not _is_creature(state, blocker, field[blocker]):
                raise Illegal("BT-6.1", f"{blocker} is not a creature in play under {state.defender}'s control")
            if blocker == target:
                raise Illegal("BT-6.1", f"{blocker} is the attacked creature; a block needs a different creature")
            self._check_blockable(state, attacker, blocker)
        state.attack = None
        self._fight(state, attacker, blocker or target)

    def _regenerate(self, state: State, record: bt.Regenerate) -> None:
        """BT-9: discard a card from hand to keep a regenerating creature in play, or let it go."""
        if state.phase != "regen":
            raise Illegal("BT-2.1", f"no creature is waiting to regenerate ({self._moment(state)})")
        creature = state.doomed[0]
        owner = state.cards[creature].owner
        _by(record, owner, f"only {creature}'s controller, {owner}, may regenerate it")
        if record.creature != creature:
            raise Illegal("BT-9.1", f"{creature} is the creature waiting to regenerate, not {record.creature}")
        side = state.sides[owner]
        if record.discard is None:
            _to_discard(state, creature)
        else:
            _in_hand(state, owner, record.discard, "BT-9.1")
            side.hand.discard(record.discard)
            side.discard.add(record.discard)
            side.field[creature].damage = 0
        state.doomed.pop(0)
        self._next_doomed(state)

    def _effect(self, state: State, record: bt.Effect) -> None:
        """BT-10: other card text, accepted unchecked; its consequences are checked and done."""
        if state.phase not in ("main", "block"):
            raise Illegal("BT-10.1", f"card text is used in the main phase or before a block ({self._moment(state)})")
        actor = self.to_act(state)[0]
        _by(record, actor, f"only {actor}, who is to act, may use card text now")
        source = state.cards.get(record.source)
        if source is None or source.owner != actor:
            raise Illegal("BT-10.1", f"{record.source} is not one of {actor}'s cards")
        hand = state.sides[actor].hand
        if len(set(record.discard)) != len(record.discard) or not set(record.discard) <= hand:
            raise Illegal("BT-10.2", f"the cards to discard must be different cards in {actor}'s hand")
        in_play = {c: on for s in state.sides.values() for c, on in s.field.items()}
        named = [*record.targets, *record.tokens, *record.boost, *record.damage, *record.destroy]
        for card in named:
            if card not in in_play:
                raise Illegal("BT-10.2", f"{card} is not in play")
        for card in record.tokens:
            if in_play[card].face_down:
                raise Illegal("BT-4.3", f"{card} is a material; its level cannot change")
        for card in record.boost:
            if not _is_creature(state, card, in_play[card]):
                raise Illegal("BT-8.2", f"{card} is not a creature; only creatures take a stamina bonus")
        for card in [*record.targets, *record.tokens, *record.boost, *record.damage, *record.destroy]:
            if state.cards[card].protected_from(source):
                raise Illegal("BT-10.3", f"{card} has protection from {source.name}'s colour: nothing from it reaches {card}")
        for card in record.discard:
            hand.discard(card)
            state.sides[actor].discard.add(card)
        for card, count in record.tokens.items():
            in_play[card].tokens += count
        for card, bonus in record.boost.items():
            in_play[card].boost += bonus
        for card, amount in record.damage.items():
            in_play[card].damage += amount
        state.effects += 1
        self._settle(state, [*record.destroy, *_overdamaged(state, record.damage)], resume=state.phase)

    def _end_turn(self, state: State, record: bt.EndTurn) -> None:
        """BT-11.2: bonuses end, damage is checked again, then the turn finishes."""
        self._main(state, record, "end the turn")
        doomed = []
        for side in state.sides.values():
            for card, on in side.field.items():
                on.boost = 0
                if on.damage and on.damage >= (1 if on.face_down else state.cards[card].level + on.tokens):
                    doomed.append(card)  # BT-8.3, as _overdamaged with the bonus gone
        self._settle(state, doomed, resume="end")

    def _concede(self, state: State, record: Concede) -> None:
        """BT-12.1: a player may concede at any time and leaves the game."""
        if record.by not in state.in_game():
            raise Illegal("BT-12.1", "only a player still in the game may concede")
        self._leave(state, record.by, "concede")

    def _time(self, state: State, record: Time) -> None:
        """BT-12.2: the judge calls time; the game is a draw among the players still in."""
        _by(record, JUDGE, "only the judge calls time")
        self._finish(state, "time")

    def _game_loss(self, state: State, record: GameLoss) -> None:
        """BT-12.1: the judge gives a player a game loss; that player leaves the game."""
        _by(record, JUDGE, "only the judge gives a game loss")
        if record.player not in state.in_game():
            raise Illegal("BT-12.1", f"{record.player!r} is not a player still in this game")
        self._leave(state, record.player, "game_loss")

    # -- what follows by itself --------------------------------------------------

    def _fight(self, state: State, attacker: str, defender: str) -> None:
        """BT-7: compare power with stamina both ways, with first strike, poison and deathtouch."""
        a_side, d_side = state.sides[state.cards[attacker].owner], state.sides[state.cards[defender].owner]
        if attacker not in a_side.field or defender not in d_side.field:
            state.phase = "main"  # BT-7.1: one of them has left play; no fight
            return
        a, d = state.cards[attacker], state.cards[defender]
        a_on, d_on = a_side.field[attacker], d_side.field[defender]
        a_wins = _power(a, a_on) >= _stamina(d, d_on) and not d.protected_from(a)
        d_wins = _power(d, d_on) >= _stamina(a, a_on) and not a.protected_from(d)
        if "first_strike" in a.keywords and "first_strike" not in d.keywords and a_wins:
            d_wins = False  # BT-7.5: only the attacker's first strike spares it the check back
        doomed = [c for c, out in ((defender, a_wins), (attacker, d_wins)) if out]
        if not d.protected_from(a):  # poison and deathtouch happen even when the attacker is removed
            if "poison" in a.keywords:
                d_on.damage += _power(a, a_on)
                doomed += _overdamaged(state, [defender])
            if "deathtouch" in a.keywords:
                _to_discard(state, defender)  # a sacrifice: no regeneration (BT-7.7)
        self._settle(state, [c for c in doomed if c in a_side.field or c in d_side.field], resume="main")

    def _settle(self, state: State, leaving: Iterable[str], resume: str) -> None:
        """Send `leaving` to the discard pile, asking first about each that may regenerate (BT-9)."""
        for card in sorted(set(leaving)):
            if "regeneration" in state.cards[card].keywords and _is_creature(state, card, _on(state, card)):
                state.doomed.append(card)
            else:
                _to_discard(state, card)
        state.resume = resume
        self._next_doomed(state)

    def _next_doomed(self, state: State) -> None:
        """Ask about the next regenerating creature whose controller has a card in hand; else resume."""
        while state.doomed:
            card = state.doomed[0]
            if state.sides[state.cards[card].owner].hand:
                state.phase = "regen"
                return
            _to_discard(state, card)
            state.doomed.pop(0)
        if state.resume == "end":
            self._finish_turn(state)
        elif state.resume == "block" and state.attack is None:
            state.phase = "main"  # the defender left while the attack waited (BT-12.1)
        else:
            state.phase = state.resume

    def _finish_turn(self, state: State) -> None:
        """BT-11.3/BT-11.4: the Act Threshold is checked, else the next turn begins (and clears damage)."""
        if any(_total(state, p) >= state.threshold for p in state.in_game()):
            self._finish(state, "threshold")
        else:
            self._next_turn(state)

    def _next_turn(self, state: State) -> None:
        """BT-11.4: the next player clockwise still in the game draws and plays."""
        for side in state.sides.values():
            for on in side.field.values():
                on.boost = on.damage = 0
                on.fresh = on.attacked = False
        seats = state.players
        at = seats.index(state.active)
        state.active = next(p for p in seats[at + 1 :] + seats[: at + 1] if p not in state.left)
        state.turn += 1
        state.free_used = False
        state.attack = None
        state.draws.append(state.active)  # after any opening draws still owed (a leaver in turn 1)
        self._next_draw(state)

    def _next_draw(self, state: State) -> None:
        """BT-3.3: skip draws owed by players whose deck is empty; the main phase follows the last."""
        while state.draws and not state.sides[state.draws[0]].deck:
            state.draws.pop(0)
        state.phase = "draw" if state.draws else "main"

    def _leave(self, state: State, player: str, reason: str) -> None:
        """BT-12.1: the player and their cards leave; the rest play on, or the last one wins."""
        state.left.append(player)
        state.sides[player].field.clear()
        state.draws = [p for p in state.draws if p != player]
        state.doomed = [c for c in state.doomed if state.cards[c].owner != player]
        if state.attack and state.defender == player:
            state.attack = None
        if len(state.in_game()) == 1:
            self._finish(state, reason)
        elif player == state.active:
            state.doomed = []  # whatever waited in the leaver's turn is dropped
            self._next_turn(state)
        elif state.phase == "draw":
            self._next_draw(state)
        elif state.phase == "regen":
            self._next_doomed(state)
        elif state.phase == "block" and state.attack is None:
            state.phase = "main"

    def _finish(self, state: State, reason: str) -> None:
        """BT-12.2/12.3: place the players, name the winners, score each one's total level."""
        remaining = state.in_game()
        totals = {p: _total(state, p) if p in remaining else 0 for p in state.players}
        if reason == "time":
            placements = dict.fromkeys(remaining, 1)
        else:
            placements = {p: 1 + sum(totals[q] > totals[p] for q in remaining) for p in remaining}
        for later, player in enumerate(reversed(state.left)):
            placements[player] = len(remaining) + 1 + later
        winners = [] if reason == "time" else [p for p in remaining if placements[p] == 1]
        state.outcome = Result(placements, winners, {p: float(t) for p, t in totals.items()}, reason)
        state.phase = "over"

    # -- helpers -----------------------------------------------------------------

    def _main(self, state: State, record: Record, doing: str) -> Side:
        """The active player's side, once `record` is shown to be theirs and in their main phase."""
        if state.phase != "main":
            raise Illegal("BT-2.1", f"cannot {doing} now ({self._moment(state)})")
        _by(record, state.active, f"only the active player, {state.active}, may {doing}")
        return state.sides[state.active]

    def _moment(self, state: State) -> str:
        """Who is to act, in words, for messages."""
        waiting = {"draw": "a draw", "block": "a block", "regen": "a regeneration", "main": "the main phase"}
        return f"it is {state.active}'s turn, waiting for {waiting.get(state.phase, state.phase)} by {self.to_act(state)[0]}"

    def _check_blockable(self, state: State, attacker: str, blocker: str) -> None:
        """BT-6.3 and BT-6.4: flying and landwalk limit who may block `attacker`."""
        a, b = state.cards[attacker], state.cards[blocker]
        if "flying" in a.keywords and not {"flying", "reach"} & b.keywords:
            raise Illegal("BT-6.3", f"{a.name} has flying; only a creature with flying or reach can block it")
        field = state.sides[state.defender].field
        terrain = {t for c, on in field.items() if not on.face_down for t in state.cards[c].terrain}
        if a.walk & terrain:
            raise Illegal("BT-6.4", f"{a.name} walks {'/'.join(sorted(a.walk & terrain))}, which {state.defender} controls: it cannot be blocked")

    def _attackers(self, state: State) -> list[str]:
        """The active player's creatures that may attack now."""
        field = state.sides[state.active].field
        return [
            c for c in sorted(field)
            if _is_creature(state, c, field[c]) and not field[c].fresh and not field[c].attacked
            and "defender" not in state.cards[c].keywords
        ]  # fmt: skip

    def _targets(self, state: State, attacker: str) -> list[str]:
        """Other players' creatures that `attacker` may attack."""
        a = state.cards[attacker]
        return [
            c for p in state.in_game() if p != state.active for c, on in sorted(state.sides[p].field.items())
            if _is_creature(state, c, on) and not state.cards[c].protected_from(a)
        ]  # fmt: skip

    def _blockers(self, state: State) -> list[str]:
        """The defender's creatures that may block the attack now."""
        assert state.attack is not None
        attacker, target = state.attack
        field = state.sides[state.defender].field
        options = []
        for c in sorted(field):
            if c != target and _is_creature(state, c, field[c]):
                try:
                    self._check_blockable(state, attacker, c)
                except Illegal:
                    continue
                options.append(c)
        return options

    def _payments(self, state: State, card: str) -> Iterator[list[str]]:
        """The minimal sacrifices that summon `card` (an empty one when it needs none), smallest first."""
        level = state.cards[card].level
        if level == 0 or (level == 1 and not state.free_used):
            yield []
            return
        # a minimal sacrifice holds no level-0 card, so it has at most `level` cards
        levels = {c: _level(state, c) for c in sorted(state.sides[state.active].field)}
        field = [c for c in levels if levels[c] > 0]
        for size in range(1, min(level, len(field)) + 1):
            for pay in itertools.combinations(field, size):
                paid = sum(levels[c] for c in pay)
                if paid >= level and paid - min(levels[c] for c in pay) < level:
                    yield list(pay)

    def _random_payment(self, state: State, card: str, rng: random.Random) -> list[str] | None:
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
            paid += _level(state, c)
        if paid < level:
            return None
        for c in list(pay):  # drop what is not needed, so the sacrifice is minimal
            if paid - _level(state, c) >= level:
                pay.remove(c)
                paid -= _level(state, c)
        return sorted(pay)

    def _bot_effect(self, state: State, rng: random.Random) -> bt.Effect | None:
        """A bot uses the text of a built-in instant it owns, as the card says (BOT_EFFECTS)."""
        active = state.active
        sources = [c for c in sorted(state.sides[active].discard) if state.cards[c].name in BOT_EFFECTS]
        if not sources:
            return None
        source = state.cards[rng.choice(sources)]
        field, amount, whose = BOT_EFFECTS[source.name]
        players = [active] if whose == "own" else [p for p in state.in_game() if p != active]
        aims = [
            c for p in players for c, on in sorted(state.sides[p].field.items())
            if _is_creature(state, c, on) and not state.cards[c].protected_from(source)
        ]  # fmt: skip
        if not aims:
            return None
        aim = rng.choice(aims)
        effect = bt.Effect(by=active, source=source.id, text=f"{source.name}: {field} {amount} on {aim}", targets=[aim])
        return msgspec.structs.replace(effect, **{field: {aim: amount}})

    def _describe_card(self, state: State, card_id: str, on: InPlay) -> dict[str, Any]:
        """One card in play as plain data."""
        if on.face_down:
            return {"card": card_id, "material": True, "level": 1, "damage": on.damage}
        card = state.cards[card_id]
        data: dict[str, Any] = {"card": card_id, "name": card.name, "level": card.level + on.tokens, "tokens": on.tokens}
        if card.creature:
            data |= {"power": _power(card, on), "stamina": _stamina(card, on), "boost": on.boost, "fresh": on.fresh, "attacked": on.attacked}
        return data | {"damage": on.damage}


_by = functools.partial(require_actor, rule="BT-2.1")  # who may make a record (BT-2.1)


def _in_hand(state: State, player: str, card: str, rule: str = "BT-4.1") -> None:
    """Raise unless `card` is in `player`'s hand."""
    if card not in state.sides[player].hand:
        raise Illegal(rule, f"{card} is not in {player}'s hand")


def _on(state: State, card: str) -> InPlay:
    """What lies on `card`, which is in play."""
    return state.sides[state.cards[card].owner].field[card]


def _is_creature(state: State, card: str, on: InPlay) -> bool:
    """BT-5.1: a face-up card whose types include creature."""
    return not on.face_down and state.cards[card].creature


def _level(state: State, card: str) -> int:
    """BT-4.3/BT-8.1: a material is level 1; a face-up card its level plus its tokens."""
    on = _on(state, card)
    return 1 if on.face_down else state.cards[card].level + on.tokens


def _power(card: Card, on: InPlay) -> int:
    """BT-7.2: power (level when there is none) plus tokens."""
    return (card.level if card.power is None else card.power) + on.tokens


def _stamina(card: Card, on: InPlay) -> int:
    """BT-7.2: stamina (level when there is none) plus tokens and this turn's bonus."""
    return (card.level if card.stamina is None else card.stamina) + on.tokens + on.boost


def _overdamaged(state: State, cards: Iterable[str]) -> list[str]:
    """BT-8.3: the cards among `cards` whose damage reaches their level, tokens and bonus."""
    out = []
    for card in cards:
        on = _on(state, card)
        if on.damage and on.damage >= (1 if on.face_down else state.cards[card].level + on.tokens + on.boost):
            out.append(card)
    return out


def _to_discard(state: State, card: str) -> None:
    """A card in play goes to its owner's discard pile, face up."""
    side = state.sides[state.cards[card].owner]
    del side.field[card]
    side.discard.add(card)


def _total(state: State, player: str) -> int:
    """BT-11.3: the sum of the levels of a player's cards in play."""
    cards = state.cards
    return sum(1 if on.face_down else cards[c].level + on.tokens for c, on in state.sides[player].field.items())  # _level, inlined
