"""Cards (N2): a card is an int 0..51 = suit * 13 + (rank - 1).

Ranks are 1..13 in run order (A=1 .. K=13, R1.3); suits 0..3 are s h d c.
For comparisons (R1.2) the Ace is high: see `value`.
"""

from collections.abc import Iterable, Mapping

SUITS = "shdc"
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = "A23456789TJQK"  # index + 1 = rank in run order

UNKNOWN = -1  # a card nobody saw: `?` (N2.3)

RANK = [c % 13 + 1 for c in range(52)]
SUIT = [c // 13 for c in range(52)]
# Comparison value, Ace high (R1.2): 2..14.
VALUE = [14 if r == 1 else r for r in RANK]
RED = [s in (1, 2) for s in SUIT]

CARD_NAME = [RANKS[c % 13] + SUITS[c // 13] for c in range(52)]


def card(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


def _build_lookup() -> dict:
    ranks = {r.lower(): i + 1 for i, r in enumerate(RANKS)}
    ranks["10"] = 10
    suits = {s: i for i, s in enumerate(SUITS)}
    for alphabet in ("♠♥♦♣", "♤♡♢♧"):
        suits.update({sym: i for i, sym in enumerate(alphabet)})
    return {r + s: card(rank, suit) for r, rank in ranks.items() for s, suit in suits.items()}


_LOOKUP = _build_lookup()


def card_lookup() -> dict:
    """Token -> card for the usual spellings (the parser's fast path; parse_card does the rest)."""
    table = dict(_LOOKUP)
    table.update({t.upper(): c for t, c in _LOOKUP.items()})
    table.update({t[0].upper() + t[1:]: c for t, c in _LOOKUP.items()})
    return table


def parse_card(token: str) -> int | None:
    """The card a token names (any case, `10`/`T`, unicode suits), or None."""
    found = _LOOKUP.get(token)
    if found is None:
        found = _LOOKUP.get(token.lower().replace("\ufe0f", ""))
    return found


def card_named(token: str) -> int:
    """The card a name the program wrote names (a record's, the JSON's, a message's): as
    parse_card, but a token that names no card is a ValueError, not None."""
    found = parse_card(token)
    if found is None:
        raise ValueError(f"not a card: {token!r}")
    return found


def parse_unknown(token: str) -> int | None:
    """How many unknown cards `?` / `?xN` stands for (N 1..13), or None."""
    if token == "?":
        return 1
    if len(token) > 2 and token[0] == "?" and token[1] in "xX" and token[2:].isdigit():
        n = int(token[2:])
        if 1 <= n <= 13:
            return n
    return None


def name(c: int) -> str:
    return CARD_NAME[c] if c >= 0 else "?"


def names(cards: Iterable[int]) -> str:
    return " ".join(CARD_NAME[c] for c in cards)


def colour_wanted(environ: Mapping[str, str], is_terminal: bool) -> bool:
    """Suits in colour only on a terminal that can show it: not with NO_COLOR set (any
    value, no-color.org), not with TERM=dumb, not into a file or a pipe."""
    return is_terminal and "NO_COLOR" not in environ and environ.get("TERM") != "dumb"


def pretty_cards(cards: Iterable[int], colour: bool = False) -> str:
    return " ".join(pretty(c, colour) for c in cards)


def pretty(c: int, colour: bool = False) -> str:
    """A card with its suit symbol, e.g. 10♠ / Q♥, optionally coloured for a terminal."""
    rank = RANKS[c % 13]
    text = ("10" if rank == "T" else rank) + SUIT_SYMBOLS[c // 13]
    if colour:
        return ("\x1b[31m" if RED[c] else "\x1b[1m") + text + "\x1b[0m"
    return text
