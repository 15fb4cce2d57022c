"""Bots: play whole legal games by drawing every record from the ruleset's legal ones.

The referee holds no random number generator of its own; a bot game's chance
records are drawn here, from a generator seeded by the caller, so a seed
always gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import msgspec

from referee.ruleset import CHANCE, JUDGE
from referee.rulesets import get as get_ruleset
from schemas.log import LOG_FORMAT, Header, Record, Time

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")


def bot_header(ruleset_id: str, seed: int, players: int | None = None) -> Header:
    """The header of a bot game: built-in players and the ruleset's default setup for `seed`."""
    ruleset = get_ruleset(ruleset_id)
    count = players or ruleset.min_players
    if not ruleset.min_players <= count <= ruleset.max_players:
        raise ValueError(f"{ruleset_id} is for {ruleset.min_players} to {ruleset.max_players} players, not {count}")
    names = list(NAMES[:count])
    setup = ruleset.default_setup(names, random.Random(f"{ruleset_id}/{seed}/setup"))
    return Header(
        log=LOG_FORMAT,
        ruleset=ruleset_id,
        game=f"{ruleset_id}-seed{seed}",
        players=names,
        setup=msgspec.Raw(msgspec.json.encode(setup)),
    )


def play(header: Header, seed: int) -> Iterator[Record]:
    """The records of a whole game from `header`, every one drawn from `legal` and applied."""
    from referee.logio import setup_decoder

    ruleset = get_ruleset(header.ruleset)
    state = ruleset.start(header, setup_decoder(header.ruleset).decode(header.setup))
    rng = random.Random(f"{header.ruleset}/{seed}/play")
    while ruleset.result(state) is None:
        if ruleset.turn_limit(state):
            record: Record = Time(by=JUDGE)
        else:
            record = ruleset.sample(state, rng)
        ruleset.apply(state, record)
        yield record


__all__ = ["CHANCE", "bot_header", "play"]
