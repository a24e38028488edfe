"""Before the first draw: the cambio (RULES §5) and the declarations of automatic wins (RULES §6,
N4.7), with the best declaration winning when they close (R6.5, R6.6)."""

from ..cards import UNKNOWN, name, names
from ..findings import M, Message
from ..ranking import KIND_RANK, auto_strength, could_qualify, why_not_auto
from ..notation.model import Event
from .base import RefereeParts
from .common import fail
from .state import ACTIVE, AUTO_WIN, FREE, HAND, PLAY, PRE, TRANSIT, Declaration


class Cambio(RefereeParts):
    # ------------------------------------------------------------- the cambio
    def do_cambio(self, ev: Event, seat: int) -> None:
        g = self.g
        p = g.players[seat]
        sources = self.own_cards(ev, seat, ev.cards)
        if ev.unknown and p.unknown == 0:
            fail(ev.line, "N2.3", M("{player}'s hand is known: name the card passed",
                                    player=p.name))
        if g.phase != PRE:
            fail(ev.line, "R5.1", M("the cambio is made after the deal and before the first draw"))
        if p.status != ACTIVE:
            fail(ev.line, "R5.1", M("{player} is out of the hand and takes no part in the cambio",
                                    player=p.name))
        if g.cambio_complete:
            reason = M("there is no cambio with one player left (R14.4)") if len(g.active()) <= 1 \
                else M("the cambio is over")
            fail(ev.line, "R5.2" if len(g.active()) > 1 else "R5.1", reason)
        if p.cambio_done:
            fail(ev.line, "R5.2", M("{player} has already passed a card in this cambio",
                                    player=p.name))
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

    def maybe_complete_cambio(self) -> None:
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

    # ------------------------------------------------------ automatic wins
    def do_declare(self, ev: Event, seat: int) -> None:
        g = self.g
        p = g.players[seat]
        kind = ev.word
        assert kind is not None  # the reader names the kind of every declare line
        self.no_duplicates(ev, ev.cards)
        named = frozenset(ev.cards)
        hands, unverifiable = self.declared_hands(ev, seat, named)
        # The declarer lays the hand face up (R6.3): its cards are shown (R4.5).
        for c in named or p.hand | (p.dealt9[0] if p.dealt9 else frozenset()):
            g.shown.add((seat, c))
        void = self.void_declaration(seat)
        if void:
            self.warn(ev.line, *void)
            return
        strengths = [s for s in (auto_strength(kind, h, self.opts.color) for h in hands) if s]
        if not strengths and unverifiable:
            self.warn(ev.line, "R6.2", M("{player}'s {kind} cannot be verified: the hand is not "
                                         "known from the record (write the nine cards on the "
                                         "declare line)", player=p.name, kind=M(kind)))
            # Ranks by its kind, below every verified hand of that kind (docs/rulings.md).
            g.declarations.append(Declaration(seat, kind, (KIND_RANK[kind],), ev.line))
            return
        if not strengths:
            self.warn(ev.line, "R6.4", M("{player}'s {kind} is void: {why}; play goes on",
                                         player=p.name, kind=M(kind),
                                         why=why_not_auto(kind, self.opts.color)))
            return
        g.declarations.append(Declaration(seat, kind, max(strengths), ev.line))

    def declared_hands(self, ev: Event, seat: int, named: frozenset[int]) -> tuple[list, bool]:
        """The nine-card hands a declaration may be judged on, and whether an unknown hand
        might qualify: the cards named (which must be the hand as dealt or as held after
        the cambio, N2.4, N2.5), or else whichever of those hands the record knows whole."""
        g = self.g
        p = g.players[seat]
        candidates = []  # (known cards, unknown count): the hand as dealt, and after the cambio
        if p.dealt9 is not None:
            candidates.append(p.dealt9)
        if g.cambio_complete and p.held9 is not None and p.status == ACTIVE:
            candidates.append(p.held9)
        if not named:
            if p.unknown:
                g.declared_blind.add(seat)  # shown at the table, not in the record
            kind = ev.word
            assert kind is not None  # the reader names the kind of every declare line
            return ([known for known, unknown in candidates if unknown == 0],
                    any(unknown and could_qualify(kind, known, unknown, self.opts.color)
                        for known, unknown in candidates))
        for c in named:  # the hand as dealt may include the card passed in the cambio
            if g.loc[c] != FREE and g.owner[c] != seat and c != p.passed_card:
                fail(ev.line, "N2.4", M("{card} is {where}", card=name(c), where=g.where(c)))
        fitting = [known <= named and len(named - known) == unknown for known, unknown in candidates]
        if not any(fitting):
            fail(ev.line, "N2.5", M("{cards} is not {player}'s hand, as dealt or after the cambio",
                                    cards=names(sorted(named)), player=p.name))
        if not p.cambio_done or fitting == [False, True]:  # certainly the hand held now
            self.reveal_declared(seat, named)
        for c in named:  # seen in the player's hands, as dealt or as held
            if g.loc[c] == FREE:
                g.revealed.setdefault(c, seat)
        return [named], False

    def void_declaration(self, seat: int) -> tuple[str, Message] | None:
        """(rule, warning) for a declaration void whatever the hand (R6.3, R6.7, R6.4), or None."""
        g = self.g
        who = self.pname(seat)
        if g.phase == PLAY or g.started:
            return "R6.3", M("{player}'s declaration is void: automatic wins are declared "
                            "before the first card is drawn; play goes on", player=who)
        if not self.opts.auto:
            return "R6.7", M("{player}'s declaration is void: there are no automatic wins "
                            "at this table ({rules}, auto=off)", player=who, rules=self.setup.rules)
        if g.players[seat].status != ACTIVE:
            return "R6.4", M("{player}'s declaration is void: {player} is out of the hand",
                             player=who)
        return None

    def reveal_declared(self, seat: int, named: frozenset[int]) -> None:
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

    def standing_declarations(self) -> list[Declaration]:
        """The declarations of players still playing: only these close the hand (N4.7)."""
        g = self.g
        if not g.declarations:
            return []
        return [d for d in g.declarations if g.players[d.seat].status == ACTIVE]

    def settle_declarations(self, line: int) -> None:
        """R6.5, R6.6: the best declaration wins; exactly equal ones split."""
        standing = self.standing_declarations()
        best = max(d.strength for d in standing)
        seats = {d.seat for d in standing if d.strength == best}
        winners = [s for s in self.setup.order_from_dealer() if s in seats]
        kind = next(d.kind for d in standing if d.strength == best)
        self.finish(AUTO_WIN, winners, line, auto=kind)
