"""Laying cards in an action (R7.2-R7.4, RULES §8, §10; N4.1, N4.2): the take that places the
card on offer, new melds and adds, the desmoche that moves cards between melds, the strict
order (R8.4, F4), the tenth card that wins, and the pay that ends the action."""

from ..cards import name, names
from collections.abc import Sequence

from ..findings import M
from ..melds import arranged, in_order, meld_kind, remove_card, why_not_meld
from ..notation.model import Event
from .base import RefereeParts
from .common import fail
from .state import FREE, HAND, MELD, OFFER, WIN, PlayerState


class Laying(RefereeParts):
    def do_lay(self, ev: Event, seat: int) -> None:
        """`meld` and `add` (R7.2, R7.3, R8, N4.1, N4.2)."""
        g = self.g
        p = g.players[seat]
        cards = list(ev.cards)
        if ev.target is not None and ev.target in cards:
            fail(ev.line, "N2.4", M("{card} is both added and named as the meld to add to",
                                    card=name(ev.target)))
        sources = self.own_cards(ev, seat, cards, melds_ok=True, offer_ok=True)
        is_take = g.actor < 0
        self.may_lay(ev, seat, cards, sources, is_take)
        melds = self.melds_after(ev, p, cards, sources)
        if is_take and self.opts.forcing:
            self.not_forced_before(ev, seat)
        self.lay_down(seat, cards, sources, melds, is_take)
        if p.hand_count == 0 and (not p.desmoched or all(meld_kind(m) is not None for m in melds)):
            g.actor = -1
            self.finish(WIN, [seat], ev.line)
        if ev.verb == "meld" and self.opts.strict and not in_order(cards):
            self.record_foul(ev, seat, "F4", M("{cards} laid out of order (R8.4)",
                                               cards=names(cards)), found=True)

    def may_lay(self, ev: Event, seat: int, cards: Sequence[int], sources: list[int], is_take: bool) -> None:
        """Whether the player may lay these cards now: in their own action, or in a take of
        the card on offer that they may take (R7.2, R7.3, R7.5, N4.3)."""
        g = self.g
        p = g.players[seat]
        if g.actor >= 0 and g.actor != seat:
            fail(ev.line, "R7.3", M("{player} is in the middle of an action: {player2} cannot lay "
                                    "cards now", player=g.players[g.actor].name, player2=p.name))
        if is_take:
            if g.offer < 0:
                fail(ev.line, "R7.9", M("there is no card on offer to take: cards are laid only in "
                                        "an action that takes the card on offer"))
            if g.offer not in cards:
                fail(ev.line, "R7.2", M("the take must place the card on offer, {card}, on "
                                        "{player}'s table", card=name(g.offer), player=p.name))
        elif OFFER in sources:
            fail(ev.line, "N2.4", M("only one card is taken per action"))
        if ev.verb == "meld" and not self.opts.hand_melds:
            taken = g.offer if is_take else g.taken
            if taken not in cards:
                fail(ev.line, "R7.3", M("every new meld must contain the card taken, {card} "
                                        "(hand-melds=off)", card=name(taken)))
        if is_take:
            why = self.may_take(seat)
            if why:
                fail(ev.line, "R7.5", why)
            if len(g.claims) >= 2:  # only several claims bind (N4.3)
                first = self.first_claimant()
                if first != seat:
                    fail(ev.line, "R7.5", M("{player} also claimed {card} and comes first in the "
                                            "order", player=self.pname(first), card=name(g.offer)))

    def melds_after(self, ev: Event, p: PlayerState, cards: list[int], sources: list[int]) -> list:
        """The player's melds once the line is laid, built on a copy (R8.1, R8.2): nothing
        changes unless the line is good."""
        melds = [list(m) for m in p.melds]
        if MELD in sources:  # a desmoche: cards leave their melds first (N4.1, N4.2a)
            for c, src in zip(cards, sources):
                if src == MELD:
                    i = next(k for k, m in enumerate(melds) if c in m)
                    melds[i:i + 1] = remove_card(melds[i], c)
        if ev.verb == "meld":
            if meld_kind(cards) is None:
                fail(ev.line, "R8.1", M("{cards} is not a meld: {why}",
                                        cards=names(cards), why=why_not_meld(cards)))
            melds.append(arranged(cards))
            return melds
        target = self.added_to(ev, p, melds, cards)
        i = next(k for k, m in enumerate(melds) if m is target)
        melds[i] = arranged(target + cards)
        return melds

    def added_to(self, ev: Event, p: PlayerState, melds: list[list[int]], cards: list[int]) -> list[int]:
        """The meld an `add` goes to: the one holding `to CARD`, else the only one it fits (R8.2)."""
        if ev.target is not None:
            targets = [m for m in melds if ev.target in m]
            if not targets:
                fail(ev.line, "R8.2", M("{card} is not in one of {player}'s melds",
                                        card=name(ev.target), player=p.name))
            if meld_kind(targets[0] + cards) is None:
                fail(ev.line, "R8.2", M("{cards} does not fit the meld of {card}: {why}",
                                        cards=names(cards), card=name(ev.target),
                                        why=why_not_meld(targets[0] + cards)))
            return targets[0]
        targets = [m for m in melds if meld_kind(m + cards) is not None]
        if not targets:
            fail(ev.line, "R8.2", M("{cards} fits none of {player}'s melds",
                                    cards=names(cards), player=p.name))
        if len(targets) > 1:
            fail(ev.line, "R8.2", M("{cards} fits more than one of {player}'s melds: say which "
                                    "with `to CARD`", cards=names(cards), player=p.name))
        return targets[0]

    def lay_down(self, seat: int, cards: Sequence[int], sources: list[int], melds: list, is_take: bool) -> None:
        """Apply a good line: the cards leave the hand (or the offer) for the player's melds."""
        g = self.g
        p = g.players[seat]
        loc, owner, shown, hand = g.loc, g.owner, g.shown, p.hand
        for c, src in zip(cards, sources):
            if src == HAND:
                hand.discard(c)
            elif src == FREE:
                p.unknown -= 1
                g.revealed[c] = seat
            elif src == MELD:
                p.desmoched = True  # only a desmoche can leave a meld broken (R8.5)
            loc[c] = MELD
            owner[c] = seat
            shown.add((seat, c))
        p.melds = melds
        p.laid = True
        if is_take:
            g.actor, g.taken = seat, g.offer
            g.offer = -1
            g.first_card = False
            g.claims = []

    def do_pay(self, ev: Event, seat: int) -> None:
        """R7.4: the action ends with one card from the hand put on offer; R8.5: every meld
        is valid by then."""
        g = self.g
        p = g.players[seat]
        c = ev.cards[0]
        (source,) = self.own_cards(ev, seat, [c])
        if g.actor != seat:
            fail(ev.line, "R7.4", M("{player} pays only after taking a card", player=p.name))
        if p.desmoched and any(meld_kind(m) is None for m in p.melds):
            fail(ev.line, "R8.5", M("at the end of the action every meld must be valid: {melds} is "
                                    "not", melds=self.describe_broken(p)))
        self.take_from_hand(seat, c, source, OFFER)
        g.owner[c] = -1
        g.shown.add((seat, c))
        p.desmoched = False
        g.offer, g.offer_by, g.offer_drawn = c, seat, False
        g.next_from = seat
        g.actor = g.taken = -1
        if g.claims:
            g.claims = []

    def describe_broken(self, player: PlayerState) -> str:
        return "; ".join(names(m) for m in player.melds if meld_kind(m) is None)
