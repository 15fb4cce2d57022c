"""Swiss pods: table size and placement points per event, and the pods with their seats.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 03:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('events') as batch:
        batch.add_column(sa.Column('table_size', sa.Integer(), server_default='2', nullable=False))
        batch.add_column(sa.Column('points', sa.String(length=64), server_default='3,1', nullable=False))
    op.create_table('pods',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('source', sa.String(length=16), nullable=True),
    sa.Column('reason', sa.String(length=500), nullable=True),
    sa.Column('reported_seq', sa.Integer(), nullable=True),
    sa.Column('sha256', sa.String(length=64), nullable=True),
    sa.Column('log', sa.LargeBinary(), nullable=True),
    sa.ForeignKeyConstraint(['event_id', 'round'], ['rounds.event_id', 'rounds.number'], name=op.f('fk_pods_event_id_rounds')),
    sa.PrimaryKeyConstraint('event_id', 'round', 'number', name=op.f('pk_pods'))
    )
    op.create_table('pod_seats',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player', sa.String(length=64), nullable=False),
    sa.Column('place', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['event_id', 'round', 'table'], ['pods.event_id', 'pods.round', 'pods.number'], name=op.f('fk_pod_seats_event_id_pods')),
    sa.PrimaryKeyConstraint('event_id', 'round', 'table', 'seat', name=op.f('pk_pod_seats'))
    )


def downgrade() -> None:
    # recreate='never': SQLite (3.35+) drops a column in place; copying `events` would trip the
    # foreign keys of the rows that reference it.
    op.drop_table('pod_seats')
    op.drop_table('pods')
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.drop_column('points')
        batch.drop_column('table_size')
