"""Staff and actors (issue 35): every event-log entry names who made it; staff members with their own sign-in;
players' appeals of a judge's ruling.

`event_log.actor` is NULL for every entry written before (its actor is unknown): such an entry's hash covers
no actor and reads as it always did, so `verify` passes on an old log (T-171). `staff` holds the staff members
the organiser names, `credentials.staff` their codes and sessions; `appeals` is projected from the log.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07 13:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from alembic.util import CommandError

revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # recreate='never': SQLite adds the column in place (a copy of event_log would rewrite every entry)
    with op.batch_alter_table('event_log', recreate='never') as batch:
        batch.add_column(sa.Column('actor', sa.String(length=80), nullable=True))
    op.create_table('staff',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('role', sa.String(length=16), nullable=False),
    sa.Column('event_id', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_staff_event_id_events')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_staff'))
    )
    with op.batch_alter_table('credentials') as batch:
        batch.add_column(sa.Column('staff', sa.String(length=64), nullable=True))
        batch.create_foreign_key(op.f('fk_credentials_staff_staff'), 'staff', ['staff'], ['id'])
    op.create_table('appeals',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('ruling', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('player', sa.String(length=64), nullable=False),
    sa.Column('judge', sa.String(length=80), nullable=True),
    sa.Column('text', sa.String(length=500), nullable=False),
    sa.Column('decided_seq', sa.Integer(), nullable=True),
    sa.Column('decision', sa.String(length=16), nullable=True),
    sa.Column('reason', sa.String(length=500), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_appeals_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', 'seq', name=op.f('pk_appeals'))
    )


def downgrade() -> None:
    # Refused while an entry names its actor (T-171): its hash covers the actor, so dropping the column would leave
    # the entry unverifiable for good, by the older code (which hashes no actor) and by this one after an upgrade
    # again (which finds the actor NULL). Unlike 0011's or 0012's entries, nothing left in the log could restore it.
    named = op.get_bind().execute(sa.text('SELECT COUNT(*) FROM event_log WHERE actor IS NOT NULL')).scalar_one()
    if named:
        raise CommandError(
            f"downgrade below 0016 refused: {named} event-log entries name who made them, and their hashes cover it; "
            "dropping it would break their events' chains for good (restore a backup taken before 0016 instead)"
        )
    op.drop_table('appeals')
    # a staff member's code or session would read to the older code as a player's of no event and no player
    op.execute(sa.text('DELETE FROM credentials WHERE staff IS NOT NULL'))
    with op.batch_alter_table('credentials') as batch:
        batch.drop_constraint(op.f('fk_credentials_staff_staff'), type_='foreignkey')
        batch.drop_column('staff')
    op.drop_table('staff')
    with op.batch_alter_table('event_log') as batch:
        batch.drop_column('actor')
