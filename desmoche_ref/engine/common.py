"""What every part of the referee shares: how a line is refused, and where its cards come from
(N2.4, N2.5, N4.1, N5.1).

Each handler checks first and changes the table only once the line is known to be good, so
that an invalid hand's report shows the table just before the error (N5.1).
"""

from collections.abc import Sequence
from typing import NoReturn

from ..cards import name
from ..findings import Finding, M, error, warning
from ..limits import unknown
from ..notation.model import Event
from .base import RefereeParts
from .state import FREE, HAND, MELD, OFFER, OUT, STOCK


class Stop(Exception):
    """The line is an error: replay ends here (N5.1)."""

    def __init__(self, finding: Finding) -> None:
        self.finding = finding


def fail(line: int, code: str, message: str) -> NoReturn:
    raise Stop(error(line, code, message))


class LineChecks(RefereeParts):
    """The checks of a line's players and cards, common to every verb."""

    def unknown_player(self, ev: Event) -> NoReturn:
        assert ev.actor is not None  # every verb but `end` names its player
        fail(ev.line, "N3.1", unknown(M("{actor!r} is not a player at this table ({items}); names are "
                                        "matched exactly",
                                        actor=ev.actor[:24], items=' '.join(self.setup.players)),
                                      ev.actor, self.setup.players))

    def pname(self, seat: int) -> str:
        return self.setup.players[seat]

    def warn(self, line: int, code: str, message: str) -> None:
        self.out.warnings.append(warning(line, code, message))

    def no_duplicates(self, ev: Event, cards: Sequence[int]) -> None:
        if len(cards) < 2 or len(set(cards)) == len(cards):
            return
        seen = set()
        for c in cards:
            if c in seen:
                fail(ev.line, "N2.4", M("{card} is listed twice on this line", card=name(c)))
            seen.add(c)

    def own_cards(self, ev: Event, seat: int, cards: Sequence[int], melds_ok: bool = False, offer_ok: bool = False,
                      out_ok: bool = False) -> list[int]:
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
                    fail(ev.line, "N2.5", M("{player} does not hold {card}",
                                            player=player.name, card=name(c)))
                reveal += 1
                sources.append(FREE)
            elif loc == MELD and owner == seat:
                fail(ev.line, "N2.5", M("{card} is on {player}'s table, not in hand",
                                        card=name(c), player=player.name))
            else:
                fail(ev.line, "N2.4", M("{card} is {where}", card=name(c), where=g.where(c)))
        return sources

    def from_stock(self, ev: Event, cards: Sequence[int]) -> None:
        """N2.4: cards dealt or drawn come from the stock (known there, or unseen)."""
        g = self.g
        self.no_duplicates(ev, cards)
        for c in cards:
            if g.loc[c] not in (FREE, STOCK):
                fail(ev.line, "N2.4", M("{card} is {where}", card=name(c), where=g.where(c)))

    def take_from_hand(self, seat: int, card: int, source: int, to_loc: int) -> None:
        g = self.g
        player = g.players[seat]
        if source == HAND:
            player.hand.discard(card)
        elif source == FREE:
            player.unknown -= 1
            g.revealed[card] = seat
        g.loc[card] = to_loc
        g.owner[card] = seat

    def card_checks(self, ev: Event, seat: int) -> None:
        """The N2.4/N2.5 checks of a line, alone (no change to the table)."""
        verb = ev.verb
        if verb in ("draw", "deal"):
            self.from_stock(ev, ev.cards)
        elif verb in ("meld", "add", "pay", "cambio", "return"):
            self.own_cards(ev, seat, list(ev.cards), melds_ok=verb in ("meld", "add"),
                           offer_ok=verb in ("meld", "add"))
        elif ev.cards:
            self.no_duplicates(ev, ev.cards)
