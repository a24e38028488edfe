"""a recorder's table is where that recorder last worked: the journal indexed by writer

A command given no --table goes on at the table of its recorder's last journal row (store/
hands.py `current_table`): a write at a table, or `table use`, journaled as a `use` row — no
longer one row of the book (`setting`) that any recorder could move for every other. The
journal gets an index on (writer, id), so that a recorder's last row is found at once
however many rows others wrote since. No column changes. The table the book had in use (the
`setting` row it was kept in, read no more) becomes its upgrader's: a `use` row, journaled
as the upgrader, so the book's owner goes on where the book was.

Revision ID: 0009
Revises: 0008
Created: 2026-12-06
"""

from alembic import op


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    from types import SimpleNamespace

    import sqlalchemy as sa

    from desmoche_ref.store.trust.journal import USE, append, text_of

    op.create_index('ix_journal_writer', 'journal', ['writer', 'id'])
    conn = op.get_bind()
    found = conn.execute(sa.text("SELECT t.id, t.name FROM setting s JOIN card_table t ON t.name = s.value "
                                 "WHERE s.key = 'table'")).first()
    if found is not None:
        append(conn, [(USE, found.id, text_of(USE, SimpleNamespace(name=found.name)))])


def downgrade() -> None:
    op.drop_index('ix_journal_writer', table_name='journal')
