"""The simulator's table: every line a bot writes goes through the referee before it is kept.

`Table` holds the referee of the record being written, and for a closed record (N6) a
second one that is told every card (the truth the bots play from: a closed record does not
say what is in a hand). A line is judged by both and applied to both, and the record is
exactly the lines applied. The physical stock is the table's too: the notation names a card
only when it is drawn, so the order of the deck is not the referee's to know.
"""

from ..engine.queries import Seat
from ..engine.replay import Referee
from ..engine.state import ACTIVE, DEAL
from ..notation.parser import parse_event
from ..notation.writer import with_comment


class SimulatorBug(AssertionError):
    """A bot wrote a line the referee refuses: a bug in the simulator, never a rule."""


_END = parse_event("end", 0)


class Table:
    def __init__(self, setup, rng, vary: bool, closed: bool, comment_rate: float, skill=None):
        self.setup = setup
        self.skill = skill or {}  # seat -> level below 1 (sim/hand.py: HandSim.misjudges)
        self.names = setup.players
        self.n = len(self.names)
        self.rng = rng
        self.vary = vary
        self.closed = closed
        self.comment_rate = comment_rate
        self.record = Referee(setup)
        self.truth = Referee(setup) if closed else self.record
        self.lines: list[str] = []
        self.stock: list[int] = []   # the physical stock, its top last
        self._seats: list[Seat] | None = None     # seats_view() and the active seats, until the next line
        self._active: list[int] | None = None

    # ------------------------------------------------------------ writing lines
    def _pairs(self, text: str, closed):
        """(referee, line) pairs: the record's line and, for a closed record, the open one."""
        if not self.closed:
            return ((self.record, text),)
        return ((self.record, text if closed is None else closed), (self.truth, text))

    def allows(self, text: str, closed=None) -> bool:
        """Whether the referee would accept this line now (both referees, for a closed record)."""
        n = len(self.lines) + 1
        return all(ref.verify(parse_event(t, n)) is None for ref, t in self._pairs(text, closed))

    def emit(self, text: str, closed=None, comment=None) -> None:
        """Judge and apply a line; `closed` is how a closed record writes it (`?` cards)."""
        n = len(self.lines) + 1
        written = text
        for ref, line in self._pairs(text, closed):
            found = ref.apply(parse_event(line, n))
            if found is not None:
                raise SimulatorBug(f"the referee refuses {line!r}: {found.code} {found.message}")
            if ref is self.record:
                written = line
        if comment and self.vary and self.rng.random() < self.comment_rate:
            written = with_comment(written, " " + comment)
        self.lines.append(written)
        self._seats = self._active = None

    def attempt(self, text: str, closed=None, comment=None) -> bool:
        """Write the line if the referee accepts it (a move the bot may or may not make)."""
        if not self.allows(text, closed):
            return False
        self.emit(text, closed, comment)
        return True

    # ------------------------------------------------------------ asking the referee
    def judged(self):
        """The truth's referee with the deal judged. The deal is judged when the line after
        it comes (N4.6): until then this is a fork told that the deal is over, so that a
        misdealer's place and the first drawer are known."""
        ref = self.truth
        if ref.phase == DEAL:
            ref = ref.fork()
            ref.apply(_END)
        return ref

    def seats(self) -> list[Seat]:
        """Every seat as the referee sees it, with every card known (the truth)."""
        if self._seats is None:
            self._seats = self.judged().seats_view()
        return self._seats

    def next_drawer(self):
        return self.judged().next_drawer()

    def hand(self, seat: int) -> list:
        return list(self.seats()[seat].hand)

    def melds(self, seat: int) -> list:
        return [list(m) for m in self.seats()[seat].melds]

    def active(self, order=None) -> list:
        """The seats still playing (R13, R14), in `order` if given."""
        active = self._active
        if self._seats is None or active is None:
            seats = self.seats()
            active = self._active = [s for s in range(self.n) if seats[s].status == ACTIVE]
        return list(active) if order is None else [s for s in order if s in active]

    def order_from(self, seat: int) -> list:
        """The seats in seat order, starting at the right of `seat` and ending with it."""
        return [(seat + k) % self.n for k in range(1, self.n + 1)]

    def discard_pile(self) -> list:
        return list(self.truth.report.state.dead)
