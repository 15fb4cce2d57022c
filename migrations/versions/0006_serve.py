"""The web service (issue 12): player and organiser tokens, players' claims.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 11:30:00
"""

from __future__ import annotations

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
