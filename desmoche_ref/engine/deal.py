"""The deal (RULES §3, N4.6): the cut, dealing, returning cards dealt too many, and the misdeal
(F1) judged by the totals once the deal is over."""

from ..findings import Foul, M, MN
from ..notation.model import Event
from .base import RefereeParts
from .common import fail
from .state import ACTIVE, DISQUALIFIED, FREE, HAND, OUT, PRE, STOCK


class Deal(RefereeParts):
    def do_cut(self, ev: Event, seat: int) -> None:
        g = self.g
        right = (self.setup.dealer + 1) % len(g.players)
        if g.deal_started:
            fail(ev.line, "R3.2", M("the cut comes before the deal"))
        if seat != right:
            fail(ev.line, "R3.2", M("the player to the dealer's right ({player}) cuts",
                                    player=self.pname(right)))

    def do_deal(self, ev: Event, seat: int) -> None:
        g = self.g
        self.from_stock(ev, ev.cards)
        count = len(ev.cards) + ev.unknown
        if count > g.stock:
            fail(ev.line, "N2.4", MN("the deck has only {stock} card left to deal, not {count}",
                                     "the deck has only {stock} cards left to deal, not {count}",
                                     g.stock, stock=g.stock, count=count))
        if g.stock_known:
            if ev.unknown:
                for c in g.known_in_stock():  # a `?` may be one of them: no longer known where
                    g.loc[c] = FREE
                g.stock_known = 0
            g.stock_known -= sum(1 for c in ev.cards if g.loc[c] == STOCK)
        p = g.players[seat]
        g.deal_started = True
        out = p.status == DISQUALIFIED
        for c in ev.cards:
            g.loc[c] = OUT if out else HAND
            g.owner[c] = seat
            if not out:
                p.hand.add(c)
        if out:
            p.out_unknown += ev.unknown
        else:
            p.unknown += ev.unknown
        p.dealt_total += count
        g.stock -= count

    def do_return(self, ev: Event, seat: int) -> None:
        g = self.g
        p = g.players[seat]
        sources = self.own_cards(ev, seat, ev.cards)
        if ev.unknown > p.unknown - sources.count(FREE):
            fail(ev.line, "N2.3", M("{player}'s hand is known: name the card that goes back",
                                    player=p.name))
        count = len(ev.cards) + ev.unknown
        if p.hand_count - count < 9:
            fail(ev.line, "R3.4", M("only cards dealt too many go back: {player} holds {hand_count}",
                                    player=p.name, hand_count=p.hand_count))
        for c, src in zip(ev.cards, sources):
            self.take_from_hand(seat, c, src, STOCK)
            g.owner[c] = -1
            g.stock_known += 1
        p.unknown -= ev.unknown
        g.stock += count

    def deal_is_over(self, ev: Event, seat: int) -> None:
        fail(ev.line, "N4.6", M("the deal is over: {verb} comes before the first other event",
                                verb=ev.verb))

    def end_deal(self, ev: Event, seat: int | None = None) -> None:
        """N4.6: judge the deal by the totals dealt; F1 charged to the dealer; R3.5.

        The line that ends the deal has its own card checks (N2.4, N2.5) before R3.5 (N5.1)."""
        g = self.g
        dealer = self.setup.dealer
        foul = self.misdeal(ev)
        if seat is not None:
            self.card_checks(ev, seat)
        g.phase = PRE
        if foul is not None and foul.enforced:
            self.disqualify(dealer, ev.line)
        for p in g.players:
            if p.status == ACTIVE and p.hand_count != 9:
                fail(ev.line, "R3.5", MN("{player} holds {hand_count} card when play starts: every "
                                         "player holds nine (a short hand is completed from the "
                                         "stock with a deal line)",
                                         "{player} holds {hand_count} cards when play starts: every "
                                         "player holds nine (a short hand is completed from the "
                                         "stock with a deal line)",
                                         p.hand_count, player=p.name, hand_count=p.hand_count))
        for p in g.players:
            p.dealt9 = (frozenset(p.hand), p.unknown)
        if len(g.active()) <= 1:
            g.cambio_complete = True  # R14.4: a lone player has no cambio
        self.check_no_one_left(ev.line)

    def misdeal(self, ev: Event) -> Foul | None:
        """The F1 of a deal that dealt someone other than nine, or that the table called
        (R3.4); recorded, enforced unless forgiven during the deal. None for a good deal."""
        g = self.g
        wrong = [p for p in g.players if p.dealt_total != 9]
        if not wrong and not g.written_misdeal:
            return None
        dealer = self.setup.dealer
        line = g.written_misdeal or ev.line
        detail = ", ".join(f"{p.name} {p.dealt_total}" for p in wrong) or M("a short hand completed")
        foul = Foul(line, self.pname(dealer), "F1", M("misdeal: {detail} (R3.4)",
                                                      detail=detail), not g.misdeal_forgiven)
        self.record_misdeal(foul)
        return foul
