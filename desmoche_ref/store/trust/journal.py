"""The book's journal: one insert-only row per write the book keeps, chained to the book head.

Every write appends (`KINDS` says what each kind covers): a table created (`table`), its bet
changed (`bet`), the table closed (`close`) or opened again (`reopen`), an import's hands taking
the table on (`follow`: its seats and stakes become those of its last hand) — a table's changes,
each its own row, in order; a hand opened with its setup (`hand`), a hand with no move dealt
again with its new setup (`redeal`, store/write/course.py: the hand's setup from then on), a move or
an undo stored (`event`), a posting made (`posting`), a hand imported whole (`import`: its
setup, its moves' chain head and how many postings it came with: one row for all of them); a
hand closed or reopened (`verdict`: its status and the time it closed). Each row holds the
canonical text of what was written (the `*_text` functions, built from the rows it covers, their
times included), the database user that wrote it (`writer`), and hash = sha256(previous row's
hash, kind, subject, text, writer), so the last row's hash, the BOOK HEAD, pins the whole
history the way a git commit id does. `verify` (store/trust/pinned.py) recomputes every text from the
rows it covers, checks that every covered row has exactly one journal row and that the chain is
unbroken, and `verify --head DIGEST` that DIGEST is a hash of the chain — so nothing written up
to it was changed, even by someone who could rewrite the whole book and recompute every hash
after.

Exactly once: a hand, a move and a posting each have one journal row. A second is refused by
the database (a unique index per kind of row covered, schema 0006) and reported by `verify`,
which holds every covered row to its FIRST journal row.

Who wrote it: on PostgreSQL the server sets `writer` (and a move's `recorder`) to the session
user whatever the client sends (a trigger the recording roles cannot change, schema 0006);
on SQLite the program writes the login name (store/trust/identity.py).

Two forms. Rows written before schema 0006 have no writer: their hash is
sha256(previous, kind, subject, text) and their texts hold no times (FORM_1, as migration
0004 journaled a book as it stood). A book upgraded to 0006 keeps them as they are: its first
row of the new form is an `upgrade` row holding the largest hand, move and posting ids of the
book then — rows up to those were written before times and postings were journaled, and
verify holds them to what their own rows say, no more.

The journal is never updated or deleted. On PostgreSQL concurrent writers append to one
chain: each appending transaction locks the `setting` row LOCK_KEY until it commits (a row
lock needs the UPDATE privilege, which a reader has on no table: no reader can hold writers
up); SQLite writes already hold the book's lock. So the chain stays linear.

On the models' tables (store/schema/models.py): the importer appends with a Core connection, the
live commands with a Session. The kinds and their families are store/schema/terms.py's.
"""

import hashlib
import json
from datetime import datetime, timezone

from sqlalchemy import func, insert, select, text as sql

from ...findings import M
from ..read.changes import announce
from ..schema.codecs import POTS, SIDES, TAGS
from .identity import recorder
from ..locks import lock_row
from ..schema.models import BookTable, Event, Hand, Journal, core
from ..schema.terms import (BET, CLOSE, EVENT, FOLLOW, FORM_1, FORM_2, HAND, IMPORT, KINDS,  # noqa: F401
                            LOCK_KEY, ONCE, POSTING, REDEAL, TABLE, TABLE_KINDS, UPGRADE, USE,
                            VERDICT)

journal = core(Journal)


def chain(previous: str, kind: str, subject: int, text: str, writer: str | None = None) -> str:
    """A journal row's hash, chained to the previous row's ("" for the first); a row of the
    first form (no writer) as it was hashed then."""
    base = f"{previous}\n{kind}\n{subject}\n{text}"
    if writer is not None:
        base += f"\n{writer}"
    return hashlib.sha256(base.encode("utf-8")).hexdigest()


def form(row) -> int:
    return FORM_1 if row.writer is None else FORM_2


def _canonical(values) -> str:
    return json.dumps(values, ensure_ascii=False, separators=(",", ":"))


STAMP = "%Y-%m-%d %H:%M:%S.%f"


def stamp(when) -> str | None:
    """A stored time in one form whatever the engine gives back (SQLite: naive UTC, or the text it
    stores: models.plain)."""
    if when is None:
        return None
    if isinstance(when, str):
        if len(when) == 26:
            return when  # as SQLite stores a time: this form already
        when = datetime.fromisoformat(when)
    when = when.replace(tzinfo=timezone.utc) if when.utcoffset() is None else when.astimezone(timezone.utc)
    return when.strftime(STAMP)


# ------------------------------------------------------------------ texts
# Each kind's text is the canonical JSON of its values (`*_values`): `verify` compares them with
# what a planner would have written there value by value (store/trust/course_replay.py).
def table_values(t, timed: bool = True) -> list:
    """A table's state: what its next hands are dealt with, whether it broke up, and when it
    was made and closed (`timed`: since schema 0006)."""
    values = [t.name, t.players, t.bet, t.rules, t.options, SIDES.encode(t.sides), t.closed is not None]
    if timed:
        values += [stamp(t.created), stamp(t.closed)]
    return values


def hand_values(h) -> list:
    """A hand's setup as opened or imported, the time it was opened included: everything of
    its row but its verdict (which `verify` recomputes from its moves: models.py says which
    columns are derived) and its closing time (its `verdict` rows')."""
    return [h.table_id, h.number, h.players, h.dealer, h.rules, h.options, h.bet, h.carry_in,
            SIDES.encode(h.sides), POTS.encode(h.side_carry), TAGS.encode(h.extra_tags), h.notes, h.source,
            stamp(h.opened)]


def import_values(h, count: int, head: str, postings: int | None = None, when=None) -> list:
    """An imported hand: its setup, how many moves it came with and their chain head; since
    schema 0006 also how many postings it came with and when it was stored (`when`: the time
    its moves were entered, its postings made, and it closed)."""
    values = hand_values(h) + [count, head]
    if postings is not None:
        values += [postings, when if isinstance(when, str) else stamp(when)]  # (verify: as journaled)
    return values


def event_values(e, timed: bool = True) -> list:
    """A move as stored, who entered it and (`timed`: since schema 0006) when."""
    values = [e.hand_id, e.seq, e.line, e.comment, e.supersedes, e.recorder, e.hash]
    if timed:
        values.append(stamp(e.entered))
    return values


def posting_values(p) -> list:
    return [p.hand_id, p.table_id, p.account, p.player_id, p.kind, p.detail, p.counterparty, p.amount,
            p.reverses, stamp(p.created)]


def verdict_values(h) -> list:
    """A hand's state after it closed or reopened: its status and when it closed (None: open)."""
    return [h.id, h.status, stamp(h.closed)]


def table_text(t, timed: bool = True) -> str:
    return _canonical(table_values(t, timed))


def hand_text(h) -> str:
    return _canonical(hand_values(h))


def import_text(h, count: int, head: str, postings: int | None = None, when=None) -> str:
    return _canonical(import_values(h, count, head, postings, when))


def event_text(e, timed: bool = True) -> str:
    return _canonical(event_values(e, timed))


def posting_text(p) -> str:
    return _canonical(posting_values(p))


def verdict_text(h) -> str:
    return _canonical(verdict_values(h))


# the table of the row a journal row of each kind covers (a plan's row: store/write/plans.py)
COVERED = {kind: {"table": "card_table", "use": "card_table", "verdict": "hand", "redeal": "hand"}.get(family, family)
           for kind, family in KINDS.items() if family is not None}


def values_of(kind: str, row, extra=None) -> list:
    """The values of a journal row of `kind` covering `row` (as it stood when written); `extra`,
    for an `import` row, what it covers beyond the hand's row (plans.Imported)."""
    if kind in TABLE_KINDS:
        return table_values(row)
    if kind == USE:
        return [row.name]  # the table its writer works at from then on
    if kind == IMPORT:
        return import_values(row, extra.moves, extra.head, extra.postings, extra.when)
    if kind in (HAND, REDEAL):
        return hand_values(row)
    if kind == EVENT:
        return event_values(row)
    if kind == POSTING:
        return posting_values(row)
    return verdict_values(row)


def text_of(kind: str, row, extra=None) -> str:
    """The text of a journal row of `kind` covering `row`: its values' canonical JSON."""
    return _canonical(values_of(kind, row, extra))


# ------------------------------------------------------------------ writing
def lock(db) -> None:
    """Hold the chain's head for this transaction: PostgreSQL's row lock on the setting row
    LOCK_KEY, which only a role that may write the book can take (SQLite writes hold the
    book). Its wait is bounded (store/locks.py LOCK_TIMEOUT): `Busy` past it."""
    if _dialect(db) == "postgresql":
        lock_row(db, LOCK_KEY, M("the book's journal"))


def head(db) -> str:
    """The book head: the last journal row's hash ("" for a book with no history)."""
    return db.execute(select(journal.c.hash).order_by(journal.c.id.desc()).limit(1)).scalar() or ""


def append(db, rows) -> str:
    """Append (kind, subject, text) rows to the chain in this transaction: the new head. The
    writer is the session's recorder (store/trust/identity.py), as PostgreSQL also sets it."""
    rows = list(rows)
    if not rows:
        return head(db)
    if hasattr(db, "flush"):
        db.flush()  # a Session: the rows covered are written (and have their ids) first
    lock(db)
    writer = recorder(db)
    previous = head(db)
    values = []
    for kind, subject, text in rows:
        previous = chain(previous, kind, subject, text, writer)
        values.append(dict(kind=kind, subject=subject, text=text, hash=previous, writer=writer))
    db.execute(insert(journal), values)
    announce(db)  # the live board hears of it when this transaction commits (changes.py)
    return previous


def _dialect(db) -> str:
    bind = db.get_bind() if hasattr(db, "get_bind") else db
    return bind.dialect.name


# ------------------------------------------------------------------ reading
def rows(db) -> list:
    """Every journal row, in the order appended."""
    return db.execute(select(journal.c.id, journal.c.kind, journal.c.subject, journal.c.text,
                             journal.c.hash, journal.c.writer).order_by(journal.c.id)).all()


def bet_changed_since(db, table_id: int, hand_id: int) -> bool:
    """The table's bet was changed after the hand's last row of its own (its close, its
    setup): reopening the hand would put that change in the middle of it (R2.2)."""
    last = (select(func.max(journal.c.id))
            .where(journal.c.kind.in_((HAND, IMPORT, REDEAL, VERDICT)), journal.c.subject == hand_id)
            .scalar_subquery())
    return db.execute(select(journal.c.id).where(journal.c.kind == BET, journal.c.subject == table_id,
                                                 journal.c.id > last).limit(1)).first() is not None


# ------------------------------------------------------------------ backfill
def backfill(conn) -> int:
    """Journal a book written before the journal, as migration 0004 did, in the first form (no
    writer, no times: the journal had neither then): each table's state, then each of its
    hands in order with its moves (an imported hand as one `import` row). The head then pins
    the book as it was. Returns the rows written. (Every column of the tables it reads was
    there by schema 0004.)"""
    card_table, hands, ev = core(BookTable), core(Hand), core(Event)
    out = []
    for t in conn.execute(select(card_table).order_by(card_table.c.id)).all():
        out.append((TABLE, t.id, table_text(t, False)))
        for h in conn.execute(select(hands).where(hands.c.table_id == t.id)
                              .order_by(hands.c.number)).all():
            moves = conn.execute(select(ev).where(ev.c.hand_id == h.id).order_by(ev.c.seq)).all()
            if h.source == "import":
                out.append((IMPORT, h.id, import_text(h, len(moves), moves[-1].hash if moves else "")))
                continue
            out.append((HAND, h.id, hand_text(h)))
            out += [(EVENT, e.id, event_text(e, False)) for e in moves]
    previous = head(conn)
    values = []
    for kind, subject, text in out:
        previous = chain(previous, kind, subject, text)
        values.append(dict(kind=kind, subject=subject, text=text, hash=previous))
    if values:
        conn.execute(insert(journal), values)  # no writer: the column came with schema 0006
    return len(out)


def mark_upgrade(conn) -> None:
    """Migration 0006: a book that holds anything is marked where the new form begins: an
    `upgrade` row with its largest hand, move and posting ids (none for an empty book)."""
    highest = {name: conn.execute(sql(f"SELECT max(id) FROM {name}")).scalar() or 0
               for name in ("hand", "event", "posting")}
    if any(highest.values()) or head(conn):
        append(conn, [(UPGRADE, 0, _canonical(["0006", highest["hand"], highest["event"],
                                                highest["posting"]]))])
