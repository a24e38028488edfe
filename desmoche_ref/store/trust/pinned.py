"""`verify`'s reading of the journal, and what it says of every row it covers (store/trust/journal.py):

- the chain: every row's hash, in its form (FORM_1 before schema 0006, FORM_2 since: the
  writer and the times hashed too), and the forms in order (the first form only before the
  `upgrade` row);
- exactly once: every hand, move and posting has one journal row, and is held to its FIRST
  (a second row is tampering: it is reported naming the row and who wrote it, never read);
- the writer: every move's recorder is the writer of its journal row (the session user, on
  PostgreSQL set by the server);
- the times: when each move was entered, each posting made, each hand opened and closed, as
  journaled — for the rows written since the upgrade (or since the book was made at 0006).

A problem is (seq or None, message) within a hand (verify.py places it), or (table, hand,
seq, message) for the book. The messages are findings.Messages.
"""

import json
from collections import defaultdict

from ...findings import M, joined
from . import journal as J
from .course_replay import Entry as Row  # a journal row


def values_of(text: str):
    """A journal text's values, or None when it is not one (an edit: its hash says so)."""
    try:
        values = json.loads(text)
    except ValueError:
        return None
    return values if isinstance(values, list) and len(values) >= 2 else None


def _values(text: str):
    try:
        values = json.loads(text)
    except ValueError:
        return None
    return values if isinstance(values, list) else None


def by(row: Row):
    """Who wrote a journal row, as a problem says it."""
    return M("written by {writer}", writer=row.writer) if row.writer is not None else \
        M("its writer not recorded: written before schema 0006")


class Journal:
    """The journal as verify reads it, in batches (memory: a batch's rows, whatever its size).

    Reading it first walks every row in order (the chain, the head, the forms, each table's
    changes; of each hand's verdict and redeal rows only the last's id); then `load` reads the
    rows of a batch of hands (verify.py's) — each hand's, move's and posting's FIRST row, each
    hand's last verdict and redeal — through the journal's unique indexes; what it holds of a
    batch is let go at the next. Second rows (tampering: the database refuses them) are found
    by one query, and `missing` finds what the journal holds and the book does not.

    A small journal (up to KEEP batches of rows) is kept whole as it is walked, and the batches
    then read nothing more: verify_book on a laws test's book (called after its every step) asks
    no more of the database than before the journal was streamed."""

    KEEP = 4  # batches of journal rows (league.batch_size() * POSTINGS_A_HAND each) kept whole

    def __init__(self, session, problems, head: str | None = None, replay=None):
        self.tables = {}                  # table id -> its last state's text
        self.changes = defaultdict(list)  # table id -> [Row] of its changes (new, bet, close, follow), in order
        self.hands, self.events, self.postings = {}, {}, {}  # id -> its first Row (of the batch loaded)
        self.verdicts, self.redeals = {}, {}  # hand id -> its last `verdict` / `redeal` Row (of the batch)
        self._verdicts, self._redeals = {}, {}  # hand id -> that row's id (every hand's)
        self.again = defaultdict(list)    # (family, id) -> the Rows after its first
        self.firsts = {}                  # (family, id) -> its first Row, of those with rows after it
        self.reported = set()             # (family, id) whose second rows verify has said
        self.upto = {"hand": 0, "event": 0, "posting": 0}  # written before the upgrade: ids up to these
        self.head, self.count, self.session, self.replay = "", 0, session, replay
        self.wanted = head.strip().lower() if head is not None else None
        self.found = False                # the head `wanted` is a hash of the chain
        # the rows of the families, verdicts and redeals, while the journal is small enough to keep
        self._kept = {family: {} for family in (*J.ONCE, "verdict", "redeal")}
        self._read(session, problems)
        if self._kept is None:
            self._seconds(session)
        else:
            for family in J.ONCE:
                for subject, rows in self._kept.pop("again " + family, {}).items():
                    self.firsts[family, subject] = self._kept[family][subject]
                    self.again[family, subject] = rows

    def _seconds(self, session) -> None:
        """The rows after the first of every hand, move and posting journaled more than once
        (one query, through the unique indexes; a second for their rows when there are any)."""
        from sqlalchemy import func, select, union_all

        j = J.journal.c
        twice = session.execute(union_all(*(
            select(_family(family), j.subject).where(_kinds(kinds)).group_by(j.subject).having(func.count() > 1)
            for family, kinds in J.ONCE.items()))).all()
        for family, kinds in J.ONCE.items():
            subjects = [subject for f, subject in twice if f == family]
            if not subjects:
                continue
            for row in session.execute(select(*_COLUMNS).where(_kinds(kinds), j.subject.in_(subjects))
                                       .order_by(j.id)):
                row = Row(*row)
                if (family, row.subject) in self.firsts:
                    self.again[family, row.subject].append(row)
                else:
                    self.firsts[family, row.subject] = row

    def _read(self, session, problems):
        from ..read.league import POSTINGS_A_HAND, batch_size

        previous, newer, first_form, upgraded = "", False, False, False
        early = None  # the redeal rows before their hand's opening: asked at the first redeal row
        keep = self.KEEP * batch_size() * POSTINGS_A_HAND
        for row in _all_rows(session):
            if self._kept is not None and self.count >= keep:
                self._kept = None  # too many to keep: read a batch of hands' rows at a time (load)
            self.count += 1
            if J.chain(previous, row.kind, row.subject, row.text, row.writer) != row.hash:
                problems.append(_book(M("journal row {id} ({kind}, {by}) does not match its hash: the journal "
                                        "was changed", id=row.id, kind=row.kind, by=by(row))))
            previous = row.hash
            self.found = self.found or row.hash == self.wanted
            if self.replay is not None:  # each table's course, replayed as the journal goes (replaybook.py)
                self.replay.push(row._replace(values=_values(row.text)))
            if row.writer is None:
                first_form = True
                if newer:
                    problems.append(_book(M("journal row {id} is of the form before schema 0006 but follows "
                                            "rows of the newer form: the journal was changed", id=row.id)))
            was_newer, newer = newer, newer or row.writer is not None
            family = J.KINDS.get(row.kind, "?")
            if family == "table":
                self.tables[row.subject] = row.text
                self.changes[row.subject].append(row)
            elif family in J.ONCE:
                if self._kept is not None:  # else read a batch at a time (load)
                    first = self._kept[family].setdefault(row.subject, row)
                    if first is not row:
                        self._kept.setdefault("again " + family, defaultdict(list))[row.subject].append(row)
            elif family == "verdict":
                self._verdicts[row.subject] = row.id
                if self._kept is not None:
                    self._kept[family][row.subject] = row
            elif family == "redeal":
                if self._kept is not None:
                    before = row.subject not in self._kept["hand"]
                    self._kept[family][row.subject] = row
                else:
                    early = _early_redeals(session) if early is None else early
                    before = row.id in early
                self._redeals[row.subject] = row.id
                if before:
                    problems.append(_book(M("journal row {id} ({by}): hand row {subject} is dealt again before it "
                                            "is opened", id=row.id, by=by(row), subject=row.subject)))
                self._redeals[row.subject] = row.id
            elif family == "use":
                pass  # the table its writer works at: the course holds it (replay.py)
            elif row.kind == J.UPGRADE and (upgraded or was_newer or not first_form):
                # the migration's upgrade row is the first of the new form, after the first form's rows
                why = M("it follows rows of the form since schema 0006") if was_newer or upgraded else \
                    M("no row of the form before schema 0006 comes before it")
                problems.append(_book(M("journal row {id} (upgrade, {by}) is not the upgrade's: {why}", id=row.id,
                                        by=by(row), why=why)))
            elif row.kind == J.UPGRADE:
                upgraded = True
                values = values_of(row.text) or [None, 0, 0, 0]
                self.upto = dict(zip(("hand", "event", "posting"), values[1:4]))
            else:
                problems.append(_book(M("journal row {id} ({by}) is of an unknown kind {kind!r}", id=row.id,
                                        by=by(row), kind=row.kind)))
        if first_form and not upgraded:
            problems.append(_book(M("the journal holds rows of the form before schema 0006 but no upgrade "
                                    "row: the journal was changed")))
        self.head = previous

    def load(self, hand_ids) -> None:
        """The rows of these hands, their moves and their postings (those of the batch before let
        go): one query for their first rows, one for the last verdict and redeal rows."""
        from sqlalchemy import literal_column, select, union_all

        from ..read.league import event, posting

        if self._kept is not None:  # the journal kept whole
            self.hands, self.events, self.postings = (self._kept[family] for family in J.ONCE)
            self.verdicts, self.redeals = self._kept["verdict"], self._kept["redeal"]
            return
        j, session = J.journal.c, self.session
        self.hands, self.events, self.postings = {}, {}, {}
        covered = {"hand": self.hands, "event": self.events, "posting": self.postings}
        query = union_all(
            select(_family("hand"), *_COLUMNS).where(_kinds(J.ONCE["hand"]), j.subject.in_(hand_ids)),
            select(_family("event"), *_COLUMNS).join(event, event.c.id == j.subject)
            .where(_kinds(J.ONCE["event"]), event.c.hand_id.in_(hand_ids)),
            select(_family("posting"), *_COLUMNS).join(posting, posting.c.id == j.subject)
            .where(_kinds(J.ONCE["posting"]), posting.c.hand_id.in_(hand_ids)))
        for family, *row in session.execute(query.order_by(literal_column("id"))):
            covered[family].setdefault(row[2], Row(*row))
        verdicts = {h: self._verdicts[h] for h in hand_ids if h in self._verdicts}
        redeals = {h: self._redeals[h] for h in hand_ids if h in self._redeals}
        rows = {}
        if verdicts or redeals:
            rows = {row.id: Row(*row) for row in session.execute(
                select(*_COLUMNS).where(j.id.in_(list(verdicts.values()) + list(redeals.values()))))}
        self.verdicts = {h: rows[i] for h, i in verdicts.items()}
        self.redeals = {h: rows[i] for h, i in redeals.items()}

    def table_problems(self, table) -> list:
        """The table's row against its last journaled state (in that row's form)."""
        changes = self.changes.get(table.id)
        if not changes:
            return [M("it has no journal row: it was not written by the program")]
        last = changes[-1]
        stored = J.table_text(table, timed=last.writer is not None)
        if stored != last.text:
            return [M("its row is not what the journal says was written: {stored} instead of {journaled}",
                      stored=stored, journaled=last.text)]
        return []

    def second_rows(self, family: str, subject: int, what=None) -> list:
        """A problem for each journal row after the first for this hand, move or posting
        (`what` it is, as the problem's place does not already say)."""
        if (family, subject) not in self.again:
            return []
        self.reported.add((family, subject))
        first = self.firsts[family, subject]
        what = what or {"hand": M("this hand"), "event": M("this move")}.get(family) or \
            M("posting {id}", id=subject)
        return [M("journal row {id} ({by}) journals {what} a second time (journal row {first} did first): the "
                  "journal was tampered with", id=row.id, by=by(row), what=what, first=first.id)
                for row in self.again.get((family, subject), ())]

    def unreported(self) -> list:
        """Book problems for the second rows of rows verify never met (deleted, or never there)."""
        return [_book(message) for family, subject in sorted(self.again) if (family, subject) not in self.reported
                for message in self.second_rows(family, subject, row_of(family, subject))]

    def missing(self) -> dict:
        """{family: the first rows, by subject, of the hands ("hand"), moves ("event") or
        postings ("posting") the journal holds and the book does not} — a move or posting of no
        hand counts as not held: verify reads a hand's rows with it. One query."""
        from sqlalchemy import exists, literal_column, select, union_all

        from ..read.league import event, hand, posting

        j = J.journal.c
        held = {"hand": exists().where(hand.c.id == j.subject),
                "event": exists().where(event.c.id == j.subject, hand.c.id == event.c.hand_id),
                "posting": exists().where(posting.c.id == j.subject, hand.c.id == posting.c.hand_id)}
        first = {family: {} for family in J.ONCE}
        query = union_all(*(select(_family(family), *_COLUMNS).where(_kinds(kinds), ~held[family])
                            for family, kinds in J.ONCE.items()))
        for family, *row in self.session.execute(query.order_by(literal_column("id"))):
            first[family].setdefault(row[2], Row(*row))
        return {family: [rows[s] for s in sorted(rows)] for family, rows in first.items()}


def _family(name: str):
    from sqlalchemy import literal_column

    return literal_column(f"'{name}'").label("family")


_COLUMNS = tuple(J.journal.c[name] for name in Row._fields if name != "values")


def _kinds(kinds, name: str = "journal"):
    """`kind IN (...)` written out, as the journal's partial unique indexes say it (a bound
    value would keep the database from using them)."""
    from sqlalchemy import text

    return text(f"{name}.kind IN (" + ", ".join(f"'{k}'" for k in kinds) + ")")


def _all_rows(session):
    """Every journal row, in the order appended, read a batch at a time (keyset on the id)."""
    from sqlalchemy import select

    from ..read.league import POSTINGS_A_HAND, batch_size

    size, last = batch_size() * POSTINGS_A_HAND, None
    query = select(*_COLUMNS).order_by(J.journal.c.id).limit(size)
    while True:
        rows = session.execute(query if last is None else query.where(J.journal.c.id > last)).all()
        for row in rows:
            yield Row(*row)
        if len(rows) < size:
            return
        last = rows[-1].id


def _early_redeals(session) -> set:
    """The ids of the `redeal` rows with no row opening their hand before them."""
    from sqlalchemy import exists, select

    j = J.journal.c
    opened = J.journal.alias("opened")
    return set(session.execute(select(j.id).where(j.kind == J.REDEAL, ~exists().where(
        _kinds(J.ONCE["hand"], "opened"), opened.c.subject == j.subject, opened.c.id < j.id))).scalars())


def row_of(family: str, subject: int):
    if family == "hand":
        return M("hand row {id}", id=subject)
    if family == "event":
        return M("move row {id}", id=subject)
    return M("posting {id}", id=subject)


def _book(message):
    return (None, None, None, message)


# ------------------------------------------------------------------ a hand
class HandPins:
    """One hand's rows against the journal: its setup, its moves, its postings, its times."""

    def __init__(self, journal: Journal, hand):
        self.journal, self.hand = journal, hand
        self.row = journal.hands.get(hand.id)
        self.covered = 0      # how many of its first moves its import row covers
        self.imported: tuple | None = None  # (moves, postings, when) the import row covers, in the new form

    def problems(self, moves) -> list:
        """Its setup, its moves and its closing time against the journal."""
        return self._setup(moves) + self._moves(moves) + self._closed()

    def _setup(self, moves) -> list:
        hand, row = self.hand, self.row
        if row is None:
            return [(None, M("it has no journal row: it was not written by the program"))]
        found = [(None, m) for m in self.journal.second_rows("hand", hand.id)]
        if row.kind != J.IMPORT:
            setup = self.journal.redeals.get(hand.id, row)  # dealt again: the setup it was dealt with last
            if J.hand_text(hand) != setup.text:
                found.append((None, M("its row is not what the journal says was written: {stored} instead of "
                                      "{journaled}", stored=J.hand_text(hand), journaled=setup.text)))
            return found
        values = values_of(row.text) or []
        timed = row.writer is not None and len(values) >= 4
        # the first form ends [moves, head]; the new [moves, head, postings, when]
        count = values[-4 if timed else -2] if len(values) >= 2 else 0
        count = count if isinstance(count, int) else 0
        postings, when = (values[-2], values[-1]) if timed else (None, None)
        chained = moves[count - 1].hash if 0 < count <= len(moves) else ""
        if J.import_text(hand, count, chained, postings, when) != row.text:
            found.append((None, M("its row or its moves are not what the journal says was imported")))
        self.covered = count
        if row.writer is not None:
            self.imported = (count, postings, when)
        return found

    def _moves(self, moves) -> list:
        journal, found, covered = self.journal, [], self.covered
        if self.imported is not None and covered:
            found += self._imported_moves(moves[:covered])
        for move in moves:
            said = journal.events.get(move.id)
            if said is not None:
                found += [(move.seq, m) for m in journal.second_rows("event", move.id)]
            if move.seq <= covered:
                continue
            if said is None:
                found.append((move.seq, entered_by(M("it has no journal row: it was not written by the program"),
                                                   move.recorder)))
                continue
            timed = said.writer is not None
            if J.event_text(move, timed) != said.text:
                found.append((move.seq, entered_by(_move_differs(move, said), move.recorder)))
            if timed and move.recorder != said.writer:
                found.append((move.seq, M("it says {recorder} entered it, but its journal row {id} was written by "
                                          "{writer}", recorder=move.recorder, id=said.id, writer=said.writer)))
        return found

    def _imported_moves(self, moves) -> list:
        """The moves an import row of the new form covers: entered when it was stored, by its writer."""
        assert self.imported is not None and self.row is not None  # (problems: an import row of the new form)
        _count, _postings, when = self.imported
        writer, found = self.row.writer, []
        if not moves:
            return found
        first = moves[0].entered
        if J.stamp(first) != when or any(m.entered != first for m in moves):
            found.append((None, M("its imported moves were not all entered when the journal says the hand was "
                                  "imported ({when})", when=when)))
        for m in moves:
            if m.recorder != writer:
                found.append((m.seq, M("it says {recorder} entered it, but the journal row {id} that imported it "
                                       "was written by {writer}", recorder=m.recorder, id=self.row.id,
                                       writer=writer)))
        return found

    def posting_problems(self, postings) -> list:
        """Its postings against the journal (after `problems`: an import row says how many)."""
        journal, found = self.journal, []
        unjournaled = []
        for p in postings:
            said = journal.postings.get(p.id)
            if said is None:
                unjournaled.append(p)
                continue
            found += [(None, m) for m in journal.second_rows("posting", p.id)]
            if J.posting_text(p) != said.text:
                found.append((None, _posting_differs(p, said)))
        if self.imported is not None:
            _count, count, when = self.imported
            if len(unjournaled) != count or any(J.stamp(p.created) != when for p in unjournaled[:1]) \
                    or any(p.created != unjournaled[0].created for p in unjournaled):
                found.append((None, M("its imported postings are not the {count} the journal says were made when "
                                      "it was imported ({when})", count=count, when=when)))
            return found
        found += [(None, M("posting {id} has no journal row: it was not written by the program", id=p.id))
                  for p in unjournaled if p.id > journal.upto["posting"]]
        return found

    def _closed(self) -> list:
        """When the hand closed (or that it is open) as its last verdict row, or its import row, says."""
        hand, last = self.hand, self.journal.verdicts.get(self.hand.id)
        if last is not None:
            if J.verdict_text(hand) == last.text:
                return []
            journaled = values_of(last.text) or [None, None, None]
            if J.stamp(hand.closed) != journaled[-1]:
                if hand.closed is None:
                    return [(None, M("it is open, but its journal row {id} says it closed at {journaled}",
                                     id=last.id, journaled=journaled[-1]))]
                return [(None, M("it closed at {stored}, but its journal row {id} says {journaled}",
                                 stored=J.stamp(hand.closed), id=last.id,
                                 journaled=journaled[-1] or M("it was reopened")))]
            return [(None, M("its close is not what its journal row {id} says: {stored} instead of {journaled}",
                             id=last.id, stored=J.verdict_text(hand), journaled=last.text))]
        if self.imported is not None:
            when = self.imported[2]
            expected = when
        elif self.row is not None and self.row.writer is not None:
            expected = None  # opened live and never closed
        else:
            return []  # journaled before the upgrade: its closing time was not
        if J.stamp(hand.closed) != expected:
            return [(None, M("it closed at {stored}, but its journal row {id} says {journaled}",
                             stored=J.stamp(hand.closed), id=self.row.id if self.row is not None else None,
                             journaled=expected or M("it was never closed")))]
        return []


def _move_differs(move, said):
    """What of a move is not as journaled: its time alone, or the move itself."""
    journaled = values_of(said.text)
    if said.writer is not None and journaled is not None and len(journaled) == 8 \
            and J.event_text(move, False) == json.dumps(journaled[:7], ensure_ascii=False, separators=(",", ":")):
        return M("it was entered at {stored}, but the journal says {journaled}", stored=J.stamp(move.entered),
                 journaled=journaled[7])
    return M("it is not what the journal says was written")


POSTING_COLUMNS = ("hand_id", "table_id", "account", "player_id", "kind", "detail", "counterparty", "amount",
                   "reverses", "created")  # journal.posting_text's values


def _posting_differs(p, said):
    """What of a posting is not as journaled: when it was made, or which of its columns."""
    stored, journaled = values_of(J.posting_text(p)), values_of(said.text)
    if journaled is None or len(journaled) != len(POSTING_COLUMNS):
        return M("posting {id} is not what the journal says was written: {stored} instead of {journaled}",
                 id=p.id, stored=J.posting_text(p), journaled=said.text)
    if stored[:-1] == journaled[:-1]:
        return M("posting {id} was made at {stored}, but the journal says {journaled}", id=p.id,
                 stored=stored[-1], journaled=journaled[-1])
    differences = [M("{column} {stored} instead of {journaled}", column=column,
                     stored=json.dumps(a, ensure_ascii=False), journaled=json.dumps(b, ensure_ascii=False))
                   for column, a, b in zip(POSTING_COLUMNS, stored, journaled) if a != b]
    return M("posting {id} is not what the journal says was written: {differences}", id=p.id,
             differences=joined(differences))


def entered_by(message, recorder):
    """A move's problem says who entered the move (its row's recorder), when the row names one."""
    return M("{problem} (entered by {recorder})", problem=message, recorder=recorder) if recorder else message
