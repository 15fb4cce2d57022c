"""Bot play for stccg-multiplayer: invented decks, and a sampler of legal records.

The card names here are invented for bot games, apart from the cards the seed
text names (cards.py). The bot knows which of its invented cards are ships
and dilemmas; the referee does not need to (SG-9).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from referee.ruleset import CHANCE, JUDGE
from referee.rulesets.stccg_multiplayer.cards import (
    ALIEN_PROBE,
    BORG_OUTPOST,
    BORG_SHIP,
    DIAL_MARTOK,
    GATEWAY,
    INSERTED,
    ONE_TARGET,
    OPPOSITE_MOVERS,
    PLASMA_FIRE,
    ROGUE_BORG,
    Q,
)
from referee.rulesets.stccg_multiplayer.named import borg_next
from referee.rulesets.stccg_multiplayer.options import insert_records, mission_spots
from referee.rulesets.stccg_multiplayer.state import State
from schemas import stccg_multiplayer as sg
from schemas.log import Concede, Record

SHIPS = ("Vigil", "Lantern", "Meridian", "Halyard")
CREW = (
    "Ensign Tavor", "Doctor Quill", "Engineer Bask", "Commander Ryn", "Lieutenant Oda", "Counselor Vey",
    "Tricorder Kit", "Phaser Locker", "Away Team Drill", "Shore Leave", "Long-Range Scan",
    "Emergency Repairs", "Cargo Transfer", "Diplomatic Envoy",
)  # fmt: skip
DRAW_NAMED = (ALIEN_PROBE, *ONE_TARGET, DIAL_MARTOK, PLASMA_FIRE, *OPPOSITE_MOVERS, "Q's Planet")
DILEMMAS = (
    BORG_SHIP, BORG_SHIP, ROGUE_BORG, ROGUE_BORG, PLASMA_FIRE, Q, "Gravimetric Shear", "Sensor Ghost",
    "Ion Squall", "Cargo Dispute", "Subspace Echo", "Hull Fatigue", "Spore Cloud", "Rogue Comet",
)  # fmt: skip
OTHER_SEEDS = (
    BORG_OUTPOST, GATEWAY, "Bajoran Wormhole", "Gaps in Normal Space", "Relay Station", "Listening Post",
    "Ancient Beacon", "Supply Cache", "Derelict Hulk", "Survey Buoy",
)  # fmt: skip
MISSION_WORDS = (
    ("Vela", "Kessik", "Orin", "Thane", "Mirel", "Castor", "Pyrrh", "Sable", "Dovan", "Ulric", "Nadir", "Quill"),
    ("Drift", "Survey", "Distress Call", "Rescue", "Relay", "Expedition"),
)
QUADRANTS: list[sg.Quadrant] = ["Alpha", "Gamma", "Delta", "Mirror"]
KINDS: list[sg.Kind] = ["planet", "space", "dual"]
REGIONS = {"Alpha": "Briar Expanse", "Gamma": "Sable Reach"}
SEEDED_BEFORE_PASSING = 4  # a bot seeds this many cards, then passes (keeps the phase short)


def setup(players: list[str], rng: random.Random) -> sg.Setup:
    """A random first player and an invented 30-30 deck for each player (SG-1.2)."""
    names = [f"{a} {b}" for a, b in itertools.product(*MISSION_WORDS)]
    rng.shuffle(names)
    decks = {}
    for i, player in enumerate(players):
        missions = []
        for name in names[6 * i : 6 * i + 6]:
            quadrant: sg.Quadrant = rng.choices(QUADRANTS, [11, 4, 4, 1])[0]
            region = REGIONS.get(quadrant) if rng.random() < 0.25 else None
            kind: sg.Kind = rng.choice(KINDS)
            missions.append(sg.Mission(name, quadrant, rng.randint(1, 5), kind, region))
        draw = [ship for ship in SHIPS for _ in range(2)] + list(DRAW_NAMED) + list(CREW)
        decks[player] = sg.Deck(missions, list(DILEMMAS + OTHER_SEEDS), draw)
    return sg.Setup(first=rng.choice(players), decks=decks)


def sample(state: State, rng: random.Random) -> Record:
    """One legal record for the phase, drawn at random; the judge ends long games with `final`."""
    phase = state.phase
    if phase == "missions":
        me = state.active
        mission = state.seats[me].missions[rng.choice(sorted(state.seats[me].missions))]
        place, shift = rng.choice(mission_spots(state.grid, mission))
        return sg.SeedMission(by=me, mission=mission.name, place=place, shift=shift)
    if phase == "dilemmas":
        return _seed_turn(state, rng)
    if phase == "opening":
        drawer = state.opening[0]
        return sg.Draw(by=CHANCE, player=drawer, card=rng.choice(sorted(Counter(state.seats[drawer].draw).elements())))
    if rng.random() < 0.002:
        return Concede(by=rng.choice(state.still_in()))
    if state.turn > len(state.players) + 1 and rng.random() < 0.08:
        return sg.Final(by=JUDGE, scores={p: 5 * rng.randint(0, 20) for p in state.still_in()})
    if phase == "end":
        return _end_step(state, rng)
    if rng.random() < 0.3:
        return sg.EndTurn(by=state.active)
    options = _turn_options(state, rng)
    return rng.choice(options) if options else sg.EndTurn(by=state.active)


def _seed_turn(state: State, rng: random.Random) -> Record:
    """A dilemma-phase turn: seed a few cards, then pass."""
    me = state.active
    seeds = state.seats[me].seeds
    left = sorted(Counter(seeds).elements())
    if len(left) <= len(DILEMMAS + OTHER_SEEDS) - SEEDED_BEFORE_PASSING or rng.random() < 0.3:
        return sg.Pass(by=me)
    card = rng.choice(left)
    grid = state.grid
    if card in INSERTED:
        inserts = list(insert_records(state, me, card))
        if inserts:
            pick = rng.choice(inserts)
            return sg.Insert(by=me, card=card, after=pick.after, before=pick.before, span=rng.randint(1, 4), planet=card == "Q's Planet")
    elif card == BORG_OUTPOST:
        if grid.quadrant_present("Delta"):
            return sg.SeedCard(by=me, card=card)
    elif card == GATEWAY:
        return sg.SeedCard(by=me, card=card, place=rng.choice([spoke[-1] for spoke in grid.spokes]))
    elif card in DILEMMAS:
        missions = [slot for slot, loc in grid.locations() if loc.mission]
        cards = [c for c in left if c in DILEMMAS]
        return sg.SeedDilemmas(by=me, place=rng.choice(missions), cards=rng.sample(cards, min(len(cards), rng.randint(1, 3))))
    else:
        place = rng.choice([None, *(slot for slot, _ in grid.locations())])
        return sg.SeedCard(by=me, card=card, place=place)
    return sg.Pass(by=me)


def _end_step(state: State, rng: random.Random) -> Record:
    """Plasma Fire damage that is due, then the end-of-turn draw (or end_turn on an empty deck)."""
    me = state.active
    for ship in sorted(state.fires - state.burnt):
        if ship in state.ships and state.ships[ship].owner == me:
            return sg.PlasmaFireDamage(by=me, ship=ship)
    deck = state.seats[me].draw
    if deck:
        return sg.Draw(by=CHANCE, player=me, card=rng.choice(sorted(Counter(deck).elements())))
    return sg.EndTurn(by=me)


def _turn_options(state: State, rng: random.Random) -> list[Record]:
    """A handful of legal main-step records, one of each kind the position allows."""
    me, grid = state.active, state.grid
    hand = sorted(state.seats[me].hand)
    where = dict(grid.locations())
    locations = list(where)
    options: list[Record] = [sg.Action(by=me, text="attempt a mission")]
    ships = [s for s in SHIPS if s in hand and s not in state.ships]
    if ships:
        options.append(sg.ReportShip(by=me, card=rng.choice(ships), place=rng.choice(locations)))
    mine = sorted(name for name, ship in state.ships.items() if ship.owner == me)
    if mine:
        name = rng.choice(mine)
        here = state.ships[name].slot
        quadrant = where[here].quadrant
        steps = [s for s in grid.neighbours(here) if (loc := grid.slots[s]) is not None and loc.quadrant == quadrant]
        if steps:
            options.append(sg.Move(by=me, ship=name, path=[rng.choice(steps)]))
        ends = sorted(grid.far_ends(here, False))
        movers = [c for c in OPPOSITE_MOVERS if c in state.seats[me].hand or c in state.seats[me].played]
        if ends and movers:
            options.append(sg.Relocate(by=me, card=rng.choice(movers), ships=[name], to=rng.choice(ends)))
    plays = [c for c in hand if c not in SHIPS]
    if plays:
        card = rng.choice(plays)
        record = _play(state, me, card, rng)
        if record is not None:
            options.append(record)
    seeded = [(slot, card) for slot, loc in where.items() for card, _ in loc.dilemmas]
    if seeded:
        slot, card = rng.choice(seeded)
        if card != PLASMA_FIRE:
            options.append(sg.Encounter(by=me, card=card, place=slot))
        elif state.ships:
            options.append(sg.Encounter(by=me, card=card, place=slot, ship=rng.choice(sorted(state.ships))))
    for name, tour in state.borgs.items():
        options.append(sg.BorgShipMove(by=me, borg=name, to=rng.choice(borg_next(state, tour))))
    for name, group in state.groups.items():
        if me in (group.owner, group.affected):
            options.append(sg.MercenariesAttack(by=me, group=name))
    a = rng.choice(locations)
    partners = [b for b in locations if b != a and where[b].quadrant == where[a].quadrant]
    if partners and state.seats[me].qs:  # a Q it encountered (SG-6.5)
        options.append(sg.QSwap(by=me, pairs=[(a, rng.choice(partners))]))
    return options


def _play(state: State, me: str, card: str, rng: random.Random) -> Record | None:
    """A legal `play` (or `insert`) of `card` from hand, with the targets its rules need."""
    players = state.still_in()
    if card == PLASMA_FIRE:
        return sg.Play(by=me, card=card, ship=rng.choice(sorted(state.ships))) if state.ships else None
    if card in ONE_TARGET:
        return sg.Play(by=me, card=card, players=[rng.choice(players)])
    if card == DIAL_MARTOK:
        owner = rng.choice(players)
        return sg.Play(by=me, card=card, personnel=[sg.Personnel("Crewman A", owner), sg.Personnel("Crewman B", owner)])
    if card == ALIEN_PROBE:
        return sg.Play(by=me, card=card, players=players if rng.random() < 0.5 else None)
    if card in INSERTED:
        inserts = list(insert_records(state, me, card))
        if not inserts:
            return None
        pick = rng.choice(inserts)
        return sg.Insert(by=me, card=card, after=pick.after, before=pick.before, span=rng.randint(1, 4), planet=True)
    return sg.Play(by=me, card=card)
