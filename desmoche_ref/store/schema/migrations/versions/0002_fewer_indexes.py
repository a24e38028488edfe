"""two indexes no query needs: event(hand_id) and posting(player_id)

event(hand_id) repeats the first column of the unique (hand_id, seq) index, which serves
every lookup of a hand's events; no query selects postings by player_id (the ledger finds a
player's postings by account, the standings read ix_posting_standings). Each costs every
import and every move a write (bench/bench_import.py).

Revision ID: 0002
Revises: 0001
Created: 2026-12-01
"""

from alembic import op


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.drop_index('ix_event_hand_id')
    with op.batch_alter_table('posting', schema=None) as batch_op:
        batch_op.drop_index('ix_posting_player_id')


def downgrade() -> None:
    with op.batch_alter_table('posting', schema=None) as batch_op:
        batch_op.create_index('ix_posting_player_id', ['player_id'], unique=False)
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.create_index('ix_event_hand_id', ['hand_id'], unique=False)
