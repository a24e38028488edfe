"""who entered each move: event.recorder

The database's session user on PostgreSQL, the login name on SQLite (store/trust/identity.py).
Covered by the event's hash (records.chain_hash); rows written before this revision have
none, and their hashes are as they were.

Revision ID: 0003
Revises: 0002
Created: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.add_column(sa.Column('recorder', sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.drop_column('recorder')
