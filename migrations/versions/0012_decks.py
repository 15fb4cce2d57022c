"""Deck lists (issue 25): players' registered lists, the game logs refused for a deck that differs, and each
event's deck policy, deadline and publication.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 14:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # recreate='never': SQLite adds a column in place (copying events would trip the foreign keys that reference it).
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.add_column(sa.Column('decks_policy', sa.String(length=16), nullable=True))
        batch.add_column(sa.Column('decks_deadline', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('decks_published', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table('deck_lists',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('player', sa.String(length=64), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('verdict', sa.String(length=16), nullable=False),
    sa.Column('summary', sa.Text(), nullable=False),
    sa.Column('facets', sa.LargeBinary(), nullable=False),
    sa.Column('problems', sa.LargeBinary(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('reason', sa.String(length=500), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_deck_lists_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', 'player', name=op.f('pk_deck_lists'))
    )
    op.create_table('deck_checks',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('players', sa.Text(), nullable=False),
    sa.Column('differences', sa.LargeBinary(), nullable=False),
    sa.Column('ruled_seq', sa.Integer(), nullable=True),
    sa.Column('ruling', sa.String(length=500), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_deck_checks_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', 'seq', name=op.f('pk_deck_checks'))
    )


def downgrade() -> None:
    # An event's deck entries stay in its log; the older code cannot read them (`verify` names them), as for 0011.
    op.drop_table('deck_checks')
    op.drop_table('deck_lists')
    with op.batch_alter_table('events', recreate='never') as batch:
        for name in ('decks_published', 'decks_deadline', 'decks_policy'):
            batch.drop_column(name)
