"""Who is writing: the name each stored move records as its recorder (issue 19).

On PostgreSQL the database's session user (the login role the server authenticated, which
the program cannot choose for itself) — and since schema 0006 the server writes it itself
into every move and journal row inserted, whatever the client sent (a trigger); on SQLite,
where the file's permissions are the only guard, the operating system's login name. The
program writes the same name, so that a move's chain hash and its journal row hold it.
"""

import getpass

MAX_RECORDER = 64  # Event.recorder


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
        return login_name()
    key = engine.url.render_as_string(hide_password=False)
    if key not in _SESSION_USERS:
        from sqlalchemy import text

        _SESSION_USERS[key] = str(conn.execute(text("SELECT session_user")).scalar())[:MAX_RECORDER]
    return _SESSION_USERS[key]
