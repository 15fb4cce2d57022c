"""What each seat may see in maginot (MG-10): hands, decks, the order of a base under its top ace, and
components under construction (face down) are hidden; everything else is in view."""

from __future__ import annotations

from typing import Any

from referee.ruleset import Seat, sees, veiled
from referee.rulesets.maginot.state import ACES, State, sort_cards
from schemas import maginot as mg
from schemas.log import Record


def hidden(state: State) -> dict[str, set[str]]:
    """MG-10.1 and MG-10.3: each player's hand, deck and face-down components (a card name is only one
    player's card: every player holds the same 54)."""
    return {p: side.hand | side.deck | set(side.building) for p, side in state.sides.items()}


def seat_view(state: State, view: dict[str, Any], seat: Seat) -> dict[str, Any]:
    """`view` (the judge's, from Maginot.view) as `seat` may see it."""
    players = {}
    for p, entry in view["players"].items():
        side = state.sides[p]
        shown = sees(seat, p)
        base = entry["base"]
        if not shown and len(base) > 1:  # MG-10.2: the top ace in view, the others in a fixed order, not theirs
            rank = {ace: i for i, ace in enumerate(ACES)}
            base = [base[0], *sorted(base[1:], key=lambda a: rank[a["ace"]])]
        players[p] = entry | {
            "hand": veiled(entry["hand"], shown),
            "deck_cards": veiled(sort_cards(side.deck), shown),
            "base": base,
            "base_order_hidden": not shown,
            "building": [b if shown else b | {"card": None} for b in entry["building"]],
        }
    return view | {"players": players}


def record_view(data: dict[str, Any], record: Record, seat: Seat, state: State) -> dict[str, Any]:
    """A record as `seat` sees it, given its default view `data`: a base's order under its top ace (MG-10.2),
    and the card of a build still face down after it (MG-10.3), stay with their owner."""
    if sees(seat, record.by):
        return data
    if isinstance(record, mg.Base):
        return data | {"aces": [record.aces[0], *[None] * (len(record.aces) - 1)]}
    if isinstance(record, mg.Build) and record.card in state.sides[record.by].building:
        return data | {"card": None}
    return data
