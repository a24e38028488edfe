"""The store's exceptions and constants: what its modules and their callers name, in a module
that imports nothing of SQLAlchemy or the ORM (so that no module needs an import inside a
function to reach them, and `check` may name them without loading a database library)."""

from ...engine.found import COMPLETE  # noqa: F401 (a hand's status once settled: terms.COMPLETE)
from ...findings import M
from ...laws import OPEN, VOID  # noqa: F401 (a hand's status while recorded, and closed void: never dealt, or voided)
from ...settle import MAIN_POT  # noqa: F401 (the main pot's name: its account is pot:main)

# ------------------------------------------------------------------ rows
UNDO = "undo"         # the line of an event row that supersedes another (a correction)
END = "end"           # the line of the event that ends a hand (N4.4)
LIVE, IMPORTED = "live", "import"  # a hand's source
IMPORT_LOCK = "lock:import"  # the setting row PostgreSQL imports lock: the content-hash dedupe

# ------------------------------------------------------------------ the journal (journal.py)
TABLE, BET, CLOSE, FOLLOW = "table", "bet", "close", "follow"  # a table's state after the write
REOPEN = "reopen"  # a closed table opened again (`undo` after `table close`, `table reopen`: course.py)
HAND, EVENT, IMPORT, POSTING, VERDICT = "hand", "event", "import", "posting", "verdict"
REDEAL = "redeal"  # a hand with no move dealt again: its setup anew (store/write/course.py)
UPGRADE = "upgrade"  # where a book upgraded to schema 0006 begins the new form
USE = "use"          # `table use`: the table its writer works at from then on (hands.current_table)
# What a row of each kind covers: the hand, move or posting it journals once (a unique index
# of the journal per family: models.Journal), a table's or a hand's state after a change (many
# rows, in order), or nothing (the upgrade). A new kind is one line here, and one text function.
KINDS = {
    TABLE: "table", BET: "table", CLOSE: "table", FOLLOW: "table", REOPEN: "table",
    HAND: "hand", IMPORT: "hand", EVENT: "event", POSTING: "posting",
    VERDICT: "verdict", REDEAL: "redeal", USE: "use", UPGRADE: None,
}
ONCE = {"hand": (HAND, IMPORT), "event": (EVENT,), "posting": (POSTING,)}  # family -> its kinds
TABLE_KINDS = tuple(kind for kind, family in KINDS.items() if family == "table")
FORM_1, FORM_2 = 1, 2     # before schema 0006 (no writer, no times), and since
LOCK_KEY = "lock:journal"  # the setting row writers lock to append (PostgreSQL)


# ------------------------------------------------------------------ exceptions
class StoreError(Exception):
    """A command the book refuses: unknown table or player, a bet change while a pot is
    carried, … — one line for the person, exit 2 (usage). Its argument is the message
    (a findings.Message: the shell shows it in the language of the run)."""


class Refused(Exception):
    """A move the rules forbid: `finding` has the code and the reason; nothing was stored."""

    def __init__(self, finding):
        super().__init__(refusal(finding))
        self.finding = finding


class HandChanged(Exception):
    """Another recorder changed the hand since this one looked: nothing was stored (exit 3).
    `number` is set when the table has moved on to another hand (a `hand new` came first)."""

    def __init__(self, seq: int, number: int | None = None):
        if number is None:
            message = M("the hand changed (now at move {seq}): look and try again", seq=seq)
        else:
            message = M("the table moved on (now at hand {number}, move {seq}): look and try again",
                        number=number, seq=seq)
        super().__init__(message)
        self.seq, self.number = seq, number


def closed_table(name: str):
    """The refusal of a write at a closed table, and the way back (docs/rulings.md)."""
    from ...findings import COMMAND_LINE

    return M("table {table} is closed: `{prog}undo` (or `desmoche-ref table reopen {table}`) opens it again; a "
             "new game is a new table", table=name, prog=COMMAND_LINE["prog"])


def refusal(finding):
    """A finding as a store error says it: its code, then its message."""
    return M("{code} {message}", code=finding.code, message=finding.message)
