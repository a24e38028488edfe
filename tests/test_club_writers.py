"""Writers of one SQLite book wait for SQLite's own write lock (issue 32): a write begins
IMMEDIATE and waits at most the busy timeout, then ends with exit 3, one line, nothing
written; every writer that waits gets through once the lock is let go, none lost or doubled;
a writer that dies holding the lock holds nobody back; and nothing of the book's is kept
outside its folder. On real SQLite files, with the real write path (Book.write, the CLI). The
writers are threads, each with its own connection, or processes started afresh (a forked
child must not use the SQLite its parent had open)."""

import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest
from conftest import invoke, template_book
from sqlalchemy import text

from desmoche_ref.store import locks
from desmoche_ref.store.db import open_book


@pytest.fixture
def book_path(tmp_path):
    path = tmp_path / "book.db"
    shutil.copy(template_book("sqlite"), path)
    return str(path)


def _write(path: str, key: str, took: dict) -> threading.Thread:
    """A writer: one row stored through Book.write once it has the book's write lock, in a
    thread; how long it took from asking, in `took`."""

    def write():
        started = time.monotonic()
        with open_book(path).write() as s:
            s.exec(text("INSERT INTO setting (key, value) VALUES (:key, '')"), params={"key": key})
        took[key] = time.monotonic() - started

    thread = threading.Thread(target=write)
    thread.start()
    return thread


def _stored(path: str, keys) -> list:
    """The setting rows of `keys` in the order they were stored."""
    with open_book(path).read() as s:
        return [k for (k,) in s.exec(text("SELECT key FROM setting WHERE key IN :keys ORDER BY rowid")
                                     .bindparams(_in("keys")), params={"keys": list(keys)})]


def _in(name):
    from sqlalchemy import bindparam

    return bindparam(name, expanding=True)


def _held(path: str, holding: threading.Event, release: threading.Event) -> threading.Thread:
    """A thread holding a write transaction on the book (SQLite's write lock) until `release`."""

    def hold():
        book = open_book(path)
        with book.write() as s:
            s.exec(text("INSERT INTO setting (key, value) VALUES ('holder', '')"))
            holding.set()
            release.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    assert holding.wait(10)
    return thread


def test_writers_waiting_for_the_lock_all_get_through_once_it_is_let_go(book_path):
    """One writer holds the book; three more ask meanwhile and wait (BEGIN IMMEDIATE, SQLite's
    busy timeout): once it lets go, each is stored exactly once, none lost, within moments."""
    holding, release = threading.Event(), threading.Event()
    holder = _held(book_path, holding, release)
    took: dict = {}
    writers = [_write(book_path, f"writer-{k}", took) for k in range(3)]
    time.sleep(0.3)  # all three waiting for the lock
    assert took == {}
    release.set()
    for t in (holder, *writers):
        t.join(10)
    stored = _stored(book_path, ["holder", "writer-0", "writer-1", "writer-2"])
    assert stored[0] == "holder" and sorted(stored[1:]) == ["writer-0", "writer-1", "writer-2"]
    assert max(took.values()) < 2.0


def test_a_write_past_its_time_is_busy_in_one_line_and_stores_nothing(book_path, monkeypatch):
    monkeypatch.setattr(locks, "WRITE_TIMEOUT", 0.3)
    holding, release = threading.Event(), threading.Event()
    holder = _held(book_path, holding, release)
    try:
        started = time.monotonic()
        ran = invoke("table", "new", "friday", "--players", "Ana Beto", "--bet", "1", "--db", book_path)
        waited = time.monotonic() - started
        spanish = invoke("table", "new", "friday", "--players", "Ana Beto", "--bet", "1", "--db", book_path,
                         "--lang", "es")
    finally:
        release.set()
        holder.join()
    assert (ran.returncode, ran.stdout, ran.stderr) == (
        3, "", "error: waited more than 0.3 s for a lock on the book, which another session of the book "
               "holds: nothing was written; try again\n")
    assert (spanish.returncode, spanish.stderr) == (
        3, "error: esperó más de 0.3 s por un bloqueo del libro, que tiene otra sesión del libro: no se "
           "escribió nada; inténtelo otra vez\n")
    assert waited < 5
    assert invoke("table", "list", "--json", "--db", book_path).stdout.strip() == "[]"
    # the lock let go: the next writer goes straight through
    assert invoke("table", "new", "friday", "--players", "Ana Beto", "--bet", "1", "--db", book_path).returncode == 0


HOLDER = ("import sys\nfrom sqlalchemy import text\nfrom desmoche_ref.store.db import open_book\n"
          "with open_book(sys.argv[1]).write() as s:\n"
          "    s.exec(text(\"INSERT INTO setting (key, value) VALUES ('doomed', '')\"))\n"
          "    print('holding', flush=True)\n"
          "    sys.stdin.readline()\n")


def test_a_writer_that_dies_holding_the_lock_holds_nobody_back(book_path):
    """The kernel lets go of a dead process's lock, and SQLite rolls its transaction back: the
    writer waiting behind it goes on, and nothing of the dead one's is stored."""
    doomed = subprocess.Popen([sys.executable, "-c", HOLDER, book_path], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert doomed.stdout.readline() == "holding\n"
        took: dict = {}
        after = _write(book_path, "after", took)
        time.sleep(0.2)  # waiting for the dead one's lock
        os.kill(doomed.pid, signal.SIGKILL)
    finally:
        doomed.kill()
        doomed.wait()
    after.join(10)
    assert _stored(book_path, ["doomed", "after"]) == ["after"]
    assert took["after"] < 5


def test_live_writes_go_between_an_imports_short_transactions(book_path, tmp_path):
    """An import stores its hands in short transactions (about importer.SLICE each), a gap
    between them: a write at another table while it runs waits for no more than one of them,
    and the writes and the import's transactions interleave."""
    from sqlalchemy import event

    from desmoche_ref.simulate import simulate_session
    from desmoche_ref.store.write import importer

    source = tmp_path / "night.dsm"
    source.write_text(simulate_session(120, 3, seed=5), encoding="utf-8")
    book = open_book(book_path)
    spans, began = [], {}

    @event.listens_for(book.engine, "begin")
    def begin(conn):
        if conn.get_execution_options().get("book_bulk"):
            began[id(conn)] = time.monotonic()

    @event.listens_for(book.engine, "commit")
    def commit(conn):
        if id(conn) in began:
            spans.append((began.pop(id(conn)), time.monotonic()))

    done, waits = threading.Event(), []

    def live():
        k = 0
        while not done.is_set():
            started = time.monotonic()
            with open_book(book_path).write() as s:
                s.exec(text("INSERT INTO setting (key, value) VALUES (:key, '')"), params={"key": f"live-{k}"})
            waits.append((started, time.monotonic()))
            k += 1
            time.sleep(0.01)

    writer = threading.Thread(target=live)
    writer.start()
    try:
        done_import = importer.import_records(book, source.read_bytes(), str(source), "night")
    finally:
        done.set()
        writer.join(10)
    assert done_import.stored == 120
    assert len(spans) >= 4  # many transactions, not one
    held = sorted(end - start for start, end in spans)
    assert held[len(held) // 2] < 8 * importer.SLICE
    first, last = spans[0][0], spans[-1][1]
    assert any(first < end < last for _, end in waits)  # live writes went between them
    assert max(end - start for start, end in waits) < 2.0


def test_an_import_waits_for_another_and_takes_over_from_one_killed(book_path, tmp_path, monkeypatch):
    """A SQLite book's imports store one at a time, each whole (so two imports of one record at
    once store it at one table): another waits for the one storing, past importer.IMPORT_WAIT
    `Busy` (exit 3, nothing stored); the hold of an import whose process is gone is taken over."""
    from desmoche_ref.store.write import importer
    from desmoche_ref.store.schema.terms import IMPORT_LOCK

    monkeypatch.setattr(importer, "IMPORT_WAIT", 0.3)
    friday = os.path.join(os.path.dirname(__file__), "conformance", "friday.dsm")

    def hold(value: str) -> None:
        with open_book(book_path).write() as s:
            s.exec(text("INSERT INTO setting (key, value) VALUES (:key, :value) ON CONFLICT (key) DO UPDATE "
                        "SET value = excluded.value"), params={"key": IMPORT_LOCK, "value": value})

    hold(f"{os.getpid()} {importer._started(os.getpid())} another-import")  # this process: running
    ran = invoke("import", friday, "--db", book_path)
    assert (ran.returncode, ran.stdout) == (3, "")
    assert ran.stderr == ("error: waited more than 0.3 s for the book's imports (another import is storing its "
                          "hands), which another session of the book holds: nothing was written; try again\n")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    hold(f"{dead.pid} {importer._started(os.getpid())} killed-import")  # a process that is gone
    ran = invoke("import", friday, "--db", book_path)
    assert (ran.returncode, ran.stderr) == (0, "")
    assert ran.stdout.startswith(f"{friday}: 1 hand stored")
    with open_book(book_path).read() as s:  # given back
        assert s.exec(text("SELECT value FROM setting WHERE key = :key"), params={"key": IMPORT_LOCK}).scalar() == ""


def _open_files() -> set:
    """The files this process has open, by path."""
    found = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            found.add(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass  # closed meanwhile (the listing's own)
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="no /proc to list a process's open files")
def test_writers_keep_nothing_of_the_book_outside_its_folder(tmp_path):
    """A book's writers wait on SQLite's own lock: while one writes, it has no file open but
    the book's own (no queue file per book in /tmp or /run/user), and a private book's folder
    holds the book alone once it is closed."""
    folder = tmp_path / "club"
    folder.mkdir()
    path = str(folder / "book.db")
    before = _open_files()
    book = open_book(path)
    with book.write() as s:
        s.exec(text("INSERT INTO setting (key, value) VALUES ('probe', '')"))
        during = _open_files() - before
    book.close()
    assert during == {path, path + "-wal", path + "-shm"}
    assert os.listdir(folder) == ["book.db"]


def test_a_reader_reads_a_snapshot_and_holds_no_writer_back(book_url):
    """`report` (a Core connection: Book.connect) and `standings`, the board (a book opened
    read-only) read the book at one moment, and a writer goes on meanwhile, without waiting:
    SQLite WAL readers; PostgreSQL REPEATABLE READ READ ONLY transactions."""
    from desmoche_ref.store.write.tablebook import create_table, list_tables

    book, reader = open_book(book_url), open_book(book_url, readonly=True)
    create_table(book, "friday", ["Ana", "Beto"], 100)
    tables = "SELECT name FROM card_table ORDER BY name"
    with book.connect() as conn, reader.read() as s:
        assert [n for (n,) in conn.execute(text(tables))] == ["friday"]
        assert [n for (n,) in s.exec(text(tables))] == ["friday"]
        if book.dialect == "postgresql":
            for answer in (conn, s):
                assert [answer.execute(text(f"SHOW {name}")).scalar() for name in
                        ("transaction_isolation", "transaction_read_only")] == ["repeatable read", "on"]
        started = time.monotonic()
        create_table(book, "saturday", ["Ana", "Beto"], 100)  # while both read
        assert time.monotonic() - started < 2
        assert [n for (n,) in conn.execute(text(tables))] == ["friday"]  # still the moment it began
        assert [n for (n,) in s.exec(text(tables))] == ["friday"]
    assert [t.name for t in list_tables(reader)] == ["friday", "saturday"]
