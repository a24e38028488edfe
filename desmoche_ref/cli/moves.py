"""Live entry: one command per notation verb (N4), `rec "LINE"` and `undo`.

A move is judged on the hand so far exactly as `check` judges a record; a move the rules
forbid is refused (exit 1, its rule code, nothing stored). The hand is read, the move judged
outside any lock, then stored in one short transaction that first checks the hand is still at
the move this command looked at: if another recorder got there first, exit 3, nothing stored.
"""


import click

from ..i18n import N_
from .book import book_command, db_option, open_book, table_option
from .lang import Command, _, lang_option

# verb -> (the notation's arguments after the player, help line, example arguments)
VERBS = {
    "cut": ("", N_("The player on the dealer's right cuts the deck (R3.2)."), "Beto"),
    "deal": (N_("CARDS…"), N_("Cards dealt to a player; `?x9` for nine unseen (R3.3, N6)."),
             "Beto 2s 3s 4h 7c 8d Th Jc Qd Ks"),
    "return": (N_("CARD"), N_("A card dealt too many goes back to the stock (R3.4)."), "Beto 7c"),
    "announce": (N_("GAME CARDS…"), N_("A side-game claim, before the cambio (R4.5)."), "Beto oro Qd"),
    "cambio": (N_("CARD"), N_("The player passes a card to the right (R5); `?` if unseen."), "Beto Ks"),
    "declare": (N_("KIND [CARDS…]"), N_("An automatic win: peladilla, cuatro-cuerpos or color (R6)."),
                "Carla peladilla"),
    "draw": (N_("CARD"), N_("The player turns up the top card of the stock (R7.1)."), "Beto 2d"),
    "claim": ("", N_("The player asks for the card on offer (R7.5)."), "Carla"),
    "knock": ("", N_("The player lets the card on offer go (R7.5)."), "Ana"),
    "meld": (N_("CARDS…"), N_("A new meld, cards in the order laid (R7.2, R8)."), "Carla 9s 9d 9c"),
    "add": (N_("CARDS… [to CARD]"), N_("Cards added to one of the player's melds (R8.2)."), "Carla 7d"),
    "pay": (N_("CARD"), N_("The player discards a card from hand; it goes on offer (R7.4)."), "Beto 7c"),
    "pass": ("", N_("The player passes for the rest of the hand (R13)."), "Ana"),
    "show": (N_("CARDS…"), N_("The player shows cards, e.g. side-game cards (R4.5)."), "Beto Qd"),
    "foul": (N_("KIND [CARD or WORDS…]"), N_("A foul the table saw: peek, hand CARD, other WORDS… (R14)."),
             "Beto peek"),
    "forgive": ("", N_("The table forgives the foul just recorded (R14.3)."), "Beto"),
    "end": (None, N_("The hand is over: closes it and posts its settlement (N5.4)."), ""),
}
PLAYER = N_("PLAYER")
# a verb command's help page: the verb's help line, the notation's line, examples
VERB_HELP = N_("{summary}\n\nThe notation's line `{shape}` (N4), judged on the hand so far: stored, "
               "or refused with its rule (exit 1, nothing stored).\n\n\b\nExamples:\n"
               "  {typed}\n  {typed} --table friday")


def expect_option(f):
    return click.option("--expect", "expect_seq", type=click.IntRange(min=0), metavar="N",
                        help=N_("The move number you saw (`hand show`): refused with exit 3 if the "
                                "hand has moved on since."))(f)


def verb_page(verb: str, say=str) -> str:
    """The help page of a verb's command, in the language of `say` (a gettext function)."""
    args, summary, example = VERBS[verb]
    shape = " ".join(filter(None, [verb, say(PLAYER) if args is not None else "", args and say(args)]))
    typed = " ".join(filter(None, ["desmoche-ref", verb, example]))
    return say(VERB_HELP).format(summary=say(summary), shape=shape, typed=typed)


class VerbCommand(Command):
    """A notation verb's command: its help page made from the verb's entry in VERBS, in the
    language of the run (the verb and the example stay as the notation writes them)."""

    def __init__(self, verb, **kwargs):
        super().__init__(verb, help=verb_page(verb), **kwargs)  # English: for what reads `help`
        self.verb = verb

    def format_help_text(self, ctx, formatter):
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(verb_page(self.verb, _))

    def get_short_help_str(self, limit=45):
        return _(VERBS[self.verb][1])


def make_verb(verb: str):
    args = VERBS[verb][0]

    def command(db, table_name, expect_seq, player=None, rest=()):
        line = " ".join([verb] + ([player] if player else []) + list(rest))
        record_move(db, table_name, line, expect_seq)

    params = []
    if args is not None:
        params.append(click.Argument(["player"], metavar=PLAYER))
        if args:
            params.append(click.Argument(["rest"], nargs=-1, required=not args.startswith("["),
                                         metavar=args))
    cmd = VerbCommand(verb, callback=book_command(command), params=params)
    for option in (expect_option, table_option, db_option, lang_option):
        option(cmd)  # click adds an option to a command already made
    return cmd


for _verb in VERBS:
    globals()[f"{_verb}_command"] = make_verb(_verb)


@click.command(cls=Command)
@click.argument("line", metavar=N_('"LINE"'))
@expect_option
@table_option
@db_option
@lang_option
@book_command
def rec(line, expect_seq, table_name, db):
    """Record one raw notation line (N4), e.g. with its comment.

    \b
    Examples:
      desmoche-ref rec "draw Beto 2d"
      desmoche-ref rec "draw Beto 2d  # from the bottom? the table let it go"
    """
    record_move(db, table_name, line, expect_seq)


@click.command(cls=Command)
@expect_option
@table_option
@db_option
@lang_option
@book_command
def undo(expect_seq, table_name, db):
    """Take back the hand's last move: a new row supersedes it (nothing is deleted).

    Undoing the last move of a closed hand reopens it: its postings are reversed by new
    postings. On a hand with no move yet it takes back the `hand new` that dealt it: the
    hand before reopens as it was. After `hand void` it takes the void back; after `table
    close`, the close (the table opens again, the pots it returned hold them again).

    \b
    Examples:
      desmoche-ref undo
      desmoche-ref undo --table friday --expect 12
    """
    from ..store.write.tablebook import TableBook

    book = TableBook(open_book(db), table_name)
    done = book.undo(expect_seq)
    click.echo(undone_text(done))
    if book.ref is not None:
        for text in next_state(book.ref, book.closed):
            click.echo(text)


def said_line(line: str) -> str:
    """A stored line as the run's language says it: in Spanish with its Spanish verb
    (`pagar Ana As`, N4.10); the book keeps the English one."""
    from ..play.typed import spoken
    from .lang import language

    return spoken(line, language() == "es")


def undone_text(done) -> str:
    """What an undo did, one line (the verb `undo` and the table session's `undo`)."""
    from .render import say
    from ..words import undone_message

    return say(undone_message(done, said_line(done.line) if hasattr(done, "line") else None))


def record_move(db, table_name, line: str, expect_seq) -> None:
    """Record `line` at the table's current hand (store/write/tablebook.py); print what it did and
    the table's next state."""
    from ..store.write.tablebook import TableBook
    from .render import Style

    book = TableBook(open_book(db), table_name)
    done = book.record(line, expect_seq)
    style = Style()
    if done.unchanged:
        click.echo(already_text(done))
        return
    click.echo(_("move {seq}: {line}").format(seq=done.seq, line=said_line(done.line)))
    for f in done.fouls:
        foul = _("foul {code} {player}: {message} — enforced, disqualified (`forgive` next to forgive it)") \
            if f.enforced else _("foul {code} {player}: {message} — forgiven")
        click.echo(foul.format(code=f.code, player=f.player, message=style.text(f.message)))
    for w in done.warnings:
        click.echo(_("warning {code} {message}").format(code=w.code, message=style.text(w.message)))
    if done.closing is not None:
        print_settlement(book.name, done.number, done.closing)
        return
    for text in next_state(book.ref):
        click.echo(text)


def already_text(done) -> str:
    """A line that is a move of the hand sent again (store/write/repeats.py): not stored twice."""
    from .render import say
    from ..words import already_message

    return say(already_message(done, said_line(done.line)))


def print_settlement(table: str, number: int, report) -> None:
    """A closed hand's settlement: outcome, pot, bonuses as X pays Y, side pots, nets."""
    from .render import print_hand

    click.echo(_("hand {number} closed and posted:").format(number=number))
    print_hand(_("table {table}").format(table=table), number, report, live=True)


def next_state(ref, closed: bool = False, void=None) -> list:
    """The table's next state in a line or two, in the run's language (play/prompt.py words it)."""
    from ..play.prompt import next_state_text
    from .render import Style

    style = Style()
    return [style.text(m) for m in next_state_text(ref, closed, void)]
