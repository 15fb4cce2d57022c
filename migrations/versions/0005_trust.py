"""Standings and results organisers can trust (issue 11): events that require chained game logs, and
each stored game's fingerprint (the game itself, so one game cannot count twice as two files).

Events created before this revision did not ask for chained logs (require_chain false); game logs
reported before it have no fingerprint (NULL), and the duplicate check reads their data instead.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 11:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # recreate='never': SQLite adds a column in place; copying a table would trip the foreign keys of
    # the rows that reference it.
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.add_column(sa.Column('require_chain', sa.Boolean(), server_default=sa.false(), nullable=False))
    with op.batch_alter_table('game_logs', recreate='never') as batch:
        batch.add_column(sa.Column('fingerprint', sa.String(length=64), nullable=True))
    with op.batch_alter_table('pods', recreate='never') as batch:
        batch.add_column(sa.Column('fingerprint', sa.String(length=64), nullable=True))


def downgrade() -> None:
    # recreate='never': SQLite (3.35+) drops a column in place; copying a table would trip the
    # foreign keys of the rows that reference it.
    with op.batch_alter_table('pods', recreate='never') as batch:
        batch.drop_column('fingerprint')
    with op.batch_alter_table('game_logs', recreate='never') as batch:
        batch.drop_column('fingerprint')
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.drop_column('require_chain')
