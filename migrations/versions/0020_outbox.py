"""Messages (issue 36, T-220): subscriptions to an event's news, and the transactional outbox.

`subscriptions`: a player's e-mail address or Web Push subscription for one event. `outbox`: each message
to deliver, written in the transaction of the change that causes it, sent at least once by a sender.
Both new tables: an older database keeps every row it has.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07 12:45:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0020'
down_revision = '0019'  # 0015 as assigned; relinked to the head of main (0019_passkeys) when main was merged in
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'subscriptions',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('event_id', sa.String(length=64), nullable=False),
        sa.Column('player', sa.String(length=64), nullable=False),
        sa.Column('channel', sa.String(length=8), nullable=False),
        sa.Column('address', sa.String(length=1000), nullable=False),
        sa.Column('p256dh', sa.String(length=128), nullable=True),
        sa.Column('auth', sa.String(length=64), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_subscriptions_event_id_events')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_subscriptions')),
    )
    op.create_index('ix_subscriptions_event_id_player', 'subscriptions', ['event_id', 'player'])
    op.create_table(
        'outbox',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('event_id', sa.String(length=64), nullable=False),
        sa.Column('player', sa.String(length=64), nullable=False),
        sa.Column('subscription', sa.Integer(), nullable=True),
        sa.Column('channel', sa.String(length=8), nullable=False),
        sa.Column('kind', sa.String(length=24), nullable=False),
        sa.Column('facts', sa.LargeBinary(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('due_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('attempts', sa.Integer(), server_default='0', nullable=False),
        sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('failed', sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_outbox_event_id_events')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox')),
    )
    op.create_index('ix_outbox_sent_at_due_at', 'outbox', ['sent_at', 'due_at'])


def downgrade() -> None:
    op.drop_index('ix_outbox_sent_at_due_at', table_name='outbox')
    op.drop_table('outbox')
    op.drop_index('ix_subscriptions_event_id_player', table_name='subscriptions')
    op.drop_table('subscriptions')
