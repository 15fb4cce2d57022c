"""Crossover, as RULES.md beside this file numbers it.

The game is an opening, then rounds of play, combat and resolution. Only
choices and draws are records; pairings, deaths, discards and the moves from
one phase to the next are worked out in flow.py, right after the record that
makes them due. Every handler checks its record completely before it changes
anything. The state lives in state.py, deck checks in decks.py and the legal
records in options.py.
"""

from __future__ import annotations

import functools
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
    from_first,
    in_one_order,
    require_actor,
    veil_players,
)
from referee.rulesets.crossover import decks, flow, options
from referee.rulesets.crossover.state import HAND_SIZE, AttackInProgress, Side, State
from schemas import crossover as xo
from schemas.log import Concede, GameLoss, Header, Record, Time
from schemas.verdict import Result

OPENING_SEARCH_DRAWS = 4
BOT_ROUND_LIMIT = 25
HIDDEN_ZONES = ("hand", "deck")  # XO-10.1: what only a card's owner (and the judge) sees


class Crossover(TableRuleset):
    """The crossover ruleset."""

    id = "crossover"
    title = "Crossover: leaders, minions, equipment and events from any card game"
    setup_type = xo.Setup
    records = xo.RECORDS
    min_players = 2
    max_players = 6
    unordered: ClassVar[RecordFields] = {xo.Resolve: ("discard",), xo.Attack: ("targets",)}  # XO-1.7, XO-R4: the same game

    def identity(self, players: list[str], setup: xo.Setup) -> tuple[list[str], Any]:
        """XO-1.7: seats clockwise from the first player, each deck's cards and each card's traits in one order."""
        decks = {}
        for player, deck in setup.decks.items():
            cards = [{**msgspec.to_builtins(card), "traits": sorted(set(card.traits))} for card in deck.cards]
            decks[player] = {"game": deck.game, "cards": in_one_order(cards)}
        return from_first(players, setup.first), {"first": setup.first, "decks": decks}

    # -- the interface ---------------------------------------------------------

    def default_setup(self, players: list[str], rng: random.Random) -> xo.Setup:
        """Built-in decks, every translation in use where seats allow, and a random first player."""
        return xo.Setup(first=rng.choice(players), decks=decks.deal(players, rng))

    def deck_rules(self) -> decks.CrossoverDecks:
        """XO-1.2 to XO-1.6, the checks `start` makes of each deck (decks.py)."""
        return decks.RULES

    def start(self, header: Header, setup: xo.Setup) -> State:
        """Check seats and decks (XO-1) and begin the opening."""
        players = list(header.players)
        if not self.min_players <= len(players) <= self.max_players:
            raise Illegal("XO-1.1", f"crossover is for 2 to 6 players; the header lists {len(players)}")
        if setup.first not in players:
            raise Illegal("XO-1.1", f"the first player {setup.first!r} is not one of the players")
        if set(setup.decks) != set(players):
            raise Illegal("XO-1.1", "the setup must give a deck to each player, and to nobody else")
        sides = {p: decks.check(p, setup.decks[p]) for p in players}
        state = State(players, setup.first, sides)
        state.handlers = dict(HANDLERS)
        state.queue = state.seat_order()
        flow.next_opener(state)
        return state

    def to_act(self, state: State) -> tuple[str, ...]:
        """Chance while draws are owed; both skirmish players while both are asked; else the actor."""
        if state.phase == "over":
            return ()
        if state.owed:
            return (CHANCE,)
        if state.attack is not None:
            return tuple(state.asked())
        return (state.actor,)

    def legal(self, state: State) -> Iterator[Record]:
        """Every legal game record here, in the order the decks declare their cards (options.py)."""
        return options.legal(state)

    def sample(self, state: State, rng: random.Random) -> Record:
        """A legal record for a bot; plays outnumber passes, and resolution is drawn without listing."""
        if state.waiting == "resolve" and not state.owed:
            side = state.sides[state.actor]
            leader = rng.choice([None, *side.of_type(side.hand, "leader")])
            rest = side.order(side.hand - {leader})
            discard = side.order(rng.sample(rest, max(0, len(rest) - HAND_SIZE)))
            return xo.Resolve(by=state.actor, leader=leader, discard=discard)
        records = list(self.legal(state))
        plays = [r for r in records if isinstance(r, xo.Summon | xo.Equip | xo.PlayEvent)]
        if plays and rng.random() < 0.8:  # bots that mostly play make skirmishes happen
            return rng.choice(plays)
        return rng.choice(records)

    def result(self, state: State) -> Result | None:
        """The Result once the game is over; the score is skirmishes won (XO-9.5)."""
        return state.outcome

    def unname(self, state: State, record: Record) -> Record:
        """XO-3.5: a draw may be recorded without its card, but in the opening, or of a leader or an event."""
        if type(record) is not xo.Draw or state.phase == "opening" or record.card is None:
            return record
        if state.sides[record.player].cards[record.card].type in ("leader", "event"):
            return record
        return msgspec.structs.replace(record, card=None)

    def describe(self, state: State) -> dict[str, Any]:
        """Every side's zones and skirmishes won, the phase, and the skirmish in progress."""
        attack = state.attack
        return {
            "round": state.round,
            "phase": state.phase,
            "actor": state.actor,
            "waiting": state.waiting,
            "draws_owed": state.owed,
            "alive": list(state.alive),
            "players": {p: _describe_side(s, state.placements.get(p)) | unseen.described(state, p) for p, s in state.sides.items()},
            "play": {"plays": state.plays, "passes": state.passes, "stopped_by": sorted(state.stops)},
            "skirmishes": [list(pair) for pair in state.skirmishes],
            "skirmish": state.skirmish,
            "attack": None
            if attack is None
            else {
                "minion": attack.minion,
                "targets": list(attack.targets),
                "draw": attack.draw,
                "stopped": sorted(attack.stopped),
                "done": sorted(attack.done),
            },
        }

    def hidden(self, state: State) -> dict[str, set[str]]:
        """XO-10.1: each player's hand and deck."""
        return {p: side.hand | side.deck for p, side in state.sides.items()}

    def seat_view(self, state: State, seat: Seat) -> dict[str, Any]:
        """XO-10: the judge's view with the hands and decks of the other players veiled."""
        return unseen.veiled(veil_players(self.view(state), seat, HIDDEN_ZONES), seat, "hand", "deck")

    def render(self, state: State) -> str:
        """A few lines a player can read at the table."""
        lines = [f"round {state.round}, {state.phase} phase: {state.actor} ({state.waiting or '-'})"]
        if state.owed:
            lines[0] += f", {state.owed} card(s) to draw"
        for p, s in state.sides.items():
            status = "in" if p in state.alive else f"out (place {state.placements[p]})"
            minions = " ".join(m + "".join(f"+{e}" for e in s.minions[m].equipment) for m in s.order(s.minions)) or "-"
            lines.append(
                f"  {p} [{s.game}] {status}, wins {s.wins}: leader {s.leader or '-'} (plays {s.play_value}), "
                f"deck {unseen.to_draw(state, p, s.deck)}, hand {len(s.hand) + unseen.unknown(state, p)}, minions {minions}"
            )
        if state.attack is not None:
            a = state.attack
            lines.append(f"  attack: {a.minion} -> {', '.join(a.targets)}; asked: {', '.join(state.asked()) or '-'}")
        return "\n".join(lines)

    def turn_limit(self, state: State) -> bool:
        """Bot games end by time after BOT_ROUND_LIMIT rounds."""
        return state.round > BOT_ROUND_LIMIT


# -- records: chance and the opening (a handler per record type: HANDLERS, below) ---

def _draw(state: State, record: xo.Draw) -> None:
    """XO-3.2: chance draws a card the rules made due, from that player's deck."""
    if not state.owed:
        raise Illegal("XO-3.1", "no card is due to be drawn now")
    if record.by != CHANCE:  # inline: most records are draws
        _by(record, CHANCE, "a draw is a chance record")
    actor, card = state.actor, record.card
    side = state.sides[actor]
    if record.player != actor:
        raise Illegal("XO-3.2", f"the card due is {actor}'s to draw, not {record.player}'s")
    if card is None:
        if state.phase == "opening":
            raise Illegal("XO-4.2", f"an opening hand is shown (it must show a leader): the draw must name {actor}'s card")
        unseen.draw(state, UNKNOWN, actor, state.handlers)  # XO-3.5: an unknown card
    else:
        try:
            side.deck.remove(card)  # the last check, and the first change
        except KeyError:
            raise Illegal("XO-3.2", f"{card} is not in {actor}'s deck") from None
        side.hand.add(card)
    state.owed -= 1
    if not state.owed:
        flow.after_draws(state)


def _opening(state: State, record: xo.Opening) -> None:
    """XO-4.4: a single-leader deck searches for its leader or draws as usual."""
    side = _asked_for(state, record, "opening", "say whether they search for their leader")
    if record.search:
        (leader,) = side.of_type(side.deck, "leader")
        side.deck.discard(leader)
        side.lead(leader)
        flow.owe(state, OPENING_SEARCH_DRAWS, "searched")
    else:
        flow.owe(state, HAND_SIZE, "deal")


def _lead(state: State, record: xo.Lead) -> None:
    """XO-4.3: the opening player chooses which of several leaders to play."""
    side = _asked_for(state, record, "lead", "choose a leader")
    if record.card not in side.hand or side.cards[record.card].type != "leader":
        raise Illegal("XO-4.3", f"{record.card} is not a leader in {state.actor}'s hand")
    side.hand.discard(record.card)
    side.lead(record.card)
    flow.next_opener(state)


# -- records: the play phase --------------------------------------------------

def _summon(state: State, record: xo.Summon) -> None:
    """XO-5.2: a minion from hand comes into play."""
    side = _play(state, record, "minion")
    side.hand.discard(record.card)
    side.summon(record.card)
    flow.played(state)


def _equip(state: State, record: xo.Equip) -> None:
    """XO-5.2, XO-5.4: equipment from hand goes onto one of the player's minions."""
    side = _play(state, record, "equipment")
    if record.minion not in side.minions:
        raise Illegal("XO-5.4", f"{record.minion} is not a minion {state.actor} has in play")
    side.hand.discard(record.card)
    side.minions[record.minion].equipment.append(record.card)
    flow.played(state)


def _event(state: State, record: xo.PlayEvent) -> None:
    """XO-5.5, XO-5.6: an event; Draw draws up to two, Stop! ends the phase when the turn returns."""
    side = _play(state, record, "event")
    kind = side.cards[record.card].event
    if kind == "stop" and record.draw:
        raise Illegal("XO-5.5", f"{record.card} is a Stop! event: only a Draw event draws cards")
    left = unseen.to_draw(state, state.actor, side.deck)
    if record.draw > left:
        raise Illegal("XO-5.5", f"{state.actor}'s deck holds only {left} card(s); cannot draw {record.draw}")
    side.hand.discard(record.card)
    side.discard.add(record.card)
    if kind == "stop":
        state.stops.add(state.actor)
    state.owed = record.draw
    flow.played(state)


def _pass(state: State, record: xo.Pass) -> None:
    """XO-5.7: the turn ends, with a draw if the player wants one."""
    side = _asked_for(state, record, "turn", "pass")
    if state.plays:
        raise Illegal("XO-5.2", f"{state.actor} has made {state.plays} of {side.play_value} plays; a started turn cannot pass")
    if record.draw and not side.deck:
        raise Illegal("XO-5.7", f"{state.actor}'s deck is empty; there is nothing to draw")
    state.passes += 1
    state.turn_over = True
    state.owed = int(record.draw)
    if not state.owed:
        flow.after_draws(state)


# -- records: skirmishes ----------------------------------------------------

def _attack(state: State, record: xo.Attack) -> None:
    """XO-7.1, XO-7.2: one of the attacker's minions attacks as many defenders as it hits."""
    side = _asked_for(state, record, "attack", "attack")
    theirs = state.sides[state.defender]
    if record.minion not in side.minions:
        raise Illegal("XO-7.2", f"{record.minion} is not a minion {state.actor} has in play")
    for target in record.targets:
        if target not in theirs.minions:
            raise Illegal("XO-7.2", f"{target} is not a minion {state.defender} has in play")
    if len(set(record.targets)) != len(record.targets):
        raise Illegal("XO-7.2", "a target is named twice: each hit goes to a different minion")
    size = min(side.hits(record.minion), len(theirs.minions))
    if len(record.targets) != size:
        raise Illegal("XO-7.2", f"{record.minion} hits {size} minion(s) here, so it must name {size} target(s)")
    state.attack = AttackInProgress(record.minion, list(record.targets))
    flow.window(state)


def _respond(state: State, record: xo.Respond) -> None:
    """XO-7.6 to XO-7.8: a Draw from the attacker or a Stop! from the defender."""
    attack = _in_window(state, record, "respond")
    attacker, defender = state.actor, state.defender
    side = state.sides[record.by]
    if record.card not in side.hand or side.cards[record.card].type != "event":
        raise Illegal("XO-7.6", f"{record.card} is not an event in {record.by}'s hand")
    kind = side.cards[record.card].event
    if record.minion not in attack.targets:
        raise Illegal("XO-7.6", f"{record.minion} is not a target of this attack")
    if record.by == attacker:
        if kind != "draw":
            raise Illegal("XO-7.8", f"{record.card} is a Stop! event: the attacker may only answer with a Draw event")
        if attack.draw:
            raise Illegal("XO-7.6", "a Draw event has already been played on this attack")
        attack.targets = [record.minion]
        attack.draw = True
    else:
        if kind != "stop":
            raise Illegal("XO-7.7", f"{record.card} is a Draw event: the defender may only answer with a Stop! event")
        if record.minion in attack.stopped:
            raise Illegal("XO-7.7", f"{record.minion} is already saved by a Stop! event")
        attack.stopped.add(record.minion)
    side.hand.discard(record.card)
    side.discard.add(record.card)
    attack.done.discard(defender if record.by == attacker else attacker)
    flow.window(state)


def _done(state: State, record: xo.Done) -> None:
    """XO-7.6: the player plays nothing more on this attack."""
    attack = _in_window(state, record, "say done")
    attack.done.add(record.by)
    flow.window(state)


# -- records: resolution ----------------------------------------------------

def _resolve(state: State, record: xo.Resolve) -> None:
    """XO-8.2, XO-8.3: an optional new leader, and the discards down to five."""
    side = _asked_for(state, record, "resolve", "resolve their hand")
    hand = set(side.hand)
    if record.leader is not None:
        if record.leader not in hand or side.cards[record.leader].type != "leader":
            raise Illegal("XO-8.3", f"{record.leader} is not a leader in {state.actor}'s hand")
        hand.discard(record.leader)
    if len(set(record.discard)) != len(record.discard):
        raise Illegal("XO-8.3", "a discarded card is named twice")
    for card in record.discard:
        if card not in hand:
            raise Illegal("XO-8.3", f"{card} is not in {state.actor}'s hand to discard")
    over = max(0, len(hand) + unseen.unknown(state, state.actor) - HAND_SIZE)
    if len(record.discard) != over:
        raise Illegal("XO-8.3", f"{state.actor} must discard exactly {over} card(s) to keep {HAND_SIZE}, not {len(record.discard)}")
    if record.leader is not None:
        assert side.leader is not None
        side.discard.add(side.leader)
        side.lead(record.leader)
    side.hand = hand - set(record.discard)
    side.discard.update(record.discard)
    flow.refill(state)


# -- records: concede, time, game loss ----------------------------------------

def _concede(state: State, record: Concede) -> None:
    """XO-9.6: a player leaves the game at any time."""
    if record.by not in state.alive:
        raise Illegal("XO-9.6", f"{record.by} is already out of the game")
    flow.drop(state, record.by, "concede")


def _game_loss(state: State, record: GameLoss) -> None:
    """XO-9.7: the judge puts a player out, as if they conceded."""
    _by(record, JUDGE, "only the judge gives a game loss")
    if record.player not in state.alive:
        raise Illegal("XO-9.7", f"{record.player!r} is not a player still in this game")
    flow.drop(state, record.player, "game_loss")


def _time(state: State, record: Time) -> None:
    """XO-9.8: the judge calls time; the players still in are placed by skirmishes won."""
    _by(record, JUDGE, "only the judge calls time")
    flow.finish(state, "time")


# -- helpers -----------------------------------------------------------------

def _asked_for(state: State, record: Record, waiting: str, doing: str) -> Side:
    """The actor's side, once `record` is shown to be what the game waits for from them."""
    if state.owed or state.waiting != waiting or state.attack is not None:
        raise Illegal("XO-3.1", f"nobody may {doing} now: {_waiting_for(state)}")
    if record.by != state.actor:  # the message is only built for a record that breaks the rule
        _by(record, state.actor, f"it is {state.actor} who must act now")
    return state.sides[state.actor]


def _play(state: State, record: xo.Summon | xo.Equip | xo.PlayEvent, kind: str) -> Side:
    """XO-5.2 to XO-5.4: checks every play shares; the side of the player making it."""
    side = _asked_for(state, record, "turn", _PLAYING[kind])
    value = side.play_value
    if value == 0:
        raise Illegal("XO-5.2", f"{side.leader}'s play value is 0: {state.actor} can only pass")
    if state.plays == 0 and side.playable(unseen.unknown(state, state.actor)) < value:
        playable = side.playable(unseen.unknown(state, state.actor))
        raise Illegal("XO-5.3", f"{state.actor} can play only {playable} card(s) but needs {value} plays: they must pass")
    card = record.card
    if card not in side.hand:
        raise Illegal("XO-5.4", f"{card} is not in {state.actor}'s hand")
    if side.cards[card].type != kind:
        raise Illegal("XO-5.4", f"{card} is a {side.cards[card].type}, not a{'n' if kind[0] in 'aeiou' else ''} {kind}")
    return side


def _in_window(state: State, record: Record, doing: str) -> AttackInProgress:
    """The attack whose response window asks `record.by`."""
    if state.attack is None:
        raise Illegal("XO-7.6", f"there is no response window open to {doing} in: {_waiting_for(state)}")
    if record.by not in state.asked():
        raise Illegal("XO-7.6", f"the response window is not asking {record.by}; it waits for {', '.join(state.asked())}")
    return state.attack


HANDLERS: dict[type[Record], Callable[[State, Any], None]] = {
    xo.Draw: _draw,
    xo.Opening: _opening,
    xo.Lead: _lead,
    xo.Summon: _summon,
    xo.Equip: _equip,
    xo.PlayEvent: _event,
    xo.Pass: _pass,
    xo.Attack: _attack,
    xo.Respond: _respond,
    xo.Done: _done,
    xo.Resolve: _resolve,
    Concede: _concede,
    Time: _time,
    GameLoss: _game_loss,
}
def _read_at_once(state: State, player: str, card: str) -> str | None:
    """XO-3.5: the rules read a leader (XO-8.2) or an event (XO-7.6) in a hand as soon as it is there."""
    return "XO-3.5" if state.sides[player].cards[card].type in ("leader", "event") else None


# XO-3.5: a draw may leave out its card, but for the opening hands (XO-4.2) and a leader or an event, which
# the rules read in a hand at once: who is asked to resolve, who is asked in a response window.
UNKNOWN = unseen.UnknownCards(
    zones=lambda state, player: (state.sides[player].deck, state.sides[player].hand),
    taken={
        xo.Summon: unseen.by_card,
        xo.Equip: unseen.by_card,
        xo.PlayEvent: unseen.by_card,
        xo.Respond: unseen.by_card,
        xo.Lead: unseen.by_card,
        xo.Resolve: lambda _, r: [(r.by, c) for c in (*r.discard, *((r.leader,) if r.leader else ()))],
    },
    draw=xo.Draw,
    read_at_once=_read_at_once,
    rule="XO-3.5",
)
_by = functools.partial(require_actor, rule="XO-3.1")  # who may make a record (XO-3.1)
_PLAYING = {kind: f"play a{'n' if kind[0] in 'aeiou' else ''} {kind}" for kind in ("minion", "equipment", "event")}


def _waiting_for(state: State) -> str:
    """What the game waits for, in words, for error messages."""
    if state.owed:
        return f"chance owes {state.actor} {state.owed} draw(s)"
    if state.attack is not None:
        return f"the response window waits for {', '.join(state.asked())}"
    return f"{state.phase} phase, waiting for {state.actor} ({state.waiting})"


def _describe_side(side: Side, place: int | None) -> dict[str, Any]:
    """One side as plain data."""
    return {
        "game": side.game,
        "place": place,
        "wins": side.wins,
        "leader": side.leader,
        "play_value": side.play_value,
        "initiative": side.initiative,
        "hand": side.order(side.hand),
        "deck": side.order(side.deck),
        "minions": [
            {"card": m, "equipment": list(side.minions[m].equipment), "half_hits_taken": side.minions[m].damage}
            for m in side.order(side.minions)
        ],
        "discard": side.order(side.discard),
    }
