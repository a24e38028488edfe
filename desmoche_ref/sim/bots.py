"""What the simulator's bots want: strategy only. Whether a move is legal is the engine's.

Pure functions of a bot's own cards: which meld to make when taking a card (R7.2-R7.3, a
desmoche R8.5), what to pay, what to pass in the cambio, what to claim in a side game, which
automatic win a hand would be. The rules they lean on are the core's helpers (melds.py,
ranking.py); the table loop asks the referee before writing any line these suggest.
"""

from itertools import combinations, permutations

from ..cards import RANK, SUIT
from ..melds import SET, arranged, fits, in_order, meld_kind, remove_card
from ..ranking import auto_strength, claim_strength

AUTO_KINDS = ("color", "cuatro-cuerpos", "peladilla")
# how many cards a claim shows in the side games of one card, pairs or a set (R4.2, R4.3)
_CLAIM_SIZES = {"par-rojo": 2, "par-negro": 2, "dos-par-rojo": 4, "dos-par-negro": 4,
                "tres-cuerpos": 3}


def usefulness(x: int, hand) -> int:
    """How much `x` helps the rest of the hand toward melds (pairs, near neighbours)."""
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


def potential(hand) -> int:
    return sum(usefulness(x, hand) for x in hand)


def least_useful(hand, rng, keep=(), extra=None) -> int:
    """The card a bot gives away (a pay, R7.4; the cambio, R5): the least useful, `keep` last;
    `extra(x)` adds a cost (a card that feeds another player's meld)."""
    options = [c for c in hand if c not in keep] or list(hand)
    return min(options, key=lambda x: (usefulness(x, hand) + (extra(x) if extra else 0), rng.random()))


def in_order_form(cards) -> list:
    """The meld written so that strict order accepts it (R8.4, `melds.in_order`)."""
    start = arranged(cards)
    return list(next(p for p in permutations(start) if in_order(p)))


def out_of_order(cards, rng) -> list:
    """The same meld written so that strict order refuses it (for foul F4)."""
    cards = list(cards)
    for _ in range(50):
        rng.shuffle(cards)
        if not in_order(cards):
            return cards
    return list(reversed(in_order_form(cards)))


def auto_kind(cards, color_option: str):
    """The strongest automatic win (R6.1, R6.5) these nine cards are, or None."""
    best = None
    for kind in AUTO_KINDS:
        strength = auto_strength(kind, cards, color_option)
        if strength and (best is None or strength > best[0]):
            best = (strength, kind)
    return best[1] if best else None


def _claim_candidates(game: str, hand) -> list:
    """The card groups worth asking `claim_strength` about: one card, cards of one rank
    (pairs, tres cuerpos), two such pairs, or the runs in the hand (escalera)."""
    if game == "escalera":
        return [m for c in hand for m in melds_with(c, [x for x in hand if x != c]) if not is_set(m)]
    size = _CLAIM_SIZES.get(game, 1)
    if size == 1:
        return [[c] for c in hand]
    by_rank: dict[int, list[int]] = {}
    for c in hand:
        by_rank.setdefault(RANK[c], []).append(c)
    groups = [list(g) for cards in by_rank.values() for g in combinations(cards, 2 if size == 4 else size)]
    return [a + b for a, b in combinations(groups, 2)] if size == 4 else groups


def best_claim(game: str, hand, escalera: str):
    """The strongest claim these dealt cards make in a side game (R4.2, R4.3), or None."""
    best = None
    for cards in _claim_candidates(game, sorted(hand)):
        strength = claim_strength(game, cards, escalera)
        if strength and (best is None or strength > best[0]):
            best = (strength, cards)
    return best[1] if best else None


# ---------------------------------------------------------------- planning a take

def melds_with(c: int, pool) -> list:
    """Every set or run made of `c` and cards of `pool` that contains `c` (candidates only:
    `meld_kind` has the last word)."""
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
            out.append([by_rank[r] for r in range(a, b + 1)])
    return [m for m in out if meld_kind(m)]


def borrowable(melds) -> list:
    """Cards a desmoche could move out of their meld leaving what stays valid (R8.5): a meld
    of three spares none; the rest of a set, or each part of a run, must keep three cards."""
    return [x for m in melds if len(m) > 3 for x in m
            if all(len(part) >= 3 for part in remove_card(m, x))]


def hand_meld(hand):
    """The biggest meld made of hand cards only (all of a rank, or a suit's longest run), or None."""
    best = None
    by_rank = {}
    for x in hand:
        by_rank.setdefault(RANK[x], []).append(x)
    for cards in by_rank.values():
        if len(cards) >= 3 and (best is None or len(cards) > len(best)):
            best = cards
    for s in range(4):
        run = []
        for r in sorted(RANK[x] for x in hand if SUIT[x] == s):
            run = run + [r] if run and r == run[-1] + 1 else [r]
            if len(run) >= 3 and (best is None or len(run) > len(best)):
                best = [s * 13 + q - 1 for q in run]
    return best


class Plan:
    """A bot's hand and melds while it plans an action, and the lines it would write."""
    __slots__ = ("hand", "melds", "ops", "score")

    def __init__(self, hand, melds, ops=()):
        self.hand = list(hand)
        self.melds = [list(m) for m in melds]
        self.ops = list(ops)   # ("meld", cards) or ("add", cards, a card of the target meld)
        self.score = None

    @property
    def win(self) -> bool:
        return not self.hand

    def copy(self):
        return Plan(self.hand, self.melds, self.ops)

    def lay(self, cards, offer=None) -> bool:
        """A new meld of `cards` (the offer, hand cards, cards of own melds); False if the
        melds it leaves are not all valid."""
        for x in cards:
            if x == offer:
                continue
            if x in self.hand:
                self.hand.remove(x)
                continue
            i = next(i for i, m in enumerate(self.melds) if x in m)
            self.melds[i:i + 1] = remove_card(self.melds[i], x)
        if not all(meld_kind(m) for m in self.melds):
            return False
        self.melds.append(list(cards))
        self.ops.append(("meld", list(cards)))
        return True

    def add(self, card, i, offer=None) -> None:
        target = self.melds[i]
        if card != offer:
            self.hand.remove(card)
        self.ops.append(("add", [card], target[0]))
        target.append(card)


def _desmoche(plan: Plan):
    """The best new meld of hand cards with a card moved from a meld (R8.5), or None."""
    borrow = borrowable(plan.melds)
    if not borrow:
        return None
    best = None
    for h in plan.hand:
        for cand in melds_with(h, [x for x in plan.hand if x != h] + borrow):
            from_hand = sum(1 for x in cand if x in plan.hand)
            if from_hand == len(cand) or (best and from_hand <= best[0]):
                continue
            trial = plan.copy()
            if trial.lay(cand):
                best = (from_hand, trial)
    return best[1] if best else None


def _step(plan: Plan, step: str, allow_new: bool):
    """One more lay of kind `step` ("add", "new", "borrow"); the plan after it, or None."""
    if step == "add":
        for x in sorted(plan.hand):
            targets = [i for i, m in enumerate(plan.melds) if fits(x, m)]
            if targets:
                plan.add(x, targets[0])
                return plan
        return None
    if not allow_new:
        return None
    if step == "new":
        m = hand_meld(plan.hand)
        return plan if m and plan.lay(m) else None
    return _desmoche(plan)


def lay_more(plan: Plan, allow_new: bool, adds_first: bool) -> Plan:
    """Lay whatever else the hand allows (R7.3): adds, new melds, desmoche melds."""
    steps = ("add", "new", "borrow") if adds_first else ("new", "add", "borrow")
    while plan.hand:
        for step in steps:
            after = _step(plan, step, allow_new)
            if after is not None:
                plan = after
                break
        else:
            return plan
    return plan


def _first_lays(hand, melds, c: int) -> list:
    """The ways to lay the card taken: on a meld it fits, or in a new meld (R7.2, R8.5)."""
    firsts = []
    for i, m in enumerate(melds):
        if fits(c, m):
            plan = Plan(hand, melds)
            plan.add(c, i, offer=c)
            firsts.append(plan)
    for cand in melds_with(c, list(hand) + borrowable(melds)):
        plan = Plan(hand, melds)
        if plan.lay(cand, offer=c):
            firsts.append(plan)
    return firsts


def plan_take(hand, melds, c: int, hand_melds: bool):
    """The best action taking `c`, or None if the bot sees no way to place it."""
    best = None
    for first in _first_lays(hand, melds, c):
        for adds_first in (False, True):
            plan = lay_more(first.copy(), hand_melds, adds_first)
            on_table = sum(len(m) for m in plan.melds)
            if plan.hand:
                pay = min(plan.hand, key=lambda x: usefulness(x, plan.hand))
                pot = potential([x for x in plan.hand if x != pay])
            else:
                pot = 100
            plan.score = (plan.win, on_table, pot, -len(plan.ops))
            if best is None or plan.score > best.score:
                best = plan
    return best


def random_take(hand, melds, c: int, hand_melds: bool, rng):
    """A take as a bot that does not judge it makes one: the card laid one way or another it
    allows (R7.2, R8.5), then sometimes the rest laid too (R7.3); None if it cannot be laid."""
    firsts = _first_lays(hand, melds, c)
    if not firsts:
        return None
    plan = rng.choice(firsts)
    if plan.hand and rng.random() < 0.5:
        plan = lay_more(plan, hand_melds, rng.random() < 0.5)
    return plan


def random_claim(game: str, hand, escalera: str, rng):
    """A side-game announcement a bot that does not judge it makes: any claim these dealt
    cards make (not the best one), or none (R4.5: a claim not announced is void)."""
    options = [cards for cards in _claim_candidates(game, sorted(hand)) if claim_strength(game, cards, escalera)]
    return rng.choice(options + [None])


def is_set(cards) -> bool:
    return meld_kind(cards) == SET
