"""Signing in to record on the board (issue 36): who a phone writes as, and through what.

- **PostgreSQL**: the recorder's own league login. The board opens one connection as that
  role with the password given, then forgets the password (the connection is made from
  arguments that are dropped once it is open; no engine can make another): every move is
  inserted by that role, so the server sets its recorder and its journal row's writer (the
  triggers), and refuses a role granted only reading (`db grant NAME --reader`) any insert.
  The connection closes when the sign-in ends (`Recorder.close`).
- **SQLite**: the owner's PIN for the recorder (store/trust/pins.py); the book is written as that
  name (identity.entered_by).

A `Recorder` is asked before every write whether it may still record (`still`): a PIN
revoked or replaced, a role's privileges revoked, its connection lost — each ends the
sign-in. Its writes are one at a time (`lock`): a PostgreSQL sign-in has one connection.
"""

import threading

from ...findings import M
from . import pins
from ..location import describe

MAX_LOGIN = 63  # a PostgreSQL role's name (NAMEDATALEN - 1)


class SignInRefused(Exception):
    """A sign-in the book refuses: its argument is the message (a findings.Message)."""


class Recorder:
    """A signed-in recorder: the name its moves record and the book they are written to."""

    def __init__(self, name: str, book, grant: int | None = None, checks=None):
        self.name, self.book, self.grant = name, book, grant
        self._checks = checks          # the book to ask about a PIN (SQLite), else None
        self.lock = threading.Lock()   # one request of this sign-in at a time
        self.closed = False

    def still(self):
        """None while the recorder may record; else why not (a Message): the sign-in is over."""
        if self.closed:
            return M("signed out")
        if self.grant is not None:
            if not pins.live(self._checks, self.grant):
                return M("{name}'s PIN was revoked: sign in again with a new one", name=self.name)
            return None
        return _may_insert(self)

    def close(self) -> None:
        """End the sign-in: a PostgreSQL recorder's connection closes."""
        if not self.closed:
            self.closed = True
            if self.grant is None:
                self.book.close()


def _may_insert(recorder: Recorder):
    from sqlalchemy import text

    try:
        with recorder.book.engine.connect() as conn:
            if conn.execute(text("SELECT has_table_privilege('event', 'INSERT')")).scalar():
                return None
    except Exception:  # noqa: BLE001 - the connection is gone (a server restart, a revoked login)
        return M("the connection to the book was lost: sign in again")
    return M("role {role} may no longer record in this book (its owner revoked it)", role=recorder.name)


def with_pin(book, name: str, pin: str) -> Recorder:
    """Sign in to the SQLite book `book` (a db.Book that may write) with a PIN."""
    from .identity import entered_by

    signed = pins.check(book, name, pin)
    if signed is None:
        raise SignInRefused(M("that name and PIN do not sign in (the book's owner gives a PIN: "
                              "`desmoche-ref db grant NAME --recorder --pin`)"))
    return Recorder(signed.name, entered_by(book, signed.name), signed.grant, checks=book)


def with_login(url: str, login: str, password: str) -> Recorder:
    """Sign in to the PostgreSQL book at `url` (the board's, whose user is replaced) as the
    role `login`: one connection, made with `password`, which is not kept."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import StaticPool

    from ..db import Book
    from ..locks import LOCK_TIMEOUT

    if not login or len(login) > MAX_LOGIN or any(c.isspace() or ord(c) < 32 for c in login):
        raise SignInRefused(M("that login and password do not sign in"))
    target = make_url(url).set(username=login, password=None)
    probe = create_engine(target.set(password=password))
    args, params = probe.dialect.create_connect_args(probe.url)
    del probe
    params = dict(params, connect_timeout=10)
    raw = _connect(args, params, url)
    del params, password
    try:
        raw.autocommit = True
        raw.execute(f"SET lock_timeout = {round(LOCK_TIMEOUT * 1000)}")
        may = raw.execute("SELECT has_table_privilege(to_regclass('event'), 'INSERT'), "
                          "has_table_privilege(to_regclass('event'), 'SELECT'), session_user").fetchone()
        raw.autocommit = False
    except Exception:
        raw.close()
        raise
    if not may[0]:
        raw.close()
        if may[1]:
            raise SignInRefused(M("role {role} may only read this book: the board shows it without signing in",
                                  role=login))
        raise SignInRefused(M("role {role} may not use this book: its owner grants it (`desmoche-ref db grant "
                              "{role} --recorder`)", role=login))
    engine = create_engine(target, creator=lambda: raw, poolclass=StaticPool)
    with engine.connect() as conn:  # the engine takes the connection as its one
        conn.execute(text("SELECT 1"))
    return Recorder(str(may[2]), Book(target.render_as_string(hide_password=True), engine))


def _connect(args, params, url: str):
    """psycopg's connection, or SignInRefused: a wrong password and an unknown role are one
    answer (which names exist is not told); a server out of reach says so."""
    import psycopg

    try:
        return psycopg.connect(*args, **params)
    except psycopg.OperationalError as exc:
        text = str(exc)
        if "password" in text or "authentication" in text or "does not exist" in text \
                or "no pg_hba.conf entry" in text:
            raise SignInRefused(M("that login and password do not sign in")) from None
        raise SignInRefused(M("the book's server {book} cannot be reached: try again in a moment",
                              book=describe(url))) from None
