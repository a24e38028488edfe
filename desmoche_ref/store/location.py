"""Where the book lives: its URL from `--db`, DESMOCHE_DB or the default; the URL without its
password, for messages; the file of a SQLite book; and the one line that says why a book
could not be reached or read (`explain`). Nothing here opens a database.

`--db URL` or `DESMOCHE_DB` names the book: a SQLAlchemy URL, or a plain file path meaning
SQLite. By default one SQLite file in the user's data directory (platformdirs), so moves
typed from any folder reach the same book.
"""

import os
import re

from ..findings import M
from .errors import BookError

ENV_VAR = "DESMOCHE_DB"


def default_path() -> str:
    from platformdirs import user_data_dir

    return os.path.join(user_data_dir("desmoche-ref", appauthor=False), "book.db")


def resolve_url(given: str | None = None) -> str:
    """The SQLAlchemy URL of the book named by `--db`, else DESMOCHE_DB (unset or empty: not
    given), else the default. BookError for an empty `--db`, a malformed URL, or a SQLite
    database in memory (a book there keeps nothing)."""
    if given is not None and not given.strip():
        raise BookError(M("--db is empty: name the book (a file path, sqlite:///PATH or "
                          "postgresql+psycopg://USER@HOST/DB)"))
    value = given or os.environ.get(ENV_VAR) or ""
    if not value:
        return "sqlite:///" + default_path()
    if "://" not in value:  # a plain path: SQLite
        if value == ":memory:":
            raise BookError(_in_memory(value))
        return "sqlite:///" + os.path.abspath(os.path.expanduser(value))
    if value.startswith("postgresql://") or value.startswith("postgres://"):
        value = "postgresql+psycopg://" + value.split("://", 1)[1]  # psycopg 3, not psycopg2
    parsed = parse_url(value)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database in ("", ":memory:") or database.startswith("file::memory:") or \
                parsed.query.get("mode") == "memory":
            raise BookError(_in_memory(value))
    return value


def _in_memory(value: str):
    return M("{book} is a database in memory: nothing in it would be kept; name a file "
             "(--db PATH)", book=describe(value))


def parse_url(url: str):
    """The URL parsed (SQLAlchemy's URL), or a BookError saying what is wrong with it."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url)
    except ArgumentError:
        raise BookError(M("{url!r} is not a database URL (sqlite:///PATH, "
                          "postgresql+psycopg://USER@HOST/DB, or a file path)", url=describe(url))) from None
    except ValueError:  # SQLAlchemy's int() of the port
        port = re.search(r"@[^/?#]*:([^/?#@]*)", url)
        raise BookError(M("{url!r} is not a database URL: its port {port!r} is not a number",
                          url=describe(url), port=port.group(1) if port else "")) from None


def describe(url: str) -> str:
    """The URL without its password (in the user part, or a `password=` parameter), for
    messages and `db path`."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
        text = parsed.render_as_string(hide_password=True) if parsed.password else url  # as given
    except Exception:  # malformed: masked by pattern
        text = re.sub(r"(://[^/?#@:]*:)[^/?#@]*@", r"\1***@", url)
    return re.sub(r"(?i)([?&]password=)[^&#]*", r"\1***", text)


def scrub(text: str, url: str) -> str:
    """A driver's message with any password of the URL in it masked."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:
        return text
    for secret in (parsed.password, parsed.query.get("password")):
        if isinstance(secret, str) and secret:
            text = text.replace(secret, "***")
    return text


def sqlite_path(url: str) -> str | None:
    """The absolute path of a SQLite book's file, None for another database."""
    from urllib.parse import unquote

    if not url.startswith("sqlite"):
        return None
    parsed = parse_url(url)
    path = parsed.database or ""
    if parsed.query.get("uri") in ("true", "1") and path.startswith("file:"):
        path = unquote(path[len("file:"):].split("?", 1)[0])
        if path.startswith("//"):  # file://HOST/PATH: the host is empty or localhost
            path = "/" + path[2:].split("/", 1)[-1]
    return os.path.abspath(path) if path else None


def explain(exc, url: str, readonly: bool = False):
    """One line for a failure to reach or read the book (a Message; the driver's own words
    inside it stay as the driver wrote them, any password masked)."""
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    first = scrub(text[0], url) if text else type(exc).__name__
    book = describe(url)
    if not readonly and ("readonly database" in first or "unable to open database file" in first):
        cannot_write = cannot_write_here(url)
        if cannot_write is not None:
            return cannot_write
    if "file is not a database" in first or "file is encrypted" in first:
        return M("{book} is not a book: the file is not a SQLite database", book=book)
    if "unable to open database file" in first:
        return M("cannot open the book {book}: unable to open the file", book=book)
    if "password authentication failed" in first:
        return M("cannot open {book}: the server refused the user or password", book=book)
    if "does not exist" in first and ("database" in first or "role" in first):
        return M("cannot open {book}: {reason}", book=book, reason=first.split('FATAL:')[-1].strip())
    if "permission denied for" in first:  # PostgreSQL: a user granted reading only
        return M("cannot write the book {book}: the server lets this user read it, not write it "
                 "({reason})", book=book, reason=first)
    if "Connection refused" in first or "could not connect" in first or "connection failed" in first:
        return M("cannot reach the database server for {book}: is it running? ({reason})", book=book,
                 reason=first)
    return M("cannot use the book {book}: {reason}", book=book, reason=first)


def cannot_write_here(url: str):
    """Why this process cannot write a SQLite book (a Message), or None if it can."""
    path = sqlite_path(url)
    if path is None:
        return None
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return M("the book {path} is read-only: it can be read (standings, ledger, export, verify, …), "
                 "not written", path=path)
    folder = os.path.dirname(path)
    if not os.access(folder, os.W_OK):
        return M("the folder {folder} is read-only: the book {path} can be read there, not written",
                 folder=folder, path=path)
    return None
