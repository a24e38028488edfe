"""The board's reading of the book (issue 28): the night as the room may see it, in one snapshot.

A scorebook service beside TableBook and Scorebook: the live board (board/) asks it for a
`Snapshot`, renders what it returns, and never holds a session. It only reads, in one
transaction (PostgreSQL: REPEATABLE READ, so the tables, the nets and the book head are of
one moment), and works under a role granted reading only. What it returns of a hand in
progress is its public view (public.py): no hidden card is ever in a snapshot.

The tables in play tonight: those named, else every table that changed in the last
`hours` (a table made, closed, a hand opened or closed, a move entered), by name. The nets
of a table's night are `standings --table NAME` (league.standings: the table's postings, as
`play`'s `settle` counts the night), its settle-up is what `settle-up --table NAME` would
make now (settleup.settle_up of league.balances), the season's standings are the whole
book's; no figure is worked out here.
"""

from datetime import datetime, timedelta, timezone
from typing import NamedTuple

from ..findings import M

ACTIVE_HOURS = 12  # a table that changed within this many hours is in play tonight


class BoardTable(NamedTuple):
    name: str
    seats: list           # the table's players, in seat order
    closed: bool          # the table broke up (R11.5)
    hand: dict | None     # the latest hand: number, status, and its public view (public.py); None before the first
    results: list         # NightHand (tablebook.py) of each settled hand, in order: no card
    night: object         # league.Standings of the table: its nets
    transfers: list       # settleup.Transfer: the settle-up of the table's balances, now


class Snapshot(NamedTuple):
    tables: list          # BoardTable, by name
    season: object        # league.Standings of the whole book
    head: str             # the book head (journal.py)
    changed: datetime | None  # when the book last changed (UTC)
    missing: list         # tables named that the book does not hold


def open_watched(given: str | None = None):
    """The book the board reads (db.Book), read-only and live: a book that does not exist,
    holds no book, or whose schema is not this program's is a BookError saying so (the board
    never makes or upgrades one, and tries again later)."""
    from .db import BookError, check_known, connect_book, describe, schema_head, schema_version

    book = connect_book(given, readonly=True, live=True)
    try:
        version = schema_version(book)
        if version == schema_head():
            return book
        check_known(book, version)
        if version is None:
            raise BookError(M("{book} holds no book yet: the first command that records makes it",
                              book=describe(book.url)))
        raise BookError(M("the book {book} needs `desmoche-ref db upgrade` (its schema is {version}, "
                          "this program's {head})", book=describe(book.url), version=version, head=schema_head()))
    except BaseException:
        book.engine.dispose()
        raise


class Scoreboard:
    """Snapshots of the book for the board; a hand's public view is kept between snapshots
    and computed again only when its moves changed."""

    def __init__(self, book, tables=(), hours: int = ACTIVE_HOURS):
        self.book, self.named, self.hours = book, list(dict.fromkeys(tables)), hours
        self._views = {}  # table id -> (what the hand's view was made of, the hand dict)

    def snapshot(self) -> Snapshot:
        from .journal import head
        from .league import Selection, standings

        with self.book.read() as s:
            if self.book.dialect == "postgresql":  # every read below sees one moment of the book
                s.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            rows, changed = _activity(s)
            picked, missing = self._pick(rows)
            tables = [self._table(s, row, latest) for row, latest, _when in picked]
            return Snapshot(tables, standings(s, Selection()), head(s), changed, missing)

    def _pick(self, rows):
        if self.named:
            by_name = {row.name: (row, latest, when) for row, latest, when in rows}
            return ([by_name[n] for n in self.named if n in by_name],
                    [n for n in self.named if n not in by_name])
        since = datetime.now(timezone.utc) - timedelta(hours=self.hours)
        return [r for r in rows if r[2] is not None and r[2] >= since], []

    def _table(self, s, row, latest) -> BoardTable:
        from ..settleup import settle_up
        from .hands import night_postings
        from .league import Selection, balances_of, standings

        night = standings(s, Selection(table=row.name))
        return BoardTable(row.name, row.players.split(), row.closed is not None, self._hand(s, row, latest),
                          night_postings(s, row.id)[0], night, settle_up(balances_of(night)))

    def _hand(self, s, row, latest):
        """The latest hand's dict (its public view made again only if its moves changed)."""
        if latest is None:
            return None
        hand, seq = latest
        key = (hand.id, seq, hand.closed is not None, hand.status)
        kept = self._views.get(row.id)
        if kept is None or kept[0] != key:
            kept = self._views[row.id] = (key, _hand_view(s, hand))
        return kept[1]


def _hand_view(s, hand) -> dict:
    """A stored hand's public view, its moves numbered as the book numbers them."""
    from ..engine.setup import read_setup
    from ..notation.parser import parse_text
    from ..public import public_hand
    from .hands import events, record_text
    from .records import live_events

    live = live_events(events(s, hand))
    record = parse_text(record_text(hand, [r.line for r in live])).hands[0]  # comments never shown
    for ev, row in zip(record.events, live):
        ev.line = row.seq
    setup, errors = read_setup(record)
    view = {"number": hand.number, "status": hand.status, "closed": hand.closed is not None}
    if not errors:
        view.update(public_hand(setup, record.events))
    return view


def _activity(s):
    """[(table row, (its latest hand row, its last move's number) or None, when it last
    changed)] of every table, by name, and when the book last changed. Three small queries
    on the tables' keys (no scan of the moves)."""
    from sqlmodel import func, select

    from .models import BookTable, Event, Hand

    tables = list(s.exec(select(BookTable).order_by(BookTable.name)))
    last = select(Hand.table_id, func.max(Hand.number).label("number")).group_by(Hand.table_id).subquery()
    hands = {h.table_id: h for h in s.exec(select(Hand).join(
        last, (Hand.table_id == last.c.table_id) & (Hand.number == last.c.number)))}
    moves = {}
    if hands:
        moves = {hand_id: (seq, entered) for hand_id, seq, entered in s.exec(
            select(Event.hand_id, func.max(Event.seq), func.max(Event.entered))
            .where(Event.hand_id.in_([h.id for h in hands.values()])).group_by(Event.hand_id))}
    out, newest = [], None
    for t in tables:
        hand = hands.get(t.id)
        seq, entered = moves.get(hand.id, (0, None)) if hand is not None else (0, None)
        times = [_utc(w) for w in (t.created, t.closed, entered) + ((hand.opened, hand.closed) if hand else ())
                 if w is not None]
        when = max(times) if times else None
        newest = max(filter(None, (newest, when)), default=None)
        out.append((t, (hand, seq) if hand is not None else None, when))
    return out, newest


def _utc(when: datetime) -> datetime:
    """A stored time, aware (SQLite gives back naive UTC)."""
    return when.replace(tzinfo=timezone.utc) if when.utcoffset() is None else when
