"""The rules of the formats, as pure functions of plain values: no database, no session, no I/O.

`pairing` (Swiss pairing as a minimum-cost matching), `pods` (multi-player
tables) with `podsolver` (CP-SAT for the fewest repeat meetings), `brackets`
(single and double elimination, round robins) and `standings` (tiebreakers).
May import `schemas` and `referee`, nothing else of `tournament`.
"""
