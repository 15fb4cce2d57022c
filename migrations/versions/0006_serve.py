"""The web service (issue 12): players' claims (projected from the log), sign-in credentials, failed guesses, server secrets.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 11:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('claims',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('player', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('key', sa.Text(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('confirms', sa.String(length=64), nullable=True),
    sa.Column('last_lines', sa.Text(), server_default='', nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['event_id', 'round'], ['rounds.event_id', 'rounds.number'], name=op.f('fk_claims_event_id_rounds')),
    sa.PrimaryKeyConstraint('event_id', 'round', 'table', 'player', name=op.f('pk_claims'))
    )
    op.create_table('credentials',
    sa.Column('selector', sa.String(length=32), nullable=False),
    sa.Column('kind', sa.String(length=24), nullable=False),
    sa.Column('event_id', sa.String(length=64), nullable=True),
    sa.Column('player', sa.String(length=64), nullable=True),
    sa.Column('hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_credentials_event_id_events')),
    sa.PrimaryKeyConstraint('selector', name=op.f('pk_credentials'))
    )
    op.create_table('failed_guesses',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('client', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_failed_guesses'))
    )
    op.create_index(op.f('ix_failed_guesses_client'), 'failed_guesses', ['client'], unique=False)
    op.create_table('server_secrets',
    sa.Column('name', sa.String(length=32), nullable=False),
    sa.Column('value', sa.String(length=128), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_server_secrets'))
    )


def downgrade() -> None:
    op.drop_table('server_secrets')
    op.drop_index(op.f('ix_failed_guesses_client'), table_name='failed_guesses')
    op.drop_table('failed_guesses')
    op.drop_table('credentials')
    op.drop_table('claims')
