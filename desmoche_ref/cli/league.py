"""The league's commands: `import`, `export`, `standings`, `ledger`, `settle-up`.

A thin shell over store/importer.py, store/league.py and settleup.py: options in, one
transaction or one read, output as a table (tabulate), JSON or CSV.
"""

import sys

import click

from ..money import fmt
from .book import book_command, db_option, open_book

DATE = click.DateTime(formats=["%Y-%m-%d"])


def fail(message: str, status: int = 2):
    click.echo(f"error: {message}", err=True)
    sys.exit(status)


def _table(rows, headers, fmt_name="simple", right=()) -> str:
    """A tabulate table; the columns named in `right` (numbers, money) are right-aligned."""
    from tabulate import tabulate

    align = ["right" if h in right else "left" for h in headers]
    return tabulate(rows, headers=headers, tablefmt=fmt_name, disable_numparse=True, colalign=align)


def _hands(n: int) -> str:
    return f"{n} hand" + ("" if n == 1 else "s")


def _csv(rows, headers) -> None:
    import csv

    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(headers)
    out.writerows(rows)


def _json(value) -> None:
    import json

    click.echo(json.dumps(value, ensure_ascii=False, indent=1 if sys.stdout.isatty() else None))


def _selection(table, player, since, until):
    from ..store.league import Selection

    return Selection(table, player, since.date() if since else None, until.date() if until else None)


# ------------------------------------------------------------------ import
@click.command("import")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--table", "table", metavar="NAME",
              help="The table the hands go to (else each record's Table tag, else the file's name).")
@db_option
@book_command
def import_(files, table, db):
    """Judge hand records and store their valid hands in the book.

    Each hand is judged as `check` judges it. A valid hand is stored with its events, its
    verdict and its settlement's postings; an invalid one is rejected with its findings
    (PATH:LINE: CODE message) and nothing of it is stored, and the rest goes on. A hand
    already in the book (known by its content) is not stored twice, so an import cut short
    is finished by running it again. Hands that continue a table carry on its pots; a pot
    a record carries in from hands the book never saw is counted as brought in.

    Exit status: 0 when every hand was stored or known, 1 when any was rejected, 2 when a
    file cannot be read or the book cannot be used.

    \b
    Examples:
      desmoche-ref import sample_logs/*.dsm
      desmoche-ref import thursday.dsm --table 3
      desmoche-ref import night.dsm --db postgresql://league@server/book
    """
    from .runtime import collector_paused

    with collector_paused():
        status = _import_files(files, table, db)
    sys.exit(status)


def _import_files(files, table, db) -> int:
    from .files import read_record

    book = open_book(db)
    status = 0
    for path in files:
        data, problem = read_record(path)
        if problem:
            click.echo(f"{path}: error: cannot read {path}: {problem}")
            status = 2
            continue
        result = _import_one(book, data, path, table)
        for r in result.rejected:
            for line, code, message in r.findings:
                click.echo(f"{path}:{line}: {code} {message}")
            click.echo(f"{path} hand {r.number} (line {r.line}): rejected, nothing of it stored")
        where = ", ".join(result.tables)
        click.echo(f"{path}: {_hands(result.stored)} stored, {result.known} already in the book, "
                   f"{len(result.rejected)} rejected (table {where})")
        if result.rejected:
            status = max(status, 1)
    return status


def _import_one(book, data: bytes, path: str, table):
    from ..store.importer import import_records

    if not sys.stderr.isatty() or len(data) < 200_000:
        return import_records(book, data, path, table)
    lines = data.count(b"\n") + 1
    with click.progressbar(length=lines, label=path, file=sys.stderr) as bar:
        done = [0]

        def progress(line):
            bar.update(line - done[0])
            done[0] = line

        return import_records(book, data, path, table, progress)


# ------------------------------------------------------------------ export
@click.command()
@click.option("--table", metavar="NAME", help="Only this table's hands.")
@click.option("--hand", type=int, metavar="N", help="Only hand N (of --table, or of every table).")
@click.option("-o", "--out", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="Write to FILE instead of standard output.")
@db_option
@book_command
def export(table, hand, out, db):
    """Write the book's hands as canonical .dsm records (N7).

    `check` judges the output exactly as the book did: the same status, outcome and nets.
    Hands come by table, then in playing order.

    \b
    Examples:
      desmoche-ref export -o season.dsm
      desmoche-ref export --table 3 | desmoche-ref check -
      desmoche-ref export --table 3 --hand 2
    """
    from ..store.league import export_hands

    book = open_book(db)
    with book.connect() as session:
        texts = [text for _, _, text in export_hands(session, table, hand)]
    text = "\n".join(texts)
    if out:
        from .files import write_atomically

        try:
            write_atomically(out, text)
        except OSError as e:
            fail(f"cannot write {out}: {e.strerror or e}")
        click.echo(f"{out}: {_hands(len(texts))}", err=True)
    else:
        sys.stdout.write(text)
    if not texts:
        fail("no hand in the book matches", 1)


# --------------------------------------------------------------- standings
def _formats(f):
    f = click.option("--json", "as_json", is_flag=True, help="Print JSON.")(f)
    f = click.option("--csv", "as_csv", is_flag=True, help="Print CSV, one row a player.")(f)
    return click.option("--fmt", "fmt_name", default="simple", metavar="FORMAT",
                        help="Any tabulate table format (simple, github, grid, latex, html, …).")(f)


def _filters(f):
    f = click.option("--table", metavar="NAME", help="Only this table's hands.")(f)
    f = click.option("--since", type=DATE, metavar="DATE", help="Hands played on or after DATE (YYYY-MM-DD).")(f)
    return click.option("--until", type=DATE, metavar="DATE", help="Hands played on or before DATE.")(f)


STANDING_HEADERS = ["player", "hands", "wins", "auto_wins", "no_winner", "bonuses_won",
                    "bonuses_paid", "fouls", "side_games_won", "net"]


@click.command()
@_filters
@click.option("--player", metavar="P", help="Only this player's row.")
@_formats
@db_option
@book_command
def standings(table, since, until, player, as_json, as_csv, fmt_name, db):
    """The league table: per player, hands, wins, automatic wins, hands without a winner,
    bonuses won and paid, fouls, side games won, and net.

    `unwon` is the money now in pots; `brought_in` is carried-in money that entered the book
    from records without their earlier hands. The nets + unwon − brought_in = 0, exactly.
    Dates are those the hands were played (a record's Date tag, else when it was stored).

    \b
    Examples:
      desmoche-ref standings
      desmoche-ref standings --table 3 --since 2026-11-01 --json
      desmoche-ref standings --fmt github
    """
    from ..store.league import standings as compute

    _check_format(fmt_name)
    book = open_book(db)
    with book.connect() as session:
        table_ = compute(session, _selection(table, player, since, until))
    if as_json:
        return _json(table_.as_json())
    rows = [list(r.as_json().values()) for r in table_.players]
    if as_csv:
        return _csv(rows, STANDING_HEADERS)
    click.echo(_table(rows, STANDING_HEADERS, fmt_name, right=STANDING_HEADERS[1:]))
    click.echo(f"unwon (in pots) {fmt(table_.unwon)}, brought in {fmt(table_.brought_in)}")


def _check_format(name: str) -> None:
    from tabulate import tabulate_formats

    if name not in tabulate_formats:
        fail(f"unknown --fmt {name!r}: one of {', '.join(sorted(tabulate_formats))}")


# ------------------------------------------------------------------ ledger
LEDGER_HEADERS = ["table", "hand", "account", "kind", "detail", "counterparty", "amount", "reverses"]


@click.command()
@click.option("--player", metavar="P", help="Only this player's postings.")
@click.option("--table", metavar="NAME", help="Only this table's postings.")
@click.option("--hand", type=int, metavar="N", help="Only hand N (of --table, or of every table).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV, one row a posting.")
@db_option
@book_command
def ledger(player, table, hand, as_json, as_csv, db):
    """The postings behind every balance: each with its table, hand, account, kind (ante,
    pot, bonus and which, side-stake, side-win and which game, brought-in), counterparty
    and amount (+ into the account). Every hand's postings sum to zero.

    \b
    Examples:
      desmoche-ref ledger --player Ana
      desmoche-ref ledger --table 3 --hand 2
      desmoche-ref ledger --csv > postings.csv
    """
    from ..store.league import ledger as entries

    book = open_book(db)
    with book.connect() as session:
        rows = list(entries(session, player, table, hand))
    if as_json:
        return _json({"postings": [e.as_json() for e in rows]})
    cells = [[e.table, e.hand, e.account, e.kind, e.detail or "", e.counterparty, fmt(e.amount),
              "" if e.reverses is None else e.reverses] for e in rows]
    if as_csv:
        return _csv(cells, LEDGER_HEADERS)
    click.echo(_table(cells, LEDGER_HEADERS, right=("hand", "amount", "reverses")))


# --------------------------------------------------------------- settle-up
@click.command("settle-up")
@_filters
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@db_option
@book_command
def settle_up(table, since, until, as_json, db):
    """Who pays whom to clear the balances: at most one transfer fewer than the parties,
    exact to the cent. What a table does at the end of the night.

    Money still in the pots (or carried in from before the book) is one more party, (pot):
    the losers pay what stays in the pots into it, and it pays out what came from outside.

    \b
    Examples:
      desmoche-ref settle-up --table 3 --since 2026-11-26 --until 2026-11-26
      desmoche-ref settle-up --json
    """
    from ..settleup import settle_up as clear
    from ..store.league import balances

    book = open_book(db)
    with book.connect() as session:
        owed = balances(session, _selection(table, None, since, until))
    transfers = clear(owed)
    if as_json:
        return _json({"transfers": [{"from": t.payer, "to": t.payee, "amount": fmt(t.cents)}
                                    for t in transfers],
                      "balances": {p: fmt(c) for p, c in sorted(owed.items())}})
    if not transfers:
        click.echo("nothing to settle: every balance is zero")
        return
    for t in transfers:
        click.echo(f"{t.payer} pays {t.payee} {fmt(t.cents)}")
