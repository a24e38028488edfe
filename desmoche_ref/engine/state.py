"""The table during a hand: where every card is, what each player holds, whose turn it is.

Closed records (N6) are tracked as known cards plus counts of unknown ones: a card is
FREE when nobody knows where it is (in the stock or in some unknown slot of a hand).
"""

from collections.abc import Iterable
from typing import NamedTuple

from ..findings import M
from ..i18n import N_

# Where a card is (loc); `owner` says whose, where that matters.
FREE, HAND, MELD, OFFER, DEAD, OUT, STOCK, TRANSIT = range(8)
WHERE = {HAND: N_("in {player}'s hand"), MELD: N_("on {player}'s table"), OFFER: N_("on offer"),
         DEAD: N_("on the discard pile"), OUT: N_("out of play"), STOCK: N_("back in the stock"),
         TRANSIT: N_("passed by {player} in the cambio")}

# Player status
ACTIVE, PASSED, DISQUALIFIED = "in", "passed", "out"

# Phases of a hand
DEAL, PRE, PLAY, OVER = "deal", "pre-play", "play", "over"

# Kinds of outcome (N8 outcome.kind)
WIN, AUTO_WIN, NO_WINNER = "win", "auto-win", "no-winner"


class Outcome(NamedTuple):
    """How a hand ended: `winners` are seat indexes in seat order from the dealer's right."""

    kind: str      # WIN, AUTO_WIN or NO_WINNER
    winners: tuple
    auto: str | None  # the automatic win's kind (R6.1), else None
    line: int      # the line that decided it


class Declaration(NamedTuple):
    """A valid automatic-win declaration (R6.3) standing until the hand ends (N4.7)."""

    seat: int
    kind: str       # peladilla, cuatro-cuerpos or color (R6.1)
    strength: tuple  # ranking.auto_strength, or (kind rank,) if unverifiable (R6.5)
    line: int


class PlayerState:
    __slots__ = ("name", "hand", "unknown", "melds", "status", "laid", "dealt_total", "dealt9",
                 "held9", "cambio_done", "passed_card", "received_card", "out_unknown", "desmoched")

    def __init__(self, name: str):
        self.name = name
        self.hand: set[int] = set()  # known cards in hand
        self.unknown = 0         # cards in hand nobody has seen (N6.2)
        self.melds: list[list[int]] = []  # lists of cards, as they lie (runs by rank)
        self.status = ACTIVE
        self.laid = False        # laid a card on the table (not up the tree, R12.3)
        self.dealt_total = 0     # cards dealt, before returns (N4.6)
        self.dealt9: tuple[frozenset, int] | None = None  # (known cards, unknown count) as dealt
        self.held9: tuple[frozenset, int] | None = None   # the same after the cambio
        self.cambio_done = False
        self.passed_card: int | None = None  # card passed in the cambio (-1 = unknown)
        self.received_card: int | None = None
        self.out_unknown = 0     # unknown cards set aside with the player (R14.1)
        self.desmoched = False   # moved cards between melds in this action: melds may be broken

    def clone(self) -> "PlayerState":
        other = PlayerState.__new__(PlayerState)
        for slot in PlayerState.__slots__:
            setattr(other, slot, getattr(self, slot))
        other.hand = set(self.hand)
        other.melds = [list(m) for m in self.melds]
        return other

    @property
    def hand_count(self) -> int:
        return len(self.hand) + self.unknown


class GameState:
    """Everything a line can change. Copied whole when a foul may be forgiven (R14.3)."""

    def __init__(self, names: Iterable[str]) -> None:
        self.players = [PlayerState(n) for n in names]
        self.loc = [FREE] * 52
        self.owner = [-1] * 52
        self.stock = 52          # cards in the stock, known or not
        self.stock_known = 0     # of which known (returned face up, N4.6)
        self.phase = DEAL
        self.deal_started = False
        self.written_misdeal = 0  # line of a `foul DEALER misdeal` during the deal
        self.misdeal_forgiven = False
        self.cambio_started = False
        self.cambio_complete = False
        self.transit_unknown = 0  # `?` cards passed in a cambio not yet complete
        self.started = False     # the first card has been drawn
        self.offer = -1          # the card on offer
        self.offer_by = -1       # who put it on offer
        self.offer_drawn = False  # drawn (True) or paid (False)
        self.first_card = False  # the card on offer is the hand's very first draw (R7.7)
        self.next_from = -1      # with nothing on offer: the next draw is by this player's right
        self.actor = -1          # the player in the middle of an action (took, not yet paid)
        self.taken = -1          # the card they took
        self.claims: list[int] = []  # claimants of the card on offer, in line order
        self.dead: list[int] = []    # the discard pile, oldest first
        self.declarations: list[Declaration] = []  # the valid automatic-win declarations
        self.outcome: Outcome | None = None  # once the hand is over
        self.shown: set[tuple[int, int]] = set()  # (seat, card): cards a player has shown (R4.5)
        self.revealed: dict[int, int] = {}  # card -> seat: known only once it left that seat's unknown cards
        self.declared_blind: set[int] = set()  # seats that laid an unknown hand face up (declare, no cards)

    def clone(self) -> "GameState":
        """A copy that shares nothing mutable: the table as it was, for a forgiven foul."""
        other = GameState.__new__(GameState)
        other.__dict__.update(self.__dict__)
        other.players = [p.clone() for p in self.players]
        for name in ("loc", "owner", "claims", "dead", "declarations"):
            setattr(other, name, list(getattr(self, name)))
        other.shown = set(self.shown)
        other.revealed = dict(self.revealed)
        other.declared_blind = set(self.declared_blind)
        return other

    def active(self) -> list:
        return [i for i, p in enumerate(self.players) if p.status == ACTIVE]

    def next_active(self, seat: int) -> int:
        """The next player still playing to the right of `seat` (possibly `seat` itself), or -1."""
        n = len(self.players)
        for k in range(1, n + 1):
            j = (seat + k) % n
            if self.players[j].status == ACTIVE:
                return j
        return -1

    def known_in_stock(self) -> list:
        return [c for c in range(52) if self.loc[c] == STOCK] if self.stock_known else []

    def unknown_in_stock(self) -> int:
        """Cards in the stock whose faces are not known (all of them in most records)."""
        return self.stock - self.stock_known

    def hidden_elsewhere(self) -> int:
        """Unknown cards outside the stock: in hands, in transit, set aside."""
        return self.transit_unknown + sum(p.unknown + p.out_unknown for p in self.players)

    def where(self, card: int) -> str:
        owner = self.owner[card]
        return M(WHERE.get(self.loc[card], N_("somewhere else")),
                 player=self.players[owner].name if owner >= 0 else "?")
