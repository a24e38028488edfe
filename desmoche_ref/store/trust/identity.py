"""Who is writing: the name each stored move records as its recorder (issue 19).

On PostgreSQL the database's session user (the login role the server authenticated, which
the program cannot choose for itself) — and since schema 0006 the server writes it itself
into every move and journal row inserted, whatever the client sent (a trigger); the board
writes a signed-in recorder's moves through a connection as that recorder's own role (issue
36). On SQLite, where the file's permissions are the only guard, the operating system's login
name — or, for the moves the board's entry stores for a recorder signed in with a PIN
(store/trust/pins.py), that recorder's name (`entered_by`). The program writes the same name, so
that a move's chain hash and its journal row hold it.
"""

import getpass

MAX_RECORDER = 64  # Event.recorder
NAMED = "desmoche_recorder"  # the engine option that names a SQLite book's recorder (entered_by)


def login_name() -> str:
    try:
        return getpass.getuser()[:MAX_RECORDER]
    except Exception:  # no login name (a container without a passwd entry): say so
        return "unknown"


_SESSION_USERS = {}  # a PostgreSQL URL -> its session user: one query per book a process opens


def recorder(conn) -> str:
    """The recorder's name for writes made through `conn` (a Connection or a Session). On
    PostgreSQL the server is asked once per engine (its URL names the login role, and the
    program never changes it): a move in `play` does not pay a round trip for it."""
    engine = (conn.get_bind() if hasattr(conn, "get_bind") else conn).engine  # a Session may be bound to a Connection
    if engine.dialect.name != "postgresql":
        return engine.get_execution_options().get(NAMED) or login_name()
    key = engine.url.render_as_string(hide_password=False)
    if key not in _SESSION_USERS:
        from sqlalchemy import text

        _SESSION_USERS[key] = str(conn.execute(text("SELECT session_user")).scalar())[:MAX_RECORDER]
    return _SESSION_USERS[key]


def entered_by(book, name: str):
    """The SQLite book `book` (db.Book) as written for the recorder `name` (a PIN's, checked by
    the caller): its moves and journal rows name `name`, not the login of the process that
    writes them. The same engine and connections. On PostgreSQL the server names the writer
    whatever the program says: ValueError, as a reminder that a recorder's own role is how."""
    from ..db import Book

    if book.dialect == "postgresql":
        raise ValueError("on PostgreSQL the recorder is the session's user: connect as the recorder's role")
    return Book(book.url, book.engine.execution_options(**{NAMED: name[:MAX_RECORDER]}), readonly=book.readonly)
