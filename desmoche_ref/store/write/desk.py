"""The board's entry desk (issue 36): a table's hand as a signed-in recorder sees it, and what
they send from a phone — a line, `undo`, `hand new`, `hand void`, `table close` — stored
through the scorebook service (TableBook) as every front end stores it, once.

Two guards against what a phone on a flaky network and a second phone at the table do:
- **a key per submission**: the page puts a new key in every form it shows; a form sent
  again with a key already done (the phone resent it, the answer was lost) answers what was
  done then (`Done.again`), and stores nothing a second time;
- **what the page showed**: every submission says the hand and move it was made on (`Seen`);
  if the table is elsewhere by then (another phone's move, an undo, a new hand) it is refused,
  nothing stored, naming the moves stored since (`Moved`), as `--expect` refuses a verb.

Everything else is TableBook's: the referee's refusals (`Refused`), the book's (`StoreError`),
a race lost at the last moment (`HandChanged`, here a `Moved`). A sign-in that ended (a PIN
or a role revoked) raises `SignedOut` before anything is read.
"""

import threading
from collections import OrderedDict
from typing import Any, NamedTuple

from ...findings import M
from ..trust import signin
from ..schema.terms import HandChanged, StoreError

KEYS = 10_000       # submissions remembered (their keys), the oldest forgotten first
RECENT = 6          # the hand's latest rows the page shows
ACTIONS = ("line", "undo", "new", "void", "close")


class Seen(NamedTuple):
    """Where the page showed the table: its hand's number (0: none yet) and move (0: none)."""

    number: int
    seq: int


class Now(NamedTuple):
    """A table as the recorder's page shows it."""

    table: str
    seats: list           # the table's players, in seat order
    table_closed: bool
    hand: Any             # tablebook.HandView of the hand the table is at, or None before the first
    dealer: str | None    # the dealer `hand new` proposes (R3.1), None when one must be named

    @property
    def seen(self) -> Seen:
        return Seen(self.hand.number, self.hand.seq) if self.hand is not None else Seen(0, 0)


class Done(NamedTuple):
    what: str             # one of ACTIONS
    result: Any           # tablebook.Recorded, Undone, Voided, Opened or TableClosed
    again: bool           # a key already done: this is what it did then; nothing stored now
    after: Any = None     # the hand's referee after it (None: no hand, or the table closed)
    table: str = ""       # the table's name, as the book spells it


class Moved(HandChanged):
    """The table is not where the page showed it: nothing stored. `since`: the rows
    (tablebook.LogRow) stored after what the page showed, of the hand the table is at."""

    def __init__(self, seq: int, number: int | None, since: list):
        super().__init__(seq, number)
        self.since = since


class SignedOut(Exception):
    """The sign-in is over (its argument says why, a Message): nothing read, nothing stored."""


class Desk:
    """The entry of one board on the book `given` (its URL, as the board was started on)."""

    def __init__(self, given: str | None):
        from ..db import resolve_url

        self.url = resolve_url(given)
        self.server = not self.url.startswith("sqlite")
        self._book = None                  # SQLite: the book written to, opened at the first sign-in
        self._done: OrderedDict = OrderedDict()
        self._keys = threading.Lock()

    # ------------------------------------------------------------ signing in
    def sign_in(self, name: str, secret: str) -> signin.Recorder:
        """A league login and its password (PostgreSQL), a name and its PIN (SQLite)."""
        if self.server:
            return signin.with_login(self.url, name, secret)
        return signin.with_pin(self._pin_book(), name, secret)

    def open(self) -> None:
        """Ready to sign recorders in: a SQLite book opened to be written (BookError if it
        cannot be: missing, of another schema); a server's is reached at each sign-in."""
        if not self.server:
            self._pin_book()

    def _pin_book(self):
        if self._book is None:
            self._book = open_written(self.url)
        return self._book

    def close(self) -> None:
        if self._book is not None:
            self._book.close()
            self._book = None

    # ------------------------------------------------------------ reading
    def now(self, recorder: signin.Recorder, table: str) -> Now:
        """The table as the book has it, read as the recorder (SignedOut once they may not)."""
        with recorder.lock:
            _still(recorder)
            return self._now(recorder, table)

    def _now(self, recorder, table: str) -> Now:
        from ... import laws
        from .lawbook import table_now
        from ..schema.models import BookTable
        from .tablebook import TableBook

        book = TableBook(recorder.book, table)
        hand: Any = book.view() if book.number is not None else None
        with recorder.book.read() as s:
            row = s.get(BookTable, book.table_id)
            seats, closed = row.players.split(), row.closed is not None
            previous = _dealer(hand.ref) if hand is not None else None
            if hand is not None and hand.seq == 0 and not hand.closed:  # dealt again, by the same dealer
                dealer = previous
            else:
                dealer = laws.proposed_dealer(table_now(s.connection(), row.id, closed), seats, previous)
        return Now(book.name, seats, closed, hand, dealer)

    def table_names(self, recorder: signin.Recorder) -> list:
        """The tables of the book not closed, by name."""
        from .tablebook import list_tables

        with recorder.lock:
            _still(recorder)
            return [t.name for t in list_tables(recorder.book) if not t.closed]

    # ------------------------------------------------------------ writing
    def send(self, recorder: signin.Recorder, table: str, seen: Seen, key: str, what: str,
             arg: str | None = None) -> Done:
        """Do `what` (ACTIONS) at `table` for `recorder`, on the hand the page showed (`seen`):
        `arg` is the line (`line`), the dealer (`new`, None: the rotation's) or the reason
        (`void`). A `key` done already answers as it did (Done.again)."""
        if what not in ACTIONS:
            raise StoreError(M("unknown action {what!r}", what=what[:40]))
        with recorder.lock:
            _still(recorder)
            remembered = self._remembered(recorder, key)
            if remembered is not None:
                return remembered._replace(again=True)
            result, book = self._do(recorder, table, seen, what, arg)
            done = Done(what, result, False, book.ref, book.name)
            if key:
                with self._keys:
                    self._done[recorder.name, key] = done
                    while len(self._done) > KEYS:
                        self._done.popitem(last=False)
            return done

    def _remembered(self, recorder, key: str):
        if not key:
            return None
        with self._keys:
            return self._done.get((recorder.name, key))

    def _do(self, recorder, table: str, seen: Seen, what: str, arg):
        from .tablebook import TableBook

        book = TableBook(recorder.book, table)
        try:
            if (book.number or 0) != seen.number or book.seq != seen.seq:
                raise HandChanged(book.seq, book.number)
            if what == "line":
                return book.record(arg or "", seen.seq), book
            if what == "undo":
                return book.undo(seen.seq), book
            if what == "void":
                return book.void(arg or "", seen.seq), book
            if what == "new":
                return book.new_hand(arg or None, expect_number=seen.number), book
            return book.close(), book
        except HandChanged:
            raise self._moved(recorder, table, seen) from None

    def _moved(self, recorder, table: str, seen: Seen) -> Moved:
        hand = self._now(recorder, table).hand
        if hand is None:
            return Moved(0, None, [])
        since = [r for r in hand.log if hand.number != seen.number or r.seq > seen.seq]
        return Moved(hand.seq, hand.number if hand.number != seen.number else None, since)


def _dealer(ref: Any) -> str:
    return ref.setup.players[ref.setup.dealer]


def _still(recorder) -> None:
    why = recorder.still()
    if why is not None:
        recorder.close()
        raise SignedOut(why)


def open_written(url: str):
    """The SQLite book the board's entry writes to: it must be there, at this program's
    schema (the board never makes or upgrades a book). BookError saying why not."""
    import os

    from ..db import (BookError, check_known, connect_book, describe, schema_head, schema_version,
                      sqlite_path)

    path = sqlite_path(url)
    if path and not os.path.exists(path):
        raise BookError(M("there is no book at {path}: nothing is recorded there yet", path=path))
    book = connect_book(url)
    try:
        version = schema_version(book)
        if version != schema_head():
            check_known(book, version)
            raise BookError(M("the book {book} needs `desmoche-ref db upgrade` (its schema is {version}, "
                              "this program's {head})", book=describe(book.url), version=version, head=schema_head()))
    except BaseException:
        book.close()
        raise
    return book
