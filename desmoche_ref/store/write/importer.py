"""Importing `.dsm` records into the book: each hand judged once, stored whole or not at all.

A hand is judged exactly as `check` judges it (`judge_stream`), in a child process while
this one writes (store/write/judging.py: the judging side). An invalid hand is rejected
with its findings and nothing of it is stored; a valid one is stored with its events (the
canonical lines, hash-chained), its verdict and its settlement's postings. Hands are written
in batches, one transaction each, many rows a statement (the hand is not re-judged move by
move as live entry does), so a `kill -9` leaves each hand whole or absent and a rerun finishes.

A hand is known by its content: the SHA-256 of its record as the book exports it, without
its Table tag, so a record imported twice (or re-imported from an export, or under another
`--table`) is stored once. The hands are stored through the scorebook's batch write
(store/write/batch.py `HandBatch`), by the laws, postings, close and journal of a live write: a
file's hands of a table are judged as a session by the laws across hands (laws.py, N9.5), the
first against the book's last hand of that table, exactly as the live writer judges `hand
new`; a hand tagged `[Closed "yes"]` closes its table after it as `table close` does, and a
later hand for that table is rejected.
"""

import os
import queue
import threading
import time
from contextlib import closing
from typing import NamedTuple

from sqlalchemy import text

from ...findings import M
from .batch import HandBatch
from .forked import ChildGone
from ..read.hands import current_table
from ..trust.identity import recorder
from .judging import Judging, Rejected  # noqa: F401 (importer.Rejected: a hand not stored)
from ..locks import busy
from ..schema.terms import IMPORT_LOCK, StoreError

BATCH = 250            # hands at most per transaction
SLICE = 0.05           # seconds an import's transaction aims to hold a SQLite book: a live move waits no longer
GAP = 0.003            # seconds at least between two of its transactions on SQLite: see _Writer


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
    file's name is the table. `progress(line)` is told how far it got; at most `batch_size`
    hands (else BATCH) are written per transaction, fewer when that would hold the book longer
    than SLICE (_Writer).

    The hands are judged in a child process (store/write/judging.py) while this one writes them:
    judging and writing each take about half the time, and run on two cores at once. The
    child reads the file."""
    batch_size = batch_size or BATCH

    # forked before the writer's thread starts (and, by the command line, before this process
    # loaded SQLAlchemy and opened the book: the child judges meanwhile)
    judged = source if isinstance(source, Judging) else Judging(source, path, table, encoding)
    rejected, batch, tables = [], [], []
    looks_like = None
    with closing(judged):
        with book.read() as session:
            who = recorder(session)
            judged.begin(who)
            before = current_table(session, who)  # the recorder's table stays theirs (tablebook.adopt_table)
        stopped = False
        try:
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
                raise Interrupted(writer.hands.stored)
        except BaseException:  # stopped or refused: the recorder's table stays theirs all the same
            if before is not None:
                _keep_table(book, before)
            raise
    rejected.sort(key=lambda r: r.number)
    done = writer.hands
    if done.stored or before is not None:  # the recorder's table stays theirs, else is the one imported
        from .tablebook import adopt_table

        adopt_table(book, before, tables)
    return Imported(path, done.stored, done.known, rejected, tables, looks_like,
                    sorted(done.warned, key=lambda r: r.number))


def _keep_table(book, before: int) -> None:
    """After an import that stopped: its recorder's table as it was (tablebook.adopt_table), if
    the book still takes a write; the import's own error is the one said."""
    from .tablebook import adopt_table

    try:
        adopt_table(book, before, [])
    except Exception:  # noqa: BLE001 - the book refuses writes now: the import's error says why
        pass


class _Writer:
    """Stores batches in order on a thread of its own, while the caller's thread keeps
    reading the judged hands from the judging process (whose pipe would otherwise fill and
    stop it). A failure stops the import at the next batch and is raised by the caller's
    thread.

    Each transaction holds the book a short while: a batch is stored in as many transactions
    as keep each near SLICE (how many hands that is, measured as it goes), so a live move
    waits behind an import no longer than that. A writer waiting for a SQLite book's lock asks
    for it again every half millisecond to two (store/sqlitefile.py `begin_immediate`): the
    import leaves the book free GAP between two of its transactions, so that those waiting find
    it free instead of the import taking it back at once."""

    def __init__(self, book, rejected: list, path: str):
        self.book, self.hands = book, HandBatch(book, path, rejected)
        self.error = None
        self.queue = queue.Queue(maxsize=2)
        self.sliced = book.dialect == "sqlite"
        self.size = 8 if self.sliced else BATCH  # hands the next transaction takes (SQLite: SLICE's worth)
        self.ended = 0.0   # when its last transaction ended (time.monotonic)
        self.lease = _Lease(book) if self.sliced else None

    def __enter__(self):
        if self.lease is not None:
            self.lease.take()
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
                self._store(batch)
            except BaseException as e:  # raised again in the caller's thread
                self.error = e

    def _store(self, batch: list) -> None:
        """The batch stored (SQLite: in transactions of about SLICE each, GAP apart)."""
        start = 0
        while start < len(batch):
            part = batch[start:start + self.size]
            if self.sliced:
                time.sleep(max(0.0, self.ended + GAP - time.monotonic()))
            began = time.monotonic()
            self.hands.store(part, ends=start + len(part) >= len(batch))
            self.ended = time.monotonic()
            if self.sliced:
                fits = len(part) * SLICE / max(self.ended - began, 0.001)  # hands SLICE holds, at this pace
                self.size = max(1, min(BATCH, round((self.size + fits) / 2)))
            start += len(part)

    def __exit__(self, kind, exc, tb):
        self.queue.put(None)
        self.thread.join()
        if self.lease is not None:
            self.lease.give_back()
        if exc is None and self.error is not None:
            raise self.error
        return False


class _Lease:
    """A SQLite book's imports one at a time, each whole (the setting row IMPORT_LOCK holds the
    process storing: its pid, when it started, a token of the import's own). An import's
    transactions are short and live moves go between them (_Writer); another import waits for
    the one storing to end, at most IMPORT_WAIT, then `Busy`. So two imports of one record at
    once store it at one table, not a slice at each (a hand is known by its content: the one
    storing second finds every hand known), as PostgreSQL's imports do under their row lock.
    An import killed leaves its lease to the next, which finds its process gone (all of a
    SQLite book's processes are on one machine: WAL needs shared memory)."""

    def __init__(self, book):
        import secrets

        self.book = book
        self.mine = f"{os.getpid()} {_started(os.getpid())} {secrets.token_hex(8)}"

    def take(self) -> None:
        deadline = time.monotonic() + IMPORT_WAIT
        while True:
            with self.book.write() as session:
                conn = session.connection()
                holder = conn.execute(_LEASE, {"key": IMPORT_LOCK}).scalar()
                if not holder or not _alive(holder):
                    conn.execute(_HOLD, {"key": IMPORT_LOCK, "value": self.mine})
                    return
            if time.monotonic() > deadline:
                raise busy(M("the book's imports (another import is storing its hands)"), IMPORT_WAIT)
            time.sleep(0.05)

    def give_back(self) -> None:
        with self.book.write() as session:
            session.connection().execute(_FREE, {"key": IMPORT_LOCK, "value": self.mine})


IMPORT_WAIT = 120.0  # seconds an import waits for another import of the same SQLite book to end


def _started(pid: int) -> str:
    """When the process started, as the kernel counts it (Linux: /proc), else ''."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


def _alive(holder: str) -> bool:
    """Whether the process a lease names is still running (the same one: not a later process
    given its number)."""
    pid, started = (holder.split() + ["", ""])[:2]
    try:
        os.kill(int(pid), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        pass  # another user's process: alive
    return not started or _started(int(pid)) in ("", started)


_LEASE = text("SELECT value FROM setting WHERE key = :key")
_HOLD = text("INSERT INTO setting (key, value) VALUES (:key, :value) "
             "ON CONFLICT (key) DO UPDATE SET value = excluded.value")
_FREE = text("UPDATE setting SET value = '' WHERE key = :key AND value = :value")


def _refused(message):
    """The book's refusal; `message` (findings.M) is shown in the language of the run."""
    return StoreError(message)
