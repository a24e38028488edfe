"""The laws across a table's hands (NOTATION N9), written once. Pure: hand facts in, findings out.

A table's hands, in order, must follow on: each carries in the pots the hand before carried
out (N9.1: R2.3, R4.6), keeps the bet while a main pot is carried (N9.2: R2.3), is dealt by
the right of the last dealer (N9.3: R3.1, a warning only); and a table that breaks up returns
its carried pots as R11.5 says (N9.4). A book's hands also run 1, 2, … without a gap, never
follow the table's close, nor a hand still being recorded. Every path judges by these same
functions, so one case gets one code and one decision whoever meets it:
- `check --session` (session.py): a file's hands of one table, as a session;
- `import` (store/write/importer.py): a file's hands, each against the book's last hand of its
  table; a hand with an error is refused with its code;
- the live writer (store/read/hands.py): `hand new` and `table bet` before they commit, `table
  close` for what it returns;
- `verify` (store/trust/verify.py): every table's stored hands and its journaled changes.

Which laws refuse and which only warn is said once, in docs/rulings.md: every law here is an
error except N9.3's dealer, a warning everywhere (the hand was played and its money stands).

The laws are beancount's validations in shape: each is a function of the table's hands in
order and the options (`carries(hands, SESSION)` → Breach list), built on a function of one
hand and the table as the hands before left it (`Table`, made by `follow`), which the paths
that see one hand at a time (the importer, the live writer) call through `follow_on`.

A hand that settled nothing (incomplete, invalid, or void: never dealt) moves no money: the
pots stand as the last complete hand left them, and the next hand is held to those (for a
table's first hands, to the pots the first of them brought in). A void hand was never dealt:
the deal passes on from the last hand dealt.
"""

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .engine.found import COMPLETE
from .findings import ERROR, WARNING, Finding, M
from .money import fmt
from .settle import MAIN_POT

if TYPE_CHECKING:
    from .referee import HandReport

VOID, OPEN = "void", "open"  # the book's own statuses: never dealt; still being recorded


class HandFacts(NamedTuple):
    """What the laws read of a hand: from a `check` HandReport (`of_report`) or a book's Hand
    row (`of_row`). Money in cents; names as written (N3.1)."""

    number: int             # its place: the book's hand number, or the hand's place in the file
    line: int               # its record's first line (0 for a stored hand): where findings go
    players: tuple          # names in seat order; () when its setup could not be read
    dealer: str | None
    bet: int
    carry_in: int
    side_carry_in: dict     # {game: cents}, the pots carried in (none empty)
    sides: tuple            # ((game, stake, (names…)), …): who entered each side game
    status: str             # complete, incomplete, invalid, void (never dealt) or open
    carry_out: int | None   # the main pot carried out, when complete
    side_carry_out: dict | None  # {game: cents} carried out, when complete
    closes: bool = False    # the table broke up after it ([Closed "yes"], `table close`)

    @classmethod
    def of_report(cls, report: "HandReport", number: int) -> "HandFacts":
        """A hand as `check` judged it (referee.HandReport), the `number`th of its session."""
        s = report.setup
        readable = report.setup_error is None and bool(s.players)
        players = tuple(s.players) if readable else ()
        complete = report.status == COMPLETE
        st = report.settlement if complete else None
        return cls(number, report.record.line, players,
                   players[s.dealer] if readable and 0 <= s.dealer < len(players) else None,
                   s.bet, s.carry, {g: c for g, c in s.side_carry.items() if c},
                   tuple((e.game, e.stake, tuple(players[i] for i in sorted(e.players)))
                         for e in s.sides) if readable else (),
                   report.status, st.carry_out if st else None,
                   {p.game: p.carry_out for p in st.side_games} if st else None,
                   s.closed)

    @classmethod
    def of_row(cls, row: Any, closes: bool = False) -> "HandFacts":
        """A stored hand: any object with the book's hand columns as values (the ORM's Hand, a
        row of the hand table, the importer's values: its side games and pots as lists and
        dicts, as the book's columns read them); `closes` when its table broke up after it."""
        complete = row.status == COMPLETE
        return cls(row.number, 0, tuple(row.players.split()), row.dealer, row.bet, row.carry_in,
                   {g: c for g, c in (row.side_carry or {}).items() if c},
                   tuple((g, stake, tuple(names)) for g, stake, names in row.sides or ()),
                   row.status, row.carry_out if complete else None,
                   dict(row.side_carry_out or {}) if complete else None, closes)


class Table(NamedTuple):
    """A table as its hands so far left it: what the next hand must follow on from."""

    number: int = 0         # the last hand's number (0: no hand yet)
    last: HandFacts | None = None   # the last hand whose setup could be read
    dealt: HandFacts | None = None  # the last hand dealt (not void)
    pots: tuple | None = None       # (main cents, {game: cents}) the pots hold; None: no hand yet
    pots_from: int = 0      # the number of the hand the pots stand as
    tail: tuple = ()        # the complete hands the pots carried through (N9.4's shares)
    closed: bool = False    # broke up after its last hand
    open: bool = False      # its last hand is still being recorded (a book's)


class Options(NamedTuple):
    """`book`: a book's hands (numbered by the book, none after the table's close or after a
    hand still open), rather than a file's session (a Closed tag starts another night)."""

    book: bool = False


SESSION, BOOK = Options(book=False), Options(book=True)


class Breach(NamedTuple):
    """A law a hand (or a table's change) breaks: the hand's number and first line, the rule."""

    number: int
    line: int
    code: str
    message: str
    severity: str = ERROR

    def finding(self) -> Finding:
        return Finding(self.line, self.code, self.message, self.severity)


def _error(hand: HandFacts, code: str, message: str) -> Breach:
    return Breach(hand.number, hand.line, code, message, ERROR)


# ------------------------------------------------------------------ the table, hand by hand
def follow(before: Table, hand: HandFacts) -> Table:
    """The table after `hand` (whatever the laws said of it)."""
    if not hand.players:  # its setup could not be read: it tells nothing
        return before._replace(number=hand.number)
    pots, pots_from, tail = before.pots, before.pots_from, before.tail
    if hand.status == COMPLETE:
        pots = (hand.carry_out, {g: c for g, c in (hand.side_carry_out or {}).items() if c})
        pots_from = hand.number
        carried_in = hand.carry_in or hand.side_carry_in
        tail = tail + (hand,) if carried_in and tail else (hand,)
    elif pots is None:  # the table's first hands: what the first brought in
        pots, pots_from = (hand.carry_in, dict(hand.side_carry_in)), hand.number
    return Table(hand.number, hand, hand if hand.status != VOID else before.dealt, pots, pots_from,
                 tail, before.closed or hand.closes, hand.status == OPEN)


def table_after(newest_first: Iterable[HandFacts], closed: bool = False) -> Table:
    """The table as its hands left it, from its hands given newest first (an iterator: it is
    read only back to the last complete hand that carried nothing in, before which nothing
    the laws ask counts); `closed` when the table broke up after its last hand."""
    back = []
    for hand in newest_first:
        back.append(hand)
        if hand.status == COMPLETE and not hand.carry_in and not hand.side_carry_in:
            break
    table = Table()
    for hand in reversed(back):
        table = follow(table, hand)
    return table._replace(closed=table.closed or closed)


def next_night(table: Table, options: Options) -> Table:
    """A session's hand after a Closed tag starts another night at the table (its carries
    brought in); a book's closed table stays closed."""
    return Table(number=table.number) if table.closed and not options.book else table


def follow_on(before: Table, hand: HandFacts, options: Options = SESSION) -> list:
    """Every law's Breach of `hand`, dealt at the table as `before` (the hands before it) left it."""
    return [b for law in LAWS for b in law.of_hand(before, hand, options)]


def judge_hands(hands: Iterable[HandFacts], options: Options = SESSION, start: Table = Table()) -> list:
    """Every law's Breach over a table's hands in order (after `start`), hand by hand."""
    return [b for before, hand in following(hands, options, start) for b in follow_on(before, hand, options)]


def following(hands: Iterable[HandFacts], options: Options = SESSION,
              start: Table = Table()) -> Iterator[tuple[Table, HandFacts]]:
    """(the table as the hands before left it, the hand) for each hand in order."""
    before = start
    for hand in hands:
        yield before, hand
        before = next_night(follow(before, hand), options)


class Law:
    """A law of one hand (`of_hand(before, hand, options)`), called as a law of a table's
    hands: `law(hands, options, start)` is every Breach of each hand in order."""

    def __init__(self, of_hand: Callable[[Table, HandFacts, Options], list]):
        self.of_hand = of_hand
        self.__name__, self.__doc__ = of_hand.__name__, of_hand.__doc__

    def __call__(self, hands: Iterable[HandFacts], options: Options = SESSION, start: Table = Table()) -> list:
        return [b for before, hand in following(hands, options, start) for b in self.of_hand(before, hand, options)]


LAWS: list[Law] = []


def law(of_hand: Callable[[Table, HandFacts, Options], list]) -> Law:
    """`of_hand` as a Law, listed among the LAWS."""
    LAWS.append(Law(of_hand))
    return LAWS[-1]


# ------------------------------------------------------------------ the laws
@law
def numbers(before: Table, hand: HandFacts, options: Options) -> list:
    """A book's hands are numbered 1, 2, … at their table, without a gap (N9)."""
    if options.book and hand.number != before.number + 1:
        return [_error(hand, "N9", M("hand {number} is missing: the hands jump to {jump}",
                                     number=before.number + 1, jump=hand.number))]
    return []


@law
def after_close(before: Table, hand: HandFacts, options: Options) -> list:
    """No hand follows a table's close in a book (N3: the Closed tag, `table close`)."""
    if options.book and before.closed:
        return [_error(hand, "N3", M("the table broke up after hand {number} (its Closed tag or `table "
                                     "close`): no hand follows", number=before.number))]
    return []


@law
def after_open(before: Table, hand: HandFacts, options: Options) -> list:
    """No hand is dealt while the one before is still being recorded (N5.4)."""
    if options.book and before.open:
        return [_error(hand, "N5.4", M("hand {number} was still being recorded when this hand was dealt",
                                       number=before.number))]
    return []


@law
def carries(before: Table, hand: HandFacts, options: Options) -> list:
    """N9.1: a hand carries in the main pot (R2.3) and each side pot (R4.6) the table's pots
    hold after the hand before; a table's first hand brings its carries in."""
    if not hand.players or before.pots is None:
        return []
    main, sides = before.pots
    immediate = before.pots_from == before.number
    found = []
    if hand.carry_in != main:
        message = M("Carry is {carry} but the hand before carried out {carried}", carry=fmt(hand.carry_in),
                    carried=fmt(main)) if immediate else \
            M("Carry is {carry} but the pot holds {carried} as hand {number} left it (the hands after it "
              "settled nothing)", carry=fmt(hand.carry_in), carried=fmt(main), number=before.pots_from)
        found.append(_error(hand, "R2.3", message))
    for game in sorted(set(sides) | set(hand.side_carry_in)):
        held, carry = sides.get(game, 0), hand.side_carry_in.get(game, 0)
        if held != carry:
            message = M("SideCarry for {game} is {carry} but the hand before carried out {carried}",
                        game=game, carry=fmt(carry), carried=fmt(held)) if immediate else \
                M("SideCarry for {game} is {carry} but its pot holds {carried} as hand {number} left it (the "
                  "hands after it settled nothing)", game=game, carry=fmt(carry), carried=fmt(held),
                  number=before.pots_from)
            found.append(_error(hand, "R4.6", message))
    return found


@law
def bet(before: Table, hand: HandFacts, options: Options) -> list:
    """N9.2: the bet changes from the hand before only when no main pot is carried (R2.3)."""
    last = before.last
    if not hand.players or last is None or hand.bet == last.bet:
        return []
    pot = before.pots[0] if before.pots else 0
    if pot:
        return [_error(hand, "R2.3", M("the bet changed from {before} to {after} while a pot of {pot} is "
                                       "carried", before=fmt(last.bet), after=fmt(hand.bet), pot=fmt(pot)))]
    return []


@law
def dealer(before: Table, hand: HandFacts, options: Options) -> list:
    """N9.3: the deal passes to the right of the last hand's dealer (R3.1), counting only the
    players seated in both hands — a warning: the hand was played and its money stands."""
    if not hand.players or hand.dealer is None or hand.status == VOID:
        return []
    expected = next_dealer(before, hand.players)
    if expected is None or expected == hand.dealer:
        return []
    return [Breach(hand.number, hand.line, "R3.1", M("the deal passes to the right: {player} deals this hand, "
                                                     "not {player2}", player=expected, player2=hand.dealer),
                   WARNING)]


def next_dealer(before: Table, players: Sequence[str]) -> str | None:
    """Who deals next (R3.1) at a table seating `players`: the first to the right of the last
    hand dealt's dealer, in its seating, who sits in both hands; after a table's first hands,
    all void, their dealer again (N9.6: the deal does not pass); None at a table's first hand."""
    dealt = before.dealt
    if dealt is None:
        last = before.last
        if last is not None and last.status == VOID and last.dealer in players:
            return last.dealer
        return None
    if dealt.dealer not in dealt.players:
        return None
    seats = dealt.players
    at = seats.index(dealt.dealer)
    seated = set(players)
    for k in range(1, len(seats) + 1):
        name: str = seats[(at + k) % len(seats)]
        if name in seated:
            return name
    return None


def proposed_dealer(before: Table, players: Sequence[str], previous: str | None) -> str | None:
    """Who deals the next hand when nobody is named (`hand new`): the next to the right
    (next_dealer); after a table's first hands, all void, their dealer (`previous`, the latest
    hand's) again; None at a table's first hand."""
    return next_dealer(before, players) or (previous if previous in players else None)


# ------------------------------------------------------------------ a table's changes
def bet_change(before: Table, new_bet: int) -> list:
    """A change of the table's bet after its hands so far (`table bet`, or a journaled change
    of the table): only between hands (R2.2), and only while no main pot is carried (R2.3)."""
    last = before.last
    if last is None:
        return []
    where = Breach(before.number, 0, "", "")
    if before.open:
        return [where._replace(code="R2.2", message=M("the bet changes only between hands: hand {number} is "
                                                      "still being played", number=before.number))]
    pot = before.pots[0] if before.pots else 0
    if pot and new_bet != last.bet:
        return [where._replace(code="R2.3", message=M("the bet cannot change while a pot of {pot} is carried: "
                                                      "it changes once the pot is won", pot=fmt(pot)))]
    return []


# ------------------------------------------------------------------ N9.4: returns
def returns(table: Table) -> dict:
    """N9.4, R11.5: what a table that breaks up returns, pot by pot: {pot (MAIN_POT or the side
    game): {player: cents}}. Each pot its last complete hand carries out goes back in proportion
    to what each player put into it over the hands it carried through (a part brought in from
    before goes back with the rest, in the same proportion); the odd cents one each in seat
    order from the last dealer's right, as R11.6 orders a split."""
    hands = table.tail
    if not hands:
        return {}
    last = hands[-1]
    order = _from_dealers_right(last)
    refund = {}
    if last.carry_out:
        shares = _shares(hands, lambda h: h.carry_out, lambda h: (h.carry_in, {p: h.bet for p in h.players}))
        refund[MAIN_POT] = _in_proportion(last.carry_out, shares, order)
    for game, cents in last.side_carry_out.items():
        if cents:
            shares = _shares(hands, lambda h, game=game: h.side_carry_out.get(game, 0),
                             lambda h, game=game: _side_put_in(h, game))
            refund[game] = _in_proportion(cents, shares, order)
    return refund


def _from_dealers_right(hand: HandFacts) -> list:
    seats = hand.players
    at = seats.index(hand.dealer) if hand.dealer in seats else -1
    return [seats[(at + k) % len(seats)] for k in range(1, len(seats) + 1)]


def _side_put_in(hand: HandFacts, game: str) -> tuple[int, dict[str, int]]:
    """(what the side pot carried in, {player: cents} this hand's stakes left in it): stakes
    returned to their payers (`side-nowin=refund`) stayed in no pot."""
    carried_in = hand.side_carry_in.get(game, 0)
    entry = next((e for e in hand.sides if e[0] == game), None)
    if entry is None or (hand.side_carry_out or {}).get(game, 0) == carried_in:
        return carried_in, {}
    _, stake, names = entry
    return carried_in, {p: stake for p in names}


def _shares(hands: Sequence[HandFacts], carried_out: Callable[..., int | None],
            put_in: Callable[..., tuple[int, dict[str, int]]]) -> dict:
    """What each player put into a pot the last hand carried out, walking back the hands it
    carried through: `carried_out(hand)` is the pot a hand carried out, `put_in(hand)` its
    carry in and {name: cents} put in during the hand."""
    shares: dict[str, int] = {}
    for hand in reversed(hands):
        if not carried_out(hand):
            break
        carry_in, paid = put_in(hand)
        for name, cents in paid.items():
            shares[name] = shares.get(name, 0) + cents
        if not carry_in:
            break
    return shares


def _in_proportion(amount: int, shares: dict[str, int], order: Sequence[str]) -> dict:
    """Split `amount` in proportion to `shares` (R11.5), exactly: leftover cents one each in `order`."""
    total = sum(shares.values())
    if not total:
        return {}
    out = {p: amount * c // total for p, c in shares.items()}
    left = amount - sum(out.values())
    for p in [p for p in order if p in shares][:left]:
        out[p] += 1
    return out
