"""Entry fees as numbers and words: the ranges an amount and a currency must be in, and an amount for people.

An amount is whole minor units of its currency (cents: 500 EUR is 5.00 EUR), so no float ever holds money.
How many decimals a currency has is ISO 4217's; the currencies listed here are those with other than two.
"""

from __future__ import annotations

import re

AMOUNT_RANGE = (0, 1_000_000)  # a fee (0: free entry); 1,000,000 cents is 10,000.00, far above any entry fee
METHODS = ("cash", "card")
CURRENCY = re.compile(r"[A-Z]{3}")  # ISO 4217's shape: three capital letters
_DECIMALS = {
    **dict.fromkeys(["BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF"], 0),
    **dict.fromkeys(["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"], 3),
}


def money(amount: int, currency: str) -> str:
    """`1250, "EUR"` -> "12.50 EUR"; `500, "JPY"` -> "500 JPY"."""
    places = _DECIMALS.get(currency, 2)
    whole, part = divmod(amount, 10**places)
    return f"{whole}.{part:0{places}d} {currency}" if places else f"{whole} {currency}"
