"""The laws across a table's hands (laws.py, NOTATION N9), as pure functions of hand facts."""

from desmoche_ref import laws
from desmoche_ref.laws import BOOK, SESSION, HandFacts, Table
from desmoche_ref.referee import judge_text

from helpers import peladilla_hand

ABC = ("Ana", "Beto", "Carla")


def facts(number, dealer="Ana", *, players=ABC, bet=1000, carry_in=0, carry_out=0, status="complete",
          side_in=None, side_out=None, sides=(), closes=False):
    complete = status == "complete"
    return HandFacts(number, 10 * number, players, dealer, bet, carry_in, side_in or {}, sides, status,
                     carry_out if complete else None, (side_out or {}) if complete else None, closes)


def said(breaches):
    return [(b.number, b.code, b.severity, b.message) for b in breaches]


def night(*hands, options=SESSION):
    return said(laws.judge_hands(hands, options))


# ------------------------------------------------------------------ N9.1 carries
def test_n9_1_a_hand_carries_in_what_the_hand_before_carried_out():
    assert night(facts(1, carry_in=2000, carry_out=5000), facts(2, "Beto", carry_in=5000)) == []
    assert night(facts(1, carry_out=3000), facts(2, "Beto", carry_in=0)) == [
        (2, "R2.3", "error", "Carry is 0.00 but the hand before carried out 30.00")]
    assert night(facts(1, carry_out=3000), facts(2, "Beto", carry_in=4500)) == [
        (2, "R2.3", "error", "Carry is 45.00 but the hand before carried out 30.00")]


def test_n9_1_the_first_hands_carries_are_brought_in():
    assert night(facts(1, carry_in=2000, side_in={"oro": 300}, carry_out=0)) == []


def test_n9_1_side_pots_follow_on_r4_6():
    first = facts(1, side_out={"oro": 1000}, sides=(("oro", 500, ("Ana", "Carla")),))
    assert night(first, facts(2, "Beto", side_in={"oro": 1000})) == []
    assert night(first, facts(2, "Beto")) == [
        (2, "R4.6", "error", "SideCarry for oro is 0.00 but the hand before carried out 10.00")]
    assert night(facts(1), facts(2, "Beto", side_in={"flor": 200})) == [
        (2, "R4.6", "error", "SideCarry for flor is 2.00 but the hand before carried out 0.00")]


def test_n9_1_a_hand_that_settled_nothing_leaves_the_pots_where_they_were():
    # hand 2 is incomplete (or invalid, or void): hand 3 is held to what hand 1 carried out
    for status in ("incomplete", "invalid", "void"):
        two = facts(2, "Beto", carry_in=3000, status=status)
        third = "Beto" if status == "void" else "Carla"  # a void hand was never dealt (N9.3)
        assert night(facts(1, carry_out=3000), two, facts(3, third, carry_in=3000)) == [], status
        assert night(facts(1, carry_out=3000), two, facts(3, third, carry_in=4500)) == [
            (3, "R2.3", "error", "Carry is 45.00 but the pot holds 30.00 as hand 1 left it (the hands after "
                                 "it settled nothing)")], status


def test_n9_1_a_table_whose_first_hand_settled_nothing_holds_what_it_brought_in():
    first = facts(1, carry_in=2000, status="incomplete")
    assert night(first, facts(2, "Beto", carry_in=2000)) == []
    assert [b[1] for b in night(first, facts(2, "Beto", carry_in=4000))] == ["R2.3"]


# ------------------------------------------------------------------ N9.2 the bet
def test_n9_2_the_bet_changes_only_when_no_main_pot_is_carried():
    assert night(facts(1, carry_out=0), facts(2, "Beto", bet=2000)) == []
    assert night(facts(1, carry_out=3000), facts(2, "Beto", bet=2000, carry_in=3000)) == [
        (2, "R2.3", "error", "the bet changed from 10.00 to 20.00 while a pot of 30.00 is carried")]
    # a side pot carried does not hold the bet
    assert night(facts(1, side_out={"oro": 500}), facts(2, "Beto", bet=2000, side_in={"oro": 500})) == []


# ------------------------------------------------------------------ N9.3 the dealer
def test_n9_3_the_deal_passes_to_the_right_a_warning():
    assert night(facts(1, "Ana"), facts(2, "Beto"), facts(3, "Carla"), facts(4, "Ana")) == []
    assert night(facts(1, "Ana"), facts(2, "Carla")) == [
        (2, "R3.1", "warning", "the deal passes to the right: Beto deals this hand, not Carla")]


def test_n9_3_counting_only_the_players_seated_in_both_hands():
    # Beto, to Ana's right, left the table: Carla deals; Dani, new, is skipped over
    later = dict(players=("Ana", "Carla", "Dani"))
    assert night(facts(1, "Ana"), facts(2, "Carla", **later)) == []
    assert [b[1:3] for b in night(facts(1, "Ana"), facts(2, "Dani", **later))] == [("R3.1", "warning")]
    # the dealer left: the next seated in both, from where the deal was
    assert night(facts(1, "Beto"), facts(2, "Carla", players=("Ana", "Carla"))) == []
    # nobody seated in both: nothing to say
    assert night(facts(1, "Ana"), facts(2, "Dani", players=("Dani", "Eva"))) == []


def test_n9_3_a_void_hand_was_never_dealt():
    assert night(facts(1, "Ana"), facts(2, "Carla", status="void"), facts(3, "Beto")) == []
    assert laws.next_dealer(laws.table_after([facts(2, "Carla", status="void"), facts(1, "Ana")]), ABC) == "Beto"


# ------------------------------------------------------------------ a book's own
def test_a_books_hands_run_without_a_gap_none_after_a_close_or_an_open_hand():
    assert night(facts(1), facts(3, "Beto"), options=BOOK) == [
        (3, "N9", "error", "hand 2 is missing: the hands jump to 3")]
    assert night(facts(1), facts(3, "Beto")) == []  # a file's session numbers its hands itself
    assert night(facts(1, closes=True), facts(2, "Beto"), options=BOOK) == [
        (2, "N3", "error", "the table broke up after hand 1 (its Closed tag or `table close`): no hand follows")]
    assert night(facts(1, status="open"), facts(2, "Beto"), options=BOOK) == [
        (2, "N5.4", "error", "hand 1 was still being recorded when this hand was dealt")]


def test_a_session_starts_another_night_after_a_closed_tag():
    # the second night's first hand brings its carry in; any dealer may deal it
    assert night(facts(1, carry_out=3000, closes=True), facts(2, "Ana", carry_in=1000, bet=500)) == []


def test_each_law_is_a_function_of_the_hands():
    hands = [facts(1, carry_out=3000), facts(2, "Carla", bet=2000, carry_in=0)]
    assert [b.code for b in laws.carries(hands)] == ["R2.3"]
    assert [b.code for b in laws.bet(hands)] == ["R2.3"]
    assert [b.code for b in laws.dealer(hands)] == ["R3.1"]
    assert laws.numbers(hands, BOOK) == []
    assert [law.__name__ for law in laws.LAWS] == ["numbers", "after_close", "after_open", "carries", "bet",
                                                   "dealer"]


# ------------------------------------------------------------------ a table's changes
def test_a_bet_change_between_hands_only_with_no_main_pot_carried():
    assert laws.bet_change(Table(), 500) == []
    won = laws.table_after([facts(1)])
    assert laws.bet_change(won, 500) == []
    carried = laws.table_after([facts(1, carry_out=3000)])
    assert [(b.number, b.code, b.message) for b in laws.bet_change(carried, 50000)] == [
        (1, "R2.3", "the bet cannot change while a pot of 30.00 is carried: it changes once the pot is won")]
    assert laws.bet_change(carried, 1000) == []  # the bet it has
    playing = laws.table_after([facts(1, status="open")])
    assert [b.code for b in laws.bet_change(playing, 500)] == ["R2.2"]


# ------------------------------------------------------------------ N9.4 returns
def test_n9_4_returns_in_proportion_over_the_hands_the_pot_carried_through():
    one = facts(1, "Ana", carry_in=1000, carry_out=4000)  # 10.00 brought in + 3 antes of 10.00
    two = facts(2, "Beto", players=("Ana", "Beto", "Carla", "Dani"), carry_in=4000, carry_out=8000)
    table = laws.table_after([two, one], closed=True)
    # Ana, Beto, Carla put in 20.00 each, Dani 10.00: 80.00 back as 22.85 each and 11.42, and
    # the three cents left one each from Beto's right: Carla, Dani, Ana
    assert laws.returns(table) == {"main": {"Ana": 2286, "Beto": 2285, "Carla": 2286, "Dani": 1143}}


def test_n9_4_the_odd_cents_go_in_seat_order_from_the_last_dealers_right():
    table = laws.table_after([facts(1, "Beto", carry_out=1000)])
    assert laws.returns(table) == {"main": {"Ana": 333, "Beto": 333, "Carla": 334}}


def test_n9_4_side_stakes_refunded_were_put_in_no_pot():
    oro = ("oro", 500, ("Ana", "Carla"))
    one = facts(1, side_out={"oro": 1000}, sides=(oro,))
    # side-nowin=refund: hand 2's stakes (Beto's too) went back; the 10.00 carries on
    two = facts(2, "Beto", side_in={"oro": 1000}, side_out={"oro": 1000}, sides=(("oro", 500, ABC),))
    assert laws.returns(laws.table_after([two, one])) == {"oro": {"Ana": 500, "Carla": 500}}


# ------------------------------------------------------------------ one value, two sources
def test_facts_of_a_report_and_of_a_stored_row_are_the_same():
    """A row as the book's columns read it (their JSON decoded by the columns' own types,
    store/schema/codecs.py: the laws know no storage encoding)."""
    from types import SimpleNamespace

    text = peladilla_hand(carry="40", extra='[Side "oro 1 Ana Beto"]\n[SideCarry "oro 3"]')
    report = judge_text(text).hands[0]
    st = report.settlement
    row = SimpleNamespace(number=1, players="Ana Beto Carla Dani", dealer="Ana", bet=500, carry_in=4000,
                          sides=[("oro", 100, ["Ana", "Beto"])], side_carry={"oro": 300},
                          status="complete", carry_out=st.carry_out,
                          side_carry_out={p.game: p.carry_out for p in st.side_games})
    assert HandFacts.of_row(row) == HandFacts.of_report(report, 1)._replace(line=0)
