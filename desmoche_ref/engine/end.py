"""The end of a hand (RULES §10, R14.4, N4.4): a win, an automatic win when the declarations
close, or no winner once the stock is empty or nobody is left."""

from collections.abc import Sequence

from ..findings import M, MN
from ..notation.model import Event
from .base import RefereeParts
from .common import fail
from .state import DEAD, NO_WINNER, OVER, PLAY, Outcome


class Ending(RefereeParts):
    def finish(self, kind: str, winners: Sequence[int], line: int, auto: str | None = None) -> None:
        g = self.g
        g.phase = OVER
        g.outcome = Outcome(kind, tuple(winners), auto, line)

    def check_no_one_left(self, line: int) -> None:
        g = self.g
        if g.phase != OVER and not g.active():
            self.finish(NO_WINNER, [], line)

    def do_end(self, ev: Event) -> None:
        g = self.g
        if g.phase == OVER:
            return
        if self.standing_declarations():
            self.settle_declarations(ev.line)
            return
        if g.actor >= 0:
            fail(ev.line, "N4.4", M("the hand is not over: {player} is in the middle of an action",
                                    player=g.players[g.actor].name))
        if g.phase == PLAY and g.stock == 0:
            if g.offer >= 0 and self.opts.forcing:
                self.not_forced(ev)
            if g.offer >= 0:
                g.loc[g.offer] = DEAD
                g.dead.append(g.offer)
                g.offer = -1
            self.finish(NO_WINNER, [], ev.line)
            return
        if g.phase == PLAY:
            fail(ev.line, "N4.4", MN("the hand is not over: the stock still holds {stock} card",
                                     "the hand is not over: the stock still holds {stock} cards",
                                     g.stock, stock=g.stock))
        fail(ev.line, "N4.4", M("the hand is not over: play has not started"))
