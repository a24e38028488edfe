"""What every scorebook command shares: `--db`, `--table`, and one exit status per kind of failure.

Exit status: 0 done; 1 a move the rules refuse (its rule code and the reason; nothing stored);
2 a usage error — a book that cannot be opened, an unknown table or player, a command the
book refuses (one line, nothing written); 3 the hand changed since the command looked
(another recorder stored a move first; nothing stored).
"""

import functools
import sys

import click

REFUSED, USAGE, CHANGED = 1, 2, 3


def db_option(f):
    return click.option("--db", "db", metavar="URL",
                        help="The book: a SQLAlchemy URL (sqlite:///PATH, postgresql+psycopg://USER@HOST/DB) "
                             "or a file path. Default: $DESMOCHE_DB, else one book in your data "
                             "folder (`desmoche-ref db path`).")(f)


def table_option(f):
    return click.option("--table", "table_name", metavar="NAME",
                        help="The table. Default: the table last used in this book.")(f)


def book_command(f):
    """Run a command; its failures become one line on stderr and the exit status above."""

    @functools.wraps(f)
    def run(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except Exception as exc:
            from ..store.db import BookError
            from ..store.hands import HandChanged, Refused, StoreError

            if isinstance(exc, Refused):
                click.echo(f"refused: {exc.finding.code} {exc.finding.message} (nothing stored)", err=True)
                sys.exit(REFUSED)
            if isinstance(exc, HandChanged):
                click.echo(f"{exc} (nothing stored)", err=True)
                sys.exit(CHANGED)
            if isinstance(exc, (BookError, StoreError)):
                click.echo(f"error: {exc}", err=True)
                sys.exit(USAGE)
            raise
        finally:
            _close_books()

    return run


_OPEN = []  # the books this command opened: closed when it ends (CliRunner runs many)


def open_book(db):
    from ..store.db import open_book

    book = open_book(db)
    _OPEN.append(book)
    return book


def _close_books():
    while _OPEN:
        _OPEN.pop().engine.dispose()


def table_and_hand(session, table_name, number=None):
    """(table, hand) named by --table / --hand, else the last used table and its latest hand."""
    from ..store import hands as H

    table = H.find_table(session, table_name)
    return table, H.find_hand(session, table, number)
