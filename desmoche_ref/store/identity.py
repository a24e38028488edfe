"""Who is writing: the name each stored move records as its recorder (issue 19).

On PostgreSQL the database's session user (the login role the server authenticated, which
the program cannot choose for itself); on SQLite, where the file's permissions are the only
guard, the operating system's login name.
"""

import getpass

MAX_RECORDER = 64  # Event.recorder


def login_name() -> str:
    try:
        return getpass.getuser()[:MAX_RECORDER]
    except Exception:  # no login name (a container without a passwd entry): say so
        return "unknown"


def recorder(conn) -> str:
    """The recorder's name for writes made through `conn` (a Connection or a Session)."""
    dialect = conn.get_bind().dialect if hasattr(conn, "get_bind") else conn.dialect
    if dialect.name == "postgresql":
        from sqlalchemy import text

        return str(conn.execute(text("SELECT session_user")).scalar())[:MAX_RECORDER]
    return login_name()
