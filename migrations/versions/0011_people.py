"""People across events, ratings, public registration, judge calls, the big screen (issue 26).

A `people` table (someone who plays many events) that players point to
(existing players point to nobody until linked: their logs name no person);
events say whether they are rated, whether they are finished, the notice the
big screen shows and their public registration; players whether they checked
in; a full event's waitlist; the judge calls players make from their phones.

Revision ID: 0011
Revises: 0009
Create Date: 2026-11-27 09:00:00
"""

from __future__ import annotations

import json
from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('people',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('external_id', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_people')),
    sa.UniqueConstraint('external_id', name=op.f('uq_people_external_id'))
    )
    # recreate='never': SQLite adds a column in place, where copying events would trip the foreign keys of the rows
    # that reference it; players are referenced by nothing, and their foreign key to people needs the copy.
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.add_column(sa.Column('rated', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch.add_column(sa.Column('finished', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch.add_column(sa.Column('notice', sa.String(length=200), nullable=True))
        batch.add_column(sa.Column('registration_open', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch.add_column(sa.Column('registration_cap', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('registration_closes_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('registration_waitlist', sa.Boolean(), server_default=sa.true(), nullable=False))
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('person', sa.String(length=64), nullable=True))
        batch.add_column(sa.Column('checked_in', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch.create_foreign_key(op.f('fk_players_person_people'), 'people', ['person'], ['id'])
    _from_the_log()
    op.create_table('waitlist',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('player', sa.String(length=64), nullable=False),
    sa.Column('display_name', sa.String(length=100), nullable=False),
    sa.Column('person', sa.String(length=64), nullable=True),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('checked_in', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_waitlist_event_id_events')),
    sa.ForeignKeyConstraint(['person'], ['people.id'], name=op.f('fk_waitlist_person_people')),
    sa.PrimaryKeyConstraint('event_id', 'player', name=op.f('pk_waitlist'))
    )
    op.create_table('judge_calls',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('player', sa.String(length=64), nullable=False),
    sa.Column('text', sa.String(length=200), nullable=False),
    sa.Column('called_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_judge_calls_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', 'number', name=op.f('pk_judge_calls'))
    )


def _from_the_log() -> None:
    """Events written by this code, then downgraded, keep what their logs say: rated or not, and who each player
    is (the people come back with the name they first played under; an external id is not in any log)."""
    connection = op.get_bind()
    events = sa.table('events', sa.column('id'), sa.column('rated'))
    players = sa.table('players', sa.column('event_id'), sa.column('name'), sa.column('person'))
    people = sa.table('people', sa.column('id'), sa.column('name'), sa.column('created_at'))
    entries = connection.execute(sa.text(
        "SELECT event_id, type, payload, at FROM event_log WHERE type IN ('event_created', 'player_registered', 'player_linked') "
        "ORDER BY at, event_id, seq"
    ))
    made: set[str] = set()
    for event_id, kind, payload, at in entries:
        data = json.loads(bytes(payload))
        if kind == 'event_created' and data.get('rated'):
            connection.execute(events.update().where(events.c.id == event_id).values(rated=True))
        elif data.get('person'):
            if data['person'] not in made:
                made.add(data['person'])
                moment = at if isinstance(at, datetime) else datetime.fromisoformat(at)
                connection.execute(people.insert().values(id=data['person'], name=data.get('name') or data['player'], created_at=moment))
            connection.execute(
                players.update().where(players.c.event_id == event_id, players.c.name == data['player']).values(person=data['person'])
            )


def downgrade() -> None:
    # recreate='never' for events: SQLite (3.35+) drops a column in place, where copying the table would trip the
    # foreign keys of the rows that reference it. Players are referenced by nothing, and their foreign key to
    # people can only go with a copy.
    op.drop_table('judge_calls')
    op.drop_table('waitlist')
    with op.batch_alter_table('players') as batch:
        batch.drop_constraint(op.f('fk_players_person_people'), type_='foreignkey')
        batch.drop_column('checked_in')
        batch.drop_column('person')
    with op.batch_alter_table('events', recreate='never') as batch:
        for name in ('registration_waitlist', 'registration_closes_at', 'registration_cap', 'registration_open', 'notice', 'finished', 'rated'):
            batch.drop_column(name)
    op.drop_table('people')
