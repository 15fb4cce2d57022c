"""Live tables (issue 24): the event's table mode, and each game being played, line by line.

`events.tables` is `off` for every event made before (they report results as
they always did); `live_games`, `live_lines` and `live_witness` hold the games
being played at live tables (tournament/service/tables.py).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28 14:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None

_GAME = ('event_id', 'round', 'table', 'game')


def _game_columns() -> list[sa.Column]:
    return [
        sa.Column('event_id', sa.String(length=64), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('table', sa.Integer(), nullable=False),
        sa.Column('game', sa.Integer(), nullable=False),
    ]


def upgrade() -> None:
    # recreate='never': SQLite adds a column in place (see 0011)
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.add_column(sa.Column('tables', sa.String(length=8), server_default='off', nullable=False))
    op.create_table('live_games',
    *_game_columns(),
    sa.Column('mode', sa.String(length=8), nullable=False),
    sa.Column('seed', sa.String(length=64), nullable=True),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('head', sa.String(length=64), nullable=False),
    sa.Column('over', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('reported', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('bots', sa.String(length=200), server_default='', nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_live_games_event_id_events')),
    sa.PrimaryKeyConstraint(*_GAME, name=op.f('pk_live_games'))
    )
    op.create_table('live_lines',
    *_game_columns(),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('line', sa.LargeBinary(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(list(_GAME), [f'live_games.{c}' for c in _GAME], name=op.f('fk_live_lines_event_id_live_games')),
    sa.PrimaryKeyConstraint(*_GAME, 'seq', name=op.f('pk_live_lines'))
    )
    op.create_table('live_witness',
    *_game_columns(),
    sa.Column('player', sa.String(length=64), nullable=False),
    sa.Column('seen', sa.Integer(), nullable=False),
    sa.Column('confirmed', sa.String(length=64), nullable=True),
    sa.ForeignKeyConstraint(list(_GAME), [f'live_games.{c}' for c in _GAME], name=op.f('fk_live_witness_event_id_live_games')),
    sa.PrimaryKeyConstraint(*_GAME, 'player', name=op.f('pk_live_witness'))
    )


def downgrade() -> None:
    op.drop_table('live_witness')
    op.drop_table('live_lines')
    op.drop_table('live_games')
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.drop_column('tables')
