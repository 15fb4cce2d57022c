"""Player and event ids are matched whole: a final newline is not part of a valid id."""

from __future__ import annotations

import pytest

from tournament import service


@pytest.mark.parametrize("value", ["ann\n", "ann\n\n", "\nann", "a" * 65, ""])
def test_check_id_refuses_what_is_not_an_id(value: str) -> None:
    with pytest.raises(service.Usage):
        service.check_id("player", value)


def test_check_id_takes_an_id() -> None:
    assert service.check_id("player", "ann.b-2_x") == "ann.b-2_x"

