"""`desmoche-ref table new|list|use|bet|close`: the tables of a book."""

import json
import sys

import click

from ..i18n import N_
from .book import USAGE, book_command, db_option, error_line, open_book
from .hand import WORDS_LEFT_OVER
from .lang import Command, Group, _, lang_option


@click.group(cls=Group)
@lang_option
def table():
    """The tables of the book: seats, bet, rules, side games.

    \b
    Examples:
      desmoche-ref table new friday --players "Ana Beto Carla" --bet 10 --options todo
      desmoche-ref table list
      desmoche-ref table use friday
    """


def cents(text: str, what: str) -> int:
    from ..money import amount_problem, parse_amount
    from .render import say

    amount = parse_amount(text)
    if amount is None:
        raise click.BadParameter(say(amount_problem(text)), param_hint=what)
    return amount


@table.command("new", cls=Command, context_settings=WORDS_LEFT_OVER)
@click.argument("name", metavar=N_("NAME"))
@click.option("--players", required=True, metavar=N_('"NAMES…"'), help=N_("The players in seat order."))
@click.option("--bet", required=True, metavar=N_("AMOUNT"), help=N_("Each player's ante (R2.1), e.g. 10 or 2.50."))
@click.option("--rules", type=click.Choice(["desmoche", "conquien"]), default="desmoche",
              show_default=True, help=N_("The preset (R15)."))
@click.option("--options", default="", metavar=N_('"OPTIONS"'), help=N_('Table options (R15), e.g. "todo strict".'))
@click.option("--side", "sides", multiple=True, metavar=N_('"GAME STAKE PLAYERS…"'),
              help=N_("A side game every hand plays unless `hand new` says otherwise (R4.1); repeat for more."))
@db_option
@lang_option
@book_command
def table_new(name, players, bet, rules, options, sides, db):
    """Start a table in the book; it becomes the table in use.

    \b
    Examples:
      desmoche-ref table new friday --players "Ana Beto Carla" --bet 10
      desmoche-ref table new club --players "Ana Beto Carla Dora" --bet 2.50 \\
          --rules conquien --options "todo strict" --side "oro 5 Ana Beto Carla"
    """
    from ..money import fmt
    from ..store.write.tablebook import create_table
    from .hand import parse_side, refuse_words_left_over

    refuse_words_left_over()
    parsed = [parse_side(s) for s in sides]
    row = create_table(open_book(db), name, players.split(), cents(bet, "--bet"), rules, options, parsed)
    options = _(", options {options}").format(options=row.options) if row.options else ""
    options += "".join(_(", side {game} {stake} ({players})").format(game=g, stake=fmt(st), players=" ".join(n))
                       for g, st, n in row.sides)
    # the first line as it always read (what scripts and the guide show); the seats numbered
    # below it, so a name typed with a space is seen split (issue 17)
    click.echo(_("table {name}: {players}, bet {bet}, {rules}{options} — next: "
                 "`desmoche-ref hand new --dealer NAME`").format(
        name=row.name, players=" ".join(row.players), bet=fmt(row.bet), rules=row.rules, options=options))
    seats = " · ".join(f"{n} {p}" for n, p in enumerate(row.players, 1))
    click.echo(_("seats {seats} (one name a seat: a name with a space is written with _, as José_María)").format(
        seats=seats))


@table.command("list", cls=Command)
@click.option("--json", "as_json", is_flag=True, help=N_("Print the tables as JSON."))
@db_option
@lang_option
@book_command
def table_list(as_json, db):
    """The tables in the book, the one in use marked with *.

    \b
    Examples:
      desmoche-ref table list
      desmoche-ref table list --json
    """
    from ..money import fmt
    from ..store.write.tablebook import list_tables

    rows = [{"name": t.name, "players": t.players, "bet": fmt(t.bet), "rules": t.rules,
             "options": t.options, "sides": [[g, fmt(st), n] for g, st, n in t.sides],
             "hands": t.hands, "closed": t.closed, "in_use": t.in_use}
            for t in list_tables(open_book(db, readonly=True))]
    if as_json:
        json.dump(rows, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return
    if not rows:
        click.echo(_("no table yet: `desmoche-ref table new NAME --players \"Ana Beto Carla\" --bet 10`"))
        return
    from .render import simple_table

    closed = any(r["closed"] for r in rows)  # a column of its own only when a table is closed
    click.echo(simple_table([["*" if r["in_use"] else "", r["name"], " ".join(r["players"]), r["bet"],
                              r["rules"], r["options"], r["hands"]]
                             + ([_("closed") if r["closed"] else _("open")] if closed else []) for r in rows],
                            ["", _("table"), _("players"), _("bet"), _("rules"), _("options"), _("hands")]
                            + ([_("state")] if closed else []), right={3, 6}))


@table.command("use", cls=Command)
@click.argument("name", metavar=N_("NAME"))
@db_option
@lang_option
@book_command
def table_use(name, db):
    """Make NAME the table the other commands use without --table.

    \b
    Examples:
      desmoche-ref table use friday
    """
    from ..store.write.tablebook import use_table

    use_table(open_book(db), name)
    click.echo(_("using table {name}").format(name=name))


@table.command("bet", cls=Command)
@click.argument("name", metavar=N_("NAME"))
@click.argument("amount", metavar=N_("AMOUNT"))
@click.option("--all-agree", is_flag=True, help=N_("Every player at the table agrees (R2.2): required."))
@db_option
@lang_option
@book_command
def table_bet(name, amount, all_agree, db):
    """Change the bet for the next hands: only between hands, with every player agreeing
    (R2.2), and never while a pot is carried (R2.3).

    \b
    Examples:
      desmoche-ref table bet friday 20 --all-agree
    """
    from ..money import fmt
    from ..store.write.tablebook import TableBook

    if not all_agree:
        click.echo(error_line(_("R2.2 the bet changes only if every player agrees: add --all-agree")), err=True)
        sys.exit(USAGE)
    bet = cents(amount, _("AMOUNT"))
    TableBook(open_book(db), name).set_bet(bet)
    click.echo(_("table {name}: the bet is {bet} from the next hand").format(name=name, bet=fmt(bet)))


@table.command("close", cls=Command)
@click.argument("name", metavar=N_("NAME"))
@click.option("--yes", is_flag=True, help=N_("Close without asking (a terminal asks first; a script never)."))
@db_option
@lang_option
@book_command
def table_close(name, yes, db):
    """The table breaks up: its last hand is closed (it must be over) and any pot still
    carried is returned to the players in proportion to what each put in (R11.5).

    At a terminal it asks first (--yes does not); `undo`, or `table reopen NAME`, takes the
    close back.

    \b
    Examples:
      desmoche-ref table close friday
      desmoche-ref table close friday --yes
    """
    from ..store.write.tablebook import TableBook

    book = TableBook(open_book(db), name)
    if not yes and sys.stdin.isatty() and not click.confirm(close_question(book.name)):
        click.echo(_("table {name} left open").format(name=book.name))
        return
    say_closed(book.name, book.close())


def say_closed(name: str, closed) -> None:
    """What closing a table did (`table close`, `close` in the table session): the settlement
    of the hand it closed, then each carried pot returned (R11.5: words.table_closed_messages)."""
    from ..words import table_closed_messages
    from .moves import print_settlement
    from .render import say

    if closed.closed is not None:
        print_settlement(name, closed.closed_number, closed.closed)
    for line in table_closed_messages(name, closed):
        click.echo(say(line))


def close_question(name: str) -> str:
    """What `table close` asks at a terminal (and `close` in the table session)."""
    return _("close table {name} for good? its last hand is closed and the pots it carries go back to the "
             "players (R11.5); `undo` takes it back").format(name=name)


@table.command("reopen", cls=Command)
@click.argument("name", metavar=N_("NAME"))
@db_option
@lang_option
@book_command
def table_reopen(name, db):
    """Open a closed table again, as it was before its close: the pots it returned to the
    players (R11.5) hold them again, and its next hand is dealt as it would have been.

    \b
    Examples:
      desmoche-ref table reopen friday
    """
    from ..store.write.tablebook import TableBook
    from ..words import reopened_message
    from .render import say

    click.echo(say(reopened_message(TableBook(open_book(db), name).reopen())))
