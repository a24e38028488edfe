"""Melds (R8): runs and sets, what a card extends, strict order, a run split by a desmoche."""

from collections.abc import Callable, Collection, Sequence

from .cards import RANK, RED, SUIT
from .findings import M, Message

RUN = "run"
SET = "set"


def meld_kind(cards: Sequence[int]) -> str | None:
    """RUN, SET, or None if `cards` is not a valid meld (R8.1, R1.3)."""
    n = len(cards)
    if n < 3:
        return None
    ranks = [RANK[c] for c in cards]
    if ranks.count(ranks[0]) == n:
        return SET if n <= 4 else None
    suit = SUIT[cards[0]]
    for c in cards:
        if SUIT[c] != suit:
            return None
    # Ace is low only (R1.3): consecutive run-order ranks, no wrap-around.
    if n <= 10 and max(ranks) - min(ranks) == n - 1 and len(set(ranks)) == n:
        return RUN
    return None


def why_not_meld(cards: Sequence[int]) -> Message:
    """A player-readable reason why `cards` is not a meld (for R8.1 messages)."""
    if len(cards) < 3:
        return M("a meld has at least three cards")
    ranks = {RANK[c] for c in cards}
    suits = {SUIT[c] for c in cards}
    if len(ranks) == 1:
        return M("a set has at most four cards")
    if len(suits) > 1:
        return M("a run is one suit") if len(ranks) == len(cards) else M("a set is one rank")
    if len(cards) > 10:
        return M("a run has at most ten cards")
    return M("a run is consecutive ranks, Ace low only (Q-K-A and K-A-2 are not runs)")


def fitting_cards(meld: Sequence[int]) -> list[int]:
    """Every card that fits a valid meld directly (R9.1, R13.1): a run's ends, a set's fourth."""
    first = meld[0]
    rank = RANK[first]
    if RANK[meld[1]] == rank:  # a set
        if len(meld) != 3:
            return []
        suits = {SUIT[c] for c in meld}
        return [s * 13 + rank - 1 for s in range(4) if s not in suits]
    if len(meld) >= 10:
        return []
    low, high = min(meld), max(meld)  # one suit: card order is rank order
    out = []
    if RANK[low] > 1:
        out.append(low - 1)
    if RANK[high] < 13:
        out.append(high + 1)
    return out


def fits(card: int, meld: Sequence[int]) -> bool:
    """Whether `card` can be added directly to `meld` (R9.1, R13.1): a run end or a set's fourth."""
    first = meld[0]
    rank = RANK[first]
    if RANK[meld[1]] == rank:  # a set
        return len(meld) == 3 and RANK[card] == rank and card not in meld
    if len(meld) >= 10 or SUIT[card] != SUIT[first]:
        return False
    low, high = min(meld), max(meld)  # one suit: card order is rank order
    return (card == low - 1 and RANK[low] > 1) or (card == high + 1 and RANK[high] < 13)


def in_order(cards: Sequence[int]) -> bool:
    """Strict arrangement (R8.4): runs ascending, sets alternating colours, as written."""
    if meld_kind(cards) == SET:
        return all(RED[a] != RED[b] for a, b in zip(cards, cards[1:]))
    return all(RANK[a] < RANK[b] for a, b in zip(cards, cards[1:]))


def arranged(cards: Sequence[int]) -> list[int]:
    """A meld as it lies on the table: a run by rank; a set as laid."""
    if len(cards) >= 2 and RANK[cards[0]] == RANK[cards[1]]:
        return list(cards)
    return sorted(cards, key=RANK.__getitem__)


def remove_card(meld: Sequence[int], card: int) -> list:
    """What is left of `meld` without `card`: a run taken from its middle leaves two runs (R8.5)."""
    rest = [c for c in meld if c != card]
    if meld_kind(meld) != RUN:
        return [rest] if rest else []
    r = RANK[card]
    below = [c for c in rest if RANK[c] < r]
    above = [c for c in rest if RANK[c] > r]
    return [part for part in (below, above) if part]


def has_a23(meld: Sequence[int]) -> bool:
    """A run holding A-2-3 of one suit (Mico, R12.2; escalera, R4.3)."""
    ranks = {RANK[c] for c in meld}
    return meld_kind(meld) == RUN and {1, 2, 3} <= ranks


def could_meld(card: int, pool: Collection[int], wild: int, hidden: Callable[[int], bool]) -> bool:
    """Whether `card` could go into a meld made with cards of `pool` (a player's hand and own
    melds, R7.2, R8.5) and up to `wild` unseen cards of theirs, each of which may be any card
    for which `hidden(c)` is true. Whether the melds left behind stay valid is not asked: that
    is judged at the end of the action (R8.5)."""
    rank, suit = RANK[card], SUIT[card]
    others = [s * 13 + rank - 1 for s in range(4) if s != suit]
    have = sum(1 for c in others if c in pool)
    could = sum(1 for c in others if c not in pool and hidden(c))
    if have + min(could, wild) >= 2:
        return True
    for low in range(max(1, rank - 2), min(rank, 11) + 1):  # runs of three holding the card
        missing = [c for c in range(suit * 13 + low - 1, suit * 13 + low + 2)
                   if c != card and c not in pool]
        if len(missing) <= wild and all(hidden(c) for c in missing):
            return True
    return False
