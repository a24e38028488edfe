"""`desmoche-ref hand new|show|log`: start a hand at a table, look at it, read its moves."""

import json
import sys

import click

from ..i18n import N_
from ..limits import nfc
from .book import HAND_NUMBER, book_command, db_option, open_book, table_option
from .lang import Command, Group, _, lang_option, ngettext
from .moves import expect_option


@click.group(cls=Group)
@lang_option
def hand():
    """Start a hand, show the table now, list the moves recorded, abandon a hand.

    \b
    Examples:
      desmoche-ref hand new --dealer Ana
      desmoche-ref hand show
      desmoche-ref hand log --all
      desmoche-ref hand void --reason "the deck was short a card"
    """


def parse_side(text: str):
    """(game, stake cents, names) from "GAME STAKE PLAYERS…" (the Side tag's value, N3)."""
    from ..money import amount_problem, parse_amount, too_large
    from .render import say

    parts = text.split()
    if len(parts) >= 3 and too_large(parts[1]):
        raise click.BadParameter(say(amount_problem(parts[1])), param_hint="--side")
    stake = parse_amount(parts[1]) if len(parts) >= 2 else None
    if stake is None or len(parts) < 3:
        raise click.BadParameter(_("{text!r}: write GAME STAKE PLAYERS…, e.g. \"oro 5 Ana Beto Carla\"").format(
            text=text), param_hint="--side")
    return parts[0], stake, [nfc(name) for name in parts[2:]]


# A command whose options take values of several words: the words its options leave over
# reach it (refuse_words_left_over says what to do) instead of click's bare "extra arguments"
WORDS_LEFT_OVER = {"allow_extra_args": True}


def refuse_words_left_over() -> None:
    """A usage error (exit 2) for the words the options left over: a value of several words
    typed without its quotes, as a record's tag reads (`--players Ana Beto Carla`,
    `--side oro 5 Ana Beto`)."""
    extra = click.get_current_context().args
    if extra:
        raise click.UsageError(_("unexpected extra arguments ({extra}): a value of several words goes in "
                                 "one argument, in quotes (--players \"Ana Beto Carla\", "
                                 "--side \"oro 5 Ana Beto\")").format(extra=" ".join(extra)))


@hand.command("new", cls=Command, context_settings=WORDS_LEFT_OVER)
@click.option("--dealer", metavar=N_("PLAYER"), help=N_("Who deals. Needed for the first hand; later "
                                                        "hands pass the deal to the right (R3.1)."))
@click.option("--side", "sides", multiple=True, metavar=N_('"GAME STAKE PLAYERS…"'),
              help=N_("A side game of this hand (R4.1); repeat for more. Default: the table's."))
@click.option("--no-sides", is_flag=True, help=N_("No side game this hand."))
@table_option
@db_option
@lang_option
@book_command
def hand_new(dealer, sides, no_sides, table_name, db):
    """Start the next hand at the table.

    The hand before is closed first (its `end` written) and its settlement posted and
    printed; it must be over (a hand is never closed half-played: finish it, or write
    `end` where the rules let it end), and no side-game claim of it may be still to show
    (`show` it, or `end` gives it up, R4.5). The pot and side pots it carried come in by
    themselves (R2.3, R4.6). A hand with no move yet is dealt again instead (the same
    number; the dealer named, else the same). `undo` right after takes it back.

    \b
    Examples:
      desmoche-ref hand new --dealer Ana
      desmoche-ref hand new
      desmoche-ref hand new --side "oro 5 Ana Beto" --side "flor 2 Ana Beto Carla"
      desmoche-ref hand new --no-sides --table friday
    """
    from ..store.write.tablebook import TableBook
    from .moves import print_settlement

    refuse_words_left_over()
    if no_sides and sides:
        raise click.UsageError(_("--side and --no-sides do not go together"))
    chosen = [] if no_sides else ([list(parse_side(s)) for s in sides] or None)
    book = TableBook(open_book(db), table_name)
    opened = book.new_hand(dealer, chosen)
    if opened.closed is not None:
        print_settlement(book.name, opened.closed_number, opened.closed)
    click.echo(opened_line(book.name, opened))
    said_warnings(opened.warnings)


def said_warnings(warnings) -> None:
    """The laws' warnings on a hand dealt (N9.3: a dealer out of turn is said, not refused)."""
    from .render import say

    for w in warnings:
        click.echo(_("warning {code} {message}").format(code=w.code, message=say(w.message)))


def opened_line(table: str, opened, command: str = "desmoche-ref hand new") -> str:
    """The line a hand dealt says (`hand new`, and `new` in the table session, whose `command`
    it names)."""
    from ..words import opened_message
    from .render import say

    return say(opened_message(table, opened, command))


@hand.command("void", cls=Command)
@click.option("--reason", required=True, metavar=N_("TEXT"),
              help=N_("Why the hand is abandoned (kept with it; shown by `hand show`, `hand log` and the report)."))
@expect_option
@table_option
@db_option
@lang_option
@book_command
def hand_void(reason, expect_seq, table_name, db):
    """Abandon the hand being played: it is closed void, as a hand never dealt is.

    Nothing is posted, the pots it carried in pass on to the next hand, and the same
    dealer deals again. Its moves stay in the log, followed by a `void` row with the
    reason; `undo` takes the void back. An export writes it with its reason (a Void tag),
    so it keeps its number (N9.6); a hand with no move is not voided.

    \b
    Examples:
      desmoche-ref hand void --reason "the deck was short a card"
      desmoche-ref hand void --table friday --reason "players left"
    """
    from ..store.write.tablebook import TableBook

    book = TableBook(open_book(db), table_name)
    click.echo(voided_text(book.void(reason, expect_seq), book.name, "desmoche-ref hand new"))


def voided_text(done, table: str, new: str) -> str:
    """What voiding a hand did (`hand void`, and `void` in the table session, whose `new` is its own)."""
    from ..words import voided_message
    from .render import say

    return say(voided_message(done, table, new))


@hand.command("show", cls=Command)
@click.option("--hand", "number", type=HAND_NUMBER, metavar=N_("INTEGER RANGE"),
              help=N_("Which hand (default: the latest)."))
@click.option("--json", "as_json", is_flag=True,
              help=N_("The hand's verdict as `check --json` gives it (N8), plus \"table\" and \"number\"."))
@click.option("--record", is_flag=True, help=N_("The hand as a .dsm record (what `check` reads)."))
@table_option
@db_option
@lang_option
@book_command
def hand_show(number, as_json, record, table_name, db):
    """Show the table now: each player's cards and melds, the card on offer, whose turn.

    \b
    Examples:
      desmoche-ref hand show
      desmoche-ref hand show --hand 2 --json
      desmoche-ref hand show --record > friday.dsm
    """
    from ..store.write.tablebook import TableBook

    shown = TableBook(open_book(db, readonly=True), table_name).view(number)
    if record:
        click.echo(shown.record, nl=False)
        return
    if as_json:
        out = {"table": shown.table, "number": shown.number, **shown.report.as_json()}
        json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return
    print_table(shown)


def print_table(shown) -> None:
    """The table now, as `hand show` prints it: the seats, the stock and discard pile, what
    comes next and the hand's findings by move."""
    from .moves import next_state
    from ..cards import pretty_cards as cards_text
    from .render import Style, simple_table, use_colour
    from ..words import STATUS

    ref = shown.ref
    colour = use_colour()
    style = Style()
    if shown.void is not None:
        state = _("void")
    else:
        state = "{}, {}".format(_("closed") if shown.closed else _("open"), _(shown.report.status))
    dealer = ref.setup.players[ref.setup.dealer]
    header = _("table {table} hand {number} ({state}), move {seq}: {dealer} dealt") if ref.deal_started \
        else _("table {table} hand {number} ({state}), move {seq}: {dealer} deals")
    click.echo(header.format(table=shown.table, number=shown.number, state=state, seq=shown.seq, dealer=dealer))
    seats = [[s.name, _(STATUS[s.status]), " ".join(filter(None, [cards_text(s.hand, colour),
                                                                  f"+{s.unknown}?" if s.unknown else ""])),
              "  ".join(cards_text(m, colour) for m in s.melds)] for s in ref.seats_view()]
    click.echo(simple_table(seats, [_("player"), _("status"), _("hand"), _("table")]))
    stock = ref.g.stock
    click.echo(ngettext("stock: {count} card; discard pile: {cards}", "stock: {count} cards; discard pile: {cards}",
                        stock).format(count=stock, cards=cards_text(ref.g.dead, colour) or _("(empty)")))
    for text in next_state(ref, shown.closed, shown.void.comment if shown.void else None):
        click.echo(text)
    # each finding at its move and at its line of `hand show --record` (the report's)
    for seq, line, code, message in shown.findings:
        click.echo(_("move {seq} (line {line}): {code} {message}").format(seq=seq, line=line, code=code,
                                                                           message=style.text(message)))


@hand.command("log", cls=Command)
@click.option("--hand", "number", type=HAND_NUMBER, metavar=N_("INTEGER RANGE"),
              help=N_("Which hand (default: the latest)."))
@click.option("--all", "everything", is_flag=True,
              help=N_("Every row, corrections included (default: the moves that stand)."))
@click.option("--json", "as_json", is_flag=True,
              help=N_('A list of {"seq", "line", "comment", "entered", "recorder", "supersedes", "superseded"}.'))
@click.option("--utc", is_flag=True, help=N_("Times in UTC (default: this machine's local time, with its offset)."))
@table_option
@db_option
@lang_option
@book_command
def hand_log(number, everything, as_json, utc, table_name, db):
    """The moves of a hand, with the time each was entered (this machine's local time and
    its offset, or UTC with --utc; the book stores UTC) and who entered it (the database's
    user on a server, the login name on a SQLite book; `-` before schema 0003).

    `undo` rows and the moves they took back show with --all.

    \b
    Examples:
      desmoche-ref hand log
      desmoche-ref hand log --all --hand 3
      desmoche-ref hand log --json
      desmoche-ref hand log --utc
    """
    from ..store.write.tablebook import TableBook
    from .moves import said_line

    shown = TableBook(open_book(db, readonly=True), table_name).view(number)
    rows = shown.log if everything else [r for r in shown.log if r.stands]
    items = [{"seq": r.seq, "line": r.line, "comment": r.comment,
              "entered": shown_time(r.entered, utc).isoformat(timespec="seconds"),
              "recorder": r.recorder, "supersedes": r.supersedes, "superseded": r.superseded} for r in rows]
    if as_json:
        json.dump(items, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return
    count = len(items)
    heading = ngettext("table {table} hand {number}: {count} row", "table {table} hand {number}: {count} rows",
                       count) if everything else \
        ngettext("table {table} hand {number}: {count} move", "table {table} hand {number}: {count} moves", count)
    click.echo(heading.format(table=shown.table, number=shown.number, count=count))
    for i, r in zip(items, rows):
        void = shown.void is not None and r.seq == shown.void.seq
        note = (_("  (undoes move {seq})").format(seq=i["supersedes"]) if i["supersedes"] else "") + \
               (_("  (undone by move {seq})").format(seq=i["superseded"]) if i["superseded"] else "") + \
               (_("  — the hand is void: {reason}").format(reason=r.comment) if void else
                f"  #{r.comment}" if r.comment else "")
        click.echo(f"{i['seq']:>4}  {i['entered'].replace('T', ' ')}  {i['recorder'] or '-'}  "
                   f"{said_line(i['line'])}{note}")


def shown_time(stored, utc: bool = False):
    """A stored time (UTC; SQLite gives it back without its zone) as shown: local, with its
    offset, or UTC."""
    from datetime import timezone

    stored = stored.replace(tzinfo=stored.tzinfo or timezone.utc)
    return stored.astimezone(timezone.utc if utc else None)
