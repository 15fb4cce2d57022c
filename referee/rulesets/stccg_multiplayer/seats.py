"""What each seat may see in stccg-multiplayer (SG-11): hands, draw decks, seed decks, missions not yet
seeded and the dilemmas under each location (face down, known to whoever seeded them) are hidden."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from referee.ruleset import CHANCE, Seat, sees, veiled
from referee.rulesets.stccg_multiplayer.state import State
from schemas import stccg_multiplayer as sg
from schemas.log import Record


def _cards(pile: dict[str, int]) -> list[str]:
    """A pile's cards, a copy held twice listed twice, in name order."""
    return sorted(Counter(pile).elements())


def hidden(state: State) -> dict[str, set[str]]:
    """SG-11.1 and SG-11.2: each player's hand, draw and seed decks, missions to seed, and the dilemmas they seeded."""
    found = {p: {*s.hand, *s.draw, *s.seeds, *s.missions} for p, s in state.seats.items()}
    for _, loc in state.grid.locations():
        for card, seeder in loc.dilemmas:
            found[seeder].add(card)
    return found


def seat_view(state: State, view: dict[str, Any], seat: Seat) -> dict[str, Any]:
    """`view` (the judge's, from StccgMultiplayer.view) as `seat` may see it."""
    players = {}
    for p, entry in view["players"].items():
        s, shown = state.seats[p], sees(seat, p)
        players[p] = entry | {
            "hand": veiled(entry["hand"], shown),
            "missions_to_seed": veiled(entry["missions_to_seed"], shown),
            "seed_cards": veiled(_cards(s.seeds), shown),
            "draw_cards": veiled(_cards(s.draw), shown),
        }
    grid = dict(view["grid"])
    for slot, loc in state.grid.locations():
        under = [{"card": card if sees(seat, by) else None, "by": by} for card, by in loc.dilemmas]
        grid[slot] = grid[slot] | {"dilemmas": under}
    return view | {"players": players, "grid": grid}


def record_view(data: dict[str, Any], record: Record, seat: Seat) -> dict[str, Any]:
    """SG-11.2: the cards of `seed_dilemmas` stay with the player who seeded them."""
    if isinstance(record, sg.SeedDilemmas) and not sees(seat, record.by):
        return data | {"cards": veiled(record.cards, False)}
    return data


def seat_legal(records: Iterator[Record], state: State, seat: str) -> Iterator[Record]:
    """SG-11.3: `seat`'s records, less the encounters that would name a dilemma another player seeded (the
    player learns a dilemma by meeting it, and records it with a form)."""
    for record in records:
        if isinstance(record, sg.Encounter):
            loc = state.grid.slots.get(record.place)
            if loc is None or (record.card, seat) not in loc.dilemmas:
                continue
        yield record


def chance_options(state: State, record: Record) -> list[Record]:
    """A draw's options: one for each card in the player's draw deck, a card held twice listed twice."""
    player = getattr(record, "player", None)
    seat = state.seats.get(player) if isinstance(player, str) else None
    if not isinstance(record, sg.Draw) or seat is None:
        return []
    return [sg.Draw(by=CHANCE, player=record.player, card=c, extra=record.extra) for c in _cards(seat.draw)]
