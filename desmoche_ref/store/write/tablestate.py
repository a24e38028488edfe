"""A table as the book holds it, for a command's planners (plans.TableState): read through a Core
connection inside the command's transaction, the table's row locked first, its hands read
only as a planner asks for them (the hand the table is at, the one before it, a waiting one,
their postings, the laws across the table's hands, newest first, back to where they stop).

The table's row is locked before anything is read (PostgreSQL: FOR UPDATE; SQLite: writes
hold the book), so writers at one table queue and each plans on the table as it stands; the
time of the command is read after the lock (PostgreSQL: the server's clock, one clock for
every recorder of a league server), so the times of a table's writes follow the journal's
order (`verify` holds them to it).
"""

from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import and_, case, func, select
from sqlalchemy.exc import DBAPIError

from ...findings import M
from ...limits import nfc
from ..schema.terms import StoreError
from .lawbook import newest_first
from ..locks import busy, lock_timed_out
from ..schema.models import BookTable, Event, Hand, Player, Posting, core
from .plans import HandState, Ids, Plan, TableState
from ..schema.records import EventRow, HandRow, PostingRow, TableRow

card_table, hands, events, postings, players = (core(m) for m in (BookTable, Hand, Event, Posting, Player))


def played_today(now: datetime | None = None) -> str:
    """The Date tag of a hand dealt now: this machine's local day (as `hand log` shows times),
    so that its export and the report's nights say the night it was played (docs/rulings.md)."""
    return (now or datetime.now(timezone.utc)).astimezone().date().isoformat()


def now_of(conn: Any) -> datetime:
    """The time of a write, read once its table is locked: PostgreSQL's clock (the server's, the
    same for every recorder), else this machine's; UTC."""
    if conn.dialect.name == "postgresql":
        return conn.exec_driver_sql("SELECT clock_timestamp()").scalar().astimezone(timezone.utc)
    return datetime.now(timezone.utc)


def lock_table(conn: Any, table_id: int, key_share: bool = False) -> TableRow:
    """The table's row, read afresh and locked for this transaction: every write at a table
    takes it first, so writers of one table (and its hands) queue (PostgreSQL's row lock;
    SQLite writes begin IMMEDIATE, so the whole book is already locked). `key_share`: FOR NO
    KEY UPDATE (an import: rows a live writer inserts for the table never wait on it)."""
    query = select(card_table).where(card_table.c.id == table_id)
    if conn.dialect.name != "postgresql":
        return TableRow(*conn.execute(query).one())
    try:
        return TableRow(*conn.execute(query.with_for_update(key_share=key_share)).one())
    except DBAPIError as exc:
        if not lock_timed_out(exc):
            raise
        raise busy(M("table {table}", table=_table_name(conn, table_id))) from None


def _table_name(conn: Any, table_id: int) -> str:
    """The table's name, read on a connection of its own: the write's transaction gave up
    waiting for the table's row (a read never waits for a row lock)."""
    try:
        with conn.engine.connect() as other:
            return other.execute(select(card_table.c.name).where(card_table.c.id == table_id)).scalar()
    except Exception:  # noqa: BLE001 - the book is locked whole (its owner's LOCK TABLE): say its id
        return f"#{table_id}"


def hand_events(conn: Any, hand_id: int) -> list[EventRow]:
    """Every event row of a hand, corrections included, in seq order."""
    return [EventRow(*r) for r in conn.execute(select(events).where(events.c.hand_id == hand_id)
                                               .order_by(events.c.seq))]


# the hand the table is at: its earliest open hand, else its latest
_AT = (case((hands.c.closed.is_(None), 0), else_=1), case((hands.c.closed.is_(None), hands.c.number),
                                                          else_=-hands.c.number))


def current_key(conn: Any, table_id: int) -> tuple | None:
    """(id, number, closed, its last move's seq) of the hand the table is at, or None: one query,
    for a writer to know the hand it holds is still the one the table is at."""
    last_seq = select(func.coalesce(func.max(events.c.seq), 0)).where(events.c.hand_id == hands.c.id) \
        .scalar_subquery()
    found = conn.execute(select(hands.c.id, hands.c.number, hands.c.closed, last_seq)
                         .where(hands.c.table_id == table_id).order_by(*_AT).limit(1)).first()
    return tuple(found) if found is not None else None


class BookState(TableState):
    """The table as the book holds it, read through `conn` (a Core connection in the command's
    transaction) once its row is locked. `held`: a HandState the caller holds of the hand the
    table is at (its rows and its referee), used as it is once `adopt` has checked it."""

    def __init__(self, conn: Any, table_id: int, recorder: str, ids: Ids | None = None, plan: Plan | None = None,
                 key_share: bool = False):
        self.conn = conn
        table = lock_table(conn, table_id, key_share)
        now = now_of(conn)
        super().__init__(table, now, recorder, ids, played_today(now), plan)
        self._ids: dict[str, int] = {}
        self._at: tuple | None | bool = False  # current_key, once read

    def at(self) -> tuple | None:
        """current_key of the table, read once."""
        if self._at is False:
            self._at = current_key(self.conn, self.table.id)
        return self._at  # type: ignore[return-value]

    def adopt(self, hand: HandState) -> HandState:
        """`hand` (the caller's, its rows as read before) as this state's hand of its number."""
        mine = hand.copy()
        self._hands[mine.number] = mine
        return mine

    def _load(self, number: int) -> HandState | None:
        row = self.conn.execute(select(hands).where(hands.c.table_id == self.table.id,
                                                    hands.c.number == number)).first()
        if row is None:
            return None
        return HandState(HandRow(*row), hand_events(self.conn, row.id))

    def _current_number(self) -> int | None:
        at = self.at()
        return at[1] if at is not None else None

    def _latest_number(self) -> int | None:
        return self.conn.execute(select(func.max(hands.c.number)).where(hands.c.table_id == self.table.id)).scalar()

    def _read_postings(self, hand_id: int) -> list[PostingRow]:
        return [PostingRow(*r) for r in self.conn.execute(select(postings).where(postings.c.hand_id == hand_id)
                                                          .order_by(postings.c.id))]

    def _newest_first(self, below: int | None) -> Iterator[Any]:
        return newest_first(self.conn, self.table.id, below)

    def player_ids(self, names: Iterable[str]) -> dict[str, int]:
        wanted = set(names) - set(self._ids)
        if wanted:
            self._ids.update(self.conn.execute(select(players.c.name, players.c.id)
                                               .where(players.c.name.in_(sorted(wanted)))).all())
        return {n: self._ids[n] for n in names if n in self._ids}

    def bet_changed_since(self, hand: HandState) -> bool:
        from ..trust.journal import bet_changed_since

        return bet_changed_since(self.conn, self.table.id, hand.row.id)


def table_row(conn: Any, table_id: int) -> TableRow:
    return TableRow(*conn.execute(select(card_table).where(card_table.c.id == table_id)).one())


def read_current(conn: Any, table_id: int) -> HandState | None:
    """The hand the table is at, with its rows (its referee built when first asked for)."""
    at = current_key(conn, table_id)
    if at is None:
        return None
    row = conn.execute(select(hands).where(and_(hands.c.id == at[0]))).one()
    return HandState(HandRow(*row), hand_events(conn, row.id))


def make_table(conn: Any, name: str, players: list, bet: int, rules: str = "desmoche", options: str = "",
               sides=()) -> Any:
    """`table new` in `conn`'s transaction (course.new_table, written): the table's row."""
    from sqlalchemy.exc import IntegrityError

    from . import course
    from .book_writer import write

    found = conn.execute(select(card_table.c.closed).where(card_table.c.name == nfc(name).strip())).first()
    row = course.new_table(name, players, bet, rules, options, sides, now=now_of(conn), taken=found is not None,
                           closed=found is not None and found[0] is not None)
    plan = Plan()
    plan.tables.append(row)
    plan.players.extend(row.players.split())
    plan.journal.append(("table", row, None))
    try:
        with conn.begin_nested():  # another command may make the same table at this moment
            ids = write(conn, [plan])
    except IntegrityError:
        raise StoreError(M("there is already a table {name!r} in this book", name=row.name)) from None
    return row._replace(id=ids[row.id])
