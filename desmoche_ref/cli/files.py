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
            return f.read(), None
    except OSError as e:
        return None, _problem(e)


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
    except OSError as e:
        return None, _problem(e)
    return f, None


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


def write_atomically(path: str, text: str) -> None:
    """Replace a file's contents all at once: a failure never leaves half a file."""
    import tempfile  # only here: it costs ~10 ms of start-up (shutil, random, bz2, lzma)

    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".desmoche-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
