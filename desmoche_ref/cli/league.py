"""The league's commands: `import`, `export`, `standings`, `ledger`, `settle-up`.

A thin shell over the book-wide scorebook service (store/read/scorebook.py) and settleup.py:
options in, one call (one transaction or one read), output as a table (tabulate), JSON or CSV. What a person reads is
in the language of the run (cli/lang.py): the help, the lines, the tables' headers and the
ledger's words; --json and --csv keep their English keys and values.
"""

import sys

import click

from ..i18n import N_
from ..money import fmt
from .book import HAND_NUMBER, book_command, db_option, open_book
from .files import encoding_option
from .lang import Command, _, lang_option, ngettext


DATE = click.DateTime(formats=["%Y-%m-%d"])  # a day; click says what is wrong, in the run's language


def fail(message: str, status: int = 2):
    click.echo(_("error: {message}").format(message=message), err=True)
    sys.exit(status)


def table_text(rows, headers, fmt_name="simple", right=()) -> str:
    """A tabulate table, its headers in the language of the run; the columns whose English
    header is in `right` (numbers, money) are right-aligned."""
    from tabulate import tabulate

    align = ["right" if h in right else "left" for h in headers]
    return tabulate(rows, headers=[_(h) for h in headers], tablefmt=fmt_name, disable_numparse=True,
                    colalign=align)


def echo_csv(rows, headers) -> None:
    import csv

    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(headers)
    out.writerows(rows)


def echo_json(value) -> None:
    import json

    click.echo(json.dumps(value, ensure_ascii=False, indent=1 if sys.stdout.isatty() else None))


def _selection(table, player, since, until):
    from ..store.read.league import Selection

    return Selection(table, player, since.date() if since else None, until.date() if until else None)


# ------------------------------------------------------------------ import
@click.command("import", cls=Command)
@click.argument("files", nargs=-1, required=True, metavar=N_("FILE..."))
@click.option("--table", "table", metavar=N_("NAME"),
              help=N_("The table the hands go to (else each record's Table tag, else the file's name)."))
@encoding_option
@db_option
@lang_option
@book_command
def import_(files, table, encoding, db):
    """Judge hand records and store their valid hands in the book.

    Each hand is judged as `check` judges it. A valid hand is stored with its events, its
    verdict and its settlement's postings; an invalid one is rejected with its findings
    (PATH:LINE: CODE message) and nothing of it is stored, and the rest goes on. A hand
    already in the book (known by its content) is not stored twice, so an import cut short
    is finished by running it again. Hands are held to the laws across hands (N9) against
    each other and the book's last hand of their table, as a live `hand new` is: one that
    drops or invents a carried pot, or changes the bet while a pot is carried, is rejected
    (R2.3, R4.6); a dealer out of turn is stored with a warning (R3.1). What a table's first
    hand carries in from hands the book never saw is counted as brought in. A file is read
    as it is imported: memory stays the same whatever its size.

    Exit status: 0 when every hand was stored or known, 1 when any was rejected, 2 when a
    file cannot be read or the book cannot be used, 130 when stopped with Ctrl-C (it says
    how many hands were stored: the same command stores the rest).

    \b
    Examples:
      desmoche-ref import sample_logs/*.dsm
      desmoche-ref import thursday.dsm --table 3
      desmoche-ref import --encoding cp1252 old-windows-file.dsm
      desmoche-ref import night.dsm --db postgresql://league@server/book
    """
    if table is not None:
        from ..limits import table_name
        from .render import say

        table, problem = table_name(table)
        if problem:
            fail(_("--table: {problem}").format(problem=say(problem)))
    sys.exit(_import_files(files, table, db, encoding))


def _import_files(files, table, db, encoding) -> int:
    from ..findings import M
    from ..notation.parser import NO_HAND
    from .files import encoding_hint
    from .render import Style, print_file_error, print_findings

    # The first file's hands are judged from before the book is opened: the judging process
    # works while this one loads SQLAlchemy and connects (store/write/judging.py)
    first = _Source(files[0], table, encoding)
    try:
        from ..store.read.scorebook import Scorebook

        book = Scorebook(open_book(db))
    except BaseException:
        first.close()
        raise
    status = stored = 0
    plain = Style(ascii_only=True)  # cards as the record writes them
    for number, path in enumerate(files):
        with first if number == 0 else _Source(path, table, encoding) as source:
            if source.problem:
                print_file_error(path, M("cannot read {path}: {problem}", path=path, problem=source.problem))
                status = 2
                continue
            try:
                result = source.import_into(book)
            except KeyboardInterrupt as stop:  # Ctrl-C: say what is in the book and how to finish
                stored += getattr(stop, "stored", 0)
                click.echo(ngettext("interrupted: {count} hand stored; run the same command again to store "
                                    "the rest (a hand already in the book is not stored twice)",
                                    "interrupted: {count} hands stored; run the same command again to store "
                                    "the rest (a hand already in the book is not stored twice)",
                                    stored).format(count=stored), err=True)
                return 130
        stored += result.stored
        hint = encoding_hint(path, result)
        if not result.tables:  # as `check` says it, and as it exits
            print_file_error(path, NO_HAND)
            if hint:
                click.echo(hint)
            status = max(status, 1)
            continue
        for w in result.warnings:  # stored: a warning does not refuse (N9.3)
            print_findings(path, w.findings, plain)
        for r in result.rejected:
            print_findings(path, r.findings, plain)
            click.echo(_("{path} hand {number} (line {line}): rejected, nothing of it stored").format(
                path=path, number=r.number, line=r.line))
        click.echo(ngettext(
            "{path}: {count} hand stored, {known} already in the book, {rejected} rejected (table {tables})",
            "{path}: {count} hands stored, {known} already in the book, {rejected} rejected (table {tables})",
            result.stored).format(path=path, count=result.stored, known=result.known,
                                  rejected=len(result.rejected), tables=", ".join(result.tables)))
        if hint:
            click.echo(hint)
        if result.rejected:
            status = max(status, 1)
    return status


class _Source:
    """A file to import, read block by block: opened (else its `problem`), and its hands being
    judged by a process of their own (store/write/judging.py) from the moment this is made. A
    progress bar on a terminal for a big one."""

    def __init__(self, path: str, table, encoding):
        from ..store.write.judging import Judging
        from .files import open_binary
        from .runtime import collector_paused

        self.path, self.table, self.encoding = path, table, encoding
        self.judging = self.lines = None
        self.f, self.problem = open_binary(path)
        if self.problem is None:
            self.lines = _bar_length(self.f)  # read before the judging process shares the file
            # forked with the collector off, which it keeps (it judges as `check` does); this
            # process, which writes, has it back: a write's session leaves cycles behind
            with collector_paused():
                self.judging = Judging.of_file(self.f, path, table, encoding)

    def import_into(self, book):
        if self.lines is None:
            return book.import_file(self.judging, self.path, self.table, encoding=self.encoding)
        # the label is the file's name: the bar has no words (its figures are a percentage and a time)
        with click.progressbar(length=self.lines, label=self.path, file=sys.stderr) as bar:
            done = [0]

            def progress(line):
                bar.update(line - done[0])
                done[0] = line

            return book.import_file(self.judging, self.path, self.table, progress, encoding=self.encoding)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.judging is not None:
            self.judging.close()
        if self.f is not None:
            self.f.close()


def _bar_length(f):
    """The lines of a big file imported on a terminal (its progress bar's length: the file is
    read once for it), else None."""
    import os
    import stat

    from ..notation.parser import read_blocks

    try:
        info = os.fstat(f.fileno())
    except (OSError, ValueError):  # standard input that is no file (a test's)
        return None
    if not sys.stderr.isatty() or not stat.S_ISREG(info.st_mode) or info.st_size < 200_000:
        return None
    lines = sum(block.count(b"\n") for block in read_blocks(f)) + 1
    f.seek(0)
    return lines


# ------------------------------------------------------------------ export
@click.command(cls=Command)
@click.option("--table", metavar=N_("NAME"), help=N_("Only this table's hands."))
@click.option("--hand", type=HAND_NUMBER, metavar="N", help=N_("Only hand N (of --table, or of every table)."))
@click.option("-o", "--out", type=click.Path(dir_okay=False, writable=True), metavar=N_("FILE"),
              help=N_("Write to FILE instead of standard output."))
@click.option("--force", is_flag=True, help=N_("Write over FILE if it exists (never over the book)."))
@db_option
@lang_option
@book_command
def export(table, hand, out, force, db):
    """Write the book's hands as canonical .dsm records (N7).

    `check` judges the output exactly as the book did: the same status, outcome and nets.
    Hands come by table, then in playing order; a hand with no move (never dealt, or begun
    and not played yet) is left out, a closed table's last hand carries [Closed "yes"], and
    the notes written above a record's tags are written back. Importing the export into a new book gives the same hands,
    standings, ledger totals, settle-up and tables. With -o, the book head is printed too
    (keep it: `verify --head` proves the book unchanged up to it). `-o FILE` is written
    whole or not at all, with the mode the umask gives a new file; an existing FILE only
    with --force, and never the book (or any SQLite database). The hands are written as they are
    read, a batch at a time: memory stays the same whatever the book's size.

    \b
    Examples:
      desmoche-ref export -o season.dsm
      desmoche-ref export --table 3 | desmoche-ref check -
      desmoche-ref export --table 3 --hand 2
      desmoche-ref export -o season.dsm --force
    """
    from ..store.db import sqlite_path
    from ..store.read.scorebook import Scorebook
    from .files import OutputRefused, check_output, write_output

    book = open_book(db, readonly=True)
    book_file = sqlite_path(book.url)
    if out:
        try:
            check_output(out, force, book_file)  # before the book is read
        except OutputRefused as e:
            fail(str(e))
    with Scorebook(book).export(table, hand) as hands:
        written = [0]

        def texts():  # the records one after another, a blank line between two
            for _table, _number, text in hands:
                written[0] += 1
                yield text if written[0] == 1 else "\n" + text

        if out:
            try:
                write_output(out, texts(), force, book_file)
            except OutputRefused as e:
                fail(str(e))
            except OSError as e:
                fail(_("cannot write {path}: {reason}").format(path=out, reason=e.strerror or e))
        else:
            for text in texts():
                sys.stdout.write(text)
        book_head = hands.head
    count = written[0]
    if out:
        click.echo(ngettext("{path}: {count} hand", "{path}: {count} hands", count).format(
            path=out, count=count), err=True)
        if book_head:  # what `verify --head` proves later (on standard output only the records)
            click.echo(_("book head: {head}").format(head=book_head), err=True)
    if not count:
        fail(_("no hand in the book matches"), 1)


# --------------------------------------------------------------- standings
def _formats(f):
    f = click.option("--json", "as_json", is_flag=True, help=N_("Print JSON."))(f)
    f = click.option("--csv", "as_csv", is_flag=True, help=N_("Print CSV, one row a player."))(f)
    return click.option("--fmt", "fmt_name", default="simple", metavar=N_("FORMAT"),
                        help=N_("Any tabulate table format (simple, github, grid, latex, html, …)."))(f)


def _filters(f):
    f = click.option("--table", metavar=N_("NAME"), help=N_("Only this table's hands."))(f)
    f = click.option("--since", type=DATE, metavar=N_("DATE"),
                     help=N_("Hands played on or after DATE (YYYY-MM-DD)."))(f)
    return click.option("--until", type=DATE, metavar=N_("DATE"), help=N_("Hands played on or before DATE."))(f)


# The columns: the JSON's keys, and CSV's header
STANDING_HEADERS = ["player", "hands", "wins", "auto_wins", "no_winner", "bonuses_won", "bonuses_paid", "fouls",
                    "side_games_won", "net"]
# ... and as a table shows them, in words (the report's), in the language of the run
STANDING_WORDS = [N_("player"), N_("hands"), N_("wins"), N_("automatic wins"), N_("no winner"), N_("bonuses won"),
                  N_("bonuses paid"), N_("fouls"), N_("side games won"), N_("net")]


@click.command(cls=Command)
@_filters
@click.option("--player", metavar="P", help=N_("Only this player's row."))
@click.option("--min-nights", type=click.IntRange(min=1), metavar="N",
              help=N_("Qualify for the table only the players who sat in at least N nights; "
                      "list the others apart."))
@_formats
@db_option
@lang_option
@book_command
def standings(table, since, until, player, min_nights, as_json, as_csv, fmt_name, db):
    """The league table: per player, hands, wins, automatic wins, hands without a winner,
    bonuses won and paid, fouls, side games won, and net.

    `unwon` is the money now in pots; `brought_in` is carried-in money that entered the book
    from records without their earlier hands. The nets + unwon − brought_in = 0, exactly.
    Dates are those the hands were played (a record's Date tag, else when it was stored).
    With --min-nights N (a league's usual rule), the table ranks the players who sat in at
    least N nights (a night: a table's hands of one day) and lists the others apart.

    \b
    Examples:
      desmoche-ref standings
      desmoche-ref standings --table 3 --since 2026-11-01 --json
      desmoche-ref standings --fmt github
      desmoche-ref standings --min-nights 4
    """
    from ..store.read.scorebook import Scorebook

    check_format(fmt_name)
    book = Scorebook(open_book(db, readonly=True))
    sel = _selection(table, player, since, until)
    table_ = book.standings(sel)
    nights = None
    if min_nights is not None:
        from ..store.read.ratings import Filter

        nights = book.nights_played(Filter((sel.table,) if sel.table else (), sel.since, sel.until))
    if as_json:
        out = table_.as_json()
        if nights is not None:
            out["min_nights"] = min_nights
            for row in out["players"]:
                row["nights"] = nights.get(row["player"], 0)
                row["qualified"] = row["nights"] >= min_nights
        return echo_json(out)
    rows = [list(r.as_json().values()) for r in table_.players]
    if nights is None:
        if as_csv:
            return echo_csv(rows, STANDING_HEADERS)
        click.echo(table_text(rows, STANDING_WORDS, fmt_name, right=STANDING_WORDS[1:]))
    else:
        _qualified_tables(rows, nights, min_nights, as_csv, fmt_name)
        if as_csv:
            return
    click.echo(_("unwon (in pots) {unwon}, brought in {brought_in}").format(
        unwon=fmt(table_.unwon), brought_in=fmt(table_.brought_in)))


def _qualified_tables(rows, nights, min_nights, as_csv, fmt_name) -> None:
    """The standings with each player's nights: those with at least `min_nights` in the
    table, the others apart (CSV: one table, with the nights and whether qualified)."""
    shown = [row + [nights.get(row[0], 0)] for row in rows]
    if as_csv:
        return echo_csv([row + ["yes" if row[-1] >= min_nights else "no"] for row in shown],
                    STANDING_HEADERS + ["nights", "qualified"])
    headers = STANDING_WORDS + [N_("nights")]
    qualified = [row for row in shown if row[-1] >= min_nights]
    apart = [row for row in shown if row[-1] < min_nights]
    if qualified:
        click.echo(table_text(qualified, headers, fmt_name, right=headers[1:]))
    else:  # an empty table says why it is empty
        click.echo(ngettext("nobody has played {count} night yet (a night: a table's hands of one day, "
                            "counted when the player sat in a complete one)",
                            "nobody has played {count} nights yet (a night: a table's hands of one day, "
                            "counted when the player sat in a complete one)", min_nights).format(count=min_nights))
    if apart:
        click.echo(ngettext("Fewer than {count} night, not qualified:", "Fewer than {count} nights, not qualified:",
                            min_nights).format(count=min_nights))
        click.echo(table_text(apart, headers, fmt_name, right=headers[1:]))


def check_format(name: str) -> None:
    from tabulate import tabulate_formats

    if name not in tabulate_formats:
        fail(_("unknown --fmt {name!r}: one of {formats}").format(
            name=name, formats=", ".join(sorted(tabulate_formats))))


# ------------------------------------------------------------------ ledger
LEDGER_HEADERS = [N_("table"), N_("hand"), N_("account"), N_("kind"), N_("detail"), N_("counterparty"),
                  N_("amount"), N_("reverses")]
# The postings' kinds (settle.py, importer.py, hands.py), for the catalog: the ledger's table
# shows them in the language of the run (--json and --csv write the book's own words)
KINDS = (N_("ante"), N_("pot"), N_("bonus"), N_("side-stake"), N_("side-win"), N_("side-refund"),
         N_("refund"), N_("brought-in"))


def _in_words():
    """The ledger's table row of a posting: the postings' kinds, bonuses and the accounts that
    are no player's (the pots, `outside`) in the language of the run; the players' and side
    games' names as they are. Each distinct name is looked up once (a season has few, and many
    postings)."""
    from functools import lru_cache

    from ..store.read.league import BROUGHT_IN, MAIN_POT, OUTSIDE

    @lru_cache(maxsize=None)
    def account(name, kind):
        if name.startswith("pot:"):  # settle.pot_account; no player's name has a colon (N3.1)
            game = name[len("pot:"):]
            return _("pot:main") if game == MAIN_POT else _("pot:{game}").format(game=game)
        return _("outside") if name == OUTSIDE and kind == BROUGHT_IN else name

    @lru_cache(maxsize=None)
    def words(kind, detail):
        if kind == "bonus":
            detail = _(detail)  # mico, …: in the catalog (cli/render.py)
        elif kind == "refund" and detail == MAIN_POT:  # R11.5's main pot
            detail = _("main")
        return _(kind), detail or ""

    return lambda e: [e.table, e.hand, account(e.account, e.kind), *words(e.kind, e.detail),
                      account(e.counterparty, e.kind), fmt(e.amount), "" if e.reverses is None else e.reverses]


def _streamed_table(rows, headers, right=()) -> None:
    """`click.echo(table_text(list(rows), headers, right=right))` written a row at a time: `rows` is
    iterated twice, first for each column's width, then to write the rows. The layout is
    tabulate's "simple" one, as `table_text` makes it (tests/test_streaming.py holds the two
    together): cells stripped, a column as wide as its widest cell or its header and two,
    tabulate's measure of width, two spaces between columns, lines stripped at their end, a
    line of dashes under the headers."""
    import tabulate as measure

    wide = getattr(measure, "_visible_width", len)

    def width(cell: str) -> int:  # ASCII is as wide as it is long: tabulate's measure for the rest
        return len(cell) if cell.isascii() else wide(cell)

    words = [_(h) for h in headers]
    widths = [width(w) + 2 for w in words]
    empty = True
    for row in rows:
        empty = False
        for i, cell in enumerate(row):
            w = width(str(cell).strip())
            if w > widths[i]:
                widths[i] = w
    if empty:
        return click.echo(table_text([], headers, right=right))
    ends = [h in right for h in headers]

    def line(cells) -> str:
        return "  ".join(" " * (w - width(c)) + c if end else c + " " * (w - width(c))
                         for c, w, end in zip(cells, widths, ends)).rstrip()

    out = sys.stdout
    out.write(line(words) + "\n" + "  ".join("-" * w for w in widths) + "\n")
    for row in rows:
        out.write(line([str(cell).strip() for cell in row]) + "\n")


def _json_list(key: str, items) -> None:
    """`echo_json({key: list(items)})`, written an item at a time: the same one document."""
    import json

    out, tty, first = sys.stdout, sys.stdout.isatty(), True
    encode = json.JSONEncoder(ensure_ascii=False, indent=1 if tty else None).encode  # one encoder for all
    out.write(f"{{\n {json.dumps(key)}: [" if tty else f"{{{json.dumps(key)}: [")
    for item in items:
        if tty:
            out.write(("\n  " if first else ",\n  ") + encode(item).replace("\n", "\n  "))
        else:
            out.write(("" if first else ", ") + encode(item))
        first = False
    out.write(("]" if first else "\n ]") + "\n}\n" if tty else "]}\n")


@click.command(cls=Command)
@click.option("--player", metavar="P", help=N_("Only this player's postings."))
@click.option("--table", metavar=N_("NAME"), help=N_("Only this table's postings."))
@click.option("--hand", type=HAND_NUMBER, metavar="N", help=N_("Only hand N (of --table, or of every table)."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print JSON."))
@click.option("--csv", "as_csv", is_flag=True, help=N_("Print CSV, one row a posting."))
@db_option
@lang_option
@book_command
def ledger(player, table, hand, as_json, as_csv, db):
    """The postings behind every balance: each with its table, hand, account, kind (ante,
    pot, bonus and which, side-stake, side-win and which game, brought-in), counterparty
    and amount (+ into the account). Every hand's postings sum to zero. The postings are
    written as they are read, a batch at a time: memory stays the same whatever the book's size.

    \b
    Examples:
      desmoche-ref ledger --player Ana
      desmoche-ref ledger --table 3 --hand 2
      desmoche-ref ledger --csv > postings.csv
    """
    from ..store.read.scorebook import Scorebook

    with Scorebook(open_book(db, readonly=True)).ledger(player, table, hand) as rows:
        if as_json:
            return _json_list("postings", (e.as_json() for e in rows))
        if as_csv:  # the book's own words
            return echo_csv(([e.table, e.hand, e.account, e.kind, e.detail or "", e.counterparty, fmt(e.amount),
                          "" if e.reverses is None else e.reverses] for e in rows), LEDGER_HEADERS)
        row = _in_words()
        _streamed_table(_Mapped(row, rows), LEDGER_HEADERS, right=("hand", "amount", "reverses"))


class _Mapped:
    """`f` of each of `rows`, as often as it is iterated."""

    def __init__(self, f, rows):
        self.f, self.rows = f, rows

    def __iter__(self):
        return map(self.f, self.rows)


# --------------------------------------------------------------- settle-up
@click.command("settle-up", cls=Command)
@_filters
@click.option("--json", "as_json", is_flag=True, help=N_("Print JSON."))
@db_option
@lang_option
@book_command
def settle_up(table, since, until, as_json, db):
    """Who pays whom to clear the balances: at most one transfer fewer than the parties,
    exact to the cent. What a table does at the end of the night.

    A pot carried to a table's next hand stays in it: the antes in it are already there, and
    its share of each player who put it in is still theirs (R11.5 returns it if the table
    breaks up), so nobody pays it to anyone; a line says what each pot holds and who put it
    in. Money carried in from before the book is one more party, (pot), that pays it out.

    \b
    Examples:
      desmoche-ref settle-up --table 3 --since 2026-11-26 --until 2026-11-26
      desmoche-ref settle-up --json
    """
    from ..store.read.league import POT_PARTY
    from ..store.read.scorebook import Scorebook

    done = Scorebook(open_book(db, readonly=True)).settlement(_selection(table, None, since, until))
    if as_json:
        return echo_json({"transfers": [{"from": t.payer, "to": t.payee, "amount": fmt(t.cents)}
                                    for t in done.transfers],
                      "balances": {p: fmt(c) for p, c in sorted(done.balances.items())},
                      "held": [{"table": h.table, "pot": h.pot, "amount": fmt(h.cents),
                                "put_in": {p: fmt(c) for p, c in h.put_in.items()}} for h in done.held]})

    def party(name):  # the pots' party in words ("(pot)" is no player's name, N3.1)
        return _("(pot)") if name == POT_PARTY else name

    if not done.transfers:
        click.echo(_("nothing to settle between the players") if done.held
                   else _("nothing to settle: every balance is zero"))
    for t in done.transfers:
        click.echo(_("{payer} pays {payee} {amount}").format(payer=party(t.payer), payee=party(t.payee),
                                                             amount=fmt(t.cents)))
    for h in done.held:
        click.echo(held_line(h))


def held_line(h) -> str:
    """A pot carried to a table's next hand, in words: what it holds and who put it in."""
    from ..findings import listed
    from .render import say

    who = say(listed([f"{name} {fmt(cents)}" for name, cents in h.put_in.items()]))
    if h.pot == "main":
        return _("table {table}'s pot holds {amount} for its next hand, put in by {who}").format(
            table=h.table, amount=fmt(h.cents), who=who)
    return _("table {table}'s {game} pot holds {amount} for its next hand, put in by {who}").format(
        table=h.table, game=h.pot, amount=fmt(h.cents), who=who)
