"""Side games at the table (RULES §4): a player announces a claim and shows its cards (R4.5);
the claims are judged when the hand is settled (settle.claim_void)."""

from typing import NamedTuple

from ..cards import names
from ..findings import M
from ..ranking import GAME_NEEDS, claim_strength
from .base import RefereeParts
from .state import FREE, HAND


class Announcement(NamedTuple):
    """A side-game claim (R4.5): the player's word, checked at the end of the hand."""

    seat: int
    game: str
    cards: tuple
    line: int
    void: str | None = None       # why the claim is void, if known when announced
    void_code: str | None = None  # the rule that makes it void


class SideGames(RefereeParts):
    def do_announce(self, ev, seat):
        self.no_duplicates(ev, ev.cards)
        void, code = self.void_announcement(ev, seat)
        self.out.announcements.append(Announcement(seat, ev.word, tuple(ev.cards), ev.line, void, code))
        if void:
            self.warn(ev.line, code, M("{player}'s {word} claim is void: {void}",
                                       player=self.pname(seat), word=ev.word, void=void))

    def void_announcement(self, ev, seat):
        """(reason, rule) if the claim is void as announced (R4.1, R4.2, R4.5), else (None, None)."""
        g = self.g
        game = ev.word
        entered = [e for e in self.setup.sides if e.game == game]
        if g.cambio_started or g.started:
            return M("announced after the cambio began"), "R4.5"
        if not entered or seat not in entered[0].players:
            return M("{player} did not enter {game} before the deal",
                     player=self.pname(seat), game=game), "R4.1"
        if claim_strength(game, ev.cards, self.opts.escalera) is None:
            return (M("{cards} is not a claim for {game}: it needs {needs}",
                      cards=names(ev.cards), game=game,
                      needs=GAME_NEEDS[game]), "R4.2")
        return None, None

    def do_show(self, ev, seat):
        g = self.g
        sources = self.own_cards(ev, seat, list(ev.cards), melds_ok=True, out_ok=True)
        for c, src in zip(ev.cards, sources):
            if src == FREE:
                self.take_from_hand(seat, c, src, HAND)
                g.players[seat].hand.add(c)
            g.shown.add((seat, c))
