"""Initial schema: events, their log, and its projection (players, rounds, matches, game logs).

Revision ID: 0001
Revises:
Create Date: 2026-11-22 02:32:38
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('events',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('ruleset', sa.String(length=64), nullable=False),
    sa.Column('profile', sa.String(length=32), nullable=False),
    sa.Column('best_of', sa.Integer(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('last_seq', sa.Integer(), nullable=False),
    sa.Column('last_hash', sa.String(length=64), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_events'))
    )
    op.create_table('event_log',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('type', sa.String(length=32), nullable=False),
    sa.Column('payload', sa.LargeBinary(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('prev', sa.String(length=64), nullable=False),
    sa.Column('hash', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_event_log_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', 'seq', name=op.f('pk_event_log'))
    )
    op.create_table('players',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('registered_round', sa.Integer(), nullable=False),
    sa.Column('dropped_round', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_players_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', 'name', name=op.f('pk_players'))
    )
    op.create_table('rounds',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('bye', sa.String(length=64), nullable=True),
    sa.Column('cost', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_rounds_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', 'number', name=op.f('pk_rounds'))
    )
    op.create_table('matches',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('player_a', sa.String(length=64), nullable=False),
    sa.Column('player_b', sa.String(length=64), nullable=False),
    sa.Column('games_a', sa.Integer(), nullable=True),
    sa.Column('games_b', sa.Integer(), nullable=True),
    sa.Column('draws', sa.Integer(), nullable=True),
    sa.Column('source', sa.String(length=16), nullable=True),
    sa.Column('reason', sa.String(length=500), nullable=True),
    sa.Column('reported_seq', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['event_id', 'round'], ['rounds.event_id', 'rounds.number'], name=op.f('fk_matches_event_id_rounds')),
    sa.PrimaryKeyConstraint('event_id', 'round', 'number', name=op.f('pk_matches'))
    )
    op.create_table('game_logs',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('game', sa.Integer(), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('winner', sa.String(length=64), nullable=True),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['event_id', 'round', 'table'], ['matches.event_id', 'matches.round', 'matches.number'], name=op.f('fk_game_logs_event_id_matches')),
    sa.PrimaryKeyConstraint('event_id', 'round', 'table', 'game', name=op.f('pk_game_logs'))
    )


def downgrade() -> None:
    op.drop_table('game_logs')
    op.drop_table('matches')
    op.drop_table('rounds')
    op.drop_table('players')
    op.drop_table('event_log')
    op.drop_table('events')
