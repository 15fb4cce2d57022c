"""People across events in words: a table from a person's side, a rating, the rating systems' names."""

from __future__ import annotations

from schemas.tournament import PersonMatch, RatingRow

SYSTEMS = {"glicko2": "two players a table (Glicko-2)", "openskill": "pods (OpenSkill)"}


def rating_text(r: RatingRow) -> str:
    """`1436 ± 231` (Glicko-2, whole points) or `27.8 ± 8.2` (OpenSkill, a decimal)."""
    digits = 0 if r.system == "glicko2" else 1
    return f"{r.rating:.{digits}f} ± {r.deviation:.{digits}f}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def match_text(m: PersonMatch) -> str:
    """A table from the person's side, in words: `won 2-1`, `lost 0-2`, `drew 1-1-1`, `intentional draw`,
    `conceded (dropped)`, `bye`, `1st of 4`, `shared 1st of 4`, or `playing` before a result."""
    if m.outcome == "bye":
        return "bye"
    if m.outcome is None:
        return "playing"
    if m.place is not None:
        return f"{'shared ' if m.outcome == 'draw' else ''}{ordinal(m.place)} of {m.seats}"
    assert m.games is not None
    if m.games == [0, 0] and not m.draws:
        return "intentional draw"
    score = f"{m.games[0]}-{m.games[1]}" + (f"-{m.draws}" if m.draws else "")
    verb = {"win": "won", "loss": "lost", "draw": "drew"}[m.outcome]
    return f"{verb} {score}" + (" (a drop)" if m.source == "drop" else "")
