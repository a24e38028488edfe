"""`desmoche-ref play`: the table session — one process for the whole night.

The session keeps the hand's referee in memory: a move is judged on a fork of it (nothing
is replayed from the first line), stored in one transaction that checks the hand has not
moved in the book meanwhile, and the fork becomes the session's referee only once the
move is committed. So a move the rules refuse changes nothing, an accepted move is in the
book before the prompt returns, and a move another recorder beat us to is not stored: the
hand is read again from the book and the session says so.

The words (short forms, commands, completion, the prompt) are pure functions in
`desmoche_ref/play/`; here are the book (`Recorder`), the terminal and the pipe. Everything
is said in the run's language (cli/lang.py): the pure functions' messages through `say`.
"""

import os
import sys

import click

from ..findings import M
from ..i18n import N_
from ..notation.writer import with_comment
from .book import db_option
from .lang import Command, _, lang_option, language, ngettext
from .render import Style, say

OK, REFUSED, CHANGED, QUIT = "ok", "refused", "changed", "quit"


def open_table(book, table_name=None):
    """The night's hold on one table of the book (store/write/tablebook.py: its latest hand's
    referee kept in memory); the table the verbs go on at once the session writes there."""
    from ..store.write.tablebook import TableBook

    return TableBook(book, table_name)


# ---------------------------------------------------------------- commands
def handle(recorder, typed: str, where: str = "", echo: bool = False, follow: bool = False,
           tally=None) -> str:
    """Do what one typed line says; `where` prefixes what is refused (`LINE: ` when piped);
    `echo` (a terminal) says each accepted move in a line; `follow` (piped): the lines may be
    a hand sent again, matched move by move (store/write/repeats.py); `tally` (a Counter) counts
    the moves `stored` and those `already` recorded. Returns OK, REFUSED, CHANGED (another
    recorder moved the hand first) or QUIT."""
    from ..play.typed import Command, Usage, read, spoken
    from ..play.prompt import echo_text, foul_text
    from ..store.read.hands import HandChanged, Refused, StoreError

    item = read(typed, recorder.seq + 1)
    if item is None:
        return OK
    try:
        if isinstance(item, Command):
            return COMMAND_RUNNERS[item.name](recorder, item.args, follow)
        hand_or_fail(recorder)
        if item.event.error is not None:
            raise Refused(item.event.error)
        stored = recorder.record(with_comment(item.text, item.comment), follow=follow)
    except Refused as e:
        click.echo(where + _("refused: {code} {message} (nothing stored)").format(
            code=e.finding.code, message=say(e.finding.message)))
        return REFUSED
    except HandChanged as e:
        click.echo(where + _("the hand changed in the book (now at move {seq}): another recorder wrote to "
                             "it; this line was not stored and the session read the hand again — now "
                             "{status}").format(seq=e.seq, status=status(recorder)))
        return CHANGED
    except (StoreError, Usage) as e:
        click.echo(f"{where}{reason(e)}")
        return REFUSED
    if tally is not None:
        tally["already" if stored.unchanged else "stored"] += 1
    if stored.unchanged:
        from .moves import already_text

        click.echo(where + already_text(stored))
        return OK
    if echo:
        click.echo(say(echo_text(stored.seq, spoken(stored.line, spanish()), recorder.ref,
                                 stored.closing is not None, colour_now())))
    style = Style()
    for f in stored.fouls:
        click.echo(where + _("foul {code} {foul}").format(code=f.code, foul=style.text(foul_text(f))))
    for w in stored.warnings:
        click.echo(where + _("warning {code} {message}").format(code=w.code, message=style.text(w.message)))
    if stored.closing is not None:
        say_settlement(recorder, stored.number, stored.closing)
    return OK


def hand_or_fail(recorder) -> None:
    """The table's hand (TableBook.hand: read again if none was held), or the session's own
    word for a table with none yet: `new` deals it here."""
    from ..store.read.hands import StoreError

    try:
        recorder.hand()
    except StoreError:
        raise StoreError(M("no hand yet at table {table}: `new --dealer NAME` deals the first",
                           table=recorder.name)) from None


def reason(error) -> str:
    """What an error of the book or of a command says (a Message when it was made below the
    shell), in the run's language, naming the session's commands (`end`, not
    `desmoche-ref end`)."""
    from ..findings import IN_SESSION, reworded

    words = dict(IN_SESSION, new=session_command("new"), look=session_command("state"))
    return say(reworded(error.args[0], **words)) if error.args else str(error)


def spanish() -> bool:
    return language() == "es"


def session_command(name: str) -> str:
    """A session command as the recorder types it in the run's language (`new`, `nueva`)."""
    from ..play.typed import SPANISH_COMMAND_OF

    return SPANISH_COMMAND_OF[name] if spanish() else name


def status(recorder, colour: bool = False) -> str:
    return prompt(recorder, colour)[:-3]


def prompt(recorder, colour: bool = False) -> str:
    from ..play.prompt import prompt_text

    return say(prompt_text(recorder.number, recorder.ref, recorder.closed, colour, recorder.closed_table, spanish()))


def no_arguments(name: str, args: str) -> None:
    from ..play.typed import SPANISH_COMMAND_OF, Usage

    if args:
        raise Usage(_("{command} takes no arguments (`help` lists the commands)").format(
            command=SPANISH_COMMAND_OF[name] if spanish() else name))


def run_state(recorder, args, follow=False):
    from ..play.prompt import state_lines
    from .render import simple_table

    def grid(rows, headers):
        return simple_table([[say(cell) for cell in row] for row in rows], [say(h) for h in headers])

    no_arguments("state", args)
    hand_or_fail(recorder)
    style = Style()  # cards named in a finding as every other card of the view (A♥, not Ah)
    for line in state_lines(recorder.number, recorder.ref, recorder.name, recorder.closed,
                            colour_now(), grid, spanish()):
        click.echo(style.text(line))
    return OK


def run_undo(recorder, args, follow=False):
    from .moves import undone_text

    no_arguments("undo", args)
    click.echo(undone_text(recorder.undo(recorder.seq)))
    return OK


def run_new(recorder, args, follow=False):
    from ..play.typed import read_new
    from .hand import opened_line, said_warnings

    spec = read_new(args)
    opened = recorder.new_hand(spec.dealer, spec.sides, follow=follow)
    if opened.closed is not None:
        say_settlement(recorder, opened.closed_number, opened.closed)
    click.echo(opened_line(recorder.name, opened, session_command("new")))
    said_warnings(opened.warnings)
    return OK


def run_void(recorder, args, follow=False):
    from ..play.typed import Usage
    from .hand import voided_text

    if not args.strip():
        raise Usage(_("void takes the reason: `void the deck was short a card`"))
    hand_or_fail(recorder)
    click.echo(voided_text(recorder.void(args, recorder.seq), recorder.name, session_command("new")))
    return OK


ASK = None  # how the terminal's session asks a yes or no (run_terminal sets it: prompt_toolkit's own)


def run_close(recorder, args, follow=False):
    """The table breaks up, as `table close` (a terminal asks first; a file's line is its own word)."""
    from .table import close_question, say_closed

    no_arguments("close", args)
    if not follow and not (ASK or click.confirm)(close_question(recorder.name)):
        click.echo(_("table {name} left open").format(name=recorder.name))
        return OK
    say_closed(recorder.name, recorder.close())
    return OK


def run_settle(recorder, args, follow=False):
    from ..money import fmt
    from ..settle import MAIN_POT
    from .render import simple_table

    no_arguments("settle", args)
    night = recorder.night()
    players = night.players
    click.echo(ngettext("table {table}: the night so far, {count} hand settled in the book",
                        "table {table}: the night so far, {count} hands settled in the book",
                        len(night.hands)).format(table=night.table, count=len(night.hands)))
    table = [[h.number, h.dealer, ngettext("{winners} wins", "{winners} win", len(h.winners)).format(
                 winners=" ".join(h.winners)) if h.winners else _("no winner")]
             + [fmt(h.net.get(p, 0)) for p in players] for h in night.hands]
    table.append([_("total"), "", ""] + [fmt(night.totals[p]) for p in players])
    click.echo(simple_table(table, [_("hand"), _("dealer"), _("outcome")] + players,
                            right=set(range(3, 3 + len(players)))))
    held = [f"{_(MAIN) if pot == MAIN_POT else pot} {fmt(cents)}" for pot, cents in sorted(night.pots.items())]
    if held:
        click.echo(_("carried in the pots: {pots}").format(pots=", ".join(held)))
    if night.pending is not None:
        net = night.pending.settlement.net
        click.echo(_("hand {number} is over but not yet settled in the book (`end` or `new` posts it): "
                     "{nets}").format(number=recorder.number, nets=", ".join(f"{p} {fmt(net[p])}" for p in net)))
    return OK


def run_log(recorder, args, follow=False):
    from .hand import shown_time
    from .moves import said_line

    no_arguments("log", args)
    hand_or_fail(recorder)
    rows = recorder.view().log
    if not rows:
        click.echo(_("hand {number}: no move yet").format(number=recorder.number))
    for r in rows:
        text = with_comment(said_line(r.line), r.comment)
        if r.supersedes is not None:
            text += "  (" + _("takes back move {seq}").format(seq=r.supersedes) + ")"
        elif r.superseded is not None:
            text += "  (" + _("taken back by move {seq}").format(seq=r.superseded) + ")"
        click.echo(f"{r.seq:>4}  {shown_time(r.entered).isoformat(timespec='seconds')[11:]}  {text}")
    return OK


def run_help(recorder, args, follow=False):
    from ..play.typed import help_text

    click.echo(help_text(say, spanish()))
    return OK


def run_quit(recorder, args, follow=False):
    return QUIT


COMMAND_RUNNERS = {"state": run_state, "undo": run_undo, "new": run_new, "void": run_void,
                   "settle": run_settle, "close": run_close, "log": run_log, "help": run_help, "quit": run_quit}


def say_settlement(recorder, number, report) -> None:
    """A hand just closed: its outcome, money and nets, as `check` prints a hand."""
    from .render import print_hand

    print_hand(_("table {table}").format(table=recorder.name), number, report, live=True)


def colour_now() -> bool:
    from ..cards import colour_wanted

    return colour_wanted(os.environ, sys.stdout.isatty())


# ---------------------------------------------------------------- the two shells
def run_piped(recorder, stream, keep_going: bool = False) -> int:
    """Lines from a file or a script: no prompt; exit status 1 if a line was refused, 3 if
    another recorder moved the hand first (that line was not stored). The first such line
    stops the input (the lines after it were written for a hand that went otherwise), unless
    `keep_going`."""
    from collections import Counter

    from ..store.db import BookError

    worst = done = 0
    tally: Counter[str] = Counter()   # stored, already
    for number, raw in enumerate(stream, 1):
        try:
            typed = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError:
            click.echo(f"{number}: " + _("refused: {code} {message} (nothing stored)").format(
                code="N1.1", message=_("this line is not valid UTF-8 text")))
            outcome = REFUSED
        else:
            if number == 1:
                typed = typed.lstrip("\ufeff")
            try:
                outcome = handle(recorder, typed, f"{number}: ", follow=True, tally=tally)
            except BookError as e:
                from ..store.locks import Busy

                click.echo(f"{number}: {reason(e)}")
                return 3 if isinstance(e, Busy) else 2
        if outcome == QUIT:
            break
        worst = max(worst, {REFUSED: 1, CHANGED: 3}.get(outcome, 0))
        if outcome == OK:
            done += 1 if typed.strip() and not typed.strip().startswith("#") else 0
        elif not keep_going:
            click.echo(ngettext("stopped at line {line}: {count} line before it was done; correct line "
                                "{line} and send the lines from it again (--keep-going goes on past a "
                                "refused line)",
                                "stopped at line {line}: {count} lines before it were done; correct line "
                                "{line} and send the lines from it again (--keep-going goes on past a "
                                "refused line)", done).format(line=number, count=done))
            return worst
    if not worst and (tally["stored"] or tally["already"]):  # success: what the moves did (commands say theirs)
        click.echo(piped_summary(tally["stored"], tally["already"]))
    return worst


def piped_summary(stored: int, already: int) -> str:
    """What a piped session did, at its end: the moves stored, and those it found recorded already."""
    text = ngettext("{count} line stored", "{count} lines stored", stored).format(count=stored)
    if already:
        text += ngettext("; {count} already recorded", "; {count} already recorded", already).format(count=already)
    return text


def history_path() -> str:
    from platformdirs import user_data_dir

    folder = user_data_dir("desmoche-ref", appauthor=False)
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "play-history")


def run_terminal(recorder) -> int:
    """The prompt: history across sessions, Tab completion, suits in colour."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.formatted_text import ANSI
    from prompt_toolkit.history import FileHistory

    from ..cards import parse_card
    from ..play.complete import candidates
    from ..play.prompt import card_text
    from ..store.db import BookError

    colour, es = colour_now(), spanish()

    class Cards(Completer):
        def get_completions(self, document, complete_event):
            partial, words = candidates(document.text_before_cursor, recorder.ref, es)
            for word in words:
                card = parse_card(word) if len(word) == 2 else None
                shown = ANSI(card_text(card, colour)) if card is not None else word
                yield Completion(word, start_position=-len(partial), display=shown,
                                 display_meta=stored_as(word) if es else None)

    # completion on Tab only (as readline): a menu popping up at each key would be noise
    # at a table where the recorder types fast; the first Tab inserts what all candidates share
    session: PromptSession[str] = PromptSession(history=FileHistory(history_path()), completer=Cards(),
                            complete_while_typing=False)

    def ask(question: str) -> bool:  # the session's own prompt: the terminal stays in its hands
        answer = session.prompt(question + " " + _("[y/N]: "), completer=None)
        return answer.strip().lower() in (_("y"), _("yes"), "y", "yes")

    global ASK
    ASK = ask
    if recorder.number:
        banner = _("table {table}: hand {number}. `help` lists the moves and commands; Tab completes; "
                   "Ctrl-D leaves.")
    else:
        banner = _("table {table}: no hand yet — `new --dealer NAME` deals the first. `help` lists the "
                   "moves and commands; Tab completes; Ctrl-D leaves.")
    click.echo(banner.format(table=recorder.name, number=recorder.number))
    while True:
        text = prompt(recorder, colour)
        try:
            typed = session.prompt(ANSI(text) if colour else text)
        except KeyboardInterrupt:
            continue  # the line is dropped; nothing typed was stored
        except (EOFError, OSError):
            return 0  # Ctrl-D, or the terminal is gone: every accepted move is stored
        try:
            if handle(recorder, typed, echo=True) == QUIT:
                return 0
        except KeyboardInterrupt:
            recorder.reload()  # the move may or may not have been committed: ask the book
            click.echo(_("interrupted: read the hand again from the book — {status}").format(
                status=status(recorder)))
        except BookError as e:
            click.echo(reason(e))


def stored_as(word: str) -> str | None:
    """What the completion menu says beside a Spanish word: the verb or command it stands for."""
    from ..notation.parser import SPANISH_VERBS
    from ..play.typed import SPANISH_COMMANDS

    english = SPANISH_VERBS.get(word) or SPANISH_COMMANDS.get(word)
    return _("= {english}").format(english=english) if english else None


MAIN = N_("main")  # the main pot (settle.MAIN_POT), as `settle` names it among the pots


@click.command(cls=Command)
@click.option("--table", "table_name", metavar=N_("NAME"), default=None,
              help=N_("The table to record at. Default: where you last worked in this book."))
@db_option
@click.option("--keep-going", is_flag=True,
              help=N_("Piped input: go on past a refused line (by default the first one stops it)."))
@lang_option
def play(table_name, db, keep_going):
    """Referee a table all night: type each move, see it judged and stored at once.

    A prompt shows the hand, whose turn it is and the card on offer
    (`H7 · Carla to act · on offer 7♣ from Beto`). Each line is one notation event
    (`draw Beto 2d`, or short: `dr Beto 2d`), judged by the rules and stored in the book
    before the prompt returns; a move the rules forbid is refused with the rule and
    nothing is stored. Tab completes verbs, names and cards. Session commands: state,
    undo, new, void, settle, log, help, quit (`help` lists them with the short verb forms).
    The table is opened once with `desmoche-ref table new`; the first hand of the night
    with `new --dealer NAME` in the session (or `desmoche-ref hand new --dealer NAME`).

    Piped input works too: no prompt, one event or command a line, `#` comments and
    blank lines skipped. The first refused line is printed as `LINE: refused: CODE
    message (nothing stored)` and stops the input (saying how many lines were done and
    which to correct); with --keep-going every line is tried. Exit status 0 when every line was stored, 1 if a
    line was refused, 3 if another recorder moved the hand first (that line was not
    stored), 2 if the book or table cannot be used.

    \b
    Examples:
      desmoche-ref play --table Friday
      desmoche-ref play --db night.db < moves.txt
      printf 'new --dealer Ana\\ndr Beto 2d\\n' | desmoche-ref play --table Friday
      desmoche-ref play --keep-going < night.txt
    """
    from ..store.db import BookError, open_book
    from ..store.read.hands import StoreError

    from .book import say_if_made

    try:
        book = open_book(db)
        say_if_made(book)
        recorder = open_table(book, table_name)
    except (BookError, StoreError) as e:
        click.echo(_("error: {message}").format(message=reason(e)), err=True)
        sys.exit(2)
    if sys.stdin.isatty() and sys.stdout.isatty():
        sys.exit(run_terminal(recorder))
    sys.exit(run_piped(recorder, sys.stdin.buffer, keep_going))
