"""Brackets and round robins: an event's format, where its bracket starts, and each player's seed.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 03:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('events') as batch:
        # Events created before this migration are Swiss.
        batch.add_column(sa.Column('format', sa.String(length=16), server_default='swiss', nullable=False))
        batch.add_column(sa.Column('bracket_round', sa.Integer(), nullable=True))
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('seed', sa.Integer(), nullable=True))


def downgrade() -> None:
    # recreate='never': SQLite (3.35+) drops a column in place; copying `events` would trip the
    # foreign keys of the rows that reference it.
    with op.batch_alter_table('players', recreate='never') as batch:
        batch.drop_column('seed')
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.drop_column('bracket_round')
        batch.drop_column('format')
