"""A book's tables, hands, moves and postings: the operations every command shares.

The store never judges a move itself: a hand's record is rebuilt from its rows (its setup's
tags and its live event lines, `record_text`), and the referee judges it exactly as `check`
judges a file. Every function here works inside the caller's transaction (`Book.write()`),
so a command is all or nothing.
"""

from collections import Counter
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import func
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import select

from .. import laws
from ..engine.replay import Referee
from ..engine.setup import Setup, SetupError, read_setup
from ..findings import COMMAND_LINE, ERROR, M
from ..limits import checked_table, nfc, unknown
from ..notation.parser import parse_text
from ..notation.writer import write_event
from ..money import fmt
from ..referee import COMPLETE, hand_report
from .codecs import POTS, SIDES, TAGS
from .identity import recorder
from .journal import bet_changed_since, journal_event, journal_postings, journal_table, journal_verdict
from .lawbook import table_now
from .locks import busy, lock_timed_out
from .models import BookTable, Event, Hand, Player, Posting, Setting, now
from .records import (BROUGHT_IN, POSTING_FIELDS, chain_hash, content_hash, enforced_fouls,  # noqa: F401
                      event_lines, hand_setup, live_events, posting_rows, refund_moves,
                      standing_rows, tagged_text, void_row)  # (hands.chain_hash, hands.event_lines, …)
# hands.StoreError, hands.END … stay importable from here
from .terms import (BET, END, LAST_TABLE, UNDO, VOID, HandChanged, Refused,  # noqa: F401
                    StoreError, closed_table, refusal as _refusal)


class NightHand(NamedTuple):
    """A settled hand of a table's night, from its postings (night_postings)."""

    number: int
    dealer: str
    outcome: str
    winners: list
    net: dict             # {player: cents}


# ------------------------------------------------------------------ tables
def player_row(session, name: str) -> Player:
    """The player's row, made if new — once, even when two commands make it at the same
    moment (INSERT … ON CONFLICT DO NOTHING, as the importer does)."""
    row = session.exec(select(Player).where(Player.name == name)).first()
    if row is None:
        if session.get_bind().dialect.name == "postgresql":  # only there: the dialect is loaded for it
            from sqlalchemy.dialects.postgresql import insert
        else:
            from sqlalchemy.dialects.sqlite import insert
        session.execute(insert(Player).values(name=name).on_conflict_do_nothing(index_elements=["name"]))
        row = session.exec(select(Player).where(Player.name == name)).one()
    return row


def table_setup(table: BookTable, dealer: str | None = None, sides=None) -> Setup:
    """The setup of a hand at this table (validates the table's values as tags would)."""
    players = table.players.split()
    return Setup.from_values(players, dealer or players[0], bet=table.bet, rules=table.rules,
                             options=table.options,
                             sides=SIDES.decode(table.sides) if sides is None else sides)


def create_table(session, name: str, players: list, bet: int, rules: str = "desmoche",
                 options: str = "", sides=()) -> BookTable:
    """A new table; its values are judged as a hand's tags would be (N3, R15, R4.1)."""
    name, players, problem = checked_table(name, players)
    if problem:
        raise StoreError(problem)
    existing = session.exec(select(BookTable).where(BookTable.name == name)).first()
    if existing is not None and existing.closed is not None:  # its name stays the book's
        raise StoreError(M("table {name!r} is closed, and its name stays with it: `desmoche-ref table reopen "
                           "{name}` opens it again, or give the new table another name", name=name))
    if existing is not None:
        raise StoreError(M("there is already a table {name!r} in this book", name=name))
    table = BookTable(name=name, players=" ".join(players), bet=bet, rules=rules,
                      options=options, sides=SIDES.encode(sides))
    try:
        setup = table_setup(table)
    except SetupError as e:
        raise StoreError(_refusal(e.finding)) from None
    table.rules, table.options = setup.rules, setup.options.changes_from(setup.rules)
    table.sides = SIDES.encode([(s.game, s.stake, [setup.players[i] for i in s.players]) for s in setup.sides])
    try:
        with session.begin_nested():  # another command may make the same table at this moment
            session.add(table)
            session.flush()
    except IntegrityError:
        raise StoreError(M("there is already a table {name!r} in this book", name=name)) from None
    for player in players:
        player_row(session, player)
    journal_table(session, table)
    use_table(session, table)
    return table


def use_table(session, table: BookTable) -> None:
    row = session.get(Setting, LAST_TABLE)
    if row is None:
        session.add(Setting(key=LAST_TABLE, value=table.name))
    else:
        row.value = table.name


def find_table(session, name: str | None = None) -> BookTable:
    """The table named, else the table last used in this book."""
    if name is None:
        last = session.get(Setting, LAST_TABLE)
        if last is None:
            raise StoreError(M("no table yet in this book: start one with "
                               "`desmoche-ref table new NAME --players \"Ana Beto Carla\" --bet 10`"))
        name = last.value
    table = session.exec(select(BookTable).where(BookTable.name == nfc(name).strip())).first()
    if table is None:
        raise StoreError(unknown(M("there is no table {name!r} in this book (`desmoche-ref table list`)",
                                   name=name), name, session.exec(select(BookTable.name))))
    return table


# ------------------------------------------------------------------- hands
def last_hand(session, table: BookTable):
    return session.exec(select(Hand).where(Hand.table_id == table.id)
                        .order_by(Hand.number.desc()).limit(1)).first()


def new_hand_row(table: BookTable, previous: Hand | None, before, dealer: str | None = None,
                 sides=None) -> Hand:
    """The next hand at a table, as its hands so far left it (`before`, a laws.Table): the
    deal passes to the right of the last hand dealt (R3.1, N9.3) unless named; the main pot
    and side pots the table's pots hold come in by themselves (R2.3, R4.6, N9.1)."""
    players, dealer = table.players.split(), dealer and nfc(dealer)  # names in NFC (N3.1)
    if dealer is None:  # after a table's first hands, all void, their dealer deals again
        dealer = laws.proposed_dealer(before, players, previous.dealer if previous is not None else None)
        if dealer is None:
            raise StoreError(M("the first hand at a table names its dealer: `{new} --dealer NAME`",
                               new=COMMAND_LINE["new"]))
    elif dealer not in players:
        raise StoreError(M("{dealer!r} is not seated at table {table} ({players})", dealer=dealer,
                           table=table.name, players=table.players))
    carry, side_carry = before.pots if before.pots is not None else (0, {})
    hand = Hand(table_id=table.id, number=(previous.number + 1) if previous else 1,
                players=table.players, dealer=dealer, rules=table.rules, options=table.options,
                bet=table.bet, carry_in=carry, sides=table.sides if sides is None else SIDES.encode(sides),
                side_carry=POTS.encode({g: c for g, c in side_carry.items() if c}),
                extra_tags=TAGS.encode([("Date", played_today())]))
    try:
        hand_setup(hand)
    except SetupError as e:
        raise StoreError(_refusal(e.finding)) from None
    return hand


def played_today() -> str:
    """The Date tag of a hand dealt now: this machine's local day (as `hand log` shows times),
    so that its export and the report's nights say the night it was played (docs/rulings.md)."""
    return datetime.now().astimezone().date().isoformat()


def table_laws(session, table: BookTable, below: int | None = None):
    """The table as its stored hands left it (laws.Table), what is pending written first;
    with `below`, as its hands before that number left it (a hand dealt again)."""
    session.flush()
    return table_now(session, table.id, table.closed is not None, below)


def obey(breaches) -> list:
    """The laws' word on a write: StoreError (its code and reason) for the first error; the
    warnings, which do not refuse, returned."""
    for breach in breaches:
        if breach.severity == ERROR:
            raise StoreError(_refusal(breach))
    return [b for b in breaches if b.severity != ERROR]


def set_bet(session, table: BookTable, bet: int) -> BookTable:
    """A new bet for the table's next hands (R2.2: between hands, everyone agreeing — the
    caller asks; R2.3: never while a main pot is carried — laws.bet_change)."""
    if table.closed is not None:
        raise StoreError(closed_table(table.name))
    obey(laws.bet_change(table_laws(session, table), bet))
    if bet == table.bet:
        raise StoreError(M("the bet at table {table} is already {bet}", table=table.name, bet=fmt(bet)))
    table.bet = bet
    session.add(table)
    journal_table(session, table, BET)
    return table


def returned(session, table: BookTable) -> dict:
    """{pot: {player: cents}}: what R11.5 returns of the pots the table's last hand carries,
    as N9.4 orders it (laws.returns, the rule `check --session` applies)."""
    return laws.returns(table_laws(session, table))


def refund_postings(hand: Hand, refund: dict, ids: dict) -> list:
    """The Posting rows (unstored) of R11.5's returns on the table's last hand: kind `refund`."""
    return _postings(hand, refund_moves(refund), ids)


def _postings(hand: Hand, moves, ids: dict) -> list:
    return [Posting(**dict(zip(POSTING_FIELDS, row)))
            for row in posting_rows(hand.id, hand.table_id, moves, ids)]


# ------------------------------------------------------------------ events
def events(session, hand: Hand) -> list:
    """Every event row of a hand, corrections included, in seq order."""
    return list(session.exec(select(Event).where(Event.hand_id == hand.id).order_by(Event.seq)))


def current_seq(session, hand: Hand) -> int:
    return session.exec(select(func.coalesce(func.max(Event.seq), 0))
                        .where(Event.hand_id == hand.id)).one()


def record_text(hand: Hand, lines) -> str:
    """The hand as a .dsm record (N7): its tags, then its live lines (`line # comment`)."""
    return tagged_text(hand_setup(hand).tags() + TAGS.decode(hand.extra_tags), lines)


def judge(hand: Hand, lines):
    """The referee's verdict (HandReport) on the hand with these lines, as `check` gives it."""
    return referee(hand, lines)[0]


def referee(hand: Hand, lines):
    """(HandReport, Referee) for the hand with these lines: the verdict exactly as `check`
    gives it on the hand's record, and the referee that judged it, to ask what comes next."""
    return _judged_record(hand, parse_text(record_text(hand, lines)).hands[0])


def _judged_record(hand: Hand, record):
    setup, errors = read_setup(record)
    if errors:  # a hand row's values were judged when stored: only an edit gets here
        raise StoreError(M("hand {number}: its setup is refused: {refusal}", number=hand.number,
                           refusal=_refusal(errors[0])))
    ref = Referee(setup)
    return hand_report(record, setup, ref.run(record.events)), ref


def judge_rows(hand: Hand, live):
    """(HandReport, Referee) of the hand with its standing event rows, each event numbered by
    its move number (seq), as the recorder sees it (live output cites moves, not lines)."""
    return judged(hand, [r.line if r.comment is None else f"{r.line} #{r.comment}" for r in live],
                  [r.seq for r in live])


def judged(hand: Hand, lines, numbers):
    """(HandReport, Referee) of the hand with these lines, the events numbered `numbers`."""
    record = parse_text(record_text(hand, lines)).hands[0]
    for ev, number in zip(record.events, numbers):
        ev.line = number
    for tag in record.tags:
        tag.line = 0  # before the first move
    return _judged_record(hand, record)


def insert_event(session, hand: Hand, text: str, comment, seq: int, previous_hash: str,
                 supersedes=None) -> Event:
    """Store a move already judged (store/tablebook.py) as the hand's event seq+1. The
    (hand, seq) key makes a second writer at the same seq fail: HandChanged."""
    who = recorder(session)
    row = Event(hand_id=hand.id, seq=seq + 1, line=text, comment=comment, supersedes=supersedes,
                recorder=who, hash=chain_hash(previous_hash, seq + 1, text, comment, supersedes, who))
    try:
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError:
        raise HandChanged(current_seq(session, hand)) from None
    journal_event(session, row)
    return row


def lock_table(session, table_id: int) -> BookTable:
    """The table's row, read afresh and locked for this transaction: every write at a table
    takes it first, so writers of one table (and its hands) queue (PostgreSQL's row lock;
    SQLite writes begin IMMEDIATE, so the whole book is already locked)."""
    query = select(BookTable).where(BookTable.id == table_id).execution_options(populate_existing=True)
    if session.get_bind().dialect.name != "postgresql":
        return session.exec(query).one()
    try:
        return session.exec(query.with_for_update()).one()
    except DBAPIError as exc:
        if not lock_timed_out(exc):
            raise
        raise busy(M("table {table}", table=_table_name(session, table_id))) from None


def _table_name(session, table_id: int) -> str:
    """The table's name, read on a connection of its own: the write's transaction gave up
    waiting for the table's row (a read never waits for a row lock)."""
    try:
        with session.get_bind().connect() as conn:
            return conn.execute(select(BookTable.name).where(BookTable.id == table_id)).scalar()
    except Exception:  # noqa: BLE001 - the book is locked whole (its owner's LOCK TABLE): say its id
        return f"#{table_id}"

# ---------------------------------------------------------------- postings
def post_settlement(session, hand: Hand, report) -> list:
    """The hand's settlement as double-entry postings (two per transfer), summing to zero."""
    rows = settlement_postings(hand, report, player_ids(session, hand))
    session.add_all(rows)
    journal_postings(session, rows)
    return rows


def settlement_postings(hand: Hand, report, ids: dict) -> list:
    """The Posting rows (unstored) of a complete hand's settlement: two per transfer."""
    return _postings(hand, report.settlement.transfers, ids)


def posting_key(row) -> tuple:
    """What a posting moves, without its ids: the settlement it belongs to is judged by these."""
    return (row.account, row.kind, row.detail, row.counterparty, row.amount)


def standing_keys(session, hand: Hand):
    """The hand's standing postings (not reversed), as a multiset of posting_key."""
    rows = list(session.exec(select(Posting).where(Posting.hand_id == hand.id)))
    reversed_ids = {r.reverses for r in rows if r.reverses is not None}
    return Counter(posting_key(r) for r in rows if r.reverses is None and r.id not in reversed_ids
                   and r.kind != BROUGHT_IN)  # money brought in came with the setup, not the moves


def settlement_keys(hand: Hand, report):
    """The postings a complete hand's settlement makes, as a multiset of posting_key."""
    if report.status != COMPLETE:
        return Counter()
    return Counter(posting_key(r) for r in settlement_postings(hand, report, {}))


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


def player_ids(session, hand: Hand) -> dict:
    return {p.name: p.id for p in session.exec(select(Player).where(
        Player.name.in_(hand.players.split())))}


def close_hand(session, hand: Hand, report=None):
    """Close a hand: its verdict is kept on the row and, if complete, its settlement posted."""
    if report is None:
        report = judge(hand, event_lines(events(session, hand)))
    out = report.as_json()
    hand.status = out["status"]
    hand.closed = now()
    known_by_content(hand, report)
    if out["status"] == COMPLETE:
        hand.outcome = out["outcome"]["kind"]
        hand.winners = " ".join(out["outcome"]["winners"])
        hand.fouls = enforced_fouls(report)
        hand.carry_out = report.settlement.carry_out
        hand.side_carry_out = POTS.encode({p.game: p.carry_out for p in report.settlement.side_games})
        post_settlement(session, hand, report)
    session.add(hand)
    journal_verdict(session, hand)
    return report


def known_by_content(hand: Hand, report) -> None:
    """The hand known by its content, as an import of its export would know it (stored once,
    not twice): set when it closes, and again when a line stored after its end changes it."""
    hand.content_hash = content_hash(report.setup, report.record.tags, [
        write_event(ev) if ev.comment is None else f"{write_event(ev)} #{ev.comment}"
        for ev in report.record.events])


def reverse_postings(session, hand: Hand) -> int:
    """Reopening a hand: each standing posting is reversed by a new one (nothing deleted)."""
    rows = list(session.exec(select(Posting).where(Posting.hand_id == hand.id)))
    reversed_ids = {r.reverses for r in rows if r.reverses is not None}
    # money carried in from outside came with the hand's setup, not its moves: it stays
    standing = [r for r in rows if r.reverses is None and r.id not in reversed_ids and r.kind != BROUGHT_IN]
    reversals = [Posting(hand_id=r.hand_id, table_id=r.table_id, account=r.account, player_id=r.player_id,
                         kind=r.kind, detail=r.detail, counterparty=r.counterparty, amount=-r.amount,
                         reverses=r.id) for r in standing]
    session.add_all(reversals)
    journal_postings(session, reversals)
    hand.status, hand.closed, hand.outcome, hand.winners = "open", None, None, None
    hand.content_hash = None
    hand.carry_out = hand.side_carry_out = None
    session.add(hand)
    journal_verdict(session, hand)
    return len(standing)


def settle_again(session, hand: Hand):
    """A closed hand whose moves changed after its `end` (a card shown, or taken back): its
    settlement stands as posted if what it settles is the same (its content hash follows
    its moves), else its postings are reversed and it is settled anew. The HandReport of a
    new settlement, else None."""
    report = judge_rows(hand, live_events(events(session, hand)))[0]
    if standing_keys(session, hand) == settlement_keys(hand, report):
        known_by_content(hand, report)
        session.add(hand)
        return None
    reverse_postings(session, hand)
    return close_hand(session, hand, report)


def undo(session, hand: Hand, seq: int) -> Event:
    """Supersede the hand's last standing row with an undo row. A closed hand reopens (its
    postings reversed; a voided one, its `void` row taken back), unless the move taken back
    came after its `end` (a card shown, N4.4): the `end` still stands, so the hand stays closed
    and is settled again if what it settles changed. The caller holds the table's lock
    (lock_table) and knows the hand is at `seq`."""
    rows = events(session, hand)
    standing = standing_rows(rows)  # a `void` row too: its undo reopens the hand
    if not standing:
        raise StoreError(M("hand {number} has no move to undo", number=hand.number))
    after_end = hand.closed is not None and any(e.line == END for e in standing[:-1])
    if hand.closed is not None and not after_end:
        if bet_changed_since(session, hand.table_id, hand.id):
            raise StoreError(M("R2.2 the bet changed after hand {number} closed: taking back its last move would "
                               "reopen it under a bet changed in the middle of it (the bet changes only between "
                               "hands)", number=hand.number))
        reverse_postings(session, hand)
    row = insert_event(session, hand, UNDO, None, seq, rows[-1].hash, supersedes=standing[-1].id)
    if after_end:
        settle_again(session, hand)
    return row


