"""`desmoche-ref fmt`: hand records in the canonical form (N7).

A file is read and written hand by hand (N1.5 bounds a hand), so memory stays bounded
whatever its size: the canonical text goes to a temporary file (beside the file for
`--in-place`, renamed into place only when all is well), and whether the file was canonical
already is told by comparing the digests of what was read and what was written. `--check`
keeps what was read in a temporary file too, to say where the two differ."""

import hashlib
import sys

import click

from ..notation.parser import NO_HAND, Lines, iter_hands, read_blocks
from ..notation.writer import hand_syntax_errors, write_hand
from ..findings import M
from ..i18n import N_
from .files import encoding_hint, encoding_option, open_binary, write_atomically
from .lang import Command, _, lang_option
from .render import file_error, say


class _Abandoned(Exception):
    """The canonical text is not to be written (the file has errors, or is canonical)."""


class _Canonical:
    """One file's canonical text, hand by hand (`chunks`), and what reading it found:
    whether it holds a hand, its errors (printed as they come), whether it was canonical.
    With `keep`, the file as read is kept too (a spooled temporary file: on disk past a few
    MB), to say where the canonical form differs (`--check`, `--diff`)."""

    def __init__(self, path: str, source, encoding, keep: bool = False):
        import tempfile

        self.path = path
        self.read = hashlib.sha256()
        self.kept = tempfile.SpooledTemporaryFile(max_size=SPOOL) if keep else None
        self.lines = Lines(self._digested(source), encoding)
        self.written = hashlib.sha256()
        self.hands = 0
        self.failed = False

    def _digested(self, source):
        with source:
            for block in read_blocks(source):
                self.read.update(block)
                if self.kept is not None:
                    self.kept.write(block)
                yield block

    def chunks(self):
        for hand in iter_hands(self.lines):
            bad = hand_syntax_errors(hand)
            for e in bad:
                click.echo(f"{self.path}:{e.line}: {e.code} {say(e.message)}", err=True)
            self.failed = self.failed or bool(bad)
            if not self.failed:
                text = ("\n" if self.hands else "") + write_hand(hand)
                self.written.update(text.encode("utf-8"))
                yield text
            self.hands += 1

    @property
    def canonical(self) -> bool:
        return self.read.digest() == self.written.digest()

    def given_lines(self):
        """The file's lines as read (`keep`), decoded as UTF-8 for showing them."""
        self.kept.seek(0)
        return (raw.decode("utf-8", "replace").rstrip("\r\n") for raw in self.kept)


SPOOL = 1 << 22  # bytes a temporary text is held in memory before it goes to disk


def _first_difference(given, wanted) -> int:
    """The first line (from 1) where two texts' lines differ, read side by side."""
    number = 0
    for number, (a, b) in enumerate(zip(given, wanted), 1):
        if a != b:
            return number
    return number + 1


@click.command(cls=Command)
@click.argument("files", nargs=-1, required=True, metavar=N_("FILE..."))
@click.option("--in-place", "-i", is_flag=True, help=N_("Rewrite each file in its canonical form."))
@click.option("--check", "check_only", is_flag=True,
              help=N_("Change nothing; exit 1 if a file is not in canonical form (saying its first line that is not)."))
@click.option("--diff", "diff", is_flag=True,
              help=N_("As --check, and print each change the canonical form makes (a unified diff)."))
@encoding_option
@lang_option
def fmt(files, in_place, check_only, diff, encoding):
    """Rewrite hand records in the canonical form (N7).

    Tags in the standard order, one blank line, then one event a line with canonical
    verbs and cards (Ts, Ah, 2c), single spaces, comments kept where they were. A file
    with a line that cannot be read is left alone and its errors are printed.

    \b
    Examples:
      desmoche-ref fmt sample_logs/friday.dsm   # print the canonical form
      desmoche-ref fmt --in-place hand.dsm      # rewrite hand.dsm in it
      desmoche-ref fmt --check night.dsm        # exit 1 if night.dsm is not in it
      desmoche-ref fmt --diff night.dsm         # and show what would change
      desmoche-ref fmt --encoding cp1252 old-windows-file.dsm   # written out as UTF-8
    """
    if in_place and (check_only or diff):
        raise click.UsageError(_("--in-place and --check do not go together"))
    check_only = check_only or diff
    status = 0
    for path in files:
        source, problem = open_binary(path)
        if problem:
            click.echo(file_error(path, M("cannot read {path}: {problem}", path=path, problem=problem)), err=True)
            status = 2
            continue
        status = max(status, _one(path, _Canonical(path, source, encoding, keep=check_only), in_place,
                                  check_only, diff))
    sys.exit(status)


def _one(path: str, found: _Canonical, in_place: bool, check_only: bool, diff: bool) -> int:
    """Format one file as asked; its exit status."""
    import tempfile

    out = None
    if in_place and path != "-":
        try:
            write_atomically(path, _or_abandon(found))
        except _Abandoned:
            pass
        except OSError as e:  # nothing was replaced: the file is as it was
            click.echo(_("{path}: error: cannot write {path}: {reason}").format(path=path, reason=e.strerror or e),
                       err=True)
            return 2
    else:
        out = tempfile.SpooledTemporaryFile(max_size=SPOOL, mode="w+", encoding="utf-8", newline="\n")
        for chunk in found.chunks():
            out.write(chunk)
    if not found.hands:
        click.echo(file_error(path, NO_HAND), err=True)
        return 1
    if found.failed:
        hint = encoding_hint(path, found.lines)
        if hint:
            click.echo(hint, err=True)
        return 1
    if check_only:
        if not found.canonical:
            _say_where(path, found, out, diff)
            return 1
    elif in_place:
        if path == "-" and not found.canonical:
            raise click.UsageError(_("--in-place needs a file, not standard input"))
        if not found.canonical:
            click.echo(_("{path}: rewritten").format(path=path), err=True)
    elif out is not None:  # to standard output (`out` is made whenever the file is not rewritten in place)
        out.seek(0)
        for chunk in iter(lambda: out.read(1 << 16), ""):
            sys.stdout.write(chunk)
    return 0


def _say_where(path: str, found: _Canonical, out, diff: bool) -> None:
    """`--check`: the first line not in canonical form; `--diff`: each change (a unified diff,
    which holds both texts: a person reads it)."""
    out.seek(0)
    wanted = (line.rstrip("\n") for line in out)
    first = _first_difference(found.given_lines(), wanted)
    click.echo(_("{path}: not in canonical form from line {line} (--diff shows each change)").format(
        path=path, line=first))
    if diff:
        import difflib

        out.seek(0)
        lines = difflib.unified_diff(list(found.given_lines()), [line.rstrip("\n") for line in out], path,
                                     _("{path} (canonical)").format(path=path), lineterm="")
        for line in lines:
            click.echo(line)


def _or_abandon(found: _Canonical):
    """The canonical text for `write_atomically`, abandoned at its end when it must not
    replace the file (errors, no hand, or the file canonical already)."""
    yield from found.chunks()
    if found.failed or not found.hands or found.canonical:
        raise _Abandoned
