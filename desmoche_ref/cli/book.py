"""What every scorebook command shares: `--db`, `--table`, and one exit status per kind of failure.

Exit status: 0 done; 1 a move the rules refuse (its rule code and the reason; nothing stored);
2 a usage error — a book that cannot be opened, an unknown table or player, a command the
book refuses (one line, nothing written); 3 the hand changed since the command looked
(another recorder stored a move first; nothing stored), or another session held a lock on the
book longer than the program waits (store/locks.py; one line naming it, nothing written).

The store's errors carry their message (a findings.Message, or a plain str): it is printed
in the language of the run (render.say), a plain str as it is.
"""

import functools
import sys
from typing import TYPE_CHECKING

import click

from ..i18n import N_
from .lang import _

if TYPE_CHECKING:
    from ..store.db import Book

REFUSED, USAGE, CHANGED = 1, 2, 3


DB_HELP = N_("The book: a SQLAlchemy URL (sqlite:///PATH, postgresql+psycopg://USER@HOST/DB) "
             "or a file path. Default: $DESMOCHE_DB, else one book in your data "
             "folder (`desmoche-ref db path`).")
DB_KEY = "desmoche_ref.db"  # ctx.meta: the --db given before the command


def _db_given_before(ctx, param, value):
    """The group's --db (`desmoche-ref --db club.db table new …`): kept for the command."""
    if value is not None:
        ctx.meta[DB_KEY] = value
        warn_of_password(ctx, value)


def _db_here_or_before(ctx, param, value):
    """The command's own --db, else the one given before the command, else None (then
    $DESMOCHE_DB or the default: store.db.resolve_url)."""
    if value is not None:
        warn_of_password(ctx, value)
    return value if value is not None else ctx.meta.get(DB_KEY)


WARNED_KEY = "desmoche_ref.db.warned"  # ctx.meta: the password warning said once a run


def warn_of_password(ctx, value: str) -> None:
    """A password in --db is in the process's arguments, which every user of this computer
    can read (`ps`, /proc) for as long as the command runs — `play` and `board` all night —
    and which the process cannot take back (docs/security.md): said once, on standard error,
    with the places that keep it to its owner. The command goes on."""
    if "@" not in value or "://" not in value or ctx.find_root().meta.get(WARNED_KEY):
        return
    from ..store.errors import BookError
    from ..store.location import parse_url

    try:
        password = parse_url(value).password
    except BookError:
        return  # not a URL: the book's opening says so
    if password:
        ctx.find_root().meta[WARNED_KEY] = True
        click.echo(_("warning: the --db URL holds a password, which every user of this computer can read "
                     "(`ps`) while the command runs: put it in ~/.pgpass (PGPASSFILE), a service file "
                     "(postgresql+psycopg:///?service=NAME, PGSERVICEFILE) or DESMOCHE_DB instead"), err=True)


# `--db` before the command, as `--lang` may be: every command that opens the book takes it
group_db_option = click.option("--db", metavar="URL", expose_value=False, callback=_db_given_before,
                               help=DB_HELP)


def db_option(f):
    return click.option("--db", "db", metavar="URL", callback=_db_here_or_before, help=DB_HELP)(f)


def table_option(f):
    return click.option("--table", "table_name", metavar=N_("NAME"),
                        help=N_("The table. Default: where you last worked in this book (your last write there, "
                                "or `table use`)."))(f)


class HandNumber(click.ParamType):
    """A hand's number, 1 to the largest the book holds (limits.HAND): past it, click's own
    "not in the range" refusal (exit 2), and no range in the help."""

    name = "integer"

    def convert(self, value, param, ctx):
        from ..limits import HAND

        number = click.INT.convert(value, param, ctx)
        if not 1 <= number <= HAND:
            self.fail(_("{value} is not in the range {range}.").format(value=number, range=f"1<=x<={HAND}"),
                      param, ctx)
        return number


HAND_NUMBER = HandNumber()


def error_line(message) -> str:
    """The one line of a command the book refuses: `error: ` and the message."""
    from .render import say

    return _("error: {message}").format(message=say(message))


def _message(exc):
    return exc.args[0] if exc.args else str(exc)


def book_command(f):
    """Run a command; its failures become one line on stderr and the exit status above."""

    @functools.wraps(f)
    def run(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except Exception as exc:
            from ..store.db import BookError
            from ..store.read.hands import HandChanged, Refused, StoreError
            from ..store.locks import Busy
            from .render import say

            if isinstance(exc, Refused):
                click.echo(_("refused: {code} {message} (nothing stored)").format(
                    code=exc.finding.code, message=say(exc.finding.message)), err=True)
                sys.exit(REFUSED)
            if isinstance(exc, HandChanged):
                click.echo(_("{message} (nothing stored)").format(message=say(_message(exc))), err=True)
                sys.exit(CHANGED)
            if isinstance(exc, (BookError, StoreError)):
                click.echo(error_line(_message(exc)), err=True)
                sys.exit(CHANGED if isinstance(exc, Busy) else USAGE)
            raise
        finally:
            _close_books()

    return run


_OPEN: list["Book"] = []  # the books this command opened: closed when it ends (CliRunner runs many)


def open_book(db, readonly: bool = False):
    """The book, closed when the command ends; `readonly` for the commands that only read
    (store.db.open_book: nothing written, not even a migration)."""
    from ..store.db import open_book

    book = open_book(db, readonly=readonly)
    _OPEN.append(book)
    say_if_made(book)
    return book


def say_if_made(book) -> None:
    """A book this command made (a first use, or a mistyped --db): said once, on standard
    error, so that standard output (`--json`) stays the same."""
    if book.made:
        from ..store.db import describe, sqlite_path

        click.echo(_("new book at {book}").format(book=sqlite_path(book.url) or describe(book.url)), err=True)


def _close_books():
    while _OPEN:
        _OPEN.pop().close()

