"""The referee of one hand (RULES §1, §3-§10, §13, §14; N4-N6): the core that judges a
line and dispatches it to the part of the rules it is about.

`replay(hand, setup)` is pure: it returns the final table, the findings and the status.
The rules live in one module per part of the game, each a mixin over the one table
(`self.g`, engine/state.py): the deal, side games, the cambio and declarations, drawing,
the card on offer, laying, forcing, passing, fouls, the end; what they share (refusing a
line, where its cards come from) is in engine/common.py, and the read-only queries in
engine/queries.py. Each part subclasses engine/base.py's RefereeParts, which declares the
state `Referee.__init__` sets and the methods one part calls on another; what replaying
found (`Replay`, the statuses) is engine/found.py's, below every part.
"""

from collections.abc import Callable, Sequence

from ..findings import Finding, M
from ..notation.model import Event, HandRecord
from .cambio import Cambio
from .deal import Deal
from .draw import Drawing
from .end import Ending
from .forcing import Forcing
# the referee's verdicts, exported (`X as X`: what referee.py, session.py, view.py import from here)
from .found import COMPLETE as COMPLETE, INCOMPLETE as INCOMPLETE, INVALID as INVALID, Replay as Replay
from .fouls import Fouls
from .common import LineChecks, Stop, fail
from .lay import Laying
from .offer import OnOffer
from .passing import Passing
from .queries import Queries
from .setup import Setup
from .sides import SideGames
from .state import DEAL, OVER, PLAY, GameState

DEAL_VERBS = frozenset(("cut", "deal", "return", "foul", "forgive"))


class Referee(Deal, SideGames, Cambio, Drawing, OnOffer, Laying, Forcing, Passing, Fouls, Ending,
              LineChecks, Queries):
    """The referee of one hand: `apply` judges and applies a line, `verify` judges one without
    changing anything, and the queries (engine/queries.py) say what the table looks like and
    what may come next. Feeding a hand line by line is judging it whole (`run`)."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.opts = setup.options
        self.g = GameState(setup.players)
        self.out = Replay(setup=setup, state=self.g)
        self.index = -1  # the index of the latest event judged
        self.seats = {name: i for i, name in enumerate(setup.players)}
        self.last_fouls = None  # fouls.FoulLine

    def fork(self) -> "Referee":
        """An independent copy: what one does, the other does not see."""
        other = Referee.__new__(Referee)
        other.setup, other.opts, other.seats, other.index = self.setup, self.opts, self.seats, self.index
        other.g = self.g.clone()
        other.out = self.out.copy(other.g)
        other.last_fouls = None if self.last_fouls is None else self.last_fouls.copy()
        return other

    def verify(self, ev: Event) -> Finding | None:
        """The error this line would get now (a Finding), or None; changes nothing."""
        return self.fork().apply(ev)

    def apply(self, ev: Event) -> Finding | None:
        """Judge one line and apply it. Returns None, or the error that makes the hand invalid:
        then no later line is judged (N5.1) and every later call returns that error."""
        out = self.out
        if out.errors:
            return out.errors[0]
        self.index += 1
        try:
            self.step(ev)
        except Stop as stop:
            out.errors.append(stop.finding)
            out.status = INVALID
            out.last_line = ev.line
            return stop.finding
        out.last_line = ev.line
        out.state = self.g
        out.status = COMPLETE if self.g.phase == OVER else INCOMPLETE
        return None

    # ------------------------------------------------------------------ loop
    def run(self, events: Sequence[Event], until: int | None = None) -> Replay:
        """`apply` each event in turn (up to line `until`), stopping at the first error.

        The loop is `apply` inlined, with the usual play line dispatched straight from it:
        this is the hot path of `check` (bench/)."""
        out = self.out
        if out.errors:
            return out
        if until is not None:
            events = [ev for ev in events if ev.line <= until]
        step = self.step
        seats = self.seats
        for ev in events:
            self.index += 1
            try:
                g = self.g  # (a forgiven foul may have put back an earlier table)
                seat = seats.get(ev.actor)  # type: ignore[arg-type]  # `end` has none: no seat
                if seat is not None and g.phase == PLAY and not g.declarations and ev.error is None:
                    PLAY_HANDLERS[ev.verb](self, ev, seat)  # the common case, kept short
                else:
                    step(ev)
            except Stop as stop:
                out.errors.append(stop.finding)
                out.status = INVALID
                out.last_line = ev.line
                return out
        if events:
            out.last_line = events[-1].line
        out.state = self.g
        out.status = COMPLETE if self.g.phase == OVER else INCOMPLETE
        return out

    def step(self, ev: Event) -> None:
        if ev.error is not None:
            raise Stop(ev.error)
        g = self.g
        seat = self.seats.get(ev.actor)  # type: ignore[arg-type]  # `end` has none: no seat
        verb = ev.verb
        if verb == "end":
            if g.phase == DEAL:
                self.end_deal(ev)
            self.do_end(ev)
            return
        if seat is None:
            self.unknown_player(ev)
        phase = g.phase
        if phase == PLAY and not g.declarations:
            PLAY_HANDLERS[verb](self, ev, seat)
            return
        if phase == OVER:
            if verb == "show":
                self.do_show(ev, seat)
                return
            if verb == "forgive" and self.last_fouls and self.last_fouls.index == self.index - 1:
                self.do_forgive(ev, seat)
                return
            if verb == "foul" and self.same_foul_written(seat, ev.word):
                self.do_foul(ev, seat)  # N4.8: the foul that ended the hand, written: one foul
                return
            self.card_checks(ev, seat)  # N5.1: the card rows come before "play after the end"
            assert g.outcome is not None  # the hand is over
            fail(ev.line, "N4.4", M("the hand is over (line {line}): only show and end may follow",
                                    line=g.outcome.line))
        if phase == DEAL:
            if verb in DEAL_VERBS:
                DEAL_HANDLERS[verb](self, ev, seat)
                return
            self.end_deal(ev, seat)
            if g.phase == OVER:  # the deal left no one to play
                fail(ev.line, "N4.4", M("the hand is over: no player is left"))
        # After a valid declaration (N4.7) every other verb fails its own earlier check of
        # N5.1 (nothing on offer, no meld, no take); only a draw reaches the N4.7 check.
        PLAY_HANDLERS[verb](self, ev, seat)


DEAL_HANDLERS: dict[str, Callable[..., None]] = {
    "cut": Referee.do_cut, "deal": Referee.do_deal, "return": Referee.do_return,
    "foul": Referee.do_foul, "forgive": Referee.do_forgive,
}
PLAY_HANDLERS: dict[str, Callable[..., None]] = {
    "cut": Referee.deal_is_over, "deal": Referee.deal_is_over, "return": Referee.deal_is_over,
    "foul": Referee.do_foul, "forgive": Referee.do_forgive,
    "announce": Referee.do_announce, "cambio": Referee.do_cambio, "declare": Referee.do_declare,
    "draw": Referee.do_draw, "claim": Referee.do_claim, "knock": Referee.do_claim,
    "meld": Referee.do_lay, "add": Referee.do_lay, "pay": Referee.do_pay, "pass": Referee.do_pass,
    "show": Referee.do_show,
}


def replay(hand: HandRecord, setup: Setup, until: int | None = None) -> Replay:
    """Replay a hand's events (up to line `until`, if given) under the setup's rules."""
    return Referee(setup).run(hand.events, until)
