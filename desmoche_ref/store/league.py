"""The league's books over the postings: standings, the ledger, settle-up balances, export, audit.

Every figure is an SQL aggregate over the double entry (postings grouped by account) or over
the hands' verdict columns (grouped by seats, outcome, winners and fouls, so Python only
walks the few distinct groups, never every row); money stays integer cents. The accounts:
a player (its row has a player_id), a pot of a table (`pot:main`, `pot:GAME`), and
`outside`, where carried-in money that entered the book without its earlier hands came from
(importer.py). Every hand's postings sum to zero, so for any set of hands
    sum of the players' nets + unwon − brought_in = 0,
where `unwon` is what the pots hold and `brought_in` what came from outside.
"""

import json
from datetime import date, datetime, time, timedelta, timezone
from typing import NamedTuple

from sqlalchemy import BigInteger, and_, case, cast, func, or_, select

from ..money import fmt
from ..referee import COMPLETE
from .hands import StoreError, event_lines, hand_setup, tagged_text
from .importer import OUTSIDE, BROUGHT_IN
from .models import BookTable, Event, Hand, Posting

POT_PARTY = "(pot)"  # settle-up's name for the money the pots keep (not a player's name, N3.1)


class Selection(NamedTuple):
    """Which hands a report covers: a table, a player, dates (inclusive)."""

    table: str | None = None
    player: str | None = None
    since: date | None = None
    until: date | None = None


class Row(NamedTuple):
    player: str
    hands: int
    wins: int
    auto_wins: int
    no_winner: int
    bonuses_won: int
    bonuses_paid: int
    fouls: int
    side_games_won: int
    net: int

    def as_json(self) -> dict:
        out = self._asdict()
        for key in ("bonuses_won", "bonuses_paid", "net"):
            out[key] = fmt(out[key])
        return out


class Standings(NamedTuple):
    players: list   # Row, best net first
    unwon: int
    brought_in: int

    def as_json(self) -> dict:
        return {"players": [r.as_json() for r in self.players], "unwon": fmt(self.unwon),
                "brought_in": fmt(self.brought_in)}

    def balance(self) -> int:
        """nets + unwon − brought_in: zero whenever every player of the hands is shown."""
        return sum(r.net for r in self.players) + self.unwon - self.brought_in


def _hand_filters(session, sel: Selection) -> list:
    where = []
    if sel.table is not None:
        where.append(Hand.table_id == table_id(session, sel.table))
    if sel.since is not None:
        where.append(Hand.opened >= datetime.combine(sel.since, time(), timezone.utc))
    if sel.until is not None:
        where.append(Hand.opened < datetime.combine(sel.until + timedelta(days=1), time(), timezone.utc))
    return where


def table_id(session, name: str) -> int:
    found = session.execute(select(BookTable.id).where(BookTable.name == name)).scalar()
    if found is None:
        raise StoreError(f"there is no table {name!r} in this book")
    return found


def _total(value):
    """SUM as an integer (PostgreSQL sums BIGINT into NUMERIC: cents stay ints)."""
    return cast(func.coalesce(func.sum(value), 0), BigInteger)


def _sum_if(condition, value):
    return _total(case((condition, value), else_=0))


def account_sums(session, sel: Selection = Selection()) -> list:
    """(account, is a player, net, bonuses won, bonuses paid, side games won) per account.

    A reversal (an undone hand's posting turned back) counts against what it reverses."""
    p = Posting
    original = p.reverses.is_(None)
    credit = or_(and_(p.amount > 0, original), and_(p.amount < 0, ~original))
    query = (select(p.account, p.player_id.is_not(None), _total(p.amount),
                    _sum_if(and_(p.kind == "bonus", credit), p.amount),
                    _sum_if(and_(p.kind == "bonus", ~credit), -p.amount),
                    _sum_if(p.kind == "side-win", case((original, 1), else_=-1)))
             .group_by(p.account, p.player_id.is_not(None)))
    where = _hand_filters(session, sel)
    if sel.since is not None or sel.until is not None:
        query = query.join(Hand, Hand.id == p.hand_id)
    elif sel.table is not None:  # the posting's own table column: no join needed
        where = [p.table_id == table_id(session, sel.table)]
    return session.execute(query.where(*where)).all()


def hand_counts(session, sel: Selection = Selection()) -> dict:
    """name -> [hands, wins, auto wins, no winner, fouls] over the complete hands."""
    h = Hand
    query = (select(h.players, h.outcome, h.winners, h.fouls, func.count())
             .where(h.status == COMPLETE, *_hand_filters(session, sel))
             .group_by(h.players, h.outcome, h.winners, h.fouls))
    counts = {}
    for players, outcome, winners, fouls, n in session.execute(query):
        won = set((winners or "").split())
        fouled = (fouls or "").split()
        for name in players.split():
            c = counts.setdefault(name, [0, 0, 0, 0, 0])
            c[0] += n
            if name in won:
                c[1] += n
                c[2] += n if outcome == "auto-win" else 0
            c[3] += n if outcome == "no-winner" else 0
            c[4] += n * fouled.count(name)
    return counts


def standings(session, sel: Selection = Selection()) -> Standings:
    counts = hand_counts(session, sel)
    money = {}
    unwon = brought_in = 0
    for account, is_player, net, won, paid, sides in account_sums(session, sel):
        if is_player:
            money[account] = (net, won, paid, sides)
        elif account == OUTSIDE:
            brought_in -= net
        else:
            unwon += net
    rows = []
    for name in set(counts) | set(money):
        if sel.player is not None and name != sel.player:
            continue
        hands, wins, autos, none, fouls = counts.get(name, (0, 0, 0, 0, 0))
        net, won, paid, sides = money.get(name, (0, 0, 0, 0))
        rows.append(Row(name, hands, wins, autos, none, won, paid, fouls, sides, net))
    rows.sort(key=lambda r: (-r.net, r.player))
    return Standings(rows, unwon, brought_in)


def balances(session, sel: Selection = Selection()) -> dict:
    """What settle-up clears: each player's net, and the pots' share as one party (POT_PARTY):
    what stays in the pots, less what came into them from before the book."""
    table = standings(session, sel._replace(player=None))
    out = {r.player: r.net for r in table.players if r.net}
    if table.unwon - table.brought_in:
        out[POT_PARTY] = table.unwon - table.brought_in
    return out


# ------------------------------------------------------------------ ledger
class Entry(NamedTuple):
    table: str
    hand: int
    account: str
    kind: str
    detail: str | None
    counterparty: str
    amount: int
    reverses: int | None
    id: int

    def as_json(self) -> dict:
        out = self._asdict()
        out["amount"] = fmt(self.amount)
        return out


def ledger(session, player=None, table=None, hand=None):
    """The postings, in the order they were made, with their table and hand."""
    p = Posting
    query = (select(BookTable.name, Hand.number, p.account, p.kind, p.detail, p.counterparty,
                    p.amount, p.reverses, p.id)
             .join(Hand, Hand.id == p.hand_id).join(BookTable, BookTable.id == p.table_id)
             .order_by(p.id))
    if player is not None:
        query = query.where(p.account == player, p.player_id.is_not(None))
    if table is not None:
        query = query.where(p.table_id == table_id(session, table))
    if hand is not None:
        query = query.where(Hand.number == hand)
    for row in session.execute(query):
        yield Entry(*row)


# ------------------------------------------------------------------ export
def export_hands(session, table=None, hand=None):
    """(table name, number, record text) of each stored hand, by table and number, as a
    record `check` judges exactly as the book did (its tags, then its live lines)."""
    query = select(Hand, BookTable.name).join(BookTable, BookTable.id == Hand.table_id)
    if table is not None:
        query = query.where(Hand.table_id == table_id(session, table))
    if hand is not None:
        query = query.where(Hand.number == hand)
    for row, name in session.execute(query.order_by(BookTable.name, Hand.number)):
        rows = session.execute(select(Event).where(Event.hand_id == row.id).order_by(Event.seq)).scalars().all()
        extra = [tuple(t) for t in json.loads(row.extra_tags)]
        if not any(t[0] == "Table" for t in extra):  # a live hand: say where it was played
            extra.append(("Table", name))
        yield name, row.number, tagged_text(hand_setup(row).tags() + extra, event_lines(rows))


# ------------------------------------------------------------------- audit
def audit(session) -> list:
    """The book's money checked from its postings: a list of problems (strings), empty when
    every hand's postings sum to zero, no pot holds less than nothing, every complete hand's
    main pot moved by what its row says (carry in to carry out), and the standings equal
    the postings' sums (nets + unwon − brought_in = 0)."""
    problems = []
    names = dict(session.execute(select(BookTable.id, BookTable.name)).all())
    numbers = select(Hand.id, Hand.table_id, Hand.number).subquery()
    for table, number, total in session.execute(
            select(numbers.c.table_id, numbers.c.number, _total(Posting.amount))
            .join(numbers, numbers.c.id == Posting.hand_id)
            .group_by(numbers.c.table_id, numbers.c.number).having(func.sum(Posting.amount) != 0)):
        problems.append(f"table {names[table]} hand {number}: its postings sum to {fmt(total)}, not zero")
    for table, account, total in session.execute(
            select(Posting.table_id, Posting.account, _total(Posting.amount))
            .where(Posting.player_id.is_(None), Posting.account.like("pot:%"))
            .group_by(Posting.table_id, Posting.account).having(func.sum(Posting.amount) < 0)):
        problems.append(f"table {names[table]}: {account} holds {fmt(total)}, less than nothing")
    moved = _sum_if(and_(Posting.account == "pot:main", Posting.kind != BROUGHT_IN), Posting.amount)
    for table, number, carry_in, carry_out, total in session.execute(
            select(Hand.table_id, Hand.number, Hand.carry_in, Hand.carry_out, moved)
            .join(Posting, Posting.hand_id == Hand.id, isouter=True)
            .where(Hand.status == COMPLETE, Hand.closed.is_not(None))
            .group_by(Hand.id, Hand.table_id, Hand.number, Hand.carry_in, Hand.carry_out)
            .having(moved != Hand.carry_out - Hand.carry_in)):
        problems.append(f"table {names[table]} hand {number}: its main pot moved {fmt(total)} "
                        f"but the hand carried in {fmt(carry_in)} and out {fmt(carry_out or 0)}")
    table = standings(session)
    sums = dict(session.execute(select(Posting.account, _total(Posting.amount))
                                .where(Posting.player_id.is_not(None)).group_by(Posting.account)).all())
    shown = {r.player: r.net for r in table.players}
    for name in sorted(set(sums) | set(shown)):
        if sums.get(name, 0) != shown.get(name, 0):
            problems.append(f"standings: {name}'s net is {fmt(shown.get(name, 0))} but the "
                            f"postings sum to {fmt(sums.get(name, 0))}")
    if table.balance():
        problems.append(f"standings: the nets + unwon {fmt(table.unwon)} − brought in "
                        f"{fmt(table.brought_in)} come to {fmt(table.balance())}, not zero")
    return problems
