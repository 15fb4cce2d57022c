"""Deck lists (issue 25): players' registered lists, the game logs refused for a deck that differs, and each
event's deck policy, deadline and publication.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 14:00:00
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # recreate='never': SQLite adds a column in place (copying events would trip the foreign keys that reference it).
    with op.batch_alter_table('events', recreate='never') as batch:
        batch.add_column(sa.Column('decks_policy', sa.String(length=16), nullable=True))
        batch.add_column(sa.Column('decks_deadline', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('decks_published', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table('deck_lists',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('player', sa.String(length=64), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('verdict', sa.String(length=16), nullable=False),
    sa.Column('summary', sa.Text(), nullable=False),
    sa.Column('facets', sa.LargeBinary(), nullable=False),
    sa.Column('problems', sa.LargeBinary(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('reason', sa.String(length=500), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_deck_lists_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', 'player', name=op.f('pk_deck_lists'))
    )
    op.create_table('deck_checks',
    sa.Column('event_id', sa.String(length=64), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('players', sa.Text(), nullable=False),
    sa.Column('differences', sa.LargeBinary(), nullable=False),
    sa.Column('ruled_seq', sa.Integer(), nullable=True),
    sa.Column('ruling', sa.String(length=500), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_deck_checks_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', 'seq', name=op.f('pk_deck_checks'))
    )
    _from_the_log()


def _from_the_log() -> None:
    """Events written by this code, then downgraded, keep what their logs say: the policy, the deadline, the
    publication, every list and every refusal and its ruling (as `eventlog.project` writes them)."""
    connection = op.get_bind()
    events = sa.table(
        'events', sa.column('id'), sa.column('decks_policy'), sa.column('decks_deadline', sa.DateTime(timezone=True)),
        sa.column('decks_published'),
    )
    lists = sa.table('deck_lists', *(sa.column(c) for c in (
        'event_id', 'player', 'sha256', 'text', 'verdict', 'summary', 'facets', 'problems', 'seq', 'reason')))
    checks = sa.table('deck_checks', *(sa.column(c) for c in (
        'event_id', 'seq', 'round', 'table', 'players', 'differences', 'ruled_seq', 'ruling')))
    entries = connection.execute(sa.text(
        "SELECT event_id, seq, type, payload FROM event_log WHERE type IN "
        "('deck_registered', 'deck_policy_set', 'decks_published', 'decks_differ', 'deck_ruled') ORDER BY event_id, seq"
    ))
    for event_id, seq, kind, payload in entries:
        data = json.loads(bytes(payload))
        at_event = events.c.id == event_id
        if kind == 'deck_policy_set':
            deadline = datetime.fromisoformat(data['deadline'].replace('Z', '+00:00')).astimezone(UTC) if data.get('deadline') else None
            connection.execute(events.update().where(at_event).values(decks_policy=data['policy'], decks_deadline=deadline))
        elif kind == 'decks_published':
            connection.execute(events.update().where(at_event).values(decks_published=True))
        elif kind == 'deck_registered':
            connection.execute(events.update().where(at_event, events.c.decks_policy.is_(None)).values(decks_policy='unpaired'))
            connection.execute(lists.delete().where(lists.c.event_id == event_id, lists.c.player == data['player']))
            connection.execute(lists.insert().values(
                event_id=event_id, player=data['player'], sha256=data['sha256'], text=data['text'], verdict=data['verdict'],
                summary=data['summary'], facets=_compact(data.get('facets', {})), problems=_compact(data.get('problems', [])),
                seq=seq, reason=data.get('reason'),
            ))
        elif kind == 'decks_differ':
            connection.execute(checks.insert().values(
                event_id=event_id, seq=seq, round=data['round'], table=data['table'], players=' '.join(sorted(data['differences'])),
                differences=_compact(data['differences']),
            ))
        else:
            where = sa.and_(checks.c.event_id == event_id, checks.c.seq == data['check'])
            connection.execute(checks.update().where(where).values(ruled_seq=seq, ruling=data['reason']))


def _compact(value: object) -> bytes:
    """JSON as msgspec writes it (no spaces), so the rows are the projection's byte for byte."""
    return json.dumps(value, separators=(',', ':'), ensure_ascii=False).encode()


def downgrade() -> None:
    # An event's deck entries stay in its log; the older code cannot read them (`verify` names them), as for 0011.
    op.drop_table('deck_checks')
    op.drop_table('deck_lists')
    with op.batch_alter_table('events', recreate='never') as batch:
        for name in ('decks_published', 'decks_deadline', 'decks_policy'):
            batch.drop_column(name)
