"""Game fingerprints of scheme 3 (issue 33, T-148): the stored fingerprints of scheme 2 go.

Scheme 3 takes four more record lists in one order, because their games' rules read them as sets (maginot
`attack.units` MG-R3, crossover `attack.targets` XO-R4, stccg-multiplayer `seed_dilemmas.cards` SG-4.7 and
`play.personnel` SG-7.11), so a game with such a list in another order is the same game. A fingerprint of
scheme 2 says nothing about one of scheme 3: as 0009 did for scheme 1, the tables drop them (NULL) and the
duplicate check reads such a log and takes its fingerprint anew. The event log keeps each entry's fingerprint
as it was written; the projection keeps only the current scheme's, so `verify` rebuilds these NULLs.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07 09:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    for name in ('game_logs', 'pods'):
        table = sa.table(name, sa.column('fingerprint', sa.String(64)))
        op.execute(table.update().values(fingerprint=None))


def downgrade() -> None:
    # Nothing to undo in the schema: the older code reads a log stored without a fingerprint (see 0009).
    pass
