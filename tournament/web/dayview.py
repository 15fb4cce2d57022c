"""What the organiser's page needs for the day's forms (web/running.py): the round's tables with their
scores as typed, the players with their state, and what the event may do next."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from referee.rulesets import ids as ruleset_ids
from tournament import service
from tournament.service import export
from tournament.storage.models import Event

PROFILES = ("mtg", "pokemon", "chess")


def new_event_context() -> dict[str, Any]:
    """The choices of the new-event form: `tournament create`'s."""
    return {"rulesets": ruleset_ids(), "formats": service.FORMATS, "profiles": PROFILES, "tables": service.TABLES}


def score_text(row: Any) -> str:
    """A reported table's result as a scorekeeper types it: `2-1` (the first player's games first, then drawn
    games), a pod's places in seat order `1-3-2-4`; empty without a result."""
    if row.places is not None:
        return "-".join(str(row.places[p]) for p in row.players)
    if row.games is None or len(row.players) != 2:
        return ""
    a, b = row.players
    return f"{row.games[a]}-{row.games[b]}" + (f"-{row.draws}" if row.draws else "")


def day_context(session: Session, event: Event) -> dict[str, Any]:
    rows = export.round_rows(session, event, event.rounds) if event.rounds else []
    everyone, names = service.players(session, event.id), service.display_names(session, event.id)
    slips = [(r, score_text(r)) for r in rows if r.source != "bye"]
    return {
        "slips": slips, "first_open": next((r.table for r, score in slips if not score), None),
        "roster": [
            {"id": p.name, "name": names[p.name], "paused": p.paused, "dropped": p.dropped_round is not None,
             "bye": p.bye_round if p.bye_round and p.bye_round > event.rounds else None}
            for p in sorted(everyone, key=lambda p: names[p.name].casefold())
        ],
        "finished": event.finished, "cut_sizes": service.CUT_SIZES,
        "can_cut": event.format == "swiss" and event.bracket_round is None and event.rounds > 0,
        "swiss": event.format in ("swiss", "pods") and event.bracket_round is None,
    }
