"""settleup.py: the transfers that clear a set of balances (pure; property tests)."""

import ast
import pathlib

import pytest
from hypothesis import given, strategies as st

from desmoche_ref.settleup import Transfer, Unbalanced, settle_up

NAMES = ["Ana", "Beto", "Carla", "Dani", "Eva", "Félix", "(pot)"]


@st.composite
def balances(draw):
    """Up to seven parties' balances in cents, summing to zero."""
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=len(NAMES), unique=True))
    amounts = [draw(st.integers(-10**9, 10**9)) for _ in names[1:]]
    return dict(zip(names, [-sum(amounts)] + amounts))


@given(balances())
def test_transfers_clear_every_balance_exactly(owed):
    left = dict(owed)
    for t in settle_up(owed):
        left[t.payer] += t.cents
        left[t.payee] -= t.cents
    assert all(c == 0 for c in left.values())


@given(balances())
@pytest.mark.slow
def test_at_most_one_fewer_than_the_parties_with_a_balance(owed):
    parties = sum(1 for c in owed.values() if c)
    assert len(settle_up(owed)) <= max(parties - 1, 0)


@given(balances())
def test_debtors_pay_creditors_and_every_amount_is_positive(owed):
    for t in settle_up(owed):
        assert t.cents > 0 and owed[t.payer] < 0 < owed[t.payee]


@given(balances())
def test_same_balances_same_transfers_whatever_their_order(owed):
    assert settle_up(owed) == settle_up(dict(reversed(list(owed.items()))))


def test_the_largest_debt_meets_the_largest_credit_first():
    # Ana +56, Beto +10, Dani +3; Carla −57 and the pot −12 (tests/test_league_season.py)
    owed = {"Ana": 5600, "Beto": 1000, "Carla": -5700, "Dani": 300, "(pot)": -1200}
    assert settle_up(owed) == [Transfer("Carla", "Ana", 5600), Transfer("(pot)", "Beto", 1000),
                               Transfer("(pot)", "Dani", 200), Transfer("Carla", "Dani", 100)]


def test_nothing_to_settle():
    assert settle_up({}) == [] and settle_up({"Ana": 0, "Beto": 0}) == []


def test_balances_that_do_not_sum_to_zero_are_refused():
    with pytest.raises(Unbalanced, match="sum to 1 cents"):
        settle_up({"Ana": 1})


def test_settleup_is_pure():
    tree = ast.parse((pathlib.Path(__file__).parent.parent / "desmoche_ref" / "settleup.py").read_text())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported <= {"typing"}
