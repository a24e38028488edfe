"""A write is a value: the rows a command appends, as a `Plan`, made by a planner (store/write/course.py)
from a table's state (`TableState`) and the command. Pure: no SQL, no session; the one writer
(store/write/book_writer.py) stores a list of plans in one transaction, and `verify` (store/trust/course_replay.py)
asks the same planners what the program would have written at each point of a table's course.

- `Plan`: the rows to insert (tables, hands, moves, postings; a new row's id is a placeholder,
  a negative number the writer turns into the database's), the rows to update in place (a
  hand's verdict or setup dealt again, a table's bet, seats or close: the columns store/trust/roles.py
  lets a recorder update), and the journal rows, in order, each naming the row it covers as it
  stood then. `Ids` hands out the placeholders.
- `HandState`: a hand as a command finds it — its row, its moves (every event row, undone or
  not), and the referee of its moves that stand, built when first asked for.
- `TableState`: a table as a command finds it. What it reads (its hands, their postings, the
  laws across its hands, the players' ids, its journal's last bet change) is the subclass's:
  the book (store/write/tablestate.py, under the table's lock) or the journal replayed (`verify`).
  Every row a planner adds goes into the plan AND into the state (`add_event`, `update_hand`,
  …), so the rest of the command sees the table as it will stand.
"""

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from ... import laws
from ...engine.replay import Referee
from ...engine.setup import read_setup
from ...findings import M
from ...notation.parser import parse_text
from ...notation.writer import with_comment
from ...referee import hand_report
from ..schema.records import (EventRow, HandRow, PostingRow, TableRow, chain_hash, hand_setup,
                              live_events, standing_rows, tagged_text)
from ..schema.terms import (BET, CLOSE, EVENT, FOLLOW, HAND, IMPORT, POSTING, REDEAL, TABLE,
                            VERDICT, StoreError, refusal)

TABLE_KINDS = (TABLE, BET, CLOSE, FOLLOW)


class Ids:
    """Placeholders for the ids of new rows: -1, -2, … (the writer gives each the database's)."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last = 0

    def new(self) -> int:
        self.last -= 1
        return self.last


class Imported(NamedTuple):
    """What an `import` journal row covers beyond the hand's row: its moves (how many, their
    chain head, and the importer's rows: judging.Prepared), how many postings, and when."""

    moves: int
    head: str
    postings: int
    when: Any
    prepared: Any


class Plan:
    """The rows one command (or a batch of them) appends, in the order the journal says them."""

    __slots__ = ("tables", "hands", "events", "postings", "bulk", "updates", "journal", "players")

    def __init__(self) -> None:
        self.tables: list[TableRow] = []      # inserted
        self.hands: list[HandRow] = []        # inserted
        self.events: list[EventRow] = []      # inserted, each journaled
        self.postings: list[PostingRow] = []  # inserted (id None: an import's, covered by its row)
        self.bulk: list[tuple[int, Any]] = []  # (hand id, judging.Prepared): an imported hand's moves
        self.updates: list[tuple[str, Any, tuple]] = []  # (table, its row as it stands after, columns)
        self.journal: list[tuple[str, Any, Any]] = []   # (kind, the row covered as it stood, extra)
        self.players: list[str] = []          # names that must have a player row

    def __bool__(self) -> bool:
        return bool(self.journal or self.updates or self.tables or self.players)

    def extend(self, other: "Plan") -> None:
        for name in self.__slots__:
            getattr(self, name).extend(getattr(other, name))


# ------------------------------------------------------------------ a hand
class HandState:
    """A hand as a command finds it: its row, every event row of it, and (when asked) the
    referee of its moves that stand, each numbered by its move number (seq)."""

    __slots__ = ("row", "events", "_ref", "_report")

    def __init__(self, row: HandRow, events: list[EventRow], ref: Any = None):
        self.row, self.events, self._ref, self._report = row, events, ref, None

    def copy(self) -> "HandState":
        out = HandState(self.row, list(self.events), self._ref)
        out._report = self._report
        return out

    @property
    def number(self) -> int:
        return self.row.number

    @property
    def closed(self) -> bool:
        return self.row.closed is not None

    @property
    def seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    @property
    def last_hash(self) -> str:
        return self.events[-1].hash if self.events else ""

    def standing(self) -> list[EventRow]:
        return standing_rows(self.events)

    def live(self) -> list[EventRow]:
        return live_events(self.events)

    def untouched(self) -> bool:
        """Open, and no row of it stands (never dealt, or every move taken back)."""
        return not self.closed and not self.standing()

    def lines(self) -> list[str]:
        return [with_comment(r.line, r.comment) for r in self.live()]

    def judged(self) -> tuple[Any, Referee]:
        """(HandReport, Referee) of its moves that stand, move-numbered (judge_rows)."""
        if self._ref is None or self._report is None:
            self._report, self._ref = judge_rows(self.row, self.live())
        return self._report, self._ref

    @property
    def ref(self) -> Referee:
        if self._ref is None:
            self.judged()
        return self._ref

    def moved_on(self, ref: Any = None) -> None:
        """Its rows changed: the referee given (a line applied to a fork), else built again."""
        self._ref, self._report = ref, None


def record_text(hand: Any, lines: Iterable[str]) -> str:
    """The hand as a .dsm record (N7): its tags, then these lines (`line #comment`)."""
    return tagged_text(hand_setup(hand).tags() + list(hand.extra_tags), lines)


def judge(hand: Any, lines: list[str]) -> Any:
    """The referee's verdict (HandReport) on the hand with these lines, as `check` gives it."""
    return judged_record(hand, parse_text(record_text(hand, lines)).hands[0])[0]


def judge_rows(hand: Any, live: list[EventRow]) -> tuple[Any, Referee]:
    """(HandReport, Referee) of the hand with its standing event rows, each event numbered by
    its move number (seq), as the recorder sees it (live output cites moves, not lines)."""
    record = parse_text(record_text(hand, [with_comment(r.line, r.comment) for r in live])).hands[0]
    for ev, row in zip(record.events, live):
        ev.line = row.seq
    for tag in record.tags:
        tag.line = 0  # before the first move
    return judged_record(hand, record)


def judged_record(hand: Any, record: Any) -> tuple[Any, Referee]:
    setup, errors = read_setup(record)
    if errors:  # a hand row's values were judged when stored: only an edit gets here
        raise StoreError(M("hand {number}: its setup is refused: {refusal}", number=hand.number,
                           refusal=refusal(errors[0])))
    ref = Referee(setup)
    return hand_report(record, setup, ref.run(record.events)), ref


# ------------------------------------------------------------------ a table
class TableState:
    """A table as a command finds it, and the plan the command is making. The reads (`_…`) are
    the subclass's; the planners (store/write/course.py) read and add through the methods here."""

    def __init__(self, table: TableRow, now: Any, recorder: str, ids: Ids | None = None, today: str | None = None,
                 plan: Plan | None = None):
        self.table, self.now, self.recorder = table, now, recorder
        self.today = today      # the Date tag of a hand dealt now (hands are dated by their night)
        self.ids = ids or Ids()
        self.plan = plan if plan is not None else Plan()  # a batch's tables may share one
        self._hands: dict[int, HandState] = {}  # number -> a hand read or made, as it stands now
        self._changed: set[int] = set()         # the numbers of the hands this plan made or changed
        self._postings: dict[int, list[PostingRow]] = {}  # hand id -> its postings, once read
        self._laws: laws.Table | None = None    # the laws' table after every hand, once worked out

    # -------------------------------------------------------------- what the subclass reads
    def _load(self, number: int) -> HandState | None:
        raise NotImplementedError

    def _current_number(self) -> int | None:
        """The number of the hand the table is at as stored: its earliest open hand, else its latest."""
        raise NotImplementedError

    def _latest_number(self) -> int | None:
        raise NotImplementedError

    def _read_postings(self, hand_id: int) -> list[PostingRow]:
        raise NotImplementedError

    def _newest_first(self, below: int | None) -> Iterator[Any]:
        """The table's stored hand rows newest first (below `below`), as the laws read them."""
        raise NotImplementedError

    def player_ids(self, names: Iterable[str]) -> dict[str, int]:
        raise NotImplementedError

    def bet_changed_since(self, hand: HandState) -> bool:
        """The table's bet was changed after the hand's last row of its own (R2.2)."""
        raise NotImplementedError

    # -------------------------------------------------------------- the hands
    def hand(self, number: int) -> HandState | None:
        if number not in self._hands:
            found = self._load(number)
            if found is None:
                return None
            self._hands[number] = found
        return self._hands[number]

    def current(self) -> HandState | None:
        """The hand the table is at: its earliest open hand, else its latest (or None)."""
        numbers = [n for n in self._changed if not self._hands[n].closed]  # opened by this plan
        stored = self._current_number()
        if stored is not None and stored not in self._changed:
            hand = self.hand(stored)
            if hand is not None and not hand.closed:
                numbers.append(stored)
        return self.hand(min(numbers)) if numbers else self.latest()

    def latest(self) -> HandState | None:
        numbers = [n for n in [self._latest_number(), *self._changed] if n is not None]
        return self.hand(max(numbers)) if numbers else None

    def waiting_after(self, hand: HandState) -> HandState | None:
        """The hand dealt after `hand` that waits to be played (its `hand new` taken back), or None."""
        later = self.hand(hand.number + 1)
        return later if later is not None and not later.closed else None

    def postings(self, hand: HandState) -> list[PostingRow]:
        if hand.row.id not in self._postings:
            self._postings[hand.row.id] = self._read_postings(hand.row.id)
        return self._postings[hand.row.id]

    def laws(self, below: int | None = None) -> laws.Table:
        """The table as its hands left it (laws.table_after), what this plan did included; with
        `below`, as its hands numbered below it left it."""
        if below is None and self._laws is not None:
            return self._laws
        found = laws.table_after((laws.HandFacts.of_row(row) for row in self._rows_newest_first(below)),
                                 self.table.closed is not None)
        if below is None:
            self._laws = found
        return found

    def _rows_newest_first(self, below: int | None) -> Iterator[Any]:
        changed = sorted((n for n in self._changed if below is None or n < below), reverse=True)
        for row in self._newest_first(below):
            while changed and changed[0] >= row.number:
                yield self._hands[changed.pop(0)].row
            if row.number not in self._changed:
                yield row
        for n in changed:
            yield self._hands[n].row

    # -------------------------------------------------------------- the plan
    def add_table(self, row: TableRow, players: list[str]) -> None:
        self.table = row
        self.plan.tables.append(row)
        self.plan.players.extend(players)
        self.plan.journal.append((TABLE, row, None))

    def update_table(self, kind: str, **values: Any) -> TableRow:
        """The table's row changed (its bet, its close, its seats after an import), journaled as `kind`."""
        self.table = self.table._replace(**values)
        self.plan.updates.append(("card_table", self.table, tuple(values)))
        self.plan.journal.append((kind, self.table, None))
        if "closed" in values:  # the laws' table knows whether the table is closed, not its seats or bet
            self._laws = None
        return self.table

    def add_hand(self, row: HandRow, imported: Imported | None = None, facts: Any = None) -> HandState:
        """A hand dealt (journaled `hand`) or imported whole (`import`, its moves and postings with
        it); `facts`, its laws.HandFacts, follow the laws' table on past it (an import of many)."""
        before = self._laws
        hand = HandState(row, [])
        self._hands[row.number] = hand
        self._changed.add(row.number)
        self.plan.hands.append(row)
        if imported is not None:
            self.plan.bulk.append((row.id, imported.prepared))
        self.plan.journal.append((IMPORT if imported is not None else HAND, row, imported))
        self._laws = laws.follow(before, facts) if before is not None and facts is not None else None
        return hand

    def update_hand(self, hand: HandState, kind: str | None = None, **values: Any) -> HandRow:
        """The hand's row changed in place, journaled as `kind` (VERDICT, REDEAL) unless None."""
        hand.row = hand.row._replace(**values)
        self._hands[hand.number] = hand
        self._changed.add(hand.number)
        self.plan.updates.append(("hand", hand.row, tuple(values)))
        if kind is not None:
            self.plan.journal.append((kind, hand.row, None))
        self._laws = None
        return hand.row

    def add_event(self, hand: HandState, line: str, comment: str | None, supersedes: int | None = None,
                  ref: Any = None) -> EventRow:
        """The hand's next event row, its hash chained to the last; journaled. `ref`: the referee of
        the hand's moves with it (a line judged on a fork), else worked out again when asked."""
        seq = hand.seq + 1
        row = EventRow(self.ids.new(), hand.row.id, seq, line, comment, self.now, supersedes,
                       chain_hash(hand.last_hash, seq, line, comment, supersedes, self.recorder), self.recorder)
        hand.events.append(row)
        hand.moved_on(ref)
        self._hands[hand.number] = hand
        self.plan.events.append(row)
        self.plan.journal.append((EVENT, row, None))
        return row

    def add_postings(self, hand: HandState, rows: list[PostingRow]) -> None:
        """Postings of the hand, each journaled."""
        self.postings(hand).extend(rows)
        self.plan.postings.extend(rows)
        self.plan.journal.extend((POSTING, row, None) for row in rows)

    def posting(self, hand: HandState, account: str, kind: str, detail: str | None, counterparty: str,
                amount: int, ids: dict[str, int], reverses: int | None = None) -> PostingRow:
        return PostingRow(self.ids.new(), hand.row.id, hand.row.table_id, account, ids.get(account), kind, detail,
                          counterparty, amount, reverses, self.now)


__all__ = ["Plan", "Ids", "Imported", "HandState", "TableState", "judge", "judge_rows", "record_text",
           "TABLE_KINDS", "REDEAL", "VERDICT"]
