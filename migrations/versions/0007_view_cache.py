"""Cached views of read commands (issue 13, T-66): `view_cache`.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 15:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('view_cache',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('args', sa.String(length=64), nullable=False),
    sa.Column('head', sa.String(length=64), nullable=False),
    sa.Column('code', sa.String(length=64), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_view_cache_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', 'kind', 'args', name=op.f('pk_view_cache'))
    )


def downgrade() -> None:
    op.drop_table('view_cache')
