"""a move's line and comment hold a whole N1.5 line: event.line and event.comment 4,096

N1.5 lets a record's line hold 4,096 characters, its comment included; the columns held
500, so PostgreSQL refused (and SQLite kept) a longer comment. Every line `check` accepts
is now stored, the same on both engines (desmoche_ref/limits.py).

Revision ID: 0005
Revises: 0004
Created: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.alter_column('line', existing_type=sa.String(length=500), type_=sa.String(length=4096),
                              existing_nullable=False)
        batch_op.alter_column('comment', existing_type=sa.String(length=500), type_=sa.String(length=4096),
                              existing_nullable=True)


def downgrade() -> None:
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.alter_column('comment', existing_type=sa.String(length=4096), type_=sa.String(length=500),
                              existing_nullable=True)
        batch_op.alter_column('line', existing_type=sa.String(length=4096), type_=sa.String(length=500),
                              existing_nullable=False)
