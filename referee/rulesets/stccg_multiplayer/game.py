"""Star Trek CCG multiplayer, as RULES.md beside this file numbers it (SG-...).

The game runs through phases: `missions` (SG-3), `dilemmas` (SG-4),
`opening` (the opening hands, SG-5.1), then turns of a `main` and an `end`
step (SG-5.2), until `over` (SG-8). The grid itself lives in grid.py. The
state holds only what a rule reads: decks are multisets of card names,
because the log names every card drawn; what Star Trek cards do beyond the
seed text is not modelled, only counted (`unchecked`, SG-9).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from referee.ruleset import CHANCE, JUDGE, Illegal, Ruleset
from referee.rulesets.stccg_multiplayer import bot
from referee.rulesets.stccg_multiplayer.cards import (
    ALIEN_PROBE,
    BORG_OUTPOST,
    BORG_SHIP,
    DIAL_MARTOK,
    GATEWAY,
    INSERTED,
    NAMED,
    ONE_TARGET,
    OPPOSITE_MOVERS,
    PLASMA_FIRE,
    ROGUE_BORG,
    THE_SPACE,
    Q,
)
from referee.rulesets.stccg_multiplayer.grid import CENTRE, Grid, Loc
from schemas import stccg_multiplayer as sg
from schemas.log import Concede, GameLoss, Header, Record, Time
from schemas.verdict import Result

MISSIONS, SEED_CARDS, DRAW_CARDS, OPENING_HAND = 6, 30, 30, 7
NEBULA = Loc("Nebula", "Alpha", 2, "space")  # SG-2.3
BOT_TURN_LIMIT = 40


@dataclass
class Player:
    """One player's cards: missions still to seed, seed deck, draw deck, hand, cards put into play; out or not."""

    missions: dict[str, sg.Mission]
    seeds: Counter[str]
    draw: Counter[str]
    hand: Counter[str]
    played: Counter[str] = field(default_factory=Counter)  # non-ship cards put into play by `play` (SG-6.6)
    qs: int = 0  # Q dilemmas encountered and not yet used for a swap (SG-6.5)
    out: bool = False


@dataclass
class Ship:
    """A ship in play: its owner and the slot it is at."""

    owner: str
    slot: str


@dataclass
class Tour:
    """A Borg Ship's tour (SG-7.2): where it is, where it joined the ring, whether it has moved on the ring."""

    slot: str
    ring_start: str | None
    lapped: bool = False


@dataclass
class Group:
    """Rogue Borg Mercenaries in play (SG-7.7): who seeded them and whom they affect."""

    owner: str
    affected: str


class State:
    """The whole game: grid, players, phase, whose turn it is, and the tracked card effects."""

    def __init__(self, players: list[str], first: str, decks: dict[str, sg.Deck]) -> None:
        self.players = players
        self.first = first
        self.seats = {
            p: Player({m.name: m for m in d.missions}, Counter(d.seeds), Counter(d.draw), Counter())
            for p, d in decks.items()
        }
        self.grid = Grid(len(players))
        self.grid.slots[CENTRE] = Loc(NEBULA.name, NEBULA.quadrant, NEBULA.span, NEBULA.kind)
        self.phase = "missions"
        self.active = first
        self.turn = 0
        self.passes = 0  # passes in a row in the dilemma phase
        self.opening: list[str] = []  # opening draws still due, in order
        self.ships: dict[str, Ship] = {}
        self.borgs: dict[str, Tour] = {}
        self.groups: dict[str, Group] = {}
        self.fires: set[str] = set()  # ships with Plasma Fire
        self.burnt: set[str] = set()  # ships Plasma Fire damaged this turn
        self.gateways: list[str] = []  # slots holding a Transwarp Network Gateway
        self.outposts: list[str] = []  # owners of Borg Outposts
        self.gone: list[str] = []  # players out, in the order they went
        self.applied = 0
        self.unchecked = 0
        self.outcome: Result | None = None

    def still_in(self) -> list[str]:
        """Players not out, in seat order."""
        return [p for p in self.players if not self.seats[p].out]

    def ships_at(self) -> dict[str, list[str]]:
        """Slot -> names of the ships there (Borg Ships included), for drawings."""
        at: dict[str, list[str]] = {}
        for name, ship in self.ships.items():
            at.setdefault(ship.slot, []).append(name)
        for name, tour in self.borgs.items():
            at.setdefault(tour.slot, []).append(name)
        return at


class StccgMultiplayer(Ruleset):
    """The stccg-multiplayer ruleset."""

    id = "stccg-multiplayer"
    title = "Star Trek CCG multiplayer: the spacegrid and its card rulings"
    setup_type = sg.Setup
    records = sg.RECORDS
    min_players = 2
    max_players = 6

    def __init__(self) -> None:
        handlers: dict[type, Callable[[State, Any], None]] = {
            sg.SeedMission: self._seed_mission,
            sg.SeedDilemmas: self._seed_dilemmas,
            sg.SeedCard: self._seed_card,
            sg.Insert: self._insert,
            sg.Pass: self._pass,
            sg.Draw: self._draw,
            sg.ReportShip: self._report_ship,
            sg.Play: self._play,
            sg.Action: self._action,
            sg.Move: self._move,
            sg.Relocate: self._relocate,
            sg.QSwap: self._q_swap,
            sg.Encounter: self._encounter,
            sg.BorgShipMove: self._borg_ship_move,
            sg.MercenariesAttack: self._mercenaries_attack,
            sg.PlasmaFireDamage: self._plasma_fire_damage,
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
        for player in players:
            deck = setup.decks[player]
            if len(deck.missions) != MISSIONS or len(deck.missions) + len(deck.seeds) != SEED_CARDS:
                raise Illegal("SG-1.2", f"{player}'s seed deck must be 30 cards, six of them missions")
            if len(deck.draw) != DRAW_CARDS:
                raise Illegal("SG-1.2", f"{player}'s draw deck must be 30 cards, not {len(deck.draw)}")
            if THE_SPACE in deck.seeds or THE_SPACE in deck.draw:
                raise Illegal("SG-1.5", f"{player}'s deck holds The Space, which this format bans")
            for mission in deck.missions:
                if mission.name == THE_SPACE:
                    raise Illegal("SG-1.5", f"{player}'s deck holds The Space, which this format bans")
                if mission.name in names or mission.name == NEBULA.name:
                    raise Illegal("SG-1.4", f"the mission {mission.name!r} appears twice (or is the Nebula)")
                names.add(mission.name)
        return State(players, setup.first, setup.decks)

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
        """The legal records here. Free fields (text, span, several cards at once) get one sample value."""
        if state.phase == "over":
            return
        active = state.active
        me = state.seats[active]
        grid = state.grid
        if state.phase == "missions":
            for name, mission in me.missions.items():
                for place, shift in self.mission_spots(grid, mission):
                    yield sg.SeedMission(by=active, mission=name, place=place, shift=shift)
        elif state.phase == "dilemmas":
            yield sg.Pass(by=active)
            for card in sorted(me.seeds):
                for slot, loc in grid.locations():
                    if loc.mission:
                        yield sg.SeedDilemmas(by=active, place=slot, cards=[card])
                yield from (sg.SeedCard(by=active, card=card, place=p) for p in self._seed_places(state, card))
                yield from self.inserts(state, active, card)
        elif state.phase == "opening":
            drawer = state.opening[0]
            for card in sorted(state.seats[drawer].draw):
                yield sg.Draw(by=CHANCE, player=drawer, card=card)
        else:
            yield from self._turn_records(state)

    def sample(self, state: State, rng: random.Random) -> Record:
        """A bot's record: mostly the game's own legal moves, and the judge's `final` late in a game."""
        return bot.sample(self, state, rng)

    def apply(self, state: State, record: Record) -> None:
        """Check `record` against the rules, then perform it."""
        if state.phase == "over":
            raise Illegal("SG-8.7", "the game is over; no record may follow")
        if record.by in state.seats and state.seats[record.by].out:
            raise Illegal("SG-8.7", f"{record.by} is out of the game and makes no more records")
        self._handlers[type(record)](state, record)
        state.applied += 1

    def result(self, state: State) -> Result | None:
        """The Result once the game is over (SG-8); the score is each player's points from `final`."""
        return state.outcome

    def unchecked(self, state: State) -> int:
        """How many records were accepted without checking what they do (SG-9)."""
        return state.unchecked

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
                    "draw_deck": sum(s.draw.values()),
                    "hand": sorted(s.hand.elements()),
                    "played": sorted(s.played.elements()),
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

    def render(self, state: State) -> str:
        """The phase, each player's counts, and the grid."""
        lines = [f"{state.phase} phase, turn {state.turn}: {state.active} to act"]
        for p, s in state.seats.items():
            status = "out" if s.out else f"hand {sum(s.hand.values())}, draw deck {sum(s.draw.values())}, seed deck {sum(s.seeds.values())}"
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

    def mission_spots(self, grid: Grid, mission: sg.Mission) -> list[tuple[str, list[str] | None]]:
        """Every (place, shift) where `mission` may seed now (SG-3.2 to SG-3.10)."""
        empty = grid.empty_fits(mission.quadrant, mission.region)
        if empty:
            return [(s, None) for s in empty]
        shifts = grid.legal_shifts(mission.quadrant, mission.region)
        if shifts:
            return [(p[0], p) for p in shifts]
        return [(s, None) for s, loc in grid.slots.items() if loc is None]

    def _seed_mission(self, state: State, record: sg.SeedMission) -> None:
        """SG-3: a player seeds one mission on an appropriate place, shifting outward if they must."""
        self._in_phase(state, record, "missions", "seed a mission", "SG-3.1")
        me, grid = state.seats[record.by], state.grid
        mission = me.missions.get(record.mission)
        if mission is None:
            raise Illegal("SG-3.1", f"{record.mission!r} is not one of {record.by}'s missions still to seed")
        self._slot(grid, record.place, "SG-2.1")
        quadrant, region = mission.quadrant, mission.region
        if record.shift is None:
            if grid.slots[record.place] is not None:
                raise Illegal("SG-3.5", f"{record.place} is taken; to seed there, shift missions outward with `shift`")
            # a place that fits is legal; only one that does not asks what else there is (SG-3.10)
            if not grid.fits(record.place, quadrant, region):
                empty = grid.empty_fits(quadrant, region)
                if empty or grid.legal_shifts(quadrant, region):
                    raise Illegal(*self._misfit(grid, record.place, mission, bool(empty)))
        else:
            empty_fit = grid.first_empty_fit(quadrant, region)
            if empty_fit is not None:
                raise Illegal("SG-3.5", f"no shift is allowed while an empty place fits {mission.name}, e.g. {empty_fit}")
            if record.shift[:1] != [record.place]:
                raise Illegal("SG-3.5", "a shift starts at the place the new mission takes")
            problem = grid.shift_problem(record.shift, quadrant, region)
            if problem is not None:
                raise Illegal(*problem)
            if grid.shorter_shift(len(record.shift), quadrant, region):
                fewest = len(grid.legal_shifts(quadrant, region)[0]) - 1
                raise Illegal("SG-3.9", f"that shift moves {len(record.shift) - 1} missions; {fewest} would do")
            grid.shift(record.shift)
        grid.slots[record.place] = Loc(mission.name, quadrant, mission.span, mission.kind, region, record.by)
        del me.missions[mission.name]
        nxt = self._next(state, state.active, lambda p: bool(state.seats[p].missions))
        if nxt is None:
            self._begin_dilemmas(state)
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

    def _begin_dilemmas(self, state: State) -> None:
        """SG-4.1: the dilemma phase starts with the first player still in."""
        state.phase = "dilemmas"
        state.passes = 0
        state.active = self._from_first(state)

    def _seed_dilemmas(self, state: State, record: sg.SeedDilemmas) -> None:
        """SG-4.1: any number of seed cards under one mission, as the player's turn."""
        self._in_phase(state, record, "dilemmas", "seed under a mission", "SG-4.1")
        loc = self._loc(state.grid, record.place, "SG-4.1")
        if not loc.mission:
            raise Illegal("SG-4.1", f"{record.place} holds {loc.name}, which is not a mission")
        if not record.cards:
            raise Illegal("SG-4.1", "seed at least one card, or pass")
        self._take(state.seats[record.by].seeds, record.cards, "seed deck", "SG-4.3")
        loc.dilemmas += [(card, record.by) for card in record.cards]
        state.unchecked += 1
        self._next_seeder(state, passed=False)

    def _seed_places(self, state: State, card: str) -> list[str | None]:
        """Where `card` may seed (SG-4.4 to SG-4.6); the legal listing offers no place for other cards."""
        if card == BORG_OUTPOST:
            return [None] if state.grid.quadrant_present("Delta") else []
        if card == GATEWAY:
            return [spoke[-1] for spoke in state.grid.spokes]
        return [None]

    def _seed_card(self, state: State, record: sg.SeedCard) -> None:
        """SG-4.4 to SG-4.6: one other seed card as the player's turn."""
        self._in_phase(state, record, "dilemmas", "seed a card", "SG-4.1")
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
            self._loc(grid, place, "SG-4.6")
        self._take(state.seats[record.by].seeds, [card], "seed deck", "SG-4.3")
        if card == BORG_OUTPOST:
            state.outposts.append(record.by)
        elif card == GATEWAY:
            assert place is not None
            state.gateways.append(place)
        else:
            state.unchecked += 1
        self._next_seeder(state, passed=False)

    def _pass(self, state: State, record: sg.Pass) -> None:
        """SG-4.1/4.2: the player seeds nothing; everyone passing in a row ends the phase."""
        self._in_phase(state, record, "dilemmas", "pass", "SG-4.1")
        self._next_seeder(state, passed=True)

    def _next_seeder(self, state: State, passed: bool) -> None:
        """SG-4.2: count passes in a row; the phase ends when all still in have passed."""
        state.passes = state.passes + 1 if passed else 0
        if state.passes >= len(state.still_in()):
            self._begin_opening(state)
        else:
            state.active = self._next(state, state.active, lambda p: True) or state.active

    # -- SG-5: opening hands and turns ----------------------------------------

    def _begin_opening(self, state: State) -> None:
        """SG-5.1: seven draws for each player, from the first player clockwise."""
        state.phase = "opening"
        order = self._seat_order(state)
        state.opening = [p for p in order for _ in range(min(OPENING_HAND, sum(state.seats[p].draw.values())))]
        if not state.opening:
            self._begin_turn(state, order[0])

    def _draw(self, state: State, record: sg.Draw) -> None:
        """SG-5.1 to SG-5.3: chance names a card from the player's draw deck."""
        if record.by != CHANCE:
            raise Illegal("SG-5.3", "only chance draws cards")
        if record.player not in state.seats or state.seats[record.player].out:
            raise Illegal("SG-5.3", f"{record.player!r} is not a player still in the game")
        if record.extra:
            if state.phase not in ("main", "end"):
                raise Illegal("SG-5.3", "an extra draw comes only after the opening hands")
        elif state.phase == "opening":
            if record.player != state.opening[0]:
                raise Illegal("SG-5.1", f"the next opening draw is {state.opening[0]}'s")
        elif state.phase != "end" or record.player != state.active:
            raise Illegal("SG-5.2", f"no draw is due: it is {state.active}'s {state.phase} phase")
        seat = state.seats[record.player]
        self._take(seat.draw, [record.card], "draw deck", "SG-5.3")
        seat.hand[record.card] += 1
        if record.extra:
            state.unchecked += 1
        elif state.phase == "opening":
            state.opening.pop(0)
            if not state.opening:
                self._begin_turn(state, self._from_first(state))
        else:
            self._pass_turn(state)

    def _begin_turn(self, state: State, player: str) -> None:
        """SG-5.2: `player`'s turn starts with its main step."""
        state.phase = "main"
        state.active = player
        state.turn += 1
        state.burnt = set()

    def _pass_turn(self, state: State) -> None:
        """SG-5.2: the next player still in, clockwise, takes a turn."""
        self._begin_turn(state, self._next(state, state.active, lambda p: True) or state.active)

    def _end_turn(self, state: State, record: sg.EndTurn) -> None:
        """SG-5.2: the main step ends; with an empty draw deck a second end_turn passes the turn."""
        if state.phase not in ("main", "end"):
            raise Illegal("SG-5.8", f"no turn is under way: it is the {state.phase} phase")
        self._by(record, state.active, "end the turn")
        if state.phase == "main":
            state.phase = "end"
        elif state.seats[state.active].draw:
            raise Illegal("SG-5.2", "the end-of-turn draw ends the turn while the draw deck holds cards")
        else:
            self._pass_turn(state)

    def _report_ship(self, state: State, record: sg.ReportShip) -> None:
        """SG-5.6: a ship from hand enters play at a location."""
        self._main_step(state, record, "report a ship")
        self._loc(state.grid, record.place, "SG-5.6")
        if record.card in NAMED:
            raise Illegal("SG-5.6", f"{record.card} is not a ship, so it cannot be reported")
        if record.card in state.ships:
            raise Illegal("SG-5.6", f"a ship named {record.card!r} is already in play")
        self._take(state.seats[record.by].hand, [record.card], "hand", "SG-5.5")
        state.ships[record.card] = Ship(record.by, record.place)
        state.unchecked += 1  # SG-9: whether an unnamed card is a ship is taken on trust

    def _play(self, state: State, record: sg.Play) -> None:
        """SG-5.5 and SG-7: a card is played; the named cards' targets are checked."""
        self._any_time(state, record, "play a card")
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
            self._take(state.seats[record.by].hand, [card], "hand", "SG-5.5")
        state.seats[record.by].played[card] += 1
        if card == PLASMA_FIRE:
            assert record.ship is not None
            state.fires.add(record.ship)
        state.unchecked += 1

    def _action(self, state: State, record: sg.Action) -> None:
        """SG-5.7: any other Star Trek play, accepted unchecked."""
        self._any_time(state, record, "act")
        state.unchecked += 1

    def _destroy(self, state: State, record: sg.Destroy) -> None:
        """SG-5.7: a ship leaves play."""
        self._any_time(state, record, "destroy a ship")
        if record.ship not in state.ships:
            raise Illegal("SG-5.7", f"no ship named {record.ship!r} is in play")
        del state.ships[record.ship]
        state.fires.discard(record.ship)
        state.unchecked += 1

    # -- SG-6: locations and movement ------------------------------------------

    def _move(self, state: State, record: sg.Move) -> None:
        """SG-6.1/6.2: normal movement steps between adjacent locations of one quadrant."""
        self._main_step(state, record, "move a ship")
        ship = state.ships.get(record.ship)
        if ship is None or ship.owner != record.by:
            raise Illegal("SG-6.1", f"{record.by} has no ship named {record.ship!r} in play")
        if not record.path:
            raise Illegal("SG-6.1", "a move names at least one location to go to")
        grid = state.grid
        start = grid.slots[ship.slot]
        assert start is not None
        here = ship.slot
        for slot in record.path:
            loc = self._loc(grid, slot, "SG-6.1")
            if record.card is not None:
                continue
            if slot not in grid.neighbours(here):
                raise Illegal("SG-6.1", f"{slot} is not next to {here}: normal movement goes one adjacent location at a time")
            if loc.quadrant != start.quadrant:
                raise Illegal("SG-6.2", f"{slot} is in the {loc.quadrant} Quadrant: normal movement stays in the {start.quadrant} Quadrant")
            here = slot
        if record.card is not None:
            state.unchecked += 1
        ship.slot = record.path[-1]

    def inserts(self, state: State, by: str, card: str) -> Iterator[sg.Insert]:
        """One legal insert of `card` into each edge between two locations of one quadrant (none for a card
        the referee knows is not inserted, SG-6.4)."""
        if card in NAMED and card not in INSERTED:
            return
        grid = state.grid
        for a, loc in grid.locations():
            for b in grid.neighbours(a):
                other = grid.slots[b]
                if a < b and other is not None and other.quadrant == loc.quadrant:
                    yield sg.Insert(by=by, card=card, after=a, before=b, span=1)

    def _insert(self, state: State, record: sg.Insert) -> None:
        """SG-6.4: a card goes between two adjacent locations of one quadrant, shifting nothing."""
        if state.phase == "dilemmas":
            self._in_phase(state, record, "dilemmas", "insert a card", "SG-4.1")
            pile, where = state.seats[record.by].seeds, "seed deck"
        else:
            self._any_time(state, record, "insert a card")
            pile, where = state.seats[record.by].hand, "hand"
        if record.card in NAMED and record.card not in INSERTED:
            raise Illegal("SG-6.4", f"{record.card} is not a card that is inserted into the spaceline")
        grid = state.grid
        first = self._loc(grid, record.after, "SG-6.4")
        second = self._loc(grid, record.before, "SG-6.4")
        if record.before not in grid.neighbours(record.after):
            raise Illegal("SG-6.4", f"{record.after} and {record.before} are not next to each other")
        if first.quadrant != second.quadrant:
            raise Illegal("SG-6.4", "a card is inserted between two locations of the same quadrant")
        self._take(pile, [record.card], where, "SG-4.3" if where == "seed deck" else "SG-5.5")
        slot = grid.insert(record.after, record.before)
        kind = "planet" if record.planet else "space"
        grid.slots[slot] = Loc(record.card, first.quadrant, record.span, kind, None, record.by, mission=False)
        if record.card not in INSERTED:
            state.unchecked += 1  # SG-9: that an unnamed card is inserted is taken on trust
        if state.phase == "dilemmas":
            self._next_seeder(state, passed=False)

    def _q_swap(self, state: State, record: sg.QSwap) -> None:
        """SG-6.5: Q swaps locations pairwise, each pair within one quadrant."""
        self._any_time(state, record, "swap locations")
        seat = state.seats[record.by]
        if not seat.qs and not seat.hand[Q]:
            raise Illegal("SG-6.5", f"{record.by} holds no Q: a swap needs a Q they encountered or one in their hand")
        grid = state.grid
        if not record.pairs:
            raise Illegal("SG-6.5", "Q swaps at least one pair of locations")
        seen: set[str] = set()
        for a, b in record.pairs:
            first = self._loc(grid, a, "SG-6.5")
            second = self._loc(grid, b, "SG-6.5")
            if a == b or a in seen or b in seen:
                raise Illegal("SG-6.5", "each location is swapped at most once, with another location")
            seen |= {a, b}
            if first.quadrant != second.quadrant:
                raise Illegal("SG-6.5", f"{a} ({first.quadrant}) and {b} ({second.quadrant}) are in different quadrants")
        if seat.qs:
            seat.qs -= 1
        else:
            self._take(seat.hand, [Q], "hand", "SG-6.5")
        for a, b in record.pairs:
            grid.slots[a], grid.slots[b] = grid.slots[b], grid.slots[a]
            swap = {a: b, b: a}
            movers: list[Ship | Tour] = [*state.ships.values(), *state.borgs.values()]
            for mover in movers:
                mover.slot = swap.get(mover.slot, mover.slot)

    def _relocate(self, state: State, record: sg.Relocate) -> None:
        """SG-6.6 and SG-7.10: ships go to a far end of their location."""
        self._any_time(state, record, "relocate ships")
        seat = state.seats[record.by]
        if record.card in NAMED and record.card not in OPPOSITE_MOVERS:
            raise Illegal("SG-6.6", f"{record.card} does not send ships to the far end of the spaceline")
        if not seat.hand[record.card] and not seat.played[record.card]:
            raise Illegal("SG-6.6", f"{record.card} is neither in {record.by}'s hand nor among the cards they put into play")
        if not record.ships:
            raise Illegal("SG-6.6", "name the ships to relocate")
        missing = [s for s in record.ships if s not in state.ships]
        if missing:
            raise Illegal("SG-6.6", f"no ship named {missing[0]!r} is in play")
        starts = {state.ships[s].slot for s in record.ships}
        if len(starts) != 1:
            raise Illegal("SG-6.6", "the relocated ships must all be at one location")
        if record.card in OPPOSITE_MOVERS and record.planet:
            raise Illegal("SG-7.10", f"{record.card} moves ships to the opposite location, with no planet criterion")
        (start,) = starts
        allowed = state.grid.far_ends(start, record.planet)
        if record.to not in allowed:
            if not allowed:
                raise Illegal("SG-6.3", f"there is no far end from {start} that meets the criteria")
            raise Illegal("SG-6.3", f"the far end from {start} is {' or '.join(sorted(allowed))}, not {record.to}")
        from_hand = seat.hand[record.card] > 0
        if from_hand:
            self._take(seat.hand, [record.card], "hand", "SG-6.6")  # used up, as an interrupt is
        if record.card not in OPPOSITE_MOVERS or not from_hand:
            state.unchecked += 1  # SG-9: an unnamed card's effect, or a card still in play, is taken on trust
        for name in record.ships:
            state.ships[name].slot = record.to

    # -- SG-7: named cards -------------------------------------------------------

    def _encounter(self, state: State, record: sg.Encounter) -> None:
        """SG-7.5: the active player meets a dilemma seeded under a location."""
        self._main_step(state, record, "encounter a dilemma")
        loc = self._loc(state.grid, record.place, "SG-7.5")
        seeded = next((d for d in loc.dilemmas if d[0] == record.card), None)
        if seeded is None:
            raise Illegal("SG-7.5", f"no {record.card!r} is seeded under {loc.name} ({record.place})")
        if record.card == PLASMA_FIRE and record.ship not in state.ships:
            raise Illegal("SG-7.6", "Plasma Fire is put on a ship in play: name it")
        name = f"{record.card}#{state.applied + 1}"
        loc.dilemmas.remove(seeded)
        if record.card == BORG_SHIP:
            on_ring = state.grid.on_ring(record.place)
            state.borgs[name] = Tour(record.place, record.place if on_ring else None)
        elif record.card == ROGUE_BORG:
            state.groups[name] = Group(seeded[1], record.by)
        elif record.card == PLASMA_FIRE:
            assert record.ship is not None
            state.fires.add(record.ship)
        elif record.card == Q:
            state.seats[record.by].qs += 1  # SG-6.5: one swap for the player who met it
        else:
            state.unchecked += 1

    def borg_next(self, state: State, tour: Tour) -> list[str | None]:
        """SG-7.2: where a Borg Ship goes next (None: it leaves play)."""
        grid = state.grid
        if not grid.on_ring(tour.slot):
            return list(grid.outward(tour.slot))
        if tour.slot == tour.ring_start and tour.lapped:
            return [None]
        return [grid.clockwise(tour.slot)]

    def _borg_ship_move(self, state: State, record: sg.BorgShipMove) -> None:
        """SG-7.2: the Borg Ship takes the next step of its tour, or leaves once it is done."""
        self._main_step(state, record, "move a Borg Ship")
        tour = state.borgs.get(record.borg)
        if tour is None:
            raise Illegal("SG-7.2", f"no Borg Ship called {record.borg!r} is in play")
        allowed = self.borg_next(state, tour)
        if record.to not in allowed:
            options = " or ".join("leaving play" if a is None else a for a in allowed)
            raise Illegal("SG-7.2", f"{record.borg} goes next to {options}, not {record.to or 'out of play'}")
        if record.to is None:
            del state.borgs[record.borg]
            return
        was_on_ring = state.grid.on_ring(tour.slot)
        tour.slot = record.to
        if state.grid.on_ring(record.to):
            if tour.ring_start is None:
                tour.ring_start = record.to
            elif was_on_ring:
                tour.lapped = True

    def _mercenaries_attack(self, state: State, record: sg.MercenariesAttack) -> None:
        """SG-7.7: Rogue Borg Mercenaries attack only on their owner's or the affected player's turn."""
        self._main_step(state, record, "attack with Rogue Borg Mercenaries")
        group = state.groups.get(record.group)
        if group is None:
            raise Illegal("SG-7.7", f"no Rogue Borg Mercenaries called {record.group!r} are in play")
        if state.active not in (group.owner, group.affected):
            raise Illegal("SG-7.7", f"{record.group} attack only on {group.owner}'s or {group.affected}'s turn")

    def _plasma_fire_damage(self, state: State, record: sg.PlasmaFireDamage) -> None:
        """SG-7.6: Plasma Fire damages a ship at the end of its owner's turn, once."""
        if record.ship not in state.fires:
            raise Illegal("SG-7.6", f"{record.ship!r} has no Plasma Fire on it")
        owner = state.ships[record.ship].owner if record.ship in state.ships else None
        if state.phase != "end" or state.active != owner:
            raise Illegal("SG-7.6", f"Plasma Fire damages {record.ship} only at the end of {owner}'s turns")
        self._by(record, state.active, "log Plasma Fire damage")
        if record.ship in state.burnt:
            raise Illegal("SG-7.6", f"Plasma Fire already damaged {record.ship} this turn")
        state.burnt.add(record.ship)

    # -- SG-8: the end of the game -----------------------------------------------

    def _concede(self, state: State, record: Concede) -> None:
        """SG-8.1: a player may concede at any time and is out."""
        if record.by not in state.seats:
            raise Illegal("SG-8.1", "only a player may concede")
        self._out(state, record.by, "concede")

    def _game_loss(self, state: State, record: GameLoss) -> None:
        """SG-8.2: the judge puts a player out."""
        self._by(record, JUDGE, "give a game loss", "SG-8.2")
        if record.player not in state.seats or state.seats[record.player].out:
            raise Illegal("SG-8.2", f"{record.player!r} is not a player still in the game")
        self._out(state, record.player, "game_loss")

    def _time(self, state: State, record: Time) -> None:
        """SG-8.5: time ends the game as a draw among the players still in."""
        self._by(record, JUDGE, "call time", "SG-8.5")
        self._finish(state, [state.still_in()], {}, "time", draw=True)

    def _final(self, state: State, record: sg.Final) -> None:
        """SG-8.4: the judge ends the game with the points of every player still in."""
        self._by(record, JUDGE, "end the game with the scores", "SG-8.4")
        if set(record.scores) != set(state.still_in()):
            raise Illegal("SG-8.4", f"the final scores must name exactly the players still in: {', '.join(state.still_in())}")
        levels = sorted(set(record.scores.values()), reverse=True)
        ranking = [[p for p in state.still_in() if record.scores[p] == v] for v in levels]
        self._finish(state, ranking, record.scores, "final")

    def _out(self, state: State, player: str, reason: str) -> None:
        """A player leaves the game; the game goes on, or ends when one player is left (SG-8.3)."""
        state.seats[player].out = True
        state.gone.append(player)
        left = state.still_in()
        if len(left) == 1:
            self._finish(state, [left], {}, reason)
            return
        if state.phase == "opening":
            state.opening = [p for p in state.opening if p != player]
            if not state.opening:
                self._begin_turn(state, self._from_first(state))
        elif state.active == player:
            if state.phase == "missions":
                nxt = self._next(state, player, lambda p: bool(state.seats[p].missions))
                if nxt is None:
                    self._begin_dilemmas(state)
                else:
                    state.active = nxt
            elif state.phase != "dilemmas":
                self._pass_turn(state)
        if state.phase == "dilemmas":
            if state.passes >= len(left):
                self._begin_opening(state)
            elif state.active == player:
                state.active = self._next(state, player, lambda p: True) or player

    def _finish(self, state: State, ranking: list[list[str]], points: dict[str, int], reason: str, draw: bool = False) -> None:
        """SG-8.4 to SG-8.6: placements, winners and scores; players out rank below, the last out highest."""
        placements: dict[str, int] = {}
        place = 1
        for group in [*ranking, *([p] for p in reversed(state.gone))]:
            for player in group:
                placements[player] = place
            place += len(group)
        winners = [] if draw else list(ranking[0])
        score = {p: float(points.get(p, 0)) for p in state.players}
        state.outcome = Result(placements, winners, score, reason)
        state.phase = "over"

    # -- helpers -------------------------------------------------------------------

    def _turn_records(self, state: State) -> Iterator[Record]:
        """The legal records of a turn, simplest first (one sample of each kind of choice)."""
        active, grid = state.active, state.grid
        me = state.seats[active]
        if state.phase == "end":
            for burning in sorted(state.fires - state.burnt):
                if burning in state.ships and state.ships[burning].owner == active:
                    yield sg.PlasmaFireDamage(by=active, ship=burning)
            if me.draw:
                yield from (sg.Draw(by=CHANCE, player=active, card=c) for c in sorted(me.draw))
            else:
                yield sg.EndTurn(by=active)
            return
        yield sg.EndTurn(by=active)
        for name, tour in state.borgs.items():
            yield from (sg.BorgShipMove(by=active, borg=name, to=to) for to in self.borg_next(state, tour))
        for name, group in state.groups.items():
            if active in (group.owner, group.affected):
                yield sg.MercenariesAttack(by=active, group=name)
        movers = [c for c in OPPOSITE_MOVERS if me.hand[c] or me.played[c]]
        for name, ship in state.ships.items():
            here = grid.slots[ship.slot]
            assert here is not None
            if ship.owner == active:
                for slot in grid.neighbours(ship.slot):
                    there = grid.slots[slot]
                    if there is not None and there.quadrant == here.quadrant:
                        yield sg.Move(by=active, ship=name, path=[slot])
            for card in movers:
                yield from (sg.Relocate(by=active, card=card, ships=[name], to=to) for to in sorted(grid.far_ends(ship.slot, False)))
        for slot, loc in grid.locations():
            for card, _ in loc.dilemmas:
                if card != PLASMA_FIRE:
                    yield sg.Encounter(by=active, card=card, place=slot)
        hand = sorted(me.hand)
        for card in hand:
            yield from self._plays(state, active, card)
        yield sg.Action(by=active, text="attempt a mission")
        locations = list(grid.locations())
        for card in hand:
            if card not in state.ships and card not in NAMED:
                yield from (sg.ReportShip(by=active, card=card, place=slot) for slot, _ in locations)
            yield from self.inserts(state, active, card)
        if me.qs or me.hand[Q]:
            for i, (a, first) in enumerate(locations):
                for b, second in locations[i + 1 :]:
                    if first.quadrant == second.quadrant:
                        yield sg.QSwap(by=active, pairs=[(a, b)])
        yield from (sg.Destroy(by=active, ship=name) for name in sorted(state.ships))

    def _plays(self, state: State, by: str, card: str) -> Iterator[Record]:
        """Legal plays of `card` from hand, with one choice of targets for each target the rules read."""
        if card == PLASMA_FIRE:
            yield from (sg.Play(by=by, card=card, ship=ship) for ship in sorted(state.ships))
        elif card in ONE_TARGET:
            yield from (sg.Play(by=by, card=card, players=[p]) for p in state.still_in())
        elif card == DIAL_MARTOK:
            yield from (
                sg.Play(by=by, card=card, personnel=[sg.Personnel("Crewman A", p), sg.Personnel("Crewman B", p)])
                for p in state.still_in()
            )
        else:
            yield sg.Play(by=by, card=card)

    def _in_phase(self, state: State, record: Record, phase: str, doing: str, rule: str) -> None:
        """Raise unless it is `phase` and `record` is the active player's."""
        if state.phase != phase:
            raise Illegal("SG-5.8", f"cannot {doing} now: it is the {state.phase} phase")
        self._by(record, state.active, doing, rule)

    def _main_step(self, state: State, record: Record, doing: str) -> None:
        """Raise unless it is the active player's main step and the record is theirs."""
        if state.phase != "main":
            raise Illegal("SG-5.8", f"cannot {doing} now: it is the {state.phase} phase")
        self._by(record, state.active, doing)

    def _any_time(self, state: State, record: Record, doing: str) -> None:
        """Raise unless a turn is under way and the record is a player's (SG-5.4)."""
        if state.phase not in ("main", "end"):
            raise Illegal("SG-5.8", f"cannot {doing} now: it is the {state.phase} phase")
        if record.by not in state.seats:
            raise Illegal("SG-5.4", f"only a player may {doing}")

    def _by(self, record: Record, expected: str, doing: str, rule: str = "SG-5.4") -> None:
        """Raise unless `record` is made by `expected`."""
        if record.by != expected:
            raise Illegal(rule, f"{record.by} may not {doing} now: it is {expected}'s to do")

    def _slot(self, grid: Grid, slot: str, rule: str) -> None:
        """Raise unless `slot` is a place on this grid."""
        if slot not in grid.slots:
            raise Illegal(rule, f"there is no place {slot} on this grid of {grid.n} spokes")

    def _loc(self, grid: Grid, slot: str, rule: str) -> Loc:
        """The location at `slot`; raise if there is none."""
        self._slot(grid, slot, rule)
        loc = grid.slots[slot]
        if loc is None:
            raise Illegal(rule, f"there is no location at {slot}")
        return loc

    def _take(self, pile: Counter[str], cards: list[str], where: str, rule: str) -> None:
        """Remove `cards` from `pile`, or raise if any is not there (counting copies)."""
        need = Counter(cards)
        for card, count in need.items():
            if pile[card] < count:
                raise Illegal(rule, f"{card!r} is not in the {where} ({pile[card]} left, {count} named)")
        pile.subtract(need)
        for card in need:
            if pile[card] <= 0:
                del pile[card]

    def _seat_order(self, state: State) -> list[str]:
        """Players still in, clockwise from the first player."""
        i = state.players.index(state.first)
        return [p for p in state.players[i:] + state.players[:i] if not state.seats[p].out]

    def _from_first(self, state: State) -> str:
        """The first player, or the next one clockwise still in."""
        return self._seat_order(state)[0]

    def _next(self, state: State, after: str, wanted: Callable[[str], bool]) -> str | None:
        """The next player clockwise after `after` who is still in and `wanted`; `after` itself last."""
        i = state.players.index(after)
        for p in state.players[i + 1 :] + state.players[: i + 1]:
            if not state.seats[p].out and wanted(p):
                return p
        return None
