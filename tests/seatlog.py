"""Helpers for the tests of what each seat may see: a bot game walked record by record, and JSON text."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import msgspec

from referee.bots import bot_header, play
from referee.logio import setup_decoder
from referee.ruleset import Ruleset
from referee.rulesets import get as get_ruleset
from schemas.log import Record


def dump(value: Any) -> str:
    """JSON text, as a payload would carry it."""
    return msgspec.json.encode(value).decode()


def walk(ruleset_id: str, players: int, seed: int = 3) -> Iterator[tuple[Ruleset, Any, list[Record], dict[str, Any]]]:
    """A bot game, yielding (ruleset, state, records so far, setup as data) after each record."""
    header = bot_header(ruleset_id, seed, players)
    ruleset = get_ruleset(ruleset_id)
    state = ruleset.start(header, setup_decoder(ruleset_id).decode(header.setup))
    setup = msgspec.json.decode(header.setup)
    records: list[Record] = []
    for seq, record in enumerate(play(header, seed), start=1):
        record = msgspec.structs.replace(record, seq=seq)
        ruleset.apply(state, record)
        records.append(record)
        yield ruleset, state, records, setup


def seen(ruleset: Ruleset, state: Any, record: Record, seat: Any) -> str:
    """What `seat` is sent once `record` is applied to a copy of `state`: the state's view and the record's."""
    after = copy.deepcopy(state)
    ruleset.apply(after, record)
    return dump([ruleset.seat_view(after, seat), ruleset.record_view(record, seat, after)])


def other(state: Any, player: str) -> str:
    """A player of the game other than `player`."""
    return next(p for p in state.players if p != player)
