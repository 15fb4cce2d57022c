"""Standard playing cards on the wire: rank then suit (`10H`, `QS`), jokers `JK1` and `JK2` (docs/referee.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

# On the wire a card or suit is one of a closed set, so a typo is "malformed" with its field
# named; game code handles them as plain strings, which is what the type checker is shown.
if TYPE_CHECKING:
    Suit = str
    Card = str
else:
    Suit = Literal["S", "H", "D", "C"]
    Card = Literal[
        "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS",
        "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH",
        "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD",
        "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC",
        "JK1", "JK2",
    ]  # fmt: skip
