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
make now (settleup.settle_up of league.balances, the pots' money left with its owners:
pots.py), the season's standings are the whole book's; no figure is worked out here.
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
    ratings: object = None  # ratings.RatingTable of the whole book (`ratings --json`)


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
    """Snapshots of the book for the board. What a snapshot costs is what changed: a hand's
    public view follows its new moves (made again from the start only when one was taken
    back), and the money (every standings and settle-up) is read again only when the postings
    or a table's latest hand changed."""

    def __init__(self, book, tables=(), hours: int = ACTIVE_HOURS):
        self.book, self.named, self.hours = book, list(dict.fromkeys(tables)), hours
        self._hands = {}    # table id -> _Followed
        self._money = None  # (read at, season standings, {table id: (results, night, transfers)}, ratings)

    def snapshot(self) -> Snapshot:
        from .journal import head

        with self.book.read() as s:
            if self.book.dialect == "postgresql":  # every read below sees one moment of the book
                s.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            rows, changed = _activity(s)
            picked, missing = self._pick(rows)
            season, rated, money = self._money_of(s, rows, picked)
            tables = [BoardTable(row.name, row.players.split(), row.closed is not None,
                                 self._hand(s, row, latest), *money[row.id]) for row, latest, _when in picked]
            return Snapshot(tables, season, head(s), changed, missing, rated)

    def _pick(self, rows):
        if self.named:
            by_name = {row.name: (row, latest, when) for row, latest, when in rows}
            return ([by_name[n] for n in self.named if n in by_name],
                    [n for n in self.named if n not in by_name])
        since = datetime.now(timezone.utc) - timedelta(hours=self.hours)
        return [r for r in rows if r[2] is not None and r[2] >= since], []

    def _money_of(self, s, rows, picked):
        """(the season's standings, its ratings, {table id: (its settled hands, its night's
        standings, its settle-up)}): read again only if the postings (insert-only: their last
        id says where they are) or a table's latest hand (opened, closed, reopened) changed
        since — a rating moves only when a hand closes or reopens."""
        from sqlmodel import func, select

        from ..settleup import owned, settle_up
        from .hands import night_postings
        from .league import POT_PARTY, Selection, balances_of, standings
        from .pots import held_pots
        from .models import Posting
        from .ratings import ratings

        at = (s.exec(select(func.max(Posting.id))).one(),
              tuple((row.id, latest[0].id, latest[0].status, latest[0].closed is not None)
                    for row, latest, _when in rows if latest is not None))
        if self._money is None or self._money[0] != at:
            self._money = (at, standings(s, Selection()), {}, ratings(s.connection()))
        tables = self._money[2]
        for row, _latest, _when in picked:
            if row.id not in tables:
                night = standings(s, Selection(table=row.name))
                held = held_pots(s, Selection(table=row.name))  # the pots' money left where it is
                tables[row.id] = (night_postings(s, row.id)[0], night,
                                  settle_up(owned(balances_of(night), *held, POT_PARTY)))
        return self._money[1], self._money[3], tables

    def _hand(self, s, row, latest):
        """The latest hand's dict: its number and row status, and its public view."""
        if latest is None:
            return None
        hand, seq = latest
        followed = self._hands.get(row.id)
        if followed is None or not followed.catch_up(s, hand, seq):
            followed = self._hands[row.id] = _Followed(s, hand)
        return followed.view(hand)


class _Followed:
    """A hand's public view (public.PublicHand), fed each new move as the book numbers it."""

    def __init__(self, s, hand):
        from ..engine.setup import read_setup
        from ..notation.parser import parse_text
        from ..public import PublicHand
        from .hands import events, record_text
        from .records import live_events

        rows = events(s, hand)
        live = live_events(rows)
        record = parse_text(record_text(hand, [r.line for r in live])).hands[0]  # comments never shown
        for ev, row in zip(record.events, live):
            ev.line = row.seq
        setup, errors = read_setup(record)
        self.hand_id, self.seq = hand.id, rows[-1].seq if rows else 0
        self.public = None if errors else PublicHand(setup)
        for ev in record.events if self.public else ():
            self.public.apply(ev)
        self._view = None

    def catch_up(self, s, hand, seq) -> bool:
        """Feed the moves stored since; False when that cannot be done (another hand, a move
        taken back): then the view is made again."""
        from sqlmodel import select

        from ..notation.parser import parse_event
        from .models import Event

        if hand.id != self.hand_id or seq < self.seq:
            return False
        if seq == self.seq:
            return True
        rows = list(s.exec(select(Event).where(Event.hand_id == hand.id, Event.seq > self.seq).order_by(Event.seq)))
        if any(r.supersedes is not None for r in rows):
            return False
        for r in rows:
            if self.public is not None:
                self.public.apply(parse_event(r.line, r.seq))
        self.seq, self._view = rows[-1].seq if rows else self.seq, None
        return True

    def view(self, hand) -> dict:
        if self._view is None:
            self._view = {} if self.public is None else self.public.view()
        return {"number": hand.number, "status": hand.status, "closed": hand.closed is not None, **self._view}


def _activity(s):
    """[(table row, (its latest hand row, its last move's number) or None, when it last
    changed)] of every table, by name, and when the book last changed. Three small queries
    on the tables' keys (no scan of the moves), rows without the ORM (the board asks after
    every move)."""
    from sqlalchemy import and_, func, select

    from .models import BookTable, Event, Hand, core

    t, h, e = core(BookTable), core(Hand), core(Event)
    tables = s.execute(select(t).order_by(t.c.name)).all()
    last = select(h.c.table_id, func.max(h.c.number).label("number")).group_by(h.c.table_id).subquery()
    hands = {row.table_id: row for row in s.execute(select(h).join(
        last, and_(h.c.table_id == last.c.table_id, h.c.number == last.c.number)))}
    moves = {}
    if hands:
        moves = {hand_id: (seq, entered) for hand_id, seq, entered in s.execute(
            select(e.c.hand_id, func.max(e.c.seq), func.max(e.c.entered))
            .where(e.c.hand_id.in_([row.id for row in hands.values()])).group_by(e.c.hand_id))}
    out, newest = [], None
    for row in tables:
        hand = hands.get(row.id)
        seq, entered = moves.get(hand.id, (0, None)) if hand is not None else (0, None)
        times = [_utc(w) for w in (row.created, row.closed, entered) + ((hand.opened, hand.closed) if hand else ())
                 if w is not None]
        when = max(times) if times else None
        newest = max(filter(None, (newest, when)), default=None)
        out.append((row, (hand, seq) if hand is not None else None, when))
    return out, newest


def _utc(when: datetime) -> datetime:
    """A stored time, aware (SQLite gives back naive UTC)."""
    return when.replace(tzinfo=timezone.utc) if when.utcoffset() is None else when
