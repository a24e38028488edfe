"""R5 (the cambio), R6 (automatic wins) and N4.7 (records after a declaration)."""

from helpers import (assert_error, assert_ok, bonuses_of, fouls_of, hand, line_of, verdict,
                     warnings_of, warning_codes)

# ---------------------------------------------------------------- R5 the cambio


def test_r5_1_the_card_passed_goes_to_the_player_on_the_right():
    # Beto passes Ks to Carla (his right); Carla lays it
    text = hand(["draw Beto Kd", "meld Carla Kd Kc Ks", "pay Carla 9c"])
    assert_ok(text)


def test_r5_1_the_passer_no_longer_holds_the_card():
    text = hand(["draw Beto Kd", "meld Beto Kd Ks Kc"])  # Ks went to Carla
    j = verdict(text)
    assert j["status"] == "invalid"
    assert j["errors"][0]["line"] == line_of(text, "meld Beto Kd Ks Kc")
    assert j["errors"][0]["code"] == "N2.4"


def test_r5_1_a_player_cannot_pass_on_the_card_they_receive():
    # Ana passes 2c to Beto first; the passes are simultaneous, so Beto cannot pass it on
    text = hand(["cambio Ana 2c", "cambio Beto 2c"], cambio={})
    assert_error(text, "N2.4", "cambio Beto 2c")


def test_r5_1_received_cards_arrive_when_the_cambio_is_complete():
    text = hand(["cambio Ana 2c", "cambio Beto Ks", "cambio Carla Qh", "draw Beto 2d",
                 "meld Beto 2s 2d 2c", "pay Beto 7c"], cambio={})
    assert_ok(text)


def test_r5_1_a_cambio_after_the_first_draw_is_out_of_place():
    text = hand(["draw Beto 7s", "cambio Beto 7c"])
    assert_error(text, "R5.1", "cambio Beto 7c")


def test_r5_1_cambio_with_a_card_not_held():
    text = hand(["cambio Beto Kh"], cambio={})  # Kh is in the stock
    assert_error(text, "N2.5", "cambio Beto Kh")


def test_r5_2_a_player_passes_only_one_card():
    text = hand(["cambio Beto Ks", "cambio Beto 7c"], cambio={})
    assert_error(text, "R5.2", "cambio Beto 7c")


def test_r5_2_every_player_passes_before_the_first_draw():
    text = hand(["cambio Beto Ks", "cambio Carla Qh", "draw Beto 2d"], cambio={})
    assert_error(text, "R5.2", "draw Beto 2d")


def test_r5_2_a_cambio_line_after_the_cambio_is_complete():
    text = hand(["cambio Beto 7c"])
    assert_error(text, "R5.2", "cambio Beto 7c")


# ---------------------------------------------------------------- R6 automatic wins

PEL = {  # Beto: RULES' Peladilla (Ace high); Carla: the Peladilla it beats; Ana: four 5s
    "Beto": "As 3c 4d 7h 8s Td Js Qh Kd",
    "Carla": "2h 3d 4h 7s 8d Ts Jc Qd Kh",
    "Ana": "5s 5h 5d 5c 9c 9d 6h 6c 2s",
}
COLOURS = {  # Beto: red, Carla: all spades, Ana: four tens
    "Beto": "Ah 2h 3d 5h 6d 8h 9d Jh Kd",
    "Carla": "As 2s 3s 4s 6s 7s 9s Js Qs",
    "Ana": "Tc Td Ts Th 5c 6c 7c 8c 9c",
}


def auto(events, deal, **tags):
    return hand(events, deal=deal, cambio={}, **tags)


def test_r6_1_peladilla_example_wins_at_once():
    text = auto(["declare Beto peladilla", "end"], PEL)
    j = assert_ok(text, "complete")
    assert j["outcome"] == {"kind": "auto-win", "winners": ["Beto"], "auto": "peladilla",
                            "line": line_of(text, "end")}
    assert j["net"] == {"Ana": "-10.00", "Beto": "20.00", "Carla": "-10.00"}


def test_r6_1_peladilla_with_a_pair_is_void():
    deal = dict(PEL, Beto="As 3c 4d 7h 8s Td Js Qh Ac")
    text = auto(["declare Beto peladilla", "cambio Beto As"], deal)
    j = assert_ok(text)
    assert warnings_of(j) == [("R6.4", line_of(text, "declare Beto peladilla"))]


def test_r6_1_peladilla_with_two_adjacent_cards_of_one_suit_is_void():
    deal = dict(PEL, Beto="As 3c 4c 7h 8s Td Js Qh Kd", Carla="2h 3d 4h 7s 8d Ts Jc Qd 4d")
    text = auto(["declare Beto peladilla"], deal)
    assert warnings_of(verdict(text)) == [("R6.4", line_of(text, "declare Beto peladilla"))]


def test_r6_1_peladilla_king_and_ace_of_one_suit_are_not_adjacent():
    deal = dict(PEL, Beto="As 3c 4d 7h 8s Td Jc Qh Ks", Carla="2h 3d 4h 7s 8d Ts Js Qd Kh")
    text = auto(["declare Beto peladilla", "end"], deal)
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"] and j["outcome"]["auto"] == "peladilla"


def test_r6_1_cuatro_cuerpos_wins():
    text = auto(["declare Ana cuatro-cuerpos", "end"], PEL)
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Ana"] and j["outcome"]["auto"] == "cuatro-cuerpos"


def test_r6_1_cuatro_cuerpos_needs_four_of_a_rank():
    text = auto(["declare Carla cuatro-cuerpos"], PEL)
    assert warnings_of(verdict(text)) == [("R6.4", line_of(text, "declare Carla cuatro-cuerpos"))]


def test_r6_1_color_by_colour_wins_by_default():
    text = auto(["declare Beto color", "end"], COLOURS)
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"] and j["outcome"]["auto"] == "color"


def test_r6_1_color_suit_option_refuses_a_mixed_colour_hand():
    text = auto(["declare Beto color"], COLOURS, options="color=suit")
    j = assert_ok(text)
    assert warnings_of(j) == [("R6.4", line_of(text, "declare Beto color"))]


def test_r6_1_color_suit_option_accepts_one_suit():
    text = auto(["declare Carla color", "end"], COLOURS, options="color=suit")
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Carla"]


def test_r6_1_color_off_option_refuses_color():
    text = auto(["declare Carla color"], COLOURS, options="color=off")
    j = assert_ok(text)
    assert warning_codes(j) == ["R6.4"]


# R6.2: as dealt or after the cambio; the better counts; judged as the kind declared
SWAP = {
    "Beto": "Ah 2h 3h 5h 6h 8h 9h Jh Kd",   # red as dealt; all hearts after receiving Qh
    "Carla": "As Ac Ks Kc Qs Qc Js Jc 9c",  # black as dealt; receives Kd
    "Ana": "2s 3s 4s 5d 6d 7d 8d 9d Qh",
}
SWAP_CAMBIO = ["cambio Beto Kd", "cambio Carla 9c", "cambio Ana Qh"]


def test_r6_2_a_hand_qualifies_as_dealt_even_after_passing_a_card():
    text = auto(SWAP_CAMBIO + ["declare Carla color", "end"], SWAP)
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Carla"]


def test_r6_2_a_hand_qualifies_after_the_cambio():
    deal = dict(SWAP, Beto="Ah 2h 3h 5h 6h 8h 9h Jh Ks", Carla="As Ac Kd Kc Qs Qc Js Jc 9c")
    text = auto(["cambio Beto Ks", "cambio Carla 9c", "cambio Ana Qh", "declare Beto color",
                 "end"], deal, options="color=suit")
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"]


def test_r6_2_the_better_of_as_dealt_and_after_the_cambio_counts():
    # as dealt both are Color by colour and Carla's (A A K …) is better; after the cambio
    # Beto's is Color by suit, which beats it (R6.5)
    text = auto(SWAP_CAMBIO + ["declare Beto color", "declare Carla color", "end"], SWAP)
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"]


def test_r6_2_a_declaration_before_the_cambio_is_judged_on_the_hand_as_dealt():
    text = auto(["declare Beto color", "declare Carla color", "end"], SWAP)
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Carla"]


def test_n4_7_a_declaration_between_cambio_lines_is_judged_on_the_hands_as_dealt():
    deal = dict(SWAP, Beto="Ah 2h 3h 5h 6h 8h 9h Jh Ks", Carla="As Ac Kd Kc Qs Qc Js Jc 9c")
    text = auto(["cambio Beto Ks", "cambio Carla 9c", "declare Beto color", "cambio Ana Qh"],
                deal)
    j = assert_ok(text)
    assert warnings_of(j) == [("R6.4", line_of(text, "declare Beto color"))]


def test_r6_2_judged_as_the_kind_declared_color_and_peladilla_as_peladilla():
    # Beto's nine are red and a Peladilla; declared as Peladilla they lose to four 5s
    deal = {"Beto": "Ah 3d 4h 6d 7h 9d Th Qd Kh", "Carla": "2s 3s 4s 6s 7s 8s 9s Js Qs",
            "Ana": "5s 5h 5d 5c 9c Tc 6h 6c 2c"}
    text = auto(["declare Beto peladilla", "declare Ana cuatro-cuerpos", "end"], deal)
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Ana"] and j["outcome"]["auto"] == "cuatro-cuerpos"
    # declared as Color it beats the four 5s
    text = auto(["declare Beto color", "declare Ana cuatro-cuerpos", "end"], deal)
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"] and j["outcome"]["auto"] == "color"


def test_r6_3_a_declaration_after_the_first_draw_is_void_and_play_goes_on():
    text = hand(["draw Beto 7c", "declare Beto peladilla", "draw Beto 8c"],
                deal=PEL, cambio={"Beto": "Kd", "Carla": "Kh", "Ana": "2s"})
    j = assert_ok(text)
    assert warnings_of(j) == [("R6.3", line_of(text, "declare Beto peladilla"))]


def test_r6_4_a_false_declaration_is_void_not_a_foul_and_play_goes_on():
    text = hand(["declare Carla cuatro-cuerpos", "draw Beto 2d", "meld Beto 2s 2d 2c",
                 "pay Beto 7c"])
    j = assert_ok(text)
    assert warnings_of(j) == [("R6.4", line_of(text, "declare Carla cuatro-cuerpos"))]
    assert j["fouls"] == []


# R6.5 several declarations
def test_r6_5_color_by_suit_beats_color_by_colour():
    text = auto(["declare Beto color", "declare Carla color", "end"], COLOURS)
    assert verdict(text)["outcome"]["winners"] == ["Carla"]


def test_r6_5_color_by_colour_beats_cuatro_cuerpos():
    text = auto(["declare Ana cuatro-cuerpos", "declare Beto color", "end"], COLOURS)
    j = verdict(text)
    assert j["outcome"]["winners"] == ["Beto"] and j["outcome"]["auto"] == "color"


def test_r6_5_cuatro_cuerpos_beats_peladilla():
    text = auto(["declare Beto peladilla", "declare Ana cuatro-cuerpos", "end"], PEL)
    j = verdict(text)
    assert j["outcome"]["winners"] == ["Ana"] and j["outcome"]["auto"] == "cuatro-cuerpos"


def test_r6_5_peladilla_example_beats_the_other_peladilla():
    # A♠3♣4♦7♥8♠10♦J♠Q♥K♦ beats 2♥3♦4♥7♠8♦10♠J♣Q♦K♥: the Ace is the highest card
    text = auto(["declare Carla peladilla", "declare Beto peladilla", "end"], PEL)
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"] and j["outcome"]["auto"] == "peladilla"


def test_r6_5_peladilla_compares_the_next_highest_card_on_a_tie():
    deal = {"Beto": "As 3c 4d 7h 8s Td Js Qh Kd", "Carla": "Ah 3d 4c 7s 9d Tc Jh Qs Kc",
            "Ana": "5s 5h 5d 5c 9c 2d 6h 6c 2s"}
    # equal down to the fifth card: Beto's 8 against Carla's 9
    text = auto(["declare Beto peladilla", "declare Carla peladilla", "end"], deal)
    assert verdict(text)["outcome"]["winners"] == ["Carla"]


def test_r6_5_cuatro_cuerpos_compares_the_rank_with_the_ace_highest():
    deal = {"Beto": "As Ah Ad Ac 3c 5d 7h 9s Jd", "Carla": "Ks Kh Kd Kc 2c 4d 6h 8s Td",
            "Ana": "2s 3s 4s 5s 6s 7s 8c 9c Tc"}
    text = auto(["declare Carla cuatro-cuerpos", "declare Beto cuatro-cuerpos", "end"], deal)
    assert verdict(text)["outcome"]["winners"] == ["Beto"]


def test_r6_5_color_compares_like_peladilla():
    deal = {"Beto": "Ah 2h 3h 5d 6d 8h 9d Jh Kd", "Carla": "Kh Qh Qd Jd Td 9h 8d 7d 6h",
            "Ana": "2s 3s 4s 5s 6s 7s 8c 9c Tc"}
    text = auto(["declare Carla color", "declare Beto color", "end"], deal)
    assert verdict(text)["outcome"]["winners"] == ["Beto"]


def test_r6_5_exactly_equal_hands_split_the_pot():
    deal = {"Beto": "As 3c 4d 7h 8s Td Js Qh Kd", "Carla": "Ah 3d 4c 7s 8d Tc Jh Qs Kc",
            "Ana": "5s 5h 5d 5c 9c 9d 6h 6c 2s"}
    text = auto(["declare Carla peladilla", "declare Beto peladilla", "end"], deal)
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto", "Carla"]
    assert j["net"] == {"Ana": "-10.00", "Beto": "5.00", "Carla": "5.00"}


# R6.6 once a valid automatic win is declared
PEL_CAMBIO = ["cambio Beto Kd", "cambio Carla Kh", "cambio Ana 2s"]


def test_r6_6_no_card_is_drawn_after_a_valid_declaration():
    # the cambio is complete and Beto is the right drawer: only N4.7 is broken
    text = auto(["declare Beto peladilla"] + PEL_CAMBIO + ["draw Beto 7c"], PEL)
    assert_error(text, "N4.7", "draw Beto 7c")


def test_n5_1_a_draw_out_of_turn_after_a_declaration_is_r7_1_first():
    # N5.1 checks the drawer (R7.1) before "draw after a valid declaration" (N4.7)
    text = auto(["declare Beto peladilla"] + PEL_CAMBIO + ["draw Carla 7c"], PEL)
    assert_error(text, "R7.1", "draw Carla 7c")


def test_r6_6_others_may_still_declare_and_the_cambio_may_still_be_made():
    text = auto(["declare Beto peladilla", "cambio Beto Kd", "cambio Carla Kh", "cambio Ana 2s",
                 "declare Ana cuatro-cuerpos", "end"], PEL)
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Ana"]


def test_r6_6_arriba_del_palo_from_every_other_player_under_todo():
    text = auto(["declare Beto peladilla", "end"], PEL, options="todo")
    j = assert_ok(text, "complete")
    assert bonuses_of(j) == [("arriba-del-palo", "Carla", "Beto", "10.00"),
                             ("arriba-del-palo", "Ana", "Beto", "10.00")]
    assert j["net"] == {"Ana": "-20.00", "Beto": "40.00", "Carla": "-20.00"}


def test_r6_6_no_other_bonus_applies_to_an_automatic_win():
    # a one-suit Color holding A-2-3 pays neither Color nor Mico: only Arriba del Palo
    text = auto(["declare Carla color", "end"], COLOURS, options="todo")
    j = assert_ok(text, "complete")
    assert sorted(bonuses_of(j)) == [("arriba-del-palo", "Ana", "Carla", "10.00"),
                                     ("arriba-del-palo", "Beto", "Carla", "10.00")]


def test_r6_6_no_bonus_without_todo():
    text = auto(["declare Beto peladilla", "end"], PEL)
    assert verdict(text)["bonuses"] == []


def test_r6_7_conquien_has_no_automatic_wins():
    text = auto(["declare Beto peladilla", "cambio Beto Kd", "cambio Carla Kh", "cambio Ana 2s",
                 "draw Beto 7c"], PEL, rules="conquien")
    j = assert_ok(text)
    assert warnings_of(j) == [("R6.7", line_of(text, "declare Beto peladilla"))]


def test_r6_7_conquien_with_auto_on_has_automatic_wins():
    text = auto(["declare Beto peladilla", "end"], PEL, rules="conquien", options="auto=on")
    j = assert_ok(text, "complete")
    assert j["outcome"]["kind"] == "auto-win"


def test_r6_auto_off_option_voids_declarations():
    text = auto(["declare Beto peladilla"], PEL, options="auto=off")
    assert warning_codes(verdict(text)) == ["R6.7"]


# ---------------------------------------------------------------- N4.7 after a declaration

def test_n4_7_only_declarations_cambio_announce_show_foul_forgive_end_may_follow():
    text = auto(["declare Beto peladilla", "announce Carla oro Qd", "show Carla Qd",
                 "cambio Beto Kd", "end"], PEL, side=("oro 1 Beto Carla",))
    assert_ok(text, "complete")


def test_n4_7_a_pass_after_a_valid_declaration_is_an_error():
    # Carla has no meld yet: by the N5.1 order "pass refused" (R13.1) comes before N4.7
    text = auto(["declare Beto peladilla", "pass Carla"], PEL)
    assert_error(text, "R13.1", "pass Carla")


def test_n4_7_a_meld_after_a_valid_declaration_has_nothing_to_take():
    text = auto(["declare Beto peladilla", "meld Ana 5s 5h 5d"], PEL)
    assert_error(text, "R7.9", "meld Ana 5s 5h 5d")


def test_n4_7_end_closes_the_declarations_without_it_the_hand_is_incomplete():
    text = auto(["declare Beto peladilla"], PEL)
    j = assert_ok(text, "incomplete")
    assert j["outcome"] is None and j["net"] is None


def test_n4_7_if_every_valid_declarer_is_disqualified_play_starts_as_usual():
    text = auto(["declare Beto peladilla", "foul Beto other left the table",
                 "cambio Carla Kh", "cambio Ana 2s", "draw Carla 7d"], PEL)
    j = assert_ok(text)
    assert fouls_of(j) == [("Beto", "F5", True)]


def test_n4_7_a_false_declaration_does_not_stop_the_draw():
    text = auto(["declare Carla cuatro-cuerpos", "cambio Beto Kd", "cambio Carla Kh",
                 "cambio Ana 2s", "draw Beto 7c"], PEL)
    assert_ok(text)


def test_n6_2_a_declaration_without_cards_in_a_closed_record_is_accepted_with_a_warning():
    text = hand(["declare Beto peladilla", "end"], deal={"Beto": "?x9", "Carla": "?x9",
                                                         "Ana": "?x9"}, cambio={})
    j = assert_ok(text, "complete")
    assert warnings_of(j) == [("R6.2", line_of(text, "declare Beto peladilla"))]
    assert j["outcome"]["winners"] == ["Beto"]


def test_n6_2_a_declaration_with_cards_in_a_closed_record_is_checked_against_them():
    text = hand(["declare Beto peladilla As 3c 4d 7h 8s Td Js Qh Kd", "end"],
                deal={"Beto": "?x9", "Carla": "?x9", "Ana": "?x9"}, cambio={})
    j = assert_ok(text, "complete")
    assert j["warnings"] == [] and j["outcome"]["winners"] == ["Beto"]
    text = hand(["declare Beto peladilla As 3c 4c 7h 8s Td Js Qh Kd"],
                deal={"Beto": "?x9", "Carla": "?x9", "Ana": "?x9"}, cambio={})
    assert warning_codes(verdict(text)) == ["R6.4"]


def test_n6_2_declared_cards_must_be_the_declarers_hand():
    text = auto(["declare Beto peladilla 2h 3d 4h 7s 8d Ts Jc Qd Kh"], PEL)  # Carla's cards
    j = verdict(text)
    assert j["status"] == "invalid"
    assert j["errors"][0]["line"] == line_of(text, "declare Beto peladilla 2h 3d 4h 7s 8d Ts Jc Qd Kh")
    assert j["errors"][0]["code"] == "N2.4"


def test_r6_1_peladilla_ace_and_two_of_one_suit_are_adjacent():
    deal = {"Beto": "As 2s 4d 7h 8s Td Js Qh Kd", "Carla": "3h 3d 4h 7s 8d Ts Jc Qd Kh",
            "Ana": "5s 5h 5d 5c 9c 9d 6h 6c 2d"}
    text = auto(["declare Beto peladilla"], deal)
    assert warnings_of(verdict(text)) == [("R6.4", line_of(text, "declare Beto peladilla"))]


def test_r6_5_color_by_suit_against_color_by_suit_compares_the_cards():
    deal = {"Beto": "Ah 2h 3h 5h 6h 8h 9h Jh Kh", "Carla": "As 2s 3s 4s 6s 7s 9s Js Qs",
            "Ana": "Tc Td Ts Th 5c 6c 7c 8c 9c"}
    text = auto(["declare Carla color", "declare Beto color", "end"], deal)
    # both Ace high; then K (Beto) against Q (Carla)
    assert verdict(text)["outcome"]["winners"] == ["Beto"]


CLOSED = {"Beto": "?x9", "Carla": "?x9", "Ana": "?x9"}


def test_r6_5_unverified_declarations_still_rank_by_kind():
    # N6.2: a declaration without cards in a closed record is accepted (with a warning) as
    # the kind declared (R6.2); R6.5 then puts Color above Peladilla
    text = hand(["declare Beto peladilla", "declare Carla color", "end"], deal=CLOSED,
                cambio={})
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Carla"] and j["outcome"]["auto"] == "color"
    assert [w["code"] for w in j["warnings"]] == ["R6.2", "R6.2"]


def test_r6_5_an_unverified_cuatro_cuerpos_beats_a_verified_peladilla():
    text = hand(["declare Beto cuatro-cuerpos",
                 "declare Carla peladilla As 3c 4d 7h 8s Td Js Qh Kd", "end"], deal=CLOSED,
                cambio={})
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"] and j["outcome"]["auto"] == "cuatro-cuerpos"


def test_n4_7_a_disqualified_declarer_falls_and_the_other_declaration_wins():
    # Ana's four 5s would beat Beto's Peladilla, but Ana is disqualified
    text = auto(["declare Beto peladilla", "declare Ana cuatro-cuerpos", "foul Ana peek", "end"],
                PEL)
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"] and j["outcome"]["auto"] == "peladilla"
    assert j["net"] == {"Ana": "-10.00", "Beto": "20.00", "Carla": "-10.00"}


def test_n5_1_a_missing_cambio_is_reported_before_the_drawer():
    # Ana has not passed and Carla draws out of turn: the R5.1/R5.2 row of N5.1 comes before
    # the R7.1/R7.7/R7.6 row
    text = hand(["cambio Beto Ks", "cambio Carla Qh", "draw Carla 7s"], cambio={})
    assert_error(text, "R5.2", "draw Carla 7s")


def test_r6_4_a_closed_declaration_that_its_known_cards_already_rule_out_is_void():
    # Beto's As and Ac are known: whatever his seven unknown cards are, no Peladilla
    text = hand(["declare Beto peladilla"], deal={"Beto": "As Ac ?x7", "Carla": "?x9",
                                                  "Ana": "?x9"}, cambio={})
    j = assert_ok(text, "incomplete")
    assert warnings_of(j) == [("R6.4", line_of(text, "declare Beto peladilla"))]
    # As and Ah: neither one colour nor one suit
    text = hand(["declare Beto color"], deal={"Beto": "As Ah ?x7", "Carla": "?x9",
                                              "Ana": "?x9"}, cambio={})
    j = assert_ok(text, "incomplete")
    assert warnings_of(j) == [("R6.4", line_of(text, "declare Beto color"))]
