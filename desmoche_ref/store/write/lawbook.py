"""The laws across hands (laws.py) over the book: a table's stored hands read as the laws need
them, on a Core connection or a Session alike (a Core statement on the model's table)."""

from sqlalchemy import select

from ... import laws
from ..schema.models import Hand, core

FIRST_PAGE = 4  # hands read at first, newest first: the last complete one is nearly always among them


def table_now(db, table_id: int, closed: bool = False, below: int | None = None) -> laws.Table:
    """The table as its stored hands left it (laws.table_after); `closed` when it broke up;
    with `below`, as its hands numbered below it left it. Its hands are read newest first, a
    page at a time, only back to the last complete hand that carried nothing in."""
    return laws.table_after((laws.HandFacts.of_row(row) for row in newest_first(db, table_id, below)), closed)


def follow_on_laws(before, facts) -> list:
    """The laws across hands (laws.follow_on, as the book holds them: laws.BOOK) on a hand
    dealt after `before` (a laws.Table): every way a hand enters the book — `hand new`, a deal
    again (store/write/course.py), an imported hand (store/write/batch.py) — is judged by this, the same
    case with the same code."""
    return laws.follow_on(before, facts, laws.BOOK)


def newest_first(db, table_id: int, below: int | None = None):
    """The table's hand rows (their laws.HandFacts columns), newest first, read as asked for
    (those numbered below `below`, when given)."""
    h = core(Hand).c
    query = select(h.number, h.players, h.dealer, h.bet, h.carry_in, h.sides, h.side_carry, h.status,
                   h.carry_out, h.side_carry_out).where(h.table_id == table_id).order_by(h.number.desc())
    page = FIRST_PAGE
    while True:
        rows = db.execute(query.limit(page) if below is None else
                          query.where(h.number < below).limit(page)).all()
        yield from rows
        if len(rows) < page:
            return
        below, page = rows[-1].number, page * 4
