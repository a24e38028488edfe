"""Side games at the table (RULES §4): a player announces a claim and shows its cards (R4.5);
the claims are judged when the hand is settled (`claim_void`, which settle.py's side pots and
the referee's pending claims ask)."""

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from ..cards import UNKNOWN, names
from ..findings import M, Message
from ..ranking import GAME_NEEDS, claim_strength
from ..notation.model import Event
from .base import RefereeParts
from .state import DISQUALIFIED, FREE, HAND, GameState

if TYPE_CHECKING:
    from .setup import Setup


class Announcement(NamedTuple):
    """A side-game claim (R4.5): the player's word, checked at the end of the hand."""

    seat: int
    game: str
    cards: tuple
    line: int
    void: str | None = None       # why the claim is void, if known when announced
    void_code: str | None = None  # the rule that makes it void


class SideGames(RefereeParts):
    def do_announce(self, ev: Event, seat: int) -> None:
        self.no_duplicates(ev, ev.cards)
        void, code = self.void_announcement(ev, seat)
        assert ev.word is not None  # the reader names the game of every announce line
        self.out.announcements.append(Announcement(seat, ev.word, tuple(ev.cards), ev.line, void, code))
        if void:
            assert code is not None  # a claim void as announced says by which rule
            self.warn(ev.line, code, M("{player}'s {word} claim is void: {void}",
                                       player=self.pname(seat), word=ev.word, void=void))

    def void_announcement(self, ev: Event, seat: int) -> tuple[Message | None, str | None]:
        """(reason, rule) if the claim is void as announced (R4.1, R4.2, R4.5), else (None, None)."""
        game = ev.word
        assert game is not None  # the reader names the game of every announce line
        entered = [e for e in self.setup.sides if e.game == game]
        if self.announcements_closed():
            return M("announced after the cambio began"), "R4.5"
        if not entered or seat not in entered[0].players:
            return M("{player} did not enter {game} before the deal",
                     player=self.pname(seat), game=game), "R4.1"
        if claim_strength(game, ev.cards, self.opts.escalera) is None:
            return (M("{cards} is not a claim for {game}: it needs {needs}",
                      cards=names(ev.cards), game=game,
                      needs=GAME_NEEDS[game]), "R4.2")
        return None, None

    def announcements_closed(self) -> bool:
        """Whether a claim announced now is void as announced: the cambio began (R4.5)."""
        g = self.g
        return g.cambio_started or g.started

    def do_show(self, ev: Event, seat: int) -> None:
        g = self.g
        sources = self.own_cards(ev, seat, list(ev.cards), melds_ok=True, out_ok=True)
        for c, src in zip(ev.cards, sources):
            if src == FREE:
                self.take_from_hand(seat, c, src, HAND)
                g.players[seat].hand.add(c)
            g.shown.add((seat, c))


class ClaimVerdict(NamedTuple):
    """What is wrong with a side-game claim: `void` claims are dropped, the others count with
    a warning that the record cannot verify them (N6.2)."""

    code: str
    reason: str
    void: bool


def claim_void(setup: "Setup", state: GameState, ann: Announcement) -> ClaimVerdict | None:
    """None for a valid claim, else its ClaimVerdict."""
    player = state.players[ann.seat]
    who = player.name
    if ann.void:
        assert ann.void_code is not None  # a claim void as announced says by which rule
        return ClaimVerdict(ann.void_code, ann.void, True)
    if player.status == DISQUALIFIED:
        return ClaimVerdict("R4.7", M("{player} was disqualified", player=who), True)
    dealt_known, dealt_unknown = player.dealt9 or (frozenset(), 0)
    doubt = None
    for c in ann.cards:
        if c == player.passed_card:
            return ClaimVerdict("R4.4", M("{card} was passed in the cambio", card=names([c])), True)
        if c in dealt_known:
            continue
        if c == player.received_card:
            return ClaimVerdict("R4.4", M("{card} was received in the cambio, not dealt",
                                          card=names([c])), True)
        if state.revealed.get(c) == ann.seat and dealt_unknown:
            if player.received_card == UNKNOWN:
                doubt = M("{card} may be the card {player} received in the cambio",
                          card=names([c]), player=who)
            elif player.passed_card == UNKNOWN and state.loc[c] == FREE:
                doubt = M("{card} may be the card {player} passed in the cambio",
                          card=names([c]), player=who)
            continue
        if ann.seat in state.declared_blind and state.loc[c] == FREE:
            doubt = M("{player}'s declaration showed the hand, but the record does not list its "
                      "cards", player=who)
            continue
        if dealt_unknown and state.loc[c] == FREE and c not in state.revealed:
            # never seen anywhere (a closed record): it may be one of the unknown cards dealt to
            # the player, so what voids the claim is that it was never shown (R4.5, below), as
            # in an open record — not a deal the record cannot know
            continue
        return ClaimVerdict("R4.4", M("{card} was not dealt to {player}",
                                      card=names([c]), player=who), True)
    unshown = unshown_cards(state, ann)
    if unshown:
        return ClaimVerdict("R4.5", M("{cards} was never shown", cards=names(unshown)), True)
    if doubt:
        return ClaimVerdict("R4.4", doubt, False)
    return None


def unshown_cards(state: GameState, ann: Announcement) -> list[int]:
    """The cards of a claim its player has not shown yet (R4.5): a declaration that laid an
    unknown hand face up shows every card whose place nobody knows."""
    return [c for c in ann.cards if (ann.seat, c) not in state.shown
            and not (ann.seat in state.declared_blind and state.loc[c] == FREE)]


def pending_claims(setup: "Setup", state: GameState, announcements: Iterable[Announcement]) -> list:
    """(seat, game, unshown cards) of each claim whose only fault is cards not shown yet: a
    `show` may still make it count (R4.5), so closing the hand without one voids it."""
    out = []
    for ann in announcements:
        verdict = None if ann.void else claim_void(setup, state, ann)
        if verdict is not None and verdict.void and verdict.code == "R4.5":
            out.append((ann.seat, ann.game, tuple(unshown_cards(state, ann))))
    return out
