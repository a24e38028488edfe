"""Passing (RULES §13): a player with a meld down stops taking cards, once no card that fits
their melds can still come from the stock (R13.2)."""

from ..cards import name, names
from ..findings import M
from ..melds import fitting_cards
from ..notation.model import Event
from .base import RefereeParts
from .common import fail
from .state import ACTIVE, FREE, PASSED, STOCK


class Passing(RefereeParts):
    def do_pass(self, ev: Event, seat: int) -> None:
        g = self.g
        p = g.players[seat]
        if p.status != ACTIVE:
            fail(ev.line, "R13.1", M("{player} is already passed",
                                     player=p.name) if p.status == PASSED
                 else M("{player} is out of the hand", player=p.name))
        if g.actor == seat:
            fail(ev.line, "R13.1", M("{player} is in the middle of an action and cannot pass now",
                                     player=p.name))
        if not p.melds:
            fail(ev.line, "R13.1", M("{player} has no meld on the table and cannot pass",
                                     player=p.name))
        fitting = sorted({c for m in p.melds for c in fitting_cards(m)})
        unknown_in_stock = g.unknown_in_stock()
        hidden = g.hidden_elsewhere()
        doubtful = []
        for c in fitting:
            if g.loc[c] == STOCK or (g.loc[c] == FREE and unknown_in_stock > 0 and hidden == 0):
                fail(ev.line, "R13.2", M("{player} may not pass: {card} is still in the stock and "
                                         "fits {player}'s meld", player=p.name, card=name(c)))
            if g.loc[c] == FREE and unknown_in_stock > 0:
                doubtful.append(c)
        if doubtful:
            self.warn(ev.line, "R13.2", M("{player}'s pass could not be verified: {cards} may "
                                          "still be in the stock",
                                          player=p.name, cards=names(doubtful)))
        p.status = PASSED
        self.check_no_one_left(ev.line)
