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

from datetime import date, datetime, time, timedelta, timezone
from typing import NamedTuple

from sqlalchemy import BigInteger, and_, case, cast, func, or_, select

from ...findings import M
from ...limits import nfc, unknown
from ...money import fmt
from ..schema.models import BookTable, Event, Hand, Player, Posting, core
from ..schema.records import BROUGHT_IN, OUTSIDE, REFUND, VOID_LINE  # noqa: F401 (carried-in money: importer.py)
from ..schema.terms import COMPLETE, MAIN_POT, VOID  # noqa: F401 (league.MAIN_POT: the ledger's pot names)


# The book's tables: the models' own (one schema, models.py), in Core statements: a report
# groups and sums rows, it needs no ORM object.
posting, hand, card_table, player, event = (core(m) for m in (Posting, Hand, BookTable, Player, Event))

POT_PARTY = "(pot)"  # settle-up's name for the money the pots keep (not a player's name, N3.1)

# How the commands that read the whole book (ledger, export, verify) stream it: BATCH hands at a
# time (the ledger: POSTINGS_A_HAND times as many postings), each batch one query and its rows
# let go before the next, so that memory is one batch's whatever the book's size. The next batch
# starts after the last row's key (keyset pagination): no cursor is kept open between batches,
# which SQLite and psycopg would each hold differently (psycopg fetches a whole result unless the
# cursor is named). $DESMOCHE_BATCH sets another size (the tests read books 3 rows at a time).
# Under SQLite's oldest limit of 999 values bound in one statement (a batch's hand ids).
BATCH = 100
POSTINGS_A_HAND = 10
BATCH_ENV = "DESMOCHE_BATCH"


def batch_size() -> int:
    import os

    given = os.environ.get(BATCH_ENV, "")
    return int(given) if given.isdigit() and int(given) > 0 else BATCH


def snapshot(conn) -> None:
    """Make the reads of `conn` (before its first) one snapshot of the book, as one query is:
    batches read one after another see the same book. SQLite's deferred transaction is one
    already (store/db.py begins it); PostgreSQL's READ COMMITTED is not, REPEATABLE READ is."""
    if conn.dialect.name == "postgresql":
        conn.execution_options(isolation_level="REPEATABLE READ")


class Stream:
    """Rows of the book read in batches from one snapshot while a command writes them out:
    `with Stream(book, read, ...) as rows:` opens a connection for reading, `read(conn, ...)` at
    once (it refuses an unknown table or player before anything is written), and `rows` may be
    iterated again (the ledger's table measures its columns, then writes), each time from the
    same snapshot. `head` is the book head of that snapshot."""

    def __init__(self, book, read, *args):
        self.book, self.read, self.args = book, read, args
        self._conn = self._rows = None

    def __enter__(self):
        from contextlib import ExitStack

        self._stack = ExitStack()
        try:
            self._conn = self._stack.enter_context(self.book.connect())
            snapshot(self._conn)
            self._rows = self.read(self._conn, *self.args)
        except BaseException:
            self._stack.close()
            raise
        return self

    def __iter__(self):
        rows, self._rows = self._rows, None
        return iter(rows if rows is not None else self.read(self._conn, *self.args))

    @property
    def head(self):
        from ..trust.journal import head

        return head(self._conn)

    def __exit__(self, *exc):
        return self._stack.__exit__(*exc)



class Selection(NamedTuple):
    """Which hands a report covers: a table, a player, dates (inclusive), and from which hand
    number on (`first`: a table's night on the board, store/read/tonight.py)."""

    table: str | None = None
    player: str | None = None
    since: date | None = None
    until: date | None = None
    first: int | None = None


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


def hand_filters(session, sel: Selection) -> list:
    where = []
    if sel.table is not None:
        where.append(hand.c.table_id == table_id(session, sel.table))
    if sel.since is not None:
        where.append(_from_day(sel.since, hand.c.opened.__ge__))
    if sel.until is not None and sel.until < date.max:  # until the last day there is: no bound
        where.append(_from_day(sel.until + timedelta(days=1), hand.c.opened.__lt__))
    if sel.first is not None:
        where.append(hand.c.number >= sel.first)
    return where


def _from_day(day, compare):
    """`compare(the start of `day`)` as each hand's day is read (`played_day`): an imported hand's
    time is its Date at midnight UTC, a live hand's the time it was dealt, in local days."""
    imported = datetime.combine(day, time(), timezone.utc)
    try:
        local = datetime.combine(day, time()).astimezone().astimezone(timezone.utc)
    except (OverflowError, ValueError):  # the first or last day there is: no local day beyond it
        local = imported
    return or_(and_(hand.c.source == "import", compare(imported)),
               and_(hand.c.source != "import", compare(local)))


def table_id(session, name: str) -> int:
    found = session.execute(select(card_table.c.id).where(card_table.c.name == nfc(name).strip())).scalar()
    if found is None:
        from .hands import StoreError

        names = session.execute(select(card_table.c.name)).scalars()
        raise StoreError(unknown(M("there is no table {name!r} in this book", name=name), name, names))
    return found


def player_name(session, name: str) -> str:
    """The player `name` names (NFC, N3.1), as the book has it; StoreError if the book has
    no such player (with the close match, `ana` for `Ana`)."""
    name = nfc(name)
    if session.execute(select(player.c.id).where(player.c.name == name)).first() is None:
        from .hands import StoreError

        names = session.execute(select(player.c.name)).scalars()
        raise StoreError(unknown(M("there is no player {name!r} in this book", name=name), name, names))
    return name


def total_cents(value):
    """SUM as an integer (PostgreSQL sums BIGINT into NUMERIC: cents stay ints)."""
    return cast(func.coalesce(func.sum(value), 0), BigInteger)


def _sum_if(condition, value):
    return total_cents(case((condition, value), else_=0))


def account_sums(session, sel: Selection = Selection()) -> dict:
    """(account, is a player) -> [net, bonuses won, bonuses paid, side games won].

    One pass over ix_posting_standings (kind, account, player_id, reverses, amount) sums
    each account's postings by kind; the bonuses, a few rows, are split into won and paid
    by a second. A reversal (an undone hand's posting turned back) counts against what it
    reverses: a reversed side-game win is one win fewer."""
    p = posting.c
    where = hand_filters(session, sel)
    join = bool(sel.since or sel.until or sel.first is not None)
    if not join and sel.table is not None:  # the posting's own table column: no join needed
        where = [p.table_id == table_id(session, sel.table)]

    def query(*columns):
        q = select(*columns)
        return (q.join(hand, hand.c.id == p.hand_id) if join else q.select_from(posting)).where(*where)

    sums = {}
    for kind, account, player_id, total, count, reversals in session.execute(
            query(p.kind, p.account, p.player_id, total_cents(p.amount), func.count(), func.count(p.reverses))
            .group_by(p.kind, p.account, p.player_id)):
        row = sums.setdefault((account, player_id is not None), [0, 0, 0, 0])
        row[0] += total
        if kind == "side-win" and player_id is not None:
            row[3] += count - 2 * reversals
    original = p.reverses.is_(None)
    credit = or_(and_(p.amount > 0, original), and_(p.amount < 0, ~original))
    for account, player_id, won, total in session.execute(
            query(p.account, p.player_id, _sum_if(credit, p.amount), total_cents(p.amount))
            .where(p.kind == "bonus").group_by(p.account, p.player_id)):
        row = sums[(account, player_id is not None)]
        row[1] += won
        row[2] += won - total
    return sums


def hand_counts(session, sel: Selection = Selection()) -> dict:
    """name -> [hands, wins, auto wins, no winner, fouls] over the complete hands, from
    ix_hand_standings (status, players, outcome, winners, fouls): Python walks the groups."""
    h = hand.c
    query = (select(h.players, h.outcome, h.winners, h.fouls, func.count()).select_from(hand)
             .where(h.status == COMPLETE, *hand_filters(session, sel))
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
    for (account, is_player), (net, won, paid, sides) in account_sums(session, sel).items():
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
    return balances_of(standings(session, sel._replace(player=None)))


def balances_of(table_: Standings) -> dict:
    """`balances` of standings already read (of every player of the hands picked)."""
    out = {r.player: r.net for r in table_.players if r.net}
    if table_.unwon - table_.brought_in:
        out[POT_PARTY] = table_.unwon - table_.brought_in
    return out


class Played(NamedTuple):
    """A stored hand as the reports list it: its table, number, the day it was played (its
    Date tag, else when it was stored: the day --since and --until read) and its status."""

    table: str
    number: int
    day: date
    status: str


def played(session, sel: Selection = Selection()) -> list:
    """The hands of the selection (its table and dates; not its player), by table and number."""
    h = hand.c
    query = (select(card_table.c.name, h.number, h.opened, h.status, h.source).select_from(hand)
             .join(card_table, card_table.c.id == h.table_id).where(*hand_filters(session, sel))
             .order_by(card_table.c.name, h.number))
    return [Played(name, number, played_day(opened, source), status)
            for name, number, opened, status, source in session.execute(query)]


def voided(session, sel: Selection = Selection()) -> dict:
    """{(table name, hand number): the reason} of the selection's hands voided by `hand void`
    (their `void` row standing; export writes them with a Void tag, the report names them)."""
    from sqlalchemy import exists

    h, e = hand.c, event.c
    undone = event.alias("undone")
    query = (select(card_table.c.name, h.number, e.comment).select_from(event)
             .join(hand, h.id == e.hand_id).join(card_table, card_table.c.id == h.table_id)
             .where(e.line == VOID_LINE, h.status == VOID, *hand_filters(session, sel),
                    ~exists().where(undone.c.supersedes == e.id)))
    return {(name, number): reason for name, number, reason in session.execute(query)}


def recorders(session, table=None) -> dict:
    """{(table name, hand number): (who entered each standing move, in order)} — the moves a
    hand's record holds (export_hands), each with its row's recorder (None before schema 0003)."""
    from ..schema.records import live_events

    h, e = hand.c, event.c
    query = (select(card_table.c.name, h.number, e.id, e.supersedes, e.recorder, e.line).select_from(event)
             .join(hand, h.id == e.hand_id).join(card_table, card_table.c.id == h.table_id)
             .order_by(card_table.c.name, h.number, e.seq))
    if table is not None:
        query = query.where(h.table_id == table_id(session, table))
    rows = {}
    for name, number, *row in session.execute(query):
        rows.setdefault((name, number), []).append(_EventRow(*row))
    return {key: tuple(r.recorder for r in live_events(moves)) for key, moves in rows.items()}


class _EventRow(NamedTuple):
    id: int
    supersedes: int | None
    recorder: str | None
    line: str             # a move, or a `void` row (records.live_events leaves it out)


def played_day(opened, source: str = "import") -> date:
    """The day a hand was played: an imported hand's time is its Date at midnight UTC (or the
    time it was stored), a live hand's the time it was dealt, whose day is local (the Date tag
    it is exported with). SQLite hands back naive UTC, PostgreSQL an aware time."""
    opened = opened.replace(tzinfo=opened.tzinfo or timezone.utc)
    return (opened.astimezone(timezone.utc) if source == "import" else opened.astimezone()).date()


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


def ledger_of(session, player=None, table=None, hand_number=None):
    """`ledger` of a player named as the person typed it (player_name: StoreError if unknown)."""
    return ledger(session, player_name(session, player) if player is not None else None, table, hand_number)


def ledger(session, player=None, table=None, hand_number=None, batch: int | None = None):
    """The postings, in the order they were made, with their table and hand: read `batch`
    postings at a time (keyset on the posting's id), so that memory holds one batch. An
    unknown table is a StoreError at once, not at the first posting."""
    p, h = posting.c, hand.c
    query = (select(card_table.c.name, h.number, p.account, p.kind, p.detail, p.counterparty,
                    p.amount, p.reverses, p.id)
             .select_from(posting).join(hand, h.id == p.hand_id)
             .join(card_table, card_table.c.id == p.table_id).order_by(p.id))
    if player is not None:
        query = query.where(p.account == player, p.player_id.is_not(None))
    if table is not None:
        query = query.where(p.table_id == table_id(session, table))
    if hand_number is not None:
        query = query.where(h.number == hand_number)
    return _entries(session, query, batch or batch_size() * POSTINGS_A_HAND)


def _entries(session, query, batch: int):
    last = None
    while True:
        rows = session.execute(query.limit(batch) if last is None else
                               query.where(posting.c.id > last).limit(batch)).all()
        for row in rows:
            yield Entry(*row)
        if len(rows) < batch:
            return
        last = rows[-1].id


# ------------------------------------------------------------------ export
def export_hands(session, table=None, hand_number=None, batch: int | None = None):
    """(table name, number, record text) of each stored hand, by table and number, as a
    record `check` judges exactly as the book did (its notes, its tags, then its live lines).
    No ORM (the reports start and run faster, bench/bench_report.py), and a table's hands
    are read `batch` at a time with their events in one query a batch: memory holds one
    batch whatever the book's size. An unknown table is a StoreError at once.

    A hand voided at the table (`hand void`) is written with its Void tag and its moves (N9.6):
    it keeps its number in every export and every book imported from one. A hand with no move
    standing is not written: a void one closed before any move (never dealt), one just begun,
    one whose every move was taken back alike hold no card and no posting, and a record of
    tags alone would be read as part of the next hand's (N3: tags belong to the hand that
    follows them); such a hand is only ever a table's last. A closed table's last hand written
    carries `[Closed "yes"]` (N3): importing it closes the table and returns its carried pots
    as `table close` did (docs/rulings.md)."""
    tables = select(card_table.c.id, card_table.c.name, card_table.c.closed).order_by(card_table.c.name)
    if table is not None:
        tables = tables.where(card_table.c.id == table_id(session, table))
    where = [] if hand_number is None else [hand.c.number == hand_number]
    return _exported(session, session.execute(tables).all(), where, batch or batch_size())


def _exported(session, tables, where, batch: int):
    """Each table's hands written (records.export_text), the last one held back until the
    table's end is reached: a closed table's last hand written is the one that carries
    `[Closed "yes"]`."""
    from ..schema.records import export_text

    for table_row in tables:
        held = None
        for row, moves in _written(session, table_row, where, batch):
            if held is not None:
                yield table_row.name, held[0].number, export_text(held[0], table_row.name, False, held[1])
            held = (row, moves)
        if held is not None:
            closes = table_row.closed is not None and _is_last(session, table_row, held[0].number)
            yield table_row.name, held[0].number, export_text(held[0], table_row.name, closes, held[1])


def _is_last(session, table_row, number: int) -> bool:
    """Whether no hand after `number` is written: the hands after it at the table (a void one
    never dealt, one begun) hold no move."""
    from ..schema.records import live_events

    h, e = hand.c, event.c
    later = select(h.id).where(h.table_id == table_row.id, h.number > number)
    for hand_id in session.execute(later).scalars():
        rows = session.execute(select(e.id, e.supersedes, e.recorder, e.line)
                               .where(e.hand_id == hand_id)).all()
        if live_events([_EventRow(*r) for r in rows]):
            return False
    return True


def _written(session, table_row, where, batch: int):
    """(hand row, its event rows) of each hand of the table that is written, in number order."""
    from ..schema.records import event_lines

    h, e = hand.c, event.c
    query = select(hand).where(h.table_id == table_row.id, *where).order_by(h.number).limit(batch)
    after = None  # no lower bound at first: an edited number may be 0 or less
    while True:
        rows = session.execute(query if after is None else query.where(h.number > after)).all()
        if not rows:
            break
        events = {}
        for row in session.execute(select(event).where(e.hand_id.in_([r.id for r in rows]))
                                   .order_by(e.hand_id, e.seq)):
            events.setdefault(row.hand_id, []).append(row)
        for row in rows:
            moves = events.pop(row.id, [])
            if event_lines(moves):  # begun, not played (or every move taken back), or never dealt: not written
                yield row, moves
        if len(rows) < batch:
            break
        after = rows[-1].number  # the number is unique at a table (uq_hand_table_number)


# ------------------------------------------------------------------- audit
def audit(session) -> list:
    """The book's money checked from its postings: a list of problems (messages), empty when
    every hand's postings sum to zero, no pot holds less than nothing, every complete hand's
    main pot moved by what its row says (carry in to carry out), and the standings equal
    the postings' sums (nets + unwon − brought_in = 0). `session`: a Session or Connection."""
    p, h = posting.c, hand.c
    problems = []
    names = dict(session.execute(select(card_table.c.id, card_table.c.name)).all())
    for table_, number, total in session.execute(
            select(h.table_id, h.number, total_cents(p.amount)).select_from(posting)
            .join(hand, h.id == p.hand_id).group_by(h.table_id, h.number)
            .having(func.sum(p.amount) != 0)):
        problems.append(M("table {table} hand {number}: its postings sum to {total}, not zero",
                          table=names[table_], number=number, total=fmt(total)))
    for table_, account, total in session.execute(
            select(p.table_id, p.account, total_cents(p.amount)).select_from(posting)
            .where(p.player_id.is_(None), p.account.like("pot:%"))
            .group_by(p.table_id, p.account).having(func.sum(p.amount) < 0)):
        problems.append(M("table {table}: {account} holds {total}, less than nothing",
                          table=names[table_], account=account, total=fmt(total)))
    # what the hand itself moved through its main pot: neither money brought in from before the
    # book nor the R11.5 return of a closed table's pot (posted on its last hand) is the hand's
    moved = _sum_if(and_(p.account == "pot:main", p.kind.notin_((BROUGHT_IN, REFUND))), p.amount)
    for table_, number, carry_in, carry_out, total in session.execute(
            select(h.table_id, h.number, h.carry_in, h.carry_out, moved).select_from(hand)
            .join(posting, p.hand_id == h.id, isouter=True)
            .where(h.status == COMPLETE, h.closed.is_not(None))
            .group_by(h.id, h.table_id, h.number, h.carry_in, h.carry_out)
            .having(moved != h.carry_out - h.carry_in)):
        problems.append(M("table {table} hand {number}: its main pot moved {total} but the hand "
                          "carried in {carry_in} and out {carry_out}", table=names[table_], number=number,
                          total=fmt(total), carry_in=fmt(carry_in), carry_out=fmt(carry_out or 0)))
    shown = standings(session)
    sums = dict(session.execute(select(p.account, total_cents(p.amount)).select_from(posting)
                                .where(p.player_id.is_not(None)).group_by(p.account)).all())
    nets = {r.player: r.net for r in shown.players}
    for name in sorted(set(sums) | set(nets)):
        if sums.get(name, 0) != nets.get(name, 0):
            problems.append(M("standings: {player}'s net is {net} but the postings sum to {total}",
                              player=name, net=fmt(nets.get(name, 0)), total=fmt(sums.get(name, 0))))
    if shown.balance():
        problems.append(M("standings: the nets + unwon {unwon} − brought in {brought_in} come to "
                          "{balance}, not zero", unwon=fmt(shown.unwon), brought_in=fmt(shown.brought_in),
                          balance=fmt(shown.balance())))
    return problems
