"""The board's reading of the book (issue 28): the night as the room may see it, in one snapshot.

A scorebook service beside TableBook and Scorebook: the live board (board/) asks it for a
`Snapshot`, renders what it returns, and never holds a session. It only reads, in one
transaction (PostgreSQL: REPEATABLE READ, so the tables, the nets and the book head are of
one moment), and works under a role granted reading only. What it returns of a hand is its
public view (public.py): no hidden card is ever in a snapshot.

The tables in play tonight: those named, else every table that changed less than
tonight.GAP ago (a table made, closed, a hand opened or closed, a move entered), by name. A
table's hand is the one it is at (tablestate.current_key: its earliest open hand, else its
latest), read as the book keeps it: its standing moves (records.live_events: an undone move
and a `void` row are no move), a `void` row's reason, the undo that came last, a hand dealt
again. A table's night is tonight.tonight's: its settled and voided hands, its nets
(`standings` of those hands) and its settle-up; the season's standings and ratings are the
whole book's. No figure is worked out here.
"""

from datetime import datetime, timezone
from typing import NamedTuple

from ...findings import M

REDRAW_NIGHT = 60  # seconds: tonight's nights are read again at least this often (a night ends with time)


class BoardTable(NamedTuple):
    name: str
    seats: list           # the table's players, in seat order
    closed: bool          # the table broke up (R11.5)
    hand: dict | None     # the hand it is at (_HandNow.view): None before the first
    night: object         # tonight.Tonight: the night's hands, nets and settle-up


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
    from ..db import BookError, check_known, connect_book, describe, schema_head, schema_version

    book = connect_book(given, readonly=True)
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
        book.close()
        raise


class Scoreboard:
    """Snapshots of the book for the board. What a snapshot costs is what changed: a table's
    hand is read again only when its moves, its row (dealt again, closed, voided, reopened) or
    the hand the table is at changed; the money (the season, each night) only when the
    postings or the hands the tables are at changed, or a minute went by (a night ends with
    time). `now`: the clock (tests)."""

    def __init__(self, book, tables=(), now=None):
        self.book, self.named = book, list(dict.fromkeys(tables))
        self.now = now or (lambda: datetime.now(timezone.utc))
        self._hands = {}    # table id -> (key, the hand's dict)
        self._money = None  # (read at, season standings, {table id: Tonight}, ratings)

    def snapshot(self) -> Snapshot:
        from ..trust.journal import head

        now = self.now()
        with self.book.read() as s:
            if self.book.dialect == "postgresql":  # every read below sees one moment of the book
                s.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            rows, changed = _activity(s)
            picked, missing = self._pick(rows, now)
            season, rated, nights = self._money_of(s, rows, picked, now)
            tables = [BoardTable(row.name, row.players.split(), row.closed is not None,
                                 self._hand(s, row, at), nights[row.id]) for row, at, _when in picked]
            return Snapshot(tables, season, head(s), changed, missing, rated)

    def head(self) -> str:
        """The book head now (journal.py: every write appends a journal row), in one small
        query: a look that finds the head of the last snapshot has nothing new to draw."""
        from ..trust.journal import head

        with self.book.read() as s:
            return head(s)

    def _pick(self, rows, now):
        from .tonight import GAP

        if self.named:
            by_name = {row.name: (row, at, when) for row, at, when in rows}
            return ([by_name[n] for n in self.named if n in by_name],
                    [n for n in self.named if n not in by_name])
        return [r for r in rows if r[2] is not None and now - r[2] <= GAP], []

    def _money_of(self, s, rows, picked, now):
        """(the season's standings, its ratings, {table id: its Tonight}): read again only if
        the postings (insert-only: their last id says where they are) or the hand a table is at
        (opened, closed, voided, reopened) changed since, or a minute went by — a rating moves
        only when a hand closes or reopens."""
        from sqlmodel import func, select

        from ...public import public_text
        from .league import Selection, standings
        from ..schema.models import Posting
        from .ratings import ratings
        from .tonight import tonight

        at = (s.exec(select(func.max(Posting.id))).one(), int(now.timestamp()) // REDRAW_NIGHT,
              tuple((row.id, hand.id, hand.status, hand.closed is not None)
                    for row, (hand, _seq), _when in rows if hand is not None))
        if self._money is None or self._money[0] != at:
            self._money = (at, standings(s, Selection()), {}, ratings(s.connection()))
        nights = self._money[2]
        for row, _at, _when in picked:
            if row.id not in nights:  # a voided hand's reason: words a person wrote, as the room may read them
                night = tonight(s, row.id, row.name, now)
                nights[row.id] = night._replace(voided={k: public_text(r) for k, r in night.voided.items()})
        return self._money[1], self._money[3], nights

    def _hand(self, s, row, at):
        """The dict of the hand the table is at (None before its first)."""
        hand, seq = at
        if hand is None:
            return None
        key = (hand.id, seq, hand.status, hand.closed, hand.opened)
        known = self._hands.get(row.id)
        if known is None or known[0] != key:
            known = self._hands[row.id] = (key, _HandNow(s, hand).view())
        return known[1]


class _HandNow:
    """A hand as the book keeps it now, for the room: its standing moves fed to its public view
    (public.PublicHand), its `void` row's reason, the undo that came last, whether it was dealt
    again. The moves are read as every service reads them (store/schema/records.py, hands.record_text)."""

    def __init__(self, s, hand):
        from .hands import events
        from ..schema.records import event_lines, live_events, void_row
        from ..write.tablebook import log_rows

        rows = events(s, hand)
        self.hand, self.live, self.lines = hand, live_events(rows), event_lines(rows)
        voided = void_row(rows)
        self.reason = voided.comment if voided is not None and hand.status == "void" else None
        log = log_rows(rows)
        self.undone = None
        if log and log[-1].supersedes is not None:  # the latest row takes a move back
            target = next(r for r in log if r.seq == log[-1].supersedes)
            self.undone = {"move": log[-1].seq, "target": target.seq, "verb": target.line.split(" ", 1)[0],
                           "reopened": target.line in ("end", "void") and hand.closed is None}
        self.redealt = not self.live and _dealt_again(s, hand.id)

    def view(self) -> dict:
        from ...public import public_text

        public = self._public()
        view = public.view() if public is not None else {}
        reason = None if self.reason is None else public.text(self.reason) if public is not None \
            else public_text(self.reason)
        return {**view, "verdict": view.get("status"),  # the referee's (complete, incomplete, invalid)
                "number": self.hand.number, "status": self.hand.status,  # the book's: open, complete, void, …
                "closed": self.hand.closed is not None, "void": reason, "undone": self.undone,
                "redealt": self.redealt}

    def _public(self):
        from ...engine.setup import read_setup
        from ...notation.parser import parse_text
        from ...public import PublicHand
        from .hands import record_text

        record = parse_text(record_text(self.hand, self.lines)).hands[0]
        setup, errors = read_setup(record)
        if errors:  # a hand row's values were judged when stored: only an edit gets here
            return None
        public = PublicHand(setup)
        for ev, row in zip(record.events, self.live):
            ev.line = row.seq  # a move is what the book numbers
            public.apply(ev)
        return public


def _dealt_again(s, hand_id: int) -> bool:
    """Whether the hand was dealt again (`hand new` on a hand with no move, or a waiting hand
    dealt after the one before it closed): a `redeal` row in the journal since it was made
    (the rows after its own, found by the index that journals a hand once)."""
    from sqlalchemy import select

    from ..schema.models import Journal, core
    from ..schema.terms import HAND, REDEAL

    j = core(Journal)
    made = s.execute(select(j.c.id).where(j.c.kind == HAND, j.c.subject == hand_id)).scalar()
    if made is None:
        return False
    return s.execute(select(j.c.id).where(j.c.id > made, j.c.kind == REDEAL, j.c.subject == hand_id)
                     .limit(1)).first() is not None


def _activity(s):
    """[(table row, (the hand it is at, its last move's number) or (None, 0), when it last
    changed)] of every table, by name, and when the book last changed. A few small queries on
    the tables' keys (no scan of the moves), rows without the ORM (the board asks after every
    move). The hand a table is at: its earliest open hand, else its latest (tablestate.current_key)."""
    from sqlalchemy import and_, func, select

    from ..schema.models import BookTable, Event, Hand, core

    t, h, e = core(BookTable), core(Hand), core(Event)
    tables = s.execute(select(t).order_by(t.c.name)).all()
    last = select(h.c.table_id, func.max(h.c.number).label("number")).group_by(h.c.table_id).subquery()
    first_open = (select(h.c.table_id, func.min(h.c.number).label("number")).where(h.c.closed.is_(None))
                  .group_by(h.c.table_id).subquery())
    def at(pick):
        return {row.table_id: row for row in s.execute(select(h).join(
            pick, and_(h.c.table_id == pick.c.table_id, h.c.number == pick.c.number)))}

    latest = at(last)
    hands = {**latest, **at(first_open)}  # an open hand, where there is one, over the latest
    ids = list({row.id for row in (*hands.values(), *latest.values())})
    moves = {}
    if ids:
        moves = {hand_id: (seq, entered) for hand_id, seq, entered in s.execute(
            select(e.c.hand_id, func.max(e.c.seq), func.max(e.c.entered))
            .where(e.c.hand_id.in_(ids)).group_by(e.c.hand_id))}
    out, newest = [], None
    for row in tables:
        hand = hands.get(row.id)
        times = [row.created, row.closed]
        for seen in (hand, latest.get(row.id)):
            if seen is not None:
                times += [seen.opened, seen.closed, moves.get(seen.id, (0, None))[1]]
        when = max((_utc(w) for w in times if w is not None), default=None)
        newest = max(filter(None, (newest, when)), default=None)
        out.append((row, (hand, moves.get(hand.id, (0, None))[0] if hand is not None else 0), when))
    return out, newest


def _utc(when: datetime) -> datetime:
    """A stored time, aware (SQLite gives back naive UTC)."""
    return when.replace(tzinfo=timezone.utc) if when.utcoffset() is None else when
