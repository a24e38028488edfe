"""Replaying a hand event by event under the rules (RULES §1, §3, §5-§10, §13, §14; N4-N6).

`replay(hand, setup)` is pure: it returns the final table, the findings and the status.
Each handler checks first and changes the table only once the line is known to be good,
so that an invalid hand's report shows the table just before the error (N5.1).
"""

from ..cards import UNKNOWN, name, names
from ..findings import Foul, error, warning
from ..melds import arranged, fits, fitting_cards, in_order, meld_kind, remove_card, why_not_meld
from ..notation.parser import FOUL_CODES
from ..ranking import (GAME_NEEDS, KIND_RANK, auto_strength, claim_strength, could_qualify,
                       why_not_auto)
from .queries import Queries
from .state import (ACTIVE, DEAD, DEAL, DISQUALIFIED, FREE, HAND, MELD, OFFER, OUT, OVER, PASSED,
                    PLAY, PRE, STOCK, TRANSIT, GameState, Outcome)

COMPLETE, INCOMPLETE, INVALID = "complete", "incomplete", "invalid"
DEAL_VERBS = frozenset(("cut", "deal", "return", "foul", "forgive"))


class Announcement:
    """A side-game claim (R4.5): the player's word, checked at the end of the hand."""

    __slots__ = ("seat", "game", "cards", "line", "void", "void_code")

    def __init__(self, seat: int, game: str, cards: tuple, line: int):
        self.seat = seat
        self.game = game
        self.cards = cards
        self.line = line
        self.void = None       # why the claim is void, if known when announced
        self.void_code = None


class Replay:
    """What replaying a hand found: the table at the end, the status and the findings."""

    __slots__ = ("setup", "state", "status", "errors", "warnings", "fouls", "announcements",
                 "last_line")

    def __init__(self, setup, state):
        self.setup = setup
        self.state = state
        self.status = INCOMPLETE
        self.errors = []
        self.warnings = []
        self.fouls = []
        self.announcements = []
        self.last_line = 0  # the last line judged

    def copy(self, state):
        other = Replay(self.setup, state)
        other.status, other.last_line = self.status, self.last_line
        other.errors, other.warnings = list(self.errors), list(self.warnings)
        other.fouls, other.announcements = list(self.fouls), list(self.announcements)
        return other


class FoulLine:
    """The fouls of the latest line that had any, for a `forgive` right after it (R14.3)."""

    __slots__ = ("index", "fouls", "before", "found")

    def __init__(self, index: int, fouls: list, before, found: bool):
        self.index = index    # the event's index in the hand
        self.fouls = fouls    # [(seat, index of the Foul in Replay.fouls)]
        self.before = before  # the table as if they had not happened (None: a misdeal)
        self.found = found    # found by the referee itself (N4.8)


class Stop(Exception):
    """The line is an error: replay ends here (N5.1)."""

    def __init__(self, finding):
        self.finding = finding


def fail(line, code, message):
    raise Stop(error(line, code, message))


class Referee(Queries):
    """The referee of one hand: `apply` judges and applies a line, `verify` judges one without
    changing anything, and the queries (engine/queries.py) say what the table looks like and
    what may come next. Feeding a hand line by line is judging it whole (`run`)."""

    def __init__(self, setup):
        self.setup = setup
        self.opts = setup.options
        self.g = GameState(setup.players)
        self.out = Replay(setup=setup, state=self.g)
        self.index = -1  # the index of the latest event judged
        self.seats = {name: i for i, name in enumerate(setup.players)}
        self.last_fouls = None  # FoulLine

    def fork(self) -> "Referee":
        """An independent copy: what one does, the other does not see."""
        other = Referee.__new__(Referee)
        other.setup, other.opts, other.seats, other.index = self.setup, self.opts, self.seats, self.index
        other.g = self.g.clone()
        other.out = self.out.copy(other.g)
        last = self.last_fouls
        other.last_fouls = None if last is None else FoulLine(
            last.index, list(last.fouls), last.before.clone() if last.before is not None else None,
            last.found)
        return other

    def verify(self, ev):
        """The error this line would get now (a Finding), or None; changes nothing."""
        return self.fork().apply(ev)

    def apply(self, ev):
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

    # ----------------------------------------------------------------- helpers
    def unknown_player(self, ev):
        fail(ev.line, "N3.1", f"{ev.actor[:24]!r} is not a player at this table "
                              f"({' '.join(self.setup.players)}); names are matched exactly")

    def pname(self, seat) -> str:
        return self.setup.players[seat]

    def warn(self, line, code, message):
        self.out.warnings.append(warning(line, code, message))

    def no_duplicates(self, ev, cards):
        if len(cards) < 2 or len(set(cards)) == len(cards):
            return
        seen = set()
        for c in cards:
            if c in seen:
                fail(ev.line, "N2.4", f"{name(c)} is listed twice on this line")
            seen.add(c)

    def own_cards(self, ev, seat, cards, melds_ok=False, offer_ok=False, out_ok=False):
        """Where each card a player lays, pays, passes or shows comes from (N4.1, N6.2).

        Returns a source per card: HAND, MELD, OFFER, OUT, or FREE (one of the player's
        unknown cards, revealed now)."""
        g = self.g
        self.no_duplicates(ev, cards)
        player = g.players[seat]
        reveal = 0
        sources = []
        for c in cards:
            loc, owner = g.loc[c], g.owner[c]
            if loc == HAND and owner == seat:
                sources.append(HAND)
            elif loc == MELD and owner == seat and melds_ok:
                sources.append(MELD)
            elif loc == OFFER and offer_ok:
                sources.append(OFFER)
            elif loc == OUT and owner == seat and out_ok:
                sources.append(OUT)
            elif loc == FREE:
                if player.unknown - reveal <= 0:
                    fail(ev.line, "N2.5", f"{player.name} does not hold {name(c)}")
                reveal += 1
                sources.append(FREE)
            elif loc == MELD and owner == seat:
                fail(ev.line, "N2.5", f"{name(c)} is on {player.name}'s table, not in hand")
            else:
                fail(ev.line, "N2.4", f"{name(c)} is {g.where(c)}")
        return sources

    def take_from_hand(self, seat, card, source, to_loc):
        g = self.g
        player = g.players[seat]
        if source == HAND:
            player.hand.discard(card)
        elif source == FREE:
            player.unknown -= 1
            g.revealed[card] = seat
        g.loc[card] = to_loc
        g.owner[card] = seat

    def finish(self, kind, winners, line, auto=None):
        g = self.g
        g.phase = OVER
        g.outcome = Outcome(kind, tuple(winners), auto, line)

    def check_no_one_left(self, line):
        g = self.g
        if g.phase != OVER and not g.active():
            self.finish("no-winner", [], line)

    def disqualify(self, seat, line):
        """R14.1, R14.5: the player's cards leave play; they take no further part."""
        g = self.g
        p = g.players[seat]
        if p.status == DISQUALIFIED:
            return
        p.status = DISQUALIFIED
        for c in p.hand:
            g.loc[c] = OUT
        for meld in p.melds:
            for c in meld:
                g.loc[c] = OUT
        p.hand = set()
        p.melds = []
        p.out_unknown += p.unknown
        p.unknown = 0
        if p.cambio_done and not g.cambio_complete:
            if p.passed_card == UNKNOWN:
                g.transit_unknown -= 1
                p.out_unknown += 1
            elif p.passed_card is not None:
                g.loc[p.passed_card] = OUT
        if g.actor == seat:  # R14.5: no pay; the next draw is by their right
            g.actor = -1
            g.taken = -1
            g.next_from = seat
        if g.phase == OVER and g.outcome and g.outcome.kind == "win" and seat in g.outcome.winners:
            g.phase = PLAY  # F4 on the tenth card: the win stands only if forgiven (N4.8)
            g.outcome = None
            g.next_from = seat
        if g.phase == PRE:
            self.maybe_complete_cambio()
        self.check_no_one_left(line)

    def record_foul(self, ev, seat, code, message, found=False, before=None):
        """A foul disqualifies at once; `forgive` on the next line puts everything back (R14.3).

        `before` is the table as if the foul had not happened (default: as it is now)."""
        g = self.g
        foul = Foul(ev.line, self.pname(seat), code, message, True)
        if before is None:
            before = g.clone()
        fouls = self.out.fouls
        fouls.append(foul)
        self.disqualify(seat, ev.line)
        if self.last_fouls and self.last_fouls.index == self.index:
            self.last_fouls.fouls.append((seat, len(fouls) - 1))
        else:
            self.last_fouls = FoulLine(self.index, [(seat, len(fouls) - 1)], before, found)
        return foul

    def unfinished_action(self, ev):
        g = self.g
        actor = g.players[g.actor]
        if actor.hand_count == 0:
            fail(ev.line, "R10.2", f"{actor.name} has nine on the table and none in hand: "
                                   f"only a card that makes ten may be taken")
        if any(meld_kind(m) is None for m in actor.melds):
            fail(ev.line, "R8.5", f"{actor.name}'s melds are not all valid "
                                  f"({self.describe_broken(actor)}) and the action is not over")
        fail(ev.line, "R7.4", f"{actor.name} took {name(g.taken)} and must pay before play goes on")

    def describe_broken(self, player):
        return "; ".join(names(m) for m in player.melds if meld_kind(m) is None)

    def fitting_players(self, card):
        """Players still playing who own a meld the card fits (R9.1; passed players excluded, R9.4)."""
        g = self.g
        return [i for i, p in enumerate(g.players)
                if p.status == ACTIVE and any(fits(card, m) for m in p.melds)]

    def forced_owner(self, before_seat=None):
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

    def expected_drawer(self):
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

    def why_drawer(self, code):
        g = self.g
        if code == "R7.1":
            return "the first card is drawn by the player to the dealer's right"
        if code == "R7.7":
            return "nobody took the first card, so the same player draws again"
        origin = g.offer_by if g.offer >= 0 else g.next_from
        return f"the next draw is by the player to the right of {g.players[origin].name}"

    # ------------------------------------------------------------- the deal
    def end_deal(self, ev, seat=None):
        """N4.6: judge the deal by the totals dealt; F1 charged to the dealer; R3.5.

        The line that ends the deal has its own card checks (N2.4, N2.5) before R3.5 (N5.1)."""
        g = self.g
        dealer = self.setup.dealer
        wrong = [p for p in g.players if p.dealt_total != 9]
        foul = None
        if wrong or g.written_misdeal:
            line = g.written_misdeal or ev.line
            detail = ", ".join(f"{p.name} {p.dealt_total}" for p in wrong) or "a short hand completed"
            foul = Foul(line, self.pname(dealer), "F1", f"misdeal: {detail} (R3.4)",
                        not g.misdeal_forgiven)
            self.out.fouls.append(foul)
            self.last_fouls = FoulLine(self.index, [(dealer, len(self.out.fouls) - 1)], None, True)
        if seat is not None:
            self.card_checks(ev, seat)
        g.phase = PRE
        if foul is not None and foul.enforced:
            self.disqualify(dealer, ev.line)
        for p in g.players:
            if p.status == ACTIVE and p.hand_count != 9:
                fail(ev.line, "R3.5", f"{p.name} holds {p.hand_count} cards when play starts: "
                                      f"every player holds nine (a short hand is completed "
                                      f"from the stock with a deal line)")
        for p in g.players:
            p.dealt9 = (frozenset(p.hand), p.unknown)
        if len(g.active()) <= 1:
            g.cambio_complete = True  # R14.4: a lone player has no cambio
        self.check_no_one_left(ev.line)

    def do_cut(self, ev, seat):
        g = self.g
        right = (self.setup.dealer + 1) % len(g.players)
        if g.deal_started:
            fail(ev.line, "R3.2", "the cut comes before the deal")
        if seat != right:
            fail(ev.line, "R3.2", f"the player to the dealer's right ({self.pname(right)}) cuts")

    def do_deal(self, ev, seat):
        g = self.g
        self.no_duplicates(ev, ev.cards)
        for c in ev.cards:
            if g.loc[c] not in (FREE, STOCK):
                fail(ev.line, "N2.4", f"{name(c)} is {g.where(c)}")
        count = len(ev.cards) + ev.unknown
        if count > g.stock:
            fail(ev.line, "N2.4", f"the deck has only {g.stock} cards left to deal, not {count}")
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

    def do_return(self, ev, seat):
        g = self.g
        p = g.players[seat]
        sources = self.own_cards(ev, seat, ev.cards)
        if ev.unknown > p.unknown - sources.count(FREE):
            fail(ev.line, "N2.3", f"{p.name}'s hand is known: name the card that goes back")
        count = len(ev.cards) + ev.unknown
        if p.hand_count - count < 9:
            fail(ev.line, "R3.4", f"only cards dealt too many go back: {p.name} holds {p.hand_count}")
        for c, src in zip(ev.cards, sources):
            self.take_from_hand(seat, c, src, STOCK)
            g.owner[c] = -1
            g.stock_known += 1
        p.unknown -= ev.unknown
        g.stock += count

    # ------------------------------------------------- before the first draw
    def do_announce(self, ev, seat):
        g = self.g
        self.no_duplicates(ev, ev.cards)
        ann = Announcement(seat, ev.word, tuple(ev.cards), ev.line)
        self.out.announcements.append(ann)
        entered = [e for e in self.setup.sides if e.game == ev.word]
        who = self.pname(seat)
        if g.cambio_started or g.started:
            ann.void, ann.void_code = "announced after the cambio began", "R4.5"
        elif not entered or seat not in entered[0].players:
            ann.void, ann.void_code = f"{who} did not enter {ev.word} before the deal", "R4.1"
        elif claim_strength(ev.word, ev.cards, self.opts.escalera) is None:
            ann.void, ann.void_code = f"{names(ev.cards)} is not a claim for {ev.word}: " \
                                      f"it needs {GAME_NEEDS[ev.word]}", "R4.2"
        if ann.void:
            self.warn(ev.line, ann.void_code, f"{who}'s {ev.word} claim is void: {ann.void}")

    def do_cambio(self, ev, seat):
        g = self.g
        p = g.players[seat]
        sources = self.own_cards(ev, seat, ev.cards)
        if ev.unknown and p.unknown == 0:
            fail(ev.line, "N2.3", f"{p.name}'s hand is known: name the card passed")
        if g.phase != PRE:
            fail(ev.line, "R5.1", "the cambio is made after the deal and before the first draw")
        if p.status != ACTIVE:
            fail(ev.line, "R5.1", f"{p.name} is out of the hand and takes no part in the cambio")
        if g.cambio_complete:
            reason = "there is no cambio with one player left (R14.4)" if len(g.active()) <= 1 \
                else "the cambio is over"
            fail(ev.line, "R5.2" if len(g.active()) > 1 else "R5.1", reason)
        if p.cambio_done:
            fail(ev.line, "R5.2", f"{p.name} has already passed a card in this cambio")
        g.cambio_started = True
        p.cambio_done = True
        if ev.cards:
            c = ev.cards[0]
            self.take_from_hand(seat, c, sources[0], TRANSIT)
            p.passed_card = c
        else:
            p.unknown -= 1
            g.transit_unknown += 1
            p.passed_card = UNKNOWN
        self.maybe_complete_cambio()

    def maybe_complete_cambio(self):
        """The passes are simultaneous: cards arrive once every player still in has passed (R5.1)."""
        g = self.g
        active = g.active()
        if g.cambio_complete or not g.cambio_started or len(active) < 2:
            return
        if not all(g.players[i].cambio_done for i in active):
            return
        for i in active:
            giver = g.players[i]
            to = g.next_active(i)
            receiver = g.players[to]
            card = giver.passed_card
            receiver.received_card = card
            if card == UNKNOWN:
                receiver.unknown += 1
                g.transit_unknown -= 1
            else:
                receiver.hand.add(card)
                g.loc[card] = HAND
                g.owner[card] = to
        g.cambio_complete = True
        for p in g.players:
            p.held9 = (frozenset(p.hand), p.unknown)

    def do_declare(self, ev, seat):
        g = self.g
        p = g.players[seat]
        who = p.name
        kind = ev.word
        self.no_duplicates(ev, ev.cards)
        named = frozenset(ev.cards)
        candidates = []  # (known cards, unknown count): the hand as dealt, and after the cambio
        if p.dealt9 is not None:
            candidates.append(p.dealt9)
        if g.cambio_complete and p.held9 is not None and p.status == ACTIVE:
            candidates.append(p.held9)
        if named:
            for c in named:  # the hand as dealt may include the card passed in the cambio
                if g.loc[c] != FREE and g.owner[c] != seat and c != p.passed_card:
                    fail(ev.line, "N2.4", f"{name(c)} is {g.where(c)}")
            fitting = [known <= named and len(named - known) == unknown for known, unknown in candidates]
            if not any(fitting):
                fail(ev.line, "N2.5", f"{names(sorted(named))} is not {who}'s hand, as dealt or after the cambio")
            if not p.cambio_done or fitting == [False, True]:  # certainly the hand held now
                self.reveal_declared(seat, named)
            for c in named:  # seen in the player's hands, as dealt or as held
                if g.loc[c] == FREE:
                    g.revealed.setdefault(c, seat)
            hands, unverifiable = [named], False
        else:
            hands = [known for known, unknown in candidates if unknown == 0]
            unverifiable = any(unknown and could_qualify(kind, known, unknown, self.opts.color)
                               for known, unknown in candidates)
            if p.unknown:
                g.declared_blind.add(seat)  # shown at the table, not in the record
        # The declarer lays the hand face up (R6.3): its cards are shown (R4.5).
        for c in named or p.hand | (p.dealt9[0] if p.dealt9 else frozenset()):
            g.shown.add((seat, c))
        if g.phase == PLAY or g.started:
            self.warn(ev.line, "R6.3", f"{who}'s declaration is void: automatic wins are declared "
                                       f"before the first card is drawn; play goes on")
            return
        if not self.opts.auto:
            self.warn(ev.line, "R6.7", f"{who}'s declaration is void: there are no automatic wins "
                                       f"at this table ({self.setup.rules}, auto=off)")
            return
        if p.status != ACTIVE:
            self.warn(ev.line, "R6.4", f"{who}'s declaration is void: {who} is out of the hand")
            return
        strengths = [s for s in (auto_strength(kind, h, self.opts.color) for h in hands) if s]
        if not strengths and unverifiable:
            self.warn(ev.line, "R6.2", f"{who}'s {kind} cannot be verified: the hand is not known "
                                       f"from the record (write the nine cards on the declare line)")
            # Ranks by its kind, below every verified hand of that kind (docs/rulings.md).
            g.declarations.append((seat, kind, (KIND_RANK[kind],), ev.line))
            return
        if not strengths:
            self.warn(ev.line, "R6.4", f"{who}'s {kind} is void: {why_not_auto(kind, self.opts.color)}; play goes on")
            return
        g.declarations.append((seat, kind, max(strengths), ev.line))

    def reveal_declared(self, seat, named):
        """A declaration lays the hand face up: its unknown cards become known (N6.2)."""
        g = self.g
        p = g.players[seat]
        if p.hand_count != 9 or not p.hand <= named:
            return  # declared as dealt while the hand has changed: nothing certain to learn
        for c in named - p.hand:
            if g.loc[c] == FREE and p.unknown > 0:
                p.unknown -= 1
                g.revealed[c] = seat
                p.hand.add(c)
                g.loc[c] = HAND
                g.owner[c] = seat

    def standing_declarations(self):
        g = self.g
        if not g.declarations:
            return []
        return [d for d in g.declarations if g.players[d[0]].status == ACTIVE]

    def settle_declarations(self, line):
        """R6.5, R6.6: the best declaration wins; exactly equal ones split."""
        standing = self.standing_declarations()
        best = max(d[2] for d in standing)
        seats = {d[0] for d in standing if d[2] == best}
        winners = [s for s in self.setup.order_from_dealer() if s in seats]
        kind = next(d[1] for d in standing if d[2] == best)
        self.finish("auto-win", winners, line, auto=kind)

    # ------------------------------------------------------------------ play
    def do_draw(self, ev, seat):
        """R7.1, R7.6, R7.7: who draws; checks in the order of N5.1's table."""
        g = self.g
        c = ev.cards[0]
        if g.loc[c] == FREE:
            if g.stock and g.unknown_in_stock() <= 0:
                fail(ev.line, "N2.4", f"{name(c)} cannot be in the stock: every card left there is known")
        elif g.loc[c] != STOCK:
            fail(ev.line, "N2.4", f"{name(c)} is {g.where(c)}")
        if g.actor >= 0:
            self.unfinished_action(ev)
        declared = self.standing_declarations() if g.declarations else ()
        if not g.started and not declared:
            # (after a declaration the cambio need not be finished: N4.7 says why not to draw)
            missing = [g.players[i].name for i in g.active() if not g.players[i].cambio_done]
            if not g.cambio_complete and missing:
                fail(ev.line, "R5.2", f"the cambio is not complete: {', '.join(missing)} "
                                      f"has not passed a card")
        if g.started and g.offer >= 0 and not g.first_card:  # the usual case (R7.6)
            expected, code = g.next_active(g.offer_by), "R7.6"
        else:
            expected, code = self.expected_drawer()
        if seat != expected:
            if g.players[seat].status != ACTIVE:
                state = "passed" if g.players[seat].status == PASSED else "out of the hand"
                fail(ev.line, code, f"{self.pname(seat)} is {state} and does not draw")
            fail(ev.line, code, f"{self.why_drawer(code)}: {self.pname(expected)}, not {self.pname(seat)}")
        if g.stock == 0:
            fail(ev.line, "R10.3", "the stock is empty: nothing can be drawn (write `end` when the "
                                   "last card goes untaken)")
        if g.offer >= 0 and self.opts.forcing:
            owners = self.fitting_players(g.offer)
            if owners:
                fail(ev.line, "R9.1", f"{name(g.offer)} fits {g.players[owners[0]].name}'s meld "
                                      f"and must be taken (forcing)")
        if declared:
            fail(ev.line, "N4.7", "an automatic win has been declared: no card is drawn "
                                  "(close the declarations with `end`)")
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

    def may_take(self, seat):
        """R7.5: who may take the card on offer (passed and disqualified players may not)."""
        g = self.g
        p = g.players[seat]
        if p.status == PASSED:
            return f"{p.name} has passed and takes no more cards (R13.1)"
        if p.status == DISQUALIFIED:
            return f"{p.name} is out of the hand (R14.1)"
        if not g.offer_drawn and seat == g.offer_by:
            if self.opts.forcing and any(fits(g.offer, m) for m in p.melds):
                return None  # forced back (R9.1 step 3); others' obligations checked later
            return f"{p.name} paid {name(g.offer)} and may not take it back"
        return None

    def do_claim(self, ev, seat):
        g = self.g
        if g.offer < 0:
            fail(ev.line, "R7.9", "there is no card on offer to claim")
        if ev.verb == "knock":  # lets the card go: withdraws an earlier claim
            if seat in g.claims:
                g.claims.remove(seat)
            return
        why = self.may_take(seat)
        if why:
            fail(ev.line, "R7.5", why)
        if seat not in g.claims:
            g.claims.append(seat)

    def priority(self):
        """R7.5 order for the card on offer: a drawn card's drawer first, then from the right."""
        g = self.g
        n = len(g.players)
        first = [g.offer_by] if g.offer_drawn else []
        return first + [(g.offer_by + k) % n for k in range(1, n)] + ([] if g.offer_drawn else [g.offer_by])

    def do_lay(self, ev, seat):
        """`meld` and `add` (R7.2, R7.3, R8, N4.1, N4.2)."""
        g = self.g
        p = g.players[seat]
        cards = list(ev.cards)
        if ev.target is not None and ev.target in cards:
            fail(ev.line, "N2.4", f"{name(ev.target)} is both added and named as the meld to add to")
        sources = self.own_cards(ev, seat, cards, melds_ok=True, offer_ok=True)
        is_take = g.actor < 0
        if g.actor >= 0 and g.actor != seat:
            fail(ev.line, "R7.3", f"{g.players[g.actor].name} is in the middle of an action: "
                                  f"{p.name} cannot lay cards now")
        if is_take:
            if g.offer < 0:
                fail(ev.line, "R7.9", "there is no card on offer to take: cards are laid only "
                                      "in an action that takes the card on offer")
            if g.offer not in cards:
                fail(ev.line, "R7.2", f"the take must place the card on offer, {name(g.offer)}, "
                                      f"on {p.name}'s table")
        elif OFFER in sources:
            fail(ev.line, "N2.4", "only one card is taken per action")
        if ev.verb == "meld" and not self.opts.hand_melds:
            taken = g.offer if is_take else g.taken
            if taken not in cards:
                fail(ev.line, "R7.3", f"every new meld must contain the card taken, {name(taken)} "
                                      f"(hand-melds=off)")
        if is_take:
            why = self.may_take(seat)
            if why:
                fail(ev.line, "R7.5", why)
            if len(g.claims) >= 2:  # only several claims bind (N4.3)
                first = next(s for s in self.priority() if s in g.claims)
                if first != seat:
                    fail(ev.line, "R7.5", f"{self.pname(first)} also claimed {name(g.offer)} and "
                                          f"comes first in the order")
        # Build the new table on a copy: nothing changes unless the line is good.
        melds = [list(m) for m in p.melds]
        if MELD in sources:  # a desmoche: cards leave their melds first (N4.1, N4.2a)
            for c, src in zip(cards, sources):
                if src == MELD:
                    i = next(k for k, m in enumerate(melds) if c in m)
                    melds[i:i + 1] = remove_card(melds[i], c)
        if ev.verb == "meld":
            if meld_kind(cards) is None:
                fail(ev.line, "R8.1", f"{names(cards)} is not a meld: {why_not_meld(cards)}")
            melds.append(arranged(cards))
            out_of_order = self.opts.strict and not in_order(cards)
        else:
            out_of_order = False
            if ev.target is not None:
                targets = [m for m in melds if ev.target in m]
                if not targets:
                    fail(ev.line, "R8.2", f"{name(ev.target)} is not in one of {p.name}'s melds")
                if meld_kind(targets[0] + cards) is None:
                    fail(ev.line, "R8.2", f"{names(cards)} does not fit the meld of {name(ev.target)}: "
                                          f"{why_not_meld(targets[0] + cards)}")
            else:
                targets = [m for m in melds if meld_kind(m + cards) is not None]
                if not targets:
                    fail(ev.line, "R8.2", f"{names(cards)} fits none of {p.name}'s melds")
                if len(targets) > 1:
                    fail(ev.line, "R8.2", f"{names(cards)} fits more than one of {p.name}'s melds: "
                                          f"say which with `to CARD`")
            target = targets[0]
            i = next(k for k, m in enumerate(melds) if m is target)
            melds[i] = arranged(target + cards)
        if is_take and self.opts.forcing:
            obliged = self.forced_owner(before_seat=seat)
            if obliged >= 0:
                fail(ev.line, "R9.1", f"{name(g.offer)} fits {self.pname(obliged)}'s meld, and "
                                      f"{self.pname(obliged)} comes before {p.name}: it was forced there")
        # The line is good: apply it.
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
        won = p.hand_count == 0 and (not p.desmoched or all(meld_kind(m) is not None for m in melds))
        if won:
            g.actor = -1
            self.finish("win", [seat], ev.line)
        if out_of_order:
            self.record_foul(ev, seat, "F4", f"{names(cards)} laid out of order (R8.4)", found=True)

    def do_pay(self, ev, seat):
        g = self.g
        p = g.players[seat]
        c = ev.cards[0]
        (source,) = self.own_cards(ev, seat, [c])
        if g.actor != seat:
            fail(ev.line, "R7.4", f"{p.name} pays only after taking a card")
        broken = [m for m in p.melds if meld_kind(m) is None] if p.desmoched else []
        if broken:
            fail(ev.line, "R8.5", f"at the end of the action every meld must be valid: "
                                  f"{'; '.join(names(m) for m in broken)} is not")
        self.take_from_hand(seat, c, source, OFFER)
        g.owner[c] = -1
        g.shown.add((seat, c))
        p.desmoched = False
        g.offer, g.offer_by, g.offer_drawn = c, seat, False
        g.next_from = seat
        g.actor = g.taken = -1
        if g.claims:
            g.claims = []

    def do_pass(self, ev, seat):
        g = self.g
        p = g.players[seat]
        if p.status != ACTIVE:
            fail(ev.line, "R13.1", f"{p.name} is {'already passed' if p.status == PASSED else 'out of the hand'}")
        if g.actor == seat:
            fail(ev.line, "R13.1", f"{p.name} is in the middle of an action and cannot pass now")
        if not p.melds:
            fail(ev.line, "R13.1", f"{p.name} has no meld on the table and cannot pass")
        fitting = sorted({c for m in p.melds for c in fitting_cards(m)})
        unknown_in_stock = g.unknown_in_stock()
        hidden = g.hidden_elsewhere()
        doubtful = []
        for c in fitting:
            if g.loc[c] == STOCK or (g.loc[c] == FREE and unknown_in_stock > 0 and hidden == 0):
                fail(ev.line, "R13.2", f"{p.name} may not pass: {name(c)} is still in the stock and "
                                       f"fits {p.name}'s meld")
            if g.loc[c] == FREE and unknown_in_stock > 0:
                doubtful.append(c)
        if doubtful:
            self.warn(ev.line, "R13.2", f"{p.name}'s pass could not be verified: "
                                        f"{names(doubtful)} may still be in the stock")
        p.status = PASSED
        self.check_no_one_left(ev.line)

    def do_show(self, ev, seat):
        g = self.g
        sources = self.own_cards(ev, seat, list(ev.cards), melds_ok=True, out_ok=True)
        for c, src in zip(ev.cards, sources):
            if src == FREE:
                self.take_from_hand(seat, c, src, HAND)
                g.players[seat].hand.add(c)
            g.shown.add((seat, c))

    def do_foul(self, ev, seat):
        g = self.g
        kind = ev.word
        code = FOUL_CODES[kind]
        who = self.pname(seat)
        if kind == "misdeal" and seat != self.setup.dealer:
            fail(ev.line, "R14.3", f"a misdeal is the dealer's foul ({self.pname(self.setup.dealer)}), not {who}'s")
        if self.same_foul_written(seat, kind):
            # N4.8: the foul the referee found on the line before, written by the table: one foul.
            last = self.last_fouls
            self.last_fouls = FoulLine(self.index, last.fouls, last.before, True)
            return
        if kind == "misdeal" and g.phase == DEAL:
            g.written_misdeal = g.written_misdeal or ev.line
            self.last_fouls = None
            return
        message = {"misdeal": "misdeal (R3.4)", "peek": "looked through the discard pile",
                   "hand": "put a card into the hand", "arrangement": "a meld laid out of order (R8.4)",
                   "other": ev.text or ""}[kind]
        if kind == "hand":
            c = ev.cards[0]
            loc = g.loc[c]
            if not (loc in (OFFER, DEAD, FREE, STOCK) or (loc == HAND and g.owner[c] == seat)):
                fail(ev.line, "N2.4", f"{name(c)} is {g.where(c)}")
            if loc == FREE and g.unknown_in_stock() <= 0:
                fail(ev.line, "N2.4", f"{name(c)} cannot have come from the stock")
            message = f"put {name(c)} into the hand"
            before = g.clone()
            if loc == OFFER:
                g.offer = -1
                g.first_card = False
                g.next_from = seat
                g.claims = []
            elif loc == DEAD:
                g.dead.remove(c)
            elif loc in (FREE, STOCK):
                g.stock -= 1
                g.stock_known -= loc == STOCK
            g.loc[c] = OUT
            g.owner[c] = seat
            self.record_foul(ev, seat, code, message, before=before)
            return
        self.record_foul(ev, seat, code, message)

    def same_foul_written(self, seat, kind) -> bool:
        """A `foul` line that writes the foul the referee found on the line before (N4.8)."""
        last = self.last_fouls
        code = FOUL_CODES.get(kind)
        fouls = self.out.fouls
        return bool(last and last.index == self.index - 1 and last.found
                    and any(s == seat and fouls[i].code == code for s, i in last.fouls))

    def do_forgive(self, ev, seat):
        g = self.g
        last = self.last_fouls
        if last and last.index == self.index - 1 and last.before is not None:
            forgiven = [i for s, i in last.fouls if s == seat]
            if forgiven:
                fouls = self.out.fouls
                for i in forgiven:
                    fouls[i] = fouls[i].forgiven()
                self.g = last.before
                self.out.state = self.g
                self.last_fouls = None
                return
        if g.phase == DEAL and seat == self.setup.dealer and (
                g.written_misdeal or any(p.dealt_total > 9 for p in g.players)):
            g.misdeal_forgiven = True
            return
        if last and last.index == self.index - 1 and last.before is None:
            fail(ev.line, "R14.3", "a misdeal is forgiven during the deal (N4.6)")
        fail(ev.line, "R14.3", f"there is no foul of {self.pname(seat)}'s on the line before to forgive")

    def do_end(self, ev):
        g = self.g
        if g.phase == OVER:
            return
        if self.standing_declarations():
            self.settle_declarations(ev.line)
            return
        if g.actor >= 0:
            fail(ev.line, "N4.4", f"the hand is not over: {g.players[g.actor].name} is in the middle of an action")
        if g.phase == PLAY and g.stock == 0:
            if g.offer >= 0 and self.opts.forcing:
                owners = self.fitting_players(g.offer)
                if owners:
                    fail(ev.line, "R9.1", f"{name(g.offer)} fits {self.pname(owners[0])}'s meld and "
                                          f"must be taken (forcing)")
            if g.offer >= 0:
                g.loc[g.offer] = DEAD
                g.dead.append(g.offer)
                g.offer = -1
            self.finish("no-winner", [], ev.line)
            return
        if g.phase == PLAY:
            fail(ev.line, "N4.4", f"the hand is not over: the stock still holds {g.stock} cards")
        fail(ev.line, "N4.4", "the hand is not over: play has not started")

    # ------------------------------------------------------------------ loop
    def run(self, events, until=None):
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
                seat = seats.get(ev.actor)
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

    def step(self, ev):
        if ev.error is not None:
            raise Stop(ev.error)
        g = self.g
        seat = self.seats.get(ev.actor)
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
            fail(ev.line, "N4.4", f"the hand is over (line {g.outcome.line}): only show and end may follow")
        if phase == DEAL:
            if verb in DEAL_VERBS:
                DEAL_HANDLERS[verb](self, ev, seat)
                return
            self.end_deal(ev, seat)
            if g.phase == OVER:  # the deal left no one to play
                fail(ev.line, "N4.4", "the hand is over: no player is left")
        # After a valid declaration (N4.7) every other verb fails its own earlier check of
        # N5.1 (nothing on offer, no meld, no take); only a draw reaches the N4.7 check.
        PLAY_HANDLERS[verb](self, ev, seat)

    def card_checks(self, ev, seat):
        """The N2.4/N2.5 checks of a line, alone (no change to the table)."""
        g = self.g
        verb = ev.verb
        if verb in ("draw", "deal"):
            self.no_duplicates(ev, ev.cards)
            for c in ev.cards:
                if g.loc[c] not in (FREE, STOCK):
                    fail(ev.line, "N2.4", f"{name(c)} is {g.where(c)}")
        elif verb in ("meld", "add", "pay", "cambio", "return"):
            self.own_cards(ev, seat, list(ev.cards), melds_ok=verb in ("meld", "add"),
                           offer_ok=verb in ("meld", "add"))
        elif ev.cards:
            self.no_duplicates(ev, ev.cards)

    def deal_is_over(self, ev, seat):
        fail(ev.line, "N4.6", f"the deal is over: {ev.verb} comes before the first other event")


DEAL_HANDLERS = {"cut": Referee.do_cut, "deal": Referee.do_deal, "return": Referee.do_return,
                 "foul": Referee.do_foul, "forgive": Referee.do_forgive}
PLAY_HANDLERS = {
    "cut": Referee.deal_is_over, "deal": Referee.deal_is_over, "return": Referee.deal_is_over,
    "foul": Referee.do_foul, "forgive": Referee.do_forgive,
    "announce": Referee.do_announce, "cambio": Referee.do_cambio, "declare": Referee.do_declare,
    "draw": Referee.do_draw, "claim": Referee.do_claim, "knock": Referee.do_claim,
    "meld": Referee.do_lay, "add": Referee.do_lay, "pay": Referee.do_pay, "pass": Referee.do_pass,
    "show": Referee.do_show,
}


def replay(hand, setup, until=None) -> Replay:
    """Replay a hand's events (up to line `until`, if given) under the setup's rules."""
    return Referee(setup).run(hand.events, until)
