"""Reading and writing record files for the commands: errors become one-line messages."""

import os
import sys


def read_record(path: str):
    """(bytes, None) or (None, reason) for a path, `-` being standard input."""
    if path == "-":
        return sys.stdin.buffer.read(), None
    try:
        with open(path, "rb") as f:
            return f.read(), None
    except FileNotFoundError:
        return None, "no such file"
    except IsADirectoryError:
        return None, "is a directory, not a record file"
    except PermissionError:
        return None, "permission denied"
    except OSError as e:
        return None, e.strerror or str(e)


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
