"""Forcing (RULES §9, option `forcing`): a card on offer that fits a meld on the table must be
taken, by the first obliged player in the R9.1 order; it may not be let go."""

from ..cards import name
from ..findings import M
from ..melds import fits
from ..notation.model import Event
from .base import RefereeParts
from .common import fail
from .state import ACTIVE


class Forcing(RefereeParts):
    def fitting_players(self, card: int) -> list[int]:
        """Players still playing who own a meld the card fits (R9.1; passed players excluded, R9.4)."""
        g = self.g
        return [i for i, p in enumerate(g.players)
                if p.status == ACTIVE and any(fits(card, m) for m in p.melds)]

    def forced_owner(self, before_seat: int | None = None) -> int:
        """Under `forcing`, the first player obliged to take the card on offer, in R9.1 order.

        With `before_seat`, only players who come before that taker in the order count."""
        g = self.g
        if not self.opts.forcing or g.offer < 0:
            return -1
        n = len(g.players)
        putter = g.offer_by
        order = [(putter + k) % n for k in range(1, n)] + [putter]
        if g.offer_drawn and before_seat == putter:
            return -1  # (1) the drawer may take it first
        for seat in order:
            if seat == before_seat:
                return -1
            p = g.players[seat]
            if p.status == ACTIVE and any(fits(g.offer, m) for m in p.melds):
                return seat
        return -1

    def not_forced(self, ev: Event) -> None:
        """R9.1: the card on offer is not let go (by a draw, or `end`) while it fits a meld."""
        g = self.g
        owners = self.fitting_players(g.offer)
        if owners:
            fail(ev.line, "R9.1", M("{card} fits {player}'s meld and must be taken (forcing)",
                                    card=name(g.offer), player=self.pname(owners[0])))

    def not_forced_before(self, ev: Event, seat: int) -> None:
        """R9.1: the taker comes first among the players the card is forced on."""
        obliged = self.forced_owner(before_seat=seat)
        if obliged >= 0:
            fail(ev.line, "R9.1", M("{card} fits {player}'s meld, and {player} comes before "
                                    "{player2}: it was forced there",
                                    card=name(self.g.offer), player=self.pname(obliged),
                                    player2=self.pname(seat)))
