"""Play (R7-R10, R13, R14) at a simulated table: draws, the card on offer, actions, passes and
fouls between draws. Who draws, who may and must take the card, whether a pass or a line is
allowed and when the hand is over are the referee's answers (`Table`, engine queries); which
card a bot takes, how it lays it, what it pays, when it passes or fouls are the bots'.
"""

import random
from collections import Counter

from ..cards import CARD_NAME, names
from ..engine.state import NO_WINNER, OVER
from ..melds import RUN, fits, meld_kind, remove_card
from ..options import RuleOptions
from . import bots
from .rates import OTHER_FOULS, P_CLAIM, P_DECLINE, P_FORGIVE, P_KNOCK, P_PASS, P_RANDOM_TAKE
from .table import Table

_DRAW_COMMENT = {"R7.1": "the dealer's right draws first (R7.1)",
                 "R7.7": "the first card went dead: the same player draws (R7.7)"}


class Play:
    """The play of a hand; mixed into HandSim (sim/hand.py), which sets what it holds: the
    table `t`, its random numbers, the players' names, the options, and the planned fouls."""

    t: Table
    rng: random.Random
    vary: bool
    opts: RuleOptions
    skill: dict[int, float]   # seat -> level below 1
    names: list[str]
    notes: Counter[str]       # which situations the hand went through (for coverage)
    draws: int
    take_comment: str | None
    # planned incidents: the draw number at which each happens, None once done (-1: a peek
    # waiting for a paid card on offer)
    peek_at: int | None
    other_at: int | None
    hand_foul_at: int | None
    hand_foul_from: str       # drawn, discard or stock (F3)
    arrangement_at: int | None

    def misjudges(self, seat: int) -> bool:
        """Whether the bot at `seat` chooses this move at random rather than by judgement:
        never at level 1 (and then no random number is drawn, so a session of level-1 bots
        is the session they always played), always at 0, else that much more often."""
        level = self.skill.get(seat, 1.0)
        return level < 1 and self.rng.random() >= level

    def forgive(self) -> bool:
        return self.rng.random() < P_FORGIVE

    def over(self) -> bool:
        return self.t.record.phase == OVER

    def play(self):
        t = self.t
        anchor = None
        while not self.over():
            if not t.stock:
                t.emit("end")  # R10.3: the last card went untaken
                self.notes["stock ran out"] += 1
                return
            if anchor is not None:
                self.boundary(anchor)
                if self.over():
                    break
            anchor = self.draw_and_resolve()
        if t.record.outcome.kind == NO_WINNER:
            t.emit("end")  # nobody is left in the hand (R14.4)
            self.notes["no player left"] += 1

    def draw_and_resolve(self):
        """A draw and everything until the card on offer goes untaken; the seat to whose right
        play goes on (for the passes and fouls written before the next draw), or None after a
        redraw of the first card (R7.7), which comes at once."""
        t = self.t
        seat, rule = t.next_drawer()
        c = t.stock.pop()
        self.draws += 1
        drawer = self.names[seat]
        t.emit(f"draw {drawer} {CARD_NAME[c]}", comment=_DRAW_COMMENT.get(rule))
        if rule == "R7.7":
            self.notes["first card redrawn"] += 1
        if (self.hand_foul_at is not None and self.draws >= self.hand_foul_at and rule != "R7.1"
                and t.stock and self.hand_foul_from == "drawn"):
            self.hand_foul_at = None
            t.emit(f"foul {drawer} hand {CARD_NAME[c]}")
            if not self.forgive():
                return seat  # out, and the card leaves play with them (N4.8)
            t.emit(f"forgive {drawer}")
        last = self.resolve()
        if self.over():
            return None
        nxt = t.record.next_drawer()
        if nxt is not None and nxt[1] == "R7.7":
            return None
        return last

    # ------------------------------------------------------------ the card on offer
    def bids(self, offer):
        """Who takes the card on offer, with what plan, who else wants it, who lets it go:
        the bots' choices among the seats the referee says may take it (R7.5, R9.1)."""
        t, rng = self.t, self.rng
        taker = plan = None
        claimants = []
        self.take_comment = None
        for s in offer.may_take:
            if taker is not None:  # spoken for; the others it could go to may claim it too
                if s == offer.must_take or not self.vary:
                    break
                if rng.random() >= P_DECLINE:
                    claimants.append(s)
                continue
            blind = self.misjudges(s)
            if blind:  # a card taken or let go without judging it, laid any way it allows
                pl = bots.random_take(t.hand(s), t.melds(s), offer.card, self.opts.hand_melds, rng)
                if s != offer.must_take and rng.random() >= P_RANDOM_TAKE:
                    pl = None
            else:
                pl = bots.plan_take(t.hand(s), t.melds(s), offer.card, self.opts.hand_melds)
            if s == offer.must_take:
                if pl is None:
                    raise AssertionError(f"{self.names[s]} must take {CARD_NAME[offer.card]} "
                                         f"but sees no way to lay it")
                taker, plan = s, pl
                claimants.append(s)
                self.note_forced(s == offer.by, pl.win)
                break
            if pl is not None and (blind or pl.win or rng.random() >= P_DECLINE):
                taker, plan = s, pl
                claimants.append(s)
        # who lets it go: anyone still in who does not want it may say so (N4.3)
        knockers = [s for s in t.active(t.order_from(offer.by)) if s not in claimants]
        return taker, plan, claimants, knockers

    def note_forced(self, back: bool, win: bool):
        self.notes["forced back" if back else "forced"] += 1
        self.notes["forced win"] += win
        self.take_comment = ("forced back onto their own meld (R9.1)" if back
                             else "forced: it fits their meld (R9.1)")

    def resolve(self):
        """Takes, actions and pays until the card on offer goes untaken or the hand ends;
        returns the seat that put the last card on offer (or the last actor)."""
        t, rng = self.t, self.rng
        last = None
        while not self.over():
            offer = t.record.offer()
            if offer is None:
                return last
            last = offer.by
            taker, plan, claimants, knockers = self.bids(offer)
            if self.vary:
                for s in knockers:
                    if rng.random() < P_KNOCK:
                        t.emit(f"knock {self.names[s]}")
                if len(claimants) > 1 and rng.random() < P_CLAIM:
                    for s in claimants:
                        t.emit(f"claim {self.names[s]}")
            if taker is None:
                return last
            self.note_take(claimants)
            last = taker
            if self.act(taker, plan) != "paid":
                return last
            self.payer_peeks(taker)
        return last

    def note_take(self, claimants):
        if len(claimants) > 1:
            self.notes["contested"] += 1
        if not self.t.stock:
            self.notes["taken after the stock ran out"] += 1
        if len(self.t.active()) == 1:
            self.notes["lone player takes"] += 1

    def payer_peeks(self, payer):
        """A foul while the paid card is on offer leaves it on offer (N4.8)."""
        if not (self.vary and self.peek_at == -1):
            return
        self.peek_at = None
        self.t.emit(f"foul {self.names[payer]} peek")
        if self.forgive():
            self.t.emit(f"forgive {self.names[payer]}")
        else:
            self.notes["payer out, card stays on offer"] += 1

    # ------------------------------------------------------------ an action (N4.2)
    def act(self, s, plan) -> str:
        """Write a taker's lines: "win", "out" (F4 enforced) or "paid"."""
        t, rng = self.t, self.rng
        ops = self.merge_adds(plan.ops)
        before = t.melds(s)
        foul_op = None
        if self.arrangement_at is not None and self.draws >= self.arrangement_at and t.stock:
            meld_ops = [i for i, op in enumerate(ops) if op[0] == "meld"]
            if meld_ops:
                foul_op = rng.choice(meld_ops)
                self.arrangement_at = None
        for i, op in enumerate(ops):
            lone = len(t.active()) == 1
            self.write_op(s, op, i == foul_op, self.line_comment(i, ops, plan, foul_op))
            winning = plan.win and i == len(ops) - 1
            if i == foul_op and not self.arrangement_foul(s, last=winning or lone, winning=winning):
                return "out"
        self.note_action(before, ops, plan)
        if self.over():
            return "win"
        others = [m for q in t.active() if q != s for m in t.melds(q)]
        # a bot avoids paying a card that fits another player's meld
        if self.misjudges(s):
            pay = rng.choice(t.hand(s))
        else:
            pay = bots.least_useful(t.hand(s), rng, extra=lambda x: 4 * any(fits(x, m) for m in others))
        t.emit(f"pay {self.names[s]} {CARD_NAME[pay]}")
        return "paid"

    def write_op(self, s, op, foul: bool, comment):
        t, rng = self.t, self.rng
        who = self.names[s]
        if op[0] == "meld":
            cards = op[1]
            if foul:
                written = bots.out_of_order(cards, rng)
            elif self.opts.strict or rng.random() < 0.7:
                written = bots.in_order_form(cards)
            else:
                written = list(cards)
                rng.shuffle(written)
            t.emit(f"meld {who} {names(written)}", comment=comment)
            return
        cards, anchor = op[1], op[2]
        line = f"add {who} {names(cards)}"
        # `to` now and then, and where the referee cannot tell which meld (N4.2a)
        if rng.random() < 0.1 or (len(t.melds(s)) > 1 and not t.allows(line)):
            target = next(m for m in t.melds(s) if anchor in m)
            line += f" to {CARD_NAME[rng.choice(target)]}"
        t.emit(line, comment=comment)

    def arrangement_foul(self, s, last: bool, winning: bool) -> bool:
        """F4, found by the referee on the line just written: the table may also write it
        (N4.8) except on a line that may end the hand, and forgives it or not. True if the
        player plays on."""
        who = self.names[s]
        if not last and self.rng.random() < 0.4:
            self.t.emit(f"foul {who} arrangement")
        if self.forgive():
            self.t.emit(f"forgive {who}")
            if winning:
                self.notes["F4 forgiven on the winning line"] += 1
            return True
        self.notes["F4 enforced" + (" on the winning line" if winning else "")] += 1
        return False

    def note_action(self, before, ops, plan):
        for op in ops:
            if op[0] == "meld" and any(x in m for m in before for x in op[1]):
                self.notes["desmoche"] += 1
                if any(meld_kind(m) == RUN and x in m and len(remove_card(m, x)) == 2
                       for m in before for x in op[1]):
                    self.notes["run split"] += 1
        if not self.opts.hand_melds:
            self.notes["hand-melds off action"] += 1
        if plan.win:
            self.notes["win"] += 1
            if sum(len(m) for m in before) == 9:
                self.notes["win from nine down (R10.2)"] += 1
            if len(self.t.active()) == 1:
                self.notes["lone player wins"] += 1

    def line_comment(self, i, ops, plan, foul_op):
        if i == foul_op:
            return "out of order under strict (F4)"
        if i == 0 and self.take_comment:
            comment, self.take_comment = self.take_comment, None
            return comment
        if i == len(ops) - 1 and plan.win:
            return "ten cards down: a win (R10.1)"
        return None

    def merge_adds(self, ops):
        """Sometimes write consecutive adds to one meld as one line (a group, N4.2a)."""
        out = []
        for op in ops:
            if (op[0] == "add" and out and out[-1][0] == "add" and out[-1][2] == op[2]
                    and self.rng.random() < 0.5):
                out[-1] = ("add", out[-1][1] + op[1], op[2])
            else:
                out.append(op)
        return out

    # ------------------------------------------------------------ between two draws
    def boundary(self, anchor):
        """Between a dead card and the next draw: fouls and passes (R13, R14)."""
        self.planned_fouls()
        if (self.hand_foul_at is not None and self.draws >= self.hand_foul_at
                and self.hand_foul_from != "drawn"):
            self.hand_foul_out_of_hand()
        t = self.t
        for s in t.order_from(anchor):
            if self.over():
                return
            if s not in t.active() or not t.melds(s):
                continue
            # "Cannot win" is the player's own judgement (R13.1): likelier with a hand that
            # makes no new meld. Whether the pass is allowed (R13.2) is the referee's.
            r = self.rng.random()
            if r < P_PASS and (r < P_PASS / 4 or not bots.potential(t.hand(s))) and t.attempt(
                    f"pass {self.names[s]}", comment="no card left in the stock fits (R13.1)"):
                self.notes["pass"] += 1

    def planned_fouls(self):
        rng, t = self.rng, self.t
        for at, kind in ((self.peek_at, "peek"), (self.other_at, "other")):
            if at is None or at < 0 or self.draws < at:
                continue
            if kind == "peek":
                # half of the peeks happen while a paid card is still on offer
                if rng.random() < 0.5:
                    self.peek_at = -1
                    continue
                self.peek_at = None
            else:
                self.other_at = None
            live = t.active()
            if not live or self.over():
                continue
            who = self.names[rng.choice(live)]
            t.emit(f"foul {who} peek" if kind == "peek" else
                   f"foul {who} other {rng.choice(OTHER_FOULS)}")
            if self.forgive():
                t.emit(f"forgive {who}")

    def hand_foul_out_of_hand(self):
        """F3 with a card from the discard pile or the stock, caught between two draws."""
        t, rng = self.t, self.rng
        live = t.active()
        pile = t.discard_pile()  # not the card just gone untaken: it is on offer until the next draw
        if not live or (self.hand_foul_from == "discard" and not pile) or len(t.stock) < 2:
            return
        self.hand_foul_at = None
        s = rng.choice(live)
        if self.hand_foul_from == "discard":
            x = rng.choice(pile)
            comment = "took a card from the discard pile (F3)"
        else:
            x = t.stock[-1]
            comment = "took the top card of the stock (F3)"
        t.emit(f"foul {self.names[s]} hand {CARD_NAME[x]}", comment=comment)
        self.notes["F3 from the " + self.hand_foul_from] += 1
        if self.forgive():
            t.emit(f"forgive {self.names[s]}")  # the card goes back where it was (N4.8)
        elif self.hand_foul_from == "stock":
            t.stock.pop()  # it leaves play with the player
