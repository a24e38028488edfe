"""The scorebook's batch write: judged hands stored many at a time, by the laws of a live
write. `import` stores every hand through `HandBatch.store`; the live verbs store one hand, one
move, one close at a time through store/course.py and store/hands.py. The two share what a
write means and differ in how many rows one statement carries:

- the laws across hands: `lawbook.follow_on_laws`, which judges a live `hand new` and a deal
  again, judges each hand of a batch against the hands before it at its table (the first
  against the book's last hand, read by store/lawbook.py as `hand new` reads it): an error
  (N9.1, N9.2: R2.3, R4.6) rejects the hand, a warning (N9.3: R3.1) is reported and it is stored;
- the postings: `records.posting_rows`, the one builder of the double entry, from the settlement
  the referee gave (the judging side, store/judging.py, judges each hand as `check` does);
  money carried in from hands the book never saw enters as `brought-in` postings from `outside`;
- a table's close (a hand tagged `[Closed "yes"]`): `course.close_table`, as `table close`
  does it (the R11.5 refunds posted, the table closed, journaled), in the batch's transaction;
- the journal texts of store/journal.py: one `import` row a hand (its moves and postings with
  it), one `follow` row a table it moved on;
- the models' tables (store/models.py): a batch's hands, moves and postings go to the driver
  as rows of the models' own columns in one statement each (PostgreSQL: COPY), its reads are
  Core statements on the same tables; SQLAlchemy's per-row parameter processing cost more
  than the database itself (bench/bench_import.py).

Each batch is one transaction of `Book.write()`; batches of concurrent imports are serialised
(PostgreSQL: the setting row IMPORT_LOCK, store/locks.py; SQLite: the book's write lock), so two
imports of the same record store it once (a hand is known by its content: _Contents).
"""

from datetime import datetime, timezone
from types import SimpleNamespace

from sqlalchemy import func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from .. import laws
from ..findings import ERROR, M
from .journal import append as journal_append, import_text, table_text
from .judging import Rejected
from .lawbook import follow_on_laws, table_now
from .locks import bounded, lock_row
from .models import BookTable, Event, Hand, Player, Posting, core
from .records import brought_in_moves, pot_map, posting_rows
from .terms import FOLLOW, IMPORT, IMPORT_LOCK, TABLE, StoreError

card_table, hands, players_t = core(BookTable), core(Hand), core(Player)


class HandBatch:
    """One import's writes into a book, a batch at a time (`store`): the hands stored, those
    already in the book, those the laws reject (`rejected`, in the caller's list) or warn of
    (`warned`), and what the import knows between its batches."""

    def __init__(self, book, path: str, rejected: list):
        self.book, self.path, self.rejected = book, path, rejected
        self.warned = []      # the stored hands' warnings (laws.py: N9.3)
        self.stored = self.known = 0
        self.contents = _Contents()
        self.ensured = set()  # the players and tables known to be in the book
        self.closed = set()   # the tables this import closed (a hand's Closed tag)
        self.states = {}      # table name -> _TableState: as this import's last batch left it

    def store(self, batch: list, ends: bool = True) -> None:
        """Store the batch's hands (judging.Prepared, in file order): its new players and
        tables first, each made once even when imports race; then its hands in one transaction.
        A batch may be stored in parts, one transaction each (store/importer.py): each table's
        seats following its last hand, and a Closed tag's close, are written with the part that
        `ends` it, so that the journal is the same however the batch was cut."""
        _ensure_rows(self.book, batch, self.ensured)
        stored, known = _write(self.book, batch, self.rejected, self.path, self.closed, self.contents,
                               self.warned, self.states, ends)
        self.stored += stored
        self.known += known


class _TableState:
    """A table as the next hand finds it: its id, name, last number, its hands so far as the
    laws see them (laws.Table), whether it is closed (and by which hand of this batch), and its
    newest hand as the book holds it (`newest`: id, status, closed or not), by which the next
    batch knows the state still holds (_table_state)."""

    __slots__ = ("id", "name", "number", "laws", "last", "closed", "closer", "created", "newest")

    def __init__(self, table_id: int, name: str, number: int, before, last, closed: bool, created=None):
        self.id, self.name, self.number, self.laws, self.last = table_id, name, number, before, last
        self.closed, self.closer, self.created = closed, None, created
        self.newest = None

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


def _write(book, batch: list, rejected: list, path: str, closed_here: set, contents: _Contents,
           warned: list, carried: dict, ends: bool = True):
    """Store a batch in one transaction: (hands stored, hands already in the book). A hand
    the laws across hands refuse (laws.py, N9.5) goes to `rejected`; one they warn of to
    `warned` (a Rejected of its warnings: it is stored). `carried`: each table's state as the
    import's batches before left it, brought up to date here; `ends`: see HandBatch.store."""
    stamp = _now()
    with book.write(bulk=True) as session:
        conn = session.connection()  # the batch's transaction: Core statements and the driver's bulk rows
        if conn.dialect.name == "postgresql":  # racing imports: one batch reads and stores at a time
            _lock_imports(conn)
        states = {name: _table_state(conn, name, carried.get(name)) for name in sorted({p.table for p in batch})}
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
            facts = laws.HandFacts.of_row(SimpleNamespace(**p.values, number=state.number + 1), p.closes)
            found = follow_on_laws(state.laws, facts)  # N9.5: as the live writer judges `hand new`
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
            newest = _insert(conn, keep, players, stamp)
            for state in states.values():
                state.newest = newest.get(state.id, state.newest)
        carried.update(states)
        if ends:
            _followed(session, carried, closed_here)
    return len(keep), known


def _followed(session, states: dict, closed_here: set) -> None:
    """Each table a batch stored hands at takes its last hand's seats and stakes (_follow), and
    one a Closed tag ends is closed (_close), in the batch's last transaction."""
    conn = session.connection()
    for name in sorted(states):
        if states[name].last is not None:
            _follow(conn, states[name])
            states[name].last = None
    for name in sorted(states):
        if states[name].closer is not None:
            _close(session, states[name])
            states[name].closer = None
            closed_here.add(name)


def _lock_imports(conn) -> None:
    """Hold the book's imports for this batch's transaction (PostgreSQL: the setting row
    IMPORT_LOCK; a wait past store/locks.py LOCK_TIMEOUT is `Busy`)."""
    lock_row(conn, IMPORT_LOCK, M("the book's imports (another import is storing its hands)"))


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
    with book.write(bulk=True) as session:
        conn = session.connection()
        ins = _insert_ignore(conn)
        if names:
            conn.execute(ins(players_t).on_conflict_do_nothing(index_elements=["name"]),
                            [{"name": n} for n in names])
        made = []
        for name in sorted(firsts):
            row = _table_row(name, firsts[name].values, _now())
            new = conn.execute(ins(card_table).values(_table_values(row)).on_conflict_do_nothing(
                index_elements=["name"]).returning(card_table.c.id)).scalar()
            if new is not None:  # not made by another import meanwhile
                made.append((TABLE, new, table_text(row)))
        journal_append(conn, made)
    ensured.update(names)
    ensured.update(("table", name) for name in firsts)


def _now():
    return datetime.now(timezone.utc)


def _refused(message):
    """The book's refusal; `message` (findings.M) is shown in the language of the run."""
    return StoreError(message)


def _insert_ignore(conn):
    return (postgresql if conn.dialect.name == "postgresql" else sqlite).insert


def _table_row(name: str, values: dict, created) -> BookTable:
    """A table as an imported hand (its values) seats it: what its next hand is dealt with."""
    return BookTable(name=name, players=values["players"], bet=values["bet"], rules=values["rules"],
                     options=values["options"], sides=values["sides"], created=created)


def _table_values(row: BookTable) -> dict:
    return {c: getattr(row, c) for c in card_table.c.keys() if c != "id"}


def _table_state(conn, name: str, carried: _TableState | None = None) -> _TableState:
    """Lock the table (PostgreSQL: its row; SQLite writes are serialised) and read how it stands:
    as `carried` (the import's last batch left it) while its newest hand is still the one that
    batch stored, else from its stored hands (lawbook.table_now, which may read far back: every
    hand since the last that carried nothing in). A batch reads one row to know."""
    t = card_table.c
    query = select(t.id, t.closed, t.created).where(t.name == name)
    if conn.dialect.name == "postgresql":
        # FOR NO KEY UPDATE: rows a live writer inserts for this table (their foreign key takes
        # KEY SHARE) never wait on it, so no deadlock with a writer that holds the journal
        query = query.with_for_update(key_share=True)
    with bounded(M("table {table}", table=name)):
        table_id, closed, created = conn.execute(query).one()
    newest = _newest(conn, table_id)
    closed_by_now = carried is not None and carried.closed and carried.closer is None  # not to close still
    if carried is not None and carried.newest == newest and closed_by_now == (closed is not None):
        return carried
    before = table_now(conn, table_id, closed is not None)
    if before.open:
        raise _refused(M("hand {number} at table {table} is still being recorded: close it (`end` or "
                         "`hand new`) before importing into this table", number=before.number, table=name))
    state = _TableState(table_id, name, before.number, before, carried and carried.last, closed is not None,
                        created)  # its seats still to follow the hands this import stored
    state.newest = newest
    return state


def _newest(conn, table_id: int):
    """(id, status, closed or not) of the table's newest hand, None before its first: what any
    write to its last hand changes (a move, an undo that reopens it, a void, a hand after it)."""
    h = hands.c
    row = conn.execute(select(h.id, h.status, h.closed.is_(None)).where(h.table_id == table_id)
                       .order_by(h.number.desc()).limit(1)).first()
    return None if row is None else (row[0], row[1], bool(row[2]))


def _columns(table, *left_out) -> tuple:
    """The model's table's columns, less those an import leaves to their default (NULL): an
    imported move supersedes none, an imported posting reverses none, and the id is the
    database's. Python's sqlite3 binds a None through its adapter lookup, several times the
    cost of an int or a str: ~70 ms an import for each None-valued column of the events."""
    return tuple(c for c in table.c if c.name not in left_out)


HAND_COLUMNS = _columns(hands)
EVENT_COLUMNS = _columns(core(Event), "id", "supersedes")   # records.Prepared.event_rows' order
POSTING_COLUMNS = _columns(core(Posting), "id", "reverses")  # records.POSTING_FIELDS, then created


def _insert(conn, keep: list, players: dict, stamp) -> dict:
    """Bulk inserts: the hands, their events and postings, and their journal rows; each
    table's newest hand stored, as _newest reads it.

    Hands, events and postings go to the driver's executemany as plain tuples: SQLAlchemy's
    per-row parameter processing cost more than the database itself (bench/bench_import.py)."""
    # The hands' ids are taken first and the rows inserted with them: an INSERT … RETURNING
    # of many rows cost SQLite more than every other insert of the import (bench/bench_import.py)
    ids = _new_ids(conn, len(keep))
    bound = _binders(conn, HAND_COLUMNS)  # the hand's times (SQLite: as text)
    when = _binders(conn, EVENT_COLUMNS).get("entered", _same)(stamp)
    hand_rows, events, postings, journal, newest = [], [], [], [], {}
    for (p, brought), hand_id in zip(keep, ids):
        row = dict(p.values, id=hand_id)
        newest[row["table_id"]] = (hand_id, row["status"], False)  # closed: the import closes it
        stored = dict(row, **{name: bind(row[name]) for name, bind in bound.items()})
        hand_rows.append(tuple(stored[c.name] for c in HAND_COLUMNS))
        events += p.event_rows(hand_id, when)
        made = posting_rows(hand_id, row["table_id"], brought + p.transfers, players)
        postings += [posting + (when,) for posting in made]
        journal.append((IMPORT, hand_id, import_text(SimpleNamespace(**row), p.count, p.head(), len(made), stamp)))
    _executemany(conn, HAND_COLUMNS, hand_rows)
    _executemany(conn, EVENT_COLUMNS, events)
    _executemany(conn, POSTING_COLUMNS, postings)
    journal_append(conn, journal)
    return newest


def _new_ids(conn, count: int) -> list:
    """`count` new hand ids: from the table's sequence on PostgreSQL (safe beside other
    writers); on SQLite the next ones after the largest, the write lock being ours."""
    if conn.dialect.name == "postgresql":
        return list(conn.exec_driver_sql(
            "SELECT nextval(pg_get_serial_sequence('hand', 'id')) FROM generate_series(1, %s)",
            (count,)).scalars())
    start = conn.execute(select(func.coalesce(func.max(hands.c.id), 0))).scalar()
    return list(range(start + 1, start + 1 + count))


def _binders(conn, columns) -> dict:
    """{name: f} of the columns whose values the driver takes as SQLAlchemy binds them, f(value)
    (a time on SQLite: text); the others' values go as they are."""
    out = {}
    for column in columns:
        process = column.type.dialect_impl(conn.dialect).bind_processor(conn.dialect)
        if process is not None:
            out[column.name] = process
    return out


def _same(value):
    return value


def _executemany(conn, columns, rows) -> None:
    """Rows (tuples in the order of `columns`, a model's table's) handed to the driver: SQLAlchemy's
    per-row parameter processing cost more than the database itself (bench/bench_import.py)."""
    if not rows:
        return
    table, names = columns[0].table.name, ", ".join(c.name for c in columns)
    if conn.dialect.name == "postgresql":  # COPY: one stream instead of a statement a row
        cursor = conn.connection.driver_connection.cursor()
        with cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = f"INSERT INTO {table} ({names}) VALUES ({', '.join([mark] * len(columns))})"
    conn.exec_driver_sql(sql, rows)


def _follow(conn, state: _TableState) -> None:
    """The table's seats and stakes become those of its last hand, so that a live `hand new`
    carries on from it (the deal passes to the right of that hand's dealer, R3.1)."""
    v = state.last.values
    row = _table_row(state.name, v, state.created)
    conn.execute(update(card_table).where(card_table.c.id == state.id).values(
        {c: getattr(row, c) for c in ("players", "bet", "rules", "options", "sides")}))
    journal_append(conn, [(FOLLOW, state.id, table_text(row))])


def _close(session, state: _TableState) -> None:
    """The table breaks up after the hand its Closed tag is on, as `table close` does it
    (course.close_table: the R11.5 refunds posted, the table closed, journaled)."""
    from .course import close_table  # only for a closing hand: the live verbs' modules (the referee's) stay unloaded

    close_table(session, session.get(BookTable, state.id))
