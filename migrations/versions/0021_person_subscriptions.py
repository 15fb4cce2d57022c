"""Messages per person (issue 36, T-239): a subscription may be a person's, for every entry linked to them.

`subscriptions.person` names the person (then `event_id` and `player` are empty; exactly one of the two is
given); `confirmed_at` is when the address was confirmed (a person's e-mail address: by the link sent to it,
T-241), and `token` the secret of the link every message carries to stop it. The subscriptions already there
are entries': they were taken as they came, so they count as confirmed at their making, and each gets a token.
`outbox.event_id` and `player` may be empty: the message asking to confirm an address is of no event.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07 16:45:00
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('subscriptions') as batch:
        batch.add_column(sa.Column('person', sa.String(length=64), nullable=True))
        batch.add_column(sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('token', sa.String(length=43), nullable=True))
        batch.alter_column('event_id', existing_type=sa.String(length=64), nullable=True)
        batch.alter_column('player', existing_type=sa.String(length=64), nullable=True)
    connection = op.get_bind()
    table = sa.table('subscriptions', sa.column('id', sa.Integer), sa.column('created_at', sa.DateTime(timezone=True)),
                     sa.column('confirmed_at', sa.DateTime(timezone=True)), sa.column('token', sa.String))
    for number, made in connection.execute(sa.select(table.c.id, table.c.created_at)).all():
        connection.execute(table.update().where(table.c.id == number).values(confirmed_at=made, token=secrets.token_urlsafe(24)))
    with op.batch_alter_table('subscriptions') as batch:
        batch.alter_column('token', existing_type=sa.String(length=43), nullable=False)
        batch.create_unique_constraint(batch.f('uq_subscriptions_token'), ['token'])
        batch.create_index(batch.f('ix_subscriptions_person'), ['person'], unique=False)
        batch.create_foreign_key(batch.f('fk_subscriptions_person_people'), 'people', ['person'], ['id'])
        batch.create_check_constraint(batch.f('ck_subscriptions_entry_or_person'), '(person IS NULL) <> (event_id IS NULL)')
    with op.batch_alter_table('outbox') as batch:
        batch.alter_column('event_id', existing_type=sa.String(length=64), nullable=True)
        batch.alter_column('player', existing_type=sa.String(length=64), nullable=True)


def downgrade() -> None:
    # a person's subscriptions and messages of no event mean nothing to the older code: they go
    op.execute(sa.text("DELETE FROM outbox WHERE event_id IS NULL OR subscription IN (SELECT id FROM subscriptions WHERE person IS NOT NULL)"))
    op.execute(sa.text("DELETE FROM subscriptions WHERE person IS NOT NULL"))
    with op.batch_alter_table('outbox') as batch:
        batch.alter_column('event_id', existing_type=sa.String(length=64), nullable=False)
        batch.alter_column('player', existing_type=sa.String(length=64), nullable=False)
    with op.batch_alter_table('subscriptions') as batch:
        batch.drop_constraint(batch.f('ck_subscriptions_entry_or_person'), type_='check')
        batch.drop_constraint(batch.f('fk_subscriptions_person_people'), type_='foreignkey')
        batch.drop_index(batch.f('ix_subscriptions_person'))
        batch.drop_constraint(batch.f('uq_subscriptions_token'), type_='unique')
        batch.drop_column('token')
        batch.drop_column('confirmed_at')
        batch.drop_column('person')
        batch.alter_column('event_id', existing_type=sa.String(length=64), nullable=False)
        batch.alter_column('player', existing_type=sa.String(length=64), nullable=False)
