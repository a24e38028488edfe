"""`verify` replays the course: the journal read in order, and at each table, for each write
it holds, the same planners the live writer and the importer use (store/write/course.py) asked what
the program would have written at that point of the table's course — then compared, row by
row, value by value, with what the journal holds. A row no command would have written there
(a void or an undo reaching a hand after the next was opened, a second verdict, a hand dealt
again once it has moves, a time earlier than the table's writes before it, a posting no
command makes, a row about a hand that does not exist) is a finding, named with its table,
its hand, its journal row and who wrote it; the table's state goes on as the program's
commands left it (the row is not taken in), so that each later row is judged where the
program would stand.

The table's state is a plans.TableState of its own (`Attempt`, on a `Course`'s hands: the
hand each command finds, its moves and postings as journaled, the laws across its hands);
a command's free values are taken from its rows — the time of the write (held to the
table's order instead), the recorder (its rows' writer), the day a live hand is dated (held
within a day of its opening), the ids the book gave — and every other value must be the
planner's. The moves and postings an `import` row covers are the book's rows (the journal
holds their chain head and count); `verify` holds those rows to it (store/trust/pinned.py).

What the replay leaves of each hand (its verdict columns, the postings that stand) is what
`verify` holds the book's rows to (store/trust/verify.py): one source for both.
"""

from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta, timezone
from typing import Any, NamedTuple

from ... import laws
from ...findings import M
from ...notation.writer import with_comment
from ..write import course
from .journal import stamp, values_of
from ..write.plans import HandState, Ids, TableState
from ..schema.records import HandRow, PostingRow, TableRow
from ..schema.terms import (BET, CLOSE, END, EVENT, FOLLOW, HAND, IMPORT, POSTING, REDEAL, REOPEN,
                            TABLE, UNDO, USE, VERDICT, StoreError, refusal)

NOW = datetime(1, 1, 1, 0, 0, 0, 101010, tzinfo=timezone.utc)  # a write's time, left open by the replay
OPEN_TIME = stamp(NOW)
FIELDS = {  # the names of each kind's values (journal.py), as a finding says which differs
    "table": ("name", "players", "bet", "rules", "options", "sides", "closed", "created", "closed at"),
    "hand": ("table", "number", "players", "dealer", "rules", "options", "bet", "carry_in", "sides", "side_carry",
             "extra_tags", "notes", "source", "opened", "moves", "moves' chain head", "postings", "imported at"),
    "event": ("hand", "seq", "line", "comment", "supersedes", "recorder", "hash", "entered"),
    "posting": ("hand", "table", "account", "player", "kind", "detail", "counterparty", "amount", "reverses",
                "created"),
    "verdict": ("hand", "status", "closed"),
    "use": ("table",),
}
SHAPE = {TABLE: "table", BET: "table", CLOSE: "table", FOLLOW: "table", REOPEN: "table", HAND: "hand",
         REDEAL: "hand", IMPORT: "hand", EVENT: "event", POSTING: "posting", VERDICT: "verdict", USE: "use"}


class Entry(NamedTuple):
    """A journal row (as store/trust/pinned.py walks it), its values parsed when the replay reads it
    (None: not a list of values)."""

    id: int
    kind: str
    subject: int
    text: str
    hash: str
    writer: str | None
    values: list | None = None


class Lost(Exception):
    """The book's rows an `import` row covers are not there as it says (deleted, edited): the
    table's course cannot be followed past it; the book's own checks say what was lost."""


class Mismatch(Exception):
    """A command's rows are not the journal's from here: how far they agreed, and why not."""

    def __init__(self, agreed: int, why: Any):
        super().__init__(why)
        self.agreed, self.why = agreed, why


# ------------------------------------------------------------------ a table's course
class Course:
    """One table's course as its commands left it: its row, its hands (by number; each as a
    plans.HandState, its moves and postings as journaled), which are open and which is the
    latest, the laws across them (worked out when asked), and when the table was last written."""

    def __init__(self, book: Any, table_id: int):
        self.book, self.table_id = book, table_id
        self.table: TableRow | None = None
        self.hands: dict[int, HandState] = {}
        self.postings: dict[int, list[PostingRow]] = {}  # hand id -> its postings as journaled
        self.laws: laws.Table | None = None
        self.last_time: tuple[str, int] | None = None     # (the latest time written, its journal row)
        self.last_kind: str | None = None                # the last command's first row's kind
        self.last_bet = 0                                # the journal row of its last bet change
        self.own: dict[int, int] = {}                    # hand id -> its last row of its own
        self.commands = 0
        self.lost = False                                # past an import whose book rows were lost
        self.opened: set[int] = set()                    # the numbers of its open hands
        self.last_number: int | None = None              # its latest hand's

    def open_numbers(self) -> list[int]:
        return sorted(self.opened)

    def latest(self) -> int | None:
        return self.last_number

    def put(self, hand: HandState) -> None:
        """The hand as a command left it: the open hands and the latest number follow."""
        self.hands[hand.number] = hand
        (self.opened.add if not hand.closed else self.opened.discard)(hand.number)
        if self.last_number is None or hand.number > self.last_number:
            self.last_number = hand.number


class Attempt(TableState):
    """A command planned on a Course (its hands read as copies: the course is changed only
    once the command's rows are the journal's)."""

    def __init__(self, c: Course, recorder: str, today: str | None):
        table = c.table or TableRow(c.table_id, "", "", 0, "", "", [], None, None)  # not made yet
        super().__init__(table, NOW, recorder, Ids(), today)
        self.c = c
        self._laws = c.laws
        self.imported: tuple | None = None  # an import's row, its prepared hand, the book's moves and postings

    def _load(self, number: int) -> HandState | None:
        hand = self.c.hands.get(number)
        if hand is not None and hand.events is None:  # let go of (replaybook._let_go): read again
            self.c.book.reload(self.c, hand)
        return hand.copy() if hand is not None else None

    def _current_number(self) -> int | None:
        opened = self.c.open_numbers()
        return opened[0] if opened else self.c.latest()

    def _latest_number(self) -> int | None:
        return self.c.latest()

    def _read_postings(self, hand_id: int) -> list[PostingRow]:
        return list(self.c.postings.get(hand_id, []))

    def _newest_first(self, below: int | None) -> Iterator[Any]:
        top = self.c.last_number or 0  # read newest first, lazily: the laws stop at the last hand they need
        for number in range(top if below is None else min(top, below - 1), 0, -1):
            if number in self.c.hands:
                yield self.c.hands[number].row

    def player_ids(self, names: Iterable[str]) -> dict[str, int]:
        return self.c.book.player_ids(names)

    def bet_changed_since(self, hand: HandState) -> bool:
        return self.c.last_bet > self.c.own.get(hand.row.id, 0)


# ------------------------------------------------------------------ comparing
def compare(planned: list, entries: list[Entry], at: int, recorder: str, binds: dict[int, int]) -> dict:
    """The plan's journal rows against the entries from `at`: Mismatch where they differ; the
    times of the rows where the plan left the time open, {(shape, field, row id): time}."""
    times: dict = {}
    for j, (kind, row, extra) in enumerate(planned):
        if at + j >= len(entries):
            raise Mismatch(j, M("the program writes a row of kind {kind} next", kind=kind))
        entry = entries[at + j]
        if entry.kind != kind:
            raise Mismatch(j, M("the program writes a row of kind {kind} here, not of kind {found}", kind=kind,
                                found=entry.kind))
        if entry.writer != recorder:
            raise Mismatch(j, M("a write by {writer} amid rows written by {recorder}", writer=entry.writer,
                                recorder=recorder))
        row = bind(row, binds, entry.subject)
        if row.id != entry.subject:
            raise Mismatch(j, M("the program writes this of row {expected}, not of row {subject}", expected=row.id,
                                subject=entry.subject))
        expected, found = values_of(kind, row, extra), entry.values
        if found is None or len(found) != len(expected):
            raise Mismatch(j, M("its text is not one of a row of kind {kind}", kind=kind))
        if expected == found:
            continue
        shape = SHAPE[kind]
        for i, (name, e, f) in enumerate(zip(FIELDS[shape], expected, found)):
            if e == OPEN_TIME and (f is None or isinstance(f, str)):
                times[("hand" if shape == "verdict" else shape, TIMED.get((shape, i), name), entry.subject)] = f
                continue
            if e != f:
                raise Mismatch(j, M("its {field} is {found}, where the program writes {expected}", field=name,
                                    found=_shown(f), expected=_shown(e)))
    return times


def bind(row: Any, binds: dict[int, int], subject: int) -> Any:
    """The planned row with its placeholders made the ids the journal gave them (its own id,
    unbound, becomes `subject`)."""
    if row.id is not None and row.id < 0 and row.id not in binds:
        binds[row.id] = subject
    changed = {f: binds[v] for f in ("id", "hand_id", "table_id", "supersedes", "reverses")
               if isinstance(v := getattr(row, f, None), int) and v < 0 and v in binds}
    return row._replace(**changed) if changed else row


# the row's field each open time of a row's values is (an import row's time is when it closed)
TIMED = {("hand", 17): "closed", ("table", 8): "closed"}


def _parsed(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc) if text else None  # journal.stamp's form


def _timed(row: Any, shape: str, field: str, when: dict) -> Any:
    key = (shape, field, row.id)
    return row._replace(**{field: _parsed(when[key])}) if key in when else row


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:79] + "…"


# ------------------------------------------------------------------ the commands
class Command(NamedTuple):
    name: str
    plan: Any   # plan(attempt) -> None, the rows planned into attempt.plan


def candidates(c: Course, entries: list[Entry], at: int) -> list[Command]:
    """The commands whose rows may begin with the entry at `at`, each with what it takes from
    the rows (a line, a bet, a dealer and side games, a reason)."""
    entry = entries[at]
    kind, values = entry.kind, entry.values or []
    dealt = _dealt(entries, at, entry)
    if kind == TABLE:
        return [Command("table new", lambda a: _table_new(a, values))]
    if kind == BET:
        return [Command("table bet", lambda a: course.set_bet(a, _bet(values)))]
    if kind == FOLLOW:
        return [Command("import", lambda a: _follow(a))]
    if kind == IMPORT:
        return [Command("import", lambda a: _import(a, entry))]
    if kind == CLOSE:
        return [Command("table close", course.close_table)]
    if kind == REOPEN:
        return [Command("table reopen", course.reopen_table)]
    if kind == USE:
        return [Command("table use", lambda a: a.plan.journal.append((USE, a.table, None)))]
    if kind in (HAND, REDEAL):
        return [Command("hand new", lambda a: course.hand_new(a, *dealt))]
    if kind == EVENT and len(values) > 3:
        line, comment = values[2], values[3]
        if line == UNDO:
            return [Command("undo", lambda a: course.undo(a, _at(a)))]
        if line == "void":
            return [Command("hand void", lambda a: course.void(a, _at(a), comment or ""))]
        found = [Command("a line", lambda a: course.record(a, _at(a), with_comment(line, comment)))]
        if line == END:
            found += [Command("hand new", lambda a: course.hand_new(a, *dealt)),
                      Command("table close", course.close_table)]
        return found
    return [Command("undo", lambda a: course.undo(a, _at(a))), Command("table close", course.close_table),
            Command("hand new", lambda a: course.hand_new(a, *dealt)), Command("table reopen", course.reopen_table)]


def _bet(values: list) -> int:
    if len(values) < 3 or not isinstance(values[2], int):
        raise StoreError(M("its text is not a table's"))
    return values[2]


def _at(a: Attempt) -> HandState:
    hand = a.current()
    if hand is None:
        raise StoreError(M("no hand yet at table {table}", table=a.table.name))
    return hand


def _dealt(entries: list[Entry], at: int, first: Entry) -> tuple:
    """(dealer, side games) of the hand the next `hand` or `redeal` row of the write deals."""
    for entry in entries[at:at + 64]:
        if entry.writer != first.writer:
            break
        if entry.kind in (HAND, REDEAL) and entry.values and len(entry.values) >= 14:
            from ..schema.codecs import SIDES

            return entry.values[3], SIDES.decode(entry.values[8])
    return None, None


def _table_new(a: Attempt, values: list) -> None:
    if len(values) < 9:
        raise StoreError(M("its text is not a table's"))
    from ..schema.codecs import SIDES

    name, players, bet, rules, options, sides = values[:6]
    row = course.new_table(name, str(players).split(), bet, rules, options, SIDES.decode(sides), now=NOW,
                           taken=a.c.table is not None, table_id=a.c.table_id)
    a.add_table(row, [])


def _follow(a: Attempt) -> None:
    if a.c.last_kind not in (IMPORT, FOLLOW):
        raise StoreError(M("the table follows its last hand imported only after an import"))
    last = a.latest()
    if last is None or last.row.source != "import":
        raise StoreError(M("its last hand was not imported"))
    course.follow_import(a, last.row)


def _import(a: Attempt, entry: Entry) -> None:
    """An `import` row: the hand its moves make (the book's, as many as the row says), judged and
    prepared as the importer prepares a record's hand (judging.prepare_hand), planned as the importer
    plans it; the book's postings of it must be the ones planned."""
    values = entry.values or []
    if len(values) < 18 or not isinstance(values[14], int) or not isinstance(values[16], int) or a.table is None:
        raise StoreError(M("its text is not an imported hand's"))
    every, paid_all = a.c.book.imported(entry)
    if len(every) < values[14]:
        raise Lost()
    moves, paid = every[:values[14]], paid_all[:values[16]]
    try:
        prepared = prepare(entry.subject, values, moves, a.table.name, entry.writer or "")
    except StoreError:
        raise Lost() from None
    if prepared.head() != values[15]:
        raise Lost()
    errors, _warnings = course.import_hand(a, prepared)
    if errors:
        raise StoreError(M("{code} {message}", code=errors[0].code, message=errors[0].message))
    planned = a.plan.postings  # the import's own (not journaled a row apiece: its row covers them)
    key = ("account", "player_id", "kind", "detail", "counterparty", "amount", "table_id", "reverses")
    if [tuple(getattr(p, k) for k in key) for p in paid] == [tuple(getattr(p, k) for k in key) for p in planned]:
        made = list(paid)
    else:  # the book's differ: the course keeps what the program posts (verify names the difference)
        made = [p._replace(id=paid[i].id if i < len(paid) else p.id) for i, p in enumerate(planned)]
    hand = a.latest()
    if hand is not None:
        hand.events = list(moves)
        a._postings[hand.row.id] = made
    a.imported = (entry, prepared, every, paid_all)  # for the book's rows of it (replaybook._audited)


def prepare(hand_id: int, values: list, moves: list, table: str, who: str) -> Any:
    """An imported hand as the importer prepared it (judging.Prepared): its record made again
    from its row's setup and tags (the import row's) and its moves (the book's), judged. A hand
    tagged Void (N9.6) was stored with a `void` row after its moves, holding the reason."""
    from ...engine.replay import Referee
    from ...engine.setup import SetupError
    from ...notation.model import HandRecord, Tag
    from ...notation.parser import parse_event
    from ...referee import hand_report, void_report
    from ..write.judging import prepare_hand
    from ..schema.records import VOID_LINE, hand_setup

    void = moves[-1].comment if moves and moves[-1].line == VOID_LINE and moves[-1].supersedes is None else None
    if void is not None:
        moves = moves[:-1]

    row = hand_row_of(hand_id, values)
    record = HandRecord(1, lead=row.notes.split("\n") if row.notes is not None else [])
    record.tags = [Tag(name, value, 0) for name, value in row.extra_tags]  # the setup's: its values, below
    for number, move in enumerate(moves, 1):
        event = parse_event(move.line, number)
        event.comment = move.comment
        record.events.append(event)
    try:  # the setup as its row's values make it (as a stored hand is judged: records.hand_setup)
        setup = hand_setup(row)
        result = next((v for name, v in row.extra_tags if name == "Result"), None)
        if result is not None:
            setup.result = [] if result == "none" else result.split()
    except SetupError as e:
        raise StoreError(refusal(e.finding)) from None
    setup.void = void
    report = void_report(record, setup) if void is not None else hand_report(record, setup,
                                                                             Referee(setup).run(record.events))
    prepared, problem = prepare_hand(1, table, report, who, [move.line for move in moves])
    if prepared is None:
        raise StoreError(M("{code} {message}", code=problem[1], message=problem[2]))
    return prepared


def today_of(entries: list[Entry], at: int) -> str | None:
    """The Date a live hand dealt by this write is dated (the day of its `hand` or `redeal` row),
    if within a day of when it was opened (else a day no write gives: the row then differs)."""
    first = entries[at]
    for entry in entries[at:at + 64]:
        if entry.writer != first.writer:
            break
        if entry.kind in (HAND, REDEAL) and entry.values and len(entry.values) >= 14:
            from ..schema.codecs import TAGS

            try:
                day = dict(TAGS.decode(entry.values[10])).get("Date")
                opened = datetime.fromisoformat(entry.values[13])
                if day is not None and abs(datetime.fromisoformat(day) - opened) <= timedelta(days=2):
                    return day
            except (ValueError, TypeError, AttributeError):
                return None
            return None
    return None


def attempt(c: Course, command: Command, entries: list[Entry], at: int) -> tuple[Attempt, dict, dict]:
    """The command planned on the course and compared with the entries from `at`: (the attempt,
    its binds, the times of its rows). Mismatch, or StoreError/Refused: the program's refusal."""
    first = entries[at]
    a = Attempt(c, first.writer or "", today_of(entries, at))
    command.plan(a)
    binds: dict[int, int] = {}
    if not a.plan.journal:
        raise Mismatch(0, M("the program writes nothing here"))
    times = compare(a.plan.journal, entries, at, first.writer or "", binds)
    return a, binds, times



def take(c: Course, a: Attempt, binds: dict[int, int], entries: list[Entry], at: int, when: dict) -> None:
    """The attempt's rows are the journal's: the course takes its hands and postings as written,
    each time the planner left open the journal's (`when`: compare's)."""
    for number, hand in a._hands.items():  # copies of the course's hands, as the command left them
        row = _timed(_timed(bind(hand.row, binds, hand.row.id), "hand", "opened", when), "hand", "closed", when)
        hand.row = row
        hand.events = [_timed(bind(e, binds, e.id), "event", "entered", when) if e.id < 0 else e
                       for e in hand.events]
        c.put(hand)
    for hand_id, rows in a._postings.items():
        c.postings[binds.get(hand_id, hand_id)] = [_timed(bind(p, binds, p.id), "posting", "created", when)
                                                   if p.id < 0 else p for p in rows]
    c.table = _timed(_timed(a.table._replace(id=c.table_id), "table", "created", when), "table", "closed", when)
    c.laws = a._laws
    c.commands += 1
    if a.plan.journal[0][0] != USE:
        c.last_kind = a.plan.journal[0][0]
    for j, (kind, row, _extra) in enumerate(a.plan.journal):
        entry = entries[at + j]
        if kind == BET:
            c.last_bet = entry.id
        elif kind in (HAND, IMPORT, REDEAL, VERDICT):
            c.own[entry.subject] = entry.id


def hand_row_of(hand_id: int, values: list) -> HandRow:
    """A hand's row from its journal text (journal.hand_values), open."""
    from ..schema.codecs import POTS, SIDES, TAGS

    table_id, number, seats, dealer, rules, options, bet, carry_in, sides, side_carry, tags, notes, source, opened \
        = values[:14]
    when = datetime.fromisoformat(opened).replace(tzinfo=timezone.utc) if opened else None
    return HandRow(hand_id, table_id, number, seats, dealer, rules, options, bet, carry_in, SIDES.decode(sides),
                   POTS.decode(side_carry), TAGS.decode(tags), notes, source, None, "open", None, None, "",
                   None, None, when, None)


__all__ = ["Course", "Attempt", "Entry", "Mismatch", "candidates", "attempt", "take", "compare", "NOW"]
