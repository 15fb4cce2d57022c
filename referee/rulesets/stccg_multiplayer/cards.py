"""The cards the seed text names (RULES.md SG-1.5, SG-4.4, SG-4.5, SG-7), recognised by exact name."""

THE_SPACE = "The Space"
ALIEN_PROBE = "Alien Probe"
BORG_OUTPOST = "Borg Outpost"
BORG_SHIP = "Borg Ship"
DIAL_MARTOK = "Dial Martok for Murder"
PLASMA_FIRE = "Plasma Fire"
ROGUE_BORG = "Rogue Borg Mercenaries"
GATEWAY = "Transwarp Network Gateway"
ONE_TARGET = ("Static Warp Bubble", "Telepathic Alien Kidnappers")
OPPOSITE_MOVERS = ("Where No One Has Gone Before", "Lakanta")
INSERTED = ("Bajoran Wormhole", "Gaps in Normal Space", "Q's Planet")
Q = "Q"

# Every card the seed text names. The referee knows what kind each is, so a
# record that needs another kind (a ship, an inserted location, a card that
# moves ships) is refused for these; any other name is taken on trust (SG-9).
NAMED = frozenset({
    THE_SPACE, ALIEN_PROBE, BORG_OUTPOST, BORG_SHIP, DIAL_MARTOK, PLASMA_FIRE, ROGUE_BORG, GATEWAY, Q,
    *ONE_TARGET, *OPPOSITE_MOVERS, *INSERTED,
})  # fmt: skip
