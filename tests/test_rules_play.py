"""R7 (play), R8 (melds), R9 (forcing), R10 (winning) and N4.1-N4.4 (actions in a record).

The default deal (helpers.DEAL, dealer Ana) leaves after the cambio:
    Beto : 2s 3s 4h 7c 8d Th Jc Qd 2c      (Beto plays first)
    Carla: As 2h 3h 9s 9c 5d 6d Kc Ks
    Ana  : 4s 5s 6s 8h 8c Jd Jh Ac Qh
    stock: 7s 8s Ts Js Qs Ah 5h 6h 7h 9h Kh Ad 2d 3d 4d 7d 9d Td Kd 3c 4c 5c 6c Tc Qc
"""

from helpers import (DEAL, FRIDAY_PLAY, assert_error, assert_ok, fouls_of, foul_lines, friday,
                     hand, line_of, stock_of, verdict)


def friday_until(event, extra=(), **tags):
    """The open example cut after `event` (a line of FRIDAY_PLAY), then `extra` lines."""
    play = FRIDAY_PLAY[:FRIDAY_PLAY.index(event) + 1] + list(extra)
    tags.setdefault("options", "todo")
    return hand(play[4:], pre=play[:1], **tags)


# ---------------------------------------------------------------- R7.1 the first draw

def test_r7_1_the_first_card_is_drawn_by_the_dealers_right():
    assert_ok(hand(["draw Beto 7s"]))


def test_r7_1_a_first_draw_by_another_player_is_an_error():
    text = hand(["draw Carla 7s"])
    assert_error(text, "R7.1", "draw Carla 7s")


def test_r7_1_a_drawn_card_never_enters_the_hand():
    # paying the card just drawn, as if it were in hand: it is on offer, not in hand
    text = hand(["draw Beto 7s", "pay Beto 7s"])
    assert_error(text, "N2.4", "pay Beto 7s")


# ---------------------------------------------------------------- R7.2 / N4.2 the take

def test_r7_2_the_taker_places_the_card_in_a_new_meld_with_cards_from_hand():
    assert_ok(hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c"]))


def test_r7_2_the_taker_may_add_the_card_to_one_of_their_melds():
    text = friday_until("pay Carla Kc", ["draw Ana 7d", "add Carla 7d", "pay Carla 9s"])
    assert_ok(text)


def test_n4_2_take_must_place_card_on_offer():
    text = hand(["draw Beto 2d", "meld Ana 4s 5s 6s"])
    assert_error(text, "R7.2", "meld Ana 4s 5s 6s")


def test_n4_2_the_first_line_of_an_action_must_be_the_take_even_if_a_later_line_would_be():
    text = hand(["draw Beto 7s", "meld Ana 4s 5s 6s", "add Ana 7s"])
    assert_error(text, "R7.2", "meld Ana 4s 5s 6s")


def test_n4_1_the_source_of_each_card_is_worked_out_by_the_referee():
    # 7s from the offer, 4s 5s 6s from hand; later 8s on offer plus 8h 8c from hand
    text = hand(["draw Beto 7s", "meld Ana 4s 5s 6s 7s", "pay Ana Qh", "draw Beto 8s",
                 "meld Ana 8s 8h 8c", "pay Ana Jd"])
    assert_ok(text)


def test_n4_2_each_meld_line_must_itself_be_a_valid_meld():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d"])
    assert_error(text, "R8.1", "meld Beto 2s 2d")


def test_n4_2_each_add_line_must_leave_its_meld_valid():
    text = friday_until("pay Carla Kc", ["draw Ana 7d", "add Carla 7d", "add Carla 9s"])
    assert_error(text, "R8.2", "add Carla 9s")


# ---------------------------------------------------------------- R7.3 laying more

def test_r7_3_the_taker_may_lay_further_melds_from_hand():
    text = hand(["draw Beto 8s", "meld Ana 8s 8h 8c", "meld Ana 4s 5s 6s", "pay Ana Qh"])
    j = assert_ok(text)
    assert j["errors"] == []


def test_r7_3_hand_melds_off_every_new_meld_must_contain_the_taken_card():
    text = hand(["draw Beto 8s", "meld Ana 8s 8h 8c", "meld Ana 4s 5s 6s"],
                options="hand-melds=off")
    assert_error(text, "R7.3", "meld Ana 4s 5s 6s")


def test_r7_3_hand_melds_off_still_allows_adding_from_hand():
    text = friday_until("pay Carla Kc", ["draw Ana 7d", "add Carla 7d", "pay Carla 9s"],
                        options="todo hand-melds=off")
    assert_ok(text)


def test_r7_3_no_laying_during_another_players_action():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "meld Ana 4s 5s 6s"])
    assert_error(text, "R7.3", "meld Ana 4s 5s 6s")


def test_r7_3_no_laying_with_nothing_on_offer():
    # after the cambio, before the first draw: nothing can be taken (the N5.1 row
    # "nothing on offer to take or claim")
    text = hand(["meld Ana 4s 5s 6s"])
    assert_error(text, "R7.9", "meld Ana 4s 5s 6s")


# ---------------------------------------------------------------- R7.4 paying

def test_r7_4_pay_without_a_take_is_an_error():
    text = hand(["draw Beto 7s", "pay Beto 7c"])
    assert_error(text, "R7.4", "pay Beto 7c")


def test_r7_4_the_taker_must_pay_before_the_next_draw():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "draw Carla 7s"])
    assert_error(text, "R7.4", "draw Carla 7s")


def test_r7_4_the_paid_card_goes_on_offer_and_can_be_taken():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 8d", "meld Ana 8h 8d 8c",
                 "pay Ana Qh"])
    assert_ok(text)


def test_r7_4_a_second_pay_in_one_action_is_an_error():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 8d", "pay Beto 7c"])
    assert_error(text, "R7.4", "pay Beto 7c")


# ---------------------------------------------------------------- R7.5 priority

def test_r7_5_drawer_comes_first_when_several_claim():
    text = hand(["draw Beto 7s", "claim Ana", "claim Beto", "meld Ana 4s 5s 6s 7s"])
    assert_error(text, "R7.5", "meld Ana 4s 5s 6s 7s")


def test_r7_5_after_the_drawer_the_order_starts_at_the_drawers_right():
    text = hand(["draw Beto 7s", "claim Ana", "claim Carla", "meld Ana 4s 5s 6s 7s"])
    assert_error(text, "R7.5", "meld Ana 4s 5s 6s 7s")


def test_r7_5_a_paid_card_goes_first_to_the_payers_right():
    # Beto pays 8d: Carla then Ana; both claim; Ana may not take it
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 8d", "claim Ana",
                 "claim Carla", "meld Ana 8h 8d 8c"])
    assert_error(text, "R7.5", "meld Ana 8h 8d 8c")


def test_r7_5_the_payer_may_not_take_back_what_they_paid():
    deal = dict(DEAL, Carla="As 2h 3h 9s 9c 5d 6d 7d Kc")
    text = hand(["draw Beto 4d", "meld Carla 4d 5d 6d", "pay Carla 7d", "add Carla 7d"],
                deal=deal, cambio={"Beto": "Ks", "Carla": "Kc", "Ana": "2c"})
    assert_error(text, "R7.5", "add Carla 7d")


def test_r7_5_paid_card_claimed_by_the_payer_is_an_error():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 8d", "claim Beto"])
    assert_error(text, "R7.5", "claim Beto")


# ---------------------------------------------------------------- N4.3 knock and claim

def test_n4_3_a_knocker_who_takes_anyway_is_not_refused():
    assert_ok(hand(["draw Beto 7s", "knock Ana", "meld Ana 4s 5s 6s 7s", "pay Ana Qh"]))


def test_n4_3_a_single_claim_binds_no_one():
    assert_ok(hand(["draw Beto 7s", "claim Carla", "meld Ana 4s 5s 6s 7s", "pay Ana Qh"]))


def test_n4_3_a_claimant_may_let_the_card_go():
    text = hand(["draw Beto 7s", "claim Carla", "claim Ana", "knock Carla",
                 "meld Ana 4s 5s 6s 7s", "pay Ana Qh"])
    assert_ok(text)


def test_n4_3_an_untaken_card_needs_no_line_the_next_draw_says_it_went_dead():
    j = assert_ok(hand(["draw Beto 7s", "draw Beto 8s", "draw Carla Ts"]))
    assert j["errors"] == []


# ---------------------------------------------------------------- R7.6 turn order

def test_r7_6_after_a_dead_paid_card_the_payers_right_draws_even_skipping_players():
    # Ana took Beto's card; her paid Qh goes dead: Beto (Ana's right) draws, Carla is skipped
    base = ["draw Beto 8s", "meld Ana 8s 8h 8c", "pay Ana Qh"]
    assert_ok(hand(base + ["draw Beto 7s"]))
    text = hand(base + ["draw Carla 7s"])
    assert_error(text, "R7.6", "draw Carla 7s")


def test_r7_6_after_a_dead_drawn_card_the_drawers_right_draws():
    text = hand(["draw Beto 7s", "draw Beto 8s", "draw Carla Ts", "draw Carla Js"])
    assert_error(text, "R7.6", "draw Carla Js")


def test_r7_6_after_a_dead_paid_card_only_the_payers_right_draws():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c", "draw Ana 7s"])
    assert_error(text, "R7.6", "draw Ana 7s")


# ---------------------------------------------------------------- R7.7 the first card

def test_r7_7_first_card_redrawn_by_same_player():
    assert_ok(hand(["draw Beto 7s", "draw Beto 8s", "draw Carla Ts", "draw Ana Js",
                    "draw Beto Qs"]))


def test_r7_7_the_second_card_drawn_by_another_player_is_an_error():
    text = hand(["draw Beto 7s", "draw Carla 8s"])
    assert_error(text, "R7.7", "draw Carla 8s")


def test_r7_7_only_the_first_card_is_redrawn():
    text = hand(["draw Beto 7s", "draw Beto 8s", "draw Beto Ts"])
    assert_error(text, "R7.6", "draw Beto Ts")


def test_r7_7_a_taken_first_card_is_not_redrawn():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c", "draw Beto 7s"])
    assert_error(text, "R7.6", "draw Beto 7s")


# ---------------------------------------------------------------- R7.8 / R7.9

def test_r7_8_taking_is_voluntary_a_fitting_card_may_go_dead():
    # 7d fits Carla's 4d 5d 6d; without forcing nobody has to take it: it goes dead
    text = friday_until("pay Carla Kc", ["draw Ana 7d", "draw Beto 7s"])
    assert_ok(text)


def test_r7_9_a_dead_card_cannot_be_taken():
    text = hand(["draw Beto 7s", "draw Beto 8s", "meld Ana 4s 5s 6s 7s"])
    assert_error(text, "N2.4", "meld Ana 4s 5s 6s 7s")


def test_r7_9_claim_with_nothing_on_offer():
    text = hand(["claim Beto"])
    assert_error(text, "R7.9", "claim Beto")


def test_r7_9_claim_during_an_action_with_nothing_on_offer():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "claim Carla"])
    assert_error(text, "R7.9", "claim Carla")


# ---------------------------------------------------------------- R8 melds in play

MULTI = {  # Carla can build 7s 7h 7c and 4d 5d 6d: 7d then fits both
    "Beto": "2s 3s 4h Tc 8d Th Jc Qd Ks",
    "Carla": "7s 7h 3h 9s 9c 5d 6d Kc Qh",
    "Ana": "4s 5s 6s 8h 8c Jd Jh 2c Ac",
}
MULTI_PLAY = ["draw Beto 7c", "meld Carla 7s 7h 7c", "pay Carla 3h", "draw Ana 4d",
              "meld Carla 4d 5d 6d", "pay Carla Kc", "draw Ana 7d"]


def multi(extra, **tags):
    return hand(MULTI_PLAY + list(extra), deal=MULTI,
                cambio={"Beto": "Ks", "Carla": "Qh", "Ana": "2c"}, **tags)


def test_r8_1_a_meld_of_two_is_not_a_meld():
    assert_error(hand(["draw Beto 2d", "meld Beto 2d 2c"]), "R8.1", "meld Beto 2d 2c")


def test_r8_1_a_mixed_run_is_not_a_meld():
    text = hand(["draw Beto 9h", "meld Beto 8d 9h Th"])
    assert_error(text, "R8.1", "meld Beto 8d 9h Th")


def test_r8_2_a_set_grows_to_four():
    assert_ok(multi(["add Carla 7d to 7s", "pay Carla 9c"]))


def test_r8_2_a_run_grows_at_either_end():
    assert_ok(multi(["add Carla 7d to 6d", "pay Carla 9c"]))
    text = hand(MULTI_PLAY[:-1] + ["draw Ana 3d", "add Carla 3d", "pay Carla 9c"], deal=MULTI,
                cambio={"Beto": "Ks", "Carla": "Qh", "Ana": "2c"})
    assert_ok(text)


def test_r8_2_add_that_fits_several_melds_needs_to_card():
    text = multi(["add Carla 7d"])
    assert_error(text, "R8.2", "add Carla 7d")


def test_r8_2_add_that_fits_no_meld():
    text = multi(["add Carla 9c 7d"])
    assert_error(text, "R8.2", "add Carla 9c 7d")


def test_r8_2_add_to_card_naming_a_meld_it_does_not_fit():
    text = multi(["add Carla 7d 9c to 7s"])
    assert_error(text, "R8.2", "add Carla 7d 9c to 7s")


def test_r8_2_a_player_adds_only_to_their_own_melds():
    # the 7-set is Carla's: Ana cannot add 7d to it
    text = multi(["add Ana 7d to 7s"])
    assert_error(text, "R8.2", "add Ana 7d to 7s")


def test_n4_2a_add_puts_all_its_cards_as_a_group_on_one_meld():
    # 3d and 7d extend 4d 5d 6d at both ends: one group on one meld, in one line
    deal = dict(MULTI, Carla="7s 7h 3d 9s 9c 5d 6d Kc Qh")
    text = hand(["draw Beto 7c", "meld Carla 7s 7h 7c", "pay Carla 9s", "draw Ana 4d",
                 "meld Carla 4d 5d 6d", "pay Carla Kc", "draw Ana 7d", "add Carla 3d 7d to 4d",
                 "pay Carla 9c"], deal=deal, cambio={"Beto": "Ks", "Carla": "Qh", "Ana": "2c"})
    assert_ok(text)


def test_r8_4_strict_run_laid_out_of_order_is_f4():
    text = hand(["draw Beto 7s", "meld Ana 7s 6s 5s 4s", "pay Ana Qh"], options="strict")
    j = verdict(text)
    assert foul_lines(j) == [(line_of(text, "meld Ana 7s 6s 5s 4s"), "Ana", "F4", True)]


def test_r8_4_strict_set_must_alternate_colours():
    text = multi([], options="strict").replace("meld Carla 7s 7h 7c", "meld Carla 7s 7c 7h")
    j = verdict(text)
    assert fouls_of(j) == [("Carla", "F4", True)]
    text = multi([], options="strict")
    assert verdict(text)["fouls"] == []


def test_r8_4_without_strict_order_is_not_checked():
    text = hand(["draw Beto 7s", "meld Ana 7s 6s 5s 4s", "pay Ana Qh"])
    assert assert_ok(text)["fouls"] == []


def test_r8_4_adding_is_never_out_of_order():
    text = multi(["add Carla 7d to 4d"], options="strict")
    assert verdict(text)["fouls"] == []


# R8.5 desmoche
DES = {
    "Beto": "2s 3s 4h 7c Jd Th Jc Qd Ks",
    "Carla": "As 2h 3h 9s 9c 5d 6d Kc Qh",
    "Ana": "4s 5s 6s 8h 8c 8s Td Jh Ac",
}
DES_CAMBIO = {"Beto": "Ks", "Carla": "Qh", "Ana": "Ac"}
# after the cambio Ana holds 4s 5s 6s 8h 8c 8s Td Jh Qh


def test_r8_5_desmoche_example_8d_leaves_the_four_eights_for_a_run():
    text = hand(["draw Beto 8d", "meld Ana 8s 8h 8c 8d", "pay Ana Qh", "draw Beto 9d",
                 "meld Ana 8d 9d Td", "pay Ana Jh"], deal=DES, cambio=DES_CAMBIO)
    j = assert_ok(text)
    assert j["errors"] == []


def test_r8_5_desmoche_conformance_example_7c():
    deal = {"Ana": "7s 7h 7d 9c 2h 4s Jd Qc Kh", "Beto": "Kd 2c 3d 5s 6h 9s Th Js Ac",
            "Carla": "5d 3s 4h 6c Tc Jh Qd Ks 9h"}
    text = hand(["draw Ana 7c", "meld Ana 7s 7h 7d 7c", "pay Ana Qc", "draw Beto Ad",
                 "draw Carla 3c", "draw Ana 8c", "meld Ana 7c 8c 9c", "pay Ana Jd"],
                dealer="Carla", deal=deal, cambio={"Ana": "Kh", "Beto": "2c", "Carla": "5d"})
    assert_ok(text)


def test_r8_5_melds_left_invalid_at_the_end_of_the_action():
    # Carla takes 7s 7h out of her 7s 7h 7c for 7d 7s 7h: 7c is left alone
    text = multi(["meld Carla 7d 7s 7h", "pay Carla 9c"])
    assert_error(text, "R8.5", "pay Carla 9c")


def test_n4_2_a_broken_meld_may_be_mended_by_a_later_line_of_the_action():
    text = multi(["meld Carla 7d 7s 7h", "add Carla 7c to 7d", "pay Carla 9c"])
    assert_ok(text)


def test_r8_5_a_run_may_be_split_in_the_middle_if_both_parts_are_runs():
    deal = {"Beto": "2s 3s 4h 7c 8d Th Jc Qd Ks", "Carla": "As 2h 3h 9h 9c 5d 6d Kd Qh",
            "Ana": "4s 5s 6s 7s 8s 9s Ts 7h Kc"}
    text = hand(["draw Beto Js", "meld Ana 4s 5s 6s 7s 8s 9s Ts Js", "pay Ana Qh",
                 "draw Beto 7d", "meld Ana 7d 7h 7s"], deal=deal,
                cambio={"Beto": "Ks", "Carla": "Qh", "Ana": "Kc"})
    j = assert_ok(text, "complete")  # 4s5s6s, 8s9sTsJs, 7d7h7s: ten down, Ana wins
    assert j["outcome"]["winners"] == ["Ana"]


def test_r8_5_cards_never_move_between_players_tables():
    # Beto takes 8s with 6s 7s from Ana's run: those cards are on Ana's table
    text = hand(["draw Beto 7s", "meld Ana 4s 5s 6s 7s", "pay Ana Qh", "draw Beto 8s",
                 "meld Beto 6s 7s 8s"])
    assert_error(text, "N2.4", "meld Beto 6s 7s 8s")


# ---------------------------------------------------------------- R9 forcing

FORCE = {  # conformance forcing-4h.dsm, dealer Carla
    "Ana": "4h 5c 5d 9s Ts Js Kc Qd 8s",
    "Beto": "Ah 2h 6c 6d Jc Qh Ks 3s 7d",
    "Carla": "2s 4d 9h Th Jh 4c 6s Kd Ad",
}
FORCE_CAMBIO = {"Ana": "8s", "Beto": "7d", "Carla": "Kd"}
FORCE_PLAY = ["draw Ana 3h", "meld Beto Ah 2h 3h", "pay Beto Qh", "draw Carla 8h",
              "meld Carla 8h 9h Th Jh", "pay Carla 2s", "draw Ana 5h", "meld Ana 5c 5h 5d",
              "pay Ana 4h"]


def forcing(extra, deal=FORCE, cambio=FORCE_CAMBIO, options="forcing"):
    return hand(FORCE_PLAY + list(extra), dealer="Carla", deal=deal, cambio=cambio,
                options=options)


def test_r9_1_forced_4h_onto_a_2_3_of_hearts():
    assert_ok(forcing(["add Beto 4h", "pay Beto Ks"]))


def test_r9_1_forced_card_not_taken_is_an_error_at_the_next_draw():
    text = forcing(["draw Beto 7s"])
    assert_error(text, "R9.1", "draw Beto 7s")


def test_r9_1_without_forcing_the_same_card_may_go_dead():
    assert_ok(forcing(["draw Beto 7s"], options=""))


def test_r9_2_the_meld_owner_beats_every_later_player():
    # Ana paid 4h: Beto (owner of A-2-3 of hearts) comes before Carla
    text = forcing(["meld Carla 4h 4d 4c"])
    assert_error(text, "R9.1", "meld Carla 4h 4d 4c")


FORCE2 = {
    "Ana": "4s 4c 5c 9s Ts Js Kc 8s Qd",
    "Beto": "Ah 2h 6c 6d Jc Qh Ks 3s 7d",
    "Carla": "2s 4d 9h Th Jh 3c 6s Kd Ad",
}
FORCE2_CAMBIO = {"Ana": "Qd", "Beto": "7d", "Carla": "Kd"}
FORCE2_PLAY = ["draw Ana 3h", "meld Beto Ah 2h 3h", "pay Beto Qh", "draw Carla 4h"]


def forcing2(extra):
    return hand(FORCE2_PLAY + list(extra), dealer="Carla", deal=FORCE2, cambio=FORCE2_CAMBIO,
                options="forcing")


def test_r9_1_the_drawer_may_take_the_card_they_drew_first():
    # 4h fits Beto's A-2-3 of hearts, but Carla drew it and takes it first
    deal = dict(FORCE, Ana="4s 5c 5d 9s Ts Js Kc Qd 8s")
    text = hand(["draw Ana 3h", "meld Beto Ah 2h 3h", "pay Beto Qh", "draw Carla 4h",
                 "meld Carla 4h 4d 4c", "pay Carla 2s"], dealer="Carla", deal=deal,
                cambio=FORCE_CAMBIO, options="forcing")
    assert_ok(text)


def test_r9_2_a_voluntary_taker_earlier_in_the_order_beats_the_meld_owner():
    # Carla drew 4h and lets it go; Ana (Carla's right) takes it before Beto, whose A-2-3 fits
    assert_ok(forcing2(["meld Ana 4h 4s 4c", "pay Ana 5c"]))


def test_r9_1_a_card_that_fits_nobody_else_is_forced_back_onto_the_payers_meld():
    base = ["meld Ana 4h 4s 4c", "meld Ana 9s Ts Js", "pay Ana 8s"]
    text = forcing2(base + ["draw Beto 7s"])
    assert_error(text, "R9.1", "draw Beto 7s")
    assert_ok(forcing2(base + ["add Ana 8s", "pay Ana 5c"]))


def test_r9_3_a_forced_card_that_makes_ten_is_a_win():
    play = FRIDAY_PLAY[:FRIDAY_PLAY.index("pay Ana Ac") + 1] + ["draw Beto 7d", "add Carla 7d"]
    text = hand(play[4:], pre=play[:1], options="todo forcing")
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Carla"] and j["outcome"]["kind"] == "win"


def test_r9_3_a_forced_winning_card_must_be_taken():
    play = FRIDAY_PLAY[:FRIDAY_PLAY.index("pay Ana Ac") + 1] + ["draw Beto 7d", "draw Carla Td"]
    text = hand(play[4:], pre=play[:1], options="todo forcing")
    assert_error(text, "R9.1", "draw Carla Td")


# ---------------------------------------------------------------- R10 winning

def test_r10_1_a_player_wins_the_moment_all_ten_are_on_the_table():
    text = friday()
    j = assert_ok(text, "complete")
    assert j["outcome"] == {"kind": "win", "winners": ["Carla"], "auto": None,
                            "line": line_of(text, "add Carla 7d")}


def test_r10_1_nothing_to_pay_after_the_win():
    # all ten are on Carla's table: the card is not in her hand (N2.5, before N4.4 in N5.1)
    text = friday_until("show Beto Qd", ["pay Carla 7d"])
    assert_error(text, "N2.5", "pay Carla 7d")


def test_r10_2_nine_down_none_in_hand_can_only_take_a_winning_card():
    # Carla (nine down) takes 9h by moving 9d 9c out of her set: her 9s is left alone and she
    # has no card to pay or mend with
    text = friday_until("pay Ana Ac", ["draw Beto 9h", "meld Carla 9h 9d 9c", "draw Carla Td"])
    assert_error(text, "R10.2", "draw Carla Td")


def drain_all_but(last, deal=DEAL):
    stock = [c for c in stock_of(deal) if c != last] + [last]
    order = ["Beto", "Carla", "Ana"]
    lines, seat = [], 0
    for k, card in enumerate(stock):
        lines.append(f"draw {order[seat]} {card}")
        if k >= 1:
            seat = (seat + 1) % 3
    return lines


def test_r10_3_stock_empty_and_card_untaken_ends_without_a_winner():
    text = hand(drain_all_but("Qc") + ["end"])
    j = assert_ok(text, "complete")
    assert j["outcome"] == {"kind": "no-winner", "winners": [], "auto": None,
                            "line": line_of(text, "end")}


def test_r10_3_a_card_taken_after_the_stock_ran_out_is_paid_and_goes_on_offer():
    draws = drain_all_but("7s")
    assert draws[-1] == "draw Ana 7s"
    text = hand(draws + ["meld Ana 4s 5s 6s 7s", "pay Ana Qh", "end"])
    j = assert_ok(text, "complete")
    assert j["outcome"]["kind"] == "no-winner"
    # the paid card is on offer: it can still be taken
    text = hand(draws + ["meld Ana 4s 5s 6s 7s", "pay Ana Jd",
                         "knock Beto"])
    assert_ok(text)


def test_r10_3_drawing_from_an_empty_stock_is_an_error():
    # closed record: 2h is one of the unknown cards in a hand, not known elsewhere (N2.4),
    # but the stock is empty
    closed = {"Beto": "?x9", "Carla": "?x9", "Ana": "?x9"}
    cambio = {"Beto": "?", "Carla": "?", "Ana": "?"}
    assert drain_all_but("Qc")[-1] == "draw Ana Qc"  # Beto, Ana's right, draws next
    text = hand(drain_all_but("Qc") + ["draw Beto 2h"], deal=closed, cambio=cambio)
    assert_error(text, "R10.3", "draw Beto 2h")


def test_r10_3_in_an_open_record_a_card_known_elsewhere_is_n2_4_first():
    text = hand(drain_all_but("Qc") + ["draw Beto 2h"])  # 2h is Carla's
    assert_error(text, "N2.4", "draw Beto 2h")


# ---------------------------------------------------------------- N4.4 after the end

def test_n4_4_only_show_and_end_may_follow_a_win():
    assert_ok(friday_until("show Beto Qd", ["show Ana 4s", "end"]), "complete")
    text = friday_until("show Beto Qd", ["draw Ana 9h"])
    assert_error(text, "N4.4", "draw Ana 9h")


def test_n4_4_end_before_the_end_is_an_error():
    text = hand(["draw Beto 7s", "end"])
    assert_error(text, "N4.4", "end")


def test_n4_4_end_in_the_middle_of_an_action_is_an_error():
    draws = drain_all_but("7s")
    text = hand(draws + ["meld Ana 4s 5s 6s 7s", "end"])
    assert_error(text, "N4.4", "end")


def test_r9_1_a_drawn_card_that_fits_only_the_drawers_meld_is_forced_on_the_drawer():
    base = ["meld Ana 4h 4s 4c", "meld Ana 9s Ts Js", "pay Ana 5c", "draw Beto 7s",
            "draw Carla 5s", "draw Ana Qs"]
    text = forcing2(base + ["draw Beto 6h"])
    assert_error(text, "R9.1", "draw Beto 6h")
    assert_ok(forcing2(base + ["add Ana Qs", "pay Ana Kc"]))


def test_n4_4_a_foul_after_the_end_is_an_error():
    text = friday_until("show Beto Qd", ["foul Ana peek"])
    assert_error(text, "N4.4", "foul Ana peek")


def test_r7_3_hand_melds_off_applies_to_new_melds_made_by_a_desmoche():
    # Carla adds the taken 7d to her run, then re-lays her three sevens as a new meld:
    # with hand-melds=off every new meld must contain the taken card
    events = ["add Carla 7d to 4d", "meld Carla 7s 7h 7c", "pay Carla 9c"]
    assert_ok(multi(events))
    text = multi(events, options="hand-melds=off")
    assert_error(text, "R7.3", line_of(text, "meld Carla 7s 7h 7c", 2))


def test_r7_1_with_the_dealers_right_out_the_next_player_in_draws_first():
    assert_ok(hand(["foul Beto peek", "draw Carla 7s"]))
    text = hand(["foul Beto peek", "draw Ana 7s"])
    assert_error(text, "R7.1", "draw Ana 7s")


def test_r8_3_melds_are_face_up_their_cards_are_known_in_a_closed_record():
    closed = {"Beto": "?x9", "Carla": "?x9", "Ana": "?x9"}
    cambio = {"Beto": "?", "Carla": "?", "Ana": "?"}
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c", "draw Carla 2h",
                 "meld Carla 2h 2s 2c"], deal=closed, cambio=cambio)
    assert_error(text, "N2.4", "meld Carla 2h 2s 2c")


def forcing_drain_with_8s_last():
    rest = [c for c in stock_of(DEAL) if c not in ("7s", "8s")] + ["8s"]
    order = ["Beto", "Carla", "Ana"]
    draws = [f"draw {order[k % 3]} {c}" for k, c in enumerate(rest)]
    return ["draw Beto 7s", "meld Ana 4s 5s 6s 7s", "pay Ana Qh"] + draws


def test_n4_3_a_forced_last_card_not_taken_is_an_error_at_end():
    text = hand(forcing_drain_with_8s_last() + ["end"], options="forcing")
    assert_error(text, "R9.1", "end")


def test_r10_3_a_forced_last_card_taken_and_paid_then_end():
    text = hand(forcing_drain_with_8s_last() + ["add Ana 8s", "pay Ana Jd", "end"],
                options="forcing")
    j = assert_ok(text, "complete")
    assert j["outcome"]["kind"] == "no-winner"


def test_n5_4_stock_empty_without_end_is_incomplete():
    text = hand(drain_all_but("Qc"))
    j = assert_ok(text, "incomplete")
    assert j["outcome"] is None


DES2 = dict(DES, Beto="2s 3s 4h 7c 2d Th Jc Qd Ks")
DES2_PLAY = ["draw Beto 8d", "meld Ana 8s 8h 8c 8d", "pay Ana Qh", "draw Beto 9d",
             "meld Ana 8d 9d Td", "pay Ana Jh", "draw Beto Jd", "add Ana Jd"]


def des2(extra):
    return hand(DES2_PLAY + list(extra), deal=DES2, cambio=DES_CAMBIO)


def test_r8_5_a_desmoche_by_add_moves_a_card_to_another_of_ones_melds():
    # 8d leaves the end of 8d 9d Td Jd for the set 8s 8h 8c: both stay valid
    assert_ok(des2(["add Ana 8d to 8s", "pay Ana 4s"]))


def test_n4_2a_a_moved_card_that_fits_two_melds_needs_to_card():
    # without `to`, 8d makes both the set and its own run valid: more than one meld
    text = des2(["add Ana 8d"])
    assert_error(text, "R8.2", line_of(text, "add Ana 8d"))


def test_r8_2_add_to_a_meld_the_card_does_not_fit():
    text = des2(["add Ana 9d to 8s"])
    assert_error(text, "R8.2", "add Ana 9d to 8s")


def test_n5_1_a_card_elsewhere_is_reported_before_play_after_the_end():
    # N2.4 / N2.5 rows come before the N4.4 row of N5.1
    text = friday_until("show Beto Qd", ["draw Ana Jd"])  # Jd is in Ana's hand
    assert_error(text, "N2.4", "draw Ana Jd")
    text = friday_until("show Beto Qd", ["pay Ana 9h"])  # 9h is in the stock
    assert_error(text, "N2.5", "pay Ana 9h")
    text = friday_until("show Beto Qd", ["draw Ana 9h"])  # only the hand being over is wrong
    assert_error(text, "N4.4", "draw Ana 9h")


def test_r8_4_what_a_desmoche_leaves_of_a_meld_is_not_judged():
    # strict: 7s 7h 7c 7d alternates; Carla moves 7h into 6h 7h 8h and leaves 7s 7c 7d,
    # which does not alternate but is not judged: no F4
    deal = dict(MULTI, Carla="7s 7h 3h 9s 8h 5d 6d Kc Qh", Ana="4s 5s 6s 8s 8c Jd Jh 2c Ac")
    text = hand(["draw Beto 7c", "meld Carla 7s 7h 7c", "pay Carla 3h", "draw Ana 4d",
                 "meld Carla 4d 5d 6d", "pay Carla Kc", "draw Ana 7d", "add Carla 7d to 7s",
                 "pay Carla 9s", "draw Ana 6h", "meld Carla 6h 7h 8h", "pay Carla Ks"],
                deal=deal, cambio={"Beto": "Ks", "Carla": "Qh", "Ana": "2c"}, options="strict")
    j = assert_ok(text)
    assert j["fouls"] == []


def test_r9_4_a_meld_owner_who_passes_is_no_longer_forced():
    # Ana paid 4h, which fits Beto's A-2-3 of hearts; only 4h fits it, and 4h is on offer, not
    # in the stock, so Beto may pass; then nobody is forced and the draw is Carla's (Beto, Ana's
    # right, has passed)
    assert_ok(forcing(["pass Beto", "draw Carla 7s"]))
