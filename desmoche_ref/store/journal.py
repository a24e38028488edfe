"""The book's journal: one insert-only row per write the book keeps, chained to the book head.

Every write appends: a table created (`table`), its bet changed (`bet`), the table closed
(`close`), an import's hands taking the table on (`follow`: its seats and stakes become those
of its last hand), a hand opened with its setup (`hand`), a hand with no move dealt again with its new setup
(`redeal`), a move or an undo stored (`event`),
a hand imported whole (`import`: its setup and its events' chain head, one row for all its
moves). Each row holds the canonical text of what was written (the `*_text` functions, built
from the rows it covers) and
    hash = sha256(previous row's hash, kind, subject, text),
so the last row's hash, the BOOK HEAD, pins the whole history the way a git commit id does:
`verify` recomputes every text from the rows it covers (an edit of a covered row shows),
checks that every covered row has its journal row and that the chain is unbroken, and
`verify --head DIGEST` that DIGEST is a hash of the chain — so nothing written up to it was
changed, even by someone who could rewrite the whole file and recompute every hash after.

The journal is never updated or deleted. On PostgreSQL concurrent writers append to one
chain: each appending transaction holds an advisory lock until it commits (SQLite writes
already hold the book's lock), so the chain stays linear.

ORM-free: the importer appends with a Core connection, the live commands with a Session.
"""

import hashlib
import json
from datetime import timezone

from sqlalchemy import column, insert, select, table, text as sql

TABLE, BET, CLOSE, FOLLOW = "table", "bet", "close", "follow"  # a table's state after the write
HAND, EVENT, IMPORT = "hand", "event", "import"
REDEAL = "redeal"  # a hand with no move dealt again: its setup anew (store/course.py)
TABLE_KINDS = (TABLE, BET, CLOSE, FOLLOW)
JOURNAL_LOCK = 0x6A6F75726E616C  # "journal": the PostgreSQL advisory lock of the chain's head

journal = table("journal", *map(column, ("id", "kind", "subject", "text", "hash")))


def chain(previous: str, kind: str, subject: int, text: str) -> str:
    """A journal row's hash, chained to the previous row's ("" for the first)."""
    return hashlib.sha256(f"{previous}\n{kind}\n{subject}\n{text}".encode("utf-8")).hexdigest()


def _canonical(values) -> str:
    return json.dumps(values, ensure_ascii=False, separators=(",", ":"))


def stamp(when) -> str | None:
    """A stored time in one form whatever the engine gives back (SQLite: naive UTC)."""
    if when is None:
        return None
    when = when.replace(tzinfo=timezone.utc) if when.utcoffset() is None else when.astimezone(timezone.utc)
    return when.strftime("%Y-%m-%d %H:%M:%S.%f")


def table_text(t) -> str:
    """A table's state: what its next hands are dealt with, and whether it broke up."""
    return _canonical([t.name, t.players, t.bet, t.rules, t.options, t.sides, t.closed is not None])


def _hand_values(h) -> list:
    return [h.table_id, h.number, h.players, h.dealer, h.rules, h.options, h.bet, h.carry_in,
            h.sides, h.side_carry, h.extra_tags, h.notes, h.source, stamp(h.opened)]


def hand_text(h) -> str:
    """A hand's setup as opened or imported: everything of its row but its verdict (which
    `verify` recomputes from its moves: models.py says which columns are derived)."""
    return _canonical(_hand_values(h))


def import_text(h, count: int, head: str) -> str:
    """An imported hand: its setup, how many moves it came with and their chain head."""
    return _canonical(_hand_values(h) + [count, head])


def event_text(e) -> str:
    return _canonical([e.hand_id, e.seq, e.line, e.comment, e.supersedes, e.recorder, e.hash])


# ------------------------------------------------------------------ writing
def lock(db) -> None:
    """Hold the chain's head for this transaction (PostgreSQL; SQLite writes hold the book)."""
    if _dialect(db) == "postgresql":
        db.execute(sql(f"SELECT pg_advisory_xact_lock({JOURNAL_LOCK})"))


def head(db) -> str:
    """The book head: the last journal row's hash ("" for a book with no history)."""
    return db.execute(select(journal.c.hash).order_by(journal.c.id.desc()).limit(1)).scalar() or ""


def append(db, rows) -> str:
    """Append (kind, subject, text) rows to the chain in this transaction: the new head."""
    rows = list(rows)
    if not rows:
        return head(db)
    if hasattr(db, "flush"):
        db.flush()  # a Session: the rows covered are written (and have their ids) first
    lock(db)
    previous = head(db)
    values = []
    for kind, subject, text in rows:
        previous = chain(previous, kind, subject, text)
        values.append(dict(kind=kind, subject=subject, text=text, hash=previous))
    db.execute(insert(journal), values)
    return previous


def journal_table(db, t, kind: str = TABLE) -> None:
    """A table created (`table`), its bet changed (`bet`), closed (`close`), followed (`follow`)."""
    append(db, [(kind, t.id, table_text(t))])


def journal_hand(db, h) -> None:
    """A hand opened live, with its setup."""
    append(db, [(HAND, h.id, hand_text(h))])


def journal_redeal(db, h) -> None:
    """A hand with no move dealt again (same number), with its new setup."""
    append(db, [(REDEAL, h.id, hand_text(h))])


def journal_event(db, e) -> None:
    """A move or an undo stored live."""
    append(db, [(EVENT, e.id, event_text(e))])


def _dialect(db) -> str:
    bind = db.get_bind() if hasattr(db, "get_bind") else db
    return bind.dialect.name


# ------------------------------------------------------------------ reading
def rows(db) -> list:
    """Every journal row, in the order appended."""
    return db.execute(select(journal.c.id, journal.c.kind, journal.c.subject, journal.c.text,
                             journal.c.hash).order_by(journal.c.id)).all()


# ------------------------------------------------------------------ backfill
def backfill(conn) -> int:
    """Journal a book written before the journal (migration 0004): each table's state, then
    each of its hands in order with its moves (an imported hand as one `import` row). The
    head then pins the book as it was upgraded. Returns the rows written."""
    from .league import card_table, hand as hands

    ev = table("event", *map(column, ("id", "hand_id", "seq", "line", "comment", "supersedes",
                                       "recorder", "hash")))
    out = []
    tables = conn.execute(select(card_table).order_by(card_table.c.id)).all()
    for t in tables:
        out.append((TABLE, t.id, table_text(t)))
        for h in conn.execute(select(hands).where(hands.c.table_id == t.id)
                              .order_by(hands.c.number)).all():
            moves = conn.execute(select(ev).where(ev.c.hand_id == h.id).order_by(ev.c.seq)).all()
            if h.source == "import":
                out.append((IMPORT, h.id, import_text(h, len(moves), moves[-1].hash if moves else "")))
            else:
                out.append((HAND, h.id, hand_text(h)))
                out += [(EVENT, e.id, event_text(e)) for e in moves]
    append(conn, out)
    return len(out)
