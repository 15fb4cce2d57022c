"""The metagame: how many players brought each kind of deck, and how each kind did against the others.

Pure: each player's kind (and what else their deck shows), each table's
outcome by player, and who made the top cut, in; one `DeckKind` per kind
out, most played first. A match between two decks of one kind (a mirror)
says nothing of the kind against the field, so it is left out of the
record, as metagame reports do; at a pod a seat counts when another seat
holds another kind.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence, Set
from typing import Literal

from schemas.tournament import DeckKind

Outcome = Literal["win", "loss", "draw"]


def kinds_of(
    decks: Mapping[str, tuple[str, str]], tables: Sequence[Mapping[str, Outcome]], top_cut: Set[str]
) -> list[DeckKind]:
    """`decks`: player -> (kind, detail); `tables`: each finished table's outcome by player (players without a
    kind are in no kind's record)."""
    players: Counter[str] = Counter(kind for kind, _ in decks.values())
    cut: Counter[str] = Counter(decks[p][0] for p in top_cut if p in decks)
    record: dict[str, Counter[str]] = {kind: Counter() for kind in players}
    for table in tables:
        seated = [decks[p][0] for p in table if p in decks]
        for player, outcome in table.items():
            if player not in decks:
                continue
            kind = decks[player][0]
            if seated.count(kind) == len(seated):  # a mirror, or nobody else with a known deck
                continue
            record[kind][outcome] += 1
    details: dict[str, Counter[str]] = {kind: Counter() for kind in players}
    for kind, detail in decks.values():
        details[kind].update(part.strip() for part in detail.split(",") if part.strip() and part.strip() != "none")
    found = []
    for kind, count in players.items():
        won, lost, drawn = record[kind]["win"], record[kind]["loss"], record[kind]["draw"]
        played = won + lost + drawn
        rate = (won + drawn / 2) / played if played else None
        top = [name for name, _ in sorted(details[kind].items(), key=lambda item: (-item[1], item[0]))[:5]]
        found.append(DeckKind(kind, count, cut[kind], won, lost, drawn, rate, top))
    return sorted(found, key=lambda k: (-k.players, k.kind))
