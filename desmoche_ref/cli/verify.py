"""`desmoche-ref verify`: the book is what the program wrote, or each place it is not."""

import json
import sys

import click

from .book import book_command, db_option, open_book


@click.command()
@click.option("--json", "as_json", is_flag=True,
              help='{"problems": [{"table", "hand", "seq", "message"}], "hands", "moves", "postings"}.')
@db_option
@book_command
def verify(as_json, db):
    """Check the whole book: every hand's hash chain, every hand re-judged from its moves,
    every posting against its hand's settlement.

    Each problem prints as `table T hand N move S: what is wrong`; exit 1 if there is any.

    \b
    Examples:
      desmoche-ref verify
      desmoche-ref verify --db league.db
      desmoche-ref verify --json
    """
    from ..store.verify import verify_book

    book = open_book(db)
    with book.read() as s:
        problems, counts = verify_book(s)
    if as_json:
        json.dump({"problems": [{"table": t, "hand": n, "seq": q, "message": m} for t, n, q, m in problems],
                   "hands": counts["hands"], "moves": counts["events"], "postings": counts["postings"]},
                  sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        sys.exit(1 if problems else 0)
    for table, number, seq, message in problems:
        where = f"table {table} hand {number}" + (f" move {seq}" if seq is not None else "")
        click.echo(f"{where}: {message}")
    click.echo(f"{counts['hands']} hands, {counts['events']} moves, {counts['postings']} postings: "
               + (f"{len(problems)} problem(s)" if problems else "all in order"))
    sys.exit(1 if problems else 0)
