"""the journal (one insert-only row per write, chained to the book head) and hand.notes

The journal is backfilled from the book as it is (store/trust/journal.py `backfill`): each table's
state, each hand's setup and each of its moves (an imported hand as one row), so an
upgraded book verifies and its head pins it from then on. hand.notes keeps the comment
lines written above a record's tags (the club's notes), which export writes back.

Revision ID: 0004
Revises: 0003
Created: 2026-12-01
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('notes', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
    op.create_table('journal',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=12), nullable=False),
    sa.Column('subject', sa.Integer(), nullable=False),
    sa.Column('text', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    from desmoche_ref.store.trust.journal import backfill

    backfill(op.get_bind())


def downgrade() -> None:
    op.drop_table('journal')
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_column('notes')
