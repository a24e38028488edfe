"""A SQLite book's file and SQLite's own locking: how a connection to it is set up, how a
process that may not write it reads it, and the -wal and -shm its owner keeps beside it.

Writers: the book is in WAL mode (readers read a snapshot and never hold a writer back); a
write begins IMMEDIATE (it takes the book's one write lock before it reads, so two writers
never both read and then collide) and SQLite waits for that lock at most WRITE_TIMEOUT (its
`busy_timeout`, store/locks.py), then `Busy`: exit 3, nothing written. A commit is on disk
when the command says it is stored (`synchronous=FULL`: SQLite syncs the -wal at each commit);
an import's batches are `bulk` (`synchronous=NORMAL`: on disk at the next checkpoint, so a
power cut may take the last ones, which a rerun stores again). SQLite checkpoints the -wal
into the book itself (`wal_autocheckpoint`, its default) and, when the last connection closes,
takes the -wal and -shm away. Nothing is kept anywhere else: no file per book in /tmp or
/run/user.

Readers who may not write the book or its folder (another user, a read-only folder): SQLite
reads a book in WAL mode only through its -wal and -shm, and such a reader cannot make them. A
book readable by others therefore keeps both beside it, empty once every writer has gone
(`keep_wal`: made again by the owner's process that closed the book last, with the book's own
permissions), and the reader opens it read-only (`mode=ro`), reading a snapshot as every
reader does: the writers' checkpoints wait for it, so what it reads never changes under it.
A book is never read as unchanging (`immutable`) while anyone may write it: only on a file
system mounted read-only, where nobody can (a copy on a read-only disk).
"""

import os
import stat
import time

from ..findings import M
from .errors import BookError
from . import locks

WAL_WAIT = 1.0  # seconds a reader waits for the -wal the owner's closing process is making again


def wal_files(path: str) -> tuple:
    return path + "-wal", path + "-shm"


def in_wal_mode(path: str) -> bool:
    """Whether the book's file says it is in WAL mode (its header's read and write versions,
    bytes 18 and 19, are 2: SQLite's file format)."""
    try:
        with open(path, "rb") as f:
            header = f.read(20)
    except OSError:
        return False
    return len(header) == 20 and header[18] == 2 and header[19] == 2


def readonly_url(path: str):
    """The URL that opens a SQLite book for a process that may not write it or its folder
    (None when it may write both: it opens the book as usual, every change refused by
    `query_only`). Read-only (`mode=ro`) through the -wal and -shm beside it, which the owner
    keeps for a book others may read (`keep_wal`): a BookError says so when they are not
    there. On a file system mounted read-only nobody can write the book: it is read as it
    stands (`immutable`), with no -wal or -shm."""
    from urllib.parse import quote

    from sqlalchemy.engine import URL

    if os.access(path, os.W_OK) and os.access(os.path.dirname(path), os.W_OK):
        return None
    query = {"mode": "ro", "uri": "true"}
    if _read_only_file_system(path):
        query["immutable"] = "1"
    elif in_wal_mode(path) and not _wal_present(path):
        raise BookError(M("cannot read the book {path} from here: SQLite reads it through {wal} and its "
                          "-shm, which this user cannot make in that folder; its owner's next command "
                          "leaves them beside a book others may read (chmod 0644 the book)",
                          path=path, wal=os.path.basename(path) + "-wal"))
    return URL.create("sqlite", database="file:" + quote(path), query=query)


def _wal_present(path: str, patience: float = WAL_WAIT) -> bool:
    """Whether the -wal is beside the book, waiting a moment for it: the owner's process that
    closed the book last makes it again right after SQLite took it away."""
    deadline = time.monotonic() + patience
    while not os.path.exists(wal_files(path)[0]):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _read_only_file_system(path: str) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def keep_wal(path: str) -> None:
    """Once this process closed the book: its -wal and -shm made again, empty, if SQLite took
    them away and others may read the book (its group's or everyone's read permission), with
    the book's permissions and owner, as SQLite makes them. A reader who may not write the
    folder reads through them (readonly_url). A process that made them meanwhile (a writer that
    just opened the book) keeps its own: nothing is opened but to make it."""
    try:
        info = os.stat(path)
    except OSError:
        return
    if not info.st_mode & (stat.S_IRGRP | stat.S_IROTH) or not in_wal_mode(path):
        return
    for name in wal_files(path):
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError:
            continue  # there already, or a folder this process may not write
        try:
            os.fchmod(fd, stat.S_IMODE(info.st_mode))
            if os.geteuid() == 0 and (info.st_uid, info.st_gid) != (0, 0):
                os.fchown(fd, info.st_uid, info.st_gid)
        finally:
            os.close(fd)


def pragmas(engine, event, readonly: bool = False) -> None:
    """The connections of a SQLite book (the module's docstring): foreign keys on, SQLite's
    busy timeout, WAL, a commit on disk when it returns; writes (`book_write`) begin
    IMMEDIATE, a `book_bulk` one (an import's batch) not flushed at its commit. A read-only
    connection leaves the journal mode as the book has it (setting it writes), and refuses
    every change (`query_only`, whichever way the file was opened)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, record):
        dbapi_conn.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={round(locks.WRITE_TIMEOUT * 1000)}")
        if readonly:
            cur.execute("PRAGMA query_only=ON")
        else:
            _journal_in_wal(cur)
            cur.execute("PRAGMA synchronous=FULL")
            record.info["synchronous"] = "FULL"
        cur.close()

    import sqlite3

    from sqlalchemy.exc import DBAPIError

    @event.listens_for(engine, "begin")
    def _begin(conn):
        options = conn.get_execution_options()
        if not options.get("book_write", False):
            conn.exec_driver_sql("BEGIN")
            return
        raw = conn.connection.driver_connection
        synchronous = "NORMAL" if options.get("book_bulk", False) else "FULL"
        if conn.info.get("synchronous", synchronous) != synchronous:  # not in a transaction: here
            raw.execute(f"PRAGMA synchronous={synchronous}")
            conn.info["synchronous"] = synchronous
        try:
            begin_immediate(raw, conn.info.get("write_wait", locks.WRITE_TIMEOUT))
        except sqlite3.Error as exc:  # as SQLAlchemy's own statements raise it (store/db.py reads it)
            raise DBAPIError.instance("BEGIN IMMEDIATE", None, exc, sqlite3.Error) from None


def begin_immediate(raw, seconds: float) -> None:
    """BEGIN IMMEDIATE on a sqlite3 connection: the book's write lock, waited for at most
    `seconds`, then SQLite's "database is locked" (store/locks.py makes it `Busy`). The lock is
    asked for again every millisecond or two while another writer holds it: SQLite's own busy
    handler sleeps 1, 2, 5, … then 100 ms between two tries, and a writer asleep that long finds
    the lock taken again by those awake each time it looks (measured beside four tables and an
    import: a move waited 19 s). Every other statement keeps SQLite's busy timeout."""
    import random

    raw.execute("PRAGMA busy_timeout=0")
    try:
        _retried(raw, "BEGIN IMMEDIATE", seconds, lambda: random.uniform(0.0005, 0.002))
    finally:
        raw.execute(f"PRAGMA busy_timeout={round(locks.WRITE_TIMEOUT * 1000)}")


def wait_at_most(conn, seconds: float | None) -> None:
    """How long a write on this connection (SQLAlchemy's) waits for the book's write lock
    (None: WRITE_TIMEOUT, as every connection's)."""
    if seconds is None:
        conn.info.pop("write_wait", None)
    else:
        conn.info["write_wait"] = seconds


def _journal_in_wal(cur, patience: float = 30.0) -> None:
    """Put the book's journal in WAL mode (kept in the file: a book is switched once).
    Switching needs the file to itself for a moment, and SQLite answers a conflict with
    "database is locked" at once, not after its busy timeout: so the first uses of a new
    book at the same moment, each switching it, wait for each other here (as long as the
    busy timeout) instead of one of them failing."""
    _retried(cur, "PRAGMA journal_mode=WAL", patience, lambda: 0.005)


def _retried(cursor, statement: str, seconds: float, pause) -> None:
    """`statement` run, and run again while SQLite answers that the book is locked (SQLITE_BUSY,
    SQLITE_LOCKED), for `seconds` at most; `pause()`: the seconds between two tries."""
    import sqlite3

    deadline = time.monotonic() + seconds
    while True:
        try:
            cursor.execute(statement)
            return
        except sqlite3.OperationalError as exc:
            if getattr(exc, "sqlite_errorcode", 5) & 0xFF not in (5, 6) or time.monotonic() >= deadline:
                raise
        time.sleep(pause())
