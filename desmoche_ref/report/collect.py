"""What a report shows, read from the book through the league's own read functions
(store/league.py: played, standings, balances, ledger, export_hands) and nothing else: no
write, no query of its own. The result is plain values (a Season), judged and rendered by
the rest of the package without the book.
"""

from typing import NamedTuple

from ..settleup import settle_up


class Hand(NamedTuple):
    table: str
    number: int
    day: object      # datetime.date
    status: str
    text: str        # the record as the book exports it (check judges it as the book did)
    postings: tuple  # the ledger's entries of this hand, in order
    recorders: tuple = ()  # who entered each of its moves, in order (None: not known)


class Night(NamedTuple):
    """A table's hands of one day, and what settles that night (store.league.balances)."""

    table: str
    day: object
    hands: list      # Hand, in playing order
    balances: dict   # party -> cents (the pots' share as league.POT_PARTY)
    transfers: list  # settleup.Transfer
    voided: list = []  # (number, reason) of its hands voided (`hand void`)


class Season(NamedTuple):
    tables: list      # the tables' names, in order
    since: object     # the --since / --until asked for (a date or None)
    until: object
    standings: object  # league.Standings over every hand shown
    hands: list       # Hand, by day, table and number
    nights: list      # Night, by day and table
    players: list     # the players' names, best net first
    ratings: object = None   # store.ratings.RatingTable over the hands shown
    records: dict = {}       # name -> career.Record over the hands shown
    nights_played: dict = {}  # name -> nights sat in (standings --min-nights)
    min_nights: int | None = None  # the season's table qualifies players with at least this many nights


def merged(tables: list):
    """The standings of several tables as one: each table's rows summed by player (every
    figure of a row is a sum over its hands, and the tables' hands are apart)."""
    from ..store.league import Row, Standings

    rows, unwon, brought_in = {}, 0, 0
    for t in tables:
        unwon += t.unwon
        brought_in += t.brought_in
        for r in t.players:
            before = rows.get(r.player)
            rows[r.player] = r if before is None else Row(r.player, *(a + b for a, b in zip(before[1:], r[1:])))
    ordered = sorted(rows.values(), key=lambda r: (-r.net, r.player))
    return Standings(ordered, unwon, brought_in)


def collect(session, tables=(), since=None, until=None, progress=None, min_nights=None) -> Season:
    """The season of `tables` (every table when none is named), its hands played from
    `since` to `until` (dates, inclusive; None: no bound), its ratings and each player's
    record (store/ratings.py, store/career.py); `min_nights` qualifies players for the
    season's table. StoreError for an unknown table."""
    from ..store.career import nights_played, player_records
    from ..store.ratings import Filter, ratings
    from ..store.league import (Selection, balances, export_hands, ledger, played, recorders, standings,
                                table_id, voided)

    for name in tables:
        table_id(session, name)  # an unknown table is refused before anything is read
    selections = [Selection(name, None, since, until) for name in tables] or [Selection(None, None, since, until)]
    rows = [row for sel in selections for row in played(session, sel)]
    wanted = {(r.table, r.number) for r in rows}
    texts, postings, who, void = {}, {}, {}, {}
    for sel in selections:
        who.update(recorders(session, sel.table))
        void.update(voided(session, sel))
        for table, number, text in export_hands(session, sel.table):
            if (table, number) in wanted:
                texts[(table, number)] = text
        for entry in ledger(session, table=sel.table):
            if (entry.table, entry.hand) in wanted:
                postings.setdefault((entry.table, entry.hand), []).append(entry)
    days = {(r.table, r.number): r.day for r in rows}
    rows = [r for r in rows if (r.table, r.number) in texts]  # what export leaves out (a void hand) is not shown
    hands = [Hand(r.table, r.number, r.day, r.status, texts[(r.table, r.number)],
                  tuple(postings.get((r.table, r.number), ())), who.get((r.table, r.number), ()))
             for r in sorted(rows, key=lambda r: (r.day, r.table, r.number))]
    table_ = standings(session, selections[0]) if len(selections) == 1 else \
        merged([standings(session, sel) for sel in selections])
    nights, by_night, void_by_night = [], {}, {}
    for h in hands:
        by_night.setdefault((h.day, h.table), []).append(h)
    for (table, number), reason in sorted(void.items()):  # a void hand is said on its night
        by_night.setdefault((days[(table, number)], table), [])
        void_by_night.setdefault((days[(table, number)], table), []).append((number, reason))
    for (day, table), night in sorted(by_night.items()):
        owed = balances(session, Selection(table, None, day, day))
        nights.append(Night(table, day, night, owed, settle_up(owed), void_by_night.get((day, table), [])))
    names = list(tables) or sorted({table for (_day, table) in by_night})
    players = [r.player for r in table_.players]
    flt = Filter(tuple(tables), since, until)
    return Season(names, since, until, table_, hands, nights, players, ratings(session, flt),
                  player_records(session, players, flt), nights_played(session, flt), min_nights)
