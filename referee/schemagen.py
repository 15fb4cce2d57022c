"""JSON Schema files generated from the Structs in `schemas/`."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Union

import msgspec

import schemas
from referee.outfile import write_file
from referee.rulesets import get as get_ruleset
from referee.rulesets import ids as ruleset_ids
from schemas.deck import DeckVerdict
from schemas.log import SHARED_RECORDS, Header
from schemas.tournament import Export, PersonInfo, PersonRow, RatingRow, RoundInfo, StandingRow
from schemas.verdict import Verdict

SCHEMA_DIR = Path(schemas.__file__).parent / "json"


def _render(schema: dict[str, Any]) -> bytes:
    return msgspec.json.format(msgspec.json.encode(schema), indent=2) + b"\n"


def schema_files() -> dict[str, bytes]:
    """File name -> contents: the header, the verdicts, the tournament exports, each ruleset's setup, records and deck."""
    files = {
        "header.schema.json": _render(msgspec.json.schema(Header)),
        "verdict.schema.json": _render(msgspec.json.schema(Verdict)),
        "deck-verdict.schema.json": _render(msgspec.json.schema(DeckVerdict)),
        "tournament-export.schema.json": _render(msgspec.json.schema(Export)),
        "tournament-standings.schema.json": _render(msgspec.json.schema(list[StandingRow])),
        "tournament-pairings.schema.json": _render(msgspec.json.schema(RoundInfo)),
        "tournament-people.schema.json": _render(msgspec.json.schema(list[PersonRow])),
        "tournament-person.schema.json": _render(msgspec.json.schema(PersonInfo)),
        "tournament-ratings.schema.json": _render(msgspec.json.schema(list[RatingRow])),
    }
    for ruleset_id in ruleset_ids():
        ruleset = get_ruleset(ruleset_id)
        records = (*ruleset.records, *SHARED_RECORDS)
        files[f"{ruleset_id}.setup.schema.json"] = _render(msgspec.json.schema(ruleset.setup_type))
        files[f"{ruleset_id}.records.schema.json"] = _render(msgspec.json.schema(Union[records]))  # noqa: UP007
        if (rules := ruleset.deck_rules()) is not None:
            files[f"{ruleset_id}.deck.schema.json"] = _render(msgspec.json.schema(rules.deck_type))
    return files


def stale_files(directory: Path = SCHEMA_DIR) -> list[str]:
    """Names of schema files that are missing, different, or no longer generated."""
    files = schema_files()
    stale = [n for n, data in files.items() if not (directory / n).exists() or (directory / n).read_bytes() != data]
    stale += [p.name for p in directory.glob("*.schema.json") if p.name not in files]
    return sorted(stale)


def write_schemas(directory: Path = SCHEMA_DIR) -> list[str]:
    """Write every schema file (removing ones no longer generated); return the names written."""
    directory.mkdir(parents=True, exist_ok=True)
    files = schema_files()
    for old in directory.glob("*.schema.json"):
        if old.name not in files:
            old.unlink()
    for name, data in files.items():
        write_file(directory / name, data)
    return sorted(files)
