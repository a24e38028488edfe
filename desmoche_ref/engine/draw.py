"""Drawing from the stock (R7.1, R7.6, R7.7, R10.3): who draws next, and the draw that lets
the card on offer go to the discard pile."""

from ..cards import name
from ..findings import M, MN, Message, listed
from ..melds import meld_kind
from ..notation.model import Event
from .base import RefereeParts
from .common import fail
from .state import ACTIVE, DEAD, FREE, OFFER, PASSED, PLAY, STOCK


class Drawing(RefereeParts):
    def do_draw(self, ev: Event, seat: int) -> None:
        """R7.1, R7.6, R7.7: who draws; checks in the order of N5.1's table."""
        g = self.g
        c = ev.cards[0]
        if g.loc[c] == FREE:
            if g.stock and g.unknown_in_stock() <= 0:
                fail(ev.line, "N2.4", M("{card} cannot be in the stock: every card left there is "
                                        "known", card=name(c)))
        elif g.loc[c] != STOCK:
            fail(ev.line, "N2.4", M("{card} is {where}", card=name(c), where=g.where(c)))
        if g.actor >= 0:
            self.unfinished_action(ev)
        declared = self.standing_declarations() if g.declarations else ()
        if not g.started and not declared:
            # (after a declaration the cambio need not be finished: N4.7 says why not to draw)
            missing = [g.players[i].name for i in g.active() if not g.players[i].cambio_done]
            if not g.cambio_complete and missing:
                fail(ev.line, "R5.2", MN("the cambio is not complete: {items} has not passed a card",
                                         "the cambio is not complete: {items} have not passed a card",
                                         len(missing), items=listed(missing)))
        if g.started and g.offer >= 0 and not g.first_card:  # the usual case (R7.6)
            expected, code = g.next_active(g.offer_by), "R7.6"
        else:
            expected, code = self.expected_drawer()
        if seat != expected:
            self.wrong_drawer(ev, seat, expected, code)
        if g.stock == 0:
            fail(ev.line, "R10.3", M("the stock is empty: nothing can be drawn (write `end` when "
                                     "the last card goes untaken)"))
        if g.offer >= 0 and self.opts.forcing:
            self.not_forced(ev)
        if declared:
            fail(ev.line, "N4.7", M("an automatic win has been declared: no card is drawn (close "
                                    "the declarations with `end`)"))
        if g.offer >= 0:
            g.loc[g.offer] = DEAD
            g.owner[g.offer] = -1
            g.dead.append(g.offer)
        g.first_card = not g.started
        g.started = True
        g.phase = PLAY
        if g.loc[c] == STOCK:
            g.stock_known -= 1
        g.offer, g.offer_by, g.offer_drawn = c, seat, True
        g.loc[c] = OFFER
        g.owner[c] = -1
        g.stock -= 1
        if g.claims:
            g.claims = []

    def expected_drawer(self) -> tuple[int, str]:
        """(seat, rule) of who draws next: R7.1 first draw, R7.7 redraw, R7.6 otherwise."""
        g = self.g
        if not g.started:
            return g.next_active(self.setup.dealer), "R7.1"
        if g.offer >= 0 and g.first_card:
            drawer = g.offer_by
            if g.players[drawer].status == ACTIVE:
                return drawer, "R7.7"
            return g.next_active(drawer), "R7.7"
        return g.next_active(g.offer_by if g.offer >= 0 else g.next_from), "R7.6"

    def wrong_drawer(self, ev: Event, seat: int, expected: int, code: str) -> None:
        g = self.g
        if g.players[seat].status != ACTIVE:
            state = M("passed") if g.players[seat].status == PASSED else M("out of the hand")
            fail(ev.line, code, M("{player} is {state} and does not draw",
                                  player=self.pname(seat), state=state))
        fail(ev.line, code, M("{why}: {player}, not {player2}",
                              why=self.why_drawer(code), player=self.pname(expected),
                              player2=self.pname(seat)))

    def why_drawer(self, code: str) -> Message:
        g = self.g
        if code == "R7.1":
            return M("the first card is drawn by the player to the dealer's right")
        if code == "R7.7":
            return M("nobody took the first card, so the same player draws again")
        origin = g.offer_by if g.offer >= 0 else g.next_from
        return M("the next draw is by the player to the right of {player}",
                 player=g.players[origin].name)

    def unfinished_action(self, ev: Event) -> None:
        """Nothing is drawn while an action is under way: why it is not over (R10.2, R8.5, R7.4)."""
        g = self.g
        actor = g.players[g.actor]
        if actor.hand_count == 0:
            fail(ev.line, "R10.2", M("{player} has nine on the table and none in hand: only a card "
                                     "that makes ten may be taken", player=actor.name))
        if any(meld_kind(m) is None for m in actor.melds):
            fail(ev.line, "R8.5", M("{player}'s melds are not all valid ({melds}) and the action "
                                    "is not over",
                                    player=actor.name, melds=self.describe_broken(actor)))
        fail(ev.line, "R7.4", M("{player} took {card} and must pay before play goes on",
                                player=actor.name, card=name(g.taken)))
