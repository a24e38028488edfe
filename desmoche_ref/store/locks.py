"""How the program waits for the locks of a book: never for ever, never on a lock a reader
can hold.

PostgreSQL: writers serialise on row locks: the table's row (store/read/hands.py `lock_table`),
the setting row of the journal's head (store/trust/journal.py `lock`), the setting row of imports
(store/write/importer.py). PostgreSQL lets a role lock a row only if it may UPDATE the table (a
column of it is enough), and a reader may update nothing: no reader can hold a writer up (an
advisory lock, which any role may take, was what writers waited on before schema 0006).
Every connection the program opens waits at most LOCK_TIMEOUT for a lock (`lock_timeout`,
store/db.py): a recorder's transaction left open, or a reader's long read in front of a
schema upgrade, makes the command end with `Busy` — exit 3 and one line naming what it waited
on, nothing written — never a hang. A schema upgrade waits longer for another process's
(UPGRADE_TIMEOUT): it may journal a whole book.

SQLite: the book has one write lock, SQLite's own. A write begins IMMEDIATE, taking it before
it reads anything, and SQLite waits for it at most WRITE_TIMEOUT (`busy_timeout`,
store/sqlitefile.py); past it, `Busy`: exit 3, one line, nothing written. Every write holds it
for milliseconds: a move, and each of an import's transactions (store/write/importer.py keeps them
short). Readers read a snapshot of the WAL and wait for no writer.
"""

import re
from contextlib import contextmanager

from ..findings import M
from .errors import BookError

# seconds: a write holds its locks for milliseconds, an import's transaction a fraction of a second
LOCK_TIMEOUT = 5.0
# seconds a schema upgrade waits (for another process's upgrade, which may journal a whole book)
UPGRADE_TIMEOUT = 120.0
# seconds a write to a SQLite book waits for its write lock (SQLite's busy timeout)
WRITE_TIMEOUT = 30.0


class Busy(BookError):
    """Another session held a lock this command waited for longer than LOCK_TIMEOUT (on
    SQLite, the book's write lock longer than WRITE_TIMEOUT): nothing was written (exit 3, as
    when another recorder moved the hand first)."""


def busy(what, seconds: float | None = None) -> Busy:
    """The Busy of a wait for `what` (a Message: "the book's journal", "table friday", …)."""
    return Busy(M("waited more than {seconds} s for {what}, which another session of the book holds: "
                  "nothing was written; try again", seconds=f"{seconds or LOCK_TIMEOUT:g}", what=what))


def lock_timed_out(exc) -> bool:
    """Whether PostgreSQL gave up waiting for a lock (SQLSTATE 55P03, `lock_timeout`), or
    SQLite for the file's (SQLITE_BUSY and its extended codes, past the busy timeout)."""
    return getattr(getattr(exc, "orig", exc), "sqlstate", None) == "55P03" or _sqlite_busy(exc)


def _sqlite_busy(exc) -> bool:
    code = getattr(getattr(exc, "orig", exc), "sqlite_errorcode", None)
    return code is not None and code & 0xFF == 5  # SQLITE_BUSY


@contextmanager
def bounded(what, seconds: float | None = None):
    """Statements that wait for a lock on `what` (a Message): past LOCK_TIMEOUT (or the
    `seconds` the transaction set), `Busy` naming it rather than the server's words."""
    from sqlalchemy.exc import DBAPIError

    try:
        yield
    except DBAPIError as exc:
        if lock_timed_out(exc):
            raise busy(what, seconds) from None
        raise


def busy_from(exc):
    """The Busy of a wait no `bounded` names (what it was on, from the error's context: a row
    of a table, `relation "hand"`; on SQLite the file), or None when `exc` is another failure."""
    if _sqlite_busy(exc):
        return busy(M("a lock on the book"), WRITE_TIMEOUT)
    if not lock_timed_out(exc):
        return None
    context = getattr(getattr(getattr(exc, "orig", exc), "diag", None), "context", None) or ""
    found = re.search(r'relation "([^"]+)"', context)
    return busy(M("a row of the book's {relation} table", relation=found.group(1)) if found
                else M("a lock on the book"))


def lock_row(conn, key: str, what) -> None:
    """Hold the setting row `key` for this transaction (PostgreSQL), made by its first use:
    the writers of `what` (a Message) queue on it, each waiting at most LOCK_TIMEOUT."""
    from sqlalchemy import text

    with bounded(what):
        query = text("SELECT 1 FROM setting WHERE key = :key FOR UPDATE")
        if conn.execute(query, {"key": key}).first() is None:
            conn.execute(text("INSERT INTO setting (key, value) VALUES (:key, '') ON CONFLICT DO NOTHING"),
                         {"key": key})
            conn.execute(query, {"key": key})
