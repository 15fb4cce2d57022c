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

import json

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
    _from_the_log()
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


def _from_the_log() -> None:
    """Events written by this code, then downgraded, keep their late-entry rule and names: the log has them."""
    connection = op.get_bind()
    events, players = sa.table('events', sa.column('id'), sa.column('late_entry')), sa.table(
        'players', sa.column('event_id'), sa.column('name'), sa.column('display_name'), sa.column('rating')
    )
    entries = connection.execute(sa.text(
        "SELECT event_id, type, payload FROM event_log WHERE type IN ('event_created', 'player_registered') ORDER BY event_id, seq"
    ))
    for event_id, kind, payload in entries:
        data = json.loads(bytes(payload))
        if kind == 'event_created' and 'late_entry' in data:
            connection.execute(events.update().where(events.c.id == event_id).values(late_entry=data['late_entry']))
        elif kind == 'player_registered' and ('name' in data or 'rating' in data):
            connection.execute(
                players.update().where(players.c.event_id == event_id, players.c.name == data['player'])
                .values(display_name=data.get('name') or data['player'], rating=data.get('rating'))
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
