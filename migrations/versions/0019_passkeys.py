"""Passkeys (issue 35): WebAuthn credentials of people and staff, and the challenges of ceremonies under way.

Two new tables and nothing else changed, so a database of the previous schema keeps every row: `passkeys`
(one owner each, a person or a staff member) and `passkey_challenges` (single-use, short-lived; in the
database so any worker can finish a ceremony another began). Neither is event history: no event log names them.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07 13:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('passkeys',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('credential', sa.LargeBinary(), nullable=False),
    sa.Column('public_key', sa.LargeBinary(), nullable=False),
    sa.Column('sign_count', sa.BigInteger(), nullable=False),
    sa.Column('user_handle', sa.String(length=64), nullable=False),
    sa.Column('person', sa.String(length=64), nullable=True),
    sa.Column('staff', sa.String(length=64), nullable=True),
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('transports', sa.String(length=100), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint('(person IS NULL) <> (staff IS NULL)', name=op.f('ck_passkeys_one_owner')),
    sa.ForeignKeyConstraint(['person'], ['people.id'], name=op.f('fk_passkeys_person_people')),
    sa.ForeignKeyConstraint(['staff'], ['staff.id'], name=op.f('fk_passkeys_staff_staff')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_passkeys'))
    )
    with op.batch_alter_table('passkeys') as batch:
        batch.create_index(batch.f('ix_passkeys_person'), ['person'], unique=False)
        batch.create_index(batch.f('ix_passkeys_staff'), ['staff'], unique=False)
        batch.create_index(batch.f('ix_passkeys_user_handle'), ['user_handle'], unique=False)
    op.create_table('passkey_challenges',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('purpose', sa.String(length=8), nullable=False),
    sa.Column('person', sa.String(length=64), nullable=True),
    sa.Column('staff', sa.String(length=64), nullable=True),
    sa.Column('user_handle', sa.String(length=64), nullable=True),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_passkey_challenges'))
    )
    with op.batch_alter_table('passkey_challenges') as batch:
        batch.create_index(batch.f('ix_passkey_challenges_expires_at'), ['expires_at'], unique=False)


def downgrade() -> None:
    op.drop_table('passkey_challenges')
    op.drop_table('passkeys')
