"""Live entry: one command per notation verb (N4), `rec "LINE"` and `undo`.

A move is judged on the hand so far exactly as `check` judges a record; a move the rules
forbid is refused (exit 1, its rule code, nothing stored). The hand is read, the move judged
outside any lock, then stored in one short transaction that first checks the hand is still at
the move this command looked at: if another recorder got there first, exit 3, nothing stored.
"""


import click

from ..cards import pretty
from .book import book_command, db_option, open_book, table_option

# verb -> (the notation's arguments after the player, help line, example arguments)
VERBS = {
    "cut": ("", "The player on the dealer's right cuts the deck (R3.2).", "Beto"),
    "deal": ("CARDS…", "Cards dealt to a player; `?x9` for nine unseen (R3.3, N6).", "Beto 2s 3s 4h 7c 8d Th Jc Qd Ks"),
    "return": ("CARD", "A card dealt too many goes back to the stock (R3.4).", "Beto 7c"),
    "announce": ("GAME CARDS…", "A side-game claim, before the cambio (R4.5).", "Beto oro Qd"),
    "cambio": ("CARD", "The player passes a card to the right (R5); `?` if unseen.", "Beto Ks"),
    "declare": ("KIND [CARDS…]", "An automatic win: peladilla, cuatro-cuerpos or color (R6).", "Carla peladilla"),
    "draw": ("CARD", "The player turns up the top card of the stock (R7.1).", "Beto 2d"),
    "claim": ("", "The player asks for the card on offer (R7.5).", "Carla"),
    "knock": ("", "The player lets the card on offer go (R7.5).", "Ana"),
    "meld": ("CARDS…", "A new meld, cards in the order laid (R7.2, R8).", "Carla 9s 9d 9c"),
    "add": ("CARDS… [to CARD]", "Cards added to one of the player's melds (R8.2).", "Carla 7d"),
    "pay": ("CARD", "The player discards a card from hand; it goes on offer (R7.4).", "Beto 7c"),
    "pass": ("", "The player passes for the rest of the hand (R13).", "Ana"),
    "show": ("CARDS…", "The player shows cards, e.g. side-game cards (R4.5).", "Beto Qd"),
    "foul": ("KIND [CARD or WORDS…]", "A foul the table saw: peek, hand CARD, other WORDS… (R14).", "Beto peek"),
    "forgive": ("", "The table forgives the foul just recorded (R14.3).", "Beto"),
    "end": (None, "The hand is over: closes it and posts its settlement (N5.4).", ""),
}


def expect_option(f):
    return click.option("--expect", "expect_seq", type=click.IntRange(min=0), metavar="N",
                        help="The move number you saw (`hand show`): refused with exit 3 if the "
                             "hand has moved on since.")(f)


def make_verb(verb: str):
    args, summary, example = VERBS[verb]
    shape = " ".join(filter(None, [verb, "PLAYER" if args is not None else "", args]))
    typed = " ".join(filter(None, ["desmoche-ref", verb, example]))
    doc = (f"{summary}\n\nThe notation's line `{shape}` (N4), judged on the hand so far: stored, "
           f"or refused with its rule (exit 1, nothing stored).\n\n\b\nExamples:\n"
           f"  {typed}\n  {typed} --table friday")

    def command(db, table_name, expect_seq, player=None, rest=()):
        line = " ".join([verb] + ([player] if player else []) + list(rest))
        record_move(db, table_name, line, expect_seq)

    params = []
    if args is not None:
        params.append(click.Argument(["player"], metavar="PLAYER"))
        if args:
            params.append(click.Argument(["rest"], nargs=-1, required=not args.startswith("["),
                                         metavar=args))
    cmd = click.Command(verb, callback=book_command(command), params=params, help=doc, short_help=summary)
    for option in (expect_option, table_option, db_option):
        option(cmd)  # click adds an option to a command already made
    return cmd


for _verb in VERBS:
    globals()[f"{_verb}_command"] = make_verb(_verb)


@click.command()
@click.argument("line", metavar='"LINE"')
@expect_option
@table_option
@db_option
@book_command
def rec(line, expect_seq, table_name, db):
    """Record one raw notation line (N4), e.g. with its comment.

    \b
    Examples:
      desmoche-ref rec "draw Beto 2d"
      desmoche-ref rec "draw Beto 2d  # from the bottom? the table let it go"
    """
    record_move(db, table_name, line, expect_seq)


@click.command()
@expect_option
@table_option
@db_option
@book_command
def undo(expect_seq, table_name, db):
    """Take back the hand's last move: a new row supersedes it (nothing is deleted).

    Undoing the last move of a closed hand reopens it: its postings are reversed by new
    postings.

    \b
    Examples:
      desmoche-ref undo
      desmoche-ref undo --table friday --expect 12
    """
    from ..store import hands as H
    from ..store.models import Event

    book = open_book(db)
    with book.write() as s:
        table = H.find_table(s, table_name)
        if table.closed is not None:
            raise H.StoreError(f"table {table.name} is closed")
        hand = H.find_hand(s, table)
        reopened = hand.closed is not None
        row = H.undo(s, hand, expect_seq)
        target = s.get(Event, row.supersedes)
        if table_name:
            H.use_table(s, table)
        lines = H.event_lines(H.events(s, hand))
    click.echo(f"move {row.seq}: undid move {target.seq} ({target.line})"
               + (f"; hand {hand.number} is open again, its postings reversed" if reopened else ""))
    for text in next_state(H.referee(hand, lines)[1]):
        click.echo(text)


def record_move(db, table_name, line: str, expect_seq) -> None:
    """Judge `line` on the table's current hand and store it; print the table's next state."""
    from ..store import hands as H
    from ..store.models import Hand

    book = open_book(db)
    with book.read() as s:
        table = H.find_table(s, table_name)
        hand = H.find_hand(s, table)
        rows = H.events(s, hand)
    if table.closed is not None:
        raise H.StoreError(f"table {table.name} is closed")
    if hand.closed is not None:
        raise H.StoreError(f"hand {hand.number} at table {table.name} is closed: `desmoche-ref undo` "
                           f"reopens it, `desmoche-ref hand new` starts the next")
    seen = rows[-1].seq if rows else 0
    if expect_seq is not None and expect_seq != seen:
        raise H.HandChanged(seen)
    text, comment, report, ref = H.judge_move(hand, rows, line)
    with book.write() as s:
        hand = s.get(Hand, hand.id)
        H.expect(s, hand, seen)
        row = H.insert_event(s, hand, text, comment, seen, rows[-1].hash if rows else "")
        if text == "end":
            H.close_hand(s, hand, report)
        if table_name:
            H.use_table(s, table)
    click.echo(f"move {row.seq}: {text}")
    for f in report.fouls:
        if f.line == ref.report.last_line:
            click.echo(f"foul {f.code} {f.player}: {f.message} — "
                       + ("enforced, disqualified (`forgive` next to forgive it)" if f.enforced else "forgiven"))
    for w in report.warnings:
        if w.line == ref.report.last_line:
            click.echo(f"warning {w.code} {w.message}")
    if text == "end":
        print_settlement(table.name, hand.number, report)
        return
    for text in next_state(ref):
        click.echo(text)


def print_settlement(table: str, number: int, report) -> None:
    """A closed hand's settlement: outcome, pot, bonuses as X pays Y, side pots, nets."""
    from .render import print_hand

    click.echo(f"hand {number} closed and posted:")
    print_hand(f"table {table}", number, report)


def next_state(ref) -> list:
    """The table's next state in a line or two, from the referee's queries (suits shown)."""
    names = ref.setup.players
    outcome = ref.outcome
    if outcome is not None:
        who = " and ".join(names[s] for s in outcome.winners) or "nobody"
        how = {"win": f"{who} wins with ten cards down", "auto-win": f"{who} wins by {outcome.auto}",
               "no-winner": "no winner: the pot carries"}[outcome.kind]
        return [f"the hand is over: {how}. `show` lines may follow; `desmoche-ref end` (or the next "
                f"`hand new`) closes it and posts the settlement"]
    if ref.phase == "deal":
        held = ", ".join(f"{s.name} {len(s.hand) + s.unknown}" for s in ref.seats_view())
        return [f"the deal: {held} cards"]
    action = ref.action()
    if action is not None:
        owes = "mends the melds a desmoche broke, then pays" if action.owes == "mend" else "lays more, then pays a card"
        return [f"{names[action.seat]} took {pretty(action.taken)} and {owes}"]
    if ref.declared():
        return ["an automatic win is declared: more declarations, then `desmoche-ref end`"]
    moves = ref.moves()
    waiting = [p for verb, p in moves if verb == "cambio"]
    drawer = ref.next_drawer()
    drawer = names[drawer[0]] if drawer is not None and drawer[0] >= 0 else None
    lines = []
    if waiting:
        lines.append(f"the cambio: waiting for {', '.join(waiting)}"
                     + (f"; then {drawer} draws first" if drawer else ""))
        return lines
    offer = ref.offer()
    if offer is not None:
        may = ", ".join(names[s] for s in offer.may_take) or "nobody"
        text = f"on offer: {pretty(offer.card)} ({'drawn' if offer.drawn else 'paid'} by {names[offer.by]}); may take it: {may}"
        if offer.must_take >= 0:
            text += f"; {names[offer.must_take]} must take it (R9.1)"
        lines.append(text)
        if ("end", None) in moves:
            lines.append("if nobody takes it the stock is empty: `desmoche-ref end` ends the hand")
        elif drawer:
            lines.append(f"if nobody takes it, {drawer} draws next")
        return lines
    if ("end", None) in moves:
        return ["the stock is empty: `desmoche-ref end` ends the hand"]
    return [f"{drawer} draws next" if drawer else "no draw can come next"]
