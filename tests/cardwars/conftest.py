"""The shared cardwars board as a fixture."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cardwars.cwlog import BOARD


@pytest.fixture
def board() -> list[dict[str, Any]]:
    return list(BOARD)
