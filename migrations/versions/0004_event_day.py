"""The event day (issue 10): display names, round management, the clock.

Players get a display name (existing players: their id), a rating, a pause
flag and a pre-assigned bye; events a late-entry rule (existing events keep
the one they were run with: missed rounds not counted); rounds a clock;
matches and pods a judge's time extensions; and the pre-assigned byes granted
in each round get a table.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 11:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('events') as batch:
        batch.add_column(sa.Column('late_entry', sa.String(length=8), server_default='none', nullable=False))
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('display_name', sa.String(length=100), server_default='', nullable=False))
        batch.add_column(sa.Column('rating', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('paused', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch.add_column(sa.Column('bye_round', sa.Integer(), nullable=True))
    op.execute("UPDATE players SET display_name = name")  # a player registered by id is shown by it
    with op.batch_alter_table('rounds') as batch:
        batch.add_column(sa.Column('started_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('minutes', sa.Integer(), nullable=True))
    for table in ('matches', 'pods'):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column('extra_minutes', sa.Integer(), server_default='0', nullable=False))
    op.create_table('round_byes',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('player', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['event_id', 'round'], ['rounds.event_id', 'rounds.number'], name=op.f('fk_round_byes_event_id_rounds')),
    sa.PrimaryKeyConstraint('event_id', 'round', 'player', name=op.f('pk_round_byes'))
    )


def downgrade() -> None:
    # recreate='never': SQLite (3.35+) drops a column in place; copying a table would trip the
    # foreign keys of the rows that reference it.
    op.drop_table('round_byes')
    for table in ('pods', 'matches'):
        with op.batch_alter_table(table, recreate='never') as batch:
            batch.drop_column('extra_minutes')
    with op.batch_alter_table('rounds', recreate='never') as batch:
        batch.drop_column('minutes')
        batch.drop_column('started_at')
    with op.batch_alter_table('players', recreate='never') as batch:
        batch.drop_column('bye_round')
        batch.drop_column('paused')
        batch.drop_column('rating')
        batch.drop_column('display_name')
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.drop_column('late_entry')
