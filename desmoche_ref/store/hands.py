"""A book's tables and hands as the commands read them: the table named (or in use), a hand
of it, its rows, the night its postings settled. Writing is the planners' (store/course.py)
and the writer's (store/writer.py); every function here reads inside the caller's session.

The store never judges a move itself: a hand's record is rebuilt from its rows (its setup's
tags and its live event lines, `record_text`), and the referee judges it exactly as `check`
judges a file (store/plans.py).
"""

import json
from typing import NamedTuple

from sqlalchemy import func
from sqlmodel import select

from ..findings import M
from ..limits import nfc, unknown
from .identity import recorder
from .models import BookTable, Event, Hand, Journal, Posting, core
from .plans import judge, judge_rows, record_text  # noqa: F401 (hands.judge, …: a hand judged from its rows)
from .records import event_lines, live_events, standing_rows, void_row  # noqa: F401 (hands.live_events, …)
from .tablestate import played_today  # noqa: F401 (hands.played_today: a live hand's Date)
# hands.StoreError, hands.END … stay importable from here
from .terms import (BET, END, HAND, IMPORT, POSTING, REDEAL, TABLE_KINDS, UNDO, UPGRADE, USE, VERDICT,  # noqa: F401
                    VOID, HandChanged, Refused, StoreError)


class NightHand(NamedTuple):
    """A settled hand of a table's night, from its postings (night_postings)."""

    number: int
    dealer: str
    outcome: str
    winners: list
    net: dict             # {player: cents}


# ------------------------------------------------------------------ tables
def create_table(session, name: str, players: list, bet: int, rules: str = "desmoche",
                 options: str = "", sides=()) -> BookTable:
    """`table new` in the session's transaction (course.new_table, stored by the writer): the
    table's row, the table its recorder works at from then on."""
    from .tablestate import make_table

    row = make_table(session.connection(), name, players, bet, rules, options, sides)
    return session.get(BookTable, row.id)


def current_table(conn, who: str) -> int | None:
    """The id of the table `who` works at: the table of its last journal row (a write at a table,
    or `table use`), or None. A recorder's own: no row another writes moves it (the server
    names the writer of every row, schema 0006)."""
    j = core(Journal).c
    row = conn.execute(select(j.kind, j.subject, j.text).where(j.writer == who, j.kind != UPGRADE)
                       .order_by(j.id.desc()).limit(1)).first()
    if row is None:
        return None
    if row.kind in TABLE_KINDS or row.kind == USE:
        return row.subject
    try:
        values = json.loads(row.text)
        if row.kind in (HAND, IMPORT, REDEAL):
            return values[0]
        if row.kind == POSTING:
            return values[1]
        hand_id = row.subject if row.kind == VERDICT else values[0]
    except (ValueError, IndexError, TypeError, KeyError):
        return None  # an edited row: verify says so
    h = core(Hand).c
    return conn.execute(select(h.table_id).where(h.id == hand_id)).scalar()


def find_table(session, name: str | None = None) -> BookTable:
    """The table named, else the table its recorder works at (current_table); a book of one
    table, that table; else which one is asked (the tables said)."""
    if name is None:
        found = current_table(session, recorder(session))
        if found is not None and (table := session.get(BookTable, found)) is not None:
            return table
        names = list(session.exec(select(BookTable.name).order_by(BookTable.name)))
        if not names:
            raise StoreError(M("no table yet in this book: start one with "
                               "`desmoche-ref table new NAME --players \"Ana Beto Carla\" --bet 10`"))
        if len(names) > 1:
            raise StoreError(M("which table? {who} has worked at none of this book's tables yet: say --table NAME "
                               "(tables: {tables})", who=recorder(session), tables=", ".join(names)))
        name = names[0]
    table = session.exec(select(BookTable).where(BookTable.name == nfc(name).strip())).first()
    if table is None:
        raise StoreError(unknown(M("there is no table {name!r} in this book (`desmoche-ref table list`)",
                                   name=name), name, session.exec(select(BookTable.name))))
    return table


# ------------------------------------------------------------------- hands
def find_hand(session, table: BookTable, number: int | None = None) -> Hand:
    """The hand numbered, else the hand the table is at: its earliest open hand, else its latest."""
    if number is None:
        hand = session.exec(select(Hand).where(Hand.table_id == table.id, Hand.closed.is_(None))
                            .order_by(Hand.number).limit(1)).first() \
            or session.exec(select(Hand).where(Hand.table_id == table.id).order_by(Hand.number.desc())
                            .limit(1)).first()
        if hand is None:
            raise StoreError(M("no hand yet at table {table}: start one with "
                               "`desmoche-ref hand new --dealer NAME`", table=table.name))
        return hand
    hand = session.exec(select(Hand).where(Hand.table_id == table.id, Hand.number == number)).first()
    if hand is None:
        raise StoreError(M("there is no hand {number} at table {table}", number=number, table=table.name))
    return hand


def events(session, hand: Hand) -> list:
    """Every event row of a hand, corrections included, in seq order."""
    return list(session.exec(select(Event).where(Event.hand_id == hand.id).order_by(Event.seq)))


def night_postings(session, table_id: int):
    """([NightHand] of the table's settled hands, {pot name: cents} the pots hold), from its
    postings: what each closed hand moved for each player."""
    query = (select(Hand.number, Hand.dealer, Hand.outcome, Hand.winners, Posting.account,
                    func.sum(Posting.amount))
             .join(Hand, Hand.id == Posting.hand_id).where(Posting.table_id == table_id)
             .group_by(Hand.number, Hand.dealer, Hand.outcome, Hand.winners, Posting.account)
             .order_by(Hand.number))
    settled, pots = {}, {}
    for number, dealer, outcome, winners, account, cents in session.exec(query):
        cents = int(cents)  # PostgreSQL sums to a Decimal
        if account.startswith("pot:"):
            pots[account[4:]] = pots.get(account[4:], 0) + cents
            continue
        if outcome is None or account == "outside":
            continue  # reopened: its postings reversed, not settled now
        hand = settled.setdefault(number, NightHand(number, dealer, outcome, (winners or "").split(), {}))
        hand.net[account] = cents
    return list(settled.values()), {pot: cents for pot, cents in pots.items() if cents}
