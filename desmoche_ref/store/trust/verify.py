"""`verify`: is the book what the program wrote? Its journal is replayed and its rows held to it:

- the journal (store/trust/journal.py, walked by store/trust/pinned.py): its chain of hashes to the book
  head, its forms in order, every table, hand, move and posting covered by exactly one row
  (a second is tampering, named with who wrote it), every row's text recomputed from the
  book's rows it covers, every move's recorder the writer of its row, the times as
  journaled, and nothing the journal holds missing from the book (a deleted hand, move or
  posting);
- the course (store/trust/book_replay.py, store/trust/course_replay.py): every table's writes, in the journal's
  order, planned again by the planners the live writer and the importer use (store/write/course.py)
  and compared with the journal's rows — what the program would not have written there is
  named with its rows and their writer; what the course leaves of each hand (its verdict
  columns, the postings that stand) is what the book's hand must hold (`verdict_unlike`,
  `postings_unlike`: a hand the replay let go is held to it then, the others here);
- every table's state (its seats, stakes and whether it is closed) as last journaled;
- the laws across hands (laws.py, NOTATION N9) over every table's hands as the book holds
  them (numbers 1, 2, … without a gap, carries, the bet, no hand after a close or after an
  open hand): a hand deleted or renumbered behind the journal's back — `_TableLaws`;
- every hand's event chain, and every posting on its hand's table and its player, a reversal
  only as the exact negation of a posting of its own hand, a hand's postings summing to zero.

Each problem is (table or None, hand number or None, seq or None, message); none means the
book is sound. The messages are findings.Messages: English as `--json` prints them, shown
by the shell in the language of the run.

A table's hands are read a batch at a time (league.BATCH), each batch's moves, postings and
journal rows in one query apiece, and the journal walked a batch of rows at a time
(pinned.Journal): a season is not a few queries a hand, and memory stays that of one batch
whatever the book's size. On PostgreSQL the whole is read from one snapshot (REPEATABLE READ).
"""

from collections import Counter
from typing import Any

from sqlalchemy import func, select

from ... import laws
from ...findings import ERROR, M, MN
from ..read.hands import UNDO, VOID, event_lines
from ..schema.models import BookTable, Event, Hand, Player, Posting, core
from .pinned import HandPins, Journal, entered_by, values_of
from ..schema.records import chain_hash, standing_rows, void_row
from .book_replay import by_hand, key as _key, postings_unlike, said as _say, verdict_unlike

hand_table, card_table, event_table, posting_table = (core(m) for m in (Hand, BookTable, Event, Posting))


def verify_book(session, head: str | None = None):
    """(problems, counts, book head): every problem found, how many hands, events, postings
    and journal rows were read, and the book head. With `head`, also that it is a hash of
    the book's journal (the history up to it unchanged)."""
    from .book_replay import BookReplay  # (the replay's modules, the referee's among them: loaded here)

    if session.get_bind().dialect.name == "postgresql" and not session.in_transaction():
        session.connection(execution_options={"isolation_level": "REPEATABLE READ"})  # one snapshot
    problems: list = []
    counts: Counter = Counter()
    replay = BookReplay(session.connection())
    journal = Journal(session, problems, head, replay)
    problems += replay.finish()  # each table's course: what the program would have written where
    counts["journal"] = journal.count
    if head is not None and not journal.found:
        problems.append((None, None, None, M("{head} is not a head of this book's journal: the history up "
                                             "to it was changed, or it is another book's", head=head)))
    conn = session.connection()
    ids = dict(conn.execute(select(core(Player).c.name, core(Player).c.id)).all())
    tables = conn.execute(select(card_table).order_by(card_table.c.name)).all()
    names = {t.id: t.name for t in tables}
    for table in tables:
        problems += [(table.name, None, None, message) for message in journal.table_problems(table)]
        lawful = _TableLaws(table, problems)
        for batch in _batches(conn, table, replay.audited):
            journal.load([hand.id for hand in batch.hands if hand.id not in replay.audited])
            for hand in batch.hands:
                counts["hands"] += 1
                if hand.id in replay.audited:  # held whole by the replay (replaybook.whole)
                    counts["events"], counts["postings"] = (c + n for c, n in zip(
                        (counts["events"], counts["postings"]), replay.audited[hand.id]))
                    lawful.follow(hand, batch.is_last(hand), False)
                    continue
                found = _Hand(table, hand, batch, counts, journal, ids, replay).check()
                problems += [(table.name, hand.number, seq, message) for seq, message in found]
                waiting = hand.closed is None and not standing_rows(batch.moves.get(hand.id, []))
                lawful.follow(hand, batch.is_last(hand), waiting)
    problems += _missing(conn, journal, names)
    problems += journal.unreported()
    return problems, counts, journal.head


class _TableLaws:
    """The laws across hands (laws.py) over one table's hands as the book holds them, as
    `import` and the live writer apply them: a hand deleted or renumbered behind the
    journal's back breaks them. Only the laws' errors are problems: a warning (N9.3, a dealer
    out of turn) the program itself writes; a hand waiting to be dealt again after an open
    one (store/write/course.py) has no setup the laws could judge yet."""

    def __init__(self, table: Any, problems: list):
        self.table, self.problems = table, problems
        self.state, self.opened = laws.Table(), False

    def follow(self, hand: Any, last: bool, untouched: bool) -> None:
        facts = laws.HandFacts.of_row(hand, last and self.table.closed is not None)
        if self.opened and untouched:
            return  # waiting to be dealt again
        for breach in laws.follow_on(self.state, facts, laws.BOOK):
            if breach.severity == ERROR:
                self.problems.append((self.table.name, hand.number, None,
                                      M("{code} {message}", code=breach.code, message=breach.message)))
        self.state = laws.follow(self.state, facts)
        self.opened = self.opened or hand.closed is None


def _missing(conn, journal, names) -> list:
    """What the journal holds and the book does not, and rows of no hand."""
    found = []
    for table_id in sorted(set(journal.tables) - set(names)):
        name = (values_of(journal.tables[table_id]) or [f"#{table_id}"])[0]
        found.append((name, None, None, M("the journal holds this table but the book does not: it was deleted")))
    where, lost = {}, journal.missing()
    for row in lost["hand"]:
        values = values_of(row.text) or [None, None]
        table = names.get(values[0]) or f"#{values[0]}"
        where[row.subject] = (table, values[1])
        found.append((table, values[1], None, M("the journal holds this hand but the book does not: it was "
                                                "deleted")))
    for row, seq, message in ([(row, (values_of(row.text) or [None, None])[1], M(
                                    "the journal holds this move but the book does not: it was deleted"))
                               for row in lost["event"]]
                              + [(row, None, M("the journal holds posting {id} but the book does not: it was "
                                               "deleted", id=row.subject)) for row in lost["posting"]]):
        hand_id = (values_of(row.text) or [None])[0]
        if hand_id in where:
            continue  # said with its hand
        hand = conn.execute(select(hand_table.c.table_id, hand_table.c.number).where(
            hand_table.c.id == hand_id)).first() if isinstance(hand_id, int) else None
        table, number = (names.get(hand.table_id), hand.number) if hand is not None else (None, None)
        found.append((table, number, seq if number is not None else None, message))
    for what, table in ((M("moves"), event_table), (M("postings"), posting_table)):
        count = conn.execute(select(func.count()).select_from(table).where(
            table.c.hand_id.not_in(select(hand_table.c.id)))).scalar()
        if count:
            found.append((None, None, None, M("{count} {what} belong to no hand of the book", count=count,
                                              what=what)))
    return found


def _batches(conn, table, audited: dict):
    """The table's hands in number order, a _Batch at a time (the moves and postings of those not
    held whole by the replay)."""
    from ..read.league import batch_size

    # Hands read at a time with their moves and postings: verify holds one batch's rows, whatever
    # the table's size (100 hands: ~4,500 moves, a few MB); larger batches save no time worth having.
    size = batch_size()
    # one hand more than a batch: whether the batch holds the table's last hand
    query = select(hand_table).where(hand_table.c.table_id == table.id).order_by(hand_table.c.number) \
        .limit(size + 1)
    after = None  # no lower bound at first: an edited number may be 0 or less
    while True:
        hands = conn.execute(query if after is None else query.where(hand_table.c.number > after)).all()
        if not hands:
            return
        batch = _Batch(conn, hands[:size], more=len(hands) > size, audited=audited)
        yield batch
        if not batch.more:
            return
        after = batch.hands[-1].number  # the number is unique at a table (uq_hand_table_number)


class _Batch:
    """Hands of one table read together: their moves, then their postings, each in one query
    for the whole batch (not one a hand), as plain rows (their times as stored: models.plain)."""

    def __init__(self, conn, hands, more: bool, audited: dict):
        self.hands, self.more = hands, more
        ids = [h.id for h in hands if h.id not in audited]
        self.moves = by_hand(conn, event_table, ids, "seq")  # in seq order, as hands.events
        # in id order (the order they were posted): a hand's problems of several postings say them so
        self.postings = by_hand(conn, posting_table, ids, "id")

    def is_last(self, hand) -> bool:
        return not self.more and hand is self.hands[-1]


class _Hand:
    """One hand's audit: its journal rows, its event chain, its postings, and its row held to
    what its table's course left of it (unless the replay held it already)."""

    def __init__(self, table, hand, batch, counts, journal, ids, replay):
        self.table, self.hand, self.batch, self.counts = table, hand, batch, counts
        self.journal, self.ids = journal, ids
        self.course = replay.final(hand.id)  # (its row, its postings) as the course left them, if not held yet

    def check(self) -> list:
        hand = self.hand
        rows = self.batch.moves.get(hand.id, [])
        postings = self.batch.postings.get(hand.id, [])
        self.counts["events"] += len(rows)
        chained = chain_problems(rows)
        pins = HandPins(self.journal, hand)
        found = chained + pins.problems(rows)
        journaled = pins.posting_problems(postings)
        if chained:
            return found + journaled  # the events cannot be trusted: judging them would mislead
        self.counts["postings"] += len(postings)
        voided = void_row(rows)
        if voided is not None and hand.status != VOID:
            found.append((voided.seq, M("it was voided (`hand void`) but it is stored {status}",
                                        status=M(hand.status))))
        if hand.status == VOID and event_lines(rows) and voided is None:
            found.append((None, M("it was closed void (never dealt) but moves of it stand")))
        if self.course is not None:  # what the program's commands left of it
            found += verdict_unlike(hand, self.course[0])
        found += self.posting_problems(postings)
        if self.course is not None:
            found += postings_unlike(postings, self.course[1])
        return found + journaled

    def posting_problems(self, rows) -> list:
        """Every posting on its hand's table and its player, every reversal the exact negation of
        a posting of this hand, and all of them balancing."""
        hand = self.hand
        found = []
        if sum(r.amount for r in rows):
            cents = sum(r.amount for r in rows)
            found.append((None, MN("its postings do not sum to zero ({cents} cent)",
                                   "its postings do not sum to zero ({cents} cents)", abs(cents), cents=cents)))
        by_id = {r.id: r for r in rows}
        seated = hand.players.split()
        targets: Counter = Counter()
        for r in rows:
            if r.table_id != hand.table_id:
                found.append((None, M("posting {id} ({posting}) is of another table's hand", id=r.id,
                                      posting=_say(_key(r)))))
            if r.player_id != (self.ids.get(r.account) if r.account in seated else None):
                found.append((None, M("posting {id} ({posting}) is not on its account's player", id=r.id,
                                      posting=_say(_key(r)))))
            if r.reverses is None:
                continue
            target = by_id.get(r.reverses)
            targets[r.reverses] += 1
            if target is None or target.reverses is not None or _key(target)[:-1] != _key(r)[:-1] \
                    or target.amount != -r.amount or target.player_id != r.player_id:
                found.append((None, M("posting {id} ({posting}) reverses posting {target}, which is not a "
                                      "posting of this hand it negates", id=r.id, posting=_say(_key(r)),
                                      target=r.reverses)))
        for target, times in targets.items():
            if times > 1:
                found.append((None, M("posting {target} is reversed {times} times", target=target, times=times)))
        return found


def chain_problems(rows) -> list:
    """Each row whose seq, target or hash is not what the program wrote."""
    found = []
    previous = ""
    ids = {}
    for n, row in enumerate(rows, 1):
        if row.seq != n:
            found.append((row.seq, M("move {number} is missing: the moves jump to {seq}", number=n, seq=row.seq)))
        if row.supersedes is not None and (row.supersedes not in ids or row.line != UNDO):
            found.append((row.seq, M("it supersedes a row that is not an earlier move of this hand")))
        if chain_hash(previous, row.seq, row.line, row.comment, row.supersedes, row.recorder) != row.hash:
            found.append((row.seq, M("the stored move {line!r} does not match its hash: it was changed "
                                     "after it was recorded", line=row.line)))
        ids[row.id] = row
        previous = row.hash
    by = {row.seq: row.recorder for row in rows}
    return [(seq, entered_by(message, by.get(seq))) for seq, message in found]

