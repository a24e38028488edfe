"""the first schema: players, tables, hands, events, postings

Revision ID: 0001
Revises: 
Created: 2026-12-01
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('card_table',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('players', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('bet', sa.BigInteger(), nullable=False),
    sa.Column('rules', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('options', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('sides', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('created', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('closed', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('card_table', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_card_table_name'), ['name'], unique=True)

    op.create_table('player',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_name'), ['name'], unique=True)

    op.create_table('setting',
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('value', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    op.create_table('hand',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('players', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('dealer', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('rules', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('options', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('bet', sa.BigInteger(), nullable=False),
    sa.Column('carry_in', sa.BigInteger(), nullable=False),
    sa.Column('sides', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('side_carry', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('extra_tags', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('source', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('content_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=12), nullable=False),
    sa.Column('outcome', sqlmodel.sql.sqltypes.AutoString(length=12), nullable=True),
    sa.Column('winners', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True),
    sa.Column('fouls', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('carry_out', sa.BigInteger(), nullable=True),
    sa.Column('side_carry_out', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('opened', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('closed', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['table_id'], ['card_table.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'number', name='uq_hand_table_number')
    )
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hand_content_hash'), ['content_hash'], unique=False)
        batch_op.create_index('ix_hand_standings', ['status', 'players', 'outcome', 'winners', 'fouls'], unique=False)
        batch_op.create_index(batch_op.f('ix_hand_table_id'), ['table_id'], unique=False)

    op.create_table('event',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('line', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
    sa.Column('comment', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
    sa.Column('entered', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('supersedes', sa.Integer(), nullable=True),
    sa.Column('hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.ForeignKeyConstraint(['hand_id'], ['hand.id'], ),
    sa.ForeignKeyConstraint(['supersedes'], ['event.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('hand_id', 'seq', name='uq_event_hand_seq')
    )
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_event_hand_id'), ['hand_id'], unique=False)

    op.create_table('posting',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('account', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('detail', sqlmodel.sql.sqltypes.AutoString(length=30), nullable=True),
    sa.Column('counterparty', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=False),
    sa.Column('reverses', sa.Integer(), nullable=True),
    sa.Column('created', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['hand_id'], ['hand.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], ),
    sa.ForeignKeyConstraint(['reverses'], ['posting.id'], ),
    sa.ForeignKeyConstraint(['table_id'], ['card_table.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('posting', schema=None) as batch_op:
        batch_op.create_index('ix_posting_account', ['account'], unique=False)
        batch_op.create_index('ix_posting_standings', ['kind', 'account', 'player_id', 'reverses', 'amount'], unique=False)
        batch_op.create_index(batch_op.f('ix_posting_hand_id'), ['hand_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_posting_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_posting_table_id'), ['table_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('posting', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_posting_table_id'))
        batch_op.drop_index(batch_op.f('ix_posting_player_id'))
        batch_op.drop_index(batch_op.f('ix_posting_hand_id'))
        batch_op.drop_index('ix_posting_standings')
        batch_op.drop_index('ix_posting_account')

    op.drop_table('posting')
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_event_hand_id'))

    op.drop_table('event')
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hand_table_id'))
        batch_op.drop_index('ix_hand_standings')
        batch_op.drop_index(batch_op.f('ix_hand_content_hash'))

    op.drop_table('hand')
    op.drop_table('setting')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_name'))

    op.drop_table('player')
    with op.batch_alter_table('card_table', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_card_table_name'))

    op.drop_table('card_table')
