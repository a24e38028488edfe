"""What the referee can be asked about a hand in progress: read-only, pure, no rule re-derived.

Every caller that shows the table or offers a move asks these (the dispute view, live entry,
the table session, the simulator), so that what they say never disagrees with the verdict.
`Queries` is mixed into `Referee`; each query reads the table as `apply` left it.
"""

from collections.abc import Iterable
from typing import NamedTuple

from ..melds import could_meld, fits, meld_kind
from .base import RefereeParts
from .sides import claim_void, pending_claims
from .found import Replay
from .state import DEAL, FREE, OVER, PRE, Outcome, PlayerState


class Offer(NamedTuple):
    """The card on offer (R7.5, R9.1): seats, in the order they may take it."""

    card: int
    by: int           # the seat that put it on offer
    drawn: bool       # drawn from the stock (True) or paid (False)
    may_take: tuple   # seats that may take it now, in priority order
    must_take: int    # the seat R9.1 forces it on, or -1


class Action(NamedTuple):
    """A take under way (N4.2): the taker, the card taken, and what the action still owes."""

    seat: int
    taken: int
    owes: str         # "pay" (R7.4) or "mend" (melds left broken by a desmoche, R8.5)


class PendingClaim(NamedTuple):
    """A side-game claim still to be shown (R4.5): `show PLAYER CARDS…` makes it count."""

    player: str
    game: str
    cards: tuple      # the cards not shown yet


class Seat(NamedTuple):
    """One player's standing as the table knows it (N6.2: known cards plus an unknown count)."""

    name: str
    status: str       # ACTIVE, PASSED or DISQUALIFIED
    hand: tuple       # known cards in hand, sorted
    unknown: int      # cards in hand nobody has seen
    melds: tuple      # tuples of cards, as they lie
    laid: bool        # has laid a card (not up the tree, R12.3)
    cambio_done: bool


class Move(NamedTuple):
    """A verb a player may write next; `player` is None for `end`."""

    verb: str
    player: str | None


# The verbs of the deal (N4.6): the others end it
DEAL_MOVES = ("cut", "deal", "return", "foul", "forgive")
# Never out of place before the end, whoever writes them: the table's call (N4.8), a side-game
# claim or an automatic win (void with a warning when late or by a player out, R4.5, R6.3).
ANYTIME = ("foul", "show", "announce", "declare")


class Queries(RefereeParts):
    # ------------------------------------------------------------- the table
    @property
    def phase(self) -> str:
        return self.g.phase

    @property
    def status(self) -> str:
        return self.out.status

    @property
    def outcome(self) -> Outcome | None:
        """The Outcome once the hand is over, else None."""
        return self.g.outcome

    @property
    def report(self) -> Replay:
        """The Replay so far: status, errors, warnings, fouls, announcements, the table."""
        return self.out

    def seats_view(self) -> list:
        return [Seat(p.name, p.status, tuple(sorted(p.hand)), p.unknown,
                     tuple(tuple(m) for m in p.melds), p.laid, p.cambio_done)
                for p in self.g.players]

    def pending_claims(self) -> list:
        """PendingClaim of each side-game claim that a `show` may still make count (R4.5):
        announced, valid so far, its cards not all shown. Closing the hand voids them."""
        names = self.setup.players
        return [PendingClaim(names[seat], game, cards)
                for seat, game, cards in pending_claims(self.setup, self.g, self.out.announcements)]

    def undealt(self) -> list:
        """The players dealt no card yet while the deal is on and no misdeal is called: a line
        that ends the deal now would leave them out (R3.3)."""
        g = self.g
        if g.phase != DEAL or g.written_misdeal:
            return []
        return [g.players[s].name for s in self.setup.order_from_dealer() if g.players[s].dealt_total == 0]

    def coming(self) -> list:
        """The moves a recorder at the table is offered: `moves()`, less the lines that would
        end the deal while a player is dealt no card (the live book refuses them, R3.3), and
        less the announcements and declarations that would be void whatever their cards (an
        announcement once the cambio began, R4.5; a declaration once the first card is drawn,
        at an auto=off table or by a player out: R6.3, R6.7, R6.4)."""
        moves = self.moves()
        if self.undealt():
            return [m for m in moves if m.verb in DEAL_MOVES]
        late = self.announcements_closed()
        return [m for m in moves if not (m.verb == "announce" and late)
                and not (m.verb == "declare" and self.void_declaration(self.seats[m.player]) is not None)]

    def void_claims(self) -> list:
        """(player, game, rule, reason) of each side-game claim that nothing later in the hand
        can make count (R4.4: a card passed or received in the cambio, or not dealt to the
        player): the live book says it at the move that made it so. A claim void as announced
        was said at its announcement; one whose cards are not shown yet, or whose player is out
        (a `forgive` may follow), may still count."""
        names = self.setup.players
        out = []
        for ann in self.out.announcements:
            verdict = None if ann.void else claim_void(self.setup, self.g, ann)
            if verdict is not None and verdict.void and verdict.code == "R4.4":
                out.append((names[ann.seat], ann.game, verdict.code, verdict.reason))
        return out

    def discard_pile(self) -> tuple:
        """The cards gone by, dead on the discard pile (R7.6), in the order they went."""
        return tuple(self.g.dead)

    def same_table(self, other: "Queries") -> bool:
        """Whether `other` (a fork of this referee, a line further) holds the table exactly as
        this one does: that line changed nothing at the table."""
        a, b = self.g, other.g
        if {k: v for k, v in vars(a).items() if k != "players"} != \
                {k: v for k, v in vars(b).items() if k != "players"}:
            return False
        slots = [slot for slot in PlayerState.__slots__ if slot != "desmoched"]
        return all(getattr(p, slot) == getattr(q, slot) and _broken(p) == _broken(q)
                   for p, q in zip(a.players, b.players) for slot in slots)

    @property
    def deal_started(self) -> bool:
        """Whether a `deal` line has been written (the cut comes before it, R3.2)."""
        return self.g.deal_started

    def deal_done(self) -> bool:
        """Whether the deal is done while it is still on: every player holds nine cards; the
        deal ends at the next line that is not a deal line (N4.6)."""
        g = self.g
        return g.phase == DEAL and g.deal_started and all(p.hand_count == 9 for p in g.players)

    def declared(self) -> bool:
        """A valid automatic-win declaration stands: no card is drawn (N4.7)."""
        return bool(self.standing_declarations())

    # ------------------------------------------------------ the card on offer
    def offer(self) -> Offer | None:
        """The card on offer and who may and must take it, or None (R7.5, R9.1, N4.3)."""
        g = self.g
        if g.offer < 0:
            return None
        order = list(dict.fromkeys(self.priority()))
        may = [s for s in order if self.may_take(s) is None and self.forced_owner(before_seat=s) < 0
               and self.could_place(s, g.offer)]
        if len(g.claims) >= 2:  # several claims bind: the first claimant in the order (N4.3)
            first = self.first_claimant()
            may = [s for s in may if s == first]
        must = self.forced_owner()
        return Offer(g.offer, g.offer_by, g.offer_drawn, tuple(may), must)

    def could_place(self, seat: int, card: int) -> bool:
        """Whether the player could lay `card` now (R7.2): on a meld it fits, or in a new meld
        with cards of their hand and melds (a desmoche, R8.5), unseen cards counting as any
        card whose place nobody knows (N6.2)."""
        g = self.g
        p = g.players[seat]
        if any(fits(card, m) for m in p.melds):
            return True
        pool = p.hand.union(*p.melds)
        loc = g.loc
        return could_meld(card, pool, p.unknown, lambda c: loc[c] == FREE)

    def action(self) -> Action | None:
        """The action under way (a card taken, not yet paid for), or None."""
        g = self.g
        if g.actor < 0:
            return None
        p = g.players[g.actor]
        broken = p.desmoched and any(meld_kind(m) is None for m in p.melds)
        return Action(g.actor, g.taken, "mend" if broken else "pay")

    def next_drawer(self) -> tuple[int, str] | None:
        """(seat, rule) of the player who draws next if nothing else happens, or None when no
        draw can come next (the deal, an action under way, a declaration, the end)."""
        g = self.g
        if g.phase in (DEAL, OVER) or g.actor >= 0 or self.standing_declarations():
            return None
        if not g.active():
            return None
        return self.expected_drawer()

    # -------------------------------------------------------- what comes next
    def moves(self) -> list:
        """The verbs each player may write next. A line of one of these may still be refused
        for its cards; a verb by a player not listed is refused whatever its cards (a
        property the tests and bench/verify_api.py check against every simulated line)."""
        g = self.g
        names = self.setup.players
        if g.phase == OVER:
            return self._moves_after_end()
        active = g.active()
        moves = [Move(verb, n) for n in names for verb in ANYTIME]
        moves += [Move("forgive", names[s]) for s in self._forgivable()]
        if g.phase == DEAL:
            moves += self._moves_in_deal()
            if g.deal_started:
                moves += self._moves_before_play(active)  # the line that ends the deal (N4.6)
            return _unique(moves)
        if g.phase == PRE:
            moves += self._moves_before_play(active)
            return _unique(moves)
        return _unique(moves + self._moves_in_play(active))

    def _forgivable(self) -> list:
        g = self.g
        last = self.last_fouls
        seats = [s for s, _ in last.fouls] if last and last.index == self.index else []
        dealer = self.setup.dealer
        if g.phase == DEAL and (g.written_misdeal or any(p.dealt_total > 9 for p in g.players)):
            seats.append(dealer)
        return seats

    def _moves_after_end(self) -> list:
        names = self.setup.players
        moves = [Move("show", n) for n in names] + [Move("end", None)]
        last = self.last_fouls
        if last and last.index == self.index:
            moves += [Move(v, names[s]) for s, _ in last.fouls for v in ("forgive", "foul")]
        return _unique(moves)

    def _moves_in_deal(self) -> list:
        g = self.g
        names = self.setup.players
        moves = [Move("deal", n) for n in names]
        if not g.deal_started:
            moves.append(Move("cut", names[(self.setup.dealer + 1) % len(names)]))
        moves += [Move("return", p.name) for p in g.players if p.hand_count > 9]
        return moves

    def _moves_before_play(self, active: list[int]) -> list:
        g = self.g
        names = self.setup.players
        moves = []
        if not g.cambio_complete:
            moves += [Move("cambio", names[s]) for s in active if not g.players[s].cambio_done]
        if self.standing_declarations():
            return moves + [Move("end", None)]
        everyone_passed = all(g.players[s].cambio_done for s in active)
        if (g.cambio_complete or everyone_passed or g.phase == DEAL) and active:
            seat, _ = self.expected_drawer()
            if seat >= 0:
                moves.append(Move("draw", names[seat]))
        return moves

    def _moves_in_play(self, active: list[int]) -> list:
        g = self.g
        names = self.setup.players
        moves = [Move("pass", names[s]) for s in active if g.players[s].melds and s != g.actor]
        if self.standing_declarations():
            return moves + [Move("cambio", names[s]) for s in active
                            if not g.players[s].cambio_done and not g.cambio_complete] + [Move("end", None)]
        if g.actor >= 0:
            who = names[g.actor]
            return moves + [Move("meld", who), Move("add", who), Move("pay", who)]
        offer = self.offer()
        if offer is not None:
            for s in offer.may_take:
                moves += [Move("meld", names[s]), Move("add", names[s])]
            # claims and knocks bind no one (N4.3): whoever may take it may claim it
            moves += [Move("claim", names[s]) for s in active if self.may_take(s) is None]
            moves += [Move("knock", n) for n in names]  # letting it go binds no one
            if offer.must_take >= 0:
                return moves  # nobody may let it go (R9.1)
        if g.stock == 0:
            moves.append(Move("end", None))
        else:
            drawer = self.next_drawer()
            if drawer is not None and drawer[0] >= 0:
                moves.append(Move("draw", names[drawer[0]]))
        return moves


def _broken(p: PlayerState) -> bool:
    """Whether a desmoche left a meld of the player broken (R8.5): all the `desmoched` flag
    says, since it matters only while a meld is broken (engine/lay.py)."""
    return p.desmoched and any(meld_kind(m) is None for m in p.melds)


def _unique(moves: Iterable[Move]) -> list:
    return list(dict.fromkeys(moves))

