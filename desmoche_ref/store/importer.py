"""Importing `.dsm` records into the book: each hand judged once, stored whole or not at all.

A hand is judged exactly as `check` judges it (`judge_stream`), in a child process while
this one writes (store/judging.py: the judging side). An invalid hand is rejected
with its findings and nothing of it is stored; a valid one is stored with its events (the
canonical lines, hash-chained), its verdict and its settlement's postings. Hands are written
in batches, one transaction each, many rows a statement (the hand is not re-judged move by
move as live entry does), so a `kill -9` leaves each hand whole or absent and a rerun finishes.

A hand is known by its content: the SHA-256 of its record as the book exports it, without
its Table tag, so a record imported twice (or re-imported from an export, or under another
`--table`) is stored once. The hands are stored through the scorebook's batch write
(store/batch.py `HandBatch`), by the laws, postings, close and journal of a live write: a
file's hands of a table are judged as a session by the laws across hands (laws.py, N9.5), the
first against the book's last hand of that table, exactly as the live writer judges `hand
new`; a hand tagged `[Closed "yes"]` closes its table after it as `table close` does, and a
later hand for that table is rejected.
"""

import queue
import threading
from contextlib import closing
from typing import NamedTuple

from sqlalchemy import event

from ..findings import M
from .batch import HandBatch
from .forked import ChildGone
from .identity import recorder
from .judging import Judging, Rejected  # noqa: F401 (importer.Rejected: a hand not stored)
from .terms import StoreError

BATCH = 250            # hands per transaction


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
    batch_size = batch_size or BATCH

    # forked before the writer's thread starts (and, by the command line, before this process
    # loaded SQLAlchemy and opened the book: the child judges meanwhile)
    judged = source if isinstance(source, Judging) else Judging(source, path, table, encoding)
    rejected, batch, tables = [], [], []
    looks_like = None
    with closing(judged):
        with book.read() as session:
            judged.begin(recorder(session))
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
            raise Interrupted(writer.hands.stored)
    rejected.sort(key=lambda r: r.number)
    done = writer.hands
    if done.stored:  # a new book's table in use: the one imported (tablebook.adopt_table)
        from .tablebook import adopt_table

        adopt_table(book, tables)
    return Imported(path, done.stored, done.known, rejected, tables, looks_like,
                    sorted(done.warned, key=lambda r: r.number))


class _Writer:
    """Stores batches in order on a thread of its own, while the caller's thread keeps
    reading the judged hands from the judging process (whose pipe would otherwise fill and
    stop it). A failure stops the import at the next batch and is raised by the caller's
    thread."""

    def __init__(self, book, rejected: list, path: str):
        self.book, self.hands = book, HandBatch(book, path, rejected)
        self.error = None
        self.queue = queue.Queue(maxsize=2)

    def __enter__(self):
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
                self.hands.store(batch)
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


def _no_fsync_per_commit(engine) -> None:
    """SQLite in WAL mode, synchronous=NORMAL for the importer's connections: a killed
    process still loses nothing it committed (only a power cut could lose the last
    batches, which a rerun stores again), and a batch does not wait for the disk."""
    if not event.contains(engine, "connect", _normal_sync):
        event.listen(engine, "connect", _normal_sync)
        engine.dispose()  # connections already open were made without it


def _fsync_per_commit_again(engine) -> None:
    """The book's own durability back once the import is done: the engine may serve this
    process's next command (db.py keeps the engines of the last books opened)."""
    if event.contains(engine, "connect", _normal_sync):
        event.remove(engine, "connect", _normal_sync)
        engine.dispose()


def _normal_sync(dbapi_conn, _record) -> None:
    dbapi_conn.execute("PRAGMA synchronous=NORMAL")


def _refused(message):
    """The book's refusal; `message` (findings.M) is shown in the language of the run."""
    return StoreError(message)
