"""Seasons across events, and entry fees paid at the desk (issue 36).

A `seasons` table (a series of events of one game, with the rule its standings go by) and `season_events`
(which events are in it): not any one event's history, like `people`. Events get their entry fee and its
currency, players what they paid and how; both are projections of the event log (`fee_set`, `fee_paid`,
`fee_undone`), NULL for every event and player written before, whose logs have no such entry.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07 13:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('seasons',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('ruleset', sa.String(length=64), nullable=False),
    sa.Column('win', sa.Integer(), nullable=False),
    sa.Column('draw', sa.Integer(), nullable=False),
    sa.Column('loss', sa.Integer(), nullable=False),
    sa.Column('attend', sa.Integer(), nullable=False),
    sa.Column('best', sa.Integer(), nullable=True),
    sa.Column('tiebreakers', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seasons'))
    )
    op.create_table('season_events',
    sa.Column('season', sa.String(length=64), nullable=False),
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_season_events_event_id_events')),
    sa.ForeignKeyConstraint(['season'], ['seasons.id'], name=op.f('fk_season_events_season_seasons')),
    sa.PrimaryKeyConstraint('season', 'event_id', name=op.f('pk_season_events'))
    )
    # recreate='never': SQLite adds a nullable column in place; copying events would trip the foreign keys of the
    # rows that reference it (as in 0011).
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.add_column(sa.Column('fee_currency', sa.String(length=3), nullable=True))
        batch.add_column(sa.Column('fee', sa.Integer(), nullable=True))
    with op.batch_alter_table('players', recreate='never') as batch:
        batch.add_column(sa.Column('paid', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('paid_by', sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('players', recreate='never') as batch:
        batch.drop_column('paid_by')
        batch.drop_column('paid')
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.drop_column('fee')
        batch.drop_column('fee_currency')
    op.drop_table('season_events')
    op.drop_table('seasons')
