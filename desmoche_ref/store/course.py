"""A hand's course at its table beyond its moves: which hand the table is at, a hand dealt
again, the close that `hand new` and `table close` make, a hand voided, and the undo of a
`hand new`. Every function works inside the caller's transaction (`Book.write()`), its table
locked (hands.lock_table); docs/rulings.md lists each decision.

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

import json

from sqlmodel import select

from ..findings import COMMAND_LINE, M, MN
from ..limits import too_long
from .models import Hand, now
from .records import VOID_LINE, standing_rows

END = "end"
VOID = "void"   # hands.VOID: the status of a void hand
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
    from .hands import last_hand

    return last_hand(session, table)


def untouched(session, hand) -> bool:
    """Open, and no row of it stands (never dealt, or every move taken back)."""
    from .hands import events

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
    from .. import laws
    from .hands import StoreError, new_hand_row, obey, table_laws
    from .journal import journal_redeal

    before = table_laws(session, table, below=hand.number)
    fresh = new_hand_row(table, previous, before, dealer, json.loads(hand.sides) if sides is None else sides)
    warnings = obey(laws.follow_on(before, laws.HandFacts.of_row(fresh), laws.BOOK))
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
    from .hands import find_hand

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
    from .journal import journal_verdict

    hand.status, hand.closed = VOID, now()
    hand.carry_out, hand.side_carry_out = hand.carry_in, hand.side_carry
    session.add(hand)
    journal_verdict(session, hand)


def close_over(session, table, hand, report, ref):
    """`hand new` or `table close` closing a hand that is over (`report` complete): refused
    while a claim may still be shown, else its `end` written and the hand closed (its
    HandReport)."""
    from .hands import StoreError, close_hand, events, insert_event, judge_rows
    from .records import live_events

    pending = ref.pending_claims()
    if pending:
        raise StoreError(claims_pending(table, hand, pending))
    rows = events(session, hand)
    insert_event(session, hand, END, None, rows[-1].seq, rows[-1].hash)
    report = judge_rows(hand, live_events(events(session, hand)))[0]
    return close_hand(session, hand, report)


def claims_pending(table, hand, pending):
    """The refusal of an implicit close: each claim still to be shown, and the two ways on."""
    from ..cards import names
    from ..describe import claims_shown_as, show_commands

    return MN("hand {number} at table {table} is over, but {claims} may still be shown (R4.5): write "
              "{shows}, or `{prog}end` to close the hand with the claim void",
              "hand {number} at table {table} is over, but {claims} may still be shown (R4.5): write "
              "{shows}, or `{prog}end` to close the hand with the claims void", len(pending),
              number=hand.number, table=table.name, claims=claims_shown_as(pending, names),
              shows=show_commands(pending), prog=COMMAND_LINE["prog"])


def void_hand(session, table, hand, reason: str):
    """`hand void --reason TEXT`: the open hand closed void, its moves kept, a `void` row with
    the reason after them. Returns that row."""
    from .hands import StoreError, events, insert_event

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
    row = insert_event(session, hand, VOID_LINE, reason, rows[-1].seq if rows else 0,
                       rows[-1].hash if rows else "")
    mark_void(session, hand)
    follow_on(session, table, hand)
    return row


def void_waiting(session, table, hand) -> None:
    """`table close`: the hands waiting after `hand` closed void, their carries as they stand."""
    while (waiting := follow_on(session, table, hand)) is not None:
        mark_void(session, waiting)
        hand = waiting


def undo_hand_new(session, table, hand):
    """`undo` on a hand with no move: the `hand new` that dealt it is taken back — the hand
    before reopens as it was (its `end`, or its `void` row, taken back; postings reversed);
    `hand` waits to be dealt again. The undo row, stored in the hand before."""
    from .hands import StoreError, events, find_hand, undo

    before = find_hand(session, table, hand.number - 1) if hand.number > 1 else None
    rows = events(session, before) if before is not None else []
    standing = standing_rows(rows)
    if before is None or before.closed is None or not standing or standing[-1].line not in (END, VOID_LINE):
        raise StoreError(M("hand {number} has no move to undo", number=hand.number))
    return before, undo(session, before, rows[-1].seq)
