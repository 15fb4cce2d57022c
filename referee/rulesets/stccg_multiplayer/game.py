"""Star Trek CCG multiplayer, as RULES.md beside this file numbers it (SG-...).

The game runs through phases: `missions` (SG-3), `dilemmas` (SG-4),
`opening` (the opening hands, SG-5.1), then turns of a `main` and an `end`
step (SG-5.2), until `over` (SG-8). The state holds only what a rule reads;
what Star Trek cards do beyond the seed text is not modelled, only counted
(`unchecked`, SG-9). Here: the interface and the records of SG-3 to SG-5 and
SG-8. Beside it: the state (state.py), the grid (grid.py), the checks every
record shares (checks.py), what follows by itself (flow.py), movement (SG-6,
movement.py), the named cards (SG-7, named.py), the legal records
(options.py) and the bot (bot.py).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

import msgspec

from referee import unseen
from referee.ruleset import (
    CHANCE,
    JUDGE,
    Illegal,
    RecordFields,
    Ruleset,
    Seat,
    from_first,
    in_one_order,
)
from referee.rulesets.stccg_multiplayer import (
    bot,
    checks,
    decks,
    flow,
    movement,
    named,
    options,
    seats,
)
from referee.rulesets.stccg_multiplayer.cards import (
    ALIEN_PROBE,
    BORG_OUTPOST,
    DIAL_MARTOK,
    GATEWAY,
    NAMED,
    ONE_TARGET,
    PLASMA_FIRE,
    Q,
)
from referee.rulesets.stccg_multiplayer.grid import Grid, Loc
from referee.rulesets.stccg_multiplayer.state import Player, Ship, State, counted
from schemas import stccg_multiplayer as sg
from schemas.log import Concede, GameLoss, Header, Record, Time
from schemas.verdict import Result

BOT_TURN_LIMIT = 40


class StccgMultiplayer(Ruleset):
    """The stccg-multiplayer ruleset."""

    id = "stccg-multiplayer"
    title = "Star Trek CCG multiplayer: the spacegrid and its card rulings"
    setup_type = sg.Setup
    records = sg.RECORDS
    min_players = 2
    max_players = 6
    # SG-1.7, SG-4.7, SG-7.11: the same game
    unordered: ClassVar[RecordFields] = {sg.Relocate: ("ships",), sg.Play: ("players", "personnel"), sg.SeedDilemmas: ("cards",)}
    unread: ClassVar[RecordFields] = {sg.Action: ("text",)}

    def identity(self, players: list[str], setup: sg.Setup) -> tuple[list[str], Any]:
        """SG-1.7: seats clockwise from the first player; each deck's missions, seed cards and draw deck in one order."""
        decks = {
            player: {pile: in_one_order(cards) for pile, cards in msgspec.to_builtins(deck).items()}
            for player, deck in setup.decks.items()
        }
        return from_first(players, setup.first), {"first": setup.first, "decks": decks}

    def __init__(self) -> None:
        handlers: dict[type, Callable[[State, Any], None]] = {
            sg.SeedMission: self._seed_mission,
            sg.SeedDilemmas: self._seed_dilemmas,
            sg.SeedCard: self._seed_card,
            sg.Insert: movement.insert,
            sg.Pass: self._pass,
            sg.Draw: self._draw,
            sg.ReportShip: self._report_ship,
            sg.Play: self._play,
            sg.Action: self._action,
            sg.Move: movement.move,
            sg.Relocate: movement.relocate,
            sg.QSwap: movement.q_swap,
            sg.Encounter: named.encounter,
            sg.BorgShipMove: named.borg_ship_move,
            sg.MercenariesAttack: named.mercenaries_attack,
            sg.PlasmaFireDamage: named.plasma_fire_damage,
            sg.Destroy: self._destroy,
            sg.EndTurn: self._end_turn,
            sg.Final: self._final,
            Concede: self._concede,
            Time: self._time,
            GameLoss: self._game_loss,
        }
        self._handlers = handlers

    # -- the interface ---------------------------------------------------------

    def default_setup(self, players: list[str], rng: random.Random) -> sg.Setup:
        """Invented decks (bot.py) and a random first player."""
        return bot.setup(players, rng)

    def deck_rules(self) -> decks.StccgDecks:
        """SG-1.2 to SG-1.5, the checks `start` makes of each deck (decks.py)."""
        return decks.RULES

    def start(self, header: Header, setup: sg.Setup) -> State:
        """Check seats and decks (SG-1) and place the Nebula (SG-2.3)."""
        players = list(header.players)
        if not self.min_players <= len(players) <= self.max_players:
            raise Illegal("SG-1.1", f"the game is for 2 to 6 players; the header lists {len(players)}")
        if setup.first not in players:
            raise Illegal("SG-1.1", f"the first player {setup.first!r} is not one of the players")
        if set(setup.decks) != set(players):
            raise Illegal("SG-1.2", "the setup must give a deck to exactly the players")
        names: set[str] = set()
        seats: dict[str, Player] = {}
        for player in players:
            deck = setup.decks[player]
            for problem in decks.problems(deck, f"{player}'s", names):  # the first problem, if any
                raise problem
            missions = {mission.name: mission for mission in deck.missions}
            names.update(missions)
            seats[player] = Player(missions, counted(deck.seeds), counted(deck.draw), {})
        state = State(players, setup.first, {p: seats[p] for p in setup.decks})
        state.handlers.update(self._handlers)
        return state

    def to_act(self, state: State) -> tuple[str, ...]:
        """Chance for the opening hands; in the end step the active player and chance; else the active player."""
        if state.phase == "over":
            return ()
        if state.phase == "opening":
            return (CHANCE,)
        if state.phase == "end" and state.seats[state.active].draw:
            return (state.active, CHANCE)
        return (state.active,)

    def legal(self, state: State) -> Iterator[Record]:
        """The legal records here (options.py). Free fields (text, span, several cards at once) get one sample value."""
        return options.legal(state)

    def sample(self, state: State, rng: random.Random) -> Record:
        """A bot's record: mostly the game's own legal moves, and the judge's `final` late in a game."""
        return bot.sample(state, rng)

    def apply(self, state: State, record: Record) -> None:
        """Check `record` against the rules, then perform it: the handler the state's table gives, then count it.

        The count stands in for the seq of a record that has none yet (a bot's), which
        names what an encounter brings in (named.py). The engine's records always carry
        their seq, so the engine may call the table itself (`handlers`).
        """
        state.handlers[type(record)](state, record)
        state.applied += 1

    def handlers(self, state: State) -> Mapping[type[Record], Callable[[State, Any], None]]:
        """What `apply` looks up: record type -> handler. A player going out, or the game ending, changes
        the table in place to handlers that first refuse their records (SG-8.7, flow.py)."""
        return state.handlers

    def result(self, state: State) -> Result | None:
        """The Result once the game is over (SG-8); the score is each player's points from `final`."""
        return state.outcome

    def unchecked(self, state: State) -> int:
        """How many records were accepted without checking what they do (SG-9)."""
        return state.unchecked

    def unname(self, state: State, record: Record) -> Record:
        """SG-5.9: every draw may be recorded without its card."""
        return msgspec.structs.replace(record, card=None) if type(record) is sg.Draw else record

    def describe(self, state: State) -> dict[str, Any]:
        """The grid, every player's cards, the phase and the tracked card effects."""
        return {
            "phase": state.phase,
            "active": state.active,
            "turn": state.turn,
            "grid": {
                slot: None
                if loc is None
                else {
                    "name": loc.name,
                    "quadrant": loc.quadrant,
                    "span": loc.span,
                    "kind": loc.kind,
                    "region": loc.region,
                    "owner": loc.owner,
                    "seeded_under": len(loc.dilemmas),
                }
                for slot, loc in state.grid.slots.items()
            },
            "players": {
                p: {
                    "out": s.out,
                    "missions_to_seed": sorted(s.missions),
                    "seed_deck": len(s.seeds),
                    "draw_deck": unseen.to_draw(state, p, s.draw),
                    "hand": sorted(Counter(s.hand).elements()),
                    **unseen.described(state, p),
                    "played": sorted(Counter(s.played).elements()),
                    "q_swaps": s.qs,
                }
                for p, s in state.seats.items()
            },
            "ships": {name: {"owner": s.owner, "at": s.slot} for name, s in state.ships.items()},
            "borg_ships": {name: t.slot for name, t in state.borgs.items()},
            "mercenaries": {name: {"owner": g.owner, "affects": g.affected} for name, g in state.groups.items()},
            "plasma_fire": sorted(state.fires),
            "gateways": list(state.gateways),
            "borg_outposts": list(state.outposts),
            "unchecked": state.unchecked,
        }

    def view(self, state: State) -> dict[str, Any]:
        """What view.html.j2 draws: the described state and the spacegrid's drawing."""
        return self.describe(state) | {"spacegrid": state.grid.drawing(state.ships_at())}

    def hidden(self, state: State) -> dict[str, set[str]]:
        """SG-11: each player's hand, decks, missions to seed and the dilemmas they seeded."""
        return seats.hidden(state)

    def seat_view(self, state: State, seat: Seat) -> dict[str, Any]:
        """SG-11: the judge's view (with the dilemmas under each location) as `seat` may see it."""
        return unseen.veiled(seats.seat_view(state, self.view(state), seat), seat, "hand", "draw_cards")

    def record_view(self, record: Record, seat: Seat, state: State) -> dict[str, Any]:
        """SG-11: a draw's card and seeded dilemmas stay with their player."""
        return seats.record_view(super().record_view(record, seat, state), record, seat)

    def seat_legal(self, state: State, seat: str) -> Iterator[Record]:
        """SG-11.3: no encounter offered names a dilemma another player seeded."""
        return seats.seat_legal(super().seat_legal(state, seat), state, seat)

    def chance_options(self, state: State, record: Record) -> list[Record]:
        """A draw's options, one for each card of the draw deck (extra draws included, which `legal` does not list)."""
        return seats.chance_options(state, record)

    def render(self, state: State) -> str:
        """The phase, each player's counts, and the grid."""
        lines = [f"{state.phase} phase, turn {state.turn}: {state.active} to act"]
        for p, s in state.seats.items():
            status = "out" if s.out else (
                f"hand {sum(s.hand.values()) + unseen.unknown(state, p)}, "
                f"draw deck {unseen.to_draw(state, p, s.draw)}, seed deck {sum(s.seeds.values())}"
            )
            lines.append(f"  {p}: {status}")
        return "\n".join([*lines, self.grid_text(state)])

    def turn_limit(self, state: State) -> bool:
        """Bot games end by time after BOT_TURN_LIMIT turns."""
        return state.turn > BOT_TURN_LIMIT

    def grid_text(self, state: State) -> str:
        """The spacegrid as text: centre, spokes outwards, ring clockwise, with ships."""
        return state.grid.text(state.ships_at())

    def grid_svg(self, state: State) -> str:
        """The spacegrid as a self-contained SVG document."""
        return state.grid.svg(state.ships_at())

    # -- SG-3: seeding missions -----------------------------------------------

    def _seed_mission(self, state: State, record: sg.SeedMission) -> None:
        """SG-3: a player seeds one mission on an appropriate place, shifting outward if they must."""
        checks.in_phase(state, record, "missions", "seed a mission", "SG-3.1")
        me, grid = state.seats[record.by], state.grid
        mission = me.missions.get(record.mission)
        if mission is None:
            raise Illegal("SG-3.1", f"{record.mission!r} is not one of {record.by}'s missions still to seed")
        checks.on_grid(grid, record.place, "SG-2.1")
        quadrant, region = mission.quadrant, mission.region
        if record.shift is None:
            if grid.slots[record.place] is not None:
                raise Illegal("SG-3.5", f"{record.place} is taken; to seed there, shift missions outward with `shift`")
            # a place that fits is legal; only one that does not asks what else there is (SG-3.10)
            if not grid.fits(record.place, quadrant, region):
                empty = grid.empty_fit_exists(quadrant, region)
                if empty or grid.shift_exists(quadrant, region):
                    raise Illegal(*self._misfit(grid, record.place, mission, empty))
        else:
            refusal = grid.shift_refusal(record.shift, record.place, mission.name, quadrant, region)
            if refusal is not None:
                raise Illegal(*refusal)
            grid.shift(record.shift)
        grid.slots[record.place] = Loc(mission.name, quadrant, mission.span, mission.kind, region, record.by)
        del me.missions[mission.name]
        nxt = flow.next_player(state, state.active, seeding=True)
        if nxt is None:
            flow.begin_dilemmas(state)
        else:
            state.active = nxt

    def _misfit(self, grid: Grid, place: str, mission: sg.Mission, empty_exists: bool) -> tuple[str, str]:
        """Which of SG-3.2 / SG-3.4 / SG-3.5 a place breaks, and why."""
        if not empty_exists:
            return ("SG-3.5", f"no empty place fits {mission.name}: shift missions outward to make room")
        if not grid.fits(place, mission.quadrant, None):
            return ("SG-3.2", f"{place} is not next to a {mission.quadrant} Quadrant mission")
        return ("SG-3.4", f"{place} is not next to a mission of the {mission.region} region")

    # -- SG-4: the dilemma phase ----------------------------------------------

    def _seed_dilemmas(self, state: State, record: sg.SeedDilemmas) -> None:
        """SG-4.1: any number of seed cards under one mission, as the player's turn."""
        checks.in_phase(state, record, "dilemmas", "seed under a mission", "SG-4.1")
        loc = checks.location(state.grid, record.place, "SG-4.1")
        if not loc.mission:
            raise Illegal("SG-4.1", f"{record.place} holds {loc.name}, which is not a mission")
        if not record.cards:
            raise Illegal("SG-4.1", "seed at least one card, or pass")
        checks.take(state.seats[record.by].seeds, record.cards, "seed deck", "SG-4.3")
        loc.dilemmas += [(card, record.by) for card in record.cards]
        state.unchecked += 1
        flow.next_seeder(state, passed=False)

    def _seed_card(self, state: State, record: sg.SeedCard) -> None:
        """SG-4.4 to SG-4.6: one other seed card as the player's turn."""
        checks.in_phase(state, record, "dilemmas", "seed a card", "SG-4.1")
        card, place, grid = record.card, record.place, state.grid
        if card == BORG_OUTPOST:
            if place is not None:
                raise Illegal("SG-4.4", "a Borg Outpost seeds off the spaceline: give no place")
            if not grid.quadrant_present("Delta"):
                raise Illegal("SG-4.4", "a Borg Outpost seeds in the Delta Quadrant, which has no mission on the grid")
        elif card == GATEWAY:
            if place not in [spoke[-1] for spoke in grid.spokes]:
                raise Illegal("SG-4.5", f"a Transwarp Network Gateway goes at the outer end of a spoke (Si.3), not {place}")
        elif place is not None:
            checks.location(grid, place, "SG-4.6")
        checks.take_one(state.seats[record.by].seeds, card, "seed deck", "SG-4.3")
        if card == BORG_OUTPOST:
            state.outposts.append(record.by)
        elif card == GATEWAY:
            assert place is not None
            state.gateways.append(place)
        else:
            state.unchecked += 1
        flow.next_seeder(state, passed=False)

    def _pass(self, state: State, record: sg.Pass) -> None:
        """SG-4.1/4.2: the player seeds nothing; everyone passing in a row ends the phase."""
        checks.in_phase(state, record, "dilemmas", "pass", "SG-4.1")
        flow.next_seeder(state, passed=True)

    # -- SG-5: opening hands and turns ----------------------------------------

    def _draw(self, state: State, record: sg.Draw) -> None:
        """SG-5.1 to SG-5.3: chance names a card from the player's draw deck."""
        if record.by != CHANCE:
            raise Illegal("SG-5.3", "only chance draws cards")
        seat, phase = state.seats.get(record.player), state.phase
        if seat is None or seat.out:
            raise Illegal("SG-5.3", f"{record.player!r} is not a player still in the game")
        if record.extra:
            if phase not in ("main", "end"):
                raise Illegal("SG-5.3", "an extra draw comes only after the opening hands")
        elif phase == "opening":
            if record.player != state.opening[0]:
                raise Illegal("SG-5.1", f"the next opening draw is {state.opening[0]}'s")
        elif phase != "end" or record.player != state.active:
            raise Illegal("SG-5.2", f"no draw is due: it is {state.active}'s {phase} phase")
        card, hand = record.card, seat.hand
        if card is None:
            unseen.draw(state, UNKNOWN, record.player, state.handlers)  # SG-5.9: an unknown card
        else:
            checks.take_one(seat.draw, card, "draw deck", "SG-5.3")
            hand[card] = hand.get(card, 0) + 1
        if record.extra:
            state.unchecked += 1
        elif phase == "opening":
            state.opening.pop(0)
            if not state.opening:
                flow.begin_turn(state, flow.from_first(state))
        else:
            flow.pass_turn(state)

    def _end_turn(self, state: State, record: sg.EndTurn) -> None:
        """SG-5.2: the main step ends; with an empty draw deck a second end_turn passes the turn."""
        if state.phase not in ("main", "end"):
            raise Illegal("SG-5.8", f"no turn is under way: it is the {state.phase} phase")
        checks.by(record, state.active, "end the turn")
        if state.phase == "main":
            state.phase = "end"
        elif state.seats[state.active].draw:
            raise Illegal("SG-5.2", "the end-of-turn draw ends the turn while the draw deck holds cards")
        else:
            flow.pass_turn(state)

    def _report_ship(self, state: State, record: sg.ReportShip) -> None:
        """SG-5.6: a ship from hand enters play at a location."""
        checks.in_phase(state, record, "main", "report a ship")
        checks.location(state.grid, record.place, "SG-5.6")
        if record.card in NAMED:
            raise Illegal("SG-5.6", f"{record.card} is not a ship, so it cannot be reported")
        if record.card in state.ships:
            raise Illegal("SG-5.6", f"a ship named {record.card!r} is already in play")
        checks.take_one(state.seats[record.by].hand, record.card, "hand", "SG-5.5")
        state.ships[record.card] = Ship(record.by, record.place)
        state.unchecked += 1  # SG-9: whether an unnamed card is a ship is taken on trust

    def _play(self, state: State, record: sg.Play) -> None:
        """SG-5.5 and SG-7: a card is played; the named cards' targets are checked."""
        checks.any_time(state, record, "play a card")
        card, targets = record.card, record.players
        for player in targets or []:
            if player not in state.seats or state.seats[player].out:
                raise Illegal("SG-5.5", f"{player!r} is not a player still in the game")
        if record.ship is not None and record.ship not in state.ships:
            raise Illegal("SG-5.5", f"no ship named {record.ship!r} is in play")
        if card == ALIEN_PROBE and targets is not None and set(targets) != set(state.still_in()):
            raise Illegal("SG-7.1", "Alien Probe affects every player; it cannot be aimed at some of them")
        if card in ONE_TARGET and (targets is None or len(targets) != 1):
            raise Illegal("SG-7.8", f"{card} targets exactly one player, chosen as it is played")
        if card == DIAL_MARTOK:
            people = record.personnel or []
            if len(people) != 2:
                raise Illegal("SG-7.3", "Dial Martok for Murder targets exactly two personnel")
            if people[0].owner != people[1].owner or people[0].owner not in state.seats:
                raise Illegal("SG-7.3", "Dial Martok for Murder targets two personnel of one player")
        if card == PLASMA_FIRE and record.ship is None:
            raise Illegal("SG-7.6", "Plasma Fire is put on a ship: name it")
        if record.source == "hand":
            checks.take_one(state.seats[record.by].hand, card, "hand", "SG-5.5")
        played = state.seats[record.by].played
        played[card] = played.get(card, 0) + 1
        if card == PLASMA_FIRE:
            assert record.ship is not None
            state.fires.add(record.ship)
        state.unchecked += 1

    def _action(self, state: State, record: sg.Action) -> None:
        """SG-5.7: any other Star Trek play, accepted unchecked."""
        checks.any_time(state, record, "act")
        state.unchecked += 1

    def _destroy(self, state: State, record: sg.Destroy) -> None:
        """SG-5.7: a ship leaves play."""
        checks.any_time(state, record, "destroy a ship")
        if record.ship not in state.ships:
            raise Illegal("SG-5.7", f"no ship named {record.ship!r} is in play")
        del state.ships[record.ship]
        state.fires.discard(record.ship)
        state.unchecked += 1

    # -- SG-8: the end of the game -----------------------------------------------

    def _concede(self, state: State, record: Concede) -> None:
        """SG-8.1: a player may concede at any time and is out."""
        if record.by not in state.seats:
            raise Illegal("SG-8.1", "only a player may concede")
        flow.out(state, record.by, "concede")

    def _game_loss(self, state: State, record: GameLoss) -> None:
        """SG-8.2: the judge puts a player out."""
        checks.by(record, JUDGE, "give a game loss", "SG-8.2")
        if record.player not in state.seats or state.seats[record.player].out:
            raise Illegal("SG-8.2", f"{record.player!r} is not a player still in the game")
        flow.out(state, record.player, "game_loss")

    def _time(self, state: State, record: Time) -> None:
        """SG-8.5: time ends the game as a draw among the players still in."""
        checks.by(record, JUDGE, "call time", "SG-8.5")
        flow.finish(state, [state.still_in()], {}, "time", draw=True)

    def _final(self, state: State, record: sg.Final) -> None:
        """SG-8.4: the judge ends the game with the points of every player still in."""
        checks.by(record, JUDGE, "end the game with the scores", "SG-8.4")
        still_in, scores = state.still_in(), record.scores
        if set(scores) != set(still_in):
            raise Illegal("SG-8.4", f"the final scores must name exactly the players still in: {', '.join(still_in)}")
        levels = sorted(set(scores.values()), reverse=True)
        ranking = [[p for p in still_in if scores[p] == v] for v in levels]
        flow.finish(state, ranking, record.scores, "final")


def _from_hand_unless(state: State, record: Any, elsewhere: bool) -> tuple[tuple[str, str], ...]:
    return () if elsewhere else ((record.by, record.card),)


# SG-5.9: a draw may leave out its card; no rule reads a card in hand before it is played or used. What a
# record takes from the hand: a card played from there, a ship reported, a card inserted after the seed
# phase, a relocating card not already in play, a Q for a swap when no encountered Q is left.
UNKNOWN = unseen.UnknownCards(
    zones=lambda state, player: (state.seats[player].draw, state.seats[player].hand),
    taken={
        sg.Play: lambda state, r: _from_hand_unless(state, r, r.source != "hand"),
        sg.ReportShip: unseen.by_card,
        sg.Insert: lambda state, r: _from_hand_unless(state, r, state.phase == "dilemmas"),
        sg.Relocate: lambda state, r: _from_hand_unless(state, r, r.by not in state.seats or r.card in state.seats[r.by].played),
        sg.QSwap: lambda state, r: () if r.by not in state.seats or state.seats[r.by].qs else ((r.by, Q),),
    },
    draw=sg.Draw,
    read_at_once=lambda state, player, card: None,
    rule="SG-5.9",
)
