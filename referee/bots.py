"""Bots: play whole legal games by drawing every record from the ruleset's legal ones.

The referee holds no random number generator of its own; a bot game's chance
records are drawn here, from a generator seeded by the caller, so a seed
always gives the same game. A dealt bot game (`deal`: a secret seed) takes
every chance record from the dealer instead (referee/dealing.py), and ends
with the seed's reveal.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import msgspec

from referee import dealing
from referee.ruleset import CHANCE, JUDGE
from referee.rulesets import get as get_ruleset
from schemas.log import LOG_FORMAT, Header, Record, Time

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")


def bot_header(
    ruleset_id: str, seed: int, players: int | None = None, deal: str | None = None, names: list[str] | None = None
) -> Header:
    """The header of a bot game: `names` in seat order (default: built-in players, as many as `players`) and the
    ruleset's default setup for `seed`; committed to the dealing seed `deal` if given."""
    ruleset = get_ruleset(ruleset_id)
    count = len(names) if names else players or ruleset.min_players
    if not ruleset.min_players <= count <= ruleset.max_players:
        allowed = (
            str(ruleset.min_players) if ruleset.min_players == ruleset.max_players
            else f"{ruleset.min_players} to {ruleset.max_players}"
        )
        raise ValueError(f"{ruleset_id} is for {allowed} players, not {count}")
    names = list(names or NAMES[:count])
    setup = ruleset.default_setup(names, random.Random(f"{ruleset_id}/{seed}/setup"))
    return Header(
        log=LOG_FORMAT,
        ruleset=ruleset_id,
        game=f"{ruleset_id}-seed{seed}",
        players=names,
        setup=msgspec.Raw(msgspec.json.encode(setup)),
        deal=dealing.header_deal(deal) if deal is not None else None,
    )


def play(header: Header, seed: int, deal: str | None = None) -> Iterator[Record]:
    """The records of a whole game from `header`, every one drawn from `legal` and applied; with `deal` (the
    seed `header.deal` commits to), every chance record is the dealer's, and the reveal ends the log."""
    from referee.logio import setup_decoder

    ruleset = get_ruleset(header.ruleset)
    state = ruleset.start(header, setup_decoder(header.ruleset).decode(header.setup))
    rng = random.Random(f"{header.ruleset}/{seed}/play")
    seq = 0
    while ruleset.result(state) is None:
        seq += 1
        if ruleset.turn_limit(state):
            record: Record = Time(by=JUDGE)
        else:
            record = ruleset.sample(state, rng)
            if deal is not None and record.by == CHANCE:  # the bot chose to draw; the dealer says what comes
                record = dealing.deal(ruleset, state, deal, seq, record)
        ruleset.apply(state, record)
        yield record
    if deal is not None:
        yield dealing.reveal(deal)


__all__ = ["CHANCE", "bot_header", "play"]
