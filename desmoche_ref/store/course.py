"""A hand's course at its table beyond its moves: which hand the table is at, `hand new` (a
hand dealt, or dealt again), the close that `hand new` and `table close` make, a table closed,
a hand voided, and the undo of a `hand new`. Above store/hands.py (the rows of one hand).
Every function works inside the caller's transaction (`Book.write()`), its table locked
(hands.lock_table); docs/rulings.md lists each decision.

- The table is at its earliest open hand, else its latest: an `undo` right after `hand new`
  reopens the hand before while the hand it had dealt waits, untouched, to be dealt again.
- A hand with no move is dealt again by the next `hand new` (same number; the dealer named,
  else the same), never left empty behind another; a waiting hand is dealt again, its
  carried pots as they stand, when the hand before it closes.
- `hand new` and `table close` close a hand that is over as its `end` would, and write that
  `end` (so that an undo takes it back); never while a side-game claim may still be shown
  (R4.5): `end` is the explicit way to give one up.
- `hand void --reason TEXT`: the hand is closed as a hand with no move is (no postings, its
  carries pass on, the same dealer deals again); its moves stay, a `void` row carrying the
  reason follows them, and an `undo` takes it back.
"""

from sqlmodel import col, select

from .. import laws
from ..cards import names
from ..describe import claims_shown_as, show_commands
from ..findings import COMMAND_LINE, M, MN
from ..limits import nfc, too_long
from ..referee import COMPLETE
from .codecs import SIDES
from .hands import (close_hand, events, insert_event, judge_rows, last_hand, new_hand_row, obey,
                    player_ids, refund_postings, returned, table_laws, undo)
from .journal import journal_hand, journal_postings, journal_redeal, journal_table, journal_verdict
from .lawbook import follow_on_laws
from .models import BookTable, Hand, Posting, now
from .records import REFUND, VOID_LINE, live_events, standing_rows, void_hash
from .terms import CLOSE, END, REOPEN, VOID, StoreError, closed_table

# the columns of a hand's setup a deal again writes anew (journal.hand_text holds them all). Its
# seats, rules, options and bet are the table's, which change only while no hand is open
# (`table bet`, an import's last hand): never for a hand with no move, which is open
REDEALT = ("dealer", "carry_in", "sides", "side_carry", "extra_tags", "opened")
FIXED = ("players", "rules", "options", "bet")


def current_hand(session, table):
    """The hand the table is at: its earliest open hand, else its latest (or None)."""
    found = session.exec(select(Hand).where(Hand.table_id == table.id, Hand.closed.is_(None))
                         .order_by(Hand.number).limit(1)).first()
    if found is not None:
        return found
    return last_hand(session, table)


def untouched(session, hand) -> bool:
    """Open, and no row of it stands (never dealt, or every move taken back)."""
    return hand.closed is None and not standing_rows(events(session, hand))


def waiting_after(session, table, hand):
    """The hand dealt after `hand` that waits to be played (its `hand new` taken back), or None."""
    later = session.exec(select(Hand).where(Hand.table_id == table.id, Hand.number == hand.number + 1)).first()
    return later if later is not None and later.closed is None else None


def deal_again(session, table, hand, previous, dealer=None, sides=None) -> list:
    """`hand` dealt anew, same number: its setup made as `hand new` makes the hand after
    `previous` now (its carried pots as they stand), the dealer named or else the deal's
    rotation, the side games given or else its own. Journaled (`redeal`); a deal again that
    changes nothing writes nothing (two recorders typing `hand new` at once: one hand). The
    laws across hands judge it as `hand new` would (an error refuses it); their warnings back."""
    before = table_laws(session, table, below=hand.number)
    fresh = new_hand_row(table, previous, before, dealer, SIDES.decode(hand.sides) if sides is None else sides)
    warnings = obey(follow_on_laws(before, laws.HandFacts.of_row(fresh)))
    if any(getattr(hand, c) != getattr(fresh, c) for c in FIXED):  # only an edit behind our back
        raise StoreError(M("hand {number} at table {table} is not dealt with the table's seats and stakes: "
                           "`desmoche-ref verify` says why", number=hand.number, table=table.name))
    if all(getattr(hand, c) == getattr(fresh, c) for c in REDEALT if c != "opened"):
        return warnings
    for column in REDEALT:
        setattr(hand, column, getattr(fresh, column))
    hand.opened = now()
    session.add(hand)
    journal_redeal(session, hand)
    return warnings


def redeal(session, table, hand, dealer=None, sides=None) -> list:
    """`hand new` on a hand with no move: the same hand dealt again (the dealer named, else the
    same); the laws' warnings (laws.py) of the deal."""
    previous = find_hand(session, table, hand.number - 1) if hand.number > 1 else None
    warnings = deal_again(session, table, hand, previous, dealer or hand.dealer, sides)
    if dealer is None:  # its dealer kept: a dealer out of turn was said when it was named
        warnings = [w for w in warnings if w.code != "R3.1"]
    return warnings


def follow_on(session, table, hand):
    """After `hand` closed: the hand waiting after it (if any) dealt again from it. Returns it."""
    waiting = waiting_after(session, table, hand)
    if waiting is not None:
        deal_again(session, table, waiting, hand)
    return waiting


def mark_void(session, hand) -> None:
    """Closed void: no postings, its carries pass on (the next hand's dealer deals again);
    journaled as any close is (a `verdict` row)."""
    hand.status, hand.closed = VOID, now()
    hand.carry_out, hand.side_carry_out = hand.carry_in, hand.side_carry
    session.add(hand)
    journal_verdict(session, hand)


def close_over(session, table, hand, report, ref):
    """`hand new` or `table close` closing a hand that is over (`report` complete): refused
    while a claim may still be shown, else its `end` written and the hand closed (its
    HandReport)."""
    pending = ref.pending_claims()
    if pending:
        raise StoreError(claims_pending(table, hand, pending))
    rows = events(session, hand)
    insert_event(session, hand, END, None, rows[-1].seq, rows[-1].hash)
    report = judge_rows(hand, live_events(events(session, hand)))[0]
    return close_hand(session, hand, report)


def claims_pending(table, hand, pending):
    """The refusal of an implicit close: each claim still to be shown, and the two ways on."""
    return MN("hand {number} at table {table} is over, but {claims} may still be shown (R4.5): write "
              "{shows}, or `{prog}end` to close the hand with the claim void",
              "hand {number} at table {table} is over, but {claims} may still be shown (R4.5): write "
              "{shows}, or `{prog}end` to close the hand with the claims void", len(pending),
              number=hand.number, table=table.name, claims=claims_shown_as(pending, names),
              shows=show_commands(pending), prog=COMMAND_LINE["prog"])


def void_hand(session, table, hand, reason: str):
    """`hand void --reason TEXT`: the open hand closed void, its moves kept, a `void` row with
    the reason after them. Returns that row."""
    reason = " ".join(reason.split())
    if not reason:
        raise StoreError(M("say why the hand is voided: --reason TEXT"))
    if too_long(len(reason)):
        raise StoreError(M("the reason: {problem}", problem=too_long(len(reason))))
    if hand.closed is not None:
        raise StoreError(M("hand {number} at table {table} is closed: only a hand being played is voided "
                           "(`{prog}undo` reopens a closed hand)", number=hand.number, table=table.name,
                           prog=COMMAND_LINE["prog"]))
    rows = events(session, hand)
    moves = live_events(rows)
    if not moves:  # nothing to abandon: its record would have no line to keep its place (N9.6)
        raise StoreError(M("hand {number} at table {table} has no move: there is nothing to void "
                           "(`{new}` deals it again)", number=hand.number, table=table.name,
                           new=COMMAND_LINE["new"]))
    row = insert_event(session, hand, VOID_LINE, reason, rows[-1].seq, rows[-1].hash)
    hand.content_hash = void_hash(hand, [_line(r) for r in moves], reason)  # its export's, imported
    mark_void(session, hand)
    follow_on(session, table, hand)
    return row


def _line(row) -> str:
    return row.line if row.comment is None else f"{row.line} #{row.comment}"


def void_waiting(session, table, hand) -> None:
    """`table close`: the hands waiting after `hand` closed void, their carries as they stand."""
    while (waiting := follow_on(session, table, hand)) is not None:
        mark_void(session, waiting)
        hand = waiting


def undo_hand_new(session, table, hand):
    """`undo` on a hand with no move: the `hand new` that dealt it is taken back — the hand
    before reopens as it was (its `end`, or its `void` row, taken back; postings reversed);
    `hand` waits to be dealt again. The undo row, stored in the hand before."""
    before = find_hand(session, table, hand.number - 1) if hand.number > 1 else None
    rows = events(session, before) if before is not None else []
    standing = standing_rows(rows)
    if before is None or before.closed is None or not standing or standing[-1].line not in (END, VOID_LINE):
        raise StoreError(M("hand {number} has no move to undo", number=hand.number))
    return before, undo(session, before, rows[-1].seq)


def find_hand(session, table: BookTable, number: int | None = None) -> Hand:
    """The hand numbered, else the hand the table is at (current_hand)."""
    if number is None:
        hand = current_hand(session, table)
        if hand is None:
            raise StoreError(M("no hand yet at table {table}: start one with "
                               "`desmoche-ref hand new --dealer NAME`", table=table.name))
        return hand
    hand = session.exec(select(Hand).where(Hand.table_id == table.id, Hand.number == number)).first()
    if hand is None:
        raise StoreError(M("there is no hand {number} at table {table}", number=number, table=table.name))
    return hand


def dealt_already(session, hand, dealer: str | None, sides=None, over_too: bool = False) -> bool:
    """`hand new --dealer D` on the hand the table is at, which D dealt and is playing (moves
    stand, not over), its side games those named (or none named): that hand is the one `hand
    new` asked for, dealt already — a file or a script sent again (docs/rulings.md: a line sent
    twice). Nothing is done. `over_too` (`play` fed a file): a hand over or closed too, but not a
    void one (its dealer deals again, R3.1); else a hand over is closed and the next dealt, by
    D out of turn if so named (a warning, N9.3)."""
    if hand is None or hand.status == VOID or dealer is None or nfc(dealer) != hand.dealer:
        return False
    if sides is not None and SIDES.decode(SIDES.encode(sides)) != SIDES.decode(hand.sides):
        return False
    live = live_events(events(session, hand))
    if not live:
        return False
    return over_too or (hand.closed is None and judge_rows(hand, live)[0].status != COMPLETE)


def open_hand(session, table: BookTable, dealer: str | None = None, sides=None):
    """(closed previous HandReport or None, new Hand, warnings): `hand new` closes the hand
    before it, then deals the next as the laws across hands allow (laws.py): an error
    (N9.1, N9.2) refuses it, a warning (N9.3: the dealer) comes back as a Breach.

    A previous hand that is not over is refused, never closed half-played: the recorder
    finishes it, or writes `end` where the rules let the hand end there (N5.4). A hand with
    no move is dealt again, and a hand waiting after the one closed is dealt (py)."""
    if table.closed is not None:
        raise StoreError(closed_table(table.name))
    previous = current_hand(session, table)
    if previous is not None and untouched(session, previous):
        return None, previous, redeal(session, table, previous, dealer, sides)
    closed = close_if_over(session, table, previous)
    waiting = waiting_after(session, table, previous) if previous is not None else None
    if waiting is not None:
        warnings = deal_again(session, table, waiting, previous, dealer, sides)
        return closed, waiting, warnings
    before = table_laws(session, table)
    hand = new_hand_row(table, previous, before, dealer, sides)
    warnings = obey(follow_on_laws(before, laws.HandFacts.of_row(hand)))
    session.add(hand)
    session.flush()
    journal_hand(session, hand)
    return closed, hand, warnings


def close_if_over(session, table: BookTable, hand: Hand | None):
    """Close the table's latest hand if it is still open: its HandReport, or None if there
    was nothing to close. A hand that is not over is refused (StoreError saying what it
    still needs), never closed half-played."""
    if hand is None or hand.closed is not None:
        return None
    live = live_events(events(session, hand))
    if not live:  # opened and never dealt (a wrong dealer, say): void, its carries pass on
        mark_void(session, hand)
        return None
    report, ref = judge_rows(hand, live)
    if report.status != COMPLETE:
        if ("end", None) in ref.moves():
            needs = M("write `{prog}end` if the hand ends here (N5.4), or record the moves left",
                      prog=COMMAND_LINE["prog"])
        else:
            needs = M("record the moves left first (`{look}` says whose turn it is)", look=COMMAND_LINE["look"])
        raise StoreError(M("hand {number} at table {table} is not over: {needs}", number=hand.number,
                           table=table.name, needs=needs))
    return close_over(session, table, hand, report, ref)


def close_table(session, table: BookTable) -> tuple:
    """The table breaks up: its last hand is closed (it must be over) and the pots still
    carried are returned as R11.5 says, by postings of kind `refund`. Returns
    (closed: (number, HandReport) of the hand it closed, or None;
     refund: {pot: {player: cents}}, empty when nothing was carried)."""
    if table.closed is not None:
        raise StoreError(M("table {table} is already closed", table=table.name))
    hand = current_hand(session, table)
    report = close_if_over(session, table, hand)
    closed = (hand.number, report) if report is not None else None
    if hand is not None:
        void_waiting(session, table, hand)
        hand = last_hand(session, table)  # the refunds go on the table's last hand
    refund = returned(session, table)
    if refund:
        refunds = refund_postings(hand, refund, player_ids(session, hand))
        session.add_all(refunds)
        journal_postings(session, refunds)
    table.closed = now()
    session.add(table)
    journal_table(session, table, CLOSE)
    return closed, refund


def reopen_table(session, table: BookTable) -> dict:
    """`undo` after `table close` (or `table reopen`): the table open again as it was before
    its close — the R11.5 returns taken back (each refund posting reversed by a new one: the
    pots hold again what they held), the hands the close closed void before they were dealt
    open again (the next `hand new` deals them), the table's row open, journaled (`reopen`).
    The hand whose `end` the close wrote stays closed: an `undo` more takes the `end` back.
    Returns what the pots hold again, {pot: {player: cents}} as the close returned it."""
    if table.closed is None:
        raise StoreError(M("table {table} is not closed", table=table.name))
    rows = list(session.exec(select(Posting).where(Posting.table_id == table.id, Posting.kind == REFUND)))
    reversed_ids = {r.reverses for r in rows if r.reverses is not None}
    standing = [r for r in rows if r.reverses is None and r.id not in reversed_ids]
    taken_back = {}
    for r in standing:
        if r.player_id is not None:
            taken_back.setdefault(r.detail or "main", {})[r.account] = r.amount
    reversals = [Posting(hand_id=r.hand_id, table_id=r.table_id, account=r.account, player_id=r.player_id,
                         kind=r.kind, detail=r.detail, counterparty=r.counterparty, amount=-r.amount,
                         reverses=r.id) for r in standing]
    session.add_all(reversals)
    journal_postings(session, reversals)
    for hand in never_dealt_at_the_end(session, table):
        hand.status, hand.closed, hand.carry_out, hand.side_carry_out = "open", None, None, None
        session.add(hand)
        journal_verdict(session, hand)
    table.closed = None
    session.add(table)
    journal_table(session, table, REOPEN)
    return taken_back


def never_dealt_at_the_end(session, table: BookTable) -> list:
    """The table's last hands closed void with no row standing (never dealt, or every move taken
    back: a close closes them so)."""
    out = []
    for hand in session.exec(select(Hand).where(Hand.table_id == table.id).order_by(col(Hand.number).desc())):
        if hand.status != VOID or standing_rows(events(session, hand)):  # voided at the table: stays void
            break
        out.append(hand)
    return out
