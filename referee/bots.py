"""Bots: play whole legal games by drawing every record from the ruleset's legal ones.

The referee holds no random number generator of its own; a bot game's chance
records are drawn here, from a generator seeded by the caller, so a seed
always gives the same game. A dealt bot game (`deal`: a secret seed) takes
every chance record from the dealer instead (referee/dealing.py), and ends
with the seed's reveal.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from referee import dealing
from referee.ruleset import CHANCE, JUDGE, Ruleset
from referee.rulesets import get as get_ruleset
from schemas.log import LOG_FORMAT, Header, Record, Reveal, Time

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


def _start(header: Header) -> tuple[Ruleset, Any]:
    from referee.logio import setup_decoder

    ruleset = get_ruleset(header.ruleset)
    return ruleset, ruleset.start(header, setup_decoder(header.ruleset).decode(header.setup))


def unnamed(header: Header, records: Iterable[Record]) -> Iterator[Record]:
    """`records`, a game from `header` whose draws are named, as a paper table records it: every draw the game
    lets stay unnamed without its card (`Ruleset.unname`), every other record as it is."""
    ruleset, state = _start(header)
    for record in records:
        yield ruleset.unname(state, record) if record.by == CHANCE else record
        if type(record) is not Reveal:
            ruleset.apply(state, record)


def play(header: Header, seed: int, deal: str | None = None) -> Iterator[Record]:
    """The records of a whole game from `header`, every one drawn from `legal` and applied; with `deal` (the
    seed `header.deal` commits to), every chance record is the dealer's, and the reveal ends the log."""
    ruleset, state = _start(header)
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


__all__ = ["CHANCE", "bot_header", "play", "unnamed"]
