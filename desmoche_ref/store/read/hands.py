"""A book's tables and hands as the commands read them: the table named (or in use), a hand
of it, its rows, the night its postings settled. Writing is the planners' (store/write/course.py)
and the writer's (store/write/book_writer.py); every function here reads inside the caller's session.

The store never judges a move itself: a hand's record is rebuilt from its rows (its setup's
tags and its live event lines, `record_text`), and the referee judges it exactly as `check`
judges a file (store/write/plans.py).
"""

import json
from typing import Any, NamedTuple

from sqlalchemy import func, select

from ...findings import M
from ...limits import nfc, unknown
from ..trust.identity import recorder
from ..schema.models import BookTable, Event, Hand, Journal, Posting, core

from ..write.plans import judge, judge_rows, record_text  # noqa: F401 (hands.judge, …: a hand judged from its rows)
from ..schema.records import event_lines, live_events, standing_rows, void_row  # noqa: F401 (hands.live_events, …)
from ..write.tablestate import played_today  # noqa: F401 (hands.played_today: a live hand's Date)
# hands.StoreError, hands.END … stay importable from here
from ..schema.terms import (BET, END, HAND, IMPORT, POSTING, REDEAL, TABLE_KINDS, UNDO, UPGRADE,  # noqa: F401
                            USE, VERDICT, VOID, HandChanged, Refused, StoreError)

card_table, hand_table, event_table, posting_table = (core(m) for m in (BookTable, Hand, Event, Posting))


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
    from ..write.tablestate import make_table

    row = make_table(session.connection(), name, players, bet, rules, options, sides)
    return session.get(BookTable, row.id)  # (the tests' sessions read it as a model)


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


def find_table(session, name: str | None = None) -> Any:
    """The table named, else the table its recorder works at (current_table); a book of one
    table, that table; else which one is asked (the tables said)."""
    if name is None:
        found = current_table(session, recorder(session))
        at = session.execute(select(card_table).where(card_table.c.id == found)).first() if found is not None else None
        if at is not None:
            return at
        names = list(session.execute(select(card_table.c.name).order_by(card_table.c.name)).scalars())
        if not names:
            raise StoreError(M("no table yet in this book: start one with "
                               "`desmoche-ref table new NAME --players \"Ana Beto Carla\" --bet 10`"))
        if len(names) > 1:
            raise StoreError(M("which table? {who} has worked at none of this book's tables yet: say --table NAME "
                               "(tables: {tables})", who=recorder(session), tables=", ".join(names)))
        name = names[0]
    table = session.execute(select(card_table).where(card_table.c.name == nfc(name).strip())).first()
    if table is None:
        raise StoreError(unknown(M("there is no table {name!r} in this book (`desmoche-ref table list`)",
                                   name=name), name, session.execute(select(card_table.c.name)).scalars()))
    return table


# ------------------------------------------------------------------- hands
def find_hand(session, table: Any, number: int | None = None) -> Any:
    """The hand numbered, else the hand the table is at: its earliest open hand, else its latest."""
    h = hand_table.c
    if number is None:
        hand = session.execute(select(hand_table).where(h.table_id == table.id, h.closed.is_(None))
                               .order_by(h.number).limit(1)).first() \
            or session.execute(select(hand_table).where(h.table_id == table.id).order_by(h.number.desc())
                               .limit(1)).first()
        if hand is None:
            raise StoreError(M("no hand yet at table {table}: start one with "
                               "`desmoche-ref hand new --dealer NAME`", table=table.name))
        return hand
    hand = session.execute(select(hand_table).where(h.table_id == table.id, h.number == number)).first()
    if hand is None:
        raise StoreError(M("there is no hand {number} at table {table}", number=number, table=table.name))
    return hand


def events(session, hand: Any) -> list:
    """Every event row of a hand, corrections included, in seq order."""
    return session.execute(select(event_table).where(event_table.c.hand_id == hand.id)
                           .order_by(event_table.c.seq)).all()


def night_postings(session, table_id: int):
    """([NightHand] of the table's settled hands, {pot name: cents} the pots hold), from its
    postings: what each closed hand moved for each player."""
    h, p = hand_table.c, posting_table.c
    query = (select(h.number, h.dealer, h.outcome, h.winners, p.account, func.sum(p.amount))
             .select_from(posting_table).join(hand_table, h.id == p.hand_id).where(p.table_id == table_id)
             .group_by(h.number, h.dealer, h.outcome, h.winners, p.account).order_by(h.number))
    settled: dict = {}
    pots: dict = {}
    for number, dealer, outcome, winners, account, cents in session.execute(query):
        cents = int(cents)  # PostgreSQL sums to a Decimal
        if account.startswith("pot:"):
            pots[account[4:]] = pots.get(account[4:], 0) + cents
            continue
        if outcome is None or account == "outside":
            continue  # reopened: its postings reversed, not settled now
        hand = settled.setdefault(number, NightHand(number, dealer, outcome, (winners or "").split(), {}))
        hand.net[account] = cents
    return list(settled.values()), {pot: cents for pot, cents in pots.items() if cents}
