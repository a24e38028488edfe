"""R1 (cards, players, seats), the meld helpers of R8, and N2 (cards in the notation)."""

import pytest

from desmoche_ref.cards import parse_card, parse_unknown
from desmoche_ref.melds import RUN, SET, fits, has_a23, in_order, meld_kind, remove_card
from desmoche_ref.notation.parser import parse_text
from desmoche_ref.notation.writer import write_file

from helpers import (assert_error, assert_ok, friday, hand, line_of, raw, tags_text, verdict,
                     error_of)


def cards(text):
    return [parse_card(t) for t in text.split()]


# ---------------------------------------------------------------- R1.1 deck and players

def test_r1_1_two_three_or_four_players_are_accepted():
    for players in (("Ana", "Beto"), ("Ana", "Beto", "Carla"), ("Ana", "Beto", "Carla", "Dani")):
        text = raw(tags_text(players=players, dealer="Ana"), [])
        j = verdict(text)
        assert j["errors"] == [] and j["players"] == list(players)


def test_r1_1_five_players_is_an_error_at_the_players_tag():
    text = raw(tags_text(players=("Ana", "Beto", "Carla", "Dani", "Eva")), ["deal Beto ?x9"])
    assert_error(text, "N3", 1)


def test_r1_1_one_player_is_an_error_at_the_players_tag():
    text = raw(tags_text(players=("Ana",)), ["deal Ana ?x9"])
    assert_error(text, "N3", 1)


def test_r1_1_one_deck_every_card_once_a_53rd_card_cannot_be_dealt():
    # four players dealt 13 unknown cards each exhaust the deck: one more is impossible
    text = raw(tags_text(players=("Ana", "Beto", "Carla", "Dani"), dealer="Dani"),
               ["deal Ana ?x13", "deal Beto ?x13", "deal Carla ?x13", "deal Dani ?x13",
                "deal Ana ?"])
    assert_error(text, "N2.4", "deal Ana ?")


def test_r1_1_the_deck_has_52_distinct_cards_and_no_joker():
    names = [r + s for r in "A23456789TJQK" for s in "shdc"]
    assert len({parse_card(n) for n in names}) == 52
    for joker in ("Jk", "JK", "Xs", "1s", "0h", "11c", "Ax"):
        assert parse_card(joker) is None


# ---------------------------------------------------------------- R1.2 Ace high in comparisons

AUTO = {  # Beto's nine are the Peladilla of R6.1; no cambio is made
    "Beto": "As 3c 4d 7h 8s Td Js Qh Kd",
    "Carla": "5s 5h 5d 2c Ad Jh Ks Qc 6h",
    "Ana": "2s 6s 9c Tc 3h 4c 8d 6d Ac",
}


def test_r1_2_ace_is_the_highest_card_in_a_side_game():
    text = hand(["declare Beto peladilla", "end", "show Carla Ad"], deal=AUTO,
                side=("oro 5 Ana Beto Carla",),
                pre=["announce Beto oro Kd", "announce Carla oro Ad"])
    j = assert_ok(text, "complete")
    (oro,) = j["side_games"]
    assert oro["winners"] == ["Carla"] and oro["cards"] == ["Ad"]


# ---------------------------------------------------------------- R1.3 Ace low in runs

def test_r1_3_a_2_3_is_a_run():
    assert meld_kind(cards("Ah 2h 3h")) == RUN
    text = hand(["draw Beto Ah", "meld Carla Ah 2h 3h", "pay Carla Kc"])
    assert_ok(text)


def test_r1_3_j_q_k_is_the_highest_run():
    assert meld_kind(cards("Jd Qd Kd")) == RUN


def test_r1_3_q_k_a_is_not_a_run():
    assert meld_kind(cards("Qs Ks As")) is None
    # Carla holds As and Ks after the cambio; Qs is in the stock
    text = hand(["draw Beto Qs", "meld Carla Qs Ks As"])
    assert_error(text, "R8.1", "meld Carla Qs Ks As")


def test_r1_3_k_a_2_is_not_a_run():
    assert meld_kind(cards("Kh Ah 2h")) is None
    assert meld_kind(cards("Qh Kh Ah 2h")) is None


def test_r1_3_ace_does_not_extend_a_run_above_the_king():
    assert not fits(parse_card("Ac"), cards("Jc Qc Kc"))
    assert fits(parse_card("Ac"), cards("2c 3c 4c"))


# ---------------------------------------------------------------- R1.4 nine-card rule

def test_r1_4_winner_has_exactly_ten_all_on_the_table():
    j = assert_ok(friday(), "complete")
    assert j["outcome"]["kind"] == "win" and j["outcome"]["winners"] == ["Carla"]
    assert j["outcome"]["line"] == line_of(friday(), "add Carla 7d")


def test_r1_4_nine_on_the_table_is_not_a_win():
    # after `pay Carla As` Carla has nine down and none in hand: the hand goes on
    text = friday()
    cut = line_of(text, "pay Carla As")
    text = "\n".join(text.split("\n")[:cut]) + "\n"
    j = assert_ok(text, "incomplete")
    assert j["outcome"] is None


def test_r1_4_a_player_may_not_pay_a_card_not_held_after_taking():
    # Beto takes 2d with two cards from hand: ten cards, seven in hand; paying a card he does
    # not hold is N2.5
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 9h"])
    assert_error(text, "N2.5", "pay Beto 9h")


# ---------------------------------------------------------------- R8 helpers (meld shapes)

@pytest.mark.parametrize("text,kind", [
    ("8s 8h 8c", SET), ("8s 8h 8c 8d", SET), ("8s 9s Ts", RUN), ("8s Ts 9s", RUN),
    ("As 2s 3s 4s 5s 6s 7s 8s 9s Ts", RUN), ("4h 5h 6h 7h 8h 9h Th Jh Qh Kh", RUN),
])
def test_r8_1_valid_meld_shapes(text, kind):
    assert meld_kind(cards(text)) == kind


@pytest.mark.parametrize("text", [
    "8s 8h", "8s 9s", "8s 9s Th", "8s 8h 9s", "8s 9s Js", "Qs Ks As", "8s 8h 8c 8d 9s",
    "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js",
])
def test_r8_1_invalid_meld_shapes(text):
    assert meld_kind(cards(text)) is None


def test_r8_1_a_set_has_at_most_four_cards():
    assert meld_kind(cards("8s 8h 8c 8d")) == SET
    # five of one rank cannot exist in one deck: a set of four can only be completed once
    assert not fits(parse_card("8d"), cards("8s 8h 8c 8d"))


def test_r8_1_a_run_has_at_most_ten_cards():
    ten = cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts")
    assert meld_kind(ten) == RUN
    assert not fits(parse_card("Js"), ten)
    assert meld_kind(ten + [parse_card("Js")]) is None


def test_r8_2_a_run_grows_at_either_end_a_set_to_four():
    run = cards("5d 6d 7d")
    assert fits(parse_card("4d"), run) and fits(parse_card("8d"), run)
    assert not fits(parse_card("9d"), run) and not fits(parse_card("4h"), run)
    assert fits(parse_card("9c"), cards("9s 9d 9h"))
    assert not fits(parse_card("9c"), cards("9s 9d 9h 9c"))


def test_r8_4_strict_order_helpers():
    assert in_order(cards("8s 9s Ts")) and not in_order(cards("8s Ts 9s"))
    assert in_order(cards("8s 8h 8c")) and not in_order(cards("8s 8c 8h"))
    assert in_order(cards("8h 8s 8d 8c"))


def test_r8_5_a_run_split_in_the_middle_leaves_two_runs():
    parts = remove_card(cards("3c 4c 5c 6c 7c 8c 9c"), parse_card("6c"))
    assert sorted(map(sorted, parts)) == sorted(map(sorted, [cards("3c 4c 5c"), cards("7c 8c 9c")]))
    assert remove_card(cards("8s 8h 8c 8d"), parse_card("8d")) == [cards("8s 8h 8c")]


def test_r12_2_a23_helper_counts_only_runs_with_a_2_3():
    assert has_a23(cards("Ah 2h 3h")) and has_a23(cards("Ah 2h 3h 4h"))
    assert not has_a23(cards("2h 3h 4h")) and not has_a23(cards("Ah As Ac"))


# ---------------------------------------------------------------- N2 cards in the notation

@pytest.mark.parametrize("token", ["Ts", "TS", "10s", "10S", "10♠", "t♤", "T♠"])
def test_n2_1_card_spellings_are_one_card(token):
    assert parse_card(token) == parse_card("Ts")


@pytest.mark.parametrize("token,canon", [("ah", "Ah"), ("10♦", "Td"), ("K♣", "Kc"), ("q♡", "Qh"),
                                         ("2♢", "2d"), ("9♧", "9c")])
def test_n2_2_writer_emits_rank_letter_and_lower_case_suit(token, canon):
    text = raw(tags_text(), [f"draw Beto {token}"])
    out = write_file(parse_text(text))
    assert out.rstrip("\n").split("\n")[-1] == f"draw Beto {canon}"


def test_n2_1_not_a_card_is_an_error():
    text = hand(["draw Beto 1s"])
    assert_error(text, "N2.1", "draw Beto 1s")


def test_n2_1_unicode_suits_are_read_in_a_record():
    text = hand(["draw Beto 2♦", "meld Beto 2♠ 2♢ 2♣", "pay Beto 7♣"])
    assert_ok(text)


def test_n2_3_unknown_cards_allowed_in_deal_cambio_return():
    assert parse_unknown("?") == 1 and parse_unknown("?x9") == 9 and parse_unknown("?x13") == 13
    assert parse_unknown("?x0") is None and parse_unknown("?x14") is None


@pytest.mark.parametrize("event", ["draw Beto ?", "pay Beto ?", "meld Beto 2s 2d ?"])
def test_n2_3_unknown_card_where_a_face_is_seen_is_an_error(event):
    text = raw(tags_text(), ["deal Beto ?x9", "deal Carla ?x9", "deal Ana ?x9", "cambio Beto ?",
                             "cambio Carla ?", "cambio Ana ?", event])
    assert_error(text, "N2.3", event)


def test_n2_3_more_than_thirteen_unknown_is_not_a_card():
    text = raw(tags_text(), ["deal Beto ?x14"])
    assert_error(text, "N2.1", "deal Beto ?x14")


def test_n2_3_a_record_with_unknown_cards_is_closed_and_judged():
    text = raw(tags_text(), ["deal Beto ?x9", "deal Carla ?x9", "deal Ana ?x9", "cambio Beto ?",
                             "cambio Carla ?", "cambio Ana ?", "draw Beto 2d",
                             "meld Beto 2s 2d 2c", "pay Beto 7c"])
    assert_ok(text, "incomplete")


def test_n2_4_a_card_dealt_twice_is_an_error_at_the_second_place():
    deal = dict(Beto="2s 3s 4h 7c 8d Th Jc Qd Ks", Carla="As 2h 3h 9s 9c 5d 6d Kc 2s",
                Ana="4s 5s 6s 8h 8c Jd Jh 2c Ac")
    text = hand([], deal=deal)
    assert_error(text, "N2.4", "deal Carla As 2h 3h 9s 9c 5d 6d Kc 2s")


def test_n2_4_a_card_listed_twice_on_one_line():
    # the conformance case invalid-meld.dsm: `meld Carla 4d 5d 6d 6d`
    text = friday().replace("meld Carla 4d 5d 6d\n", "meld Carla 4d 5d 6d 6d\n")
    assert_error(text, "N2.4", "meld Carla 4d 5d 6d 6d")


def test_n2_4_drawing_a_card_held_by_a_player_is_an_error():
    text = hand(["draw Beto Jd"])  # Jd is in Ana's hand
    assert_error(text, "N2.4", "draw Beto Jd")


def test_n2_4_drawing_a_dead_card_again_is_an_error():
    text = hand(["draw Beto 7s", "draw Beto 8s", "draw Carla 7s"])
    assert_error(text, "N2.4", "draw Carla 7s")


def test_n2_5_paying_a_card_from_another_players_hand():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto Jd"])  # Jd is Ana's
    j = verdict(text)
    assert j["status"] == "invalid"
    # Jd is known to be in Ana's hand: "known to be elsewhere" (N2.4) comes before N2.5
    assert error_of(j) == ("N2.4", line_of(text, "pay Beto Jd"))


def test_n2_5_laying_a_card_not_in_hand():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2h"])  # 2h is Carla's
    j = verdict(text)
    assert error_of(j) == ("N2.4", line_of(text, "meld Beto 2s 2d 2h"))
    # a free card (in the stock) is not in Beto's hand: N2.5
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto Kh"])  # Kh is in the stock
    assert_error(text, "N2.5", "pay Beto Kh")


@pytest.mark.parametrize("event", ["announce Beto oro ?", "show Beto ?", "foul Beto hand ?",
                                   "declare Beto peladilla ? ? ? ? ? ? ? ? ?"])
def test_n2_3_unknown_cards_are_not_allowed_in_announce_show_foul_declare(event):
    text = raw(tags_text(side=("oro 1 Ana Beto",)),
               ["deal Beto ?x9", "deal Carla ?x9", "deal Ana ?x9", event])
    assert_error(text, "N2.3", event)
