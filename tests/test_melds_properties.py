"""R9.1, R13.1: `fits`/`fitting_cards` agree with the definition (the card makes a valid meld of it)."""

from hypothesis import given, strategies as st

from desmoche_ref.cards import RANK
from desmoche_ref.melds import arranged, fits, fitting_cards, meld_kind


def by_definition(card, meld):
    if card in meld:
        return False
    is_set = RANK[meld[0]] == RANK[meld[1]]
    return meld_kind(list(meld) + [card]) is not None and (not is_set or len(meld) == 3)


runs = st.builds(lambda suit, lo, length: [suit * 13 + r - 1 for r in range(lo, min(lo + length, 14))],
                 st.integers(0, 3), st.integers(1, 11), st.integers(3, 10)).filter(lambda m: len(m) >= 3)
sets = st.builds(lambda rank, suits: [s * 13 + rank - 1 for s in suits],
                 st.integers(1, 13), st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))


@given(st.one_of(runs, sets), st.randoms())
def test_r9_1_fits_is_exactly_the_cards_that_extend_a_run_or_complete_a_set(meld, rnd):
    if rnd.random() < 0.5:
        meld = arranged(meld)
    else:  # callers may hold their melds in any order
        rnd.shuffle(meld)
    for card in range(52):
        assert fits(card, meld) == by_definition(card, meld) == (card in fitting_cards(meld))
