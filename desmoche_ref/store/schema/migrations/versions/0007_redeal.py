"""a hand with no move is dealt again in place: a recorder may update a hand's setup

No table or column changes. `hand new` on a hand with no move deals it again (same number,
store/write/course.py), writing the hand's setup columns anew and journaling a `redeal`; on a
league server a recorder needs UPDATE on those columns (store/trust/roles.py UPDATABLE). Upgrading
to this revision re-applies every role's grants (db.upgrade: roles.reapply), so a book's
recorders get them with the new schema version, and one told the book needs upgrading asks
its owner to run `desmoche-ref db upgrade`.

Revision ID: 0007
Revises: 0006
Created: 2026-12-02
"""


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass  # the grants are re-applied by the upgrade itself (store/db.py upgrade)


def downgrade() -> None:
    pass
