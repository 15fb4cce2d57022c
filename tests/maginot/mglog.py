"""A table to play maginot on in tests: records are built from plain fields and applied one by one."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from referee.logio import encode_lines, record_decoder
from referee.ruleset import Illegal
from referee.rulesets import get
from referee.rulesets.maginot.state import Side, State, is_resource, sort_cards
from schemas import maginot as mg
from schemas.log import LOG_FORMAT, Header, Record

RULESET = get("maginot")
DECODE = record_decoder("maginot")
# Cards dealt when a test does not care what is drawn: high components, so the low ones stay free.
FILLER = [f"{n}{s}" for n in ("10", "9", "8") for s in "SCH"]
RESOURCES = ["2D", "3D", "4D", "5D", "6D"]
LIGHT = ("2H", "2S", "2C")


def rec(by: str, kind: str, **fields: Any) -> Record:
    """A record of type `kind` by `by`, decoded exactly as a log line would be."""
    record: Record = DECODE.decode(json.dumps({"type": kind, "by": by, **fields}))
    return record


class Table:
    """One game in progress, with the records that built it."""

    def __init__(
        self,
        players: tuple[str, ...] = ("ann", "bob"),
        first: str | None = None,
        hands: dict[str, list[str]] | None = None,
        aces: dict[str, list[str]] | None = None,
    ) -> None:
        self.first = first or players[0]
        self.header = Header(
            log=LOG_FORMAT,
            ruleset="maginot",
            game="test",
            players=list(players),
            setup=msgspec.Raw(json.dumps({"first": self.first}).encode()),
        )
        self.state: State = RULESET.start(self.header, mg.Setup(first=self.first))
        self.records: list[Record] = []
        for player in players:
            self.do(player, "base", aces=(aces or {}).get(player, ["AS", "AH", "AD", "AC"]))
        for player in players:
            self.draw(*(hands or {}).get(player, []))
            self.draw(*[""] * (5 - len((hands or {}).get(player, []))))

    # -- acting ------------------------------------------------------------------

    def do(self, by: str | None, kind: str, **fields: Any) -> Table:
        """Apply one record; `by` None means whoever is due."""
        record = rec(by or self.actor, kind, **fields)
        RULESET.apply(self.state, record)
        self.records.append(record)
        return self

    def act(self, kind: str, **fields: Any) -> Table:
        """A record by whoever is due."""
        return self.do(None, kind, **fields)

    def draw(self, *cards: str) -> Table:
        """Chance draws for whoever draws next; "" draws a filler card."""
        for card in cards:
            player = self.state.draws[0]
            self.do("chance", "draw", player=player, card=card or self._filler(player))
        return self

    def finish_draws(self) -> Table:
        """Filler draws until no draw is due."""
        while self.state.phase == "draw":
            self.draw("")
        return self

    def passes(self, count: int = 1) -> Table:
        """`count` pass records by whoever is due."""
        for _ in range(count):
            self.act("pass")
        return self

    def quiet_turn(self) -> Table:
        """The active player draws fillers and passes through the whole turn."""
        return self.finish_draws().passes(3)

    def illegal(self, by: str | None, kind: str, **fields: Any) -> Illegal:
        """Apply a record that must be illegal; check the state is untouched; return the Illegal."""
        before = RULESET.describe(self.state)
        with pytest.raises(Illegal) as caught:
            RULESET.apply(self.state, rec(by or self.actor, kind, **fields))
        assert RULESET.describe(self.state) == before
        return caught.value

    # -- scenarios ---------------------------------------------------------------

    def resources_and_tap(self) -> Table:
        """Put out every diamond in hand and tap every resource."""
        me = self.side(self.state.active)
        for card in sort_cards(c for c in me.hand if is_resource(c)):
            self.act("resource", card=card)
        for card in sort_cards(me.resources):
            if not me.resources[card]:
                self.act("tap", card=card)
        return self

    # -- looking -----------------------------------------------------------------

    @property
    def actor(self) -> str:
        return RULESET.to_act(self.state)[0]

    def side(self, player: str) -> Side:
        return self.state.sides[player]

    def lines(self) -> list[bytes]:
        """The log so far, chained."""
        return list(encode_lines(self.header, self.records))

    def _filler(self, player: str) -> str:
        deck = self.side(player).deck
        return next((c for c in FILLER if c in deck), None) or sort_cards(deck)[-1]


def armies(
    players: tuple[str, ...] = ("ann", "bob"),
    units: dict[str, list[tuple[str, str, str]]] | None = None,
    guard: tuple[str, ...] = (),
    aces: dict[str, list[str]] | None = None,
) -> Table:
    """Every player builds its units (default one 2H/2S/2C) from five resources, one unit after another;
    then players in `guard` move their units to the guardian zone. Returns at the first player's next draw."""
    t = Table(players, hands={p: RESOURCES for p in players}, aces=aces)
    plans = {p: list((units or {}).get(p, [LIGHT])) for p in players}

    def next_plan(player: str) -> tuple[str, str, str] | None:
        return next((plan for plan in plans[player] if plan[0] not in t.side(player).units), None)

    def unfinished() -> bool:
        posted = all(u.zone == "guardian" for p in guard for u in t.side(p).units.values())
        return any(next_plan(p) for p in players) or not posted or t.state.active != t.first

    while unfinished():
        me, side = t.state.active, t.side(t.state.active)
        plan = next_plan(me)
        wanted = [c for c in plan or () if c not in side.hand and c not in side.building and c not in side.built]
        t.draw(*wanted[:2]).finish_draws().resources_and_tap()
        for card in plan or ():
            if (card in side.hand or card in side.building) and t.state.pool:
                needed = int(card[:-1]) - side.building.get(card, 0)
                t.act("build", card=card, tokens=min(t.state.pool, needed))
        t.passes(2)
        guards = [u for u, unit in side.units.items() if me in guard and unit.zone == "patrol"]
        for unit in guards:
            t.act("move", unit=unit, zone="guardian")
        if plan and all(c in side.built for c in plan):
            t.act("assemble", life=plan[0], armor=plan[1], weapon=plan[2])
        t.passes(1)
    return t


def battle_ready(t: Table) -> Table:
    """From a draw phase: fillers drawn and the construction phase passed, so the battle phase is open."""
    return t.finish_draws().passes(1)
