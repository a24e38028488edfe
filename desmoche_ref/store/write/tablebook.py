"""The scorebook service: one table of a book, as every front end records at it.

The verbs, `rec`, `undo`, `hand new`, `table …`, `play` and `import` all go through here, so a
line gets the same answer whoever typed it. A `TableBook` holds the table's latest hand as
the book had it when last read or written (its referee, its move number): `play` keeps one
for the night, a single-shot verb makes one per call. Each write is one transaction that
first locks the table's row (PostgreSQL; SQLite writes take the whole book's lock), reads the
hand afresh under that lock and refuses with `HandChanged` if another recorder moved it since
this one looked — so the loser of any race changes nothing (exit 3).

It returns plain values and raises only `Refused` (a finding: the rules forbid the line),
`HandChanged` (with the move the hand is at) or `StoreError` (a message). What each command
writes is planned by store/write/course.py (the table's course: a policy lives there once, and
`verify` holds the book to it) and stored by store/write/book_writer.py: a line sent twice is stored
once (`Recorded.unchanged`, store/write/repeats.py), a hand voided takes no move, a closed table is
opened again by `undo` or `reopen`. Live messages cite the move number (the event's seq), as
`hand log` shows it.
"""

from contextlib import contextmanager
from typing import NamedTuple

from sqlalchemy import func, select

from ...findings import M
from ...referee import judge_text
from . import course
from ..read import hands as H
from .course import (HandInfo, Opened, Recorded, TableClosed, TableReopened, Undone, Voided,  # noqa: F401
                     hand_info)
from ..read.hands import NightHand  # noqa: F401 (tablebook.NightHand: the night's hands)
from ..trust.identity import recorder
from ..schema.models import BookTable, Hand, core
from .plans import HandState, judge, judge_rows
from .live import standing_findings
from ..schema.records import live_events, void_record, void_row
from .tablestate import BookState, make_table, read_current
from ..schema.terms import COMPLETE, USE, VOID, HandChanged, Refused, StoreError, closed_table
from .book_writer import write

__all__ = ["TableBook", "HandChanged", "Refused", "StoreError", "adopt_table", "create_table", "list_tables",
           "use_table"]


class TableInfo(NamedTuple):
    name: str
    players: list
    bet: int
    rules: str
    options: str
    sides: list           # [(game, stake cents, [names])]
    hands: int
    closed: bool
    in_use: bool


class LogRow(NamedTuple):
    seq: int
    entered: object       # datetime, UTC
    line: str
    comment: str | None
    recorder: str | None
    supersedes: int | None    # the move an undo row takes back
    superseded: int | None    # the undo row that took this move back
    stands: bool              # neither an undo row nor undone


class HandView(NamedTuple):
    """A hand as the book has it: its rows, its verdict as `check` gives it on its record
    (`report`, record lines: for --json), the referee that judged it move-numbered (`ref`,
    for the table now) and its findings by move number."""

    table: str
    number: int
    closed: bool
    seq: int
    log: list             # LogRow, every row
    record: str           # the hand as a .dsm record
    report: object        # HandReport on the record (N8 lines)
    ref: object           # Referee, events numbered by move
    findings: list        # (move, line of `record`, code, message)
    void: object          # its `void` row's LogRow (`hand void`: the reason its comment), else None


class Night(NamedTuple):
    table: str
    hands: list           # NightHand, the settled hands in order
    players: list         # in seat order, then anyone else who played
    totals: dict          # {player: cents} over the hands
    pots: dict            # {game: cents} held in the table's pots (main pot as "main")
    pending: object       # the current hand's HandReport when over but not yet posted, else None


# ------------------------------------------------------------------ tables
def create_table(book, name: str, players: list, bet: int, rules: str = "desmoche",
                 options: str = "", sides=()) -> TableInfo:
    """A new table; it becomes the table in use. Its values are judged as a hand's tags."""
    with book.write() as s:
        row = make_table(s.connection(), name, players, bet, rules, options, sides)
        return _table_info(row, 0, True)


def list_tables(book) -> list:
    """Every table of the book (TableInfo), by name."""
    with book.read() as s:
        current = H.current_table(s, recorder(s))
        h, t = core(Hand).c, core(BookTable)
        counts = dict(s.execute(select(h.table_id, func.count()).group_by(h.table_id)).all())
        return [_table_info(row, counts.get(row.id, 0), row.id == current)
                for row in s.execute(select(t).order_by(t.c.name))]


def use_table(book, name: str) -> None:
    """`table use NAME`: the table its recorder works at from then on (a `use` journal row)."""
    with book.write() as s:
        _use(s, H.find_table(s, name).id)


def adopt_table(book, before: int | None, names: list) -> str | None:
    """After an import: the table its recorder worked at before it (`before`, hands.current_table)
    stays that recorder's — a recorder at the table goes on there, whatever a secretary imports
    meanwhile; a recorder who worked at none goes on at the last of the tables `names` the book
    holds (the file's last), so that `hand show --hand 3` reads the table just imported. A `use`
    row when the import's own rows left the recorder elsewhere. Returns the recorder's table."""
    with book.write() as s:
        now = H.current_table(s, recorder(s))
        t = core(BookTable).c
        if before is None:
            held = dict(s.execute(select(t.name, t.id).where(t.name.in_(list(names)))).all())
            before = next((held[n] for n in reversed(names) if n in held), now)
        if before is not None and now != before:
            _use(s, before)
        return s.execute(select(t.name).where(t.id == before)).scalar() if before is not None else None


def _use(session, table_id: int) -> None:
    """The recorder's table is this one from now on: a `use` row, unless it is already."""
    who = recorder(session)
    if H.current_table(session, who) != table_id:
        state = BookState(session.connection(), table_id, who)
        state.plan.journal.append((USE, state.table, None))
        write(session.connection(), [state.plan])


def _table_info(table, hands: int, in_use: bool) -> TableInfo:
    return TableInfo(table.name, table.players.split(), table.bet, table.rules, table.options,
                     list(table.sides), hands, table.closed is not None, in_use)


# ------------------------------------------------------------------ one table
class TableBook:
    """One table of the book (named, else the table its recorder works at: hands.find_table);
    every write at it makes it the recorder's table. It holds the hand the table is at as it
    last read or wrote it (a plans.HandState: its rows and its referee): `play` keeps one for
    the night, a single-shot verb makes one per call. Each write plans the command on the
    table as the book holds it (course.py, on a tablestate.BookState: the table's row locked
    first), the held hand used as it is when the book's hand is still it, and stores the plan
    (book_writer.py) in one transaction."""

    def __init__(self, book, table: str | None = None):
        self.book = book
        self._cursor: int | None = None  # `play` sending a hand again: the standing move its next line may be
        with book.read() as s:
            row = H.find_table(s, table)
            self.table_id, self.name = row.id, row.name
            self.closed_table = row.closed is not None
            self._held = read_current(s.connection(), row.id)

    # ------------------------------------------------------------ the hand held
    @property
    def number(self):
        return self._held.number if self._held else None

    @property
    def ref(self):
        return self._held.ref if self._held else None

    @property
    def closed(self) -> bool:
        held = self._held
        return held is not None and held.closed

    @property
    def seq(self) -> int:
        held = self._held
        return held.seq if held else 0

    def reload(self) -> None:
        """Hold the table's hand as the book has it now (its moves replayed when next asked)."""
        self._cursor = None
        with self.book.read() as s:
            conn = s.connection()
            t = core(BookTable).c
            self.closed_table = conn.execute(select(t.closed).where(t.id == self.table_id)).scalar() is not None
            self._held = read_current(conn, self.table_id)

    def hand(self) -> HandState:
        """The hand held; StoreError when the table has none yet."""
        held = self._held
        if held is None:
            self.reload()  # another recorder may have dealt one since this one looked
            if self._held is not None:
                raise HandChanged(self._held.seq, self._held.number)
            raise StoreError(M("no hand yet at table {table}: start one with "
                               "`desmoche-ref hand new --dealer NAME`", table=self.name))
        return held

    def _held_at(self, expect_seq) -> HandState:
        """The hand held, for a write at an open table; HandChanged if it is not at the move
        `expect_seq` the recorder saw (None: whatever it is at)."""
        if self.closed_table:
            raise StoreError(closed_table(self.name))
        held = self.hand()
        if expect_seq is not None and expect_seq != held.seq:
            raise HandChanged(held.seq)
        return held

    def _state(self, session) -> BookState:
        """The table as the book holds it, its row locked."""
        return BookState(session.connection(), self.table_id, recorder(session))

    def _at_held(self, state: BookState, held: HandState, moved_too: bool = False) -> HandState:
        """The held hand, as the state's; HandChanged if the table is not at it as held (`moved_too`:
        unless it is the same hand at another move — then the hand as the book has it)."""
        if state.table.closed is not None:
            raise StoreError(closed_table(self.name))
        at = state.at()
        if at is None or at[0] != held.row.id:
            raise HandChanged(at[3] if at is not None else 0, at[1] if at is not None else None)
        if at[3] != held.seq or (at[2] is not None) != held.closed:
            if moved_too:
                found = state.hand(held.number)
                if found is not None:
                    return found
            raise HandChanged(at[3])
        return state.adopt(held)

    def _write(self, session, state: BookState) -> dict:
        return write(session.connection(), [state.plan])

    @contextmanager
    def _transaction(self):
        """One write (book.write()): a row another writer stored first at the same place (the
        hand's next move: the (hand, seq) key) is HandChanged, the hand read again."""
        from sqlalchemy.exc import IntegrityError

        try:
            with self.book.write() as s:
                yield s
        except IntegrityError:
            self.reload()
            raise HandChanged(self.seq) from None

    # ------------------------------------------------------------ writing
    def record(self, typed: str, expect_seq: int | None = None, follow: bool = False) -> Recorded:
        """Judge one notation line (`verb args  # comment`) on the hand and store it.

        `expect_seq`: the move number the recorder saw; HandChanged if the hand is elsewhere —
        unless the move after it is this very line (two recorders, one move: stored once).
        `follow`: the sender (`play`, piped) may be sending the hand again line by line: a line
        that is the move after the last one it repeated is that move (store/write/repeats.py)."""
        if self.closed_table:
            raise StoreError(closed_table(self.name))
        held = self.hand()
        believed = self._believed(held, expect_seq, follow)
        stale = expect_seq is not None and expect_seq != held.seq
        try:
            with self._transaction() as s:
                state = self._state(s)
                hand = self._at_held(state, held, moved_too=True)
                moved = hand.seq != held.seq or hand.closed != held.closed  # another recorder wrote meanwhile
                if moved:  # its line may be the one they stored: where this recorder believed it goes
                    believed, stale = len(held.live()) if believed is None else believed, True
                done = course.record(state, hand, typed, believed, stale)
                waits = hand.closed and not held.closed and state.waiting_after(hand) is not None
                ids = {} if done.unchanged else self._write(s, state)
        except HandChanged:
            self.reload()
            raise
        self._cursor = None
        if done.unchanged:
            if moved:
                self.reload()
            moves = [r.seq for r in self.hand().live()]
            self._cursor = moves.index(done.seq) + 1 if follow and done.seq in moves else None
        elif waits:
            self.reload()  # the table is at the hand that waited
        else:
            hand.events[:] = [e._replace(id=ids.get(e.id, e.id)) for e in hand.events]
            hand.row = hand.row._replace(id=held.row.id)
            self._held = hand
        return done

    def _believed(self, held: HandState, expect_seq: int | None, follow: bool) -> int | None:
        """Where the sender believes the line goes (an index into the standing moves), or None:
        after the move `expect_seq` it saw, or after the move a `play` sending the hand again
        last repeated."""
        if expect_seq is not None and expect_seq != held.seq:
            moves = [r.seq for r in held.live()]
            return moves.index(expect_seq + 1) if expect_seq + 1 in moves else None
        return self._cursor if follow else None

    def undo(self, expect_seq: int | None = None) -> Undone | TableReopened:
        """Supersede the hand's last standing row; a closed hand reopens (postings reversed).
        On a hand with no move it takes back the `hand new` that dealt it: the hand before
        reopens (course.undo). At a closed table it takes back the close: the table opens
        again (`reopen`, its TableReopened)."""
        if self.closed_table:
            return self.reopen()
        held = self._held_at(expect_seq)
        return self._planned(lambda state: course.undo(state, self._at_held(state, held)))

    def void(self, reason: str, expect_seq: int | None = None) -> Voided:
        """`hand void --reason TEXT`: the hand being played closed void (course.void)."""
        held = self._held_at(expect_seq)
        return self._planned(lambda state: course.void(state, self._at_held(state, held), reason))

    def new_hand(self, dealer: str | None = None, sides=None,
                 expect_number: int | None = None, follow: bool = False) -> Opened:
        """Close the hand before (it must be over) and deal the next (`hand new`) — unless the
        hand being played is the one asked for, dealt already by the dealer named (`already`:
        nothing done; `follow`: a sender `play` is fed, which goes on from its first move, and
        for which a hand over or closed is such a hand too: course.dealt_already).

        `expect_number`: the latest hand's number the recorder saw (0: none); HandChanged if
        another recorder dealt one since."""
        seen = self.number or 0
        if expect_number is None:
            expect_number = seen
        try:
            with self._transaction() as s:
                state = self._state(s)
                at = state.at()
                now_at = at[1] if at is not None else 0
                if now_at != expect_number:
                    raise HandChanged(at[3] if at is not None else 0, now_at)
                opened = course.hand_new(state, dealer, sides, follow)
                self._write(s, state)
        finally:
            self.reload()
        if opened.already is not None and follow:
            self._cursor = 0
        return opened

    def set_bet(self, cents: int) -> int:
        """A new bet from the next hand (R2.2, R2.3: laws.bet_change)."""
        with self._transaction() as s:
            state = self._state(s)
            course.set_bet(state, cents)
            self._write(s, state)
        return cents

    def close(self) -> TableClosed:
        """The table breaks up: its last hand closed, carried pots returned (R11.5)."""
        return self._planned(course.close_table)

    def reopen(self) -> TableReopened:
        """`table reopen` (or `undo` after `table close`): the table open again as it was before
        its close (course.reopen_table: the R11.5 returns taken back)."""
        return self._planned(course.reopen_table)

    def _planned(self, planner):
        """`planner(state)` on the table as the book holds it, its plan written in one transaction;
        the table read again after, whatever happened. Returns what the planner said."""
        try:
            with self._transaction() as s:
                state = self._state(s)
                done = planner(state)
                self._write(s, state)
        finally:
            self.reload()
        return done

    # ------------------------------------------------------------ reading
    def view(self, number: int | None = None) -> HandView:
        """A hand of the table (the one it is at by default) as the book has it."""
        with self.book.read() as s:
            hand = H.find_hand(s, s.get(BookTable, self.table_id), number)
            rows = H.events(s, hand)
        live = live_events(rows)
        lines = [_text(r) for r in live]
        moved, ref = judge_rows(hand, live)
        log = log_rows(rows)
        voided = void_row(rows) if hand.status == VOID else None
        if voided is not None and lines:  # voided at the table: its record as export writes it (N9.6)
            record = void_record(hand, lines, voided.comment)
            report = judge_text(record).hands[0]
        else:
            record, report = H.record_text(hand, lines), judge(hand, lines)
        return HandView(self.name, hand.number, hand.closed is not None, rows[-1].seq if rows else 0,
                        log, record, report, ref, standing_findings(moved, report, ref, hand.closed is not None),
                        next((r for r in log if r.seq == voided.seq), None) if voided else None)

    def night(self) -> Night:
        """The table's settled hands with each player's net, the totals, the pots."""
        with self.book.read() as s:
            settled, pots = H.night_postings(s, self.table_id)
        held = self._held
        players = list(held.ref.setup.players) if held is not None else []
        for hand in settled:
            players += [p for p in hand.net if p not in players]
        totals = {p: sum(h.net.get(p, 0) for h in settled) for p in players}
        return Night(self.name, settled, players, totals, pots, self.pending())

    def pending(self):
        """The current hand's verdict when it is over but not yet posted, else None."""
        held = self._held
        if held is None or held.closed or held.ref.status != COMPLETE:
            return None
        return judge(held.row, held.lines())


def _text(row) -> str:
    from ...notation.writer import with_comment

    return with_comment(row.line, row.comment)


def log_rows(rows) -> list:
    """LogRow of each event row, corrections included."""
    seq_of = {r.id: r.seq for r in rows}
    undone = {r.supersedes: r.seq for r in rows if r.supersedes is not None}
    return [LogRow(r.seq, r.entered, r.line, r.comment, r.recorder,
                   seq_of.get(r.supersedes), undone.get(r.id),
                   r.supersedes is None and r.id not in undone) for r in rows]
