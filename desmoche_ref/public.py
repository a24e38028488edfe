"""What the room may see of a hand in progress: the public view the live board shows (issue 28).

Pure: a hand's setup and its events in, plain data out (cards as their canonical names, 7d).
The one place that decides what is public, so that no front end can show a hidden card by
showing something else of the hand. The rule (docs/rulings.md, from RULES.md): a card is
PUBLIC once every player at the table has seen its face —
- drawn: every card drawn is turned face up (R7.1);
- paid: a paid card goes on offer face up (R7.4);
- laid in a meld, or added to one: melds are face up (R8.3);
- shown: a side-game card shown (R4.5), by a `show` line;
- laid face up by an automatic-win declaration (R6.3): the cards the declarer holds at that
  moment, those the line names (else every card of the hand held) — never a card the line
  names that lies elsewhere: the one passed in the cambio is face down in the receiver's hand.
Nothing else is public: a hand (held face down), the deal and the cambio (face down, R3.3,
R5.1), the stock (R3.3), an announcement's cards (the player's word, shown later: R4.5), a
card that went back to the stock (N4.6), a comment. Of the public cards the board shows
those that lie face up now — the melds, the card on offer, the top of the discard pile (the
cards under it may not be looked through: R7.9, F2), what each player showed or declared —
and a side-game claim's game, with those of its cards its claimant has shown. A finding's message
is shown only when every card it names is public, else only its rule; a foul's own words
(`foul P other WORDS`) never. Each player's cards are a count.
"""

import re

from .cards import CARD_NAME, parse_card
from .engine.replay import Referee
from .engine.state import ACTIVE, DEAL, OVER, PRE
from .money import fmt
from .settle import MAIN_POT, pots_at_stake, settle

SHOWS = ("draw", "pay", "meld", "add", "show")  # the verbs whose cards every player sees
FINDINGS = 6      # the latest findings the view keeps
_CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9TJQKA])[shdc♠♥♦♣](?![0-9A-Za-z])")
# a word that reads as a card in any notation a person may write (N2: any case, 10 or T, suit
# letters or either set of symbols)
_ANY_CARD = re.compile("(?<![0-9A-Za-z])(?:10|[2-9TJQKAtjqka])\ufe0f?[shdcSHDC♠♥♦♣♤♡♢♧]\ufe0f?(?![0-9A-Za-z])")
HIDDEN_WORD = "…"  # what stands for a card a person's words name that the room has not seen


class _Seen:
    """What every player at the table has seen of the hand so far: each card whose face came up
    on the table (never one a line merely names), what each player has shown, the declarations
    laid face up. The view names no card but through it (`names`): what is public is what was
    seen, by construction."""

    def __init__(self, seats: int):
        self.cards: set[int] = set()
        self.shown: list[list[int]] = [[] for _ in range(seats)]
        self.declared: list[tuple[int, str, list[int], int]] = []  # (seat, kind, [cards], move)

    def observe(self, ref, ev) -> None:
        """The event `ev`, just applied by `ref`: the cards it turned face up."""
        verb = ev.verb
        seat = ref.seats.get(ev.actor)
        if verb in SHOWS:
            self.cards.update(ev.cards)
            if verb == "show":
                self.shown[seat] += [c for c in ev.cards if c not in self.shown[seat]]
        elif verb == "declare":  # the hand laid face up: what the declarer holds now (R6.3)
            held = ref.g.players[seat].hand
            laid = [c for c in ev.cards if c in held] if ev.cards else sorted(held)
            self.cards.update(laid)
            self.declared.append((seat, ev.word, laid, ev.line))

    def names(self, cards) -> list:
        """The names of those of `cards` that are public."""
        return [CARD_NAME[c] for c in cards if c in self.cards]

    def name(self, card):
        """The card's name if it is public, else None."""
        return CARD_NAME[card] if card in self.cards else None

    def message_is_public(self, message: str) -> bool:
        """Whether every card a message names is public (a token that reads as a card and is
        not counts as hidden: a message is dropped rather than risked)."""
        for token in _CARD_TOKEN.findall(message):
            card = parse_card(token)
            if card is None or card not in self.cards:
                return False
        return True


class PublicHand:
    """A hand followed event by event, as the room sees it: `apply` each event in turn, `view()`
    whenever the room looks (their `line` is what the view calls a move: the book numbers them
    by move). A line the referee refuses ends the hand's view there: nothing after it counts."""

    def __init__(self, setup):
        self.setup = setup
        self.ref = Referee(setup)
        self.seen = _Seen(len(setup.players))
        self.last = None
        self.stopped = False

    def apply(self, ev) -> None:
        if self.stopped or self.ref.apply(ev) is not None:
            self.stopped = True
            return
        self.seen.observe(self.ref, ev)
        self.last = ev

    def view(self) -> dict:
        return _view(self.ref, self.setup, self.seen, self.last)

    def text(self, words: str) -> str:
        """Words a person wrote about the hand (a void hand's reason), as the room may read them."""
        return public_text(words, self.seen.cards)


def public_text(words: str, public=frozenset()) -> str:
    """Free words a person wrote (the reason a hand was voided) as the room may read them:
    each word that reads as a card not among `public` (ints) stands as `…` (by default every
    card: a hand over hides its cards again, R3.3)."""
    def kept(found):
        card = parse_card(found.group(0))
        return found.group(0) if card is not None and card in public else HIDDEN_WORD

    return _ANY_CARD.sub(kept, words)


def public_hand(setup, events) -> dict:
    """The public view of the hand `setup` after `events` (PublicHand)."""
    hand = PublicHand(setup)
    for ev in events:
        hand.apply(ev)
    return hand.view()


def _view(ref, setup, seen: _Seen, last) -> dict:
    g = ref.g
    names = setup.players
    offer, action, drawer = ref.offer(), ref.action(), ref.next_drawer()
    top = g.dead[-1] if g.dead else None
    return {
        "phase": ref.phase,
        "status": ref.status,
        "dealer": names[setup.dealer],
        "bet": fmt(setup.bet),
        "pots": pots(setup),
        "players": [{"name": p.name, "status": p.status, "cards": p.hand_count,
                     "melds": [seen.names(m) for m in p.melds], "up_the_tree": not p.laid,
                     "shown": seen.names(seen.shown[i])} for i, p in enumerate(g.players)],
        "stock": g.stock,
        "discard": {"top": seen.name(top) if top is not None else None,
                    "count": len(g.dead)},
        "offer": None if offer is None else {
            "card": seen.name(offer.card), "by": names[offer.by], "how": "drawn" if offer.drawn else "paid",
            "may_take": [names[s] for s in offer.may_take],
            "must_take": names[offer.must_take] if offer.must_take >= 0 else None},
        "action": None if action is None else {
            "player": names[action.seat], "taken": seen.name(action.taken), "owes": action.owes},
        "next_draw": None if drawer is None or drawer[0] < 0 else {"player": names[drawer[0]], "rule": drawer[1]},
        "cambio": [p.name for p in g.players if g.phase in (DEAL, PRE) and not g.cambio_complete
                   and p.status == ACTIVE and not p.cambio_done],
        "declarations": [{"player": names[s], "kind": kind, "cards": seen.names(cards), "move": move,
                          "stands": any(d.seat == s and d.line == move for d in ref.standing_declarations())}
                         for s, kind, cards, move in seen.declared],
        "claims": [{"player": names[a.seat], "game": a.game,  # a card once its claimant showed it (R4.5)
                    "cards": seen.names(c for c in a.cards if (a.seat, c) in g.shown),
                    "void": a.void_code} for a in ref.out.announcements],
        "outcome": None if g.outcome is None else {
            "kind": g.outcome.kind, "winners": [names[s] for s in g.outcome.winners],
            "auto": g.outcome.auto, "line": g.outcome.line},  # its move (describe.outcome_text)
        "result": _result(ref, setup, seen) if g.phase == OVER and ref.status == "complete" else None,
        "findings": _findings(ref, seen),
        "last": _last_move(last, seen),
    }


def pots(setup) -> list:
    """Each pot at stake in the hand: the main pot (this hand's antes and the pot carried in,
    R11.1) and each side game's (R4.6), as the settlement counts them (settle.py)."""
    out = []
    for name, (pot, carried) in pots_at_stake(setup).items():
        entry = {"game": name, "pot": fmt(pot), "carried": fmt(carried)}
        if name != MAIN_POT:
            side = next((e for e in setup.sides if e.game == name), None)
            entry.update(stake=fmt(side.stake) if side else fmt(0),
                         players=[setup.players[s] for s in side.players] if side else [])
        out.append(entry)
    return out


def _result(ref, setup, seen: _Seen) -> dict:
    """How the finished hand settles (settle.py): the pot, the bonuses, each side game's pot
    and winners, with the winning claim's cards that are public; the nets."""
    s = settle(setup, ref.report)
    return {"pot": fmt(s.pot), "carry_out": fmt(s.carry_out),
            "bonuses": [{"kind": k, "from": a, "to": b, "amount": fmt(c)} for k, a, b, c in s.bonuses],
            "side_games": [{"game": p.game, "pot": fmt(p.pot), "winners": list(p.winners),
                            "cards": seen.names(parse_card(c) for c in p.cards), "carry_out": fmt(p.carry_out)}
                           for p in s.side_games],
            "net": {name: fmt(cents) for name, cents in s.net.items()}}


def _findings(ref, seen: _Seen) -> list:
    """The latest findings, newest last: each with its move, rule, kind and player (fouls),
    and its message only when it names no hidden card."""
    out = ref.report
    found = [(w.line, w.code, "warning", None, None, w.message) for w in out.warnings]
    found += [(f.line, f.code, "foul", f.player, f.enforced, None if f.code == "F5" else f.message)
              for f in out.fouls]
    found += [(e.line, e.code, "error", None, None, e.message) for e in out.errors]
    found.sort(key=lambda f: f[0])
    return [{"move": move, "code": code, "kind": kind, "player": player, "enforced": enforced,
             "message": message if message and seen.message_is_public(str(message)) else None}
            for move, code, kind, player, enforced, message in found[-FINDINGS:]]


def _last_move(ev, seen: _Seen):
    """The latest move as the room saw it: its verb and player, the cards it showed, the game
    of an announcement, the kind of a declaration or a foul; never a dealt or passed card."""
    if ev is None:
        return None
    cards = list(ev.cards) if ev.verb in SHOWS else []
    if ev.verb == "declare":
        cards = next((c for _s, _k, c, move in reversed(seen.declared) if move == ev.line), [])
    word = ev.word if ev.verb in ("announce", "declare", "foul") else None
    return {"move": ev.line, "verb": ev.verb, "player": ev.actor, "cards": seen.names(cards), "word": word,
            "count": len(ev.cards) + ev.unknown if ev.verb in ("deal", "return") else None}
