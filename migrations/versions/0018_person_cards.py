"""People and player cards (issue 35, part 1): a person's own sign-in, and the record of links, merges and splits.

`credentials.person` names the person a player card (`kind` `card`) or a person's session (`person_session`)
belongs to (T-181); existing credentials are an event's player's or the organiser's, and name nobody.
`person_changes` keeps each link, claim, merge and split of people with who made it and why (T-184); there
were none recorded before, so it starts empty (the `player_linked` entries already in event logs stay there).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07 13:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # the copy SQLite needs for a new foreign key: credentials are referenced by nothing (see 0011's players)
    with op.batch_alter_table('credentials') as batch:
        batch.add_column(sa.Column('person', sa.String(length=64), nullable=True))
        batch.create_index(batch.f('ix_credentials_person'), ['person'], unique=False)
        batch.create_foreign_key(op.f('fk_credentials_person_people'), 'people', ['person'], ['id'])
    op.create_table('person_changes',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('action', sa.String(length=16), nullable=False),
    sa.Column('person', sa.String(length=64), nullable=False),
    sa.Column('other', sa.String(length=64), nullable=True),
    sa.Column('players', sa.Text(), nullable=False),
    sa.Column('actor', sa.String(length=120), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_person_changes'))
    )
    with op.batch_alter_table('person_changes', recreate='never') as batch:
        batch.create_index(batch.f('ix_person_changes_person'), ['person'], unique=False)
        batch.create_index(batch.f('ix_person_changes_other'), ['other'], unique=False)


def downgrade() -> None:
    op.drop_table('person_changes')
    # a card or a person's session means nothing to the older code: they go, and their people sign in again later
    op.execute(sa.text("DELETE FROM credentials WHERE person IS NOT NULL"))
    with op.batch_alter_table('credentials') as batch:
        batch.drop_constraint(batch.f('fk_credentials_person_people'), type_='foreignkey')
        batch.drop_index(batch.f('ix_credentials_person'))
        batch.drop_column('person')
