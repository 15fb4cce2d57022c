"""The games the referee knows: one package per game, each exposing `RULESET`.

A package's name is its ruleset id with `-` written `_` (`basictcg-mtg` lives
in `basictcg_mtg`). Adding a game is adding a package here; nothing else
changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from referee.ruleset import Ruleset


@cache
def ids() -> tuple[str, ...]:
    """Every ruleset id, sorted (the packages do not change while the process runs)."""
    return tuple(sorted(m.name.replace("_", "-") for m in pkgutil.iter_modules(__path__) if m.ispkg))


@cache
def get(ruleset_id: str) -> Ruleset:
    """The ruleset called `ruleset_id`; KeyError when there is none."""
    if ruleset_id not in ids():
        raise KeyError(ruleset_id)
    module = importlib.import_module(f"{__name__}.{ruleset_id.replace('-', '_')}")
    ruleset: Ruleset = module.RULESET
    return ruleset
