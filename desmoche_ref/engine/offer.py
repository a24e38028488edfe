"""The card on offer (R7.5, N4.3): the order in which players may take it, who may not, and
claims (`claim`, `knock`), which bind only when several players claim it."""

from ..cards import name
from ..findings import M, Message
from ..melds import fits
from ..notation.model import Event
from .base import RefereeParts
from .common import fail
from .state import DISQUALIFIED, PASSED


class OnOffer(RefereeParts):
    def priority(self) -> list[int]:
        """R7.5 order for the card on offer: a drawn card's drawer first, then from the right."""
        g = self.g
        n = len(g.players)
        first = [g.offer_by] if g.offer_drawn else []
        return first + [(g.offer_by + k) % n for k in range(1, n)] + ([] if g.offer_drawn else [g.offer_by])

    def may_take(self, seat: int) -> Message | None:
        """R7.5: None if the player may take the card on offer, else why not (passed and
        disqualified players may not, nor may a player take back the card they paid)."""
        g = self.g
        p = g.players[seat]
        if p.status == PASSED:
            return M("{player} has passed and takes no more cards (R13.1)", player=p.name)
        if p.status == DISQUALIFIED:
            return M("{player} is out of the hand (R14.1)", player=p.name)
        if not g.offer_drawn and seat == g.offer_by:
            if self.opts.forcing and any(fits(g.offer, m) for m in p.melds):
                return None  # forced back (R9.1 step 3); others' obligations checked later
            return M("{player} paid {card} and may not take it back",
                     player=p.name, card=name(g.offer))
        return None

    def do_claim(self, ev: Event, seat: int) -> None:
        g = self.g
        if g.offer < 0:
            fail(ev.line, "R7.9", M("there is no card on offer to claim"))
        if ev.verb == "knock":  # lets the card go: withdraws an earlier claim
            if seat in g.claims:
                g.claims.remove(seat)
            return
        why = self.may_take(seat)
        if why:
            fail(ev.line, "R7.5", why)
        if seat not in g.claims:
            g.claims.append(seat)

    def first_claimant(self) -> int:
        """Of several claimants, the one first in the R7.5 order, who alone may take it (N4.3)."""
        g = self.g
        return next(s for s in self.priority() if s in g.claims)
