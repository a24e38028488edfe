"""One simulated hand up to the first draw: the deal (R3, F1), side-game claims (R4.5), the
cambio (R5) and automatic wins (R6); then play (sim/play.py) and the shows at the end.

Every line goes through `Table.emit`, which the referee judges; what the bots decide (what
to pass, what to claim, when to declare) is theirs, what follows from it is the referee's.
"""

from collections import Counter

from ..cards import CARD_NAME, names
from ..engine.state import ACTIVE, DISQUALIFIED, OVER, WIN
from . import bots
from .play import Play
from .rates import (P_ARRANGEMENT, P_CUT, P_FALSE_DECLARE, P_FOUL_HAND, P_FOUL_OTHER,
                    P_MISDEAL, P_PEEK, P_SPLIT_DEAL, P_VOID_DECLARE)


class HandSim(Play):
    def __init__(self, table, sides):
        self.t = table
        self.rng = rng = table.rng
        self.vary = vary = table.vary
        self.closed = table.closed
        self.opts = table.setup.options
        self.skill = table.skill
        self.names = table.names
        self.dealer = table.setup.dealer
        self.order = table.setup.order_from_dealer()  # dealer's right first, dealer last
        self.sides = sides  # [(game, [seats])]
        self.announced = {s: {} for s in range(table.n)}  # seat -> game -> cards (R4.5)
        self.known = set()   # closed records: seats whose hand the table knows (a declaration)
        self.dealt = {}
        self.declarers = []  # seats that declared an automatic win, in line order
        self.take_comment = None
        self.draws = 0
        self.notes = Counter()  # which situations the hand went through (for coverage)
        # planned incidents (draw numbers at which they happen)
        r = rng.random
        self.peek_at = rng.randint(2, 30) if vary and r() < P_PEEK else None
        self.other_at = rng.randint(2, 30) if vary and r() < P_FOUL_OTHER else None
        self.hand_foul_at = rng.randint(2, 30) if vary and r() < P_FOUL_HAND else None
        # F3: the card just drawn, a card from the discard pile, or the top of the stock
        self.hand_foul_from = rng.choice(("drawn", "drawn", "discard", "stock"))
        self.arrangement_at = (rng.randint(1, 25) if vary and self.opts.strict
                               and r() < P_ARRANGEMENT else None)

    def run(self):
        self.deal()
        self.announce()
        if self.automatic_wins():
            self.finish_auto()
            return
        self.play()
        self.finish()

    # ------------------------------------------------------------ the deal (R3, F1)
    def deal(self):
        rng, t, n = self.rng, self.t, self.t.n
        deck = list(range(52))
        rng.shuffle(deck)
        if self.vary and rng.random() < P_CUT:
            t.emit(f"cut {self.names[self.order[0]]}")
        hands = {s: deck[k: 9 * n: n] for k, s in enumerate(self.order)}
        t.stock = deck[9 * n:]
        misdeal = self.vary and rng.random() < P_MISDEAL
        kind = rng.choice(("long", "long", "short")) if misdeal else None
        victim = rng.choice(self.order) if misdeal else None
        forgiven = misdeal and self.forgive()
        early = forgiven and rng.random() < 0.5  # forgive right after the misdealt line
        if kind == "short":
            t.stock.append(hands[victim].pop())  # dealt again from the top of the stock
        if not misdeal and self.vary and rng.random() < P_SPLIT_DEAL:
            self.deal_in_rounds(hands)
        else:
            for s in self.order:
                if s == victim and kind == "long":
                    self.deal_long(s, hands[s], early)
                else:
                    self.write_deal(s, hands[s])
        dealer = self.names[self.dealer]
        if kind == "short":
            t.emit(f"foul {dealer} misdeal")
            if early:
                t.emit(f"forgive {dealer}")
            top = t.stock.pop()
            t.emit(f"deal {self.names[victim]} {CARD_NAME[top]}", closed=f"deal {self.names[victim]} ?")
        if forgiven and not early:
            t.emit(f"forgive {dealer}")
        # unforgiven, the dealer's cards are set aside (R3.4): the referee says so
        self.dealt = {s: t.hand(s) for s in range(n)}

    def deal_in_rounds(self, hands):
        """Written as dealt, in rounds (N4.6: several lines for one player add up)."""
        for k in range(0, 9, 3):
            for s in self.order:
                part = hands[s][k:k + 3]
                self.t.emit(f"deal {self.names[s]} {names(part)}", closed=f"deal {self.names[s]} ?x3")

    def deal_long(self, s, cards, early):
        """A card too many (F1): dealt, then returned to the stock."""
        t = self.t
        cards = cards + [t.stock.pop()]
        back = self.rng.choice(cards)
        self.write_deal(s, cards)
        if early:
            t.emit(f"forgive {self.names[self.dealer]}")
        t.emit(f"return {self.names[s]} {CARD_NAME[back]}", closed=f"return {self.names[s]} ?")
        t.stock.insert(self.rng.randrange(len(t.stock) + 1), back)

    def write_deal(self, s, cards):
        parts = [cards]
        if self.vary and len(cards) > 3 and self.rng.random() < P_SPLIT_DEAL:
            k = self.rng.randint(1, len(cards) - 1)
            parts = [cards[:k], cards[k:]]
        for part in parts:
            hidden = "?" if len(part) == 1 else f"?x{len(part)}"
            self.t.emit(f"deal {self.names[s]} {names(part)}", closed=f"deal {self.names[s]} {hidden}")

    # ------------------------------------------------------------ side games (R4.5)
    def announce(self):
        for s in self.t.active(self.order):
            hand = self.t.hand(s)
            for game, entrants in self.sides:
                if s not in entrants:
                    continue
                if self.misjudges(s):
                    cards = bots.random_claim(game, hand, self.opts.escalera, self.rng)
                else:
                    cards = bots.best_claim(game, hand, self.opts.escalera)
                if cards:
                    self.announced[s][game] = cards
                    self.t.emit(f"announce {self.names[s]} {game} {names(cards)}")

    def announced_cards(self, s) -> set:
        return {c for cards in self.announced[s].values() for c in cards}

    def show_all(self, seats=None):
        t = self.t
        for s in seats if seats is not None else self.order:
            if t.seats()[s].status == DISQUALIFIED:
                continue
            cards = sorted(c for c in t.hand(s) if c in self.announced_cards(s))
            if cards:
                t.emit(f"show {self.names[s]} {names(cards)}")

    # ------------------------------------------------------------ the cambio (R5)
    def cambio(self):
        t = self.t
        seats = t.active(self.order)
        if len(seats) < 2:
            return
        chosen = {s: self.rng.choice(t.hand(s)) if self.misjudges(s) else
                  bots.least_useful(t.hand(s), self.rng, keep=self.announced_cards(s)) for s in seats}
        if self.vary and self.rng.random() < 0.1:
            self.rng.shuffle(seats)
        for s in seats:
            line = f"cambio {self.names[s]} {CARD_NAME[chosen[s]]}"
            t.emit(line, closed=line if s in self.known else f"cambio {self.names[s]} ?")
        self.known.clear()  # every hand now holds a card the record does not name

    def cambio_complete(self) -> bool:
        return all(seat.cambio_done for seat in self.t.seats() if seat.status == ACTIVE)

    # ------------------------------------------------------------ automatic wins (R6, N4.7)
    def qualifies(self, cards):
        return bots.auto_kind(cards, self.opts.color) if self.opts.auto else None

    def declare(self, s, cards):
        kind = self.qualifies(cards)
        self.notes["declare " + kind] += 1
        self.notes["declare after the cambio" if self.cambio_complete() else
                   "declare before the cambio"] += 1
        if self.declarers:
            self.notes["several declarations"] += 1
        line = f"declare {self.names[s]} {kind}"
        if self.closed or self.rng.random() < 0.4:
            line += " " + names(sorted(cards))
            if sorted(cards) == self.t.hand(s):
                self.known.add(s)
        self.t.emit(line)
        self.declarers.append(s)

    def odd_declarations(self, order):
        """Declarations that stand for nothing: at a table without automatic wins (R6.7), or
        of a hand that does not qualify (R6.4). Warnings; play goes on."""
        rng = self.rng
        if not self.opts.auto:
            for s in order:
                kind = bots.auto_kind(self.t.hand(s), self.opts.color)
                if kind and rng.random() < P_VOID_DECLARE:
                    self.t.emit(f"declare {self.names[s]} {kind}",
                                comment="no automatic wins at this table (R6.7)")
                    self.notes["void declaration (R6.7)"] += 1
        elif rng.random() < P_FALSE_DECLARE:
            s = rng.choice(order)
            kind = rng.choice(bots.AUTO_KINDS)
            if not self.qualifies(self.t.hand(s)):
                self.t.emit(f"declare {self.names[s]} {kind}",
                            comment="the hand does not qualify (R6.4)")
                self.notes["false declaration (R6.4)"] += 1

    def automatic_wins(self) -> bool:
        """Declarations and the cambio; True if a declaration stands (the referee's word)."""
        rng, t = self.rng, self.t
        order = t.active(self.order)
        if self.vary and not self.closed:
            self.odd_declarations(order)
        if not self.opts.auto:
            self.cambio()
            return False
        waiting = []
        for s in order:
            if self.qualifies(t.hand(s)):
                if rng.random() < 0.25:
                    waiting.append(s)
                else:
                    self.declare(s, t.hand(s))
        if not self.declarers or rng.random() < 0.5:
            self.cambio()
        for s in order:
            if s in self.declarers:
                continue
            if s in waiting:
                self.declare(s, t.hand(s) if self.qualifies(t.hand(s)) else self.dealt[s])
            elif self.cambio_complete() and self.qualifies(t.hand(s)):
                self.declare(s, t.hand(s))
        return t.record.declared()

    def finish_auto(self):
        shows = [s for s in self.order if s not in self.declarers]
        before = self.rng.random() < 0.5
        if before:
            self.show_all(shows)
        self.t.emit("end")
        if not before:
            self.show_all(shows)

    def finish(self):
        """After the hand's end: the shows of side-game claims (R4.5), `end` where needed."""
        outcome = self.t.record.outcome
        if outcome is None or self.t.record.phase != OVER:
            raise AssertionError("play stopped before the hand was over")
        if outcome.kind == WIN and self.rng.random() < 0.1:
            self.t.emit("end")
        self.show_all()
