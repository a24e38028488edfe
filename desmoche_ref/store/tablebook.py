"""The scorebook service: one table of a book, as every front end records at it.

The verbs, `rec`, `undo`, `hand new`, `table …`, `play` and `import` all go through here, so a
line gets the same answer whoever typed it. A `TableBook` holds the table's latest hand as
the book had it when last read or written (its referee, its move number): `play` keeps one
for the night, a single-shot verb makes one per call. Each write is one transaction that
first locks the table's row (PostgreSQL; SQLite writes take the whole book's lock), reads the
hand afresh under that lock and refuses with `HandChanged` if another recorder moved it since
this one looked — so the loser of any race changes nothing (exit 3).

It returns plain values and raises only `Refused` (a finding: the rules forbid the line),
`HandChanged` (with the move the hand is at) or `StoreError` (a message). Each policy lives in
one method here; docs/rulings.md lists them:
- a line the rules refuse gets its rule code, whoever typed it (an unknown player is N3.1);
- after the end (N4.4) a hand takes only `show`, `end` and the forgiving of the foul that
  ended it, closed or not; on a closed hand such a line is stored, and the hand's postings
  are reversed and posted again only if its settlement changed;
- a line sent twice is stored once (`Recorded.unchanged`, store/repeats.py): a move of the
  hand sent again, by its position or because its effect is in the book already;
- a hand voided takes no move; a closed table is opened again by `undo` or `reopen`;
- live messages cite the move number (the event's seq), as `hand log` shows it.
"""

from typing import NamedTuple

from sqlmodel import func, select

from ..engine.replay import COMPLETE
from ..findings import COMMAND_LINE, M, error
from ..limits import EVENTS, too_long, too_many
from ..notation.parser import parse_event, split_comment
from ..notation.writer import write_event
from ..referee import judge_text
from . import course, hands as H
from .codecs import POTS, SIDES
from .course import current_hand, follow_on, undo_hand_new, untouched, void_hand
from .hands import NightHand  # noqa: F401 (tablebook.NightHand: the night's hands)
from .models import BookTable, Event, Hand, Setting
from .live import at_the_table, claims_made_void, standing_findings
from .repeats import at_position, repeated
from .records import void_record
from .terms import HandChanged, Refused, StoreError, closed_table

__all__ = ["TableBook", "HandChanged", "Refused", "StoreError", "adopt_table", "create_table",
           "list_tables", "use_table"]


class Recorded(NamedTuple):
    """What recording a line did."""

    seq: int              # its move number (the hand's move count when unchanged)
    line: str             # the canonical line stored (N7)
    fouls: list           # fouls that came with it (findings, move-numbered)
    warnings: list        # warnings that came with it
    closing: object       # the HandReport posted when the line closed the hand, else None
    unchanged: bool       # an identical line that changed nothing: not stored
    number: int           # the hand it went to


class Undone(NamedTuple):
    seq: int              # the undo row's move number
    target: int           # the move taken back
    line: str             # its line
    reopened: bool        # a closed hand was reopened (its postings reversed)
    number: int           # the hand it went to
    hand_new: bool        # it took back the `hand new` that dealt the hand after it


class Voided(NamedTuple):
    seq: int              # the `void` row's move number
    number: int           # the hand voided
    reason: str


class HandInfo(NamedTuple):
    number: int
    dealer: str
    bet: int              # cents
    carry_in: int         # cents
    side_carry: dict      # {game: cents}
    sides: list           # [(game, stake cents, [names])]


class Opened(NamedTuple):
    closed_number: int | None   # the hand closed first, if one was
    closed: object              # its HandReport, or None
    hand: HandInfo
    redealt: bool               # the hand had no move: dealt again, same number
    warnings: list = []         # the laws' warnings on the new hand (laws.Breach: N9.3, the dealer)
    already: int | None = None  # dealt already by the dealer named (course.dealt_already): its move, nothing done


class TableClosed(NamedTuple):
    closed_number: int | None
    closed: object              # the HandReport of the hand it closed, or None
    refund: dict                # {pot: {player: cents}} returned per R11.5


class TableReopened(NamedTuple):
    name: str
    returned: dict              # {pot: {player: cents}} the close had returned, in the pots again


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


class _Held:
    """The table's latest hand as this TableBook last read or wrote it."""

    __slots__ = ("hand_id", "number", "closed", "seq", "last_hash", "lines", "moves", "ref", "void")

    def __init__(self, hand_id, number, closed, seq, last_hash, lines, moves, ref, void=False):
        self.hand_id, self.number, self.closed = hand_id, number, closed
        self.seq, self.last_hash, self.lines, self.moves, self.ref = seq, last_hash, lines, moves, ref
        self.void = void  # closed void: no move is recorded in it


# ------------------------------------------------------------------ tables
def create_table(book, name: str, players: list, bet: int, rules: str = "desmoche",
                 options: str = "", sides=()) -> TableInfo:
    """A new table; it becomes the table in use. Its values are judged as a hand's tags."""
    with book.write() as s:
        table = H.create_table(s, name, players, bet, rules, options, sides)
        return _table_info(table, 0, True)


def list_tables(book) -> list:
    """Every table of the book (TableInfo), by name."""
    with book.read() as s:
        current = s.get(Setting, H.LAST_TABLE)
        counts = dict(s.exec(select(Hand.table_id, func.count()).group_by(Hand.table_id)).all())
        return [_table_info(t, counts.get(t.id, 0), current is not None and current.value == t.name)
                for t in s.exec(select(BookTable).order_by(BookTable.name))]


def use_table(book, name: str) -> None:
    with book.write() as s:
        H.use_table(s, H.find_table(s, name))


def adopt_table(book, names) -> str | None:
    """After an import: when the book has no table in use yet (a new book), the last of the
    tables `names` that the book holds becomes it, so that `hand show --hand 3` reads the table
    just imported; a table already in use stays (a recorder at the table goes on there).
    Returns the table now in use, or None."""
    with book.write() as s:
        current = s.get(Setting, H.LAST_TABLE)
        if current is not None:
            return current.value
        held = {t.name: t for t in s.exec(select(BookTable).where(BookTable.name.in_(list(names))))}
        chosen = next((held[n] for n in reversed(list(names)) if n in held), None)
        if chosen is not None:
            H.use_table(s, chosen)
        return chosen.name if chosen is not None else None


def _table_info(table, hands: int, in_use: bool) -> TableInfo:
    return TableInfo(table.name, table.players.split(), table.bet, table.rules, table.options,
                     SIDES.decode(table.sides), hands,
                     table.closed is not None, in_use)


# ------------------------------------------------------------------ one table
class TableBook:
    """One table of the book (named, else the table last used). `use=True` makes it the
    table the commands without --table go on at."""

    def __init__(self, book, table: str | None = None, use: bool = False):
        self.book, self.use = book, use
        self._cursor = None  # `play` sending a hand again: the standing move its next line may be
        with book.read() as s:
            row = H.find_table(s, table)
            self.table_id, self.name = row.id, row.name
            self.closed_table = row.closed is not None
            hand = current_hand(s, row)
            self._held = None if hand is None else self._read_hand(s, hand)

    def make_current(self) -> None:
        """Make this the table the commands without --table go on at."""
        with self.book.write() as s:
            H.use_table(s, H.lock_table(s, self.table_id))

    def _lock(self, session):
        """The table's row, locked for this write (and made current if asked)."""
        table = H.lock_table(session, self.table_id)
        if self.use:
            H.use_table(session, table)
        return table

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
        """Hold the table's latest hand as the book has it now (one replay of its moves)."""
        self._cursor = None
        with self.book.read() as s:
            table = s.get(BookTable, self.table_id)
            self.closed_table = table.closed is not None
            hand = current_hand(s, table)
            self._held = None if hand is None else self._read_hand(s, hand)

    def _read_hand(self, session, hand) -> _Held:
        rows = H.events(session, hand)
        live = H.live_events(rows)
        ref = H.judge_rows(hand, live)[1]
        return _Held(hand.id, hand.number, hand.closed is not None, rows[-1].seq if rows else 0,
                     rows[-1].hash if rows else "", [_text(r) for r in live], [r.seq for r in live], ref,
                     hand.status == H.VOID)

    def hand(self) -> _Held:
        """The hand held; StoreError when the table has none yet."""
        held = self._held
        if held is None:
            self.reload()  # another recorder may have dealt one since this one looked
            if self._held is not None:
                raise HandChanged(self._held.seq, self._held.number)
            raise StoreError(M("no hand yet at table {table}: start one with "
                               "`desmoche-ref hand new --dealer NAME`", table=self.name))
        return held

    def _open_table(self) -> None:
        if self.closed_table:
            raise StoreError(closed_table(self.name))

    def _held_at(self, expect_seq):
        """The hand held, for a write at an open table; HandChanged if it is not at the move
        `expect_seq` the recorder saw (None: whatever it is at)."""
        self._open_table()
        held = self.hand()
        if expect_seq is not None and expect_seq != held.seq:
            raise HandChanged(held.seq)
        return held

    # ------------------------------------------------------------ writing
    def record(self, typed: str, expect_seq: int | None = None, follow: bool = False) -> Recorded:
        """Judge one notation line (`verb args  # comment`) on the hand and store it.

        `expect_seq`: the move number the recorder saw; HandChanged if the hand is elsewhere —
        unless the move after it is this very line (two recorders, one move: stored once).
        `follow`: the sender (`play`, piped) may be sending the hand again line by line: a line
        that is the move after the last one it repeated is that move (store/repeats.py)."""
        self._open_table()
        held = self.hand()
        body, comment = split_comment(typed)
        if not body.strip() or "\n" in typed or "\r" in typed:
            raise StoreError(M("write one notation line, e.g. `draw Beto 2d` (N4)"))
        ev = parse_event(body.strip(), held.seq + 1)
        ev.comment = comment
        text = write_event(ev) if ev.error is None else None
        stale = expect_seq is not None and expect_seq != held.seq
        if text is not None:
            seq = at_position(held.lines, held.moves, text, self._believed(held, expect_seq, follow))
            if seq is not None:
                return self._already(held, seq, text, follow)
        self._cursor = None
        if stale:
            raise HandChanged(held.seq)
        if held.void:  # abandoned (`hand void`): no move more; its void taken back, it goes on
            raise StoreError(M("hand {number} at table {table} is void: `{new}` deals the next hand, `{prog}undo` "
                               "takes the void back", number=held.number, table=self.name,
                               new=COMMAND_LINE["new"], prog=COMMAND_LINE["prog"]))
        if ev.error is not None:
            raise Refused(ev.error)
        trial = held.ref.fork()
        finding = at_the_table(held.ref, ev, trial.apply(ev))
        full = text if comment is None else f"{text} #{comment}"
        seq = repeated(ev, text, held.lines, held.moves, held.ref, trial, finding,
                       lambda: self._same_verdict(held, full))
        if seq is not None:
            return self._already(held, seq, text, follow)
        if finding is not None:
            self._check_unchanged()  # refused on the hand as the book has it, not a stale one
            raise Refused(finding)
        if too_long(len(full)):  # N1.5, for the line as the book keeps it
            raise Refused(error(held.seq + 1, "N1.5", too_long(len(full))))
        if len(held.lines) >= EVENTS:  # N1.5: the hand's record would hold one event too many
            raise Refused(error(held.seq + 1, "N1.5", too_many("events", EVENTS)))
        return self._store(held, ev, text, comment, full, trial)

    def _store(self, held, ev, text: str, comment, full: str, trial) -> Recorded:
        """The line judged and accepted, written in one transaction (closing the hand if it ends
        it); a line another recorder stored first at the same move is answered as stored once."""
        closing = waiting = None
        try:
            with self.book.write() as s:
                hand = self._locked_hand(s, held)
                row = H.insert_event(s, hand, text, comment, held.seq, held.last_hash)
                if trial.status == COMPLETE and (held.closed or ev.verb == "end"):
                    closing = self._post(s, hand, held)
                    if closing is not None and not held.closed:  # the hand waiting after it is dealt
                        waiting = follow_on(s, self._lock(s), hand)
        except HandChanged:
            self.reload()
            now = self._held
            seq = None if now is None or now.hand_id != held.hand_id else \
                at_position(now.lines, now.moves, text, len(held.lines))
            if seq is not None:  # the other recorder stored this very line: stored once
                return Recorded(seq, text, [], [], None, True, now.number)
            raise
        before = held.ref
        held.ref, held.seq, held.last_hash = trial, row.seq, row.hash
        held.lines.append(full)
        held.moves.append(row.seq)
        held.closed = held.closed or closing is not None
        done = Recorded(row.seq, text, [f for f in trial.report.fouls if f not in before.report.fouls],
                        [w for w in trial.report.warnings if w not in before.report.warnings]
                        + claims_made_void(before, trial, row.seq), closing, False, held.number)
        if waiting is not None:
            self.reload()  # the table is at the hand that waited
        return done

    def _believed(self, held, expect_seq, follow: bool):
        """Where the sender believes the line goes (an index into the standing moves), or None:
        after the move `expect_seq` it saw, or after the move a `play` sending the hand again
        last repeated."""
        if expect_seq is not None and expect_seq != held.seq:
            return held.moves.index(expect_seq + 1) if expect_seq + 1 in held.moves else None
        return self._cursor if follow else None

    def _already(self, held, seq: int, text: str, follow: bool) -> Recorded:
        """The line is move `seq` sent again: nothing stored (HandChanged if the book moved the
        hand since it was read); a sender `follow`ed goes on from the move after it."""
        self._check_unchanged()
        self._cursor = held.moves.index(seq) + 1 if follow else None
        return Recorded(seq, text, [], [], None, True, held.number)

    def _post(self, session, hand, held):
        """Close the hand (or, closed already, settle it again if what it settles changed)."""
        if held.closed:  # a move after its `end`: the settlement stands unless it changed
            return H.settle_again(session, hand)
        report = H.judge_rows(hand, H.live_events(H.events(session, hand)))[0]
        return H.close_hand(session, hand, report)

    def _same_verdict(self, held, full: str) -> bool:
        """Whether the hand with `full` once more gives exactly the verdict it gives now."""
        with self.book.read() as s:
            hand = s.get(Hand, held.hand_id)
        return H.judge(hand, held.lines).as_json() == H.judge(hand, held.lines + [full]).as_json()

    def _locked_hand(self, session, held):
        """The held hand's row, the table locked; HandChanged if it is not as held."""
        table = self._lock(session)
        if table.closed is not None:
            raise StoreError(closed_table(self.name))
        hand = current_hand(session, table)
        seq = H.current_seq(session, hand) if hand is not None else 0
        if hand is None or hand.id != held.hand_id:
            raise HandChanged(seq, hand.number if hand is not None else None)
        if seq != held.seq or (hand.closed is not None) != held.closed:
            raise HandChanged(seq)
        return hand

    def _check_unchanged(self) -> None:
        """HandChanged (the hand read again) if the book moved the hand since we held it."""
        held = self._held
        with self.book.read() as s:
            hand = current_hand(s, s.get(BookTable, self.table_id))
            seq = H.current_seq(s, hand) if hand is not None else 0
            same = hand is not None and hand.id == held.hand_id and seq == held.seq \
                and (hand.closed is not None) == held.closed
        if not same:
            self.reload()
            raise HandChanged(seq, None if hand is None or hand.id == held.hand_id else hand.number)

    def undo(self, expect_seq: int | None = None):
        """Supersede the hand's last standing row; a closed hand reopens (postings reversed).
        On a hand with no move it takes back the `hand new` that dealt it: the hand before
        reopens (course.undo_hand_new). At a closed table it takes back the close: the table
        opens again (`reopen`, its TableReopened)."""
        if self.closed_table:
            return self.reopen()
        held = self._held_at(expect_seq)
        try:
            with self.book.write() as s:
                hand = self._locked_hand(s, held)
                hand_new = untouched(s, hand)
                if hand_new:
                    hand, row = undo_hand_new(s, self._lock(s), hand)
                    was_closed = True
                else:
                    was_closed = hand.closed is not None
                    row = H.undo(s, hand, held.seq)
                target = s.get(Event, row.supersedes)
                done = Undone(row.seq, target.seq, target.line, was_closed and hand.closed is None,
                              hand.number, hand_new)
        finally:
            self.reload()
        return done

    def void(self, reason: str, expect_seq: int | None = None) -> Voided:
        """`hand void --reason TEXT`: the hand being played closed void (course.void_hand)."""
        held = self._held_at(expect_seq)
        try:
            with self.book.write() as s:
                hand = self._locked_hand(s, held)
                row = void_hand(s, self._lock(s), hand, reason)
                done = Voided(row.seq, hand.number, row.comment)
        finally:
            self.reload()
        return done

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
        already = None
        try:
            with self.book.write() as s:
                table = self._lock(s)
                previous = current_hand(s, table)
                now_at = previous.number if previous is not None else 0
                if now_at != expect_number:
                    raise HandChanged(H.current_seq(s, previous), now_at)
                if course.dealt_already(s, previous, dealer, sides, over_too=follow):
                    closed, new, warnings, already = None, previous, [], H.current_seq(s, previous)
                else:
                    closed, new, warnings = course.open_hand(s, table, dealer, sides)
                info = hand_info(new)
        finally:
            self.reload()
        if already is not None and follow:
            self._cursor = 0
        return Opened(info.number - 1 if closed is not None else None, closed, info,
                      closed is None and info.number == now_at and already is None, warnings, already)

    def set_bet(self, cents: int) -> int:
        """A new bet from the next hand (R2.2, R2.3: laws.bet_change)."""
        with self.book.write() as s:
            H.set_bet(s, self._lock(s), cents)
        return cents

    def close(self) -> TableClosed:
        """The table breaks up: its last hand closed, carried pots returned (R11.5)."""
        try:
            with self.book.write() as s:
                closed, refund = course.close_table(s, self._lock(s))
        finally:
            self.reload()
        number, report = closed if closed is not None else (None, None)
        return TableClosed(number, report, refund)

    def reopen(self) -> "TableReopened":
        """`table reopen` (or `undo` after `table close`): the table open again as it was before
        its close (course.reopen_table: the R11.5 returns taken back)."""
        try:
            with self.book.write() as s:
                returned = course.reopen_table(s, self._lock(s))
        finally:
            self.reload()
        return TableReopened(self.name, returned)

    # ------------------------------------------------------------ reading
    def view(self, number: int | None = None) -> HandView:
        """A hand of the table (the one it is at by default) as the book has it."""
        with self.book.read() as s:
            hand = course.find_hand(s, s.get(BookTable, self.table_id), number)
            rows = H.events(s, hand)
        live = H.live_events(rows)
        lines = [_text(r) for r in live]
        moved, ref = H.judge_rows(hand, live)
        log = log_rows(rows)
        voided = H.void_row(rows) if hand.status == H.VOID else None
        if voided is not None and lines:  # voided at the table: its record as export writes it (N9.6)
            record = void_record(hand, lines, voided.comment)
            report = judge_text(record).hands[0]
        else:
            record, report = H.record_text(hand, lines), H.judge(hand, lines)
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
        with self.book.read() as s:
            hand = s.get(Hand, held.hand_id)
        return H.judge(hand, held.lines)


def _text(row) -> str:
    return row.line if row.comment is None else f"{row.line} #{row.comment}"


def hand_info(hand) -> HandInfo:
    return HandInfo(hand.number, hand.dealer, hand.bet, hand.carry_in,
                    {g: c for g, c in POTS.decode(hand.side_carry).items() if c},
                    SIDES.decode(hand.sides))


def log_rows(rows) -> list:
    """LogRow of each event row, corrections included."""
    seq_of = {r.id: r.seq for r in rows}
    undone = {r.supersedes: r.seq for r in rows if r.supersedes is not None}
    return [LogRow(r.seq, r.entered, r.line, r.comment, r.recorder,
                   seq_of.get(r.supersedes), undone.get(r.id),
                   r.supersedes is None and r.id not in undone) for r in rows]
