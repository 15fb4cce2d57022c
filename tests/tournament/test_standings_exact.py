"""The standings' whole-number arithmetic gives the same values and order as exact fractions, on random events.

`tournament.standings` averages and ranks with integers over a shared
denominator (for speed at 10,000 players). `reference` below is the same
rules written plainly with `Fraction` for every value (the module as it was
before): on any event both must give identical tiebreakers (as floats), points
and order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction as F
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats.standings import PROFILES, Match, standings

FLOOR_MTG, FLOOR_POKEMON, CAP_DROPPED = F(33, 100), F(1, 4), F(3, 4)
VALUE = {"mtg": {"W": F(3), "D": F(1), "L": F(0)}, "pokemon": {"W": F(3), "D": F(1), "L": F(0)}, "chess": {"W": F(1), "D": F(1, 2), "L": F(0)}}


def reference(
    players: Sequence[str], matches: Sequence[Match], profile: str, dropped: Mapping[str, int], joined: Mapping[str, int], rounds: int | None
) -> list[tuple[str, Any, dict[str, float]]]:
    """(player, points, tiebreakers) in rank order, every value a Fraction until it is shown."""
    value = VALUE[profile]
    rec: dict[str, dict[str, Any]] = {}

    def record(p: str) -> dict[str, Any]:
        return rec.setdefault(p, {"points": F(0), "gp": 0, "games": 0, "rounds": 0, "wins": 0, "draws": 0, "byes": 0, "vs": [], "slots": {}})

    for p in players:
        record(p)
    for m in matches:
        counted = [p for p in m.players if m.round <= dropped.get(p, m.round)]
        for p in counted:
            r = record(p)
            r["rounds"] += 1
            if len(m.players) == 1:
                r["byes"] += 1
                r["wins"] += 1
                r["points"] += value["W"]
                r["gp"] += 6
                r["games"] += 2
                r["slots"][m.round] = ("W", None, "bye")
                continue
            (other,) = (q for q in m.players if q != p)
            mine, theirs = m.games.get(p, 0), m.games.get(other, 0)
            scored = "W" if mine > theirs else "L" if mine < theirs else "D"
            r["points"] += value[scored]
            r["wins"] += scored == "W"
            r["draws"] += scored == "D"
            r["gp"] += 3 * mine + m.draws
            r["games"] += mine + theirs + m.draws
            r["vs"].append(other)
            r["slots"][m.round] = (scored, other, "game" if m.played and len(counted) == 2 else "forfeit")
    missed = {p: max(0, first - 1) for p, first in joined.items()}
    last = max((m.round for m in matches), default=0) if rounds is None else rounds
    left_early = {p for p, gone in dropped.items() if gone < last}  # the Pokémon 75% cap (T-50)

    def average(values: list[F]) -> F:
        return sum(values, F(0)) / len(values) if values else F(0)

    def match_win(p: str) -> F:
        counted = rec[p]["rounds"] + missed.get(p, 0)
        return max(FLOOR_MTG, rec[p]["points"] / (3 * counted)) if counted else FLOOR_MTG

    def game_win(p: str) -> F:
        return max(FLOOR_MTG, F(rec[p]["gp"], 3 * rec[p]["games"])) if rec[p]["games"] else FLOOR_MTG

    def pokemon_win(p: str) -> F:
        r = rec[p]
        counted = r["rounds"] - r["byes"] + missed.get(p, 0)
        share = max(FLOOR_POKEMON, (r["wins"] - r["byes"] + F(1, 2) * r["draws"]) / counted) if counted else FLOOR_POKEMON
        return min(share, CAP_DROPPED) if p in left_early else share

    def owp(p: str) -> F:
        return average([pokemon_win(o) for o in rec[p]["vs"]])

    if profile == "mtg":
        values = {p: [average([match_win(o) for o in rec[p]["vs"]]), game_win(p), average([game_win(o) for o in rec[p]["vs"]])] for p in players}
    elif profile == "pokemon":
        values = {p: [owp(p), average([owp(o) for o in rec[p]["vs"]])] for p in players}
    else:
        values = chess(rec, last)
    late = {p for p, first in joined.items() if first > 1} if profile == "pokemon" else set()  # T-51
    order = sorted(players, key=lambda p: (-rec[p]["points"], p in late, *(-v for v in values[p]), p))
    if profile == "pokemon":  # exactly two still tied: the one ahead head to head first (T-52)
        def tied_on(p: str) -> tuple[Any, ...]:
            return rec[p]["points"], p in late, tuple(values[p])

        groups = [[p for p in order if tied_on(p) == key] for key in {tied_on(p) for p in order}]
        for a, b in (group for group in groups if len(group) == 2):
            met = [slot[0] for slot in rec[a]["slots"].values() if slot[1] == b]
            if met.count("L") > met.count("W"):
                i, j = order.index(a), order.index(b)
                order[i], order[j] = b, a
    def measured(p: str, name: str, value: F) -> float | None:  # T-162: none without a game, or without an opponent
        none = (name == "gw" and not rec[p]["games"]) or (name in ("omw", "ogw", "owp", "oowp") and not rec[p]["vs"])
        return None if none else float(value)

    shown = [(p, rec[p]["points"], {n: measured(p, n, v) for n, v in zip(PROFILES[profile], values[p], strict=True)}) for p in order]
    return [(p, int(points) if points.denominator == 1 else float(points), tbs) for p, points, tbs in shown]


def chess(rec: dict[str, dict[str, Any]], rounds: int) -> dict[str, list[F]]:
    """FIDE C.07 Buchholz, cut-1 and Sonneborn-Berger with article 16's unplayed rounds, in fractions."""
    value = VALUE["chess"]
    for r in rec.values():
        for k in range(1, rounds + 1):
            r["slots"].setdefault(k, ("L", None, "absent"))

    def vur(slot: tuple[str, str | None, str]) -> bool:
        return slot[2] == "absent" or (slot[2] == "forfeit" and slot[0] == "L")

    adjusted = {}
    for p, r in rec.items():
        ordered = [r["slots"][k] for k in sorted(r["slots"])]
        tail = next((k for k in range(len(ordered), 0, -1) if not vur(ordered[k - 1])), 0)
        adjusted[p] = r["points"] + F(1, 2) * sum(1 for slot in ordered[tail:] if slot[2] == "absent")
    result = {}
    for p, r in rec.items():
        parts = []
        for slot in r["slots"].values():
            if slot[2] == "game":
                opponent = adjusted[slot[1]]
            elif slot[2] == "forfeit":
                opponent = min(r["points"], adjusted[slot[1]])
            else:
                opponent = min(r["points"], F(1, 2) * rounds)
            parts.append((opponent, value[slot[0]] * opponent, vur(slot)))
        buchholz = sum((c[0] for c in parts), F(0))
        cuttable = [c[0] for c in parts if c[2]] or [c[0] for c in parts]
        result[p] = [buchholz, buchholz - min(cuttable, default=F(0)), sum((c[1] for c in parts), F(0))]
    return result


@st.composite
def events(draw: st.DrawFn) -> dict[str, Any]:
    """A random event: byes, draws, forfeits, absences, drops, late entries, and opponents who are not ranked."""
    everyone = [f"p{k}" for k in range(draw(st.integers(2, 10)))]
    last = draw(st.integers(1, 5))
    matches = []
    for r in range(1, last + 1):
        here = draw(st.permutations(everyone))[draw(st.integers(0, 2)) :]
        if len(here) % 2:
            matches.append(Match(r, (here[-1],), {here[-1]: 2}))
        for a, b in zip(here[0:-1:2], here[1::2], strict=False):
            games = {a: draw(st.integers(0, 3)), b: draw(st.integers(0, 3))}
            matches.append(Match(r, (a, b), games, draw(st.integers(0, 2)), played=draw(st.integers(0, 5)) > 0))
    ranked = draw(st.lists(st.sampled_from(everyone), min_size=1, unique=True))
    return {
        "players": sorted(ranked),
        "matches": matches,
        "profile": draw(st.sampled_from(sorted(PROFILES))),
        # As the service calls it, only ranked players drop or join late (every entrant is ranked there).
        "dropped": draw(st.dictionaries(st.sampled_from(ranked), st.integers(1, last), max_size=3)),
        "joined": draw(st.dictionaries(st.sampled_from(ranked), st.integers(1, last + 1), max_size=3)),
        "rounds": draw(st.one_of(st.none(), st.integers(last, last + 2))),
    }


@settings(max_examples=300, deadline=None)
@given(event=events())
def test_whole_numbers_match_fractions(event: dict[str, Any]) -> None:
    got = [(s.player, s.points, s.tiebreakers) for s in standings(**event)]
    assert got == reference(**event)
