"""Opening the book: the connection, its transactions, the schema (Alembic, configured in code).

Where the book lives (`--db`, DESMOCHE_DB, the default) is store/location.py's. Every failure
to open a book is a `BookError` (store/errors.py): one line for the person, never a traceback,
never a password (`describe`).

A SQLite book the program makes is private: the file 0600, the default book's folder 0700.
The read commands open the book read-only (`open_book(readonly=True)`): no migration, no
write of any kind, so a person who may read the book but not write it reads it.
"""

import atexit
import functools
import os
from contextlib import contextmanager

from ..findings import M, joined
from . import locks, sqlitefile
from .trust import roles
from .errors import BookError, Unstamped
from .location import (ENV_VAR, cannot_write_here, default_path, describe, explain, parse_url, resolve_url,
                       scrub, sqlite_path)

__all__ = ["ENV_VAR", "BookError", "Unstamped", "describe", "resolve_url", "sqlite_path"]  # the shell's, from here

# The book's own tables (a test checks they are the models'): a database holding all of them
# but no schema version is a book whose alembic_version row was lost (`db check`, `db stamp`)
BOOK_TABLES = frozenset({"setting", "player", "card_table", "hand", "event", "posting", "journal",
                         "recorder_pin"})
_LOCK = 0x6465736D6F636865  # pg_advisory_xact_lock's key for a schema upgrade ("desmoche")


def make_engine(url: str, readonly: bool = False):
    """The engine of a book; `readonly`: its connections can only read (SQLite `query_only`,
    or `mode=ro` for a process that may not write the file: store/sqlitefile.py; PostgreSQL
    read-only transactions). One this process made for the same book is used again
    (_RecentEngines)."""
    parsed = parse_url(url)
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise BookError(M("unknown database {backend!r} in {book}: the book is SQLite or PostgreSQL",
                          backend=backend, book=describe(url)))
    target = url
    if backend == "sqlite":
        path = sqlite_path(url)
        if path:
            folder = os.path.dirname(path)
            if not os.path.isdir(folder):
                raise BookError(M("cannot open the book {path}: the folder {folder} does not exist",
                                  path=path, folder=folder))
            if not readonly and not os.access(folder, os.W_OK):  # SQLite makes and removes its -wal there
                raise BookError(cannot_write_here(url))
        target = (sqlitefile.readonly_url(path) if readonly and path else None) or url
    key = (os.getpid(), str(target), readonly)
    return _ENGINES.get(key) or _ENGINES.keep(key, _new_engine(url, target, backend, readonly))


def _new_engine(url: str, target, backend: str, readonly: bool):
    from sqlalchemy import create_engine, event
    from sqlalchemy.exc import NoSuchModuleError

    if backend == "sqlite":
        try:
            engine = create_engine(target, connect_args={"timeout": locks.WRITE_TIMEOUT})
        except NoSuchModuleError as e:
            raise BookError(M("cannot open {book}: {reason}", book=describe(url), reason=str(e))) from None
        sqlitefile.pragmas(engine, event, readonly)
        return engine
    try:
        # pre_ping: a connection the server closed meanwhile (a restart, an idle timeout in
        # a night-long `play`) is replaced before use, not reported as a failed move
        # a reader's transaction is a snapshot (REPEATABLE READ, READ ONLY below): what it
        # reads is the book at one moment, and it takes no lock a writer waits for
        snapshot = {"isolation_level": "REPEATABLE READ"} if readonly else {}
        engine = create_engine(url, connect_args={"connect_timeout": 10}, pool_pre_ping=True, **snapshot)
    except (NoSuchModuleError, ModuleNotFoundError) as e:
        raise BookError(M("cannot open {book}: {reason}", book=describe(url),
                          reason=scrub(str(e), url))) from None

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        # every wait for a lock is bounded: a session that holds one (a recorder's open
        # transaction, a reader's long read before an upgrade) never hangs the program
        autocommit = dbapi_conn.autocommit
        dbapi_conn.autocommit = True
        dbapi_conn.execute(f"SET lock_timeout = {round(locks.LOCK_TIMEOUT * 1000)}")
        dbapi_conn.autocommit = autocommit
        if readonly:
            dbapi_conn.read_only = True  # psycopg: every transaction BEGINs READ ONLY
    return engine


class _RecentEngines:
    """The engines of the last few books this process opened, made again only for another
    book. A process that runs one command opens its book once and gains nothing; one that
    runs many commands in turn (the tests, through click's CliRunner) keeps SQLAlchemy's
    statement cache, which is an engine's: else every command compiles its statements anew
    (a third of a move's time in-process). Each command still connects afresh: it disposes
    the engine's connections when it ends (cli/book.py). Keyed by the process too: a forked
    child never shares its parent's pool."""

    SIZE = 4

    def __init__(self):
        self._kept = {}

    def get(self, key):
        engine = self._kept.pop(key, None)
        if engine is not None:
            self._kept[key] = engine  # the most recent last
        return engine

    def keep(self, key, engine):
        self._kept[key] = engine
        while len(self._kept) > self.SIZE:
            oldest = next(iter(self._kept))
            _closed(self._kept.pop(oldest))
        return engine

    def close_all(self) -> None:
        """At the process's end: every engine's connections closed, as `_closed` closes them."""
        for key, engine in list(self._kept.items()):
            if key[0] == os.getpid():
                _closed(engine)


_ENGINES = _RecentEngines()
atexit.register(_ENGINES.close_all)


def _closed(engine) -> None:
    """The engine's connections closed. A SQLite book others may read then keeps its -wal and
    -shm beside it, if SQLite took them away with this process's last connection
    (sqlitefile.keep_wal): a reader who may not write its folder reads through them."""
    engine.dispose()
    if engine.dialect.name == "sqlite" and engine.url.query.get("mode") != "ro":
        path = sqlite_path(str(engine.url))
        if path:
            sqlitefile.keep_wal(path)


class Book:
    """An open book: its engine and the sessions that read and write it. Its readers read a
    snapshot (SQLite WAL, PostgreSQL REPEATABLE READ) and wait for no writer, nor hold one
    back; its writers wait for the locks they need, each wait bounded (store/locks.py)."""

    def __init__(self, url: str, engine, readonly: bool = False):
        self.url = url
        self.engine = engine
        self.dialect = engine.dialect.name
        self.readonly = readonly
        self.made = False  # made by this command (open_book): the shell says so, once

    def close(self) -> None:
        """Close the book's connections (the engine stays, for this process's next command:
        _RecentEngines); see `_closed`."""
        _closed(self.engine)

    @contextmanager
    def read(self):
        """A session for reading (a deferred transaction)."""
        from sqlmodel import Session

        with self._failures():
            with Session(self.engine, expire_on_commit=False) as session:
                yield session

    @contextmanager
    def connect(self):
        """A Core connection for reading: no ORM to import (the league's reports start faster).
        Its transaction is a snapshot, the book at one moment, holding no writer back (SQLite:
        a WAL read; PostgreSQL: REPEATABLE READ, READ ONLY, no lock a writer waits for)."""
        with self._failures():
            with self.engine.connect() as conn:
                if self.dialect == "postgresql":
                    conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
                yield conn

    @contextmanager
    def begin(self, bulk: bool = False):
        """One write transaction on a Core connection (no ORM); `bulk`: see `write`."""
        with self._failures():
            with self.engine.execution_options(book_write=True, book_bulk=bulk).begin() as conn:
                yield conn

    @contextmanager
    def write(self, bulk: bool = False):
        """One transaction for one command: committed whole at the end, or not at all. On
        SQLite it begins IMMEDIATE (the book's write lock taken first: store/locks.py) and is on
        disk when it commits; a `bulk` one (an import's batch) is not flushed to disk at its
        commit, only at SQLite's next checkpoint: a power cut before it takes batches a rerun
        stores again (store/write/importer.py)."""
        from sqlmodel import Session

        with self._failures():
            with Session(self.engine.execution_options(book_write=True, book_bulk=bulk),
                         expire_on_commit=False) as session:  # rows stay readable after
                with session.begin():
                    yield session

    @contextmanager
    def _failures(self):
        from sqlalchemy.exc import DBAPIError, IntegrityError

        try:
            yield
        except IntegrityError:
            raise
        except BookError:
            raise
        except DBAPIError as exc:
            raise _failure(exc, self) from None
        except Exception as exc:  # the driver's own (the importer's COPY): a refused privilege, a wait
            busy = locks.busy_from(exc)
            if busy is not None:
                raise busy from None
            message = roles.refusal(exc, self)
            if message is None:
                raise
            raise BookError(message) from None


def _failure(exc, book: Book, head: str | None = None) -> BookError:
    """The BookError of a database error: `Busy` for a wait past its time, the privilege a
    server refused (`head`: while bringing the schema to it), else why the book could not be
    used, in one line."""
    busy = locks.busy_from(exc)
    if busy is not None:
        return busy
    return BookError(roles.refusal(exc, book, head) or explain(exc, book.url, book.readonly))


def open_book(given: str | None = None, migrate: bool = True, readonly: bool = False,
              make: bool = True) -> Book:
    """The book named by `--db` / DESMOCHE_DB / the default, with its schema up to date.

    `readonly`: for the commands that only read. Nothing is written, not even a migration
    (a book of an older schema says it needs `desmoche-ref db upgrade`), and nothing is made:
    a book that does not exist (no file, an empty database) is a BookError naming where it was
    looked for (`no_book`), as with `make=False`. Else a book that does not exist yet is made
    as any first use makes it."""
    if readonly:
        book = connect_book(given, readonly=True)
        version = schema_version(book)
        if version == schema_head():
            return book
        book.close()
        if version is None:  # nothing to read: a read never makes the book
            raise no_book(book.url)
        check_known(book, version)
        raise BookError(M("the book {book} needs `desmoche-ref db upgrade` before it can be read "
                          "(its schema is {version}, this program's {head})", book=describe(book.url),
                          version=version, head=schema_head()))
    book = connect_book(given, make=make)
    version = schema_version(book)
    if version == schema_head():
        return book
    if version is None and not make:
        book.engine.dispose()
        raise no_book(book.url)
    check_known(book, version)
    if migrate:
        book.made = upgrade(book) is None  # an empty book (a new file): made by this command
    return book


def connect_book(given: str | None = None, readonly: bool = False, make: bool = True) -> Book:
    """The book named, its schema not looked at (`open_book` looks). A SQLite book that does
    not exist is made here, private (0600; the default book's folder 0700) — unless `readonly`
    or not `make`, which make nothing."""
    url = resolve_url(given)
    path = sqlite_path(url)
    if path and not os.path.exists(path):
        if readonly or not make:
            raise no_book(url)
        _make_book_file(path, url == "sqlite:///" + default_path())
    return Book(url, make_engine(url, readonly=readonly), readonly=readonly)


def no_book(url: str) -> BookError:
    """A read of a book that does not exist (no file, an empty database): one line naming
    where it was looked for; nothing is made (a mistyped --db stays a mistake)."""
    path = sqlite_path(url)
    if path and not os.path.isdir(os.path.dirname(path)):
        return BookError(M("cannot open the book {path}: the folder {folder} does not exist", path=path,
                           folder=os.path.dirname(path)))
    if path:
        return BookError(M("there is no book at {path}: nothing is recorded there yet", path=path))
    return BookError(M("there is no book in {book}: nothing is recorded there yet", book=describe(url)))


def _make_book_file(path: str, default: bool) -> None:
    """An empty SQLite file (a valid empty database) readable by its owner only; the default
    book's folder made on first use, and kept to its owner (it holds the table session's
    history too)."""
    folder = os.path.dirname(path)
    if default:
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            os.chmod(folder, 0o700)
        except OSError:
            pass  # a folder that cannot be made or is not ours: the file's own error says why
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:  # another command made it a moment ago
        pass
    except OSError as e:
        if not os.path.isdir(folder):
            return  # make_engine says the folder does not exist
        if not os.access(folder, os.W_OK):
            raise BookError(M("cannot make the book {path}: the folder {folder} is read-only",
                              path=path, folder=folder)) from None
        raise BookError(M("cannot make the book {path}: {reason}", path=path,
                          reason=e.strerror or str(e))) from None


def check_known(book: Book, version) -> None:
    """BookError if the book's schema is newer than this program's."""
    if version is not None and version not in known_revisions():
        raise BookError(M("the book {book} was written by a newer desmoche-ref (schema {version}): "
                          "upgrade the program", book=describe(book.url), version=version))


def schema_version(book: Book):
    """The book's Alembic revision, or None for an empty database; `Unstamped` for a book
    whose tables are there without their version; BookError if unreadable. The tables are
    listed in one query, so a book another command is making is seen whole or not at all."""
    from sqlalchemy import inspect, text
    from sqlalchemy.exc import DBAPIError

    try:
        with book.engine.connect() as conn:
            names = set(inspect(conn).get_table_names())
            version = None
            if "alembic_version" in names:
                row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
                version = row[0] if row else None
    except DBAPIError as exc:
        raise _failure(exc, book) from None
    if version is None and names & BOOK_TABLES and not BOOK_TABLES <= names:
        raise BookError(M("{book} holds tables but no schema version: it is not a book of this program",
                          book=describe(book.url)))
    if version is None and BOOK_TABLES <= names:
        raise Unstamped(M("the book {book} has its tables but no schema version (its alembic_version "
                          "row is missing): `desmoche-ref db check` says whether the tables are this "
                          "program's and how to repair the book", book=describe(book.url)))
    return version


def _migrations() -> str:
    return os.path.join(os.path.dirname(__file__), "schema", "migrations")


@functools.cache
def _revisions():
    """(the head, every revision) of the migrations shipped, read from Alembic's script
    directory: each versions/*.py names its `revision` and `down_revision`, and the head is
    the revision no other revises. Read as text, once a process: importing Alembic would
    cost every command's start-up (a test checks this is Alembic's own head)."""
    folder = os.path.join(_migrations(), "versions")
    revises = {}
    for name in os.listdir(folder):
        if not name.endswith(".py"):
            continue
        found = {}
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for line in f:  # `revision = '0002'`, `down_revision = '0001'` (or None)
                key, equals, value = line.partition("=")
                key = key.split(":")[0].strip()
                if equals and key in ("revision", "down_revision") and not line[0].isspace():
                    found[key] = value.strip().strip("'\"") if value.strip() != "None" else None
                if len(found) == 2:
                    break
        if found.get("revision"):
            revises[found["revision"]] = found.get("down_revision")
    heads = set(revises) - set(revises.values())
    if len(heads) != 1:
        raise RuntimeError(f"the migrations have {len(heads)} heads: {sorted(heads)}")
    return heads.pop(), frozenset(revises)


def schema_head() -> str:
    """The newest schema revision this program ships."""
    return _revisions()[0]


def known_revisions() -> frozenset:
    return _revisions()[1]


def alembic_config(book: Book | None = None):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", _migrations())
    if book is not None:
        cfg.set_main_option("sqlalchemy.url", book.url.replace("%", "%%"))
    return cfg


def upgrade(book: Book):
    """Bring the schema to the newest revision, in one transaction; the revision found
    before (None: an empty book). Commands upgrading one book at once queue (UPGRADE_TIMEOUT
    at most, long enough for another's migrations): on PostgreSQL for an advisory lock, on
    SQLite for the book's write lock; the later finds the book upgraded and does nothing."""
    from alembic import command
    from alembic.migration import MigrationContext
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    cfg = alembic_config(book)
    try:
        with _writing(book, locks.UPGRADE_TIMEOUT) as conn:
            if book.dialect == "postgresql":  # an owner's lock: bounded, as every wait is
                conn.execute(text(f"SET LOCAL lock_timeout = {round(locks.UPGRADE_TIMEOUT * 1000)}"))
                with locks.bounded(M("the book's schema (another process is upgrading it)"), locks.UPGRADE_TIMEOUT):
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
            before = MigrationContext.configure(conn).get_current_revision()
            if before != schema_head():
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
                roles.reapply(conn)  # the roles granted before: their privileges on the new schema
    except DBAPIError as exc:
        raise _failure(exc, book, schema_head()) from None
    return before


@contextmanager
def _writing(book: Book, seconds: float | None = None):
    """A write transaction on a Core connection of the book, the schema's: on SQLite it waits
    for the book's write lock at most `seconds` (else WRITE_TIMEOUT, the busy timeout)."""
    with book.engine.connect() as conn:
        waits = book.dialect == "sqlite" and seconds is not None
        if waits:
            sqlitefile.wait_at_most(conn, seconds)
        try:
            with conn.execution_options(book_write=True).begin():
                yield conn
        finally:
            if waits:
                sqlitefile.wait_at_most(conn, None)


def stamp(book: Book) -> None:
    """Record the newest schema revision in a book whose tables are exactly the models'
    but whose alembic_version row is missing (`db stamp`)."""
    from alembic import command
    from sqlalchemy.exc import DBAPIError

    cfg = alembic_config(book)
    try:
        with _writing(book) as conn:
            cfg.attributes["connection"] = conn
            command.stamp(cfg, "head")
    except DBAPIError as exc:
        raise _failure(exc, book, schema_head()) from None


def drift(book: Book) -> list:
    """How the book's schema differs from the models (Alembic's autogenerate comparison), one
    line a difference: none when the migrations shipped make exactly the tables the models say."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy.exc import DBAPIError
    from sqlmodel import SQLModel

    from .schema import models  # (registers the tables)

    models.on_dialect(book.dialect)
    try:
        with book.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diffs = compare_metadata(context, SQLModel.metadata)
    except DBAPIError as exc:
        raise BookError(explain(exc, book.url, book.readonly)) from None
    return [_difference(d) for d in diffs]


def _difference(d):
    """One of Alembic's differences in words (a Message): `add_…` is in the models, not in
    the book. The schema's own names (tables, columns, types) stay as they are."""
    if isinstance(d, list):  # a column's changes come as a list
        return joined([_difference(x) for x in d])
    kind, thing = d[0], None
    if kind.startswith("modify_"):
        return M("column {table}.{column}: {attribute} is {book} in the book, {models} in the models",
                 table=d[2], column=d[3], attribute=kind[7:], book=d[5], models=d[6])
    if kind.endswith("_table"):
        thing = M("table {name}", name=d[1].name)
    elif kind.endswith("_index"):
        thing = M("index {name} on {table}", name=d[1].name, table=d[1].table.name)
    elif kind.endswith("_column"):
        thing = M("column {table}.{column}", table=d[2], column=d[3].name)
    elif kind.endswith("_constraint") or kind.endswith("_fk"):
        thing = (M("constraint {name} on {table}", name=d[1].name, table=d[1].table.name) if d[1].name
                 else M("constraint on {table}", table=d[1].table.name))
    if thing is None:
        return str(d)
    return M("the book lacks {thing}", thing=thing) if kind.startswith("add") else \
        M("the book has {thing}, the models do not", thing=thing)
