"""The bot simulator (issue 4): a session of bot-played hands as `.dsm` text.

Pure: no I/O, no click. `simulate_session` plays N consecutive hands of one
table (the dealer rotating, R3.1; pots carrying, R2.3, R4.6) with reasonable
bots that follow every rule of RULES.md, and writes them in the canonical
form of NOTATION.md (N7). With `vary` on it also varies the preset and every
option of R15 across hands, adds fouls (F1-F5, some forgiven), contested
claims and knocks, and writes a few hands as closed records (N6).

Same seed, same text: all randomness comes from one `random.Random(seed)`.
"""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal
from itertools import combinations

from .cards import CARD_NAME, RANK, RED, SUIT, VALUE
from .melds import RUN, SET, fits, has_a23, in_order, meld_kind, remove_card
from .options import RuleOptions, parse_options

NAMES = ("Ana", "Beto", "Carla", "Dani")
SIDE_GAMES = ("oro", "corazon", "flor", "corazon-negro", "par-rojo", "par-negro",
              "dos-par-rojo", "dos-par-negro", "tres-cuerpos", "escalera")
# how often a table picks each game: the pairs and tres-cuerpos rarely have a winner, so
# their pots would otherwise carry for ever (R4.6)
_GAME_WEIGHTS = (5, 5, 5, 5, 3, 3, 1, 1, 1, 2)
_GAME_SUIT = {"corazon-negro": 0, "corazon": 1, "oro": 2, "flor": 3}
_STAKES = (Decimal("1"), Decimal("2"), Decimal("2.50"), Decimal("5"))
_BETS = (Decimal("5"), Decimal("10"), Decimal("10"), Decimal("20"), Decimal("2.50"))
_OTHER_FOULS = ("talked about the cards in hand", "showed a card to a neighbour",
                "played out of turn twice", "took the deck before the cut")

# Rates of the variations (only with vary on).
_P_CLOSED = 0.04
_P_MISDEAL = 0.03
_P_PEEK = 0.03
_P_FOUL_HAND = 0.03
_P_FOUL_OTHER = 0.02
_P_ARRANGEMENT = 0.15  # of the hands played with `strict`
_P_FORGIVE = 0.35
_P_CLAIM = 0.5         # write `claim` lines when two or more want the card
_P_KNOCK = 0.08
_P_DECLINE = 0.08      # a bot lets a card go that it could take (not a win)
_P_PASS = 0.4          # a bot that may pass (R13) does
_P_CUT = 0.3
_P_SPLIT_DEAL = 0.05
_P_RESULT = 0.25
_P_COMMENT = 0.2       # a comment on a line worth one (N1.2)
_P_VOID_DECLARE = 0.5  # a qualifying hand declared at a table without automatic wins (R6.7)
_P_FALSE_DECLARE = 0.004  # a hand declared that does not qualify (R6.4)


class _Player:
    __slots__ = ("idx", "name", "hand", "melds", "status", "seen", "announced", "dealt",
                 "passed_card", "known")

    def __init__(self, idx: int, name: str):
        self.idx = idx
        self.name = name
        self.hand: list = []
        self.melds: list = []
        self.status = "in"      # "in", "passed" (R13) or "out" (disqualified, R14)
        self.seen: set = set()  # cards this player knows the place of, privately
        self.announced: dict = {}  # game -> cards (R4.5)
        self.dealt: list = []
        self.passed_card = None
        self.known = False      # closed records: the table knows this hand (a declaration)


# ---------------------------------------------------------------- meld helpers

def _arranged(cards) -> list:
    """A meld in strict order (R8.4): runs ascending, sets alternating colours."""
    if meld_kind(cards) == RUN:
        return sorted(cards, key=RANK.__getitem__)
    red = [c for c in cards if RED[c]]
    black = [c for c in cards if not RED[c]]
    first, second = (red, black) if len(red) >= len(black) else (black, red)
    out = []
    for i in range(len(cards)):
        out.append((first if i % 2 == 0 else second).pop(0))
    return out


def _out_of_order(cards, rng) -> list:
    """The same meld written so that it breaks R8.4 (for foul F4)."""
    cards = list(cards)
    for _ in range(50):
        rng.shuffle(cards)
        if not in_order(cards):
            return cards
    return list(reversed(_arranged(cards)))


def _melds_with(c: int, pool) -> list:
    """Every meld made of `c` and cards of `pool` that contains `c`."""
    out = []
    same = [x for x in pool if RANK[x] == RANK[c]]
    for k in (2, 3):
        for combo in combinations(same, k):
            out.append([c, *combo])
    by_rank = {RANK[x]: x for x in pool if SUIT[x] == SUIT[c]}
    by_rank[RANK[c]] = c
    lo = hi = RANK[c]
    while lo - 1 in by_rank:
        lo -= 1
    while hi + 1 in by_rank:
        hi += 1
    for a in range(lo, RANK[c] + 1):
        for b in range(max(RANK[c], a + 2), hi + 1):
            if b - a < 10:
                out.append([by_rank[r] for r in range(a, b + 1)])
    return out


def _borrowable(melds) -> list:
    """Cards that may leave their meld in a desmoche and leave it valid (R8.5)."""
    out = []
    for m in melds:
        kind = meld_kind(m)
        if kind == SET:
            if len(m) == 4:
                out += m
        elif len(m) >= 4:
            for x in m:
                if all(len(p) >= 3 for p in remove_card(m, x)):
                    out.append(x)
    return out


def _fitting(melds) -> set:
    """Every card that fits one of `melds` directly (R13.1; the same as melds.fits)."""
    out = set()
    for m in melds:
        if RANK[m[0]] == RANK[m[1]]:
            if len(m) == 3:
                out.update(s * 13 + RANK[m[0]] - 1 for s in range(4))
        elif len(m) < 10:
            lo = min(RANK[c] for c in m)
            hi = lo + len(m) - 1
            base = SUIT[m[0]] * 13 - 1
            if lo > 1:
                out.add(base + lo - 1)
            if hi < 13:
                out.add(base + hi + 1)
    return out.difference(*melds)


def _usefulness(x: int, hand) -> int:
    u = 0
    for y in hand:
        if y == x:
            continue
        if RANK[y] == RANK[x]:
            u += 3
        elif SUIT[y] == SUIT[x]:
            d = abs(RANK[y] - RANK[x])
            u += 2 if d == 1 else 1 if d == 2 else 0
    return u


def _potential(hand) -> int:
    return sum(_usefulness(x, hand) for x in hand)


class _State:
    """A player's hand and melds during the planning of an action."""
    __slots__ = ("hand", "melds", "ops")

    def __init__(self, hand, melds, ops=()):
        self.hand = list(hand)
        self.melds = [list(m) for m in melds]
        self.ops = list(ops)

    def copy(self):
        return _State(self.hand, self.melds, self.ops)

    def lay(self, cards, offer=None) -> bool:
        """A new meld of `cards` (from the offer, the hand or own melds); False if invalid."""
        if meld_kind(cards) is None:
            return False
        for x in cards:
            if x == offer:
                continue
            if x in self.hand:
                self.hand.remove(x)
                continue
            for i, m in enumerate(self.melds):
                if x in m:
                    self.melds[i:i + 1] = remove_card(m, x)
                    break
            else:
                return False
        if any(meld_kind(m) is None for m in self.melds):
            return False
        self.melds.append(list(cards))
        self.ops.append(("meld", list(cards)))
        return True

    def add(self, cards, i, offer=None) -> bool:
        target = self.melds[i]
        if meld_kind(target + list(cards)) is None:
            return False
        for x in cards:
            if x != offer:
                self.hand.remove(x)
        self.ops.append(("add", list(cards), target[0]))
        target.extend(cards)
        return True


def _hand_meld(hand):
    """The biggest meld made of hand cards only, or None."""
    best = None
    by_rank = {}
    for x in hand:
        by_rank.setdefault(RANK[x], []).append(x)
    for cards in by_rank.values():
        if len(cards) >= 3 and (best is None or len(cards) > len(best)):
            best = cards
    for s in range(4):
        ranks = sorted(RANK[x] for x in hand if SUIT[x] == s)
        run = []
        for r in ranks:
            if run and r == run[-1] + 1:
                run.append(r)
            else:
                run = [r]
            if len(run) >= 3 and (best is None or len(run) > len(best)):
                best = [s * 13 + q - 1 for q in run]
    return best


def _lay_more(st: _State, allow_new: bool, adds_first: bool) -> None:
    """Lay whatever else the hand allows (R7.3): adds, new melds, desmoche melds."""
    while st.hand:
        steps = (("add", "new", "borrow") if adds_first else ("new", "add", "borrow"))
        done = False
        for step in steps:
            if step == "add":
                for x in sorted(st.hand):
                    targets = [i for i, m in enumerate(st.melds) if fits(x, m)]
                    if targets:
                        st.add([x], targets[0])
                        done = True
                        break
            elif not allow_new:
                continue
            elif step == "new":
                m = _hand_meld(st.hand)
                if m:
                    st.lay(m)
                    done = True
            else:  # a desmoche: hand cards with a card moved from one of the melds
                borrow = _borrowable(st.melds)
                if not borrow:
                    continue
                best = None
                for h in st.hand:
                    pool = [x for x in st.hand if x != h] + borrow
                    for cand in _melds_with(h, pool):
                        from_hand = sum(1 for x in cand if x in st.hand)
                        if from_hand == len(cand):
                            continue
                        if best is None or from_hand > best[0]:
                            trial = st.copy()
                            if trial.lay(cand):
                                best = (from_hand, trial)
                if best:
                    st.hand, st.melds, st.ops = best[1].hand, best[1].melds, best[1].ops
                    done = True
            if done:
                break
        if not done:
            return


class _Plan:
    __slots__ = ("ops", "hand", "melds", "win", "score")

    def __init__(self, st: _State, score):
        self.ops = st.ops
        self.hand = st.hand
        self.melds = st.melds
        self.win = not st.hand
        self.score = score


def _plan_take(hand, melds, c: int, opts: RuleOptions):
    """The best action taking `c` (R7.2-R7.3, R8.5), or None if `c` cannot be placed."""
    firsts = []
    for i, m in enumerate(melds):
        if fits(c, m):
            st = _State(hand, melds)
            st.add([c], i, offer=c)
            firsts.append(st)
    pool = list(hand) + _borrowable(melds)
    for cand in _melds_with(c, pool):
        st = _State(hand, melds)
        if st.lay(cand, offer=c):
            firsts.append(st)
    best = None
    for first in firsts:
        for adds_first in (False, True):
            st = first.copy()
            _lay_more(st, opts.hand_melds, adds_first)
            on_table = sum(len(m) for m in st.melds)
            if st.hand:
                pay = min(st.hand, key=lambda x: _usefulness(x, st.hand))
                pot = _potential([x for x in st.hand if x != pay])
            else:
                pot = 100
            score = (not st.hand, on_table, pot, -len(st.ops))
            if best is None or score > best.score:
                best = _Plan(st, score)
    return best


# ---------------------------------------------------------------- automatic wins, side games

def _auto_kind(cards, opts: RuleOptions):
    """The best automatic win (R6.1, R6.5) these nine cards qualify as, or None."""
    if not opts.auto:
        return None
    suits = {SUIT[c] for c in cards}
    colours = {RED[c] for c in cards}
    if opts.color != "off" and (len(suits) == 1 or (opts.color == "color" and len(colours) == 1)):
        return "color"
    ranks = [RANK[c] for c in cards]
    if any(ranks.count(r) == 4 for r in set(ranks)):
        return "cuatro-cuerpos"
    held = set(cards)
    if len(set(ranks)) == len(ranks) and not any(RANK[c] != 13 and c + 1 in held for c in cards):
        return "peladilla"
    return None


def _claim(game: str, hand, opts: RuleOptions):
    """The best claim these dealt cards make in a side game (R4.2, R4.3), or None."""
    if game in _GAME_SUIT:
        mine = [c for c in hand if SUIT[c] == _GAME_SUIT[game]]
        return [max(mine, key=VALUE.__getitem__)] if mine else None
    if game in ("par-rojo", "par-negro", "dos-par-rojo", "dos-par-negro"):
        suits = (1, 2) if "rojo" in game else (0, 3)
        pairs = []
        for r in range(1, 14):
            pair = [s * 13 + r - 1 for s in suits]
            if all(p in hand for p in pair):
                pairs.append(pair)
        pairs.sort(key=lambda p: VALUE[p[0]], reverse=True)
        need = 2 if game.startswith("dos") else 1
        return [c for p in pairs[:need] for c in p] if len(pairs) >= need else None
    if game == "tres-cuerpos":
        trips = [r for r in range(1, 14) if sum(1 for c in hand if RANK[c] == r) >= 3]
        if not trips:
            return None
        r = max(trips, key=lambda q: 14 if q == 1 else q)
        return [c for c in hand if RANK[c] == r][:3]
    # escalera: the best run of three or more of one suit
    best, best_key = None, None
    for s in range(4):
        ranks = sorted(RANK[c] for c in hand if SUIT[c] == s)
        run = []
        for r in ranks + [99]:
            if run and r == run[-1] + 1:
                run.append(r)
                continue
            if len(run) >= 3:
                cards = [s * 13 + q - 1 for q in run]
                key = (opts.escalera == "a23-high" and has_a23(cards), run[-1], len(run))
                if best_key is None or key > best_key:
                    best, best_key = cards, key
            run = [r]
    return best


# ---------------------------------------------------------------- one hand

class _HandSim:
    def __init__(self, rng: random.Random, names, dealer: int, opts: RuleOptions, *,
                 vary: bool, closed: bool, sides: list):
        self.rng = rng
        self.n = len(names)
        self.players = [_Player(i, nm) for i, nm in enumerate(names)]
        self.dealer = dealer
        self.opts = opts
        self.vary = vary
        self.closed = closed
        self.sides = sides  # [(game, [player idx])]
        self.lines: list = []
        self.stock: list = []
        self.public: set = set()
        self.dead: list = []  # the discard pile (R7.6)
        self.take_comment = None
        self.draws = 0
        self.winners: list = []
        self.declared: list = []
        self.cambio_done = False
        self.notes = Counter()  # which situations the hand went through (for coverage)
        # planned incidents (draw numbers at which they happen)
        r = rng.random
        self.peek_at = rng.randint(2, 30) if vary and r() < _P_PEEK else None
        self.other_at = rng.randint(2, 30) if vary and r() < _P_FOUL_OTHER else None
        self.hand_foul_at = rng.randint(2, 30) if vary and r() < _P_FOUL_HAND else None
        # F3: the card just drawn, a card from the discard pile, or the top of the stock
        self.hand_foul_from = rng.choice(("drawn", "drawn", "discard", "stock"))
        self.arrangement_at = (rng.randint(1, 25) if vary and opts.strict and r() < _P_ARRANGEMENT
                               else None)

    # -- small helpers
    def emit(self, *parts, comment=None):
        line = " ".join(parts)
        if comment and self.vary and self.rng.random() < _P_COMMENT:
            line += " # " + comment
        self.lines.append(line)

    def in_players(self):
        return [p for p in self.players if p.status == "in"]

    def next_in(self, i: int):
        """The next player still in, to the right of seat i (possibly i itself), or None."""
        for k in range(1, self.n + 1):
            p = self.players[(i + k) % self.n]
            if p.status == "in":
                return p
        return None

    def seat_order_from(self, i: int):
        return [self.players[(i + k) % self.n] for k in range(1, self.n + 1)]

    def forgive(self) -> bool:
        return self.rng.random() < _P_FORGIVE

    def disqualify(self, p: _Player):
        p.status = "out"
        p.hand = []
        p.melds = []

    # -- the deal (R3, F1)
    def deal(self):
        rng = self.rng
        deck = list(range(52))
        rng.shuffle(deck)
        order = self.seat_order_from(self.dealer)  # dealer's right first, dealer last
        dealer = self.players[self.dealer]
        if self.vary and rng.random() < _P_CUT:
            self.emit("cut", order[0].name)
        for k, p in enumerate(order):
            p.hand = deck[k: 9 * self.n: self.n]
        self.stock = deck[9 * self.n:]
        misdeal = self.vary and rng.random() < _P_MISDEAL
        kind = rng.choice(("long", "long", "short")) if misdeal else None
        victim = rng.choice(order) if misdeal else None
        forgiven = misdeal and self.forgive()
        early = forgiven and rng.random() < 0.5  # forgive right after the misdealt line
        if kind == "short":
            self.stock.append(victim.hand.pop())  # dealt again from the top of the stock
        if not misdeal and self.vary and rng.random() < _P_SPLIT_DEAL:
            # written as dealt, in rounds (N4.6: several lines for one player add up)
            for k in range(0, 9, 3):
                for p in order:
                    part = p.hand[k:k + 3]
                    self.emit("deal", p.name, "?x3" if self.closed else
                              " ".join(CARD_NAME[c] for c in part))
            order = []
        for p in order:
            cards = list(p.hand)
            if p is victim and kind == "long":
                cards.append(self.stock.pop())
                back = rng.choice(cards)
                self.write_deal(p, cards)
                if early:
                    self.emit("forgive", dealer.name)
                self.emit("return", p.name, "?" if self.closed else CARD_NAME[back])
                cards.remove(back)
                self.stock.insert(rng.randrange(len(self.stock) + 1), back)
                p.hand = cards
                continue
            self.write_deal(p, cards)
        if kind == "short":
            self.emit("foul", dealer.name, "misdeal")
            if early:
                self.emit("forgive", dealer.name)
            top = self.stock.pop()
            victim.hand.append(top)
            self.emit("deal", victim.name, "?" if self.closed else CARD_NAME[top])
        if misdeal:
            if forgiven and not early:
                self.emit("forgive", dealer.name)
            elif not forgiven:
                self.disqualify(dealer)  # F1: the dealer's cards are set aside (R3.4)
        for p in self.players:
            p.dealt = list(p.hand)
            p.seen = set(p.hand)

    def write_deal(self, p: _Player, cards):
        parts = [cards]
        if self.vary and len(cards) > 3 and self.rng.random() < _P_SPLIT_DEAL:
            k = self.rng.randint(1, len(cards) - 1)
            parts = [cards[:k], cards[k:]]
        for part in parts:
            if self.closed:
                self.emit("deal", p.name, "?" if len(part) == 1 else f"?x{len(part)}")
            else:
                self.emit("deal", p.name, *(CARD_NAME[c] for c in part))

    # -- side games (R4.5)
    def announce(self):
        for p in self.seat_order_from(self.dealer):
            if p.status != "in":
                continue
            for game, entrants in self.sides:
                if p.idx not in entrants:
                    continue
                cards = _claim(game, p.hand, self.opts)
                if cards:
                    p.announced[game] = list(cards)
                    self.emit("announce", p.name, game, *(CARD_NAME[c] for c in cards))

    def announced_cards(self, p: _Player) -> set:
        return {c for cards in p.announced.values() for c in cards}

    # -- the cambio (R5)
    def cambio(self):
        players = self.in_players()
        if len(players) < 2:
            return
        chosen = {}
        for p in players:
            keep = self.announced_cards(p)
            options = [c for c in p.hand if c not in keep] or list(p.hand)
            chosen[p.idx] = min(options, key=lambda x: (_usefulness(x, p.hand), self.rng.random()))
        order = [p for p in self.seat_order_from(self.dealer) if p.status == "in"]
        if self.vary and self.rng.random() < 0.1:
            self.rng.shuffle(order)
        for p in order:
            c = chosen[p.idx]
            shown = CARD_NAME[c] if (not self.closed or p.known) else "?"
            self.emit("cambio", p.name, shown)
        for p in players:
            p.hand.remove(chosen[p.idx])
            p.passed_card = chosen[p.idx]
        for p in players:
            giver_card = chosen[p.idx]
            to = self.next_in(p.idx)
            to.hand.append(giver_card)
            to.seen.add(giver_card)
            to.known = False
        self.cambio_done = True

    # -- automatic wins (R6, N4.7)
    def declare(self, p: _Player, cards):
        kind = _auto_kind(cards, self.opts)
        self.notes["declare " + kind] += 1
        self.notes["declare after the cambio" if self.cambio_done else "declare before the cambio"] += 1
        if self.declared:
            self.notes["several declarations"] += 1
        words = ["declare", p.name, kind]
        if self.closed or self.rng.random() < 0.4:
            words += [CARD_NAME[c] for c in sorted(cards)]
            if sorted(cards) == sorted(p.hand):
                p.known = True
            self.public.update(cards)
        self.emit(*words)
        self.declared.append(p)

    def automatic_wins(self) -> bool:
        """Declarations and the cambio; True if the hand ended with automatic wins."""
        rng = self.rng
        order = [p for p in self.seat_order_from(self.dealer) if p.status == "in"]
        if self.vary and not self.closed:  # void declarations: a warning, play goes on
            if not self.opts.auto:
                for p in order:
                    kind = _auto_kind(p.hand, self.opts.replace(auto=True))
                    if kind and rng.random() < _P_VOID_DECLARE:
                        self.emit("declare", p.name, kind,
                                  comment="no automatic wins at this table (R6.7)")
                        self.notes["void declaration (R6.7)"] += 1
            elif rng.random() < _P_FALSE_DECLARE:
                p = rng.choice(order)
                kind = rng.choice(("peladilla", "cuatro-cuerpos", "color"))
                if not _auto_kind(p.hand, self.opts):
                    self.emit("declare", p.name, kind, comment="the hand does not qualify (R6.4)")
                    self.notes["false declaration (R6.4)"] += 1
        if not self.opts.auto:
            self.cambio()
            return False
        waiting = []
        for p in order:
            if _auto_kind(p.hand, self.opts):
                if rng.random() < 0.25:
                    waiting.append(p)
                else:
                    self.declare(p, p.hand)
        if not self.declared or rng.random() < 0.5:
            self.cambio()
        for p in order:
            if p in self.declared:
                continue
            if p in waiting:
                held = _auto_kind(p.hand, self.opts)
                self.declare(p, p.hand if held else p.dealt)
            elif self.cambio_done and _auto_kind(p.hand, self.opts):
                self.declare(p, p.hand)
        return bool(self.declared)

    def finish_auto(self):
        shows = [p for p in self.seat_order_from(self.dealer) if p not in self.declared]
        before = self.rng.random() < 0.5
        if before:
            self.show_all(shows)
        self.emit("end")
        if not before:
            self.show_all(shows)

    def show_all(self, players=None):
        for p in players if players is not None else self.seat_order_from(self.dealer):
            if p.status == "out":
                continue
            cards = [c for c in p.hand if c in self.announced_cards(p)]
            if cards:
                self.emit("show", p.name, *(CARD_NAME[c] for c in sorted(cards)))

    # -- passing (R13)
    def may_pass(self, p: _Player) -> bool:
        if p.status != "in" or not p.melds:
            return False
        known = self.public | p.seen | set(p.hand)
        need = _fitting(p.melds)
        if not need <= known:
            return False
        assert not need & set(self.stock), "a pass the stock refutes"
        return True

    # -- play (R7-R10)
    def candidates(self, c: int, offerer: _Player, kind: str):
        """Who may take the card on offer, in order (R7.5, R9.1): (player, obliged)."""
        order = []
        if kind == "draw" and offerer.status == "in":
            order.append((offerer, False))
        for q in self.seat_order_from(offerer.idx)[:-1]:
            if q.status == "in":
                obliged = self.opts.forcing and any(fits(c, m) for m in q.melds)
                order.append((q, obliged))
        if (self.opts.forcing and offerer.status == "in"
                and any(fits(c, m) for m in offerer.melds)):
            order.append((offerer, True))
        return order

    def offer(self, c: int, offerer: _Player, kind: str):
        """Resolve a card on offer: ("win",), ("dead", offerer, card), ("out", player)."""
        rng = self.rng
        while True:
            taker = plan = None
            self.take_comment = None
            claimants = []
            knockers = []
            for q, obliged in self.candidates(c, offerer, kind):
                if q is offerer and kind == "pay" and not obliged:
                    continue
                pl = _plan_take(q.hand, q.melds, c, self.opts)
                if obliged:
                    assert pl is not None
                    if taker is None:
                        taker, plan = q, pl
                        claimants.append(q)
                        self.notes["forced back" if q is offerer else "forced"] += 1
                        self.take_comment = ("forced back onto their own meld (R9.1)"
                                             if q is offerer else "forced: it fits their meld (R9.1)")
                        if pl.win:
                            self.notes["forced win"] += 1
                    break
                wants = pl is not None and (pl.win or rng.random() >= _P_DECLINE)
                if wants and (q not in claimants):
                    if taker is None:
                        taker, plan = q, pl
                    claimants.append(q)
                elif taker is None and q not in knockers:
                    knockers.append(q)
                if taker is not None and not self.vary:
                    break
            if self.vary:
                for q in knockers:
                    if rng.random() < _P_KNOCK:
                        self.emit("knock", q.name)
                if len(claimants) > 1 and rng.random() < _P_CLAIM:
                    for q in claimants:
                        self.emit("claim", q.name)
            if taker is None:
                return ("dead", offerer, c)
            if len(claimants) > 1:
                self.notes["contested"] += 1
            if not self.stock:
                self.notes["taken after the stock ran out"] += 1
            if len(self.in_players()) == 1:
                self.notes["lone player takes"] += 1
            outcome = self.act(taker, plan, c)
            if outcome != "paid":
                return (outcome, taker)
            c, offerer, kind = self.last_paid, taker, "pay"
            # a foul while the paid card is on offer leaves it on offer (N4.8)
            if self.vary and self.peek_at == -1:
                self.peek_at = None
                self.emit("foul", taker.name, "peek")
                if self.forgive():
                    self.emit("forgive", taker.name)
                else:
                    self.disqualify(taker)
                    self.notes["payer out, card stays on offer"] += 1

    def act(self, p: _Player, plan: _Plan, c: int) -> str:
        """Write the action of a taker (N4.2): "win", "out" (F4 enforced) or "paid"."""
        rng = self.rng
        ops = self.merge_adds(plan.ops)
        melds = [list(m) for m in p.melds]  # to resolve `add ... to CARD`
        foul_op = None
        if self.arrangement_at is not None and self.draws >= self.arrangement_at and self.stock:
            meld_ops = [i for i, op in enumerate(ops) if op[0] == "meld"]
            if meld_ops:
                foul_op = rng.choice(meld_ops)
                self.arrangement_at = None
        for i, op in enumerate(ops):
            if op[0] == "meld":
                cards = op[1]
                if i == foul_op:
                    written = _out_of_order(cards, rng)
                elif self.opts.strict or rng.random() < 0.7:
                    written = _arranged(cards)
                else:
                    written = list(cards)
                    rng.shuffle(written)
                self.emit("meld", p.name, *(CARD_NAME[x] for x in written),
                          comment=self.line_comment(i, ops, plan, foul_op))
                for x in cards:
                    for j, m in enumerate(melds):
                        if x in m:
                            melds[j:j + 1] = remove_card(m, x)
                            break
                melds.append(list(cards))
            else:
                cards, anchor = op[1], op[2]
                target = next(m for m in melds if anchor in m)
                valid = [m for m in melds if meld_kind(m + cards) is not None]
                words = ["add", p.name, *(CARD_NAME[x] for x in cards)]
                if len(valid) != 1 or rng.random() < 0.1:
                    words += ["to", CARD_NAME[rng.choice(target)]]
                self.emit(*words, comment=self.line_comment(i, ops, plan, foul_op))
                target.extend(cards)
            self.public.update(op[1])
            if i == foul_op:
                # The table may also write the foul (N4.8), except on a line that may end the
                # hand: a tenth card (the win stands only if the *next* line forgives it), or
                # the last player in (the hand is over at once; N4.4 allows only a forgive).
                last = (i == len(ops) - 1 and plan.win) or len(self.in_players()) == 1
                if not last and rng.random() < 0.4:
                    self.emit("foul", p.name, "arrangement")
                if self.forgive():
                    self.emit("forgive", p.name)
                else:
                    self.disqualify(p)  # during their own action: no pay (R14.5)
                    self.notes["F4 enforced" + (" on the winning line" if plan.win and
                                                i == len(ops) - 1 else "")] += 1
                    return "out"
        before = sum(len(m) for m in p.melds)
        for op in ops:
            if op[0] == "meld" and any(x in m for m in p.melds for x in op[1]):
                self.notes["desmoche"] += 1
                if any(meld_kind(m) == RUN and x in m and len(remove_card(m, x)) == 2
                       for m in p.melds for x in op[1]):
                    self.notes["run split"] += 1
        if not self.opts.hand_melds:
            self.notes["hand-melds off action"] += 1
        p.hand = list(plan.hand)
        p.melds = [list(m) for m in plan.melds]
        if plan.win:
            self.winners = [p]
            self.notes["win"] += 1
            if before == 9:
                self.notes["win from nine down (R10.2)"] += 1
            if len(self.in_players()) == 1:
                self.notes["lone player wins"] += 1
            if foul_op is not None:
                self.notes["F4 forgiven on the winning line"] += 1
            return "win"
        pay = self.choose_pay(p)
        p.hand.remove(pay)
        self.emit("pay", p.name, CARD_NAME[pay])
        self.public.add(pay)
        self.last_paid = pay
        return "paid"

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

    def choose_pay(self, p: _Player) -> int:
        """The least useful card (R7.4), avoiding cards that feed another's meld."""
        others = [m for q in self.players if q is not p and q.status == "in" for m in q.melds]

        def cost(x):
            feed = any(fits(x, m) for m in others)
            return (_usefulness(x, p.hand) + (4 if feed else 0), self.rng.random())
        return min(p.hand, key=cost)

    def boundary(self, anchor: _Player):
        """Between a dead card and the next draw: fouls and passes (R13, R14)."""
        rng = self.rng
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
            live = self.in_players()
            if not live:
                continue
            q = rng.choice(live)
            if kind == "peek":
                self.emit("foul", q.name, "peek")
            else:
                self.emit("foul", q.name, "other", rng.choice(_OTHER_FOULS))
            if self.forgive():
                self.emit("forgive", q.name)
            else:
                self.disqualify(q)
        if (self.hand_foul_at is not None and self.draws >= self.hand_foul_at
                and self.hand_foul_from != "drawn"):
            self.hand_foul_out_of_hand()
        for q in self.seat_order_from(anchor.idx):
            # "Cannot win" is the player's own judgement (R13.1): likelier with a hand that
            # makes no new meld.
            chance = _P_PASS if _potential(q.hand) == 0 else _P_PASS / 4
            if self.may_pass(q) and rng.random() < chance:
                self.emit("pass", q.name, comment="no card left in the stock fits (R13.1)")
                q.status = "passed"
                self.notes["pass"] += 1

    def hand_foul_out_of_hand(self):
        """F3 with a card from the discard pile or the stock, caught between two draws."""
        rng = self.rng
        live = self.in_players()
        # not the card that just went dead: until the next draw it is still on offer
        pile = self.dead[:-1]
        if not live or (self.hand_foul_from == "discard" and not pile) or len(self.stock) < 2:
            return
        self.hand_foul_at = None
        q = rng.choice(live)
        if self.hand_foul_from == "discard":
            x = rng.choice(pile)
            comment = "took a card from the discard pile (F3)"
        else:
            x = self.stock[-1]
            comment = "took the top card of the stock (F3)"
        self.emit("foul", q.name, "hand", CARD_NAME[x], comment=comment)
        self.notes["F3 from the " + self.hand_foul_from] += 1
        if self.forgive():
            self.emit("forgive", q.name)  # the card goes back where it was (N4.8)
            return
        self.disqualify(q)
        if self.hand_foul_from == "discard":
            self.dead.remove(x)
        else:
            self.stock.pop()
        self.public.add(x)

    def play(self):
        drawer = self.next_in(self.dealer)
        first = True
        draw_comment = "the dealer's right draws first (R7.1)"
        while True:
            if drawer is None:
                self.emit("end")  # no player left (R14.4)
                self.notes["no player left"] += 1
                return
            c = self.stock.pop()
            self.draws += 1
            self.emit("draw", drawer.name, CARD_NAME[c], comment=draw_comment)
            draw_comment = None
            self.public.add(c)
            if (self.hand_foul_at is not None and self.draws >= self.hand_foul_at and not first
                    and self.stock and self.hand_foul_from == "drawn"):
                self.hand_foul_at = None
                self.emit("foul", drawer.name, "hand", CARD_NAME[c])
                if not self.forgive():
                    self.disqualify(drawer)  # the card leaves play with them (N4.8)
                    self.boundary(drawer)
                    drawer = self.next_in(drawer.idx)
                    continue
                self.emit("forgive", drawer.name)
            result = self.offer(c, drawer, "draw")
            if result[0] == "win":
                return
            if result[0] == "dead":
                offerer = result[1]
                self.dead.append(result[2])
                if not self.stock:
                    self.emit("end")  # R10.3
                    self.notes["stock ran out"] += 1
                    return
                if first and result[2] == c and offerer is drawer and drawer.status == "in":
                    self.notes["first card redrawn"] += 1
                    first = False
                    draw_comment = "the first card went dead: the same player draws (R7.7)"
                    continue  # R7.7: the same player draws again
                anchor = offerer
            else:  # disqualified during their action (R14.5)
                anchor = result[1]
                if not self.stock:
                    self.emit("end")
                    return
            first = False
            self.boundary(anchor)
            drawer = self.next_in(anchor.idx)

    def finish(self):
        if self.winners:
            if self.rng.random() < 0.1:
                self.emit("end")
            self.show_all()
        else:
            self.show_all()

    # -- the whole hand
    def run(self):
        self.deal()
        self.announce()
        if self.automatic_wins():
            self.finish_auto()
            return
        self.play()
        self.finish()


# ---------------------------------------------------------------- the session

def _money(amount: Decimal) -> str:
    return str(int(amount)) if amount == amount.to_integral_value() else f"{amount:.2f}"


def _vary_options(rng: random.Random, preset: str) -> str:
    """An `Options` value that, over many hands, uses every option of R15."""
    words = []
    r = rng.random
    if r() < 0.3:
        words.append(rng.choice(("todo", "todo", "todo=on")))
    elif r() < 0.05:
        words.append("todo=off")
    if r() < 0.25:
        words.append("strict")
    if r() < 0.25:
        words.append("forcing")
    if r() < 0.15:
        words.append("color=" + rng.choice(("suit", "off", "color")))
    if preset == "conquien":
        if r() < 0.3:
            words.append("auto=on")
    elif r() < 0.1:
        words.append(rng.choice(("auto=off", "auto=off", "auto=on")))
    if r() < 0.15:
        words.append("hand-melds=off")
    elif r() < 0.03:
        words.append("hand-melds=on")
    if r() < 0.12:
        words.append(rng.choice(("escalera=a23-low", "escalera=a23-low", "escalera=a23-high")))
    if r() < 0.15:
        words.append(rng.choice(("side-nowin=refund", "side-nowin=refund", "side-nowin=carry")))
    if r() < 0.15:
        words.append(rng.choice(("dq-bonus=exempt", "dq-bonus=exempt", "dq-bonus=pay")))
    rng.shuffle(words)
    return " ".join(words)


def _carries(sim: _HandSim, bet: Decimal, carry: Decimal, sides: list, opts: RuleOptions):
    """What carries to the next hand (R2.3, R4.6): the main pot and each side pot.

    The one place that computes carries, so that it can be swapped for the referee's.
    """
    won = bool(sim.winners or sim.declared)
    main = Decimal(0) if won else carry + bet * sim.n
    side_out = {}
    for game, stake, entrants, carry_in in sides:
        pot = carry_in + stake * len(entrants)
        valid = False
        for i in entrants:
            p = sim.players[i]
            cards = p.announced.get(game)
            if p.status != "out" and cards and p.passed_card not in cards:
                valid = True
        if valid:
            side_out[game] = Decimal(0)
        else:
            side_out[game] = pot if opts.side_nowin == "carry" else carry_in
    return main, side_out


def simulate_session(hands: int, players: int = 3, seed: int = 0, options: str | None = None,
                     vary: bool = True, progress=None) -> str:
    """The `.dsm` text of a session of `hands` consecutive bot-played hands of one table.

    `players` 2-4 (named Ana Beto Carla Dani); `seed` makes it repeatable; `options` fixes
    the `Options` tag of every hand; `vary` varies preset, options, fouls, claims and closed
    records across hands; `progress(1)` is called after each hand.
    """
    return "\n".join(_session(hands, players, seed, options, vary, progress)[0])


def _session(hands, players, seed, options, vary, progress):
    """The hands' texts and a Counter of the situations they went through."""
    if not 2 <= players <= 4:
        raise ValueError(f"a table has 2, 3 or 4 players, not {players}")
    if hands < 0:
        raise ValueError(f"the number of hands cannot be negative ({hands})")
    if options is not None:
        for name in ("desmoche", "conquien"):
            _, reason = parse_options(name, options)
            if reason:
                raise ValueError(reason)
    rng = random.Random(seed)
    names = NAMES[:players]
    bet = Decimal(10)
    carry = Decimal(0)
    side_carry: dict = {}  # game -> (stake, amount)
    texts = []
    notes = Counter()
    for number in range(1, hands + 1):
        dealer = (number - 1) % players
        preset = "conquien" if vary and rng.random() < 0.2 else "desmoche"
        if options is not None:
            opt_text = options
        else:
            opt_text = _vary_options(rng, preset) if vary else ""
        opts, _ = parse_options(preset, opt_text)
        if vary and carry == 0 and rng.random() < 0.05:
            bet = rng.choice(_BETS)
        # side games: a carried pot keeps its game (R4.6); others come and go
        games = list(side_carry)
        k = rng.choices((0, 1, 2), (50, 35, 15))[0]
        for game in rng.choices(SIDE_GAMES, _GAME_WEIGHTS, k=k):
            if game not in games:
                games.append(game)
        sides = []
        for game in games:
            stake, amount = side_carry.get(game, (rng.choice(_STAKES), Decimal(0)))
            entrants = [i for i in range(players) if rng.random() < 0.8] or [rng.randrange(players)]
            sides.append((game, stake, entrants, amount))
        closed = vary and rng.random() < _P_CLOSED
        sim = _HandSim(rng, names, dealer, opts, vary=vary, closed=closed,
                       sides=[(g, e) for g, _, e, _ in sides])
        sim.run()
        tags = [("Players", " ".join(names)), ("Dealer", names[dealer])]
        if preset == "conquien" or (vary and rng.random() < 0.1):
            tags.append(("Rules", preset))
        if opt_text:
            tags.append(("Options", opt_text))
        tags.append(("Bet", _money(bet)))
        if carry:
            tags.append(("Carry", _money(carry)))
        for game, stake, entrants, _ in sides:
            shown = "rombo" if game == "oro" and rng.random() < 0.2 else game
            tags.append(("Side", " ".join([shown, _money(stake)] + [names[i] for i in entrants])))
        for game, stake, entrants, amount in sides:
            if amount:
                tags.append(("SideCarry", f"{game} {_money(amount)}"))
        if rng.random() < _P_RESULT:
            winners = sim.winners or sim.declared
            if len(winners) <= 1:
                tags.append(("Result", winners[0].name if winners else "none"))
        tags.append(("Hand", str(number)))
        lines = [f'[{name} "{value}"]' for name, value in tags]
        texts.append("\n".join(lines + [""] + sim.lines) + "\n")
        carry, side_out = _carries(sim, bet, carry, sides, opts)
        side_carry = {g: (stake, side_out[g]) for g, stake, _, _ in sides if side_out[g]}
        notes.update(sim.notes)
        notes["closed record"] += closed
        if progress is not None:
            progress(1)
    return texts, notes
