"""The scorebook's batch write: judged hands stored many at a time, by the planners and the one
writer of a live write. `import` stores every hand through `HandBatch.store`: each hand of a
batch planned on its table as the book holds it (store/write/tablestate.py, its row locked) by
`course.import_hand` — judged by the laws across hands as `hand new` is (N9.5: an error rejects
the hand, a warning, N9.3, is reported and it is stored), its settlement posted from the
referee's verdict (the judging side, store/write/judging.py, judges each hand as `check` does), money
carried in from hands the book never saw brought in from `outside` — then the table's seats and
stakes become its last hand's (`course.follow_import`, a `follow` row), and a hand tagged
`[Closed "yes"]` closes its table after it as `table close` does (`course.close_table`: the R11.5
refunds, the close); the batch's plan is stored by store/write/book_writer.py in one transaction, its
hands, moves and postings each in one statement, one `import` journal row a hand.

Each batch is one transaction of `Book.write()` — or several (store/write/importer.py cuts a batch
into short transactions on SQLite): each table's seats following its last hand, and a Closed
tag's close, are planned in the batch's last part, so the journal is the same however the
clock cut it; a table's laws are carried from part to part while its newest hand is the one
this import stored (read again from the book if another writer changed it). Batches of
concurrent imports are serialised (PostgreSQL: the setting row IMPORT_LOCK, store/locks.py;
SQLite: the book's write lock, and the import's lease), so two imports of the same record
store it once (a hand is known by its content: _Contents).
"""

from typing import Any

from sqlalchemy import func, select

from ...findings import M
from . import course
from ..trust.identity import recorder
from ..trust.journal import append as journal_append, table_text
from .judging import Rejected
from ..locks import bounded, lock_row
from ..schema.models import BookTable, Hand, core
from .plans import Ids, Plan
from ..schema.records import TableRow
from .tablestate import BookState, now_of
from ..schema.terms import IMPORT_LOCK, TABLE, StoreError
from .book_writer import ensure_players, insert_ignoring, write

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
        self.carried: dict[str, _Carried] = {}  # table name -> as this import's last part left it

    def store(self, batch: list, ends: bool = True) -> None:
        """Store the batch's hands (judging.Prepared, in file order): its new players and
        tables first, each made once even when imports race; then its hands in one transaction.
        A batch may be stored in parts, one transaction each (store/write/importer.py): each table's
        seats following its last hand, and a Closed tag's close, are written with the part that
        `ends` it, so that the journal is the same however the batch was cut."""
        _ensure_rows(self.book, batch, self.ensured)
        stored, known = _write(self, batch, ends)
        self.stored += stored
        self.known += known


class _Carried:
    """A table as an import's last part left it: the laws across its hands (laws.Table), its
    newest hand as the book then held it (id, status, closed or not: any write to it, or a hand
    after it, changes that), its last hand imported whose seats it is still to follow, and
    whether a Closed tag is still to close it."""

    __slots__ = ("laws", "newest", "last", "closes")

    def __init__(self) -> None:
        self.laws: Any = None
        self.newest: tuple | None = None
        self.last: Any = None
        self.closes = False


class _Contents:
    """Which of a file's hands the book holds already, known by content (its hash). Two hands
    of one file with the same content are two hands (a short closed record, say, played the
    same way twice at a table): the book knows as many of them as it holds hands of that
    content from before this import (or from another import meanwhile), and stores the rest.
    So an export imported into its own book stores nothing, into a fresh book every hand, and
    a file imported twice the second time nothing."""

    def __init__(self) -> None:
        # content -> (hands of it this import stored, the file's hands of it so far), kept in a
        # private temporary database (SQLite's: on disk past a small page cache, deleted with its
        # connection, named nowhere): an import's memory stays flat whatever the file's count
        # of hands (held in a dict, it grew by ~200 bytes a hand)
        import sqlite3

        self.seen = sqlite3.connect("", isolation_level=None, check_same_thread=False)
        self.seen.execute("CREATE TABLE seen (digest BLOB PRIMARY KEY, stored INTEGER, in_file INTEGER) "
                          "WITHOUT ROWID")
        self.batch: dict = {}  # digest -> [stored, in file] of the batch being written

    def known(self, conn, batch: list):
        """known(p) for the batch's hands, in file order; the book's counts read now (under
        the import lock)."""
        self._keep()
        digests = sorted({p.hash for p in batch})
        held = dict(conn.execute(select(hands.c.content_hash, func.count()).where(
            hands.c.content_hash.in_(digests)).group_by(hands.c.content_hash)).all())
        marks = ",".join("?" * len(digests))
        before = {row[0].hex(): row[1:] for row in self.seen.execute(
            f"SELECT digest, stored, in_file FROM seen WHERE digest IN ({marks})", [bytes.fromhex(d) for d in digests])}
        self.batch = {d: list(before.get(d, (0, 0))) for d in digests}
        others = {d: held.get(d, 0) - self.batch[d][0] for d in digests}  # not this import's

        def known(p) -> bool:
            counts = self.batch[p.hash]
            counts[1] += 1
            return counts[1] <= others[p.hash]

        return known

    def stored_one(self, digest: str) -> None:
        self.batch[digest][0] += 1

    def _keep(self) -> None:
        """The last batch's counts into the temporary database."""
        self.seen.executemany("INSERT OR REPLACE INTO seen VALUES (?, ?, ?)",
                              [(bytes.fromhex(d), stored, in_file) for d, (stored, in_file) in self.batch.items()])
        self.batch = {}


def _write(done: HandBatch, batch: list, ends: bool = True) -> tuple[int, int]:
    """Store a batch (or a part of one: `ends`, see HandBatch.store) in one transaction: (hands
    stored, hands already in the book). A hand the laws across hands refuse (laws.py, N9.5)
    goes to `rejected`; one they warn of to `warned` (a Rejected of its warnings: it is stored)."""
    path, rejected, carried = done.path, done.rejected, done.carried
    with done.book.write(bulk=True) as session:
        conn = session.connection()  # the batch's transaction: Core statements and the driver's bulk rows
        if conn.dialect.name == "postgresql":  # racing imports: one batch reads and stores at a time
            _lock_imports(conn)
        plan, ids, who = Plan(), Ids(), recorder(conn)  # one plan: its journal rows in the file's order
        names = {p.table for p in batch} | (set(carried) if ends else set())
        states = {name: _table_state(conn, name, who, ids, plan, carried.setdefault(name, _Carried()))
                  for name in sorted(names)}
        is_known = done.contents.known(conn, batch)
        kept = known = 0
        for p in batch:
            if is_known(p):
                known += 1
                continue
            state, table = states[p.table], carried[p.table]
            if state.table.closed is not None or table.closes:
                if not table.closes and p.table not in done.closed:
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
            done.contents.stored_one(p.hash)
            kept += 1
            table.last, table.closes = state.plan.hands[-1], table.closes or bool(p.closes)
        if ends:
            _followed(states, carried, done.closed)
        made = write(conn, [plan]) if plan else {}
        for name, state in states.items():  # as this part leaves them, for the next
            table = carried[name]
            newest = state.latest()
            table.laws = state._laws
            table.newest = None if newest is None else (made.get(newest.row.id, newest.row.id), newest.row.status,
                                                        newest.row.closed is None)
    return kept, known


def _followed(states: dict, carried: dict, closed_here: set) -> None:
    """Each table the batch stored hands at takes its last hand's seats and stakes (a `follow`
    row), and one a Closed tag ends is closed as `table close` does it (the R11.5 refunds, the
    close), in the batch's last transaction: in name order, however the batch was cut."""
    for name in sorted(states):
        if carried[name].last is not None:
            course.follow_import(states[name], carried[name].last)
            carried[name].last = None
    for name in sorted(states):
        if carried[name].closes:
            course.close_table(states[name])
            carried[name].closes = False
            closed_here.add(name)


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
    with book.write(bulk=True) as session:
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


def _table_state(conn, name: str, who: str, ids: Ids, plan: Plan, carried: _Carried) -> BookState:
    """The table as the book holds it, locked (PostgreSQL: FOR NO KEY UPDATE, so rows a live
    writer inserts for it, whose foreign key takes KEY SHARE, never wait on it: no deadlock
    with a writer that holds the journal; SQLite writes are serialised). Its laws as the
    import's last part left them (`carried`) while its newest hand is still the one that part
    left, else read from its stored hands (lawbook: back to the last that carried nothing in)."""
    table_id = conn.execute(select(card_table.c.id).where(card_table.c.name == name)).scalar_one()
    with bounded(M("table {table}", table=name)):
        state = BookState(conn, table_id, who, ids, plan, key_share=True)
    if carried.laws is not None and carried.newest == _newest(conn, table_id):
        state._laws = carried.laws
    before = state.laws()
    if before.open:
        raise StoreError(M("hand {number} at table {table} is still being recorded: close it (`end` or "
                           "`hand new`) before importing into this table", number=before.number, table=name))
    return state


def _newest(conn, table_id: int) -> tuple | None:
    """(id, status, open or not) of the table's newest hand, None before its first: what any
    write to its last hand changes (a move, an undo that reopens it, a void, a hand after it)."""
    h = hands.c
    row = conn.execute(select(h.id, h.status, h.closed.is_(None)).where(h.table_id == table_id)
                       .order_by(h.number.desc()).limit(1)).first()
    return None if row is None else (row[0], row[1], bool(row[2]))
