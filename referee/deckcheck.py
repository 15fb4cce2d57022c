"""A game's decks against the lists their players registered: what a tournament asks of every game log.

Pure: the log's header and the registered lists' bytes in, each player's
differences out (`referee.decks.differences`, card by card). The tournament
stores the lists and decides what a difference costs.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.decks import DeckMalformed, differences, read
from referee.engine import read_header
from referee.linecheck import Malformed
from referee.logio import strip_ending
from schemas.deck import Difference


def game_differences(log: bytes, registered: Mapping[str, bytes]) -> dict[str, list[Difference]]:
    """Each player of the game `log` whose deck is not their `registered` list (player -> list bytes), with the
    differences; players without a list, and games whose deck is fixed, are not compared. A log whose header
    cannot be read, or a list that cannot, raises ValueError (the referee refuses such a log before this)."""
    try:
        header, ruleset, setup = read_header(strip_ending(log.split(b"\n", 1)[0]))
    except Malformed as exc:
        raise ValueError(f"the log's header cannot be read: {exc.message}") from None
    rules = ruleset.deck_rules()
    if rules is None:
        return {}
    found: dict[str, list[Difference]] = {}
    for player in header.players:
        if player not in registered:
            continue
        try:
            listed = read(registered[player], rules)
        except DeckMalformed as exc:
            raise ValueError(f"{player}'s registered list cannot be read: {exc.message}") from None
        try:
            played = rules.deck_of(setup, player)
        except KeyError:
            found[player] = [Difference("(the whole deck)", "missing", f"the game gives {player} no deck")]
            continue
        if changed := differences(rules, listed, played):
            found[player] = changed
    return found
