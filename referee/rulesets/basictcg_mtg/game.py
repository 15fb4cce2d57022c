"""Basic TCG with the v.004 Magic creatures scenario, as RULES.md beside this file numbers it.

A turn is a draw, a main phase (free play, summons, attacks, card text) and
the end of the turn. An attack opens a window for the defender's `block`; a
creature with regeneration that would leave play opens a window for its
controller's `regenerate`. Fights, damage, the end of a turn and the Act
Threshold are not records: `apply` performs them when they fall due (flow.py).
The state lives in state.py, the legal records in options.py and the bot in
bot.py.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from typing import Any, ClassVar, NoReturn

import msgspec

from referee import unseen
from referee.ruleset import (
    CHANCE,
    JUDGE,
    Illegal,
    RecordFields,
    Seat,
    TableRuleset,
    from_first,
    require_actor,
    sees,
    veiled,
)
from referee.rulesets.basictcg_mtg import bot, decks, flow, options
from referee.rulesets.basictcg_mtg.cards import built_in_setup, declared
from referee.rulesets.basictcg_mtg.state import (
    InPlay,
    State,
    attacked,
    fresh,
    is_creature,
    level,
    overdamaged,
    power,
    stamina,
    to_discard,
    total,
)
from schemas import basictcg_mtg as bt
from schemas.log import Concede, GameLoss, Header, Record, Time
from schemas.verdict import Result

BOT_TURN_LIMIT = 200


class BasicTcgMtg(TableRuleset):
    """The basictcg-mtg ruleset."""

    id = "basictcg-mtg"
    title = "Basic TCG with Magic creatures (v.004): Act Threshold, 2 to 4 players"
    setup_type = bt.Setup
    records = bt.RECORDS
    min_players = 2
    max_players = 4
    # BT-1.7: the same game
    unordered: ClassVar[RecordFields] = {bt.Summon: ("sacrifice",), bt.Effect: ("targets", "discard")}
    unread: ClassVar[RecordFields] = {bt.Effect: ("text",)}

    def identity(self, players: list[str], setup: bt.Setup) -> tuple[list[str], Any]:
        """BT-1.7: seats clockwise from the first player; each card's lists in one order and its `text` left out."""
        data = msgspec.to_builtins(setup)
        for card in data["cards"].values():
            card.pop("text", None)
            for name in ("types", "colours", "keywords", "walk", "protection", "terrain"):
                if name in card:
                    card[name] = sorted(card[name])
        return from_first(players, setup.first), data

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

    def deck_rules(self) -> decks.BasicTcgDecks:
        """BT-1.2 to BT-1.4, the checks `start` makes of each deck (decks.py)."""
        return decks.RULES

    def start(self, header: Header, setup: bt.Setup) -> State:
        """Check seats, cards and decks (BT-1), then owe the opening hands and the first draw."""
        players = list(header.players)
        if not self.min_players <= len(players) <= self.max_players:
            raise Illegal("BT-1.1", f"basictcg-mtg is for 2 to 4 players; the header lists {len(players)}")
        if setup.first not in players:
            raise Illegal("BT-1.1", f"the first player {setup.first!r} is not one of the players")
        if set(setup.decks) != set(players):
            raise Illegal("BT-1.4", "the setup must give a deck to each player and to no one else")
        kinds = declared(setup.cards)
        try:
            cards = {card_id: kinds[name] for player in players for card_id, name in setup.decks[player].items()}
        except KeyError:  # a name the setup does not declare
            deck_fault(players, setup)
        if len(cards) != sum(map(len, setup.decks.values())):  # an id in two decks
            deck_fault(players, setup)
        owner = {card_id: player for player in players for card_id in setup.decks[player]}
        state = State(players, setup.first, cards, owner, setup.decks, setup.threshold)
        state.handlers = dict(self._handlers)
        seat = players.index(setup.first)
        for player in players[seat:] + players[:seat]:  # the opening hands, clockwise from the first player
            state.draws += [player] * setup.hand
        state.draws.append(setup.first)
        flow.next_draw(state)
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
            return (state.owner[state.doomed[0]],)
        return (state.active,)

    def legal(self, state: State) -> Iterator[Record]:
        """The legal game records here, simplest first (options.py); `effect` records and larger summons are not listed."""
        return options.legal(state)

    def sample(self, state: State, rng: random.Random) -> Record:
        """A bot's record: it nearly always uses its free play, sometimes summons, attacks and blocks (bot.py)."""
        return bot.sample(state, rng)

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
                    "total": total(state, p),
                    "hand": sorted(s.hand),
                    **unseen.described(state, p),
                    "deck": unseen.to_draw(state, p, s.deck),
                    "discard": sorted(s.discard),
                    "in_play": [self._describe_card(state, c, s.field[c]) for c in sorted(s.field)],
                }
                for p, s in state.sides.items()
            },
        }

    def unname(self, state: State, record: Record) -> Record:
        """BT-3.4: every draw may be recorded without its card."""
        return msgspec.structs.replace(record, card=None) if type(record) is bt.Draw else record

    def hidden(self, state: State) -> dict[str, set[str]]:
        """BT-13.1: the ids of each player's hand and deck (a face-down material's id is in view, its card is not)."""
        return {p: side.hand | side.deck for p, side in state.sides.items()}

    def seat_view(self, state: State, seat: Seat) -> dict[str, Any]:
        """BT-13: the judge's view with the other players' hands, deck contents and materials' cards veiled."""
        view = self.view(state)
        players = {}
        for p, side in view["players"].items():
            shown = sees(seat, p)
            in_play = [
                entry | {"name": state.cards[entry["card"]].name} if shown and entry.get("material") else entry
                for entry in side["in_play"]
            ]
            deck = sorted(state.sides[p].deck)
            players[p] = side | {"hand": veiled(side["hand"], shown), "deck_cards": veiled(deck, shown), "in_play": in_play}
        return unseen.veiled(view | {"players": players}, seat, "hand", "deck_cards")

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
                stats = f" {power(card, on)}/{stamina(card, on)}" if card.creature else ""
                marks = "".join(m for m, n in (("+", on.tokens), ("!", on.damage)) if n)
                cards.append(f"{c}({card.name} L{card.level + on.tokens}{stats}{marks})")
            status = " (left)" if p in state.left else ""
            lines.append(
                f"  {p}{status}: total {total(state, p)}, deck {unseen.to_draw(state, p, s.deck)}, "
                f"hand {len(s.hand) + unseen.unknown(state, p)}, "
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
        if record.by != CHANCE:  # inline: most records are draws
            _by(record, CHANCE, "a draw is a chance record")
        draws, card = state.draws, record.card
        player = draws[0]
        if record.player != player:
            raise Illegal("BT-3.2", f"the next draw is {player}'s, not {record.player}'s")
        side = state.sides[player]
        if card not in side.deck:
            if card is not None:
                raise Illegal("BT-3.2", f"{card} is not in {player}'s deck")
            unseen.draw(state, UNKNOWN, player, state.handlers)  # BT-3.4: an unknown card
        else:
            side.deck.discard(card)
            side.hand.add(card)
        draws.pop(0)
        if not draws:
            state.phase = "main"  # the last owed draw is made: the main phase follows (as next_draw sets it)
        elif not state.sides[draws[0]].deck:  # else the next opening draw is due
            flow.next_draw(state)

    def _material(self, state: State, record: bt.Material) -> None:
        """BT-4.3: any card from hand face down, as the turn's free play."""
        if state.phase != "main" or record.by != state.active:  # checks inline, messages built only on failure
            self._main(state, record, "play a material")
        side, card = state.sides[state.active], record.card
        if card not in side.hand:
            _in_hand(state, state.active, card)
        if state.free_used:
            raise Illegal("BT-4.2", f"{state.active} has already used this turn's free play")
        side.hand.discard(card)
        side.field[card] = InPlay(True, state.turn)  # face down, fresh
        side.levels += 1
        if side.levels >= state.threshold:
            state.reached = True
        state.free_used = True

    def _summon(self, state: State, record: bt.Summon) -> None:
        """BT-4.4 to BT-4.6: a card face up, free or paid by sacrificing levels in play."""
        if state.phase != "main" or record.by != state.active:
            self._main(state, record, "summon")
        side, card_id = state.sides[state.active], record.card
        if card_id not in side.hand:
            _in_hand(state, state.active, card_id)
        card = state.cards[card_id]
        sacrifice = record.sacrifice
        if sacrifice:
            if len(set(sacrifice)) != len(sacrifice):
                raise Illegal("BT-4.4", "the sacrifice names a card twice")
            paid_levels = 0
            for paid in sacrifice:
                if paid not in side.field:
                    raise Illegal("BT-4.4", f"{paid} is not in play under {state.active}'s control, so it cannot be sacrificed")
                paid_levels += level(state.cards[paid], side.field[paid])
            if paid_levels < card.level:
                raise Illegal("BT-4.4", f"{card.name} is level {card.level}, but the sacrifice is worth only {paid_levels}")
            for paid in sacrifice:
                to_discard(state, paid)
        elif card.level > 1:
            raise Illegal("BT-4.5", f"{card.name} is level {card.level}; only a level 0 or 1 card is summoned without a sacrifice")
        elif card.level == 1:  # free: the turn's free play (a level 0 card costs nothing)
            if state.free_used:
                raise Illegal("BT-4.2", f"{state.active} has already used this turn's free play; {card.name} needs a sacrifice")
            state.free_used = True
        side.hand.discard(card_id)
        if card.one_shot:
            side.discard.add(card_id)
        else:
            side.field[card_id] = InPlay(False, state.turn)  # face up, fresh
            side.levels += card.level
            if side.levels >= state.threshold:
                state.reached = True

    def _attack(self, state: State, record: bt.Attack) -> None:
        """BT-5: a creature that may attack this turn attacks another player's creature."""
        if state.phase != "main" or record.by != state.active:
            self._main(state, record, "attack")
        side = state.sides[state.active]
        attacker = record.attacker
        if attacker not in side.field or not is_creature(state, attacker, side.field[attacker]):
            raise Illegal("BT-5.1", f"{attacker} is not a creature in play under {state.active}'s control")
        on = side.field[attacker]
        if on.since == state.turn:  # fresh
            raise Illegal("BT-5.2", f"{attacker} came into play this turn and cannot attack yet")
        if on.attacked_in == state.turn:
            raise Illegal("BT-5.2", f"{attacker} has already attacked this turn")
        card = state.cards[attacker]
        if "defender" in card.keywords:
            raise Illegal("BT-5.3", f"{card.name} has defender and cannot attack")
        target_id = record.target
        owner = state.owner.get(target_id)
        if owner is None or owner == state.active or target_id not in state.sides[owner].field:
            raise Illegal("BT-5.1", f"{target_id} is not in play under another player's control")
        target = state.cards[target_id]
        if not is_creature(state, target_id, state.sides[owner].field[target_id]):
            raise Illegal("BT-5.1", f"{record.target} is not a creature; only creatures can be attacked")
        if target.protected_from(card):
            raise Illegal("BT-5.4", f"{target.name} has protection from {card.name}'s colour and cannot be its target")
        on.attacked_in = state.turn
        state.attack = (attacker, target_id)
        state.defender = owner
        state.phase = "block"

    def _block(self, state: State, record: bt.Block) -> None:
        """BT-6: the defender blocks with another creature, or not; then the fight (BT-7)."""
        if state.phase != "block":
            raise Illegal("BT-2.1", f"no attack is waiting for a block ({self._moment(state)})")
        if record.by != state.defender:
            _by(record, state.defender, f"only the defending player, {state.defender}, answers the attack")
        assert state.attack is not None
        attacker, target = state.attack
        blocker = record.blocker
        if blocker is not None:
            field = state.sides[state.defender].field
            if blocker not in field or not is_creature(state, blocker, field[blocker]):
                raise Illegal("BT-6.1", f"{blocker} is not a creature in play under {state.defender}'s control")
            if blocker == target:
                raise Illegal("BT-6.1", f"{blocker} is the attacked creature; a block needs a different creature")
            options.check_blockable(state, attacker, blocker)
        state.attack = None
        flow.fight(state, attacker, blocker or target)

    def _regenerate(self, state: State, record: bt.Regenerate) -> None:
        """BT-9: discard a card from hand to keep a regenerating creature in play, or let it go."""
        if state.phase != "regen":
            raise Illegal("BT-2.1", f"no creature is waiting to regenerate ({self._moment(state)})")
        creature = state.doomed[0]
        owner = state.owner[creature]
        if record.by != owner:
            _by(record, owner, f"only {creature}'s controller, {owner}, may regenerate it")
        if record.creature != creature:
            raise Illegal("BT-9.1", f"{creature} is the creature waiting to regenerate, not {record.creature}")
        side = state.sides[owner]
        if record.discard is None:
            to_discard(state, creature)
        else:
            _in_hand(state, owner, record.discard, "BT-9.1")
            side.hand.discard(record.discard)
            side.discard.add(record.discard)
            side.field[creature].damage = 0
        state.doomed.pop(0)
        flow.next_doomed(state)

    def _effect(self, state: State, record: bt.Effect) -> None:
        """BT-10: other card text, accepted unchecked; its consequences are checked and done."""
        if state.phase not in ("main", "block"):
            raise Illegal("BT-10.1", f"card text is used in the main phase or before a block ({self._moment(state)})")
        actor = self.to_act(state)[0]
        if record.by != actor:
            _by(record, actor, f"only {actor}, who is to act, may use card text now")
        if state.owner.get(record.source) != actor:
            raise Illegal("BT-10.1", f"{record.source} is not one of {actor}'s cards")
        source = state.cards[record.source]
        hand = state.sides[actor].hand
        if len(set(record.discard)) != len(record.discard) or not set(record.discard) <= hand:
            raise Illegal("BT-10.2", f"the cards to discard must be different cards in {actor}'s hand")
        named = [*record.targets, *record.tokens, *record.boost, *record.damage, *record.destroy]
        in_play = {}  # what lies on each named card: a card is only ever in play under its owner
        for card in named:
            owner = state.owner.get(card)
            on = state.sides[owner].field.get(card) if owner is not None else None
            if on is None:
                raise Illegal("BT-10.2", f"{card} is not in play")
            in_play[card] = on
        for card in record.tokens:
            if in_play[card].face_down:
                raise Illegal("BT-4.3", f"{card} is a material; its level cannot change")
        for card in record.boost:
            if not is_creature(state, card, in_play[card]):
                raise Illegal("BT-8.2", f"{card} is not a creature; only creatures take a stamina bonus")
        for card in named:
            if state.cards[card].protected_from(source):
                raise Illegal("BT-10.3", f"{card} has protection from {source.name}'s colour: nothing from it reaches {card}")
        for card in record.discard:
            hand.discard(card)
            state.sides[actor].discard.add(card)
        for card, count in record.tokens.items():
            in_play[card].tokens += count
            state.sides[state.owner[card]].levels += count  # a material takes no tokens (above)
        if record.tokens:
            state.reached = True  # a total may have grown to the threshold
        for card, bonus in record.boost.items():
            in_play[card].boost += bonus
        for card, amount in record.damage.items():
            in_play[card].damage += amount
        for card in [*record.boost, *record.damage]:
            state.marked[card] = in_play[card]
        state.effects += 1
        flow.settle(state, [*record.destroy, *overdamaged(state, record.damage)], resume=state.phase)

    def _end_turn(self, state: State, record: bt.EndTurn) -> None:
        """BT-11.2: bonuses end, damage is checked again, the threshold is checked, then the next turn begins (flow.py)."""
        if state.phase != "main" or record.by != state.active:
            self._main(state, record, "end the turn")
        if state.marked or state.reached:
            flow.end_turn(state)
        else:  # most turns: no card has a bonus or damage, no total can be at the threshold
            flow.next_turn(state)

    def _concede(self, state: State, record: Concede) -> None:
        """BT-12.1: a player may concede at any time and leaves the game."""
        if record.by not in state.in_game():
            raise Illegal("BT-12.1", "only a player still in the game may concede")
        flow.leave(state, record.by, "concede")

    def _time(self, state: State, record: Time) -> None:
        """BT-12.2: the judge calls time; the game is a draw among the players still in."""
        _by(record, JUDGE, "only the judge calls time")
        flow.finish(state, "time")

    def _game_loss(self, state: State, record: GameLoss) -> None:
        """BT-12.1: the judge gives a player a game loss; that player leaves the game."""
        _by(record, JUDGE, "only the judge gives a game loss")
        if record.player not in state.in_game():
            raise Illegal("BT-12.1", f"{record.player!r} is not a player still in this game")
        flow.leave(state, record.player, "game_loss")

    # -- helpers -----------------------------------------------------------------

    def _main(self, state: State, record: Record, doing: str) -> None:
        """Raise unless `record` is the active player's, in their main phase (BT-2.1)."""
        if state.phase != "main":
            raise Illegal("BT-2.1", f"cannot {doing} now ({self._moment(state)})")
        _by(record, state.active, f"only the active player, {state.active}, may {doing}")

    def _moment(self, state: State) -> str:
        """Who is to act, in words, for messages."""
        waiting = {"draw": "a draw", "block": "a block", "regen": "a regeneration", "main": "the main phase"}
        return f"it is {state.active}'s turn, waiting for {waiting.get(state.phase, state.phase)} by {self.to_act(state)[0]}"

    def _describe_card(self, state: State, card_id: str, on: InPlay) -> dict[str, Any]:
        """One card in play as plain data."""
        if on.face_down:
            return {"card": card_id, "material": True, "level": 1, "damage": on.damage}
        card = state.cards[card_id]
        data: dict[str, Any] = {"card": card_id, "name": card.name, "level": card.level + on.tokens, "tokens": on.tokens}
        if card.creature:
            data |= {"power": power(card, on), "stamina": stamina(card, on), "boost": on.boost, "fresh": fresh(state, on), "attacked": attacked(state, on)}
        return data | {"damage": on.damage}


def deck_fault(players: list[str], setup: bt.Setup) -> NoReturn:
    """BT-1.4: raise for the first card, in deck order, whose name is undeclared or whose id was seen before."""
    taken: set[str] = set()
    for player in players:
        for problem in decks.problems(setup.cards, setup.decks[player], f"{player}'s", taken):
            raise problem
    raise AssertionError("deck_fault is called only for a setup with such a card")


_by = functools.partial(require_actor, rule="BT-2.1")  # who may make a record (BT-2.1)


# BT-3.4: a draw may leave out its card; no rule reads a card in hand before it is played or discarded.
UNKNOWN = unseen.UnknownCards(
    zones=lambda state, player: (state.sides[player].deck, state.sides[player].hand),
    taken={
        bt.Material: unseen.by_card,
        bt.Summon: unseen.by_card,
        bt.Regenerate: lambda _, r: ((r.by, r.discard),) if r.discard is not None else (),
        bt.Effect: lambda _, r: [(r.by, card) for card in r.discard],
    },
    draw=bt.Draw,
    read_at_once=lambda state, player, card: None,
    rule="BT-3.4",
)


def _in_hand(state: State, player: str, card: str, rule: str = "BT-4.1") -> None:
    """Raise unless `card` is in `player`'s hand."""
    if card not in state.sides[player].hand:
        raise Illegal(rule, f"{card} is not in {player}'s hand")
