"""Game fingerprints from what the referee judged (issue 23, T-45): the stored fingerprints of the first scheme go.

A fingerprint is now the game the referee judges (its setup decoded, in the game's one order, and its records
as the game reads them: `referee.logio.game_fingerprint`, scheme 2), so one taken from the header's text
(scheme 1) says nothing about a new one. The tables drop those (NULL), as they are for logs reported before
0005: the duplicate check then reads such a log and takes its fingerprint anew. The event log keeps each entry's
fingerprint as it was written (an entry is never changed); the projection keeps only fingerprints of the
current scheme, so `verify` rebuilds these NULLs from the old entries.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28 06:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    for name in ('game_logs', 'pods'):
        table = sa.table(name, sa.column('fingerprint', sa.String(64)))
        op.execute(table.update().values(fingerprint=None))


def downgrade() -> None:
    # Nothing to undo in the schema. The older code's duplicate check works on the NULLs (it reads the log of a
    # row without a fingerprint), but its `verify` names those rows: its projection copies each entry's fingerprint.
    pass
