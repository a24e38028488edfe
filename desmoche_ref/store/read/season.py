"""The report's data (issues 26 and 27): what a season's pages show, read from the book.

`season()` answers in a few aggregate queries whatever the book's size: the hands picked
(each with a key that changes whenever its exported record, its recorders or its day would),
each hand's money from its postings, each night's settle-up balances from the same sums,
the standings, ratings, records and nights played. `records()` then gives the hands' record
texts and recorders a batch at a time (the report judges them again and draws their pages),
so that no command holds every move of the book at once. Plain values out; report/ renders.

A hand is shown when export writes it (store/league.export_hands): not void, with a move
standing. Its money is what its postings moved into each player's account (the pots and
`outside` are no player's); a night's balances are each player's net over the night and
the pots' share (league.POT_PARTY): what the players' nets leave, as settle-up clears them.
"""

from typing import NamedTuple

from sqlalchemy import func, select

from ...settleup import settle_up
from .league import (POT_PARTY, Row, Selection, Standings, played_day, hand_filters, card_table,
                     event, hand, posting, standings, table_id)
from ..schema.records import export_text, live_events
from ..schema.terms import VOID

BATCH = 400            # hands a batch of records()


class SeasonHand(NamedTuple):
    """A hand the report shows: where and when, its status, its key (it changes whenever the
    hand's page would) and what its postings moved into each player's account."""

    id: int
    table: str
    number: int
    day: object      # datetime.date
    status: str
    key: str
    money: dict      # player -> cents
    closes_table: bool = False  # the last hand of a closed table (exported with [Closed "yes"])


class SeasonNight(NamedTuple):
    """A table's hands of one day (a night of the report), and what settles it."""

    table: str
    day: object
    hands: list      # SeasonHand, in playing order
    balances: dict   # party -> cents (the pots' share as league.POT_PARTY)
    transfers: list  # settleup.Transfer
    voided: list = []  # (number, reason) of its hands voided (`hand void`)


class Season(NamedTuple):
    tables: list      # the tables' names, in order
    since: object     # the --since / --until asked for (a date or None)
    until: object
    standings: object  # league.Standings over every hand shown
    hands: list       # SeasonHand, by day, table and number
    nights: list      # SeasonNight, by day and table
    players: list     # the players' names, best net first
    ratings: object = None   # store.ratings.RatingTable over the hands shown
    records: dict = {}       # name -> career.Record over the hands shown
    nights_played: dict = {}  # name -> nights sat in (standings --min-nights)
    min_nights: int | None = None  # the season's table qualifies players with at least this many nights
    head: str | None = None   # the book head as read (journal.py): the report says which book it shows


class HandRecord(NamedTuple):
    hand: SeasonHand
    text: str        # the record as the book exports it (check judges it as the book did)
    recorders: tuple  # who entered each of its moves, in order (None: not known)


def merged(tables: list) -> Standings:
    """The standings of several tables as one: each table's rows summed by player (every
    figure of a row is a sum over its hands, and the tables' hands are apart)."""
    rows, unwon, brought_in = {}, 0, 0
    for t in tables:
        unwon += t.unwon
        brought_in += t.brought_in
        for r in t.players:
            before = rows.get(r.player)
            rows[r.player] = r if before is None else Row(r.player, *(a + b for a, b in zip(before[1:], r[1:])))
    ordered = sorted(rows.values(), key=lambda r: (-r.net, r.player))
    return Standings(ordered, unwon, brought_in)


def season(conn, tables=(), since=None, until=None, min_nights=None) -> Season:
    """The season of `tables` (every table when none is named), its hands played from
    `since` to `until` (dates, inclusive; None: no bound), its ratings and each player's
    record (store/read/ratings.py, store/read/career.py); `min_nights` qualifies players for the
    season's table. StoreError for an unknown table."""
    from .career import nights_played, player_records
    from ..trust.journal import head
    from .league import voided
    from .ratings import Filter, ratings

    for name in tables:
        table_id(conn, name)  # an unknown table is refused before anything is read
    selections = [Selection(name, None, since, until) for name in tables] or [Selection(None, None, since, until)]
    rows, sums, void = [], {}, {}
    for sel in selections:
        rows += _hands(conn, sel)
        sums.update(_sums(conn, sel))
        void.update(voided(conn, sel))
    shown = _shown(conn, rows)
    hands = sorted((SeasonHand(r.id, r.table, r.number, r.day, r.status, shown[r.id], sums.get(r.id, {}),
                               r.closed_last)
                    for r in rows if r.id in shown), key=lambda h: (h.day, h.table, h.number))
    table_ = standings(conn, selections[0]) if len(selections) == 1 else \
        merged([standings(conn, sel) for sel in selections])
    nights = _nights(rows, hands, sums, void)
    names = list(tables) or sorted({n.table for n in nights})
    players = [r.player for r in table_.players]
    flt = Filter(tuple(tables), since, until)
    return Season(names, since, until, table_, hands, nights, players, ratings(conn, flt),
                  player_records(conn, players, flt), nights_played(conn, flt), min_nights, head(conn))


class _Row(NamedTuple):
    id: int
    table: str
    number: int
    day: object
    status: str
    closed_last: bool  # the last hand of a closed table (exported with [Closed "yes"])
    key: str           # its key, but for the moves of an open hand (_shown)
    open: bool


def _hands(conn, sel: Selection) -> list:
    """_Row of every hand of the selection (void ones too: their night names them). A season
    has tens of thousands: the names and days are shared, not a copy a row."""
    h = hand.c
    last = (select(h.table_id, func.max(h.number).label("number")).where(h.status != VOID).group_by(h.table_id))
    lasts = {t: n for t, n in conn.execute(last).all()}
    query = (select(h.id, card_table.c.name, h.number, h.opened, h.status, h.source, h.table_id,
                    card_table.c.closed, h.closed, h.content_hash).select_from(hand)
             .join(card_table, card_table.c.id == h.table_id).where(*hand_filters(conn, sel)))
    shared, out = {}, []
    for id_, name, number, opened, status, source, t, shut, closed, digest in conn.execute(query):
        day = played_day(opened, source)
        day, name, status = (shared.setdefault(v, v) for v in (day, name, status))
        is_last = shut is not None and lasts.get(t) == number
        key = f"{id_}.{status}.{closed}.{digest}.{day}.{int(is_last)}.{name}"
        out.append(_Row(id_, name, number, day, status, is_last, key, closed is None))
    return out


def _shown(conn, rows) -> dict:
    """{hand id: key} of the hands export writes (not void, a move standing). A closed hand's
    moves stand as they are until it is reopened (and then closed again, at another time): its
    key is its status, when it closed, its content's hash, its table and day, and whether it
    closes its table. An open hand's (a few) adds its last row and how many rows it has; one
    whose every move was taken back, or begun with none, is not shown."""
    e = event.c
    out, open_ = {}, {}
    for r in rows:
        if r.status != VOID:
            (open_ if r.open else out)[r.id] = r.key
    for start in range(0, len(open_), BATCH):
        ids = list(open_)[start:start + BATCH]
        moves = {}
        for row in conn.execute(select(e.hand_id, e.id, e.supersedes, e.line).where(e.hand_id.in_(ids))):
            moves.setdefault(row.hand_id, []).append(row)
        for hand_id, rows_ in moves.items():
            if live_events(rows_):
                out[hand_id] = f"{open_[hand_id]}.{max(r.id for r in rows_)}.{len(rows_)}"
    return out


def _sums(conn, sel: Selection) -> dict:
    """{hand id: {player: cents}}: what each hand's postings moved into each player's account
    (the pots and `outside` are no player's)."""
    p, h = posting.c, hand.c
    query = (select(p.hand_id, p.account, func.sum(p.amount)).select_from(posting)
             .join(hand, h.id == p.hand_id).where(p.player_id.is_not(None), *hand_filters(conn, sel))
             .group_by(p.hand_id, p.account))
    out, names = {}, {}
    for hand_id, account, cents in conn.execute(query):
        out.setdefault(hand_id, {})[names.setdefault(account, account)] = int(cents)
    return out


def _nights(rows, hands, sums, void) -> list:
    """SeasonNight of each (day, table) with a hand shown or voided."""
    by_night, void_by_night, owed = {}, {}, {}
    for h in hands:
        by_night.setdefault((h.day, h.table), []).append(h)
    for r in rows:
        night = owed.setdefault((r.day, r.table), {})
        for account, cents in sums.get(r.id, {}).items():
            night[account] = night.get(account, 0) + cents
        if (r.table, r.number) in void:  # a void hand is said on its night
            by_night.setdefault((r.day, r.table), [])
            void_by_night.setdefault((r.day, r.table), []).append((r.number, void[(r.table, r.number)]))
    nights = []
    for key, night in sorted(by_night.items()):
        balances = _balances(owed.get(key, {}))
        nights.append(SeasonNight(key[1], key[0], night, balances, settle_up(balances),
                                  sorted(void_by_night.get(key, []))))
    return nights


def _balances(nets: dict) -> dict:
    """What settle-up clears (league.balances_of): each player's net, best first, and the
    pots' share, what the players' nets leave (every hand's postings sum to zero)."""
    out = {name: net for name, net in sorted(nets.items(), key=lambda kv: (-kv[1], kv[0])) if net}
    if sum(out.values()):
        out[POT_PARTY] = -sum(out.values())
    return out


def records(conn, hands, batch: int = BATCH):
    """HandRecord of each of `hands` (SeasonHand), in their order, read `batch` hands at a
    time: their rows, then their moves in one query apiece. The text is export's
    (league.export_hands: its notes, its tags, then its live lines)."""
    h, e = hand.c, event.c
    for start in range(0, len(hands), batch):
        part = hands[start:start + batch]
        ids = [x.id for x in part]
        rows = {row.id: row for row in conn.execute(
            select(hand, card_table.c.name.label("table_name")).join(card_table, card_table.c.id == h.table_id)
            .where(h.id.in_(ids)))}
        moves = {}
        for row in conn.execute(select(e.hand_id, e.id, e.supersedes, e.line, e.comment, e.recorder)
                                .where(e.hand_id.in_(ids)).order_by(e.hand_id, e.seq)):
            moves.setdefault(row.hand_id, []).append(row)
        for x in part:
            row, rows_ = rows[x.id], moves.get(x.id, [])
            yield HandRecord(x, export_text(row, row.table_name, x.closes_table, rows_),
                             tuple(r.recorder for r in live_events(rows_)))


__all__ = ["Season", "SeasonNight", "SeasonHand", "HandRecord", "season", "records", "merged"]
