"""`verify`: is the book what the program wrote? Every stored value that money or standings
depend on is recomputed and compared:

- the journal (store/journal.py, read by store/pinned.py): its chain of hashes to the book
  head, every row's text recomputed from the rows it covers, every table, hand, move and
  posting covered by exactly one row (a second is tampering, named with who wrote it), every
  move's recorder the writer of its row, the times as journaled, and nothing the journal
  holds missing from the book (a deleted hand, move or posting);
- every table's state (its seats, stakes and whether it is closed) as last journaled;
- the laws across hands (laws.py, NOTATION N9) over every table's hands, as `import` and the
  live writer apply them (numbers 1, 2, … without a gap, carries, the bet, no hand after a
  close or after an open hand), and over its changes as journaled between them (a change of
  its bet while a main pot is carried is R2.3 wherever it came from) — `_TableLaws`;
- every hand's event chain, and its moves re-judged: its verdict columns (status, outcome,
  winners, fouls, carry out, side carries out, content hash) recomputed (models.py says
  which columns are derived);
- every posting recomputed: the settlement of a complete hand, what a hand carries in
  beyond what the book's pots hold (`brought-in` from `outside`), the R11.5 refunds on a
  closed table's last hand — on the posting's own hand and table, a player's posting on its
  player; a reversal only as the exact negation of a posting of its own hand.

Each problem is (table or None, hand number or None, seq or None, message); none means the
book is sound. The messages are findings.Messages: English as `--json` prints them, shown
by the shell in the language of the run.

A table's hands are read a batch at a time (league.BATCH), each batch's moves, postings and
journal rows in one query apiece, and the journal walked a batch of rows at a time
(pinned.Journal): a season is not a few queries a hand, and memory stays that of one batch
whatever the book's size. On PostgreSQL the whole is read from one snapshot (REPEATABLE READ).
"""

import json
from collections import Counter, defaultdict, deque

from sqlalchemy import func
from sqlmodel import select

from .. import laws
from ..findings import ERROR, M, MN, joined
from ..money import fmt
from ..referee import COMPLETE, INVALID
from .pinned import HandPins, Journal, values_of, entered_by
from .hands import UNDO, VOID, chain_hash, content_hash, enforced_fouls, event_lines, events, judge
from .records import standing_rows, void_hash, void_row
from .models import BookTable, Event, Hand, Player, Posting, core
from .records import brought_in_moves, pot_map, posting_rows, refund_moves
from ..notation.writer import write_event


def verify_book(session, head: str | None = None):
    """(problems, counts, book head): every problem found, how many hands, events, postings
    and journal rows were read, and the book head. With `head`, also that it is a hash of
    the book's journal (the history up to it unchanged)."""
    if session.get_bind().dialect.name == "postgresql" and not session.in_transaction():
        session.connection(execution_options={"isolation_level": "REPEATABLE READ"})  # one snapshot
    problems = []
    counts = Counter()
    journal = Journal(session, problems, head)
    counts["journal"] = journal.count
    if head is not None and not journal.found:
        problems.append((None, None, None, M("{head} is not a head of this book's journal: the history up "
                                             "to it was changed, or it is another book's", head=head)))
    ids = {p.name: p.id for p in session.exec(select(Player))}
    tables = list(session.exec(select(BookTable).order_by(BookTable.name)))
    names = {t.id: t.name for t in tables}
    for table in tables:
        problems += [(table.name, None, None, message) for message in journal.table_problems(table)]
        lawful = _TableLaws(table, journal, problems)
        reopened = None  # an open hand that later hands follow (course.py: they wait, untouched)
        for batch in _batches(session, table):
            journal.load([hand.id for hand in batch.hands])
            for hand in batch.hands:
                counts["hands"] += 1
                last = batch.is_last(hand)
                waiting = reopened is not None and hand.closed is None and not standing_rows(batch.rows(hand))
                held, refund = lawful.before(hand, last, waiting)
                found = _Hand(session, table, hand, batch, counts, journal, ids).check(last=last, held=held,
                                                                                      refund=refund)
                if hand.closed is None and reopened is None:
                    reopened = hand.number
                problems += [(table.name, hand.number, seq, message) for seq, message in found]
                lawful.after()
        lawful.changes_until()
    problems += _missing(session, journal, names)
    problems += journal.unreported()
    return problems, counts, journal.head


class _TableLaws:
    """The laws across hands (laws.py) over one table, as `import` and the live writer apply
    them: its hands in order, and its changes as journaled between them (a change of its bet
    while a main pot is carried is R2.3 wherever it came from). Only the laws' errors are
    problems: a warning (N9.3, a dealer out of turn) the program itself writes."""

    def __init__(self, table, journal, problems):
        self.table, self.problems = table, problems
        self.state, self.facts = laws.Table(), None
        self.changes = deque(journal.changes.get(table.id, ()))  # its journal rows, in order
        self.journal, self.bet = journal, None

    def before(self, hand, last: bool, waiting: bool = False):
        """(what the book's pots hold before the hand, what R11.5 returns after it when it is
        the last of a closed table): the table's changes journaled before it judged first.
        A hand `waiting` to be dealt again after an open hand (course.py) has no setup the
        laws could judge yet: it is passed over."""
        row = self.journal.hands.get(hand.id)
        if row is not None:  # a hand the journal does not hold is a problem said with the hand
            self.changes_until(row.id)
        closes = last and self.table.closed is not None
        self.facts = laws.HandFacts.of_row(hand, closes)
        if waiting:
            self.facts = None
            pots = self.state.pots
            return (pot_map(*pots) if pots is not None else {}), {}
        pots = self.state.pots
        held = pot_map(*pots) if pots is not None else {}
        return held, laws.returns(laws.follow(self.state, self.facts)) if closes else {}

    def after(self) -> None:
        """The hand held to the laws, and the table followed on past it."""
        hand = self.facts
        if hand is None:  # waiting to be dealt again: nothing to judge yet
            return
        for breach in laws.follow_on(self.state, hand, laws.BOOK):
            if breach.severity == ERROR:
                self.problems.append((self.table.name, hand.number, None,
                                      M("{code} {message}", code=breach.code, message=breach.message)))
        self.state = laws.follow(self.state, hand)

    def changes_until(self, row_id: float = float("inf")) -> None:
        """The table's changes journaled before journal row `row_id` (by default all that are
        left), each change of its bet held to laws.bet_change as its hands so far left it."""
        while self.changes and self.changes[0].id < row_id:
            row = self.changes.popleft()
            at, values = row.id, values_of(row.text)
            bet = values[2] if values is not None and len(values) > 2 else None
            if not isinstance(bet, int) or bet == self.bet:
                continue
            if self.bet is not None:
                for breach in laws.bet_change(self.state, bet):
                    self.problems.append((self.table.name, self.state.number or None, None, M(
                        "{code} {message} (journal row {id} set the bet to {bet})", code=breach.code,
                        message=breach.message, id=at, bet=fmt(bet))))
            self.bet = bet


def _missing(session, journal, names) -> list:
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
    for row in lost["event"]:
        hand_id, seq = (values_of(row.text) or [None, None])[:2]
        if hand_id in where:
            continue  # said with its hand
        hand = session.get(Hand, hand_id) if isinstance(hand_id, int) else None
        table, number = (names.get(hand.table_id), hand.number) if hand is not None else (None, None)
        found.append((table, number, seq, M("the journal holds this move but the book does not: it was deleted")))
    for row in lost["posting"]:
        hand_id = (values_of(row.text) or [None])[0]
        if hand_id in where:
            continue  # said with its hand
        hand = session.get(Hand, hand_id) if isinstance(hand_id, int) else None
        table, number = (names.get(hand.table_id), hand.number) if hand is not None else (None, None)
        found.append((table, number, None, M("the journal holds posting {id} but the book does not: it was "
                                             "deleted", id=row.subject)))
    for what, model in ((M("moves"), Event), (M("postings"), Posting)):
        count = session.exec(select(func.count()).select_from(model).where(
            model.hand_id.not_in(select(Hand.id)))).one()
        if count:
            found.append((None, None, None, M("{count} {what} belong to no hand of the book", count=count,
                                              what=what)))
    return found


def _batches(session, table):
    """The table's hands in number order, a _Batch at a time."""
    from .league import batch_size

    # Hands read at a time with their moves and postings: verify holds one batch's rows, whatever
    # the table's size (100 hands: ~4,500 moves, a few MB); larger batches save no time worth having.
    size = batch_size()
    # one hand more than a batch: whether the batch holds the table's last hand
    query = select(Hand).where(Hand.table_id == table.id).order_by(Hand.number).limit(size + 1)
    after = None  # no lower bound at first: an edited number may be 0 or less
    while True:
        hands = list(session.exec(query if after is None else query.where(Hand.number > after)))
        if not hands:
            return
        batch = _Batch(session, table, hands[:size], more=len(hands) > size)
        yield batch
        if not batch.more:
            return
        after = batch.hands[-1].number  # the number is unique at a table (uq_hand_table_number)


class _Batch:
    """Hands of one table read together: their moves, then their postings, each in one query
    for the whole batch (not one a hand). The moves and postings are plain rows, not ORM
    objects: verify only reads them, and the ORM's bookkeeping of each was a tenth of its time."""

    def __init__(self, session, table, hands, more: bool):
        self.session, self.table, self.hands, self.more = session, table, hands, more
        ids = [h.id for h in hands]
        self.moves = _by_hand(session, Event, ids, Event.seq)  # in seq order, as hands.events
        # in id order (the order they were posted): a hand's problems of several postings say them so
        self.postings = _by_hand(session, Posting, ids, Posting.id)
        self.ids = set(ids)

    def is_last(self, hand) -> bool:
        return not self.more and hand is self.hands[-1]

    def rows(self, hand) -> list:
        """The hand's event rows, in seq order (a hand before the batch: read now)."""
        return self.moves.get(hand.id, []) if hand.id in self.ids else events(self.session, hand)


def _by_hand(session, model, hand_ids, order) -> dict:
    """{hand id: [rows of the model's table]} of these hands, each hand's in `order`."""
    query = select(core(model)).where(model.hand_id.in_(hand_ids)).order_by(model.hand_id, order)
    grouped = defaultdict(list)
    for row in session.execute(query):
        grouped[row.hand_id].append(row)
    return grouped


class _Hand:
    """One hand's audit: its journal rows, its event chain, its verdict columns, its postings."""

    def __init__(self, session, table, hand, batch, counts, journal, ids):
        self.session, self.table, self.hand, self.batch, self.counts = session, table, hand, batch, counts
        self.journal, self.ids = journal, ids

    def check(self, last: bool, held: dict, refund: dict) -> list:
        hand = self.hand
        rows = self.batch.rows(hand)
        self.counts["events"] += len(rows)
        chained = chain_problems(rows)
        pins = HandPins(self.journal, hand)
        found = chained + pins.problems(rows)
        journaled = pins.posting_problems(self.batch.postings.get(hand.id, []))
        if chained:
            return found + journaled  # the events cannot be trusted: judging them would mislead
        lines = event_lines(rows)
        voided = void_row(rows)
        report = None
        if voided is not None and hand.status != VOID:
            found.append((voided.seq, M("it was voided (`hand void`) but it is stored {status}",
                                        status=M(hand.status))))
        if hand.status == VOID:
            if lines and voided is None:
                found.append((None, M("it was closed void (never dealt) but moves of it stand")))
            # voided at the table: known by its export's content (N9.6); a book voided before
            # that kept none (docs/rulings.md)
            digest = void_hash(hand, lines, voided.comment) if voided is not None and lines else None
            expected = ("void", None, None, hand.carry_in, hand.side_carry, digest, True)
            found += self.derived(expected if hand.content_hash is not None else expected[:5] + (None, True),
                                  None)
        else:
            report = judge(hand, lines)
            found += self.verdict(report)
        return found + self.postings(report, last, held, refund) + journaled

    def verdict(self, report) -> list:
        """The verdict columns as the moves give them."""
        hand = self.hand
        found = []
        if hand.closed is None:
            if report.status == INVALID:
                e = report.errors[0]
                found.append((None, M("its moves no longer stand: {code} {message}", code=e.code,
                                      message=e.message)))
            return found + self.derived(("open", None, None, None, None, None, False), report)
        if report.status != hand.status:
            return [(None, M("it was closed {stored} but its moves make it {judged}", stored=M(hand.status),
                             judged=M(report.status)))]
        digest = content_hash(report.setup, report.record.tags, [
            write_event(ev) if ev.comment is None else f"{write_event(ev)} #{ev.comment}"
            for ev in report.record.events])
        if report.status != COMPLETE:
            return self.derived((report.status, None, None, None, None, digest, True), report)
        out = report.as_json()
        st = report.settlement
        return self.derived((COMPLETE, out["outcome"]["kind"], " ".join(out["outcome"]["winners"]),
                             st.carry_out, json.dumps({p.game: p.carry_out for p in st.side_games}),
                             digest, True), report)

    def derived(self, expected, report) -> list:
        """The derived columns against what they must be (models.py lists them)."""
        hand = self.hand
        stored = (hand.status, hand.outcome, hand.winners, hand.carry_out, hand.side_carry_out,
                  hand.content_hash, hand.closed is not None)
        names = ("status", "outcome", "winners", "carry_out", "side_carry_out", "content_hash", "closed")
        found = [(None, M("its {column} was stored as {stored} but its moves give {judged}", column=name,
                          stored=repr(s), judged=repr(e)))
                 for name, s, e in zip(names, stored, expected) if s != e]
        if report is not None and expected[0] == COMPLETE and hand.fouls != enforced_fouls(report):
            found.append((None, M("its fouls were stored as {stored!r} but its moves give {judged!r}",
                                  stored=hand.fouls, judged=enforced_fouls(report))))
        return found

    def postings(self, report, last: bool, held: dict, refund: dict) -> list:
        """The hand's standing postings must be exactly what the program posts for it: its
        settlement's, what it carries in beyond the book's pots, and on the last hand of a
        closed table the R11.5 refund; every posting on its hand's table and its player, every
        reversal the exact negation of a posting of this hand, and all of them balancing."""
        hand, table = self.hand, self.table
        rows = self.batch.postings.get(hand.id, [])
        self.counts["postings"] += len(rows)
        found = []
        if sum(r.amount for r in rows):
            cents = sum(r.amount for r in rows)
            found.append((None, MN("its postings do not sum to zero ({cents} cent)",
                                   "its postings do not sum to zero ({cents} cents)", abs(cents), cents=cents)))
        by_id = {r.id: r for r in rows}
        seated = hand.players.split()
        targets = Counter()
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
        standing = Counter(_key(r) for r in rows if r.reverses is None and r.id not in targets)
        expected = Counter()
        carried = pot_map(hand.carry_in, json.loads(hand.side_carry))  # a void hand's too (an import's first)
        expected.update(_keys(hand, brought_in_moves(carried, held)))
        if hand.closed is not None and report is not None and report.status == COMPLETE:
            expected.update(_keys(hand, report.settlement.transfers))  # hands.settlement_postings'
        if last and table.closed is not None:
            expected.update(_keys(hand, refund_moves(refund)))  # hands.refund_postings'
        if standing != expected:
            extra = standing - expected
            missing = expected - standing
            what = joined([M("unexpected {posting}", posting=_say(k)) for k in extra]
                          + [M("missing {posting}", posting=_say(k)) for k in missing])
            found.append((None, M("its postings do not match its settlement: {what}", what=what)))
        return found


def _keys(hand, moves) -> Counter:
    """The postings the program makes of these movements of money on the hand, by _key:
    records.posting_rows, the one builder of the double entry (no Posting objects made)."""
    return Counter((account, kind, detail, other, cents)
                   for _hand, _table, account, _player, kind, detail, other, cents
                   in posting_rows(hand.id, hand.table_id, moves, {}))


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


def _key(row):
    return (row.account, row.kind, row.detail, row.counterparty, row.amount)


def _say(key) -> str:
    account, kind, detail, other, amount = key
    return f"{kind}{'/' + detail if detail else ''} {account} {amount:+d} ({other})"
