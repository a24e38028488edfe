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



class Held(NamedTuple):
    """A pot a table still holds, carried to its next hand: its table, its pot (`main` or the
    side game), what it holds, and who put that in ({player: cents}, as R11.5 would return it)."""

    table: str
    pot: str
    cents: int
    put_in: dict


def owned(balances: dict, held_after: list, held_before: list, pot_party: str) -> dict:
    """`balances` (each player's net, the pots as one party `pot_party`) with the money the pots
    still hold counted as its owners': a player's share of a pot held after the hands
    (`held_after`, Held) is still theirs — it sits in the pot for the next hand, nobody pays it
    to anyone — and a share held before them (`held_before`) was theirs already when the hands
    began. What is left to the pot party is the money that came from outside the book. The
    balances still sum to zero."""
    out = dict(balances)
    for sign, pots in ((1, held_after), (-1, held_before)):
        for pot in pots:
            for name, cents in pot.put_in.items():
                out[name] = out.get(name, 0) + sign * cents
                out[pot_party] = out.get(pot_party, 0) - sign * cents
    return {party: cents for party, cents in out.items() if cents}
