"""R13 (passing), R14 (fouls and disqualification), F2-F5, N4.8 (fouls) and N4.9 (passes)."""

from helpers import (assert_error, assert_ok, fouls_of, foul_lines, friday, hand, line_of,
                     verdict, warnings_of, FRIDAY_PLAY)

# ---------------------------------------------------------------- R13 passing

PASS = {  # Ana will hold RULES' pass example: 10s 10h 10c 10d and Jh Qh Kh
    "Beto": "2s 3s 4h 7c 8d 9d Jc Qd Ks",
    "Carla": "As 2h 3h 9s 9c 5d 6d Kc Qs",
    "Ana": "Ts Th Tc Jh Qh 4s 5s 2c Ac",
}
PASS_CAMBIO = {"Beto": "Ks", "Carla": "Qs", "Ana": "2c"}
# after the cambio Ana: Ts Th Tc Jh Qh 4s 5s Ac Qs
PASS_PLAY = ["draw Beto Td", "meld Ana Ts Th Tc Td", "pay Ana Qs", "draw Beto Kh",
             "meld Ana Jh Qh Kh", "pay Ana 4s"]


def passing(extra, **tags):
    return hand(PASS_PLAY + list(extra), deal=PASS, cambio=PASS_CAMBIO, **tags)


def closed(events, **tags):
    return hand(events, deal={"Beto": "?x9", "Carla": "?x9", "Ana": "?x9"},
                cambio={"Beto": "?", "Carla": "?", "Ana": "?"}, **tags)


def test_r13_1_pass_example_tens_and_j_q_k_of_hearts_nothing_can_be_added():
    text = passing(["pass Ana"])
    j = assert_ok(text)
    assert j["warnings"] == []


def test_r13_1_only_direct_fits_count_not_after_rearranging():
    # 9h is in the stock: it would fit 9h Th Jh Qh Kh if Th moved out of the four tens, but
    # only direct additions count, so the pass of the example is still allowed
    assert "9h" not in " ".join(PASS.values())
    assert_ok(passing(["pass Ana"]))


def test_r13_1_a_player_without_a_meld_cannot_pass():
    text = hand(["draw Beto 7s", "pass Carla"])
    assert_error(text, "R13.1", "pass Carla")


def test_r13_2_a_pass_that_a_card_in_the_stock_could_extend_is_refused():
    # Ana's 4s 5s 6s 7s: 8s is still in the stock
    text = hand(["draw Beto 7s", "meld Ana 4s 5s 6s 7s", "pay Ana Qh", "pass Ana"])
    assert_error(text, "R13.2", "pass Ana")


def test_r13_2_a_pass_refused_when_a_stock_card_extends_a_meld_of_the_open_example():
    # Carla's A-2-3 of hearts fits 4h (Beto's) only; 9s 9c 9d fits 9h (in the stock): refused
    text = friday().split("draw Ana Ah")[0] + "pass Carla\n"
    assert_error(text, "R13.2", "pass Carla")


def test_n4_9_pass_accepted_with_a_warning_when_a_fitting_cards_place_is_unknown():
    text = closed(["draw Beto 7s", "meld Ana 4s 5s 6s 7s", "pay Ana Qh", "pass Ana"])
    j = assert_ok(text)
    assert warnings_of(j) == [("R13.2", line_of(text, "pass Ana"))]


def test_n4_9_pass_accepted_silently_when_every_fitting_card_is_known_elsewhere():
    text = closed(["draw Beto Td", "meld Ana Ts Th Tc Td", "pay Ana Qs", "draw Beto Kh",
                   "meld Ana Jh Qh Kh", "pay Ana 4s", "pass Ana"])
    j = assert_ok(text)
    assert j["warnings"] == []


def test_n4_9_a_pass_outside_ones_own_action_leaves_the_card_on_offer():
    # Ana paid 4s and passes at once; Beto (her right) takes the 4s
    text = passing(["pass Ana", "meld Beto 2s 3s 4s", "pay Beto 7c"])
    assert_ok(text)


def test_n4_9_no_pass_in_the_middle_of_ones_own_action():
    text = hand(["draw Beto Td", "meld Ana Ts Th Tc Td", "pass Ana"], deal=PASS,
                cambio=PASS_CAMBIO)
    assert_error(text, "R13.1", "pass Ana")


def test_r13_1_a_passed_player_takes_no_more_cards():
    # Ana keeps 4s 5s, passes; Beto draws 6s, which would make her a run: she may not take it
    play = [l.replace("pay Ana 4s", "pay Ana Ac") for l in PASS_PLAY]
    text = hand(play + ["pass Ana", "draw Beto 6s", "meld Ana 4s 5s 6s"], deal=PASS,
                cambio=PASS_CAMBIO)
    assert_error(text, "R7.5", "meld Ana 4s 5s 6s")


def test_r13_1_a_passed_player_draws_no_more():
    # Carla's dead card: her right is Ana, who passed: Beto draws
    base = ["pass Ana", "draw Beto 7s", "draw Carla 8s"]
    assert_ok(passing(base + ["draw Beto 9h"]))
    text = passing(base + ["draw Ana 9h"])
    assert_error(text, "R7.6", "draw Ana 9h")


def test_r13_1_a_player_passes_once():
    text = passing(["pass Ana", "pass Ana"])
    j = verdict(text)
    assert j["status"] == "invalid"
    assert (j["errors"][0]["code"], j["errors"][0]["line"]) == ("R13.1", line_of(text, "pass Ana", 2))


def test_r9_4_a_passed_player_is_never_forced():
    # Ana: 4s 5s 6s 7s and 8s 8h 8c; what fits them (3s, 8d) is in Beto's hand, so her pass is
    # accepted; Beto pays 8d, which fits Ana's set, and it may go dead under forcing
    text = hand(["draw Beto 7s", "meld Ana 4s 5s 6s 7s", "pay Ana Qh", "draw Beto 8s",
                 "meld Ana 8s 8h 8c", "pay Ana Jd", "pass Ana", "draw Beto 2d",
                 "meld Beto 2s 2d 2c", "pay Beto 8d", "draw Carla 9h"], options="forcing")
    j = assert_ok(text)
    assert j["warnings"] == []


TWO = {"Beto": "2s 3s 4s 5s 6s 7s 8s Kd 9d", "Ana": "Qc Qh Qs Kc Kh Ks 2c 3c 5h"}
TWO_CAMBIO = {"Beto": "9d", "Ana": "5h"}
# after the cambio Beto: 2s..8s Kd 5h; Ana: Qc Qh Qs Kc Kh Ks 2c 3c 9d
TWO_ANA = ["draw Beto Qd", "meld Ana Qc Qh Qs Qd", "meld Ana Kc Kh Ks", "pay Ana 2c"]


def two(extra, **tags):
    return hand(TWO_ANA + list(extra), players=("Ana", "Beto"), deal=TWO, cambio=TWO_CAMBIO,
                **tags)


def test_r13_3_a_passed_player_is_a_loser_but_never_up_the_tree():
    # Ana passes (Kd, the one card that fits, is in Beto's hand); Beto then lays As..Ts
    text = two(["pass Ana", "draw Beto 9s", "meld Beto 2s 3s 4s 5s 6s 7s 8s 9s", "pay Beto Kd",
                "draw Beto Ts", "add Beto Ts", "pay Beto 5h", "draw Beto As", "add Beto As"],
               options="todo")
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"]
    assert sorted((b["kind"], b["from"]) for b in j["bonuses"]) == [("color", "Ana"),
                                                                   ("mico", "Ana")]
    assert j["net"] == {"Ana": "-30.00", "Beto": "30.00"}


# ---------------------------------------------------------------- R14 fouls

def test_f2_peek_disqualifies():
    text = hand(["draw Beto 7s", "draw Beto 8s", "foul Carla peek"])
    j = assert_ok(text)
    assert foul_lines(j) == [(line_of(text, "foul Carla peek"), "Carla", "F2", True)]


def test_f3_a_card_put_into_the_hand_from_the_offer_leaves_play():
    text = hand(["draw Beto 7s", "foul Beto hand 7s", "draw Carla 8s"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Beto", "F3", True)]
    # the card is out of play: nobody can take it
    text = hand(["draw Beto 7s", "foul Beto hand 7s", "meld Ana 4s 5s 6s 7s"])
    assert verdict(text)["status"] == "invalid"


def test_n4_8_f3_on_the_card_on_offer_next_draw_is_by_the_players_right():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c", "draw Carla 7s",
                 "foul Carla hand 7s", "draw Ana 8s"])
    assert_ok(text)
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c", "draw Carla 7s",
                 "foul Carla hand 7s", "draw Beto 8s"])
    assert_error(text, "R7.6", "draw Beto 8s")


def test_f3_a_card_from_the_discard_pile():
    text = hand(["draw Beto 7s", "draw Beto 8s", "foul Ana hand 7s", "draw Carla Ts"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F3", True)]


def test_f3_the_card_must_be_where_a_hand_could_take_it_from():
    text = hand(["draw Beto 7s", "foul Ana hand Jc"])  # Jc is in Beto's hand
    assert_error(text, "N2.4", "foul Ana hand Jc")


def test_f5_other_in_words():
    text = hand(["draw Beto 7s", "foul Carla other showed her cards to Ana"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Carla", "F5", True)]


def test_f4_strict_meld_out_of_order_found_by_the_referee():
    text = hand(["draw Beto 7s", "meld Ana 4s 5s 7s 6s", "pay Ana Qh"], options="strict")
    j = verdict(text)
    assert foul_lines(j) == [(line_of(text, "meld Ana 4s 5s 7s 6s"), "Ana", "F4", True)]


def test_n4_8_f4_found_and_written_right_after_are_one_foul():
    text = hand(["draw Beto 7s", "meld Ana 4s 5s 7s 6s", "foul Ana arrangement"],
                options="strict")
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F4", True)]


def test_n4_8_f1_found_and_written_right_after_are_one_foul():
    text = hand(["foul Ana misdeal", "cambio Carla Qh"],
                deal={"Beto": "2s 3s 4h 7c 8d Th Jc Qd Ks", "Carla": "As 2h 3h 9s 9c 5d 6d Kc Qh",
                      "Ana": "4s 5s 6s 8h 8c Jd Jh 2c Ac Kh"},
                pre=["return Ana Kh", "cambio Beto Ks"], cambio={})
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F1", True)]


def test_n4_8_a_foul_line_is_recorded_as_written_even_without_strict():
    text = hand(["draw Beto 7s", "meld Ana 4s 5s 6s 7s", "foul Ana arrangement"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F4", True)]


def test_r14_3_a_forgiven_foul_is_recorded_as_not_enforced_and_play_goes_on():
    text = hand(["draw Beto 7s", "foul Ana peek", "forgive Ana", "meld Ana 4s 5s 6s 7s",
                 "pay Ana Qh"])
    j = assert_ok(text)
    assert foul_lines(j) == [(line_of(text, "foul Ana peek"), "Ana", "F2", False)]


def test_n4_8_a_forgiven_f3_puts_the_card_back_on_offer():
    text = hand(["draw Beto 7s", "foul Beto hand 7s", "forgive Beto", "meld Ana 4s 5s 6s 7s",
                 "pay Ana Qh"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Beto", "F3", False)]


def test_r14_3_forgive_must_come_right_after_the_foul():
    text = hand(["draw Beto 7s", "foul Ana peek", "draw Beto 8s", "forgive Ana"])
    assert_error(text, "R14.3", "forgive Ana")


def test_r14_3_forgive_without_a_foul_is_out_of_place():
    text = hand(["draw Beto 7s", "forgive Carla"])
    assert_error(text, "R14.3", "forgive Carla")


def test_r14_3_forgive_names_the_fouled_player():
    text = hand(["draw Beto 7s", "foul Ana peek", "forgive Carla"])
    assert_error(text, "R14.3", "forgive Carla")


def test_r14_1_a_disqualified_players_cards_leave_play():
    text = hand(["draw Beto 7s", "foul Ana peek", "meld Ana 4s 5s 6s 7s"])
    j = verdict(text)
    assert j["status"] == "invalid"
    assert j["errors"][0]["line"] == line_of(text, "meld Ana 4s 5s 6s 7s")
    # and her melds too: Carla cannot draw one of them
    text = hand(["draw Beto 7s", "meld Ana 4s 5s 6s 7s", "pay Ana Qh", "foul Ana peek",
                 "draw Beto 6s"])
    assert_error(text, "N2.4", "draw Beto 6s")


def test_r14_4_turns_skip_a_disqualified_player():
    # Carla is out; Beto's dead card: Carla would draw, Ana does
    base = ["draw Beto 7s", "foul Carla peek", "draw Beto 8s"]
    assert_ok(hand(base + ["draw Ana Ts"]))
    assert_error(hand(base + ["draw Carla Ts"]), "R7.6", "draw Carla Ts")


def test_n4_8_a_disqualified_players_card_on_offer_stays_on_offer():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 8d", "foul Beto peek",
                 "meld Ana 8h 8d 8c", "pay Ana Qh"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Beto", "F2", True)]


def test_r14_5_disqualified_during_own_action_does_not_pay_next_draw_by_their_right():
    base = ["draw Beto 2d", "meld Beto 2s 2d 2c", "foul Beto peek"]
    assert_ok(hand(base + ["draw Carla 7s"]))
    assert_error(hand(base + ["pay Beto 7c"]), "N2.4", "pay Beto 7c")
    assert_error(hand(base + ["draw Ana 7s"]), "R7.6", "draw Ana 7s")


def test_r14_4_a_single_player_left_plays_on_and_being_last_is_not_a_win():
    text = hand(["draw Beto 7s", "foul Carla peek", "foul Ana other left the table"])
    j = assert_ok(text, "incomplete")
    assert j["outcome"] is None
    # Beto draws alone
    assert_ok(hand(["draw Beto 7s", "foul Carla peek", "foul Ana other left", "draw Beto 8s",
                    "draw Beto Ts"]))


def test_r14_4_no_player_left_ends_the_hand_without_a_winner():
    text = hand(["draw Beto 7s", "foul Carla peek", "foul Ana peek", "foul Beto peek"])
    j = assert_ok(text, "complete")
    assert j["outcome"] == {"kind": "no-winner", "winners": [], "auto": None,
                            "line": line_of(text, "foul Beto peek")}
    assert j["carry_out"] == "30.00"


def test_n5_4_the_last_pass_decides_a_hand_with_no_player_left():
    # two players: Beto is disqualified, Ana passes: no one is left
    text = two(["foul Beto peek", "pass Ana"])
    j = assert_ok(text, "complete")
    assert j["outcome"]["kind"] == "no-winner"
    assert j["outcome"]["line"] == line_of(text, "pass Ana")


def tenth_out_of_order(extra):
    # the open example under strict; Carla's winning line moves 4d 5d 6d into a new run
    # with the 7d, written in descending order: F4 on the tenth card
    play = FRIDAY_PLAY[:FRIDAY_PLAY.index("draw Carla 7d") + 1]
    return hand(play[4:] + ["meld Carla 7d 6d 5d 4d"] + list(extra), pre=play[:1],
                options="todo strict", side=("oro 5 Ana Beto Carla",))


def test_n4_8_f4_on_the_tenth_card_the_win_stands_if_forgiven():
    text = tenth_out_of_order(["forgive Carla"])
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Carla"]
    assert foul_lines(j) == [(line_of(text, "meld Carla 7d 6d 5d 4d"), "Carla", "F4", False)]


def test_n4_8_f4_on_the_tenth_card_without_forgiveness_the_win_falls():
    text = tenth_out_of_order([])
    j = assert_ok(text, "incomplete")
    assert j["outcome"] is None
    assert fouls_of(j) == [("Carla", "F4", True)]
    # play goes on: the next draw is by Carla's right
    assert_ok(tenth_out_of_order(["draw Ana 9h"]))



def test_r13_2_a_card_known_to_be_back_in_the_stock_refuses_the_pass_in_a_closed_record():
    # Ana (dealer) got a tenth card, Kh, which went back: the stock is known to hold Kh
    text = hand(["return Ana Kh", "cambio Beto ?", "cambio Carla ?", "draw Beto Ks",
                 "meld Carla Ks Kc Kd", "pay Carla 2c", "pass Carla"],
                deal={"Beto": "?x9", "Carla": "?x9", "Ana": "?x9 Kh"}, cambio={})
    j = assert_error(text, "R13.2", "pass Carla")
    assert fouls_of(j) == [("Ana", "F1", True)]


def test_f3_a_card_from_the_stock_leaves_play():
    text = hand(["draw Beto 7s", "foul Ana hand 9h", "draw Beto 8s", "draw Carla 9h"])
    j = assert_error(text, "N2.4", "draw Carla 9h")
    assert fouls_of(j) == [("Ana", "F3", True)]


def test_n4_8_a_forgiven_f3_from_the_stock_leaves_the_card_in_the_stock():
    text = hand(["draw Beto 7s", "foul Ana hand 9h", "forgive Ana", "draw Beto 8s",
                 "draw Carla 9h"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F3", False)]


def test_r14_3_a_forgiven_f4_leaves_the_player_in_their_action():
    text = hand(["draw Beto 7s", "meld Ana 7s 6s 5s 4s", "forgive Ana", "pay Ana Qh",
                 "draw Beto 8s"], options="strict")
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F4", False)]


def test_r14_5_f3_during_ones_own_action():
    base = ["draw Beto 2d", "meld Beto 2s 2d 2c", "foul Beto hand 9h"]
    j = assert_ok(hand(base + ["draw Carla 7s"]))
    assert fouls_of(j) == [("Beto", "F3", True)]


def test_r14_3_forgive_after_the_written_copy_of_a_found_foul():
    # F4 found on the meld line, written by the table on the next line, forgiven after it
    text = hand(["draw Beto 7s", "meld Ana 4s 5s 7s 6s", "foul Ana arrangement",
                 "forgive Ana", "pay Ana Qh"], options="strict")
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F4", False)]


def test_n4_8_f4_on_the_tenth_card_written_then_forgiven_is_one_forgiven_foul():
    text = tenth_out_of_order(["foul Carla arrangement", "forgive Carla"])
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Carla"]
    assert fouls_of(j) == [("Carla", "F4", False)]


def test_n4_8_f3_on_the_first_card_the_next_draw_is_by_the_players_right():
    base = ["draw Beto 7s", "foul Beto hand 7s", "draw Carla 8s"]
    j = assert_ok(hand(base + ["draw Ana Ts"]))
    assert fouls_of(j) == [("Beto", "F3", True)]
    # Carla's card is not the hand's first card: she does not draw again
    text = hand(base + ["draw Carla Ts"])
    j = verdict(text)
    assert j["status"] == "invalid" and j["errors"][0]["line"] == line_of(text, "draw Carla Ts")
