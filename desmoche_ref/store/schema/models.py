"""The scorebook's tables (SQLModel over SQLAlchemy 2). The engine knows nothing of them.

- A `BookTable` is a table of players in the book (a card table, not a SQL table): seat
  order, bet, rules, options and its default side games.
- A `Hand` holds the setup it is judged by (the values of its N3 tags) and its verdict once
  closed; its moves are `Event` rows, append-only: a correction is a new row that
  supersedes an older one. Each event carries a hash chained to the previous event of its
  hand, so an edit behind the program's back shows.
- `Posting` rows are the double entry: every settlement is a set of postings in integer
  cents across accounts (a player, a pot of the table: `pot:main`, `pot:oro`, …, or
  `outside`, where carried-in money from hands the book never saw came from) that sums to
  zero. A reopened hand's postings are reversed by new postings in the same hand.
- `Journal` rows, one per write, chain the whole book to its head (store/trust/journal.py): a
  hand, a move and a posting each journaled exactly once (a unique index per kind of row
  covered), each row naming the database user that wrote it.

What is written once and what is derived. Events, postings and journal rows are inserted
and never updated or deleted. Players are inserted only; the `setting` rows are the book's
own state (on PostgreSQL the rows writers lock, store/locks.py), which
nothing counts. Two kinds of row are updated in place, and only in these columns:
- a hand, on close, undo (reopening) and import: `status`, `outcome`, `winners`, `fouls`,
  `carry_out`, `side_carry_out`, `content_hash` and `closed` — its verdict, DERIVED from its
  live moves: `verify` re-judges the moves and recomputes every one of them (`closed` as
  set or not, and its time as the hand's last `verdict` journal row says; `fouls` as
  standings count it, on a complete hand). Every other column of a
  hand (`table_id`, `number`, its setup, `extra_tags`, `notes`, `source`, `opened`) is
  written when the hand is opened or imported, and its journal row holds it; a hand with no
  move dealt again (store/write/course.py) has its `dealer`, carries, `sides`, `extra_tags` and
  `opened` written anew, journaled as a `redeal` that `verify` reads as its setup from then on;
- a table, on a bet change (`bet`), on close (`closed`) and on import (`players`, `bet`,
  `rules`, `options`, `sides` become its last imported hand's: what its next hand is dealt
  with); each such write appends the table's new state to the journal, and `verify` checks
  that the table is the last state journaled (`created` and `closed` included).
The times (`entered`, `created`, `opened`, `closed`) are in the journal's texts (schema 0006;
rows written before keep their form, store/trust/journal.py). `verify` also recomputes every
posting from the moves (settlement, carried-in money, R11.5
refunds on a closed table's last hand; reversals only as exact negations within their own
hand) and checks that hand numbers run 1, 2, … without a gap at every table.
"""

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import BigInteger, Index, Table, UniqueConstraint, text
from sqlmodel import Field, SQLModel
from sqlmodel.main import SQLModelConfig

from ...limits import LINE, NAME, TABLE
from .codecs import JSONText
from .terms import ONCE

SIDES, POTS, TAGS = JSONText("sides"), JSONText("pots"), JSONText("tags")  # the JSON columns' types (codecs.py)


def now() -> datetime:
    return datetime.now(timezone.utc)


class _Row(SQLModel):
    """The tables' models: their pydantic validators are built when first asked for, never
    in a command that only stores and reads rows (a table model is not validated: building
    them cost every move's start-up)."""

    model_config = SQLModelConfig(defer_build=True)


class Setting(_Row, table=True):
    """The book's own state (the rows writers lock, store/locks.py)."""

    __tablename__ = "setting"
    key: str = Field(primary_key=True, max_length=64)
    value: str = Field(max_length=200)


class Player(_Row, table=True):
    __tablename__ = "player"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True, max_length=NAME)


class BookTable(_Row, table=True):
    __tablename__ = "card_table"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True, max_length=TABLE)
    players: str = Field(max_length=300)            # names in seat order, space-separated
    bet: int = Field(sa_type=BigInteger)  # cents
    rules: str = Field(default="desmoche", max_length=20)
    options: str = Field(default="", max_length=300)  # the Options tag text
    sides: list[Any] = Field(default_factory=list, sa_type=SIDES)  # [(game, stake cents, [names])]
    created: datetime = Field(default_factory=now)
    closed: datetime | None = None


class Hand(_Row, table=True):
    __tablename__ = "hand"
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_hand_table_number"),
                      # standings count hands by seats and verdict from this index alone
                      Index("ix_hand_standings", "status", "players", "outcome", "winners", "fouls"))
    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="card_table.id", index=True)
    number: int                                      # 1, 2, … at its table
    players: str = Field(max_length=300)
    dealer: str = Field(max_length=64)
    rules: str = Field(default="desmoche", max_length=20)
    options: str = Field(default="", max_length=300)
    bet: int = Field(sa_type=BigInteger)
    carry_in: int = Field(default=0, sa_type=BigInteger)
    sides: list[Any] = Field(default_factory=list, sa_type=SIDES)  # [(game, stake cents, [names])]
    side_carry: dict[str, int] = Field(default_factory=dict, sa_type=POTS)  # {game: cents}
    extra_tags: list[Any] = Field(default_factory=list, sa_type=TAGS)  # [(name, value)] (Event, Date, Result, …)
    notes: str | None = None                         # the comment lines written above its tags, "\n"-joined
    source: str = Field(default="live", max_length=10)  # live | import
    content_hash: str | None = Field(default=None, index=True, max_length=64)  # records.content_hash, once closed
    status: str = Field(default="open", max_length=12)  # open | complete | incomplete | invalid
    outcome: str | None = Field(default=None, max_length=12)  # win | auto-win | no-winner
    winners: str | None = Field(default=None, max_length=300)
    fouls: str = Field(default="", max_length=300)   # one name per enforced foul (standings)
    carry_out: int | None = Field(default=None, sa_type=BigInteger)
    side_carry_out: dict[str, int] | None = Field(default=None, sa_type=POTS)  # {game: cents}
    opened: datetime = Field(default_factory=now)
    closed: datetime | None = None


class Event(_Row, table=True):
    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("hand_id", "seq", name="uq_event_hand_seq"),)
    id: int | None = Field(default=None, primary_key=True)
    hand_id: int = Field(foreign_key="hand.id")     # indexed first in uq_event_hand_seq
    seq: int                                         # 1, 2, … in its hand: the append key
    line: str = Field(max_length=LINE)               # the canonical notation line (N7, N1.5)
    comment: str | None = Field(default=None, max_length=LINE)
    entered: datetime = Field(default_factory=now)
    supersedes: int | None = Field(default=None, foreign_key="event.id")  # an undo's target
    hash: str = Field(max_length=64)                 # sha256 over the previous hash and this row
    recorder: str | None = Field(default=None, max_length=64)  # who entered it (store/trust/identity.py)


class Posting(_Row, table=True):
    __tablename__ = "posting"
    __table_args__ = (Index("ix_posting_account", "account"),
                      # standings sum every account's postings by kind from this index alone
                      Index("ix_posting_standings", "kind", "account", "player_id", "reverses", "amount"))
    id: int | None = Field(default=None, primary_key=True)
    hand_id: int = Field(foreign_key="hand.id", index=True)
    table_id: int = Field(foreign_key="card_table.id", index=True)
    account: str = Field(max_length=100)             # a player's name, or pot:main / pot:GAME
    player_id: int | None = Field(default=None, foreign_key="player.id")  # no query looks it up
    kind: str = Field(max_length=20)                 # ante, pot, bonus, side-stake, side-win, …
    detail: str | None = Field(default=None, max_length=30)  # the bonus or the side game
    counterparty: str = Field(max_length=100)
    amount: int = Field(sa_type=BigInteger)  # cents, + into the account
    reverses: int | None = Field(default=None, foreign_key="posting.id")
    created: datetime = Field(default_factory=now)


def _once(family: str, kinds) -> Index:
    """The unique index that journals each row of a family (hand, event, posting) once. Its
    WHERE for PostgreSQL is given only where a PostgreSQL book is compared with the models
    (`on_dialect`): said here, it would load SQLAlchemy's PostgreSQL dialect in every command
    on a SQLite book (the migrations make the index on either)."""
    where = text("kind IN (" + ", ".join(f"'{k}'" for k in kinds) + ")")
    return Index(f"uq_journal_{family}", "subject", unique=True, sqlite_where=where)


class Journal(_Row, table=True):
    """One row per write the book keeps, insert-only, each chained to the one before (journal.py)."""

    __tablename__ = "journal"
    __table_args__ = (*(_once(family, kinds) for family, kinds in ONCE.items()),
                      # a recorder's last row: the table it works at (hands.current_table)
                      Index("ix_journal_writer", "writer", "id"))
    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=12)                 # journal.KINDS
    subject: int                                     # the id of the row it covers (table, hand, event, posting)
    text: str                                        # the canonical text of what was written
    hash: str = Field(max_length=64)                 # sha256 over the previous row's hash and this row
    writer: str | None = Field(default=None, max_length=64)  # the database user that wrote it (None: before 0006)


class RecorderPin(_Row, table=True):
    """A recorder's PIN on a SQLite book (issue 36: entry on the board): who may sign in to
    `board --entry` as NAME, kept as a slow hash only (store/trust/pins.py). The book's own state,
    like `setting`, not its record: inserted by `db grant NAME --recorder --pin`, ended by
    `db revoke NAME` (or a new grant), never journaled, never exported. At most one live PIN a
    name (a unique index over the rows not revoked). On PostgreSQL a recorder signs in with
    their own login and the table stays empty (no role is granted anything on it)."""

    __tablename__ = "recorder_pin"
    __table_args__ = (Index("uq_recorder_pin_live", "name", unique=True, sqlite_where=text("revoked IS NULL")),)
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=64)                 # the recorder's name, as its moves record it
    hash: str = Field(max_length=200)                # scrypt$N$r$p$salt$key (store/trust/pins.py)
    granted: datetime = Field(default_factory=now)
    revoked: datetime | None = None


def plain(table: Table, conn) -> list:
    """The table's columns to read rows as they are stored, for `verify` and the replay: on SQLite
    a time as its stored text (journal.stamp's form, as the journal's texts hold it), not parsed
    into a datetime (a third of reading a season's moves); on PostgreSQL as they are."""
    from sqlalchemy import DateTime, String, type_coerce

    if conn.dialect.name != "sqlite":
        return list(table.c)
    return [type_coerce(c, String).label(c.name) if isinstance(getattr(c.type, "impl", c.type), DateTime) else c
            for c in table.c]


def on_dialect(name: str) -> None:
    """The models as a book of the dialect `name` holds them, for a comparison of the two
    (db.drift, Alembic's autogenerate): on PostgreSQL the partial indexes (the journal's, the
    live PINs') say their WHERE in its terms too. Each says it for SQLite only where it is
    declared: saying it for PostgreSQL there would load SQLAlchemy's PostgreSQL dialect in
    every command on a SQLite book."""
    if name != "postgresql":
        return
    for index in (i for model in (Journal, RecorderPin) for i in core(model).indexes):
        where = index.dialect_options["sqlite"]["where"]
        if where is not None:
            index.dialect_options["postgresql"]["where"] = where


def core(model) -> Table:
    """The model's own Core table, for statements that want no ORM session (the importer's
    batches, the journal, the reports' grouped queries): the one schema. (SQLModel does not
    declare `__table__` to a type checker.)"""
    return model.__table__
