"""The one writer: plans (store/write/plans.py) stored in the caller's transaction, on the models' own
tables (SQLAlchemy Core), each kind of row in one statement for the whole list — a live move
is a batch of one, an import a batch of thousands — then journaled (store/trust/journal.py).

1. the players the plans name, each made once even when writers race (INSERT … ON CONFLICT
   DO NOTHING);
2. the new rows' ids, taken before any row is written (PostgreSQL: from each table's
   sequence, safe beside other writers; SQLite: after the largest, the write lock being the
   writer's), so that every row, every reference between rows (a move's hand, a reversal's
   posting, an undo's move) and every journal text is whole before the first statement;
3. the rows, in the order their references need (tables, hands, moves, postings), handed to
   the driver as tuples in the order of the models' columns (PostgreSQL: COPY for many), each
   value bound as SQLAlchemy binds its column (a time, a JSON column's codec); SQLAlchemy's
   per-row parameter processing cost more than the database itself (bench/bench_import.py);
4. the rows changed in place (a hand's verdict or new deal, a table's bet, seats, close), only
   in the columns the plan names (store/trust/roles.py lets a recorder update those and no other);
5. the journal rows, in the plan's order, each text made from its row as it stood then.
"""

from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select, update

from ..trust.journal import COVERED, append as journal_append, text_of
from ..schema.models import BookTable, Event, Hand, Player, Posting, core
from .plans import Plan
from ..schema.records import ROWS

TABLES = {"card_table": core(BookTable), "hand": core(Hand), "event": core(Event), "posting": core(Posting)}
REFERENCES = {"card_table": ("id",), "hand": ("id", "table_id"), "event": ("id", "hand_id", "supersedes"),
              "posting": ("id", "hand_id", "table_id", "reverses")}  # the columns holding ids, by table
COPY_FROM = 64  # rows from which PostgreSQL is sent COPY rather than one INSERT a row


def write(conn: Any, plans: Iterable[Plan]) -> dict[int, int]:
    """Store the plans in `conn`'s transaction: {placeholder: the id it became}."""
    plan = Plan()
    for part in plans:
        plan.extend(part)
    if plan.players:
        ensure_players(conn, plan.players)
    rows: dict[str, list[Any]] = {"card_table": plan.tables, "hand": plan.hands, "event": plan.events,
                                  "posting": plan.postings}
    ids = _new_ids(conn, {name: [r.id for r in made if r.id is not None and r.id < 0] for name, made in rows.items()})
    for name, made in rows.items():
        resolved = [resolve(row, name, ids) for row in made]
        numbered = [r for r in resolved if r.id is not None]
        insert(conn, name, numbered)
        insert(conn, name, [r for r in resolved if r.id is None], with_id=False)
    if plan.bulk:
        _insert_moves(conn, plan, ids)
    for name, row, columns in _merged(plan.updates):
        row = resolve(row, name, ids)
        table = TABLES[name]
        conn.execute(update(table).where(table.c.id == row.id).values({c: getattr(row, c) for c in columns}))
    journaled = [(kind, resolve(row, COVERED[kind], ids), extra) for kind, row, extra in plan.journal]
    journal_append(conn, [(kind, row.id, text_of(kind, row, extra)) for kind, row, extra in journaled])
    return ids


def resolve(row: Any, name: str, ids: dict[int, int]) -> Any:
    """The row with its placeholders (negative ids) made the ids they became."""
    changed = {c: ids[v] for c in REFERENCES[name] if (v := getattr(row, c)) is not None and v < 0}
    return row._replace(**changed) if changed else row


def _merged(updates: list) -> list:
    """The updates of each row as one: its last value, in the columns any of them named."""
    out: dict[tuple[str, int], tuple[str, Any, tuple]] = {}
    for name, row, columns in updates:
        key = (name, row.id)
        before = out.get(key)
        named = columns if before is None else tuple(dict.fromkeys(before[2] + columns))
        out[key] = (name, row, named)
    return list(out.values())


def ensure_players(conn: Any, names: Iterable[str]) -> None:
    """A player row for each name, made once even when two commands make it at the same moment
    (INSERT … ON CONFLICT DO NOTHING; in name order, so no two writers wait on each other)."""
    names = sorted(set(names))
    if names:
        conn.execute(insert_ignoring(conn)(core(Player)).on_conflict_do_nothing(index_elements=["name"]),
                     [{"name": n} for n in names])


def insert_ignoring(conn: Any) -> Any:
    """The dialect's own INSERT (for its ON CONFLICT), loaded for the book's dialect only."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert
    from sqlalchemy.dialects import sqlite

    return sqlite.insert


def _new_ids(conn: Any, wanted: dict[str, list[int]]) -> dict[int, int]:
    """{placeholder: a new id of its table}."""
    out: dict[int, int] = {}
    for name, placeholders in wanted.items():
        if not placeholders:
            continue
        if conn.dialect.name == "postgresql":
            made = list(conn.exec_driver_sql(
                f"SELECT nextval(pg_get_serial_sequence('{name}', 'id')) FROM generate_series(1, %s)",
                (len(placeholders),)).scalars())
        else:
            table = TABLES[name]
            start = conn.execute(select(func.coalesce(func.max(table.c.id), 0))).scalar()
            made = list(range(start + 1, start + 1 + len(placeholders)))
        out.update(zip(sorted(placeholders, reverse=True), made))  # -1, -2, …: in the order planned
    return out


def insert(conn: Any, name: str, rows: list, with_id: bool = True) -> None:
    """Rows (the NamedTuples of records.ROWS) into the model's table, as the driver's tuples."""
    if rows:
        columns = [c for c in TABLES[name].c if with_id or c.name != "id"]
        executemany(conn, columns, [tuple(row[i] for i in _positions(name, columns)) for row in rows])


def _positions(name: str, columns: list) -> list[int]:
    fields = ROWS[name]._fields
    return [fields.index(c.name) for c in columns]


def _insert_moves(conn: Any, plan: Plan, ids: dict[int, int]) -> None:
    """The moves of imported hands, from the importer's rows (judging.Prepared: each hand's lines,
    hashes and comments as columns, its moves entered when it was imported)."""
    from .plans import Imported

    when = {row.id: extra.when for kind, row, extra in plan.journal if isinstance(extra, Imported)}
    columns = [c for c in TABLES["event"].c if c.name not in ("id", "supersedes")]
    rows = []
    for hand_id, prepared in plan.bulk:
        rows += prepared.event_rows(ids.get(hand_id, hand_id), when[hand_id])
    executemany(conn, columns, rows)


def executemany(conn: Any, columns: list, rows: list) -> None:
    """Rows (tuples in the order of `columns`, a model's table's) handed to the driver, each value
    bound as SQLAlchemy binds its column (a time on SQLite: text; a JSON column: its codec's text)."""
    if not rows:
        return
    binders = [_binder(conn, c) for c in columns]
    if any(b is not None for b in binders):
        rows = [tuple(v if b is None or v is None else b(v) for v, b in zip(row, binders)) for row in rows]
    table, names = columns[0].table.name, ", ".join(c.name for c in columns)
    if conn.dialect.name == "postgresql" and len(rows) >= COPY_FROM:  # COPY: one stream, not a statement a row
        cursor = conn.connection.driver_connection.cursor()
        with cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    conn.exec_driver_sql(f"INSERT INTO {table} ({names}) VALUES ({', '.join([mark] * len(columns))})", rows)


_BINDERS: dict[tuple[str, str, str], Any] = {}


def _binder(conn: Any, column: Any) -> Any:
    """How SQLAlchemy binds the column's values for this dialect (None: as they are)."""
    key = (conn.dialect.name, column.table.name, column.name)
    if key not in _BINDERS:
        _BINDERS[key] = column.type.dialect_impl(conn.dialect).bind_processor(conn.dialect)
    return _BINDERS[key]
