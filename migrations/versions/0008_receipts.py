"""`tournament serve` at a real event (issue 22): receipts of form and API requests, game logs' texts by hash.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24 05:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('receipts',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('owner', sa.String(length=160), nullable=False),
    sa.Column('request', sa.String(length=300), nullable=False),
    sa.Column('status', sa.Integer(), nullable=False),
    sa.Column('message', sa.Text(), nullable=False),
    sa.Column('detail', sa.LargeBinary(), nullable=True),
    sa.Column('secret', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_receipts'))
    )
    op.create_index('ix_receipts_owner_created_at', 'receipts', ['owner', 'created_at'], unique=False)
    op.create_index(op.f('ix_receipts_created_at'), 'receipts', ['created_at'], unique=False)
    op.create_table('log_texts',
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.PrimaryKeyConstraint('sha256', name=op.f('pk_log_texts'))
    )


def downgrade() -> None:
    op.drop_table('log_texts')
    op.drop_index(op.f('ix_receipts_created_at'), table_name='receipts')
    op.drop_index('ix_receipts_owner_created_at', table_name='receipts')
    op.drop_table('receipts')
