"""Fouls and forgiveness (RULES §14, N4.8): a foul disqualifies at once (R14.1, R14.5), and a
`forgive` on the very next line puts the table back as if it had not happened (R14.3)."""

from ..cards import UNKNOWN, name
from ..findings import Foul, M
from ..notation.parser import FOUL_CODES
from ..notation.model import Event
from .base import RefereeParts
from .found import FoulLine
from .common import fail
from .state import DEAD, DEAL, DISQUALIFIED, FREE, HAND, OFFER, OUT, OVER, PLAY, PRE, STOCK, WIN, GameState

FOUL_MESSAGES = {"misdeal": M("misdeal (R3.4)"), "peek": M("looked through the discard pile"),
                 "hand": M("put a card into the hand"), "arrangement": M("a meld laid out of order (R8.4)")}


class Fouls(RefereeParts):
    def record_foul(self, ev: Event, seat: int, code: str, message: str, found: bool = False,
                        before: GameState | None = None) -> Foul:
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

    def record_misdeal(self, foul: Foul) -> None:
        """The dealer's F1, judged when the deal ends (N4.6): forgiven during the deal or never."""
        fouls = self.out.fouls
        fouls.append(foul)
        self.last_fouls = FoulLine(self.index, [(self.setup.dealer, len(fouls) - 1)], None, True)

    def disqualify(self, seat: int, line: int) -> None:
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
        if g.phase == OVER and g.outcome and g.outcome.kind == WIN and seat in g.outcome.winners:
            g.phase = PLAY  # F4 on the tenth card: the win stands only if forgiven (N4.8)
            g.outcome = None
            g.next_from = seat
        if g.phase == PRE:
            self.maybe_complete_cambio()
        self.check_no_one_left(line)

    def do_foul(self, ev: Event, seat: int) -> None:
        g = self.g
        kind = ev.word
        assert kind is not None  # the reader names the kind of every foul line
        code = FOUL_CODES[kind]
        if kind == "misdeal" and seat != self.setup.dealer:
            fail(ev.line, "R14.3", M("a misdeal is the dealer's foul ({player}), not {player2}'s",
                                     player=self.pname(self.setup.dealer), player2=self.pname(seat)))
        if self.same_foul_written(seat, kind):
            # N4.8: the foul the referee found on the line before, written by the table: one foul.
            last = self.last_fouls
            assert last is not None  # same_foul_written: the line before had fouls
            self.last_fouls = FoulLine(self.index, last.fouls, last.before, True)
            return
        if kind == "misdeal" and g.phase == DEAL:
            g.written_misdeal = g.written_misdeal or ev.line
            self.last_fouls = None
            return
        if kind == "hand":
            self.foul_into_hand(ev, seat, code)
            return
        self.record_foul(ev, seat, code, (ev.text or "") if kind == "other" else FOUL_MESSAGES[kind])

    def foul_into_hand(self, ev: Event, seat: int, code: str) -> None:
        """F3 (R14.2): the card put into the hand leaves play with the player (R14.1)."""
        g = self.g
        c = ev.cards[0]
        loc = g.loc[c]
        if not (loc in (OFFER, DEAD, FREE, STOCK) or (loc == HAND and g.owner[c] == seat)):
            fail(ev.line, "N2.4", M("{card} is {where}", card=name(c), where=g.where(c)))
        if loc == FREE and g.unknown_in_stock() <= 0:
            fail(ev.line, "N2.4", M("{card} cannot have come from the stock", card=name(c)))
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
        self.record_foul(ev, seat, code, M("put {card} into the hand", card=name(c)), before=before)

    def same_foul_written(self, seat: int, kind: str | None) -> bool:
        """A `foul` line that writes the foul the referee found on the line before (N4.8)."""
        last = self.last_fouls
        code = FOUL_CODES.get(kind) if kind else None
        fouls = self.out.fouls
        return bool(last and last.index == self.index - 1 and last.found
                    and any(s == seat and fouls[i].code == code for s, i in last.fouls))

    def do_forgive(self, ev: Event, seat: int) -> None:
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
            fail(ev.line, "R14.3", M("a misdeal is forgiven during the deal (N4.6)"))
        fail(ev.line, "R14.3", M("there is no foul of {player}'s on the line before to forgive",
                                 player=self.pname(seat)))
