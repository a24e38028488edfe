"""How hands and claims compare: automatic wins (R6.1, R6.5) and side-game claims (R4.2, R4.3).

Every strength is a tuple; a bigger tuple is a better hand. None means "does not qualify".
"""

from collections.abc import Collection, Sequence
from collections import Counter

from .cards import RANK, RED, SUIT, VALUE
from .findings import M, Message
from .melds import RUN, has_a23, meld_kind

# Kind ranks of automatic wins (R6.5): the order of rarity.
PELADILLA, CUATRO, COLOR_COLOUR, COLOR_SUIT = 1, 2, 3, 4
# The rank of a declaration whose cards are not known (a closed record): by its kind alone.
KIND_RANK = {"peladilla": PELADILLA, "cuatro-cuerpos": CUATRO, "color": COLOR_COLOUR}


def is_peladilla(cards: Collection[int]) -> bool:
    """No pair, and no two cards of one suit adjacent in run order (K-A are not adjacent)."""
    ranks = [RANK[c] for c in cards]
    if len(set(ranks)) != len(ranks):
        return False
    held = set(cards)
    # card + 1 is the next rank of the same suit unless the card is a King.
    return not any(RANK[c] != 13 and c + 1 in held for c in cards)


def auto_strength(kind: str, cards: Collection[int], color_option: str) -> tuple[int, ...] | None:
    """Strength of nine cards declared as `kind` (R6.1, R6.5), or None if they do not qualify."""
    if kind == "peladilla":
        return (PELADILLA, *sorted((VALUE[c] for c in cards), reverse=True)) if is_peladilla(cards) else None
    if kind == "cuatro-cuerpos":
        fours = [r for r, n in Counter(VALUE[c] for c in cards).items() if n == 4]
        return (CUATRO, max(fours)) if fours else None
    if kind == "color":
        if color_option == "off":
            return None
        values = sorted((VALUE[c] for c in cards), reverse=True)
        if len({SUIT[c] for c in cards}) == 1:
            return (COLOR_SUIT, *values)
        if color_option == "color" and len({RED[c] for c in cards}) == 1:
            return (COLOR_COLOUR, *values)
        return None
    raise ValueError(kind)


def could_qualify(kind: str, known: Collection[int], unknown: int, color_option: str) -> bool:
    """Whether a hand with these known cards and `unknown` hidden ones may still be `kind`
    (N6.2: what the known cards already rule out is void, not unverifiable)."""
    if kind == "peladilla":
        return is_peladilla(known)
    if kind == "cuatro-cuerpos":
        counts = Counter(RANK[c] for c in known)
        return unknown >= 4 or any(n + unknown >= 4 for n in counts.values())
    if color_option == "off":
        return False
    if len({SUIT[c] for c in known}) <= 1:
        return True
    return color_option == "color" and len({RED[c] for c in known}) <= 1


def why_not_auto(kind: str, color_option: str) -> Message:
    if kind == "peladilla":
        return M("a peladilla has no pair and no two cards of one suit next to each other")
    if kind == "cuatro-cuerpos":
        return M("cuatro cuerpos needs four cards of one rank")
    if color_option == "off":
        return M("Color is not an automatic win at this table (color=off)")
    if color_option == "suit":
        return M("Color needs all nine cards of one suit at this table (color=suit)")
    return M("Color needs all nine cards of one colour")


GAME_SUIT = {"corazon-negro": 0, "corazon": 1, "oro": 2, "flor": 3}
GAME_NEEDS = {
    "oro": M("one diamond"), "corazon": M("one heart"), "flor": M("one club"), "corazon-negro": M("one spade"),
    "par-rojo": M("a red pair (the heart and the diamond of one rank)"),
    "par-negro": M("a black pair (the spade and the club of one rank)"),
    "dos-par-rojo": M("two red pairs"), "dos-par-negro": M("two black pairs"),
    "tres-cuerpos": M("three cards of one rank"), "escalera": M("a run of three or more cards of one suit"),
}


def _pair_rank(cards: Sequence[int], red: bool) -> int | None:
    if len(cards) == 2 and RANK[cards[0]] == RANK[cards[1]] and RED[cards[0]] == red \
            and RED[cards[1]] == red:
        return VALUE[cards[0]]
    return None


def claim_strength(game: str, cards: Sequence[int], escalera_option: str = "a23-high") -> tuple[int, ...] | None:
    """Strength of a side-game claim (R4.2, R4.3), or None if the cards are not such a claim."""
    n = len(cards)
    if game in GAME_SUIT:
        return (VALUE[cards[0]],) if n == 1 and SUIT[cards[0]] == GAME_SUIT[game] else None
    if game in ("par-rojo", "par-negro"):
        value = _pair_rank(cards, game == "par-rojo")
        return (value,) if value else None
    if game in ("dos-par-rojo", "dos-par-negro"):
        if n != 4:
            return None
        red = game == "dos-par-rojo"
        by_rank: dict[int, list[int]] = {}
        for c in cards:
            by_rank.setdefault(RANK[c], []).append(c)
        values = [_pair_rank(pair, red) for pair in by_rank.values()]
        if len(values) != 2 or None in values:
            return None
        return tuple(sorted((v for v in values if v is not None), reverse=True))
    if game == "tres-cuerpos":
        return (VALUE[cards[0]],) if n == 3 and len({RANK[c] for c in cards}) == 1 else None
    if game == "escalera":
        if meld_kind(cards) != RUN:
            return None
        top = max(RANK[c] for c in cards)  # run order: the top of A-2-3 is the 3
        a23 = 1 if escalera_option == "a23-high" and has_a23(cards) else 0
        return (a23, top, n)
    raise ValueError(game)
