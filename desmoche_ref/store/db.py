"""Opening the book: where it lives, the connection, the schema (Alembic, configured in code).

`--db URL` or `DESMOCHE_DB` names the book: a SQLAlchemy URL, or a plain file path meaning
SQLite. By default one SQLite file in the user's data directory (platformdirs), so moves
typed from any folder reach the same book. Every failure to open a book is a `BookError`:
one line for the person, never a traceback.
"""

import os
from contextlib import contextmanager

from ..findings import M, joined

SCHEMA_HEAD = "0004"  # the newest migration shipped (a test checks it is Alembic's head)
ENV_VAR = "DESMOCHE_DB"


class BookError(Exception):
    """The book cannot be opened or used: a bad URL, a missing folder, a server that is
    down or refuses, a file that is not a book, a book from a newer program. Its argument
    is the message (a findings.Message, shown in the language of the run)."""


def default_path() -> str:
    from platformdirs import user_data_dir

    return os.path.join(user_data_dir("desmoche-ref", appauthor=False), "book.db")


def resolve_url(given: str | None = None) -> str:
    """The SQLAlchemy URL of the book named by `--db`, else DESMOCHE_DB, else the default."""
    value = given or os.environ.get(ENV_VAR) or ""
    if not value:
        return "sqlite:///" + default_path()
    if "://" not in value:  # a plain path: SQLite
        return "sqlite:///" + os.path.abspath(os.path.expanduser(value))
    if value.startswith("postgresql://") or value.startswith("postgres://"):
        value = "postgresql+psycopg://" + value.split("://", 1)[1]  # psycopg 3, not psycopg2
    return value


def describe(url: str) -> str:
    """The URL without its password, for messages."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url


def make_engine(url: str):
    from sqlalchemy import create_engine, event
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        parsed = make_url(url)
    except ArgumentError:
        raise BookError(M("{url!r} is not a database URL (sqlite:///PATH, "
                          "postgresql+psycopg://USER@HOST/DB, or a file path)", url=url)) from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise BookError(M("unknown database {backend!r} in {book}: the book is SQLite or PostgreSQL",
                          backend=backend, book=describe(url)))
    if backend == "sqlite":
        path = parsed.database or ""
        if path and path != ":memory:":
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise BookError(M("cannot open the book {path}: the folder {folder} does not exist",
                                  path=path, folder=folder))
        try:
            engine = create_engine(url, connect_args={"timeout": 30})
        except NoSuchModuleError as e:
            raise BookError(M("cannot open {book}: {reason}", book=describe(url), reason=str(e))) from None
        _sqlite_pragmas(engine, event)
        return engine
    try:
        return create_engine(url, connect_args={"connect_timeout": 10})
    except (NoSuchModuleError, ModuleNotFoundError) as e:
        raise BookError(M("cannot open {book}: {reason}", book=describe(url), reason=str(e))) from None


def _sqlite_pragmas(engine, event):
    """WAL (readers never block the writer), foreign keys on, a busy timeout; and writes
    begin IMMEDIATE, so two recorders queue for the lock instead of failing on a stale read."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA journal_mode=WAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        immediate = conn.get_execution_options().get("book_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _explain(exc, url: str):
    """One line for a failure to reach or read the book (a Message; the driver's own words
    inside it stay as the driver wrote them)."""
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    first = text[0] if text else type(exc).__name__
    book = describe(url)
    if "file is not a database" in first or "file is encrypted" in first:
        return M("{book} is not a book: the file is not a SQLite database", book=book)
    if "unable to open database file" in first:
        return M("cannot open the book {book}: unable to open the file", book=book)
    if "password authentication failed" in first:
        return M("cannot open {book}: the server refused the user or password", book=book)
    if "does not exist" in first and ("database" in first or "role" in first):
        return M("cannot open {book}: {reason}", book=book, reason=first.split('FATAL:')[-1].strip())
    if "Connection refused" in first or "could not connect" in first or "connection failed" in first:
        return M("cannot reach the database server for {book}: is it running? ({reason})", book=book,
                 reason=first)
    return M("cannot use the book {book}: {reason}", book=book, reason=first)


class Book:
    """An open book: its engine and the sessions that read and write it."""

    def __init__(self, url: str, engine):
        self.url = url
        self.engine = engine
        self.dialect = engine.dialect.name

    @contextmanager
    def read(self):
        """A session for reading (a deferred transaction)."""
        from sqlmodel import Session

        with self._failures():
            with Session(self.engine, expire_on_commit=False) as session:
                yield session

    @contextmanager
    def connect(self):
        """A Core connection for reading: no ORM to import (the league's reports start faster)."""
        with self._failures():
            with self.engine.connect() as conn:
                yield conn

    @contextmanager
    def begin(self):
        """One write transaction on a Core connection (the importer's bulk inserts: no ORM)."""
        with self._failures():
            with self.engine.execution_options(book_write=True).begin() as conn:
                yield conn

    @contextmanager
    def write(self):
        """One transaction for one command: committed whole at the end, or not at all."""
        from sqlmodel import Session

        with self._failures():
            with Session(self.engine.execution_options(book_write=True),
                         expire_on_commit=False) as session:  # rows stay readable after
                with session.begin():
                    yield session

    @contextmanager
    def _failures(self):
        from sqlalchemy.exc import DBAPIError, OperationalError

        try:
            yield
        except (OperationalError, DBAPIError) as exc:
            from sqlalchemy.exc import IntegrityError

            if isinstance(exc, IntegrityError):
                raise
            raise BookError(_explain(exc, self.url)) from None


def open_book(given: str | None = None, migrate: bool = True) -> Book:
    """The book named by `--db` / DESMOCHE_DB / the default, with its schema up to date."""
    url = resolve_url(given)
    if url == "sqlite:///" + default_path():  # zero setup: the data folder is made on first use
        os.makedirs(os.path.dirname(default_path()), exist_ok=True)
    book = Book(url, make_engine(url))
    version = schema_version(book)
    if version == SCHEMA_HEAD:
        return book
    if version is not None and version not in known_revisions():
        raise BookError(M("the book {book} was written by a newer desmoche-ref (schema {version}): "
                          "upgrade the program", book=describe(url), version=version))
    if migrate:
        upgrade(book)
    return book


def schema_version(book: Book):
    """The book's Alembic revision, or None for an empty database; BookError if unreadable."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    try:
        with book.engine.connect() as conn:
            if not book.engine.dialect.has_table(conn, "alembic_version"):
                if book.engine.dialect.has_table(conn, "hand"):
                    raise BookError(M("{book} holds tables but no schema version: it is not a book "
                                      "of this program", book=describe(book.url)))
                return None
            row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
            return row[0] if row else None
    except DBAPIError as exc:
        raise BookError(_explain(exc, book.url)) from None


def known_revisions() -> set:
    return {f"{n:04d}" for n in range(1, int(SCHEMA_HEAD) + 1)}


def alembic_config(book: Book | None = None):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", os.path.join(os.path.dirname(__file__), "migrations"))
    if book is not None:
        cfg.set_main_option("sqlalchemy.url", book.url.replace("%", "%%"))
    return cfg


def upgrade(book: Book) -> None:
    """Bring the schema to the newest revision (one transaction per migration)."""
    from alembic import command
    from sqlalchemy.exc import DBAPIError

    cfg = alembic_config(book)
    try:
        with book.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    except DBAPIError as exc:
        raise BookError(_explain(exc, book.url)) from None


def drift(book: Book) -> list:
    """How the book's schema differs from the models (Alembic's autogenerate comparison), one
    line a difference: none when the migrations shipped make exactly the tables the models say."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy.exc import DBAPIError
    from sqlmodel import SQLModel

    from . import models  # noqa: F401  (registers the tables)

    try:
        with book.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diffs = compare_metadata(context, SQLModel.metadata)
    except DBAPIError as exc:
        raise BookError(_explain(exc, book.url)) from None
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
