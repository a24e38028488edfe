"""How the program waits for the locks of a book: never for ever, never on a lock a reader
can hold, and on SQLite in the order the writers asked.

Writers serialise on row locks: the table's row (store/hands.py `lock_table`), the setting
row of the journal's head (store/journal.py `lock`), the setting row of imports
(store/importer.py). PostgreSQL lets a role lock a row only if it may UPDATE the table (a
column of it is enough), and a reader may update nothing: no reader can hold a writer up (an
advisory lock, which any role may take, was what writers waited on before schema 0006).

Every connection the program opens waits at most LOCK_TIMEOUT for a lock (`lock_timeout`,
store/db.py): a recorder's transaction left open, or a reader's long read in front of a
schema upgrade, makes the command end with `Busy` — exit 3 and one line naming what it waited
on, nothing written — never a hang. A schema upgrade waits longer for another process's
(UPGRADE_TIMEOUT): it may journal a whole book.

A SQLite book has one write lock, the file's, and SQLite lets its waiters poll for it (the busy
handler sleeps and tries again): whoever tries at the right moment wins, so with four tables
recording at once a move could wait seconds while others went by. So the writers of a book
queue first, in the order they asked (`writers_turn`): each takes a ticket and waits for the
one before it to be done, on a lock the kernel holds for it (an open file description's lock,
`F_OFD_SETLKW`: the kernel wakes exactly the next in line; a process that dies lets go of its
own). Only then does it begin its transaction (BEGIN IMMEDIATE), which finds the file free. A
write that waits for its turn longer than WRITE_TIMEOUT (SQLite's busy timeout too) is `Busy`,
exit 3, nothing written. The queue's file is not beside the book (its folder holds the book
alone when nobody has it open) but in the user's runtime folder (/run/user/UID, else /tmp),
named by the book's file: one user's processes queue together (another user's writers of a
shared book have their own line, and SQLite's lock between the two).
Where there are no such locks (not Linux), or the queue's file cannot be had, SQLite's own
busy handler orders the writers, as before.
"""

import os
import re
import threading
import time
from contextlib import contextmanager

from ..findings import M
from .errors import BookError

# seconds: a write holds its locks for milliseconds, an import's batch for a second or so
LOCK_TIMEOUT = 5.0
# seconds a schema upgrade waits (for another process's upgrade, which may journal a whole book)
UPGRADE_TIMEOUT = 120.0
# seconds a write to a SQLite book waits for its turn (and SQLite's busy timeout, for the file)
WRITE_TIMEOUT = 30.0


class Busy(BookError):
    """Another session held a lock this command waited for longer than LOCK_TIMEOUT (on
    SQLite, its turn to write longer than WRITE_TIMEOUT): nothing was written (exit 3, as
    when another recorder moved the hand first)."""


def busy(what, seconds: float | None = None) -> Busy:
    """The Busy of a wait for `what` (a Message: "the book's journal", "table friday", …)."""
    return Busy(M("waited more than {seconds} s for {what}, which another session of the book holds: "
                  "nothing was written; try again", seconds=f"{seconds or LOCK_TIMEOUT:g}", what=what))


def lock_timed_out(exc) -> bool:
    """Whether PostgreSQL gave up waiting for a lock (SQLSTATE 55P03, `lock_timeout`), or
    SQLite for the file's (SQLITE_BUSY and its extended codes, past the busy timeout)."""
    return getattr(getattr(exc, "orig", exc), "sqlstate", None) == "55P03" or _sqlite_busy(exc)


def _sqlite_busy(exc) -> bool:
    code = getattr(getattr(exc, "orig", exc), "sqlite_errorcode", None)
    return code is not None and code & 0xFF == 5  # SQLITE_BUSY


@contextmanager
def bounded(what, seconds: float | None = None):
    """Statements that wait for a lock on `what` (a Message): past LOCK_TIMEOUT (or the
    `seconds` the transaction set), `Busy` naming it rather than the server's words."""
    from sqlalchemy.exc import DBAPIError

    try:
        yield
    except DBAPIError as exc:
        if lock_timed_out(exc):
            raise busy(what, seconds) from None
        raise


def busy_from(exc):
    """The Busy of a wait no `bounded` names (what it was on, from the error's context: a row
    of a table, `relation "hand"`; on SQLite the file), or None when `exc` is another failure."""
    if _sqlite_busy(exc):
        return busy(M("a lock on the book"), WRITE_TIMEOUT)
    if not lock_timed_out(exc):
        return None
    context = getattr(getattr(getattr(exc, "orig", exc), "diag", None), "context", None) or ""
    found = re.search(r'relation "([^"]+)"', context)
    return busy(M("a row of the book's {relation} table", relation=found.group(1)) if found
                else M("a lock on the book"))


def lock_row(conn, key: str, what) -> None:
    """Hold the setting row `key` for this transaction (PostgreSQL), made by its first use:
    the writers of `what` (a Message) queue on it, each waiting at most LOCK_TIMEOUT."""
    from sqlalchemy import text

    with bounded(what):
        query = text("SELECT 1 FROM setting WHERE key = :key FOR UPDATE")
        if conn.execute(query, {"key": key}).first() is None:
            conn.execute(text("INSERT INTO setting (key, value) VALUES (:key, '') ON CONFLICT DO NOTHING"),
                         {"key": key})
            conn.execute(query, {"key": key})


# ------------------------------------------------------------- SQLite: writers in turn
_TICKET = 8  # bytes 0-7 of the queue's file: the next ticket; a lock on them guards it
_SLOTS = 1 << 16  # a ticket's slot: the byte the writer holding the ticket keeps locked till done
_FIRST_SLOT = 1 << 20
_FLOCK = "hhqqi4x"  # struct flock (Linux, 64-bit): type, whence, start, length, pid (0: OFD)
ON = threading.local()  # the books this thread holds the turn of: a write inside a write waits not
_OPEN: dict = {}  # fd -> (device, inode) of each queue file this process has open (a forked child lets go of them)


@contextmanager
def writers_turn(path: str, seconds: float | None = None):
    """This process's turn to write the SQLite book at `path`, held for the block: the
    writers of one book get it one at a time, in the order they asked. `Busy` past
    WRITE_TIMEOUT (or `seconds`), nothing written. Where no queue can be had: the block
    runs at once, and SQLite's busy handler is the only order (the module's docstring)."""
    held = getattr(ON, "books", None)
    if held is None:
        held = ON.books = set()
    fd = None if path in held else _queue_file(path)
    if fd is None:
        yield
        return
    seconds = WRITE_TIMEOUT if seconds is None else seconds
    try:
        _take_turn(fd, time.monotonic() + seconds)
    except _Abandoned:  # its waiting thread lets the turn go on when it comes
        raise busy(M("a lock on the book"), seconds) from None
    except BaseException as exc:
        _close(fd)
        if not isinstance(exc, OSError):
            raise
        fd = None  # locks the queue's file system will not give: SQLite's busy handler orders
    if fd is None:
        yield
        return
    held.add(path)
    try:
        yield
    finally:
        held.discard(path)
        _close(fd)  # lets go of the ticket's slot: the next in line writes


def _queue_file(path: str):
    """The open queue file of the book at `path` (a file descriptor), or None: no OFD locks
    here, or no queue file to be had (a folder not ours, a book that is gone)."""
    try:
        import fcntl
    except ImportError:  # Windows
        return None
    if not hasattr(fcntl, "F_OFD_SETLKW"):  # not Linux
        return None
    try:
        book = os.stat(path)
        folder = _queue_folder()
        fd = os.open(os.path.join(folder, f"{book.st_dev:x}-{book.st_ino:x}.writers"),
                     os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    except OSError:
        return None
    info = os.fstat(fd)
    _OPEN[fd] = (info.st_dev, info.st_ino)
    return fd


def _close(fd: int) -> None:
    _OPEN.pop(fd, None)
    os.close(fd)


def _forget_turns() -> None:
    """In a forked child: the parent's queue files closed (a lock is the open file's, which
    the child shares: kept open here, the parent's turn would outlast it), no turn held."""
    for fd, file in list(_OPEN.items()):
        _OPEN.pop(fd)
        try:  # still that queue file: a number closed some other way may name another file now
            info = os.fstat(fd)
        except OSError:
            continue
        if (info.st_dev, info.st_ino) == file:
            os.close(fd)
    ON.books = set()


os.register_at_fork(after_in_child=_forget_turns)


def _queue_folder() -> str:
    """The user's own folder for the queues, desmoche-ref-UID in the user's runtime folder
    (/run/user/UID) or else in /tmp: the same for every process of the user, whatever its
    environment says (XDG_RUNTIME_DIR, TMPDIR), so that they all queue in one line. OSError
    if it is not the user's alone."""
    import stat

    runtime = f"/run/user/{os.getuid()}"
    folder = os.path.join(runtime if os.path.isdir(runtime) else "/tmp", f"desmoche-ref-{os.getuid()}")
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise OSError("the queue folder is not the user's alone")
    return folder


class _Abandoned(Exception):
    """The wait for a turn outlasted its time; its thread gives the turn on when it comes."""


def _take_turn(fd: int, deadline: float) -> None:
    """Take a ticket (the next number in the file, under its lock), lock the ticket's slot,
    and wait until the ticket before it has let go of its own."""
    _wait(fd, 0, _TICKET, deadline)
    try:
        ticket = int.from_bytes(os.pread(fd, _TICKET, 0).ljust(_TICKET, b"\0"), "little")
        os.pwrite(fd, ((ticket + 1) % (1 << 62)).to_bytes(_TICKET, "little"), 0)
        # locked before the ticket's lock is let go, so the next in line finds it held
        queued = _lock(fd, _slot(ticket), wait=False)
    finally:
        _lock(fd, 0, _TICKET, unlock=True)
    if queued:  # else a slot still held from 65,536 tickets ago: SQLite's busy handler orders
        ahead = _slot(ticket - 1)
        _wait(fd, ahead, 1, deadline)
        _lock(fd, ahead, unlock=True)


def _slot(ticket: int) -> int:
    return _FIRST_SLOT + ticket % _SLOTS


def _lock(fd: int, start: int, length: int = 1, wait: bool = False, unlock: bool = False) -> bool:
    """Lock (or let go of) bytes of the queue's file for this open file; False if another
    holds them and not `wait`."""
    import errno
    import fcntl
    import struct

    kind = fcntl.F_UNLCK if unlock else fcntl.F_WRLCK
    try:
        fcntl.fcntl(fd, fcntl.F_OFD_SETLKW if wait else fcntl.F_OFD_SETLK,
                    struct.pack(_FLOCK, kind, os.SEEK_SET, start, length, 0))
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EACCES) and not wait:
            return False
        raise
    return True


def _wait(fd: int, start: int, length: int, deadline: float) -> None:
    """Lock bytes of the queue's file, waiting until `deadline` at most. The kernel does the
    waiting, in a thread (a lock's wait has no time limit): past the deadline `_Abandoned`,
    and the thread, once it has the bytes, closes the file, which lets go of them and of the
    ticket's slot, so the writers behind move up."""
    if _lock(fd, start, length):
        return
    done, guard, state = threading.Event(), threading.Lock(), {"abandoned": False}

    def wait():
        try:
            _lock(fd, start, length, wait=True)
        except OSError:
            pass  # no lock to be had (ENOLCK): SQLite's busy handler orders this one
        with guard:
            done.set()
            if state["abandoned"]:
                _close(fd)

    threading.Thread(target=wait, name="desmoche-writers-turn", daemon=True).start()
    if done.wait(max(0.0, deadline - time.monotonic())):
        return
    with guard:
        if done.is_set():
            return
        state["abandoned"] = True
    raise _Abandoned
