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
