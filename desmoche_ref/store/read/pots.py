"""The pots a table still holds and who put them in, for settle-up: money carried to a table's
next hand is its players' still (R11.5 returns it in proportion to what each put in, if the
table breaks up), so settle-up moves none of it between players; it says where it is
(settleup.owned). Read with the laws across hands (laws.returns over the table as its hands
left it: store/write/lawbook.py), on a Core connection."""

from typing import NamedTuple

from sqlalchemy import func, select

from ... import laws
from ...settleup import Held, owned, settle_up
from ..write.lawbook import table_now
from .league import POT_PARTY, Selection, hand_filters, balances, card_table, hand


class Settlement(NamedTuple):
    balances: dict    # {party: cents}: each player's, with their shares of the pots held; POT_PARTY the rest
    transfers: list   # settleup.Transfer that clear them
    held: list        # settleup.Held: the pots held after the hands picked, by table


def settlement(conn, sel: Selection = Selection()) -> Settlement:
    """settle-up of the hands `sel` picks (its table and dates): who pays whom, the pots'
    money left where it is (`held`: what each table's pots hold after its last hand picked)."""
    after, before = held_pots(conn, sel)
    owed = owned(balances(conn, sel), after, before, POT_PARTY)
    return Settlement(owed, settle_up(owed), after)


def held_pots(conn, sel: Selection = Selection()) -> tuple[list, list]:
    """([Held] after each table's last hand picked, [Held] before its first): what R11.5 would
    return of its pots then. A closed table whose last hand is picked returned its pots already
    (its `refund` postings)."""
    h = hand.c
    query = (select(card_table.c.id, card_table.c.name, card_table.c.closed, func.min(h.number),
                    func.max(h.number)).select_from(hand).join(card_table, card_table.c.id == h.table_id)
             .where(*hand_filters(conn, sel)).group_by(card_table.c.id, card_table.c.name, card_table.c.closed)
             .order_by(card_table.c.name))
    after, before = [], []
    for table_id, name, closed, first, last in conn.execute(query).all():
        ends = closed is not None and last == _last_number(conn, table_id)
        if not ends:
            after += _held(name, table_now(conn, table_id, below=last + 1))
        if first > 1:
            before += _held(name, table_now(conn, table_id, below=first))
    return after, before


def _last_number(conn, table_id: int) -> int:
    return conn.execute(select(func.max(hand.c.number)).where(hand.c.table_id == table_id)).scalar()


def _held(table: str, state) -> list:
    return [Held(table, pot, sum(shares.values()), shares)
            for pot, shares in laws.returns(state).items() if sum(shares.values())]
