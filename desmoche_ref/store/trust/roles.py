"""Who may do what to a PostgreSQL book (issue 19): the server's own privileges make it
append-only for the roles that record into it, and read-only for the roles that read it.

The book's owner (the role that made its tables, or a superuser) gives an existing role:

- **recorder**: SELECT and INSERT on every table of the book's schema (its Alembic version
  table: SELECT only), USAGE on its sequences, and UPDATE of exactly the columns the program
  changes in place (`UPDATABLE`). No DELETE, no TRUNCATE, no UPDATE of a stored move
  (`event`), a posting, or any other table or column; no change of schema (only an owner
  may ALTER or DROP a table).
- **reader**: SELECT on every table of the book's schema, nothing else.

Granting revokes whatever the role had on the book first, so a grant is exactly one of the
two, and granting again re-applies it to the tables there are now; `db upgrade` (and the
upgrade on first use) re-applies it to every role already granted (`reapply`), so a table a
migration adds is covered at once. On SQLite there are no roles: the file's permissions are
the only guard.
"""

from ...findings import M
from ..errors import BookError
from ..location import describe

RECORDER, READER, OWNER, OTHER = "recorder", "reader", "owner", "other"
VERSION_TABLE = "alembic_version"
MOVES = "event"  # the table whose privileges say what a role is (the stored moves)
# The tables no granted role is given anything on: a SQLite book's recorders' PINs (schema
# 0008), empty on a server, where a recorder signs in to the board with their own login
PRIVATE = ("recorder_pin",)

# The columns the program updates in place; every other row is only ever inserted
# (docs/rulings.md). hand: its verdict on close, cleared on undo (store/read/hands.py close_hand,
# close_if_over, reverse_postings), and the setup of a hand with no move dealt again
# (store/write/course.py deal_again, journaled); card_table: `table bet`, `table close`, and an
# import's seats and stakes (course.follow_import); setting: the rows writers lock (store/locks.py).
UPDATABLE = {
    "hand": ("status", "outcome", "winners", "fouls", "carry_out", "side_carry_out", "closed",
             "content_hash", "dealer", "carry_in", "sides", "side_carry", "extra_tags", "opened"),
    "card_table": ("players", "bet", "rules", "options", "sides", "closed"),
    "setting": ("value",),
}


class _Book:
    """What a grant needs to know of the book: its schema, its owner, the role connected."""

    def __init__(self, conn):
        from sqlalchemy import text

        row = conn.execute(text(
            "SELECT n.nspname, pg_get_userbyid(c.relowner), session_user, "
            "pg_has_role(current_user, c.relowner, 'USAGE') "
            "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.oid = to_regclass(:table)"), {"table": VERSION_TABLE}).first()
        if row is None:  # open_book made the book: only a database emptied since gets here
            raise BookError(M("the database holds no book (no schema version): `desmoche-ref db upgrade` "
                              "makes one"))
        self.schema, self.owner, self.user, self.owned = row
        self.conn = conn


def postgres_only(url: str) -> None:
    """A BookError for a SQLite book (before it is opened): roles are a server's; a file is
    guarded by its permissions."""
    if url.startswith("sqlite"):
        raise BookError(M("{book} is a SQLite file: it is protected by the file's permissions (0600, "
                          "its owner's alone), not by database roles; a recorder enters moves on the board "
                          "with a PIN (`desmoche-ref db grant NAME --recorder --pin`)", book=describe(url)))


def _quote(conn, name: str) -> str:
    return conn.dialect.identifier_preparer.quote_identifier(name)


def _owner_only(b: _Book) -> None:
    if not b.owned:
        raise BookError(M("role {role} may not grant or revoke: only the book's owner ({owner}) may",
                          role=b.user, owner=b.owner))


def _target(b: _Book, role: str) -> None:
    """A BookError unless `role` is a role the owner can give a recorder's or reader's rights."""
    from sqlalchemy import text

    row = b.conn.execute(text("SELECT rolsuper, pg_has_role(oid, (SELECT relowner FROM pg_class "
                              "WHERE oid = to_regclass(:table)), 'USAGE') FROM pg_roles WHERE rolname = :role"),
                         {"role": role, "table": VERSION_TABLE}).first()
    if row is None:
        raise BookError(M("there is no role {role!r} on the server: create it first (in psql: "
                          "CREATE ROLE {role} LOGIN PASSWORD '…')", role=role))
    if row[0]:
        raise BookError(M("role {role} is a superuser: the server lets it do anything, no grant can limit it",
                          role=role))
    if row[1]:
        raise BookError(M("role {role} owns the book (or acts as its owner): it may already do anything to it",
                          role=role))


def grant(conn, role: str, access: str) -> list:
    """Give `role` exactly the recorder's or the reader's privileges on the book (one
    transaction: the caller's). BookError if the connected role is not the book's owner or
    `role` cannot be given them. Returns warnings (Messages): what the role may still do
    through PUBLIC that no grant of the book takes back."""
    from sqlalchemy import text

    b = _Book(conn)
    _owner_only(b)
    _target(b, role)
    _apply(b, role, access)
    if conn.execute(text("SELECT has_schema_privilege(:role, :schema, 'CREATE')"),
                    {"role": role, "schema": b.schema}).scalar():
        return [M("role {role} may still create tables of its own in schema {schema}, as every role may "
                  "there (the book's tables stay the owner's); in psql: REVOKE CREATE ON SCHEMA {schema} "
                  "FROM PUBLIC", role=role, schema=b.schema)]
    return []


def revoke(conn, role: str) -> str | None:
    """Take back whatever `role` was given on the book; what it had (RECORDER, READER,
    OTHER) or None if nothing."""
    b = _Book(conn)
    _owner_only(b)
    _target(b, role)
    had = dict(granted(conn)).get(role)
    _revoke(b, role)
    return had


def _revoke(b: _Book, role: str) -> None:
    from sqlalchemy import text

    s, r = _quote(b.conn, b.schema), _quote(b.conn, role)
    # a table's REVOKE takes its columns' privileges with it
    b.conn.execute(text(f"REVOKE ALL ON ALL TABLES IN SCHEMA {s} FROM {r}"))
    b.conn.execute(text(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {s} FROM {r}"))
    if _explicit(b, role, "USAGE"):
        b.conn.execute(text(f"REVOKE USAGE ON SCHEMA {s} FROM {r}"))
    if _explicit(b, role, "CREATE"):
        b.conn.execute(text(f"REVOKE CREATE ON SCHEMA {s} FROM {r}"))


def _explicit(b: _Book, role: str, privilege: str) -> bool:
    """Whether `role` itself (not PUBLIC) was granted `privilege` on the book's schema."""
    from sqlalchemy import text

    return bool(b.conn.execute(text(
        "SELECT 1 FROM pg_namespace n, aclexplode(n.nspacl) a JOIN pg_roles r ON r.oid = a.grantee "
        "WHERE n.nspname = :schema AND r.rolname = :role AND a.privilege_type = :privilege"),
        {"schema": b.schema, "role": role, "privilege": privilege}).first())


def _apply(b: _Book, role: str, access: str) -> None:
    from sqlalchemy import text

    conn = b.conn
    s, r = _quote(conn, b.schema), _quote(conn, role)
    _revoke(b, role)
    if not conn.execute(text("SELECT has_schema_privilege(:role, :schema, 'USAGE')"),
                        {"role": role, "schema": b.schema}).scalar():
        conn.execute(text(f"GRANT USAGE ON SCHEMA {s} TO {r}"))
    present = _columns(b)
    if access == READER:
        conn.execute(text(f"GRANT SELECT ON ALL TABLES IN SCHEMA {s} TO {r}"))
        _private(b, role, present)
        return
    conn.execute(text(f"GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA {s} TO {r}"))
    conn.execute(text(f"REVOKE INSERT ON {s}.{_quote(conn, VERSION_TABLE)} FROM {r}"))
    _private(b, role, present)
    conn.execute(text(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA {s} TO {r}"))
    for table, columns in UPDATABLE.items():
        here = [c for c in columns if (table, c) in present]
        if here:
            conn.execute(text(f"GRANT UPDATE ({', '.join(_quote(conn, c) for c in here)}) "
                              f"ON {s}.{_quote(conn, table)} TO {r}"))


def _private(b: _Book, role: str, present: set) -> None:
    """Take back what a grant ON ALL TABLES gave `role` on the PRIVATE tables the book has."""
    from sqlalchemy import text

    for table in PRIVATE:
        if any(t == table for t, _c in present):
            b.conn.execute(text(f"REVOKE ALL ON {_quote(b.conn, b.schema)}.{_quote(b.conn, table)} "
                                f"FROM {_quote(b.conn, role)}"))


def _columns(b: _Book) -> set:
    from sqlalchemy import text

    return set(b.conn.execute(text("SELECT table_name, column_name FROM information_schema.columns "
                                   "WHERE table_schema = :schema"), {"schema": b.schema}).all())


def privileges(conn) -> dict:
    """{role: {(table, column or None, privilege)}}: what each role was granted on the book's
    tables and sequences (the owner's own rights and PUBLIC's are not listed)."""
    from sqlalchemy import text

    schema = _Book(conn).schema
    found = {}
    rows = conn.execute(text(
        "SELECT r.rolname, c.relname, NULL, a.privilege_type "
        "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, aclexplode(c.relacl) a "
        "JOIN pg_roles r ON r.oid = a.grantee "
        "WHERE n.nspname = :schema AND c.relkind IN ('r', 'p', 'v', 'S') AND a.grantee <> c.relowner "
        "UNION ALL "
        "SELECT r.rolname, c.relname, t.attname, a.privilege_type "
        "FROM pg_attribute t JOIN pg_class c ON c.oid = t.attrelid "
        "JOIN pg_namespace n ON n.oid = c.relnamespace, aclexplode(t.attacl) a "
        "JOIN pg_roles r ON r.oid = a.grantee "
        "WHERE n.nspname = :schema AND NOT t.attisdropped AND a.grantee <> c.relowner"),
        {"schema": schema}).all()
    for role, table, column, privilege in rows:
        found.setdefault(role, set()).add((table, column, privilege))
    return found


def expected(conn, access: str) -> set:
    """The privileges `grant` gives a recorder or a reader on the book as it is now."""
    from sqlalchemy import text

    b = _Book(conn)
    relations = conn.execute(text(
        "SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = :schema AND c.relkind IN ('r', 'p', 'v', 'S')"), {"schema": b.schema}).all()
    tables = [name for name, kind in relations if kind != "S" and name not in PRIVATE]
    out: set[tuple[str, str | None, str]] = {(t, None, "SELECT") for t in tables}
    if access == READER:
        return out
    out |= {(t, None, "INSERT") for t in tables if t != VERSION_TABLE}
    out |= {(name, None, "USAGE") for name, kind in relations if kind == "S"}
    present = _columns(b)
    out |= {(t, c, "UPDATE") for t, columns in UPDATABLE.items() for c in columns if (t, c) in present}
    return out


def granted(conn) -> list:
    """[(role, RECORDER | READER | OTHER)] for every role given anything on the book, by name:
    RECORDER or READER when it holds exactly what `grant` gives, else OTHER."""
    held = privileges(conn)
    recorder, reader = expected(conn, RECORDER), expected(conn, READER)
    return [(role, RECORDER if got == recorder else READER if got == reader else OTHER)
            for role, got in sorted(held.items())]


def owner(conn) -> str:
    return _Book(conn).owner


def reapply(conn) -> None:
    """After an upgrade (the owner's connection, in its transaction): every role granted
    before gets its privileges on the book as the new schema has it, a new table included.
    A role is a recorder if it may insert moves, a reader if it may read them."""
    if conn.dialect.name != "postgresql":
        return
    b = _Book(conn)
    if not b.owned:
        return
    for role, got in sorted(privileges(conn).items()):
        if (MOVES, None, "INSERT") in got:
            _apply(b, role, RECORDER)
        elif (MOVES, None, "SELECT") in got:
            _apply(b, role, READER)


# ----------------------------------------------------------- refused privileges
def refused(exc) -> bool:
    """Whether the server refused a privilege (SQLSTATE 42501, psycopg's InsufficientPrivilege)."""
    return getattr(getattr(exc, "orig", exc), "sqlstate", None) == "42501"


def refusal(exc, book, head: str | None = None):
    """The one line for a privilege the server refused (a Message naming the role and what
    it lacks), or None when `exc` is another failure. `head`: it was refused while bringing
    the book's schema up to that revision (or making the book in an empty database)."""
    if not refused(exc):
        return None
    role, access, exists, version = _who(book)
    if head and not exists:
        return M("role {role} may not create the book's tables: the database's owner makes the "
                 "book first (`desmoche-ref db upgrade`)", role=role)
    if head and version is None:
        return M("role {role} may not change the book's schema: its owner runs `desmoche-ref db upgrade`",
                 role=role)
    if head:
        return M("role {role} may not change the book's schema: the book is at schema {version}, this "
                 "program needs {head}; its owner runs `desmoche-ref db upgrade`", role=role,
                 version=version, head=head)
    if access == READER:
        return M("role {role} may only read this book", role=role)
    if access is None:
        return M("role {role} may not read this book: its owner grants it (`desmoche-ref db grant "
                 "{role} --reader` or `--recorder`)", role=role)
    text = str(getattr(exc, "orig", exc)).strip().splitlines()
    return M("role {role} lacks a privilege for this: {reason}", role=role,
             reason=text[0] if text else "")


def _who(book):
    """(the connected role, what it may do to the book — RECORDER, READER, OTHER (it writes
    some table but may not insert moves) or None —, whether the book's tables exist, its
    schema version if the role may read it), asked on a connection of its own."""
    from sqlalchemy import text

    try:
        with book.engine.connect() as conn:
            role, moves, exists = conn.execute(text(
                "SELECT session_user, to_regclass(:moves) IS NOT NULL, to_regclass(:version) IS NOT NULL"),
                {"moves": MOVES, "version": VERSION_TABLE}).one()
            access = version = None
            if moves:
                may_insert, may_read, may_write = conn.execute(text(
                    "SELECT has_table_privilege(:moves, 'INSERT'), has_table_privilege(:moves, 'SELECT'), "
                    "bool_or(has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE')) FROM pg_class c "
                    "WHERE c.relkind IN ('r', 'p') AND c.relnamespace = "
                    "(SELECT relnamespace FROM pg_class WHERE oid = to_regclass(:moves))"),
                    {"moves": MOVES}).one()
                access = RECORDER if may_insert else OTHER if may_write else READER if may_read else None
            if exists and conn.execute(text("SELECT has_table_privilege(:version, 'SELECT')"),
                                       {"version": VERSION_TABLE}).scalar():
                version = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
            return role, access, exists, version
    except Exception:  # noqa: BLE001 - the server is gone too: name the role the URL names
        from sqlalchemy.engine import make_url

        return make_url(book.url).username or "?", None, True, None
