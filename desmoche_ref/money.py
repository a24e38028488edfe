"""Exact money (R2.4): integer cents in, two-decimal strings out. Never a float."""

import re
from functools import lru_cache

from .findings import M, Message
from .limits import AMOUNT_DIGITS

_AMOUNT = re.compile(r"([0-9]+)(?:\.([0-9]{1,2}))?")


@lru_cache(maxsize=1024)
def parse_amount(text: str) -> int | None:
    """Cents for a non-negative decimal with at most two decimals and at most nine digits
    before the point (N3.2: below 1,000,000,000), else None (`amount_problem` says why)."""
    m = _AMOUNT.fullmatch(text.strip())
    if not m:
        return None
    whole, frac = m.groups()
    if len(whole.lstrip("0")) > AMOUNT_DIGITS:
        return None
    return int(whole) * 100 + int((frac or "0").ljust(2, "0"))


def too_large(text: str) -> bool:
    """Whether `text` is written as an amount but is 1,000,000,000 or more (N3.2)."""
    return _AMOUNT.fullmatch(text.strip()) is not None and parse_amount(text) is None


def amount_problem(text: str) -> Message:
    """Why `text` is not an amount (N3.2), as one message."""
    word = text.strip()
    shown = word if len(word) <= 24 else word[:23] + "…"
    if too_large(word):
        return M("{word} is too large: amounts are below 1,000,000,000", word=shown)
    return M("{word!r} is not an amount (e.g. 10 or 2.50)", word=shown)


def fmt(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def split(cents: int, ways: int) -> list:
    """Equal shares; indivisible cents one each to the first shares (R11.6)."""
    base, extra = divmod(cents, ways)
    return [base + (1 if i < extra else 0) for i in range(ways)]
