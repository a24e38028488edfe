"""Exact money (R2.4): integer cents in, two-decimal strings out. Never a float."""

import re
from functools import lru_cache

_AMOUNT = re.compile(r"([0-9]+)(?:\.([0-9]{1,2}))?")


@lru_cache(maxsize=1024)
def parse_amount(text: str):
    """Cents for a non-negative decimal with at most two decimals (N3.2), else None."""
    m = _AMOUNT.fullmatch(text.strip())
    if not m:
        return None
    whole, frac = m.groups()
    if len(whole) > 1000:  # no table bets that much; int() refuses past 4,300 digits anyway
        return None
    return int(whole) * 100 + int((frac or "0").ljust(2, "0"))


def fmt(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def split(cents: int, ways: int) -> list:
    """Equal shares; indivisible cents one each to the first shares (R11.6)."""
    base, extra = divmod(cents, ways)
    return [base + (1 if i < extra else 0) for i in range(ways)]
