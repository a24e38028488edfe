"""Importing `.dsm` records into the book: each hand judged once, stored whole or not at all.

A hand is judged exactly as `check` judges it (`judge_stream`), in a child process while
this one writes (store/judging.py: the judging side). An invalid hand is rejected
with its findings and nothing of it is stored; a valid one is stored with its events (the
canonical lines, hash-chained), its verdict and its settlement's postings. Hands are written
in batches, one transaction each, with bulk inserts (the hand is not re-judged move by move
as live entry does), so a `kill -9` leaves each hand whole or absent and a rerun finishes.

A hand is known by its content: the SHA-256 of its record as the book exports it, without
its Table tag, so a record imported twice (or re-imported from an export, or under another
`--table`) is stored once; a file's hands of the same content count as many hands
(_Contents). A file's hands of a table are judged as a session by the laws across hands
(laws.py, N9.5), the first against the book's last hand of that table, exactly as the live
writer judges `hand new`: a hand that does not carry in the pots its table's pots hold
(N9.1: R2.3, R4.6) or changes the bet while a main pot is carried (N9.2: R2.3) is rejected
with that code; a dealer out of turn (N9.3: R3.1) is stored with a warning. What a table's
first hand carries in came from hands the book never saw, and enters the book as
`brought-in` postings from the `outside` account, so every hand still sums to zero. A hand
tagged `[Closed "yes"]` is its table's last: the table is closed after it, the pots it
carries out returned as R11.5 says (`refund` postings, as `table close` posts them), and a
later hand for that table is rejected.

Every stored hand is one `import` row of the book's journal (store/journal.py: its moves and
postings with it, and when it was stored), each table it changes one `follow` row. Batches of
concurrent imports are serialised (PostgreSQL: each batch's transaction locks the setting row
IMPORT_LOCK, which no reader may lock, store/locks.py; SQLite: the book's write lock), so two
imports of the same record store it once.
"""

from contextlib import closing
from datetime import datetime, timezone
from types import SimpleNamespace
from typing import NamedTuple

from sqlalchemy import DateTime, func, select, update

from .. import laws
from ..findings import ERROR, M
from .identity import recorder
from .journal import FOLLOW, IMPORT, TABLE, append as journal_append, import_text, table_text
from .judging import Judging, Rejected
from .league import card_table, hand as hands, player as players_t
from .records import brought_in_moves, pot_map, posting_rows

BATCH = 250            # hands per transaction
IMPORT_LOCK = "lock:import"  # the setting row PostgreSQL imports lock: the content-hash dedupe


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during an import: `stored` hands of the file were stored (whole batches, each
    committed); running the same import again stores the rest (a hand is known by content)."""

    def __init__(self, stored: int):
        super().__init__(stored)
        self.stored = stored


class Imported(NamedTuple):
    """What one file's import did."""

    path: str
    stored: int
    known: int           # already in the book
    rejected: list       # Rejected
    tables: list         # the tables its hands went to, in order of first use
    looks_like: str | None = None  # the encoding its unreadable lines read in (Lines.looks_like)
    warnings: list = []  # Rejected of the stored hands the laws across hands warn of (N9.3)


def import_records(book, source, path: str, table: str | None = None, progress=None,
                   batch_size: int | None = None, encoding: str | None = None) -> Imported:
    """Judge and store every hand of one file. `source` is the file's bytes, or its blocks
    of bytes as read (`notation.parser.read_blocks` of an open file: then no more than a
    block and a hand at a time is in memory, whatever the file's size), in `encoding`
    (UTF-8 by default, N1.1), or their judging.Judging already begun (with the same `path`,
    `table` and `encoding`). `table` overrides each record's Table tag; without either the
    file's name is the table. `progress(line)` is told how far it got; `batch_size` hands
    (else BATCH) are written per transaction.

    The hands are judged in a child process (store/judging.py) while this one writes them:
    judging and writing each take about half the time, and run on two cores at once. The
    child reads the file."""
    from .forked import ChildGone

    batch_size = batch_size or BATCH

    # forked before the writer's thread starts (and, by the command line, before this process
    # loaded SQLAlchemy and opened the book: the child judges meanwhile)
    judged = source if isinstance(source, Judging) else Judging(source, path, table, encoding)
    rejected, batch, tables = [], [], []
    looks_like = None
    with closing(judged):
        with book.connect() as conn:
            judged.begin(recorder(conn))
        stopped = False
        with _Writer(book, rejected, path) as writer:
            try:
                for prepared, refused, names, line, looks_like in judged:
                    rejected += refused
                    tables += [name for name in names if name not in tables]
                    batch += prepared
                    if len(batch) >= batch_size:
                        writer.put(batch)
                        batch = []
                    if progress is not None:
                        progress(line)
            except ChildGone as gone:  # killed from outside: what was written stays whole
                raise _refused(M("{path}: the judging process ended unexpectedly (exit {code}): run "
                                 "the import again to finish it", path=path, code=gone.exitcode)) from None
            except KeyboardInterrupt:  # Ctrl-C: the batches put are stored whole, the rest not
                stopped = True
            if batch and not stopped:
                writer.put(batch)
        if stopped:
            raise Interrupted(writer.stored)
    rejected.sort(key=lambda r: r.number)
    return Imported(path, writer.stored, writer.known, rejected, tables, looks_like,
                    sorted(writer.warned, key=lambda r: r.number))


class _Writer:
    """Stores batches in order on a thread of its own, while the caller's thread keeps
    reading the judged hands from the judging process (whose pipe would otherwise fill and
    stop it). A failure stops the import at the next batch and is raised by the caller's
    thread."""

    def __init__(self, book, rejected: list, path: str):
        import queue

        self.book, self.rejected, self.path = book, rejected, path
        self.warned = []      # the stored hands' warnings (laws.py: N9.3)
        self.stored = self.known = 0
        self.contents = _Contents()
        self.ensured = set()  # the players and tables known to be in the book
        self.closed = set()   # the tables this import closed (a hand's Closed tag)
        self.error = None
        self.queue = queue.Queue(maxsize=2)

    def __enter__(self):
        import threading

        if self.book.dialect == "sqlite":
            _no_fsync_per_commit(self.book.engine)

        self.thread = threading.Thread(target=self._run, name="import-writer", daemon=True)
        self.thread.start()
        return self

    def put(self, batch: list) -> None:
        if self.error is not None:
            raise self.error
        self.queue.put(batch)

    def _run(self):
        while True:
            batch = self.queue.get()
            if batch is None:
                return
            if self.error is not None:
                continue  # drain: the caller stops at its next put
            try:
                _ensure_rows(self.book, batch, self.ensured)
                stored, known = _write(self.book, batch, self.rejected, self.path, self.closed, self.contents,
                                       self.warned)
                self.stored += stored
                self.known += known
            except BaseException as e:  # raised again in the caller's thread
                self.error = e

    def __exit__(self, kind, exc, tb):
        self.queue.put(None)
        self.thread.join()
        if self.book.dialect == "sqlite":
            _fsync_per_commit_again(self.book.engine)
        if exc is None and self.error is not None:
            raise self.error
        return False


# ------------------------------------------------------------------ writing
class _TableState:
    """A table as the next hand finds it: its id, name, last number, its hands so far as the
    laws see them (laws.Table), whether it is closed (and by which hand of this batch)."""

    __slots__ = ("id", "name", "number", "laws", "last", "closed", "closer", "created")

    def __init__(self, table_id: int, name: str, number: int, before, last, closed: bool, created=None):
        self.id, self.name, self.number, self.laws, self.last = table_id, name, number, before, last
        self.closed, self.closer, self.created = closed, None, created

    def pots(self) -> dict:
        """Account -> cents the table's pots hold (what the book's pot accounts hold)."""
        return pot_map(*self.laws.pots) if self.laws.pots is not None else {}


class _Contents:
    """Which of a file's hands the book holds already, known by content (its hash). Two hands
    of one file with the same content are two hands (a short closed record, say, played the
    same way twice at a table): the book knows as many of them as it holds hands of that
    content from before this import (or from another import meanwhile), and stores the rest.
    So an export imported into its own book stores nothing, into a fresh book every hand, and
    a file imported twice the second time nothing."""

    def __init__(self):
        from collections import Counter

        self.in_file = Counter()  # content -> the file's hands of it so far
        self.stored = Counter()   # content -> of those, stored by this import

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

    def stored_one(self, digest: str) -> None:
        self.stored[digest] += 1


def _write(book, batch: list, rejected: list, path: str, closed_here: set, contents: _Contents,
           warned: list):
    """Store a batch in one transaction: (hands stored, hands already in the book). A hand
    the laws across hands refuse (laws.py, N9.5) goes to `rejected`; one they warn of to
    `warned` (a Rejected of its warnings: it is stored)."""
    stamp = _now()
    with book.begin() as conn:
        if conn.dialect.name == "postgresql":  # racing imports: one batch reads and stores at a time
            _lock_imports(conn)
        states = {name: _table_state(conn, name) for name in sorted({p.table for p in batch})}
        is_known = contents.known(conn, batch)
        players = dict(conn.execute(select(players_t.c.name, players_t.c.id).where(
            players_t.c.name.in_({n for p in batch for n in p.players}))).all())
        keep, known = [], 0
        for p in batch:
            if is_known(p):
                known += 1
                continue
            state = states[p.table]
            if state.closed:
                if state.closer is None and p.table not in closed_here:
                    raise _refused(M("table {table} is closed: import into another --table", table=p.table))
                rejected.append(Rejected(path, p.number, p.line, p.table, [(p.line, "N3", M(
                    "table {table} was closed by an earlier hand's Closed tag: this hand is not "
                    "of that table (import it into another --table)", table=p.table))]))
                continue
            facts = laws.HandFacts.of_row(_Values(p.values, number=state.number + 1), p.closes)
            found = laws.follow_on(state.laws, facts, laws.BOOK)  # N9.5: as the live writer judges it
            errors = [(p.line, b.code, b.message) for b in found if b.severity == ERROR]
            if errors:
                rejected.append(Rejected(path, p.number, p.line, p.table, errors[:1]))
                continue
            warned += [Rejected(path, p.number, p.line, p.table, [(p.line, b.code, b.message)]) for b in found]
            contents.stored_one(p.hash)
            state.number += 1
            p.values.update(table_id=state.id, number=state.number, content_hash=p.hash,
                            opened=p.values["opened"] or stamp, closed=stamp)
            keep.append((p, brought_in_moves(p.pots_before, state.pots())))
            state.laws = laws.follow(state.laws, facts)
            state.last = p
            if p.closes:
                state.closed, state.closer = True, p
        if keep:
            _insert(conn, keep, players, stamp)
            for name, state in states.items():
                if state.last is not None:
                    _follow(conn, state)
            for name, state in states.items():
                if state.closer is not None:
                    _close(conn, state)
                    closed_here.add(name)
    return len(keep), known


def _lock_imports(conn) -> None:
    """Hold the book's imports for this batch's transaction (PostgreSQL: the setting row
    IMPORT_LOCK; a wait past store/locks.py LOCK_TIMEOUT is `Busy`)."""
    from .locks import lock_row

    lock_row(conn, IMPORT_LOCK, M("the book's imports (another import is storing its hands)"))


def _no_fsync_per_commit(engine) -> None:
    """SQLite in WAL mode, synchronous=NORMAL for the importer's connections: a killed
    process still loses nothing it committed (only a power cut could lose the last
    batches, which a rerun stores again), and a batch does not wait for the disk."""
    from sqlalchemy import event

    if not event.contains(engine, "connect", _normal_sync):
        event.listen(engine, "connect", _normal_sync)
        engine.dispose()  # connections already open were made without it


def _fsync_per_commit_again(engine) -> None:
    """The book's own durability back once the import is done: the engine may serve this
    process's next command (db.py keeps the engines of the last books opened)."""
    from sqlalchemy import event

    if event.contains(engine, "connect", _normal_sync):
        event.remove(engine, "connect", _normal_sync)
        engine.dispose()


def _normal_sync(dbapi_conn, _record) -> None:
    dbapi_conn.execute("PRAGMA synchronous=NORMAL")


def _ensure_rows(book, batch: list, ensured: set) -> None:
    """Players and tables the batch needs, each created once even when several importers
    run at once (INSERT … ON CONFLICT DO NOTHING, in name order so no two wait on each other)."""
    names = sorted({n for p in batch for n in p.players} - ensured)
    firsts = {}
    for p in batch:
        if ("table", p.table) not in ensured:
            firsts.setdefault(p.table, p)
    if not names and not firsts:
        return
    with book.begin() as conn:
        ins = _insert_ignore(conn)
        if names:
            conn.execute(ins(players_t).on_conflict_do_nothing(index_elements=["name"]),
                            [{"name": n} for n in names])
        made = []
        for name in sorted(firsts):
            p = firsts[name]
            row = _Values(name=name, players=p.values["players"], bet=p.values["bet"],
                          rules=p.values["rules"], options=p.values["options"],
                          sides=p.values["sides"], created=_now(), closed=None)
            new = conn.execute(ins(card_table).values(row).on_conflict_do_nothing(index_elements=["name"])
                               .returning(card_table.c.id)).scalar()
            if new is not None:  # not made by another import meanwhile
                made.append((TABLE, new, table_text(row)))
        journal_append(conn, made)
    ensured.update(names)
    ensured.update(("table", name) for name in firsts)


def _now():
    return datetime.now(timezone.utc)


def _refused(message):
    """The book's refusal; `message` (findings.M) is shown in the language of the run."""
    from .hands import StoreError  # only when refusing: it loads the ORM

    return StoreError(message)


def _insert_ignore(conn):
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as ins
    else:
        from sqlalchemy.dialects.sqlite import insert as ins
    return ins


def _table_state(conn, name: str) -> _TableState:
    """Lock the table (PostgreSQL: its row; SQLite writes are serialised) and read how it stands."""
    from .lawbook import table_now
    from .locks import bounded

    t = card_table.c
    query = select(t.id, t.closed, t.created).where(t.name == name)
    if conn.dialect.name == "postgresql":
        # FOR NO KEY UPDATE: rows a live writer inserts for this table (their foreign key takes
        # KEY SHARE) never wait on it, so no deadlock with a writer that holds the journal
        query = query.with_for_update(key_share=True)
    with bounded(M("table {table}", table=name)):
        table_id, closed, created = conn.execute(query).one()
    before = table_now(conn, table_id, closed is not None)
    if before.open:
        raise _refused(M("hand {number} at table {table} is still being recorded: close it (`end` or "
                         "`hand new`) before importing into this table", number=before.number, table=name))
    return _TableState(table_id, name, before.number, before, None, closed is not None, created)


HAND_COLUMNS = ("id", "table_id", "number", "players", "dealer", "rules", "options", "bet", "carry_in",
                "sides", "side_carry", "extra_tags", "notes", "source", "content_hash", "status", "outcome",
                "winners", "fouls", "carry_out", "side_carry_out", "opened", "closed")  # the times last
# An imported move supersedes none and an imported posting reverses none: those columns are
# left out of the inserts (NULL, their default). Python's sqlite3 binds a None through its
# adapter lookup, several times the cost of an int or a str: ~70 ms an import for each
# None-valued column of the events, as much as SQLite took to store one of their columns.
EVENT_COLUMNS = ("hand_id", "seq", "line", "comment", "entered", "hash", "recorder")
POSTING_COLUMNS = ("hand_id", "table_id", "account", "player_id", "kind", "detail", "counterparty",
                   "amount", "created")


def _insert(conn, keep: list, players: dict, stamp) -> None:
    """Bulk inserts: the hands, their events and postings, and their journal rows.

    Hands, events and postings go to the driver's executemany as plain tuples: SQLAlchemy's
    per-row parameter processing cost more than the database itself (bench/bench_import.py)."""
    # The hands' ids are taken first and the rows inserted with them: an INSERT … RETURNING
    # of many rows cost SQLite more than every other insert of the import (bench/bench_import.py)
    ids = _new_ids(conn, len(keep))
    bind_time = _time_binder(conn)
    when = bind_time(stamp)
    hand_rows, events, postings, journal = [], [], [], []
    for (p, brought), hand_id in zip(keep, ids):
        row = dict(p.values, id=hand_id)
        hand_rows.append(tuple(row[c] for c in HAND_COLUMNS[:-2]) + (bind_time(row["opened"]), when))
        events += p.event_rows(hand_id, when)
        made = posting_rows(hand_id, row["table_id"], brought + p.transfers, players)
        postings += [posting + (when,) for posting in made]
        # a namespace, not a _Values: journal.py reads 14 attributes a hand, and a failed
        # attribute lookup before _Values' __getattr__ doubled the cost of the journal's text
        journal.append((IMPORT, hand_id, import_text(SimpleNamespace(**row), p.count, p.head(), len(made), stamp)))
    _executemany(conn, "hand", HAND_COLUMNS, hand_rows)
    _executemany(conn, "event", EVENT_COLUMNS, events)
    _executemany(conn, "posting", POSTING_COLUMNS, postings)
    journal_append(conn, journal)


def _new_ids(conn, count: int) -> list:
    """`count` new hand ids: from the table's sequence on PostgreSQL (safe beside other
    writers); on SQLite the next ones after the largest, the write lock being ours."""
    if conn.dialect.name == "postgresql":
        return list(conn.exec_driver_sql(
            "SELECT nextval(pg_get_serial_sequence('hand', 'id')) FROM generate_series(1, %s)",
            (count,)).scalars())
    start = conn.execute(select(func.coalesce(func.max(hands.c.id), 0))).scalar()
    return list(range(start + 1, start + 1 + count))


def _time_binder(conn):
    """A time as the driver stores it for the models' UTCDateTime columns (SQLite: text), as
    SQLAlchemy would bind it."""
    process = DateTime(timezone=True).dialect_impl(conn.dialect).bind_processor(conn.dialect)
    return process or (lambda when: when)


def _executemany(conn, table: str, columns, rows) -> None:
    if not rows:
        return
    if conn.dialect.name == "postgresql":  # COPY: one stream instead of a statement a row
        cursor = conn.connection.driver_connection.cursor()
        with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join([mark] * len(columns))})"
    conn.exec_driver_sql(sql, rows)


def _follow(conn, state: _TableState) -> None:
    """The table's seats and stakes become those of its last hand, so that a live `hand new`
    carries on from it (the deal passes to the right of that hand's dealer, R3.1)."""
    v = state.last.values
    conn.execute(update(card_table).where(card_table.c.id == state.id).values(
        players=v["players"], bet=v["bet"], rules=v["rules"], options=v["options"], sides=v["sides"]))
    journal_append(conn, [(FOLLOW, state.id, table_text(_Values(
        name=state.name, players=v["players"], bet=v["bet"], rules=v["rules"], options=v["options"],
        sides=v["sides"], created=state.created, closed=None)))])


def _close(conn, state: _TableState) -> None:
    """The table breaks up after the hand its Closed tag is on: as `table close` does it
    (store/hands.py close_table: the R11.5 refunds posted, the table closed, journaled)."""
    from sqlmodel import Session

    from .hands import close_table
    from .models import BookTable

    with Session(bind=conn, join_transaction_mode="create_savepoint") as session:
        close_table(session, session.get(BookTable, state.id))
        session.commit()  # the savepoint: the batch's transaction commits it


class _Values(dict):
    """A row's values as a dict (to insert) whose keys read as attributes (journal.py's texts)."""

    __slots__ = ()
    __getattr__ = dict.__getitem__

