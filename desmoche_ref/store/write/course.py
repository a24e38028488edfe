"""A table's course: what each command writes, planned on the table as it stands (a
plans.TableState) — a line, `undo`, `hand new` (a hand dealt, or dealt again), `hand void`,
`table new|bet|close`, a hand imported whole. Pure: each planner reads the table through its
state and adds the rows it writes to the state's plan (store/write/plans.py); the writer stores the
plan (store/write/book_writer.py), and `verify` plans each command again where the journal says it was
written (store/trust/course_replay.py), so the course the live writer follows and the one `verify` holds
the book to are these functions. docs/rulings.md lists each decision:

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
- A line: judged on the hand's referee (a line the rules refuse gets its rule code, whoever
  typed it); after the end (N4.4) a hand takes only `show`, `end` and the forgiving of the
  foul that ended it, closed or not, and a closed hand's postings are reversed and posted
  again only if its settlement changed; a line sent twice is stored once (`Recorded.unchanged`,
  store/write/repeats.py): a move of the hand sent again, by its position (where its sender
  believes the hand is) or because its effect is in the book already; `hand new --dealer D`
  on the hand D dealt and is playing is that hand, dealt already (`Opened.already`).
- A hand voided takes no move, and one with no move is not voided (N9.6); `table close` is
  taken back by `undo` right after it or `table reopen` (`reopen_table`, a `reopen` row).
"""

from collections import Counter
from types import SimpleNamespace
from typing import Any, NamedTuple

from ... import laws
from ...cards import names
from ...describe import claims_shown_as, show_commands
from ...engine.setup import Setup, SetupError
from ...findings import COMMAND_LINE, ERROR, MN, M, error
from ...limits import EVENTS, checked_table, nfc, too_long, too_many
from ...money import fmt
from ...notation.parser import parse_event, split_comment
from ...notation.writer import with_comment, write_event
from .lawbook import follow_on_laws
from .live import at_the_table, claims_made_void
from .plans import HandState, Imported, TableState, judge
from ..schema.records import (OPEN_VERDICT, REFUND, VOID_LINE, HandRow, PostingRow, TableRow,
                              brought_in_moves, hand_setup, pot_map, posting_key, posting_rows,
                              refund_moves, standing_postings, verdict_columns, void_hash)
from .repeats import at_position, repeated
from ..schema.terms import (BET, CLOSE, COMPLETE, END, FOLLOW, LIVE, REDEAL, REOPEN, UNDO, VERDICT,
                            VOID, HandChanged, Refused, StoreError, closed_table, refusal)

# the columns of a hand's setup a deal again writes anew (journal.hand_text holds them all). Its
# seats, rules, options and bet are the table's, which change only while no hand is open
# (`table bet`, an import's last hand): never for a hand with no move, which is open
REDEALT = ("dealer", "carry_in", "sides", "side_carry", "extra_tags", "opened")
FIXED = ("players", "rules", "options", "bet")


class HandInfo(NamedTuple):
    number: int
    dealer: str
    bet: int              # cents
    carry_in: int         # cents
    side_carry: dict      # {game: cents}
    sides: list           # [(game, stake cents, [names])]


class Recorded(NamedTuple):
    """What recording a line did."""

    seq: int              # its move number (the hand's move count when unchanged)
    line: str             # the canonical line stored (N7)
    fouls: list           # fouls that came with it (findings, move-numbered)
    warnings: list        # warnings that came with it
    closing: object       # the HandReport posted when the line closed the hand, else None
    unchanged: bool       # an identical line that changed nothing: not stored
    number: int           # the hand it went to


class Undone(NamedTuple):
    seq: int              # the undo row's move number
    target: int           # the move taken back
    line: str             # its line
    reopened: bool        # a closed hand was reopened (its postings reversed)
    number: int           # the hand it went to
    hand_new: bool        # it took back the `hand new` that dealt the hand after it


class Voided(NamedTuple):
    seq: int              # the `void` row's move number
    number: int           # the hand voided
    reason: str


class Opened(NamedTuple):
    closed_number: int | None   # the hand closed first, if one was
    closed: object              # its HandReport, or None
    hand: HandInfo
    redealt: bool               # the hand had no move: dealt again, same number
    warnings: list = []         # the laws' warnings on the new hand (laws.Breach: N9.3, the dealer)
    already: int | None = None  # dealt already by the dealer named (dealt_already): its move, nothing done


class TableClosed(NamedTuple):
    closed_number: int | None
    closed: object              # the HandReport of the hand it closed, or None
    refund: dict                # {pot: {player: cents}} returned per R11.5


class TableReopened(NamedTuple):
    name: str
    returned: dict              # {pot: {player: cents}} the close had returned, in the pots again


def hand_info(hand: Any) -> HandInfo:
    return HandInfo(hand.number, hand.dealer, hand.bet, hand.carry_in,
                    {g: c for g, c in hand.side_carry.items() if c}, list(hand.sides))


def obey(breaches: list) -> list:
    """The laws' word on a write: StoreError (its code and reason) for the first error; the
    warnings, which do not refuse, returned."""
    for breach in breaches:
        if breach.severity == ERROR:
            raise StoreError(refusal(breach))
    return [b for b in breaches if b.severity != ERROR]


# ------------------------------------------------------------------ tables
def table_setup(table: Any, dealer: str | None = None, sides: Any = None) -> Setup:
    """The setup of a hand at this table (validates the table's values as tags would)."""
    players = table.players.split()
    return Setup.from_values(players, dealer or players[0], bet=table.bet, rules=table.rules,
                             options=table.options, sides=table.sides if sides is None else sides)


def new_table(name: str, players: list, bet: int, rules: str, options: str, sides: Any, *, now: Any,
              taken: bool, table_id: int = -1, closed: bool = False) -> TableRow:
    """A new table's row, its values judged as a hand's tags would be (N3, R15, R4.1) and
    written as the program writes them (rules and options canonical); `taken`: the name is a
    table's already (`closed`: a closed table's, whose name stays its own)."""
    checked, players, problem = checked_table(name, players)
    if problem or checked is None:
        raise StoreError(problem)
    if taken and closed:
        raise StoreError(M("table {name!r} is closed, and its name stays with it: `desmoche-ref table reopen "
                           "{name}` opens it again, or give the new table another name", name=checked))
    if taken:
        raise StoreError(M("there is already a table {name!r} in this book", name=checked))
    row = TableRow(table_id, checked, " ".join(players), bet, rules, options, list(sides), now, None)
    try:
        setup = table_setup(row)
    except SetupError as e:
        raise StoreError(refusal(e.finding)) from None
    return row._replace(rules=setup.rules, options=setup.options.changes_from(setup.rules),
                        sides=[(s.game, s.stake, [setup.players[i] for i in s.players]) for s in setup.sides])


def set_bet(state: TableState, bet: int) -> int:
    """A new bet for the table's next hands (R2.2: between hands, everyone agreeing — the
    caller asks; R2.3: never while a main pot is carried — laws.bet_change)."""
    table = state.table
    if table.closed is not None:
        raise StoreError(closed_table(table.name))
    obey(laws.bet_change(state.laws(), bet))
    if bet == table.bet:
        raise StoreError(M("the bet at table {table} is already {bet}", table=table.name, bet=fmt(bet)))
    state.update_table(BET, bet=bet)
    return bet


def follow_import(state: TableState, last: HandRow) -> None:
    """The table's seats and stakes become those of its last hand imported, so that a live
    `hand new` carries on from it (the deal passes to the right of that hand's dealer, R3.1)."""
    state.update_table(FOLLOW, players=last.players, bet=last.bet, rules=last.rules, options=last.options,
                       sides=list(last.sides))


# ------------------------------------------------------------------ hands dealt
def new_hand_row(state: TableState, previous: HandState | None, before: laws.Table, dealer: str | None = None,
                 sides: Any = None) -> HandRow:
    """The next hand at the table, as its hands so far left it (`before`): the deal passes to
    the right of the last hand dealt (R3.1, N9.3) unless named; the main pot and side pots the
    table's pots hold come in by themselves (R2.3, R4.6, N9.1)."""
    table = state.table
    players, dealer = table.players.split(), dealer and nfc(dealer)  # names in NFC (N3.1)
    if dealer is None:  # after a table's first hands, all void, their dealer deals again
        dealer = laws.proposed_dealer(before, players, previous.row.dealer if previous is not None else None)
        if dealer is None:
            raise StoreError(M("the first hand at a table names its dealer: `{new} --dealer NAME`",
                               new=COMMAND_LINE["new"]))
    elif dealer not in players:
        raise StoreError(M("{dealer!r} is not seated at table {table} ({players})", dealer=dealer,
                           table=table.name, players=table.players))
    carry, side_carry = before.pots if before.pots is not None else (0, {})
    games = [(game, stake, list(names)) for game, stake, names in (table.sides if sides is None else sides)]
    row = HandRow(state.ids.new(), table.id, (previous.number + 1) if previous else 1, table.players, dealer,
                  table.rules, table.options, table.bet, carry, games,
                  {g: c for g, c in side_carry.items() if c}, [("Date", state.today)], None, LIVE, None, "open",
                  None, None, "", None, None, state.now, None)
    try:
        hand_setup(row)
    except SetupError as e:
        raise StoreError(refusal(e.finding)) from None
    return row


def deal_again(state: TableState, hand: HandState, previous: HandState | None, dealer: str | None = None,
               sides: Any = None) -> list:
    """`hand` dealt anew, same number: its setup made as `hand new` makes the hand after
    `previous` now (its carried pots as they stand), the dealer named or else the deal's
    rotation, the side games given or else its own. Journaled (`redeal`); a deal again that
    changes nothing writes nothing (two recorders typing `hand new` at once: one hand). The
    laws across hands judge it as `hand new` would (an error refuses it); their warnings back."""
    before = state.laws(below=hand.number)
    fresh = new_hand_row(state, previous, before, dealer, hand.row.sides if sides is None else sides)
    warnings = obey(follow_on_laws(before, laws.HandFacts.of_row(fresh)))
    if any(getattr(hand.row, c) != getattr(fresh, c) for c in FIXED):  # only an edit behind our back
        raise StoreError(M("hand {number} at table {table} is not dealt with the table's seats and stakes: "
                           "`desmoche-ref verify` says why", number=hand.number, table=state.table.name))
    if all(getattr(hand.row, c) == getattr(fresh, c) for c in REDEALT if c != "opened"):
        return warnings
    state.update_hand(hand, REDEAL, **{c: getattr(fresh, c) for c in REDEALT})
    return warnings


def hand_before(state: TableState, hand: HandState) -> HandState | None:
    if hand.number <= 1:
        return None
    before = state.hand(hand.number - 1)
    if before is None:
        raise StoreError(M("there is no hand {number} at table {table}", number=hand.number - 1,
                           table=state.table.name))
    return before


def redeal(state: TableState, hand: HandState, dealer: str | None = None, sides: Any = None) -> list:
    """`hand new` on a hand with no move: the same hand dealt again (the dealer named, else the
    same); the laws' warnings (laws.py) of the deal."""
    warnings = deal_again(state, hand, hand_before(state, hand), dealer or hand.row.dealer, sides)
    if dealer is None:  # its dealer kept: a dealer out of turn was said when it was named
        warnings = [w for w in warnings if w.code != "R3.1"]
    return warnings


def follow_on(state: TableState, hand: HandState) -> HandState | None:
    """After `hand` closed: the hand waiting after it (if any) dealt again from it. Returns it."""
    waiting = state.waiting_after(hand)
    if waiting is not None:
        deal_again(state, waiting, hand)
    return waiting


def dealt_already(hand: HandState | None, dealer: str | None, sides: Any = None, over_too: bool = False) -> bool:
    """`hand new --dealer D` on the hand the table is at, which D dealt and is playing (moves
    stand, not over), its side games those named (or none named): that hand is the one `hand
    new` asked for, dealt already — a file or a script sent again (docs/rulings.md: a line sent
    twice). Nothing is done. `over_too` (`play` fed a file): a hand over or closed too, but not a
    void one (its dealer deals again, R3.1); else a hand over is closed and the next dealt, by
    D out of turn if so named (a warning, N9.3)."""
    if hand is None or hand.row.status == VOID or dealer is None or nfc(dealer) != hand.row.dealer:
        return False
    if sides is not None and _games(sides) != _games(hand.row.sides):
        return False
    if not hand.live():
        return False
    return over_too or (not hand.closed and hand.judged()[0].status != COMPLETE)


def _games(sides: Any) -> list:
    return [(game, stake, list(names)) for game, stake, names in sides]


def hand_new(state: TableState, dealer: str | None = None, sides: Any = None, follow: bool = False) -> Opened:
    """`hand new`: the hand before closed (it must be over), then the next dealt as the laws
    across hands allow (laws.py): an error (N9.1, N9.2) refuses it, a warning (N9.3: the
    dealer) comes back as a Breach. A previous hand that is not over is refused, never closed
    half-played: the recorder finishes it, or writes `end` where the rules let the hand end
    there (N5.4). A hand with no move is dealt again, and a hand waiting after the one closed
    is dealt — unless the hand being played is the one asked for (dealt_already: `already`,
    nothing planned; `follow`: a file fed to `play`, for which a hand over or closed is too)."""
    table = state.table
    if table.closed is not None:
        raise StoreError(closed_table(table.name))
    previous = state.current()
    if previous is not None and dealt_already(previous, dealer, sides, over_too=follow):
        return Opened(None, None, hand_info(previous.row), False, [], previous.seq)
    if previous is not None and previous.untouched():
        warnings = redeal(state, previous, dealer, sides)
        return Opened(None, None, hand_info(previous.row), True, warnings)
    closed = close_if_over(state, previous)
    number = previous.number if closed is not None and previous is not None else None
    waiting = state.waiting_after(previous) if previous is not None else None
    if waiting is not None:
        warnings = deal_again(state, waiting, previous, dealer, sides)
        return Opened(number, closed, hand_info(waiting.row), False, warnings)
    before = state.laws()
    row = new_hand_row(state, previous, before, dealer, sides)
    facts = laws.HandFacts.of_row(row)
    warnings = obey(follow_on_laws(before, facts))
    state.add_hand(row, facts=facts)
    return Opened(number, closed, hand_info(row), False, warnings)


# ------------------------------------------------------------------ closing
def close_hand(state: TableState, hand: HandState, report: Any) -> Any:
    """Close a hand: its verdict kept on its row and, if complete, its settlement posted."""
    if report.status == COMPLETE:
        ids = state.player_ids(hand.row.players.split())
        state.add_postings(hand, postings(state, hand, report.settlement.transfers, ids))
    state.update_hand(hand, VERDICT, **verdict_columns(report), closed=state.now)
    return report


def postings(state: TableState, hand: HandState, moves: list, ids: dict) -> list:
    """The PostingRows of these movements of money on the hand (records.posting_rows)."""
    return [PostingRow._make((state.ids.new(), *row, None, state.now))
            for row in posting_rows(hand.row.id, hand.row.table_id, moves, ids)]


def mark_void(state: TableState, hand: HandState, content_hash: str | None = None) -> None:
    """Closed void: no postings, its carries pass on (the next hand's dealer deals again);
    journaled as any close is (a `verdict` row). `content_hash`: a hand voided at the table's."""
    row = hand.row
    state.update_hand(hand, VERDICT, **dict(OPEN_VERDICT, status=VOID, fouls=row.fouls, carry_out=row.carry_in,
                                            side_carry_out=row.side_carry, content_hash=content_hash),
                      closed=state.now)


def reverse_postings(state: TableState, hand: HandState) -> int:
    """Reopening a hand: each standing posting is reversed by a new one (nothing deleted)."""
    standing = standing_postings(state.postings(hand))
    state.add_postings(hand, [PostingRow(state.ids.new(), r.hand_id, r.table_id, r.account, r.player_id, r.kind,
                                         r.detail, r.counterparty, -r.amount, r.id, state.now) for r in standing])
    state.update_hand(hand, VERDICT, **OPEN_VERDICT, closed=None)
    return len(standing)


def settle_again(state: TableState, hand: HandState) -> Any:
    """A closed hand whose moves changed after its `end` (a card shown, or taken back): its
    settlement stands as posted if what it settles is the same (its content hash follows
    its moves), else its postings are reversed and it is settled anew. The HandReport of a
    new settlement, else None."""
    report = hand.judged()[0]
    settles = Counter(posting_key(r) for r in postings(state, hand, report.settlement.transfers, {})) \
        if report.status == COMPLETE else Counter()
    if Counter(posting_key(r) for r in standing_postings(state.postings(hand))) == settles:
        state.update_hand(hand, None, content_hash=verdict_columns(report)["content_hash"])
        return None
    reverse_postings(state, hand)
    return close_hand(state, hand, report)


def close_over(state: TableState, hand: HandState, ref: Any) -> Any:
    """`hand new` or `table close` closing a hand that is over: refused while a claim may still
    be shown, else its `end` written and the hand closed (its HandReport)."""
    pending = ref.pending_claims()
    if pending:
        raise StoreError(claims_pending(state.table, hand, pending))
    state.add_event(hand, END, None)
    return close_hand(state, hand, hand.judged()[0])


def claims_pending(table: Any, hand: HandState, pending: list) -> Any:
    """The refusal of an implicit close: each claim still to be shown, and the two ways on."""
    return MN("hand {number} at table {table} is over, but {claims} may still be shown (R4.5): write "
              "{shows}, or `{prog}end` to close the hand with the claim void",
              "hand {number} at table {table} is over, but {claims} may still be shown (R4.5): write "
              "{shows}, or `{prog}end` to close the hand with the claims void", len(pending),
              number=hand.number, table=table.name, claims=claims_shown_as(pending, names),
              shows=show_commands(pending), prog=COMMAND_LINE["prog"])


def close_if_over(state: TableState, hand: HandState | None) -> Any:
    """Close the table's hand if it is still open: its HandReport, or None if there was
    nothing to close. A hand that is not over is refused (StoreError saying what it still
    needs), never closed half-played."""
    if hand is None or hand.closed:
        return None
    if not hand.live():  # opened and never dealt (a wrong dealer, say): void, its carries pass on
        mark_void(state, hand)
        return None
    report, ref = hand.judged()
    if report.status != COMPLETE:
        if ("end", None) in ref.moves():
            needs = M("write `{prog}end` if the hand ends here (N5.4), or record the moves left",
                      prog=COMMAND_LINE["prog"])
        else:
            needs = M("record the moves left first (`{look}` says whose turn it is)", look=COMMAND_LINE["look"])
        raise StoreError(M("hand {number} at table {table} is not over: {needs}", number=hand.number,
                           table=state.table.name, needs=needs))
    return close_over(state, hand, ref)


def close_table(state: TableState) -> TableClosed:
    """`table close`: the table breaks up — its hand closed (it must be over), the hands
    waiting after it closed void, and the pots still carried returned as R11.5 says, by
    postings of kind `refund` on its last hand."""
    if state.table.closed is not None:
        raise StoreError(M("table {table} is already closed", table=state.table.name))
    hand = state.current()
    report = close_if_over(state, hand)
    number = hand.number if report is not None and hand is not None else None
    last = hand
    if hand is not None:
        while (waiting := follow_on(state, hand)) is not None:  # the hands waiting after it: void
            mark_void(state, waiting)
            hand = waiting
        last = state.latest()
    refund = laws.returns(state.laws())
    if refund and last is not None:
        state.add_postings(last, postings(state, last, refund_moves(refund),
                                          state.player_ids(last.row.players.split())))
    state.update_table(CLOSE, closed=state.now)
    return TableClosed(number, report, refund)


# ------------------------------------------------------------------ moves
def record(state: TableState, hand: HandState, typed: str, believed: int | None = None,
           stale: bool = False) -> Recorded:
    """Judge one notation line (`verb args  # comment`) on the hand and plan it — or answer it
    as a move the hand holds already (store/write/repeats.py: `unchanged`, nothing planned).
    `believed`: where its sender believes the line goes (an index into the standing moves: after
    the move it saw, or the next of a hand `play` sends again); `stale`: the sender saw the hand
    at another move, so a line that is not the move at `believed` is HandChanged."""
    if state.table.closed is not None:
        raise StoreError(closed_table(state.table.name))
    body, comment = split_comment(typed)
    if not body.strip() or "\n" in typed or "\r" in typed:
        raise StoreError(M("write one notation line, e.g. `draw Beto 2d` (N4)"))
    ev = parse_event(body.strip(), hand.seq + 1)
    ev.comment = comment
    text = write_event(ev) if ev.error is None else None
    lines, moves = hand.lines(), [r.seq for r in hand.live()]
    if text is not None and (seq := at_position(lines, moves, text, believed)) is not None:
        return Recorded(seq, text, [], [], None, True, hand.number)
    if stale:
        raise HandChanged(hand.seq)
    if hand.closed and hand.row.status == VOID:  # abandoned (`hand void`): no move more (undo takes it back)
        raise StoreError(M("hand {number} at table {table} is void: `{new}` deals the next hand, `{prog}undo` "
                           "takes the void back", number=hand.number, table=state.table.name,
                           new=COMMAND_LINE["new"], prog=COMMAND_LINE["prog"]))
    if ev.error is not None or text is None:
        raise Refused(ev.error)
    ref = hand.ref
    trial = ref.fork()
    finding = at_the_table(ref, ev, trial.apply(ev))
    full = with_comment(text, comment)
    seq = repeated(ev, text, lines, moves, ref, trial, finding,
                   lambda: judge(hand.row, lines).as_json() == judge(hand.row, lines + [full]).as_json())
    if seq is not None:  # two recorders typing one move, a file sent again: stored once
        return Recorded(seq, text, [], [], None, True, hand.number)
    if finding is not None:
        raise Refused(finding)
    long = too_long(len(full))
    if long:  # N1.5, for the line as the book keeps it
        raise Refused(error(hand.seq + 1, "N1.5", long))
    if len(lines) >= EVENTS:  # N1.5: the hand's record would hold one event too many
        raise Refused(error(hand.seq + 1, "N1.5", too_many("events", EVENTS)))
    was_closed, before = hand.closed, ref
    row = state.add_event(hand, text, comment, ref=trial)
    closing = None
    if trial.status == COMPLETE and (was_closed or ev.verb == "end"):
        closing = settle_again(state, hand) if was_closed else close_hand(state, hand, hand.judged()[0])
        if closing is not None and not was_closed:  # the hand waiting after it is dealt
            follow_on(state, hand)
    after = trial.report
    return Recorded(row.seq, text, [f for f in after.fouls if f not in before.report.fouls],
                    [w for w in after.warnings if w not in before.report.warnings]
                    + claims_made_void(before, trial, row.seq), closing, False, hand.number)


def undo_move(state: TableState, hand: HandState) -> Any:
    """Supersede the hand's last standing row with an undo row. A closed hand reopens (its
    postings reversed; a voided one, its `void` row taken back), unless the move taken back
    came after its `end` (a card shown, N4.4): the `end` still stands, so the hand stays closed
    and is settled again if what it settles changed."""
    standing = hand.standing()  # a `void` row too: its undo reopens the hand
    if not standing:
        raise StoreError(M("hand {number} has no move to undo", number=hand.number))
    after_end = hand.closed and any(e.line == END for e in standing[:-1])
    if hand.closed and not after_end:
        if state.bet_changed_since(hand):
            raise StoreError(M("R2.2 the bet changed after hand {number} closed: taking back its last move would "
                               "reopen it under a bet changed in the middle of it (the bet changes only between "
                               "hands)", number=hand.number))
        reverse_postings(state, hand)
    row = state.add_event(hand, UNDO, None, supersedes=standing[-1].id)
    if after_end:
        settle_again(state, hand)
    return row


def undo(state: TableState, hand: HandState) -> Undone:
    """`undo` at the table's hand: its last standing row taken back (a closed hand reopens,
    its postings reversed); on a hand with no move, the `hand new` that dealt it — the hand
    before reopens as it was (its `end`, or its `void` row, taken back), and `hand` waits to
    be dealt again. (At a closed table `undo` takes the close back: reopen_table.)"""
    if state.table.closed is not None:
        raise StoreError(closed_table(state.table.name))
    hand_new_undone = hand.untouched()
    if hand_new_undone:
        before = hand_before(state, hand)
        standing = before.standing() if before is not None else []
        if before is None or not before.closed or not standing or standing[-1].line not in (END, VOID_LINE):
            raise StoreError(M("hand {number} has no move to undo", number=hand.number))
        hand = before
    was_closed = hand.closed
    row = undo_move(state, hand)
    target = next(e for e in hand.events if e.id == row.supersedes)
    return Undone(row.seq, target.seq, target.line, was_closed and not hand.closed, hand.number, hand_new_undone)


def void(state: TableState, hand: HandState, reason: str) -> Voided:
    """`hand void --reason TEXT`: the open hand closed void, its moves kept, a `void` row with
    the reason after them; it is known by its export's content (records.void_hash: the record
    with its Void tag, N9.6), as an import of that export knows it."""
    if state.table.closed is not None:
        raise StoreError(closed_table(state.table.name))
    reason = " ".join(reason.split())
    if not reason:
        raise StoreError(M("say why the hand is voided: --reason TEXT"))
    if too_long(len(reason)):
        raise StoreError(M("the reason: {problem}", problem=too_long(len(reason))))
    if hand.closed:
        raise StoreError(M("hand {number} at table {table} is closed: only a hand being played is voided "
                           "(`{prog}undo` reopens a closed hand)", number=hand.number, table=state.table.name,
                           prog=COMMAND_LINE["prog"]))
    if not hand.live():  # nothing to abandon: its record would have no line to keep its place (N9.6)
        raise StoreError(M("hand {number} at table {table} has no move: there is nothing to void "
                           "(`{new}` deals it again)", number=hand.number, table=state.table.name,
                           new=COMMAND_LINE["new"]))
    row = state.add_event(hand, VOID_LINE, reason)
    mark_void(state, hand, void_hash(hand.row, hand.lines(), reason))
    follow_on(state, hand)
    return Voided(row.seq, hand.number, reason)


def reopen_table(state: TableState) -> TableReopened:
    """`undo` after `table close` (or `table reopen`): the table open again as it was before
    its close — the R11.5 returns taken back (each refund posting that stands reversed by a new
    one: the pots hold again what they held), the hands the close closed void before they were
    dealt open again (the next `hand new` deals them), the table's row open, journaled
    (`reopen`). The hand whose `end` the close wrote stays closed: an `undo` more takes the
    `end` back."""
    if state.table.closed is None:
        raise StoreError(M("table {table} is not closed", table=state.table.name))
    last = state.latest()
    returned: dict = {}
    if last is not None:
        refunds = [r for r in standing_postings(state.postings(last)) if r.kind == REFUND]
        for r in refunds:
            if r.player_id is not None:
                returned.setdefault(r.detail or "main", {})[r.account] = r.amount
        state.add_postings(last, [r._replace(id=state.ids.new(), amount=-r.amount, reverses=r.id, created=state.now)
                                  for r in refunds])
    for hand in never_dealt_at_the_end(state):
        state.update_hand(hand, VERDICT, **OPEN_VERDICT, closed=None)
    state.update_table(REOPEN, closed=None)
    return TableReopened(state.table.name, returned)


def never_dealt_at_the_end(state: TableState) -> list:
    """The table's last hands closed void with no row standing (never dealt, or every move taken
    back: a close closes them so), latest first."""
    out = []
    hand = state.latest()
    while hand is not None and hand.row.status == VOID and not hand.standing():  # voided at the table: stays
        out.append(hand)
        hand = state.hand(hand.number - 1) if hand.number > 1 else None
    return out


# ------------------------------------------------------------------ a hand imported whole
def import_hand(state: TableState, prepared: Any) -> tuple[list, list]:
    """A judged hand (judging.Prepared) imported after the table's hands: (the laws' errors,
    which refuse it: nothing planned; the laws' warnings, N9.3, when it is planned). It is
    judged by the laws across hands as `hand new` is (N9.5); its moves and its postings (its
    settlement's, and what it carries in beyond what the book's pots hold, from `outside`) are
    covered by its one `import` row."""
    before = state.laws()
    values = prepared.values
    number = before.number + 1
    facts = laws.HandFacts.of_row(SimpleNamespace(**values, number=number), prepared.closes)
    found = follow_on_laws(before, facts)
    errors = [b for b in found if b.severity == ERROR]
    if errors:
        return errors, []
    row = HandRow(**dict(values, id=state.ids.new(), table_id=state.table.id, number=number,
                         content_hash=prepared.hash, opened=values["opened"] or state.now, closed=state.now))
    held = pot_map(*before.pots) if before.pots is not None else {}
    moves = brought_in_moves(prepared.pots_before, held) + prepared.transfers
    made = [PostingRow._make((state.ids.new(), *posting, None, state.now))
            for posting in posting_rows(row.id, row.table_id, moves, state.player_ids(prepared.players))]
    state.add_hand(row, Imported(prepared.count, prepared.head(), len(made), state.now, prepared), facts=facts)
    state.plan.postings.extend(made)
    return [], found
