"""`desmoche-ref verify`: the book is what the program wrote, or each place it is not."""

import json
import sys

import click

from ..i18n import N_
from .book import book_command, db_option, open_book
from .lang import Command, _, lang_option, ngettext


@click.command(cls=Command)
@click.option("--head", "head", metavar=N_("DIGEST"),
              help=N_("Also prove that the book's history up to DIGEST (a book head `verify` printed "
                      "before) is unchanged."))
@click.option("--json", "as_json", is_flag=True,
              help=N_('{"problems": [{"table", "hand", "seq", "message"}], "hands", "moves", "postings", '
                      '"journal", "head"}.'))
@db_option
@lang_option
@book_command
def verify(head, as_json, db):
    """Check the whole book: every hand's hash chain, every hand re-judged from its moves,
    every posting and every derived column recomputed, hand numbers without a gap, each
    table's hands held to the laws across hands (NOTATION N9: each hand carries in what the
    one before carried out, the bet changes only between hands and never while a pot is
    carried, R2.2–R2.3 — the laws every write and `check --session` apply), and the book's
    journal — one chain over every write the book keeps, to the BOOK HEAD it prints, with
    who wrote each row.

    Keep the head (a league writes it in its minutes): `verify --head DIGEST` later proves
    that nothing written up to it was changed, even by someone who could rewrite the whole
    book and recompute its hashes, the way a git commit id pins its history.

    Each problem prints as `table T hand N move S: what is wrong`; exit 1 if there is any.

    \b
    Examples:
      desmoche-ref verify
      desmoche-ref verify --db league.db
      desmoche-ref verify --head 3f1c…e9a0
      desmoche-ref verify --json
    """
    from ..store.read.scorebook import Scorebook
    from .render import say

    problems, counts, book_head = Scorebook(open_book(db, readonly=True)).verify(head)
    if as_json:
        json.dump({"problems": [{"table": t, "hand": n, "seq": q, "message": m} for t, n, q, m in problems],
                   "hands": counts["hands"], "moves": counts["events"], "postings": counts["postings"],
                   "journal": counts["journal"], "head": book_head},
                  sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        sys.exit(1 if problems else 0)
    for table, number, seq, message in problems:
        if table is None:
            where = _("the book")
        elif number is None:
            where = _("table {table}")
        elif seq is None:
            where = _("table {table} hand {number}")
        else:
            where = _("table {table} hand {number} move {seq}")
        click.echo(f"{where.format(table=table, number=number, seq=seq)}: {say(message)}")
    hands, moves, postings = counts["hands"], counts["events"], counts["postings"]
    verdict = ngettext("{count} problem", "{count} problems", len(problems)).format(count=len(problems)) \
        if problems else _("all in order")
    click.echo(", ".join([ngettext("{count} hand", "{count} hands", hands).format(count=hands),
                          ngettext("{count} move", "{count} moves", moves).format(count=moves),
                          ngettext("{count} posting", "{count} postings", postings).format(count=postings)])
               + f": {verdict}")
    click.echo(_("book head: {head}").format(head=book_head or _("none (nothing written yet)")))
    sys.exit(1 if problems else 0)
