"""R3 (the deal), N4.6 (judging the deal), F1 (misdeal) and R14 as it applies in the deal."""

from desmoche_ref.referee import judge_text
from desmoche_ref.session import check_session

from helpers import (DEAL, assert_error, assert_ok, fouls_of, foul_lines, hand, line_of, raw,
                     stock_of, tags_text, verdict)

BETO = DEAL["Beto"]
CARLA = DEAL["Carla"]
ANA = DEAL["Ana"]


def deal_events(beto=BETO, carla=CARLA, ana=ANA):
    return [f"deal Beto {beto}", f"deal Carla {carla}", f"deal Ana {ana}"]


def rec(events, **tags):
    return raw(tags_text(**tags), events)


def drain(stock, order):
    """Draw lines for the whole stock with no card ever taken.

    `order` is the players still in, in seat order starting at the dealer's right: the
    first card is drawn twice by the same player (R7.7), then each player's right draws.
    """
    lines = []
    seat = 0
    for k, card in enumerate(stock):
        lines.append(f"draw {order[seat]} {card}")
        if k >= 1:
            seat = (seat + 1) % len(order)
    return lines


# ---------------------------------------------------------------- R3.1 who deals

def test_r3_1_any_player_may_deal_the_first_hand():
    deal = {"Ana": BETO, "Beto": CARLA, "Carla": ANA}
    text = hand(["draw Ana 2d", "meld Ana 2s 2d 2c"], dealer="Carla", deal=deal,
                cambio={"Ana": "Ks", "Beto": "Qh", "Carla": "2c"})
    j = assert_ok(text)
    assert j["dealer"] == "Carla"


def two_hands(second_dealer):
    """A complete first hand dealt by Ana, then the deal of a second hand."""
    first = hand(["declare Beto color", "end"],
                 deal={"Beto": "Ah 2h 3d 5h 6d 8h 9d Jh Kd", "Carla": "As 2s 3s 9s 9c 5c 6c Kc Qs",
                       "Ana": "4s 5s 6s 8s 8c Js Jc 2c Ac"})
    second = hand([], dealer=second_dealer, deal=dict(DEAL), cambio={})
    return first + "\n" + second


def test_r3_1_the_deal_passes_to_the_right_after_every_hand():
    session = check_session(judge_text(two_hands("Beto")))
    assert [p for p in session.problems + session.warnings if p[1] == "R3.1"] == []


def test_r3_1_a_deal_that_does_not_pass_to_the_right_is_a_warning():
    # N9.3: the hand was played and its money stands
    text = two_hands("Ana")
    session = check_session(judge_text(text))
    second_line = text.split("\n").index('[Players "Ana Beto Carla"]', 1) + 1
    assert session.problems == []
    assert [p[:2] for p in session.warnings] == [(second_line, "R3.1")]


# ---------------------------------------------------------------- R3.2 the cut

def test_r3_2_the_dealers_right_may_cut_before_the_deal():
    text = rec(["cut Beto"] + deal_events() + ["cambio Beto Ks"])
    assert_ok(text)


def test_r3_2_a_cut_by_another_player_is_an_error():
    text = rec(["cut Carla"] + deal_events())
    assert_error(text, "R3.2", "cut Carla")


def test_r3_2_a_cut_after_the_deal_began_is_an_error():
    text = rec(deal_events()[:1] + ["cut Beto"])
    assert_error(text, "R3.2", "cut Beto")


# ---------------------------------------------------------------- R3.3 nine each, the stock

def test_r3_3_three_players_leave_25_in_the_stock():
    stock = stock_of(DEAL)
    assert len(stock) == 25
    text = hand(drain(stock, ["Beto", "Carla", "Ana"]) + ["end"])
    j = assert_ok(text, "complete")
    assert j["outcome"]["kind"] == "no-winner"


def test_r3_3_two_players_leave_34_in_the_stock():
    deal = {"Beto": BETO, "Ana": ANA}
    stock = stock_of(deal)
    assert len(stock) == 34
    draws = drain(stock, ["Beto", "Ana"])
    text = hand(draws + ["end"], players=("Ana", "Beto"), deal=deal,
                cambio={"Beto": "Ks", "Ana": "2c"})
    j = assert_ok(text, "complete")
    assert j["outcome"]["kind"] == "no-winner"
    # one draw more than the stock holds (a closed record: Ks is an unknown card in a hand,
    # not known elsewhere, so the empty stock decides)
    assert draws[-1].startswith("draw Beto")  # Ana draws next
    text = hand(draws + ["draw Ana Ks"], players=("Ana", "Beto"),
                deal={"Beto": "?x9", "Ana": "?x9"}, cambio={"Beto": "?", "Ana": "?"})
    assert_error(text, "R10.3", "draw Ana Ks")


def test_r3_3_four_players_leave_16_in_the_stock():
    deal = {"Beto": BETO, "Carla": CARLA, "Dani": ANA, "Ana": "7s 8s Ts Js Qs Ah 5h 6h 7h"}
    stock = stock_of(deal)
    assert len(stock) == 16
    text = hand(drain(stock, ["Beto", "Carla", "Dani", "Ana"]) + ["end"],
                players=("Ana", "Beto", "Carla", "Dani"), deal=deal,
                cambio={"Beto": "Ks", "Carla": "Qh", "Dani": "2c", "Ana": "7s"})
    assert_ok(text, "complete")


def test_r3_3_the_stock_is_the_cards_not_dealt():
    # Ks was dealt to Beto and passed to Carla: it is not in the stock
    text = hand(["draw Beto Ks"])
    assert_error(text, "N2.4", "draw Beto Ks")


def test_n4_6_several_deal_lines_for_one_player_add_up():
    beto = BETO.split()
    text = rec([f"deal Beto {' '.join(beto[:4])}", f"deal Carla {CARLA}",
                f"deal Beto {' '.join(beto[4:])}", f"deal Ana {ANA}", "cambio Beto Ks"])
    j = assert_ok(text)
    assert j["fouls"] == []


# ---------------------------------------------------------------- R3.4 / F1 misdeal

MISDEAL = deal_events(ana=ANA + " Kh") + ["return Ana Kh"]


def test_f1_misdeal_disqualifies_the_dealer_at_the_line_that_ends_the_deal():
    text = rec(MISDEAL + ["cambio Beto Ks", "cambio Carla Qh"])
    j = assert_ok(text)
    assert foul_lines(j) == [(line_of(text, "cambio Beto Ks"), "Ana", "F1", True)]


def test_f1_misdeal_by_dealing_a_non_dealer_too_many_still_charges_the_dealer():
    text = rec(deal_events(beto=BETO + " Kh") + ["return Beto Kh", "cambio Beto Ks"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F1", True)]


def test_n4_6_the_deal_is_judged_by_totals_before_any_return():
    # Beto got ten, one went back: his total dealt is still ten, a misdeal
    text = rec(deal_events(beto=BETO + " Kh") + ["return Beto Kh", "cambio Beto Ks",
                                                 "cambio Carla Qh"])
    assert fouls_of(verdict(text)) == [("Ana", "F1", True)]


def test_n4_6_a_misdeal_is_one_foul_however_many_players_were_dealt_wrong():
    text = rec(deal_events(beto=BETO + " Kh", carla=CARLA + " Kd")
               + ["return Beto Kh", "return Carla Kd", "cambio Beto Ks"])
    assert fouls_of(verdict(text)) == [("Ana", "F1", True)]


def test_closed_misdeal_conformance_example():
    text = rec(["deal Beto ?x9", "deal Carla ?x9", "deal Ana ?x10", "return Ana ?",
                "cambio Beto ?", "cambio Carla ?", "draw Beto 2d", "meld Beto 2s 2d 2c",
                "pay Beto 7c"])
    j = assert_ok(text, "incomplete")
    assert fouls_of(j) == [("Ana", "F1", True)]


def test_r3_4_extra_cards_go_back_into_the_stock_and_can_be_drawn():
    text = rec(MISDEAL + ["cambio Beto Ks", "cambio Carla Qh", "draw Beto Kh"])
    assert_ok(text)


def test_r3_4_the_dealers_own_cards_are_set_aside_out_of_play():
    text = rec(MISDEAL + ["cambio Beto Ks", "cambio Carla Qh", "draw Beto Jd"])  # Jd is Ana's
    assert_error(text, "N2.4", "draw Beto Jd")


def test_r3_4_a_short_hand_is_completed_from_the_stock_written_as_foul_then_deal():
    beto = " ".join(BETO.split()[:8])  # Ks missing
    text = rec([f"deal Beto {beto}", f"deal Carla {CARLA}", f"deal Ana {ANA}",
                "foul Ana misdeal", "deal Beto Ks", "cambio Beto Ks", "cambio Carla Qh"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F1", True)]


def test_r3_4_forgiving_a_misdeal_cancels_only_the_disqualification():
    text = rec(MISDEAL[:3] + ["forgive Ana", "return Ana Kh", "cambio Beto Ks",
                              "cambio Carla Qh", "cambio Ana 2c", "draw Beto 2d"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F1", False)]


def test_r3_4_a_forgiven_misdeal_still_needs_the_extra_card_returned():
    text = rec(MISDEAL[:3] + ["forgive Ana", "cambio Beto Ks"])
    j = assert_error(text, "R3.5", "cambio Beto Ks")
    assert fouls_of(j) == [("Ana", "F1", False)]


def test_n4_6_forgive_anywhere_in_the_deal_after_the_misdealt_line():
    text = rec([f"deal Beto {BETO} Kh", "forgive Ana", f"deal Carla {CARLA}", f"deal Ana {ANA}",
                "return Beto Kh", "cambio Beto Ks"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F1", False)]


def test_n4_6_forgive_before_any_misdeal_is_out_of_place():
    text = rec(["forgive Ana"] + deal_events())
    assert_error(text, "R14.3", "forgive Ana")


def test_f1_a_misdeal_is_the_dealers_foul_not_another_players():
    text = rec(deal_events() + ["foul Beto misdeal"])
    assert_error(text, "R14.3", "foul Beto misdeal")


# ---------------------------------------------------------------- R3.5 nine before play

def test_r3_5_an_extra_card_not_returned_is_an_error_at_the_line_that_ends_the_deal():
    text = rec(deal_events(beto=BETO + " Kh") + ["cambio Beto Ks"])
    j = assert_error(text, "R3.5", "cambio Beto Ks")
    assert fouls_of(j) == [("Ana", "F1", True)]


def test_r3_5_a_short_hand_not_completed_is_an_error():
    beto = " ".join(BETO.split()[:8])
    text = rec([f"deal Beto {beto}", f"deal Carla {CARLA}", f"deal Ana {ANA}", "draw Beto 2d"])
    assert_error(text, "R3.5", "draw Beto 2d")


def test_r3_5_the_dealers_short_hand_does_not_matter_once_disqualified():
    ana = " ".join(ANA.split()[:8])
    text = rec(deal_events(ana=ana) + ["cambio Beto Ks", "cambio Carla Qh", "draw Beto 2d"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F1", True)]


def test_n4_6_a_deal_line_after_the_deal_ended_is_an_error():
    text = rec(deal_events() + ["cambio Beto Ks", "deal Beto Kh"])
    assert_error(text, "N4.6", "deal Beto Kh")


def test_n4_6_the_deal_ends_at_the_first_other_event():
    # `announce` ends the deal: a `return` after it is out of place
    text = rec(deal_events(beto=BETO + " Kh") + ["announce Beto oro Qd", "return Beto Kh"])
    j = verdict(text)
    assert j["status"] == "invalid"
    # the deal ended (with ten for Beto) at the announcement: R3.5 there
    assert j["errors"][0]["line"] == line_of(text, "announce Beto oro Qd")
    assert j["errors"][0]["code"] == "R3.5"


# ---------------------------------------------------------------- R14 in the deal

def test_r14_4_cambio_goes_round_the_players_still_in_after_a_misdeal():
    # Ana (dealer) is out: Carla's pass goes to Beto, skipping Ana (R5.1 "next player still in")
    text = rec(MISDEAL + ["cambio Beto Ks", "cambio Carla Qh", "draw Beto Qs",
                          "meld Beto Qs Qd Qh", "pay Beto 7c"])
    assert_ok(text)


def test_r14_1_a_disqualified_dealer_takes_no_part_in_the_cambio():
    # the dealer's cards are out of play (R3.4): passing one is "known to be elsewhere",
    # which N5.1 checks before the cambio's own R5.1
    text = rec(MISDEAL + ["cambio Ana 2c"])
    assert_error(text, "N2.4", "cambio Ana 2c")


def test_r14_1_a_disqualified_dealer_does_not_draw():
    text = rec(MISDEAL + ["cambio Beto Ks", "cambio Carla Qh", "draw Beto 7s", "draw Beto 8s",
                          "draw Carla 9h", "draw Ana Kh"])
    j = verdict(text)
    assert j["status"] == "invalid"
    assert j["errors"][0]["line"] == line_of(text, "draw Ana Kh")
    assert j["errors"][0]["code"] == "R7.6"


def test_r14_4_turns_skip_the_disqualified_dealer():
    # after Carla's card goes dead, Carla's right is Ana (out): Beto draws
    text = rec(MISDEAL + ["cambio Beto Ks", "cambio Carla Qh", "draw Beto 7s", "draw Beto 8s",
                          "draw Carla 9h", "draw Beto Kh"])
    assert_ok(text)


def test_r14_4_a_lone_player_after_a_misdeal_has_no_cambio():
    events = [f"deal Beto {BETO}", f"deal Ana {ANA} Kh", "return Ana Kh", "cambio Beto Ks"]
    text = raw(tags_text(players=("Ana", "Beto")), events)
    assert_error(text, "R5.1", "cambio Beto Ks")
    # and the lone player draws at once
    events = events[:3] + ["draw Beto 7s"]
    text = raw(tags_text(players=("Ana", "Beto")), events)
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F1", True)]


def test_r14_1_a_disqualified_dealers_ante_stays_in_the_pot():
    peladilla = {"Beto": "As 3c 4d 7h 8s Td Js Qh Kd", "Carla": "5s 5h 5d 2c 9d Jh Ks Qc 6h",
                 "Ana": "2s 6s 9c Tc 3h 4c 8d 6d Ac Kh"}
    text = rec([f"deal Beto {peladilla['Beto']}", f"deal Carla {peladilla['Carla']}",
                f"deal Ana {peladilla['Ana']}", "return Ana Kh", "declare Beto peladilla", "end"])
    j = assert_ok(text, "complete")
    assert fouls_of(j) == [("Ana", "F1", True)]
    assert j["pot"] == "30.00"
    assert j["net"] == {"Ana": "-10.00", "Beto": "20.00", "Carla": "-10.00"}


def test_n4_6_a_written_misdeal_is_forgiven_by_the_dealer_in_the_deal():
    beto = " ".join(BETO.split()[:8])
    text = rec([f"deal Beto {beto}", f"deal Carla {CARLA}", f"deal Ana {ANA}",
                "foul Ana misdeal", "deal Beto Ks", "forgive Ana", "cambio Beto Ks",
                "cambio Carla Qh", "cambio Ana 2c", "draw Beto 2d"])
    j = assert_ok(text)
    assert fouls_of(j) == [("Ana", "F1", False)]


def test_r12_5_a_misdealing_dealer_pays_arriba_del_palo_on_an_automatic_win():
    peladilla = {"Beto": "As 3c 4d 7h 8s Td Js Qh Kd", "Carla": "5s 5h 5d 2c 9d Jh Ks Qc 6h",
                 "Ana": "2s 6s 9c Tc 3h 4c 8d 6d Ac Kh"}
    events = [f"deal Beto {peladilla['Beto']}", f"deal Carla {peladilla['Carla']}",
              f"deal Ana {peladilla['Ana']}", "return Ana Kh", "declare Beto peladilla", "end"]
    j = assert_ok(rec(events, options="todo"), "complete")
    assert j["net"] == {"Ana": "-20.00", "Beto": "40.00", "Carla": "-20.00"}
    j = assert_ok(rec(events, options="todo dq-bonus=exempt"), "complete")
    assert j["net"] == {"Ana": "-10.00", "Beto": "30.00", "Carla": "-20.00"}


def test_r14_4_a_lone_player_wins_only_by_laying_ten():
    # two players; Ana (dealer) misdeals and is out; Beto plays alone, no cambio, and lays
    # As..Ts of spades
    events = ["deal Beto 2s 3s 4s 5s 6s 7s 8s Kd 9d", "deal Ana Qc Qh Qs Kc Kh Ks 2c 3c 5h 5d",
              "return Ana 5d", "draw Beto 9s", "meld Beto 2s 3s 4s 5s 6s 7s 8s 9s",
              "pay Beto Kd", "draw Beto Ts", "add Beto Ts", "pay Beto 9d", "draw Beto As"]
    text = raw(tags_text(players=("Ana", "Beto"), options="todo"), events)
    j = assert_ok(text, "incomplete")  # nine down: not a win by being the last one in
    text = raw(tags_text(players=("Ana", "Beto"), options="todo"), events + ["add Beto As"])
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"]
    assert sorted(b["kind"] for b in j["bonuses"]) == ["arriba-del-palo", "color", "mico"]
    assert j["net"] == {"Ana": "-40.00", "Beto": "40.00"}


def test_n5_1_a_card_elsewhere_on_the_line_that_ends_the_deal_before_r3_5():
    # Beto holds ten (R3.5) and passes Jd, which is Ana's (N2.4): the N2.4 row comes first;
    # the misdeal is still found at this line
    text = rec(deal_events(beto=BETO + " Kh") + ["cambio Beto Jd"])
    j = assert_error(text, "N2.4", "cambio Beto Jd")
    assert fouls_of(j) == [("Ana", "F1", True)]


def test_r3_4_only_cards_dealt_too_many_go_back():
    text = rec(deal_events() + ["return Beto Ks"])
    assert_error(text, "R3.4", "return Beto Ks")
