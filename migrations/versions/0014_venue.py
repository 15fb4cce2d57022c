"""The event day in the browser (issue 34): a bound on the waitlist, and a judge call that disputes a claim.

`events.registration_waitlist_limit` is how many may wait once the event is full (None: the default, T-152);
`judge_calls.disputes` names the player whose claim a "That's not right" call disputes (None: a plain call),
which puts the table in the judge queue (T-151).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # recreate='never': SQLite adds a column in place (see 0011)
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.add_column(sa.Column('registration_waitlist_limit', sa.Integer(), nullable=True))
    with op.batch_alter_table('judge_calls', recreate='never') as batch:
        batch.add_column(sa.Column('disputes', sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('judge_calls', recreate='never') as batch:
        batch.drop_column('disputes')
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.drop_column('registration_waitlist_limit')
