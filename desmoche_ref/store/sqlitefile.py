"""A SQLite book's file: how a process that may not write it reads it, and the -wal and -shm
files its owner keeps beside it for such readers.

SQLite reads a book in WAL mode only through its -wal and -shm files, and a reader who may
not write the book or its folder (another user, a read-only folder) cannot make them. A book
readable by others therefore keeps both beside it, empty once every writer has gone
(`keep_wal`: made again by the owner's process that closed the book last, with the book's own
permissions), and such a reader opens it read-only (`mode=ro`), reading a snapshot as every
reader does: the writers' checkpoints wait for it, so what it reads never changes under it. A
book is never read as unchanging (`immutable`) while anyone may write it: only on a file
system mounted read-only, where nobody can (a copy on a read-only disk).
"""

import os
import stat
import time

from ..findings import M
from .errors import BookError

WAL_WAIT = 1.0  # seconds a reader waits for the -wal the owner's closing process is making again


def wal_files(path: str) -> tuple:
    return path + "-wal", path + "-shm"


def in_wal_mode(path: str) -> bool:
    """Whether the book's file says it is in WAL mode (its header's read and write versions,
    bytes 18 and 19, are 2: SQLite's file format)."""
    try:
        with open(path, "rb") as f:
            header = f.read(20)
    except OSError:
        return False
    return len(header) == 20 and header[18] == 2 and header[19] == 2


def readonly_url(path: str):
    """The URL that opens a SQLite book for a process that may not write it or its folder
    (None when it may write both: it opens the book as usual, every change refused by
    `query_only`). Read-only (`mode=ro`) through the -wal and -shm beside it, which the owner
    keeps for a book others may read (`keep_wal`): a BookError says so when they are not
    there. On a file system mounted read-only nobody can write the book: it is read as it
    stands (`immutable`), with no -wal or -shm."""
    from urllib.parse import quote

    from sqlalchemy.engine import URL

    if os.access(path, os.W_OK) and os.access(os.path.dirname(path), os.W_OK):
        return None
    query = {"mode": "ro", "uri": "true"}
    if _read_only_file_system(path):
        query["immutable"] = "1"
    elif in_wal_mode(path) and not _wal_present(path):
        raise BookError(M("cannot read the book {path} from here: SQLite reads it through {wal} and its "
                          "-shm, which this user cannot make in that folder; its owner's next command "
                          "leaves them beside a book others may read (chmod 0644 the book)",
                          path=path, wal=os.path.basename(path) + "-wal"))
    return URL.create("sqlite", database="file:" + quote(path), query=query)


def _wal_present(path: str, patience: float = WAL_WAIT) -> bool:
    """Whether the -wal is beside the book, waiting a moment for it: the owner's process that
    closed the book last makes it again right after SQLite took it away."""
    deadline = time.monotonic() + patience
    while not os.path.exists(wal_files(path)[0]):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _read_only_file_system(path: str) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def keep_wal(path: str) -> None:
    """Once this process closed the book: its -wal and -shm made again, empty, if SQLite took
    them away and others may read the book (its group's or everyone's read permission), with
    the book's permissions and owner, as SQLite makes them. A reader who may not write the
    folder reads through them (readonly_url). A process that made them meanwhile (a writer that
    just opened the book) keeps its own: nothing is opened but to make it."""
    try:
        info = os.stat(path)
    except OSError:
        return
    if not info.st_mode & (stat.S_IRGRP | stat.S_IROTH) or not in_wal_mode(path):
        return
    for name in wal_files(path):
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError:
            continue  # there already, or a folder this process may not write
        try:
            os.fchmod(fd, stat.S_IMODE(info.st_mode))
            if os.geteuid() == 0 and (info.st_uid, info.st_gid) != (0, 0):
                os.fchown(fd, info.st_uid, info.st_gid)
        finally:
            os.close(fd)
