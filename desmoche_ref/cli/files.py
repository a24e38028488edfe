"""Reading and writing record files for the commands: errors become one-line messages.

`encoding_option` and `open_lines` are what a command that reads records uses: the
`--encoding` option, and a file's lines decoded as it is read (N1.1), with the hint a
file in another encoding gets (`encoding_hint`)."""

import os
import sys

import click

from ..findings import M
from ..i18n import N_
from ..notation.parser import Lines, read_blocks
from .lang import _


def _known_encoding(ctx, param, value):
    if value is None:
        return None
    import codecs

    try:
        codecs.lookup(value)
    except LookupError:
        raise click.BadParameter(_("unknown encoding {name!r} (e.g. utf-8, cp1252, latin-1, utf-16)").format(
            name=value))
    return value


def encoding_option(command):
    """The `--encoding NAME` option of the commands that read records."""
    return click.option(
        "--encoding", metavar=N_("NAME"), default=None, callback=_known_encoding,
        help=N_("Read the files in this encoding (cp1252, latin-1, utf-16, ...) instead of UTF-8 "
                "(N1.1). A UTF-16 file with a byte-order mark is read as such without it."))(command)


def _problem(e: OSError) -> str:
    if isinstance(e, FileNotFoundError):
        return M("no such file")
    if isinstance(e, IsADirectoryError):
        return M("is a directory, not a record file")
    if isinstance(e, PermissionError):
        return M("permission denied")
    return e.strerror or str(e)


def read_record(path: str):
    """(bytes, None) or (None, reason) for a path, `-` being standard input."""
    if path == "-":
        return sys.stdin.buffer.read(), None
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return None, _problem(e)
    problem = not_text(data[:4096])
    return (None, problem) if problem else (data, None)


def open_binary(path: str):
    """(an open binary file, None) or (None, reason), `-` being standard input: a file of
    its own (closing it leaves standard input open), which a child process may read too."""
    if path == "-":
        try:
            return open(os.dup(sys.stdin.buffer.fileno()), "rb"), None
        except (OSError, ValueError):  # no file behind it (a test's): its bytes
            import io

            return io.BytesIO(sys.stdin.buffer.read()), None
    try:
        f = open(path, "rb")
        if os.path.isdir(path):  # some systems open a folder for reading
            f.close()
            raise IsADirectoryError(path)
        problem = not_text(f.peek(4096)[:4096])
    except OSError as e:
        return None, _problem(e)
    if problem:
        f.close()
        return None, problem
    return f, None


# the bytes no text of any encoding holds (NUL and the C0 controls but tab, line ends, form feed)
_BINARY = bytes(c for c in range(32) if c not in b"\t\n\r\f")


def not_text(head: bytes):
    """Why a file whose first bytes are `head` is no record at all (a book, a program), else
    None. A record with a stray control byte is still a record (N1.1 says which line); a file
    whose bytes are a tenth or more of them is not — unless it is UTF-16 text (every other
    byte NUL), which N1.1's hint names."""
    if head.startswith(b"SQLite format 3\x00"):
        return M("is a SQLite database (a book?), not a text record: `desmoche-ref export` writes a book's records")
    control = len(head) - len(head.translate(None, _BINARY))
    nul = head.count(0)
    utf16 = nul * 3 >= len(head) and max(head[0::2].count(0), head[1::2].count(0)) * 10 >= nul * 9
    if control * 10 >= len(head) > 0 and not utf16:
        return M("is a binary file, not a text record (N1.1)")
    return None


def open_lines(path: str, encoding=None):
    """(Lines, None) or (None, reason): the file's lines, read block by block as they are
    iterated (memory stays bounded), `-` being standard input. The file closes at its end."""
    f, problem = open_binary(path)
    if problem:
        return None, problem

    def blocks():
        with f:
            yield from read_blocks(f)

    return Lines(blocks(), encoding), None


def encoding_hint(path: str, lines) -> str | None:
    """The one-line hint for a file whose unreadable lines read as another encoding
    (`lines`: the file's Lines once read, or anything with their `looks_like`)."""
    if lines.looks_like is None:
        return None
    return _("{path}: hint: this file looks like Windows-1252 (or Latin-1) text, not UTF-8: "
             "try --encoding {encoding}").format(path=path, encoding=lines.looks_like)


def write_atomically(path: str, text, replace: bool = True) -> None:
    """Write a file all at once: a failure never leaves half a file (the text goes to a
    temporary file beside it, renamed into place). A new file gets the mode any command
    gives one, 0666 less the umask; a file written over keeps its own. `replace=False`
    never writes over a file, even one made a moment ago (FileExistsError).

    `text` is a str, or an iterable of str written as it comes (memory stays bounded
    whatever the file's size); an exception it raises leaves nothing written."""
    import tempfile  # only here: it costs ~10 ms of start-up (shutil, random, bz2, lzma)

    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".desmoche-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            if isinstance(text, str):
                f.write(text)
            else:
                for chunk in text:
                    f.write(chunk)
            f.flush()
            existing = os.path.exists(path)
            os.fchmod(f.fileno(), os.stat(path).st_mode & 0o7777 if existing else 0o666 & ~current_umask())
            os.fsync(f.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)  # fails if the file is there: nothing written over
            except FileExistsError:
                raise
            except OSError:  # a file system without hard links
                if os.path.exists(path):
                    raise FileExistsError(path) from None
                os.replace(tmp, path)
            else:
                os.unlink(tmp)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def current_umask() -> int:
    """The process's umask (reading it means setting it: put back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class OutputRefused(Exception):
    """An output file the command will not write (its argument: the message, in the run's
    language)."""


SQLITE_MAGIC = b"SQLite format 3\x00"


def write_output(path: str, text: str, force: bool = False, book_file: str | None = None) -> None:
    """Write `-o FILE` for the user, atomically (`write_atomically`), as `check_output`
    allows. OutputRefused or OSError otherwise."""
    check_output(path, force, book_file)
    try:
        write_atomically(path, text, replace=force)
    except FileExistsError:  # made while the text was written
        raise OutputRefused(_("{path} exists: --force writes over it").format(path=path)) from None


def check_output(path: str, force: bool = False, book_file: str | None = None) -> None:
    """OutputRefused unless `-o FILE` may be written: never over the book (`book_file`,
    compared as the same file, not by name) nor over any SQLite database; an existing file
    only with `force`. A command checks before its work, and writing checks again."""
    if os.path.exists(path):
        if book_file and any(_same(path, book_file + end) for end in ("", "-wal", "-shm", "-journal")):
            raise OutputRefused(_("{path} is the book itself: the records go to another file").format(path=path))
        if _is_sqlite(path):
            raise OutputRefused(_("{path} is a SQLite database (a book?): it is never written over").format(
                path=path))
        if not force:
            raise OutputRefused(_("{path} exists: --force writes over it").format(path=path))


def _same(path: str, other: str) -> bool:
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def _is_sqlite(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False
