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
from datetime import timezone

import click

from ..findings import M
from ..i18n import N_
from .lang import Command, _, lang_option, language, ngettext
from .render import say

OK, REFUSED, CHANGED, QUIT = "ok", "refused", "changed", "quit"


class Stored:
    """What an accepted move brought: new fouls and warnings, and the hand's settlement if
    the move closed it (`end`)."""

    __slots__ = ("fouls", "warnings", "closing")

    def __init__(self, fouls, warnings, closing):
        self.fouls, self.warnings, self.closing = fouls, warnings, closing


class Recorder:
    """The session's hold on one table of the book: the latest hand's referee in memory, and
    where that hand stood in the book (its seq and last hash) when this session last read or
    wrote it."""

    def __init__(self, book, table_name=None):
        from ..store import hands

        self.book = book
        with (book.read() if table_name is None else book.write()) as s:
            table = hands.find_table(s, table_name)
            if table_name is not None:  # the verbs without --table go on at this table
                hands.use_table(s, table)
            self.table_id, self.table = table.id, table.name
        self.reload()

    # ------------------------------------------------------------ reading
    def reload(self) -> None:
        """Hold the table's latest hand as the book has it (one replay of its moves)."""
        from ..engine.replay import Referee
        from ..notation.parser import parse_text
        from ..store import hands
        from ..store.models import BookTable

        with self.book.read() as s:
            hand = hands.last_hand(s, s.get(BookTable, self.table_id))
            self.ref = None
            self.hand_id = self.number = None
            self.closed, self.seq, self.last_hash, self.next_line = False, 0, "", 1
            if hand is None:
                return
            rows = hands.events(s, hand)
            lines = hands.event_lines(rows)
            ref = Referee(hands.hand_setup(hand))
            ref.run(parse_text(hands.record_text(hand, lines)).hands[0].events)
            self.ref, self.hand_id, self.number = ref, hand.id, hand.number
            self.closed = hand.closed is not None
            self.seq = rows[-1].seq if rows else 0
            self.last_hash = rows[-1].hash if rows else ""
            # the line the next move has in the hand's record (record_text: tags, a blank, moves)
            self.next_line = hands.record_text(hand, []).count("\n") + len(lines) + 1

    def hand_or_fail(self):
        from ..store.hands import StoreError

        if self.ref is None:
            raise StoreError(M("no hand yet at table {table}: `new --dealer NAME` deals the first",
                               table=self.table))

    # ------------------------------------------------------------ writing
    def move(self, move) -> Stored:
        """Judge and store one move (a `play.lines.Move`): Refused, HandChanged or StoreError
        when it is not stored.

        `end` closes a hand that is over (its settlement posted). A closed hand still takes
        what the rules allow after the end (N4.4: `show`, `end`, a `forgive` of the foul that
        ended it): its postings are reversed and the settlement posted again, all in the
        move's transaction, so a side-game card shown late counts as `check` counts it."""
        from ..engine.replay import COMPLETE
        from ..store import hands
        from ..store.models import Hand

        self.hand_or_fail()
        ev = move.event
        if ev.error is not None:
            raise hands.Refused(ev.error)
        trial = self.ref.fork()  # verify and apply at once: the fork is kept only if stored
        finding = trial.apply(ev)
        if finding is not None:
            self.check_unchanged()  # refused on the hand as the book has it, not a stale one
            raise hands.Refused(finding)
        closing = None
        try:
            with self.book.write() as s:
                hand = s.get(Hand, self.hand_id)
                hands.lock_hand(s, hand)
                if (hand.closed is not None) != self.closed:  # closed or reopened meanwhile
                    raise hands.HandChanged(hands.current_seq(s, hand))
                if self.closed:
                    hands.reverse_postings(s, hand)
                # the (hand, seq) key refuses this row if another recorder wrote seq+1 first
                row = hands.insert_event(s, hand, move.text, move.comment, self.seq, self.last_hash)
                last_hash = row.hash
                if trial.status == COMPLETE and (self.closed or ev.verb == "end"):
                    closing = hands.close_hand(s, hand)
        except hands.HandChanged:
            self.reload()
            raise
        before = self.ref.report
        self.ref, self.seq, self.last_hash = trial, self.seq + 1, last_hash
        self.next_line += 1
        self.closed = closing is not None
        after = trial.report
        return Stored([f for f in after.fouls if f not in before.fouls],
                      [w for w in after.warnings if w not in before.warnings], closing)

    def check_unchanged(self) -> None:
        """HandChanged (the hand read again) if another recorder moved it since we looked."""
        from ..store import hands
        from ..store.models import Hand

        with self.book.read() as s:
            hand = s.get(Hand, self.hand_id)
            seq, closed = hands.current_seq(s, hand), hand.closed is not None
        if seq != self.seq or closed != self.closed:
            self.reload()
            raise hands.HandChanged(seq)

    def undo(self) -> tuple:
        """(the line taken back, whether a closed hand was reopened)."""
        from ..store import hands
        from ..store.models import Event, Hand

        self.hand_or_fail()
        try:
            with self.book.write() as s:
                hand = s.get(Hand, self.hand_id)
                reopened = hand.closed is not None
                row = hands.undo(s, hand, expect_seq=self.seq)
                taken_back = s.get(Event, row.supersedes).line
        finally:
            self.reload()
        return taken_back, reopened

    def new(self, spec):
        """Deal the next hand (`hand new`'s rules): the HandReport of the hand it closed, or None."""
        from ..store import hands
        from ..store.models import BookTable

        with self.book.write() as s:
            closed, _deal = hands.open_hand(s, s.get(BookTable, self.table_id), spec.dealer, spec.sides)
        self.reload()
        return closed

    # ------------------------------------------------------------ the book
    def night(self):
        """([(hand number, dealer, outcome, winners, {player: cents})], {pot account: cents})
        from the postings of the table: what each closed hand moved, and what the pots hold."""
        from sqlalchemy import func
        from sqlmodel import select

        from ..store.models import Hand, Posting

        query = (select(Hand.number, Hand.dealer, Hand.outcome, Hand.winners, Posting.account,
                        func.sum(Posting.amount))
                 .join(Hand, Hand.id == Posting.hand_id).where(Posting.table_id == self.table_id)
                 .group_by(Hand.number, Hand.dealer, Hand.outcome, Hand.winners, Posting.account)
                 .order_by(Hand.number))
        hands_seen, pots = {}, {}
        with self.book.read() as s:
            for number, dealer, outcome, winners, account, cents in s.exec(query):
                cents = int(cents)  # PostgreSQL sums to a Decimal
                if account.startswith("pot:"):
                    pots[account] = pots.get(account, 0) + cents
                    continue
                row = hands_seen.setdefault(number, (number, dealer, outcome, winners, {}))
                row[4][account] = cents
        return [r for r in hands_seen.values() if r[2] is not None], pots  # not the reopened

    def pending(self):
        """The current hand's verdict when it is over but not yet closed (not posted), else None."""
        from ..engine.replay import COMPLETE
        from ..store import hands
        from ..store.models import Hand

        if self.ref is None or self.closed or self.ref.status != COMPLETE:
            return None
        with self.book.read() as s:
            hand = s.get(Hand, self.hand_id)
            return hands.judge(hand, hands.event_lines(hands.events(s, hand)))

    def log(self) -> list:
        """[(seq, entered, line, comment, note)] of the hand's rows, corrections included."""
        from ..store import hands
        from ..store.models import Hand

        self.hand_or_fail()
        with self.book.read() as s:
            rows = hands.events(s, s.get(Hand, self.hand_id))
        by_id = {r.id: r for r in rows}
        undone = {r.supersedes: r for r in rows if r.supersedes is not None}
        out = []
        for r in rows:
            if r.supersedes is not None:
                note = M("takes back move {seq}", seq=by_id[r.supersedes].seq)
            elif r.id in undone:
                note = M("taken back by move {seq}", seq=undone[r.id].seq)
            else:
                note = ""
            out.append((r.seq, r.entered, r.line, r.comment, note))
        return out


# ---------------------------------------------------------------- commands
def handle(recorder, typed: str, where: str = "") -> str:
    """Do what one typed line says; `where` prefixes what is refused (`LINE: ` when piped).
    Returns OK, REFUSED, CHANGED (another recorder moved the hand first) or QUIT."""
    from ..play import lines
    from ..play.prompt import foul_text
    from ..store.hands import HandChanged, Refused, StoreError

    item = lines.read(typed, recorder.next_line)
    if item is None:
        return OK
    try:
        if isinstance(item, lines.Command):
            return COMMAND_RUNNERS[item.name](recorder, item.args)
        stored = recorder.move(item)
    except Refused as e:
        click.echo(f"{where}{e.finding.code} {say(e.finding.message)}")
        return REFUSED
    except HandChanged as e:
        click.echo(where + _("the hand changed in the book (now at move {seq}): another recorder wrote to "
                             "it; this line was not stored and the session read the hand again — now "
                             "{status}").format(seq=e.seq, status=status(recorder)))
        return CHANGED
    except (StoreError, lines.Usage) as e:
        click.echo(f"{where}{reason(e)}")
        return REFUSED
    for f in stored.fouls:
        click.echo(where + _("foul {code} {foul}").format(code=f.code, foul=say(foul_text(f))))
    for w in stored.warnings:
        click.echo(where + _("warning {code} {message}").format(code=w.code, message=say(w.message)))
    if stored.closing is not None:
        say_settlement(recorder, recorder.number, stored.closing)
    return OK


def reason(error) -> str:
    """What an error of the book or of a command says (a Message when it was made below the
    shell), in the run's language."""
    return say(error.args[0]) if error.args else str(error)


def spanish() -> bool:
    return language() == "es"


def status(recorder, colour: bool = False) -> str:
    return prompt(recorder, colour)[:-3]


def prompt(recorder, colour: bool = False) -> str:
    from ..play.prompt import prompt_text

    return say(prompt_text(recorder.number, recorder.ref, recorder.closed, colour))


def no_arguments(name: str, args: str) -> None:
    from ..play.lines import SPANISH_COMMAND_OF, Usage

    if args:
        raise Usage(_("{command} takes no arguments (`help` lists the commands)").format(
            command=SPANISH_COMMAND_OF[name] if spanish() else name))


def run_state(recorder, args):
    from ..play.prompt import state_lines
    from .render import simple_table

    def grid(rows, headers):
        return simple_table([[say(cell) for cell in row] for row in rows], [say(h) for h in headers])

    no_arguments("state", args)
    recorder.hand_or_fail()
    for line in state_lines(recorder.number, recorder.ref, recorder.table, recorder.closed,
                            colour_now(), grid, spanish()):
        click.echo(say(line))
    return OK


def run_undo(recorder, args):
    no_arguments("undo", args)
    taken_back, reopened = recorder.undo()
    text = _("took back: {line} (hand {number} reopened: its postings are reversed)") if reopened \
        else _("took back: {line}")
    click.echo(text.format(line=taken_back, number=recorder.number))
    return OK


def run_new(recorder, args):
    from ..money import fmt
    from ..play.lines import read_new

    spec = read_new(args)
    previous = recorder.number
    closing = recorder.new(spec)
    if closing is not None:
        say_settlement(recorder, previous, closing)
    s = recorder.ref.setup
    carried = [_("pot {amount}").format(amount=fmt(s.carry))] if s.carry else []
    carried += [f"{game} {fmt(cents)}" for game, cents in s.side_carry.items() if cents]
    sides = [f"{e.game} {fmt(e.stake)} {' '.join(s.players[i] for i in e.players)}" for e in s.sides]
    if carried and sides:
        text = _("hand {number} at table {table}: {dealer} deals; carried in: {carried}; side games: {sides}")
    elif carried:
        text = _("hand {number} at table {table}: {dealer} deals; carried in: {carried}")
    elif sides:
        text = _("hand {number} at table {table}: {dealer} deals; side games: {sides}")
    else:
        text = _("hand {number} at table {table}: {dealer} deals")
    click.echo(text.format(number=recorder.number, table=recorder.table, dealer=s.players[s.dealer],
                           carried=", ".join(carried), sides="; ".join(sides)))
    return OK


def run_settle(recorder, args):
    from ..money import fmt
    from ..settle import MAIN_POT, pot_account
    from .render import simple_table

    no_arguments("settle", args)
    rows, pots = recorder.night()
    players = list(recorder.ref.setup.players) if recorder.ref is not None else []
    for row in rows:
        players += [p for p in row[4] if p not in players]
    totals = {p: sum(r[4].get(p, 0) for r in rows) for p in players}
    click.echo(ngettext("table {table}: the night so far, {count} hand(s) settled in the book",
                        "table {table}: the night so far, {count} hand(s) settled in the book",
                        len(rows)).format(table=recorder.table, count=len(rows)))
    table = [[number, dealer, ngettext("{winners} wins", "{winners} wins", len(winners.split())).format(
                 winners=winners) if winners else _("no winner")]
             + [fmt(net.get(p, 0)) for p in players] for number, dealer, outcome, winners, net in rows]
    table.append([_("total"), "", ""] + [fmt(totals[p]) for p in players])
    click.echo(simple_table(table, [_("hand"), _("dealer"), _("outcome")] + players,
                            right=set(range(3, 3 + len(players)))))
    held = [f"{_(MAIN) if account == pot_account(MAIN_POT) else account[4:]} {fmt(cents)}"
            for account, cents in sorted(pots.items()) if cents]
    if held:
        click.echo(_("carried in the pots: {pots}").format(pots=", ".join(held)))
    pending = recorder.pending()
    if pending is not None:
        net = pending.settlement.net
        click.echo(_("hand {number} is over but not yet settled in the book (`end` or `new` posts it): "
                     "{nets}").format(number=recorder.number, nets=", ".join(f"{p} {fmt(net[p])}" for p in net)))
    return OK


def run_log(recorder, args):
    no_arguments("log", args)
    rows = recorder.log()
    if not rows:
        click.echo(_("hand {number}: no move yet").format(number=recorder.number))
    for seq, entered, line, comment, note in rows:
        text = line if comment is None else f"{line} #{comment}"
        local = entered.replace(tzinfo=entered.tzinfo or timezone.utc).astimezone()  # stored in UTC
        click.echo(f"{seq:>4}  {local:%H:%M:%S}  {text}" + (f"  ({say(note)})" if note else ""))
    return OK


def run_help(recorder, args):
    from ..play.lines import help_text

    click.echo(help_text(say, spanish()))
    return OK


def run_quit(recorder, args):
    return QUIT


COMMAND_RUNNERS = {"state": run_state, "undo": run_undo, "new": run_new, "settle": run_settle,
                   "log": run_log, "help": run_help, "quit": run_quit}


def say_settlement(recorder, number, report) -> None:
    """A hand just closed: its outcome, money and nets, as `check` prints a hand."""
    from .render import print_hand

    print_hand(_("table {table}").format(table=recorder.table), number, report)


def colour_now() -> bool:
    from ..cards import colour_wanted

    return colour_wanted(os.environ, sys.stdout.isatty())


# ---------------------------------------------------------------- the two shells
def run_piped(recorder, stream) -> int:
    """Lines from a file or a script: no prompt; exit status 1 if a line was refused, 3 if
    another recorder moved the hand first (that line was not stored)."""
    from ..store.db import BookError

    worst = 0
    for number, raw in enumerate(stream, 1):
        try:
            typed = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError:
            click.echo(_("{line}: N1.1 this line is not valid UTF-8 text").format(line=number))
            worst = max(worst, 1)
            continue
        if number == 1:
            typed = typed.lstrip("\ufeff")
        try:
            outcome = handle(recorder, typed, f"{number}: ")
        except BookError as e:
            click.echo(f"{number}: {reason(e)}")
            return 2
        if outcome == QUIT:
            break
        worst = max(worst, {REFUSED: 1, CHANGED: 3}.get(outcome, 0))
    return worst


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
    session = PromptSession(history=FileHistory(history_path()), completer=Cards(),
                            complete_while_typing=False)
    if recorder.number:
        banner = _("table {table}: hand {number}. `help` lists the moves and commands; Tab completes; "
                   "Ctrl-D leaves.")
    else:
        banner = _("table {table}: no hand yet — `new --dealer NAME` deals the first. `help` lists the "
                   "moves and commands; Tab completes; Ctrl-D leaves.")
    click.echo(banner.format(table=recorder.table, number=recorder.number))
    while True:
        text = prompt(recorder, colour)
        try:
            typed = session.prompt(ANSI(text) if colour else text)
        except KeyboardInterrupt:
            continue  # the line is dropped; nothing typed was stored
        except (EOFError, OSError):
            return 0  # Ctrl-D, or the terminal is gone: every accepted move is stored
        try:
            if handle(recorder, typed) == QUIT:
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
    from ..play.lines import SPANISH_COMMANDS

    english = SPANISH_VERBS.get(word) or SPANISH_COMMANDS.get(word)
    return _("= {english}").format(english=english) if english else None


MAIN = N_("main")  # the main pot (settle.MAIN_POT), as `settle` names it among the pots


@click.command(cls=Command)
@click.option("--table", "table_name", metavar=N_("NAME"), default=None,
              help=N_("The table to record at. Default: the table last used in this book."))
@click.option("--db", "db", metavar="URL", default=None,
              help=N_("The book: a SQLAlchemy URL or a SQLite file path. Default: DESMOCHE_DB, "
                      "else the book in your data folder."))
@lang_option
def play(table_name, db):
    """Referee a table all night: type each move, see it judged and stored at once.

    A prompt shows the hand, whose turn it is and the card on offer
    (`H7 · Carla to act · on offer 7♣ from Beto`). Each line is one notation event
    (`draw Beto 2d`, or short: `dr Beto 2d`), judged by the rules and stored in the book
    before the prompt returns; a move the rules forbid is refused with the rule and
    nothing is stored. Tab completes verbs, names and cards. Session commands: state,
    undo, new, settle, log, help, quit (`help` lists them with the short verb forms).
    The table is opened once with `desmoche-ref table new`; the first hand of the night
    with `new --dealer NAME` in the session (or `desmoche-ref hand new --dealer NAME`).

    Piped input works too: no prompt, one event or command a line, `#` comments and
    blank lines skipped; each refused line is printed as `LINE: CODE message`. Exit
    status 0 when every line was stored, 1 if a line was refused, 3 if another recorder
    moved the hand first (that line was not stored), 2 if the book or table cannot be used.

    \b
    Examples:
      desmoche-ref play --table Friday
      desmoche-ref play --db night.db < moves.txt
      printf 'new --dealer Ana\\ndr Beto 2d\\n' | desmoche-ref play --table Friday
    """
    from ..store.db import BookError, open_book
    from ..store.hands import StoreError

    try:
        recorder = Recorder(open_book(db), table_name)
    except (BookError, StoreError) as e:
        click.echo(_("error: {message}").format(message=reason(e)), err=True)
        sys.exit(2)
    if sys.stdin.isatty() and sys.stdout.isatty():
        sys.exit(run_terminal(recorder))
    sys.exit(run_piped(recorder, sys.stdin.buffer))
