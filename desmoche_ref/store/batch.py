"""The scorebook's batch write: judged hands stored many at a time, by the planners and the one
writer of a live write. `import` stores every hand through `HandBatch.store`: each hand of a
batch planned on its table as the book holds it (store/tablestate.py, its row locked) by
`course.import_hand` — judged by the laws across hands as `hand new` is (N9.5: an error rejects
the hand, a warning, N9.3, is reported and it is stored), its settlement posted from the
referee's verdict (the judging side, store/judging.py, judges each hand as `check` does), money
carried in from hands the book never saw brought in from `outside` — then the table's seats and
stakes become its last hand's (`course.follow_import`, a `follow` row), and a hand tagged
`[Closed "yes"]` closes its table after it as `table close` does (`course.close_table`: the R11.5
refunds, the close); the batch's plan is stored by store/writer.py in one transaction, its
hands, moves and postings each in one statement, one `import` journal row a hand.

Each batch is one transaction of `Book.write()`; batches of concurrent imports are serialised
(PostgreSQL: the setting row IMPORT_LOCK, store/locks.py; SQLite: the book's write lock), so two
imports of the same record store it once (a hand is known by its content: _Contents).
"""

from collections import Counter
from typing import Any

from sqlalchemy import func, select

from ..findings import M
from . import course
from .identity import recorder
from .journal import append as journal_append, table_text
from .judging import Rejected
from .locks import bounded, lock_row
from .models import BookTable, Hand, core
from .plans import Ids, Plan
from .records import TableRow
from .tablestate import BookState, now_of
from .terms import IMPORT_LOCK, TABLE, StoreError
from .writer import ensure_players, insert_ignoring, write

card_table, hands = core(BookTable), core(Hand)


class HandBatch:
    """One import's writes into a book, a batch at a time (`store`): the hands stored, those
    already in the book, those the laws reject (`rejected`, in the caller's list) or warn of
    (`warned`), and what the import knows between its batches."""

    def __init__(self, book, path: str, rejected: list):
        self.book, self.path, self.rejected = book, path, rejected
        self.warned: list = []  # the stored hands' warnings (laws.py: N9.3)
        self.stored = self.known = 0
        self.contents = _Contents()
        self.ensured: set = set()  # the players and tables known to be in the book
        self.closed: set = set()   # the tables this import closed (a hand's Closed tag)

    def store(self, batch: list) -> None:
        """Store the batch's hands (judging.Prepared, in file order): its new players and
        tables first, each made once even when imports race; then its hands in one transaction."""
        _ensure_rows(self.book, batch, self.ensured)
        stored, known = _write(self, batch)
        self.stored += stored
        self.known += known


class _Contents:
    """Which of a file's hands the book holds already, known by content (its hash). Two hands
    of one file with the same content are two hands (a short closed record, say, played the
    same way twice at a table): the book knows as many of them as it holds hands of that
    content from before this import (or from another import meanwhile), and stores the rest.
    So an export imported into its own book stores nothing, into a fresh book every hand, and
    a file imported twice the second time nothing."""

    def __init__(self) -> None:
        self.in_file: Counter = Counter()  # content -> the file's hands of it so far
        self.stored: Counter = Counter()   # content -> of those, stored by this import

    def known(self, conn, batch: list):
        """known(p) for the batch's hands, in file order; the book's counts read now (under
        the import lock)."""
        digests = sorted({p.hash for p in batch})
        held = dict(conn.execute(select(hands.c.content_hash, func.count()).where(
            hands.c.content_hash.in_(digests)).group_by(hands.c.content_hash)).all())
        others = {d: held.get(d, 0) - self.stored[d] for d in digests}  # not this import's

        def known(p) -> bool:
            self.in_file[p.hash] += 1
            return self.in_file[p.hash] <= others[p.hash]

        return known


def _write(done: HandBatch, batch: list) -> tuple[int, int]:
    """Store a batch in one transaction: (hands stored, hands already in the book). A hand
    the laws across hands refuse (laws.py, N9.5) goes to `rejected`; one they warn of to
    `warned` (a Rejected of its warnings: it is stored)."""
    path, rejected = done.path, done.rejected
    with done.book.write() as session:
        conn = session.connection()  # the batch's transaction: Core statements and the driver's bulk rows
        if conn.dialect.name == "postgresql":  # racing imports: one batch reads and stores at a time
            _lock_imports(conn)
        plan, ids, who = Plan(), Ids(), recorder(conn)  # one plan: its journal rows in the file's order
        states = {name: _table_state(conn, name, who, ids, plan) for name in sorted({p.table for p in batch})}
        is_known = done.contents.known(conn, batch)
        closers: set = set()
        last: dict[str, Any] = {}
        kept = known = 0
        for p in batch:
            if is_known(p):
                known += 1
                continue
            state = states[p.table]
            if state.table.closed is not None or p.table in closers:
                if p.table not in closers and p.table not in done.closed:
                    raise StoreError(M("table {table} is closed: import into another --table", table=p.table))
                rejected.append(Rejected(path, p.number, p.line, p.table, [(p.line, "N3", M(
                    "table {table} was closed by an earlier hand's Closed tag: this hand is not "
                    "of that table (import it into another --table)", table=p.table))]))
                continue
            errors, found = course.import_hand(state, p)
            if errors:
                rejected.append(Rejected(path, p.number, p.line, p.table, [(p.line, errors[0].code,
                                                                            errors[0].message)]))
                continue
            done.warned += [Rejected(path, p.number, p.line, p.table, [(p.line, b.code, b.message)])
                            for b in found]
            done.contents.stored[p.hash] += 1
            kept += 1
            last[p.table] = state.plan.hands[-1]
            if p.closes:
                closers.add(p.table)
        if kept:
            for name, row in last.items():
                course.follow_import(states[name], row)
            for name in sorted(closers):
                course.close_table(states[name])  # as `table close` does it: the R11.5 refunds, the close
                done.closed.add(name)
            write(conn, [plan])
    return kept, known


def _lock_imports(conn) -> None:
    """Hold the book's imports for this batch's transaction (PostgreSQL: the setting row
    IMPORT_LOCK; a wait past store/locks.py LOCK_TIMEOUT is `Busy`)."""
    lock_row(conn, IMPORT_LOCK, M("the book's imports (another import is storing its hands)"))


def _ensure_rows(book, batch: list, ensured: set) -> None:
    """Players and tables the batch needs, each created once even when several importers
    run at once (INSERT … ON CONFLICT DO NOTHING, in name order so no two wait on each other)."""
    names = sorted({n for p in batch for n in p.players} - ensured)
    firsts: dict = {}
    for p in batch:
        if ("table", p.table) not in ensured:
            firsts.setdefault(p.table, p)
    if not names and not firsts:
        return
    with book.write() as session:
        conn = session.connection()
        ensure_players(conn, names)
        made = []
        for name in sorted(firsts):
            values = firsts[name].values
            row = TableRow(0, name, values["players"], values["bet"], values["rules"], values["options"],
                           values["sides"], now_of(conn), None)
            new = conn.execute(insert_ignoring(conn)(card_table).values(
                {c: v for c, v in row._asdict().items() if c != "id"}).on_conflict_do_nothing(
                index_elements=["name"]).returning(card_table.c.id)).scalar()
            if new is not None:  # not made by another import meanwhile
                made.append((TABLE, new, table_text(row)))
        journal_append(conn, made)
    ensured.update(names)
    ensured.update(("table", name) for name in firsts)


def _table_state(conn, name: str, who: str, ids: Ids, plan: Plan) -> BookState:
    """The table as the book holds it, locked (PostgreSQL: FOR NO KEY UPDATE, so rows a live
    writer inserts for it, whose foreign key takes KEY SHARE, never wait on it: no deadlock
    with a writer that holds the journal; SQLite writes are serialised)."""
    table_id = conn.execute(select(card_table.c.id).where(card_table.c.name == name)).scalar_one()
    with bounded(M("table {table}", table=name)):
        state = BookState(conn, table_id, who, ids, plan, key_share=True)
    before = state.laws()
    if before.open:
        raise StoreError(M("hand {number} at table {table} is still being recorded: close it (`end` or "
                           "`hand new`) before importing into this table", number=before.number, table=name))
    return state
