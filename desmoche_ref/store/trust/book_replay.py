"""`verify`'s replay of a book's journal (store/trust/course_replay.py each table's course): the journal's rows
fed in order (`push`, from store/trust/pinned.py's walk), each routed to its table — a table's rows
by their subject, a hand's, a move's, a posting's by the hand they name — and each table's
writes planned again and compared as the journal goes. What the program would not have
written there is a finding: consecutive rows of one writer at one table make one, naming the
rows, their writer, the table and the hand, and why.

An `import` row's moves and postings are the book's: read a window of rows ahead, in one
query apiece. Rows of the form before schema 0006 (no writer: store/trust/journal.py FORM_1) are
taken as they are (the program then journaled no verdict and no posting): at the `upgrade`
row the tables they built take their hands' verdicts and postings from the book, and every
write after it is held to the course.
"""

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import select

from ... import laws
from ...findings import M, joined
from ..schema.codecs import SIDES
from ..write.lawbook import follow_on_laws
from ..schema.models import BookTable, Event, Hand, Player, Posting, core, plain
from ..write.plans import HandState
from ..schema.records import OPEN_VERDICT, EventRow, PostingRow, TableRow
from .course_replay import Course, Entry, Lost, Mismatch, attempt, candidates, hand_row_of, take
from ..schema.terms import (BET, CLOSE, COMPLETE, EVENT, FOLLOW, HAND, IMPORT, POSTING, REDEAL,
                            REOPEN, TABLE, UPGRADE, USE, VERDICT, VOID, Refused, StoreError,
                            refusal)

LOOKAHEAD = 256  # rows read ahead of the one replayed: a write's rows, an import's window of moves
TABLE_KINDS = (TABLE, BET, CLOSE, FOLLOW, REOPEN, USE)  # the rows about a table (their subject)
events, postings, hands, players, card_table = (core(m) for m in (Event, Posting, Hand, Player, BookTable))


def by(entry: Entry) -> Any:
    return M("written by {writer}", writer=entry.writer) if entry.writer is not None else \
        M("its writer not recorded: written before schema 0006")


class BookReplay:
    """The journal's rows replayed table by table as they are pushed; `findings` once `finish`ed."""

    def __init__(self, conn: Any):
        self.conn = conn
        self.courses: dict[int, Course] = {}
        self.hand_table: dict[int, int] = {}   # hand id -> its table id, as its opening row said
        self.hand_number: dict[int, int] = {}  # hand id -> its number, as its opening row said (forget: dropped)
        self.findings: list = []               # the course's: rows no command writes there
        self.held: list = []                   # the hands let go of, held to their course
        self.pending: list[Entry] = []
        self._players: dict[str, int] | None = None
        self._moves: dict[int, list] = {}      # hand id -> the book's moves of an imported hand (read ahead)
        self._paid: dict[int, list] = {}       # hand id -> the book's postings of an imported hand
        self._legacy: set[int] = set()         # tables journaled before schema 0006
        self._upto = {"hand": 0, "posting": 0}
        self._run: list | None = None          # the rows failing together: [table id, writer, entries, why]
        self._newer = False                    # a row of the form since schema 0006 was replayed
        self._last: dict[int, int] | None = None  # hand id -> the last journal row about it (last_rows)
        self._imports: dict[int, tuple] = {}   # hand id -> what its import row covers (replay.Attempt.imported)
        self.audited: dict[int, tuple] = {}    # hand id -> (moves, postings) of a hand held whole here
        self._final: dict[int, tuple] = {}

    # ------------------------------------------------------------ fed by the walk
    def push(self, entry: Entry) -> None:
        self.pending.append(entry)
        if len(self.pending) >= 2 * LOOKAHEAD:
            self._replay(final=False)

    def finish(self) -> list:
        self._replay(final=True)
        self._close_run()
        self._final = {h.row.id: (h.row, c.postings.get(h.row.id, [])) for c in self.courses.values()
                       for h in c.hands.values() if h.events is not None}
        return self.findings + self.held

    def final(self, hand_id: int) -> tuple | None:
        """(its row, its postings) as the hand's table's course left it, or None: not journaled, or
        held to it already (`_let_go`)."""
        return self._final.get(hand_id)

    def _replay(self, final: bool) -> None:
        at, rows = 0, self.pending
        self._read_ahead(rows)
        while at < len(rows) and (final or len(rows) - at > LOOKAHEAD):
            at += self._step(rows, at)
        self.pending = rows[at:]
        for hand_id in [h for h in self._moves if h not in {e.subject for e in self.pending}]:
            self._moves.pop(hand_id, None)
            self._paid.pop(hand_id, None)
        if at:
            self._let_go(rows[at - 1].id)

    # ------------------------------------------------------------ memory: hands let go
    def _let_go(self, upto: int) -> None:
        """The hands no later row of the journal is about, closed, and not among their table's two
        latest (which an undo may reach): held now to what the course left of them, then let go of
        (their moves and postings; their row stays for the laws), so that memory is a window of
        the journal's, whatever the book's size. A hand let go is read again if a write reaches it."""

        if self._last is None:
            self._last = last_rows(self.conn)
        done = [(c, hand) for c in self.courses.values() for number, hand in c.hands.items()
                if hand.events is not None and hand.closed and number < (c.latest() or 0) - 1
                and self._last.get(hand.row.id, 0) <= upto]
        for start in range(0, len(done), 500):
            part = done[start:start + 500]
            ids = [hand.row.id for _c, hand in part]
            stored = {r.id: r for r in self.conn.execute(select(hands).where(hands.c.id.in_(ids))).all()}
            kept = {i: self._imports[i][3] for i in ids if i in self._imports}  # read already: an import's
            paid = by_hand(self.conn, postings, [i for i in ids if i not in kept], "id") if len(kept) < len(ids) else {}
            paid.update(kept)
            for c, hand in part:
                row = stored.get(hand.row.id)
                imported = self._imports.pop(hand.row.id, None)
                if row is not None:
                    found = verdict_unlike(row, hand.row) + postings_unlike(paid.get(hand.row.id, []),
                                                                            c.postings.get(hand.row.id, []))
                    self.held += [(c.table.name if c.table else None, hand.number, seq, message)
                                  for seq, message in found]
                    if not found and imported is not None and self._last.get(hand.row.id) == imported[0].id \
                            and whole(row, imported, self.player_ids(row.players.split())):
                        self.audited[hand.row.id] = (len(imported[2]), len(imported[3]))
                hand.events = None  # type: ignore[assignment]
                hand.moved_on()
                c.postings.pop(hand.row.id, None)
        for c in {id(c): c for c, _hand in done}.values():
            forget(c)

    def reload(self, c: Course, hand: HandState) -> None:
        """A hand let go, read again from the book (no row after it: the book's rows are its)."""
        hand.events = [EventRow(*r) for r in self.conn.execute(select(events).where(events.c.hand_id == hand.row.id)
                                                               .order_by(events.c.seq))]
        c.postings[hand.row.id] = [PostingRow(*r) for r in self.conn.execute(
            select(postings).where(postings.c.hand_id == hand.row.id).order_by(postings.c.id))]

    # ------------------------------------------------------------ one write
    def _step(self, rows: list[Entry], at: int) -> int:
        entry = rows[at]
        if entry.writer is None:
            self._close_run()
            self._first_form(entry)
            return 1
        if entry.kind == UPGRADE:  # the migration's (store/trust/pinned.py says of any other)
            self._close_run()
            if self._legacy and not self._newer:
                self._upgraded(entry)
            self._newer = True
            return 1
        self._newer = True
        table_id = self._route(entry)
        if table_id is None:
            self._fail(None, entry, M("it is about a hand the journal never opened"))
            return 1
        c = self.course(table_id)
        if c.lost:  # past an import whose moves the book lost: the book's checks say so
            return 1
        best: tuple[int, Any] | None = None
        for command in candidates(c, rows, at):
            try:
                a, binds, times = attempt(c, command, rows, at)
            except Lost:
                c.lost = True
                self._close_run()
                return 1
            except Mismatch as m:
                if best is None or m.agreed > best[0]:
                    best = (m.agreed, m.why)
                continue
            except Refused as e:
                best = best or (0, M("the program refuses it here: {refusal}", refusal=refusal(e.finding)))
                continue
            except StoreError as e:
                best = best or (0, M("the program refuses it here: {refusal}", refusal=e.args[0]))
                continue
            self._close_run()
            take(c, a, binds, rows, at, times)
            if a.imported is not None:
                self._imports[entry.subject] = a.imported
            self._in_order(c, rows[at:at + len(a.plan.journal)], [t for t in times.values() if t is not None])
            return len(a.plan.journal)
        why = self._laws_say(c, entry) or (best[1] if best is not None else M("no command writes it"))
        self._fail(c, entry, why)
        return 1

    def _in_order(self, c: Course, written: list[Entry], times: list[str]) -> None:
        """A write's times are not earlier than the table's writes before it (the journal's order)."""
        if times and c.last_time is not None and min(times) < c.last_time[0]:
            first = written[0]
            self._name(c, first, M("journal row {id} ({kind}, {by}) was written at {when}, before the table's "
                                   "write of {last} (journal row {row}): a time earlier than the rows it follows",
                                   id=first.id, kind=first.kind, by=by(first), when=min(times), last=c.last_time[0],
                                   row=c.last_time[1]))
        if times and (c.last_time is None or max(times) > c.last_time[0]):
            c.last_time = (max(times), written[0].id)

    def _laws_say(self, c: Course, entry: Entry) -> Any:
        """Why a hand's row is not the program's, in the laws' words, when they refuse it (N9)."""
        values = entry.values or []
        if entry.kind not in (HAND, REDEAL, IMPORT) or len(values) < 14 or c.table is None:
            return None
        try:
            row = hand_row_of(entry.subject, values)
            from .course_replay import Attempt

            before = Attempt(c, entry.writer or "", None).laws(below=row.number)
            errors = [b for b in follow_on_laws(before, laws.HandFacts.of_row(row)) if b.severity == "error"]
        except (ValueError, TypeError, KeyError, AttributeError, StoreError):
            return None
        return M("{code} {message}", code=errors[0].code, message=errors[0].message) if errors else None

    # ------------------------------------------------------------ findings
    def _fail(self, c: Course | None, entry: Entry, why: Any) -> None:
        table_id = c.table_id if c is not None else None
        run = self._run
        if run is not None and run[0] == table_id and run[1] == entry.writer and run[2][-1].id == entry.id - 1:
            run[2].append(entry)
            return
        self._close_run()
        self._run = [table_id, entry.writer, [entry], why, c]

    def _close_run(self) -> None:
        run, self._run = self._run, None
        if run is None:
            return
        _table, _writer, entries, why, c = run
        first, last = entries[0], entries[-1]
        kinds = ", ".join(dict.fromkeys(e.kind for e in entries))
        if len(entries) == 1:
            message = M("journal row {id} ({kind}, {by}) is not what the program writes at this point of the table's "
                        "course: {why}", id=first.id, kind=first.kind, by=by(first), why=why)
        else:
            message = M("journal rows {first} to {last} ({kinds}, {by}) are not what the program writes at this point "
                        "of the table's course: row {first}: {why}", first=first.id, last=last.id, kinds=kinds,
                        by=by(first), why=why)
        self._name(c, first, message)

    def _name(self, c: Course | None, entry: Entry, message: Any) -> None:
        """A finding placed at the table and hand the row is about (its move, for a move's row)."""
        table = c.table.name if c is not None and c.table is not None else self._table_name(c)
        number, seq, values = None, None, entry.values or []
        if c is not None:
            hand_id = None
            if entry.kind in (HAND, IMPORT, REDEAL) and len(values) > 1:
                number = values[1] if isinstance(values[1], int) else None
            elif entry.kind == VERDICT:
                hand_id = entry.subject
            elif entry.kind in (EVENT, POSTING) and values:
                hand_id = values[0]
                seq = values[1] if entry.kind == EVENT and len(values) > 1 else None
            elif entry.kind in TABLE_KINDS:
                number = c.latest()
            if hand_id is not None:
                number = next((n for n, h in c.hands.items() if h.row.id == hand_id), self.hand_number.get(hand_id))
        self.findings.append((table, number, seq if number is not None else None, message))

    def _table_name(self, c: Course | None) -> str | None:
        if c is None:
            return None
        name = self.conn.execute(select(card_table.c.name).where(card_table.c.id == c.table_id)).scalar()
        return name or f"#{c.table_id}"

    # ------------------------------------------------------------ routing
    def course(self, table_id: int) -> Course:
        if table_id not in self.courses:
            self.courses[table_id] = Course(self, table_id)
        return self.courses[table_id]

    def _route(self, entry: Entry) -> int | None:
        """The table a row is about: a table's rows by their subject, a hand's by its opening row."""
        kind, values = entry.kind, entry.values or []
        if kind in TABLE_KINDS:
            return entry.subject
        if kind in (HAND, IMPORT) and values and isinstance(values[0], int):
            self.hand_table.setdefault(entry.subject, values[0])
            if len(values) > 1 and isinstance(values[1], int):
                self.hand_number.setdefault(entry.subject, values[1])
            return values[0]
        if kind in (REDEAL, VERDICT):
            return self.hand_table.get(entry.subject)
        if kind in (EVENT, POSTING) and values:
            return self.hand_table.get(values[0])
        return None

    # ------------------------------------------------------------ what the book holds
    def player_ids(self, names: Iterable[str]) -> dict[str, int]:
        if self._players is None:
            self._players = dict(self.conn.execute(select(players.c.name, players.c.id)).all())
        return {n: self._players[n] for n in names if n in self._players}

    def _read_ahead(self, rows: list[Entry]) -> None:
        """The book's moves and postings of the imported hands in the rows: one query apiece."""
        wanted = [e.subject for e in rows if e.kind == IMPORT and e.subject not in self._moves]
        for start in range(0, len(wanted), 500):
            part = wanted[start:start + 500]
            for hand_id in part:
                self._moves[hand_id], self._paid[hand_id] = [], []
            for row in _rows(self.conn, events, part, "seq"):
                self._moves[row[1]].append(EventRow._make(row))
            for row in _rows(self.conn, postings, part, "id"):
                self._paid[row[1]].append(PostingRow._make(row))

    def imported(self, entry: Entry) -> tuple[list, list]:
        """(the book's moves, its postings) of an imported hand (all of them: the caller takes
        those its row covers)."""
        if entry.subject not in self._moves:
            self._read_ahead([entry])
        return self._moves.get(entry.subject, []), self._paid.get(entry.subject, [])

    # ------------------------------------------------------------ before schema 0006
    def _first_form(self, entry: Entry) -> None:
        """A row of the first form, taken as it is (its table's course is held from the upgrade on)."""
        table_id = self._route(entry)
        values = entry.values or []
        if table_id is None:
            return
        c = self.course(table_id)
        self._legacy.add(table_id)
        try:
            if entry.kind in TABLE_KINDS and len(values) >= 7:
                name, seats, bet, rules, options, sides, closed = values[:7]
                c.table = TableRow(table_id, name, seats, bet, rules, options, SIDES.decode(sides), None,
                                   c.table.closed if c.table is not None else (True if closed else None))
            elif entry.kind in (HAND, IMPORT) and len(values) >= 14:
                row = hand_row_of(entry.subject, values)
                moves = self.imported(entry)[0][:values[14]] if entry.kind == IMPORT else []
                c.put(HandState(row, list(moves)))
            elif entry.kind == EVENT and len(values) >= 7:
                hand = next((h for h in c.hands.values() if h.row.id == values[0]), None)
                if hand is not None:
                    hand_id, seq, line, comment, supersedes, recorder, digest = values[:7]
                    hand.events.append(EventRow(entry.subject, hand_id, seq, line, comment, None, supersedes, digest,
                                                recorder))
        except (ValueError, TypeError, IndexError):
            return  # an edited text: its hash says so

    def _upgraded(self, entry: Entry) -> None:
        """The upgrade to schema 0006: the tables of the first form take their hands' verdicts and
        postings, their creation and close, as the book holds them (the journal did not hold them)."""
        values = entry.values or []
        if len(values) >= 4:
            self._upto = {"hand": values[1] or 0, "posting": values[3] or 0}
        for table_id in sorted(self._legacy):
            c = self.course(table_id)
            row = self.conn.execute(select(card_table).where(card_table.c.id == table_id)).first()
            if row is not None and c.table is not None:
                c.table = c.table._replace(created=row.created, closed=row.closed)
            for hand in c.hands.values():
                stored = self.conn.execute(select(hands).where(hands.c.id == hand.row.id)).first()
                if stored is not None:
                    hand.row = hand.row._replace(**{k: getattr(stored, k) for k in (*OPEN_VERDICT, "closed")})
                    c.put(hand)
                c.postings[hand.row.id] = [PostingRow(*p) for p in self.conn.execute(
                    select(postings).where(postings.c.hand_id == hand.row.id,
                                           postings.c.id <= self._upto["posting"]).order_by(postings.c.id))]
                hand.moved_on()
            c.laws = None


def last_rows(conn: Any) -> dict[int, int]:
    """{hand id: the last journal row about it} (its own rows, its moves', its postings'): one query."""
    from sqlalchemy import func, union_all

    from .journal import journal

    j = journal.c
    mine = select(j.subject.label("hand"), func.max(j.id).label("last")).where(
        j.kind.in_((HAND, IMPORT, REDEAL, VERDICT))).group_by(j.subject)
    moves = select(events.c.hand_id, func.max(j.id)).select_from(journal.join(events, events.c.id == j.subject)) \
        .where(j.kind == EVENT).group_by(events.c.hand_id)
    paid = select(postings.c.hand_id, func.max(j.id)).select_from(journal.join(postings, postings.c.id == j.subject)) \
        .where(j.kind == POSTING).group_by(postings.c.hand_id)
    out: dict[int, int] = {}
    for hand_id, last in conn.execute(union_all(mine, moves, paid)):
        out[hand_id] = max(out.get(hand_id, 0), last)
    return out


def forget(c: Course) -> None:
    """The hands of a table's course let go of and older than the latest complete hand that carried
    nothing in, below the two latest: dropped whole. No command reaches them (a write reaches the
    table's two latest hands) and the laws across its hands read back to that hand and no further
    (laws.table_after), so that the course's memory stays a window too, whatever the table's size."""
    top = (c.latest() or 0) - 2
    anchor = next((n for n in range(top, max(top - 64, 0), -1) if n in c.hands and _clean(c.hands[n])), None)
    number = (anchor or 0) - 1
    while number > 0 and number in c.hands and c.hands[number].events is None:
        del c.hands[number]
        number -= 1


def _clean(hand: HandState) -> bool:
    facts = laws.HandFacts.of_row(hand.row)
    return facts.status == COMPLETE and not facts.carry_in and not facts.side_carry_in


def whole(hand: Any, imported: tuple, ids: dict) -> bool:
    """A hand imported, no row of the journal after its `import` row, whose book rows are all that row
    says — its row the row's, its moves the prepared hand's (lines, chain, recorder) entered when it
    was imported, its postings as many as it says, made then, on its table and players, balancing,
    none reversed: what verify's per-hand checks would find in order (store/trust/verify.py _Hand), held
    here while the replay has the rows; any other is left to them (they say what is wrong)."""
    from .journal import import_text, stamp

    entry, prepared, moves, paid = imported
    values = entry.values or []
    count, when = values[14], values[17]
    lines, hashes = prepared.lines.split("\n") if prepared.count else [], \
        prepared.hashes.split("\n") if prepared.count else []
    comments = prepared.comments or [None] * count
    if len(moves) != count or len(paid) != values[16] or stamp(hand.closed) != when:
        return False
    if import_text(hand, count, values[15], values[16], when) != entry.text:
        return False
    for n, (move, line, comment, digest) in enumerate(zip(moves, lines, comments, hashes), 1):
        if (move.seq, move.line, move.comment, move.hash, move.recorder, move.supersedes) != \
                (n, line, comment, digest, entry.writer, None) or stamp(move.entered) != when:
            return False
    seated = hand.players.split()
    return sum(p.amount for p in paid) == 0 and all(
        p.reverses is None and stamp(p.created) == when and p.table_id == hand.table_id
        and p.player_id == (ids.get(p.account) if p.account in seated else None) for p in paid)


def _rows(conn: Any, table: Any, hand_ids: list, order: str) -> list:
    """The rows of these hands, by hand then `order`, as the driver's tuples (the models' columns
    in order, times as stored: models.plain): a season's moves read without SQLAlchemy's row
    processing, a third of the replay's reading."""
    query = select(*plain(table, conn)).where(table.c.hand_id.in_(hand_ids)).order_by(table.c.hand_id,
                                                                                        table.c[order])
    compiled = query.compile(dialect=conn.dialect, compile_kwargs={"render_postcompile": True})
    params = compiled.construct_params()
    cursor = conn.connection.driver_connection.cursor()
    try:
        if conn.dialect.paramstyle == "qmark":
            cursor.execute(str(compiled), [params[name] for name in compiled.positiontup or ()])
        else:
            cursor.execute(str(compiled), params)
        return cursor.fetchall()
    finally:
        cursor.close()


def by_hand(conn: Any, table: Any, hand_ids: list, order: str) -> dict:
    """{hand id: [rows of the table]} of these hands, each hand's in `order`."""
    query = select(*plain(table, conn)).where(table.c.hand_id.in_(hand_ids)).order_by(table.c.hand_id, table.c[order])
    grouped = defaultdict(list)
    for row in conn.execute(query).all():
        grouped[row.hand_id].append(row)
    return grouped


# ------------------------------------------------------------------ a hand against its course
DERIVED = ("status", "outcome", "winners", "carry_out", "side_carry_out", "content_hash")


def verdict_unlike(stored: Any, course: Any) -> list:
    """The book's hand's derived columns (models.py lists them) against what its course left."""
    found = [(None, M("its {column} was stored as {stored} but its moves give {judged}", column=name,
                      stored=repr(getattr(stored, name)), judged=repr(getattr(course, name))))
             for name in DERIVED if getattr(stored, name) != getattr(course, name)
             and not (name == "content_hash" and stored.content_hash is None and course.status == VOID)]
    # (a hand voided at the table before N9.6 kept no content hash: docs/rulings.md)
    if (stored.closed is not None) != (course.closed is not None):
        found.append((None, M("its {column} was stored as {stored} but its moves give {judged}", column="closed",
                              stored=repr(stored.closed is not None), judged=repr(course.closed is not None))))
    if course.status == COMPLETE and stored.fouls != course.fouls:
        found.append((None, M("its fouls were stored as {stored!r} but its moves give {judged!r}",
                              stored=stored.fouls, judged=course.fouls)))
    return found


def postings_unlike(stored: list, course: list) -> list:
    """The book's hand's standing postings against those its course made and kept."""
    standing, expected = standing_keys(stored), standing_keys(course)
    if standing == expected:
        return []
    what = joined([M("unexpected {posting}", posting=said(k)) for k in standing - expected]
                  + [M("missing {posting}", posting=said(k)) for k in expected - standing])
    return [(None, M("its postings do not match its settlement: {what}", what=what))]


def standing_keys(rows) -> Counter:
    reversed_ids = {r.reverses for r in rows if r.reverses is not None}
    return Counter(key(r) for r in rows if r.reverses is None and r.id not in reversed_ids)


def key(row: Any) -> tuple:
    """What a posting moves (records.posting_key), as a finding says it."""
    return (row.account, row.kind, row.detail, row.counterparty, row.amount)


def said(posting: tuple) -> str:
    account, kind, detail, other, amount = posting
    return f"{kind}{'/' + detail if detail else ''} {account} {amount:+d} ({other})"
