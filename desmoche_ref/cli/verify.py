"""`desmoche-ref verify`: the book is what the program wrote, or each place it is not."""

import sys

import click

from .book import book_command, db_option, open_book


@click.command()
@db_option
@book_command
def verify(db):
    """Check the whole book: every hand's hash chain, every hand re-judged from its moves,
    every posting against its hand's settlement.

    Each problem prints as `table T hand N move S: what is wrong`; exit 1 if there is any.

    \b
    Examples:
      desmoche-ref verify
      desmoche-ref verify --db league.db
    """
    from ..store.verify import verify_book

    book = open_book(db)
    with book.read() as s:
        problems, counts = verify_book(s)
    for table, number, seq, message in problems:
        where = f"table {table} hand {number}" + (f" move {seq}" if seq is not None else "")
        click.echo(f"{where}: {message}")
    click.echo(f"{counts['hands']} hands, {counts['events']} moves, {counts['postings']} postings: "
               + (f"{len(problems)} problem(s)" if problems else "all in order"))
    sys.exit(1 if problems else 0)
