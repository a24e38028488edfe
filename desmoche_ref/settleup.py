"""Settle-up: the fewest-hands transfers that clear a set of balances. Pure: cents in, transfers out.

Balances are integer cents that sum to zero (what each party is up, + or −). Each step pays
the largest creditor from the largest debtor as much as both allow, so every transfer clears
at least one party and the last one clears two: at most (parties with a balance) − 1 transfers,
exact to the cent, never a transfer between two parties on the same side. Ties are broken by
name, so the same balances always give the same transfers.
"""

from typing import NamedTuple


class Transfer(NamedTuple):
    payer: str
    payee: str
    cents: int


class Unbalanced(ValueError):
    """Balances that do not sum to zero cannot be cleared among their parties."""


def settle_up(balances: dict) -> list:
    """Transfers (payer, payee, cents) that bring every balance to zero."""
    total = sum(balances.values())
    if total:
        raise Unbalanced(f"the balances sum to {total} cents, not zero")
    owed = {p: c for p, c in balances.items() if c > 0}   # creditors: they receive
    owes = {p: -c for p, c in balances.items() if c < 0}  # debtors: they pay
    transfers = []
    while owed:
        payee = min(owed, key=lambda p: (-owed[p], p))
        payer = min(owes, key=lambda p: (-owes[p], p))
        cents = min(owed[payee], owes[payer])
        transfers.append(Transfer(payer, payee, cents))
        for side, party in ((owed, payee), (owes, payer)):
            side[party] -= cents
            if not side[party]:
                del side[party]
    return transfers

