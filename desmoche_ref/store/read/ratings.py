"""The book's hands read for the ratings and the players' records: its complete hands in the
order they were played, streamed a batch at a time (memory stays flat whatever the book's
size), each as the values a ranking needs (rating.hand_ranking). The rating itself is
rating.py's; this reads, and returns plain values the front ends render.

The order they were played: the time each hand was opened (a record's Date tag, else when
it was stored; docs/rulings.md), then its table's name, then its number. Only complete
hands count, from their verdict columns, so an `undo` that reopens a hand takes it out of
the ratings at once, and a hand recorded again (or re-imported) comes back where it was
played: the figures are those of a book that never held the hand taken back.
"""

from datetime import date
from typing import NamedTuple

from sqlalchemy import select

from ...rating import AUTO_WIN, WIN, Ratings, hand_ranking
from .league import Selection, card_table, hand, hand_filters, played_day, table_id
from ..schema.terms import COMPLETE

BATCH = 2000  # rows fetched at a time


class Filter(NamedTuple):
    """Which hands: some tables (none: every table), and the days they were played (inclusive)."""

    tables: tuple = ()
    since: date | None = None
    until: date | None = None


class Played(NamedTuple):
    """A complete hand as the ratings and the records read it."""

    id: int
    table: str
    number: int
    day: object          # datetime.date
    players: list        # in seat order
    outcome: str | None  # win, auto-win, no-winner
    winners: list
    fouled: list         # the players a foul disqualified (Hand.fouls)


class RatingTable(NamedTuple):
    rated: list        # rating.Standing of the players with at least min_hands rated hands, best first
    provisional: list  # rating.Standing of the others
    hands: int         # hands that ranked anyone
    min_hands: int

    def as_json(self) -> dict:
        return {"players": [r.as_json() for r in self.rated],
                "provisional": [r.as_json() for r in self.provisional],
                "hands_rated": self.hands, "min_hands": self.min_hands}


def filters(conn, flt: Filter) -> list:
    """The WHERE clauses of `flt` over the hand table; StoreError for an unknown table."""
    where = hand_filters(conn, Selection(None, None, flt.since, flt.until))
    if flt.tables:
        where.append(hand.c.table_id.in_([table_id(conn, name) for name in flt.tables]))
    return where


def played(conn, flt: Filter = Filter()):
    """Played of each complete hand of `flt`, in the order played, read BATCH rows at a time."""
    h = hand.c
    where = [h.status == COMPLETE, *filters(conn, flt)]
    query = (select(h.id, card_table.c.name, h.number, h.opened, h.players, h.outcome, h.winners, h.fouls)
             .select_from(hand).join(card_table, card_table.c.id == h.table_id)
             .where(*where).order_by(h.opened, card_table.c.name, h.number))
    result = conn.execution_options(yield_per=BATCH).execute(query)
    for rows in result.partitions():
        for id_, table, number, opened, players, outcome, winners, fouls in rows:
            yield Played(id_, table, number, played_day(opened), players.split(), outcome,
                         (winners or "").split(), (fouls or "").split())


def _decided(conn, flt: Filter):
    """(players, outcome, winners, fouled) of each hand with a winner, in the order played:
    the ratings' pass reads nothing more (no time to convert, no row to build)."""
    h = hand.c
    query = (select(h.players, h.outcome, h.winners, h.fouls).select_from(hand)
             .join(card_table, card_table.c.id == h.table_id)
             .where(h.status == COMPLETE, h.outcome.in_((WIN, AUTO_WIN)), *filters(conn, flt))
             .order_by(h.opened, card_table.c.name, h.number))
    result = conn.execution_options(yield_per=BATCH).execute(query)
    for rows in result.partitions():
        for players, outcome, winners, fouls in rows:
            yield players.split(), outcome, (winners or "").split(), (fouls or "").split()


def ratings(conn, flt: Filter = Filter(), min_hands: int = 20) -> RatingTable:
    """Every player's rating over the hands of `flt`: those with at least `min_hands` rated
    hands ranked, the others apart."""
    book = Ratings()
    rated = 0
    play = book.play
    for players, outcome, winners, fouled in _decided(conn, flt):
        ranks = hand_ranking(players, outcome, winners, fouled)
        if ranks is not None:
            play(players, ranks)
            rated += 1
    ranked, provisional = book.table(min_hands)
    return RatingTable(ranked, provisional, rated, min_hands)


class Point(NamedTuple):
    """A player's rating after one of their rated hands."""

    table: str
    number: int
    day: object
    rating: float
