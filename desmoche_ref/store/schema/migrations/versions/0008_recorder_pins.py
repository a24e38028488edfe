"""the recorders' PINs of a SQLite book: who may sign in to the board to record (issue 36)

A new table, `recorder_pin`: a recorder's name, the slow hash of their PIN (scrypt, its
parameters in the stored text: store/trust/pins.py), when it was granted and when revoked. At most
one PIN a name is live (a unique index over the rows not revoked). The book's own state, as
`setting` is, not its record: not journaled, not exported, not verified. On PostgreSQL the
table is made too (one schema) and stays empty: a recorder signs in with their own login,
and no role granted on the book is given anything on it (store/trust/roles.py PRIVATE).

Revision ID: 0008
Revises: 0007
Created: 2026-12-03
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('recorder_pin',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('hash', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('granted', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('revoked', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    live = sa.text("revoked IS NULL")
    op.create_index('uq_recorder_pin_live', 'recorder_pin', ['name'], unique=True,
                    sqlite_where=live, postgresql_where=live)


def downgrade() -> None:
    op.drop_index('uq_recorder_pin_live', table_name='recorder_pin')
    op.drop_table('recorder_pin')
