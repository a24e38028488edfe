"""Telling the book's watchers (the live board) that the book changed, and watching for it.

Every write the book keeps appends to its journal (journal.append), in the writer's own
transaction; `announce` is called there, so every front end that writes — the verbs,
`play`, `import`, `table …`, `hand new` — tells the board without knowing of it:
- on PostgreSQL it sends `NOTIFY desmoche_book`: the server delivers it to every session
  LISTENing on that channel when, and only if, the transaction commits; several in one
  transaction arrive as one (no payload: identical notifications are folded);
- on SQLite it does nothing: a watcher reads `PRAGMA data_version`, which changes whenever
  another connection commits to the file (a few microseconds a look, no query of the book).

`watch(book)` is the watching side (`Watcher.wait`), used by the board (board/hub.py).
Nothing here writes: a role granted reading only (`db grant --reader`) may LISTEN.
"""

import time

CHANNEL = "desmoche_book"
POLL = 0.05  # seconds between two looks at a SQLite book's data_version


def announce(db) -> None:
    """Tell the watchers that the transaction of `db` (a Session or a Connection) changed the
    book: delivered at its commit, never for a rollback."""
    from sqlalchemy import text

    bind = db.get_bind() if hasattr(db, "get_bind") else db
    if bind.dialect.name == "postgresql":
        db.execute(text(f"NOTIFY {CHANNEL}"))


class Watcher:
    """Waits for another process to commit to the book. `wait(timeout, stop)` returns True when
    the book changed (or may have: a watcher that just connected says so once), False after
    `timeout` seconds without a change or soon after the threading.Event `stop` is set; a
    book it can no longer reach is a BookError."""

    def wait(self, timeout: float, stop=None) -> bool:  # pragma: no cover - the two kinds below
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover
        pass


class _SqliteWatcher(Watcher):
    """A connection of its own that reads nothing but `PRAGMA data_version` (read-only, never
    in a transaction: each look sees the latest commit)."""

    def __init__(self, path: str, poll: float = POLL):
        import sqlite3
        from urllib.parse import quote

        self.path, self.poll = path, poll
        self.conn = sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True, isolation_level=None,
                                    check_same_thread=False, timeout=5)
        self.version: int | None = None  # PRAGMA data_version, once read

    def _version(self) -> int:
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def wait(self, timeout: float, stop=None) -> bool:
        import os
        import sqlite3

        from ..errors import BookError
        from ..location import explain

        deadline = time.monotonic() + timeout
        while True:
            try:
                if not os.path.exists(self.path):
                    raise sqlite3.OperationalError("unable to open database file")
                now = self._version()
            except sqlite3.Error as exc:
                raise BookError(explain(exc, "sqlite:///" + self.path, readonly=True)) from None
            changed, self.version = now != self.version, now
            if changed:
                return True
            left = deadline - time.monotonic()
            if left <= 0 or (stop is not None and stop.is_set()):
                return False
            time.sleep(min(self.poll, left))

    def close(self) -> None:
        self.conn.close()


class _PostgresWatcher(Watcher):
    """A connection of its own (autocommit) that LISTENs on the book's channel."""

    def __init__(self, url: str):
        import psycopg
        from sqlalchemy.engine import make_url

        from ..errors import BookError
        from ..location import explain

        self.url = url
        try:
            self.conn = psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(
                hide_password=False), autocommit=True, connect_timeout=10)
            self.conn.execute(f"LISTEN {CHANNEL}")
        except psycopg.Error as exc:
            raise BookError(explain(exc, url, readonly=True)) from None
        self.fresh = True

    SLICE = 0.25  # seconds: how soon a wait heeds its stop

    def wait(self, timeout: float, stop=None) -> bool:
        import psycopg

        from ..errors import BookError
        from ..location import explain

        if self.fresh:  # whatever happened before it listened: look once
            self.fresh = False
            return True
        try:
            deadline, got = time.monotonic() + timeout, False
            while not got and time.monotonic() < deadline and not (stop is not None and stop.is_set()):
                got = any(True for _ in self.conn.notifies(timeout=min(self.SLICE, timeout), stop_after=1))
            if got:  # several commits at once: one look covers them all
                for _ in self.conn.notifies(timeout=0.001):
                    pass
            else:  # a quiet while: is the server still there? (a restart drops the LISTEN)
                self.conn.execute("SELECT 1")
            return got
        except psycopg.Error as exc:
            raise BookError(explain(exc, self.url, readonly=True)) from None

    def close(self) -> None:
        self.conn.close()


def watch(book, poll: float = POLL) -> Watcher:
    """A Watcher of the book (a db.Book): BookError if it cannot be reached. `poll`: how often
    a SQLite book is looked at (seconds)."""
    from ..location import sqlite_path

    if book.dialect == "postgresql":
        return _PostgresWatcher(book.url)
    path = sqlite_path(book.url)
    assert path is not None  # a book is SQLite or PostgreSQL (db.make_engine refuses the rest)
    return _SqliteWatcher(path, poll)
