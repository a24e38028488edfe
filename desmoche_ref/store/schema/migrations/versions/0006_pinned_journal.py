"""a journal that pins history: who wrote each row, each hand, move and posting journaled once

- journal.writer: the database user that wrote the row, in its hash. On PostgreSQL a trigger
  sets it to the session user whatever the client sends, and another sets each stored move's
  `event.recorder` the same way (the roles that record may not change a trigger: only the
  book's owner may); on SQLite the program writes the login name.
- a unique index per kind of row the journal covers once (a hand, a move, a posting): a
  second journal row for one is refused.
- writers lock setting rows to append to the journal (PostgreSQL, store/locks.py): each made
  by its first use, not here.

Rows journaled before keep their form (no writer, no times: store/trust/journal.py FORM_1). A book
that holds anything gets an `upgrade` row, the first of the new form, holding its largest
hand, move and posting ids: the rows up to them are verified as they were written, the rows
after in full. A book whose journal already holds a second row for a hand, a move or a
posting (a tampered book) is not upgraded: `verify` names the rows.

Downgrading drops the writer, the indexes and the triggers: the rows written since then no
longer verify under schema 0005 (their hashes hold their writer).

Revision ID: 0006
Revises: 0005
Created: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

# (trigger, table, column): on PostgreSQL the server, not the client, names who wrote the row
SERVER_SET = (("journal_writer", "journal", "writer"), ("event_recorder", "event", "recorder"))


def upgrade() -> None:
    from desmoche_ref.store.trust.journal import ONCE, mark_upgrade

    conn = op.get_bind()
    _no_second_rows(conn, ONCE)
    with op.batch_alter_table('journal', schema=None) as batch_op:
        batch_op.add_column(sa.Column('writer', sa.String(length=64), nullable=True))
    for family, kinds in ONCE.items():
        where = sa.text("kind IN (" + ", ".join(f"'{k}'" for k in kinds) + ")")
        op.create_index(f'uq_journal_{family}', 'journal', ['subject'], unique=True,
                        sqlite_where=where, postgresql_where=where)
    if conn.dialect.name == 'postgresql':
        for name, table, column in SERVER_SET:
            op.execute(f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
                       f"BEGIN NEW.{column} := session_user; RETURN NEW; END $$")
            # the condition is evaluated without calling the function: an honest row (the program
            # writes the session user) costs an import of 90,000 moves nothing to speak of
            op.execute(f"CREATE TRIGGER {name} BEFORE INSERT ON {table} FOR EACH ROW "
                       f"WHEN (NEW.{column} IS DISTINCT FROM session_user) EXECUTE FUNCTION {name}()")
    mark_upgrade(conn)


def _no_second_rows(conn, once) -> None:
    """A book whose journal holds a row twice cannot take the unique indexes: say which."""
    for family, kinds in once.items():
        kinds_sql = ", ".join(f"'{k}'" for k in kinds)
        twice = conn.execute(sa.text(f"SELECT subject, min(id), max(id) FROM journal WHERE kind IN ({kinds_sql}) "
                                     "GROUP BY subject HAVING count(*) > 1 ORDER BY subject LIMIT 1")).first()
        if twice is not None:
            from desmoche_ref.findings import M
            from desmoche_ref.store.db import BookError
            from desmoche_ref.store.trust.pinned import row_of

            raise BookError(M("the book's journal journals {what} twice (rows {first} and {second}): it was "
                              "tampered with, and cannot be upgraded until its owner has dealt with that "
                              "(`desmoche-ref verify` names the rows)", what=row_of(family, twice[0]),
                              first=twice[1], second=twice[2]))


def downgrade() -> None:
    from desmoche_ref.store.trust.journal import ONCE

    conn = op.get_bind()
    if conn.dialect.name == 'postgresql':
        for name, table, _column in SERVER_SET:
            op.execute(f"DROP TRIGGER {name} ON {table}")
            op.execute(f"DROP FUNCTION {name}()")
    op.execute(sa.text("DELETE FROM setting WHERE key IN ('lock:journal', 'lock:import')"))
    for family in ONCE:
        op.drop_index(f'uq_journal_{family}', table_name='journal')
    with op.batch_alter_table('journal', schema=None) as batch_op:
        batch_op.drop_column('writer')
