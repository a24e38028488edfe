"""Money: R2 (stakes), R4 (side games), R11 (settlement) and R12 (bonuses), exact to the cent."""

import pytest

from desmoche_ref.cards import CARD_NAME, parse_card
from desmoche_ref.referee import judge_text
from desmoche_ref.session import check_session

from helpers import (assert_ok, balance, bonuses_of, friday, hand, line_of, verdict,
                     warnings_of)

# ---------------------------------------------------------------- side-game hands
# Beto holds RULES' Peladilla and declares it: the hand ends at `end`, Beto takes the main
# pot, and the side games are settled on the claims announced before.

PELADILLA = "As 3c 4d 7h 8s Td Js Qh Kd"


def fill(cards, used, n=9):
    """`cards` completed to n cards with cards not in `used` (fillers announce nothing)."""
    have = cards.split()
    taken = {parse_card(c) for c in used} | {parse_card(c) for c in have}
    for c in range(52):
        if len(have) == n:
            break
        if c not in taken:
            have.append(CARD_NAME[c])
            taken.add(c)
    return " ".join(have)


def side_hand(carla, ana, announce=(), show=(), side=(), beto=PELADILLA, cambio=None,
              after_declare=(), **tags):
    """Carla's and Ana's given cards are completed with fillers; Beto declares peladilla."""
    used = beto.split() + carla.split() + ana.split()
    carla9 = fill(carla, used)
    ana9 = fill(ana, used + carla9.split())
    deal = {"Beto": beto, "Carla": carla9, "Ana": ana9}
    events = ["declare Beto peladilla"] + list(after_declare)
    if cambio:
        events += [f"cambio {p} {c}" for p, c in cambio]
    events += ["end"] + list(show)
    return hand(events, deal=deal, cambio={}, pre=list(announce), side=side, **tags)


def side_of(j, game):
    (pot,) = [g for g in j["side_games"] if g["game"] == game]
    return pot


ALL3 = "5 Ana Beto Carla"


# ---------------------------------------------------------------- R2 stakes

def test_r2_1_every_player_antes_the_bet_into_the_main_pot():
    j = assert_ok(friday(options="", side=()), "complete")
    assert j["pot"] == "30.00"
    assert j["net"] == {"Ana": "-10.00", "Beto": "-10.00", "Carla": "20.00"}


def test_r2_3_a_hand_without_a_winner_carries_the_pot():
    deal = {"Ana": "2s 9h Kd 4c 7s Jh 3d 8c Qs", "Beto": "5h Ac Ts 6d 2h Kc 9s 4d Jc",
            "Carla": "7h Qd 3s 8h As 6c Td 2d 5c", "Dani": "Kh 4s 9d 3h Jd 7c 6h Qc 8s"}
    draws = ["5s", "Th", "2c", "6s", "Ad", "Js", "3c", "Ah", "7d", "9c", "Ks", "4h", "5d", "Qh",
             "8d", "Tc"]
    seq = ["Ana", "Ana"] + (["Beto", "Carla", "Dani", "Ana"] * 4)[:14]
    text = hand([f"draw {p} {c}" for p, c in zip(seq, draws)] + ["end"],
                players=("Ana", "Beto", "Carla", "Dani"), dealer="Dani", deal=deal,
                cambio={"Ana": "Kd", "Beto": "Jc", "Carla": "As", "Dani": "8s"}, bet="5",
                carry="20")
    j = assert_ok(text, "complete")
    assert (j["carry_in"], j["pot"], j["carry_out"]) == ("20.00", "40.00", "40.00")
    assert j["net"] == {"Ana": "-5.00", "Beto": "-5.00", "Carla": "-5.00", "Dani": "-5.00"}
    assert j["outcome"]["kind"] == "no-winner"
    assert balance(j) == 0


def test_r2_3_a_carried_pot_goes_to_the_next_winner():
    text = side_hand("", "", carry="45.50")
    j = assert_ok(text, "complete")
    assert (j["carry_in"], j["pot"], j["carry_out"]) == ("45.50", "75.50", "0.00")
    assert j["net"] == {"Ana": "-10.00", "Beto": "65.50", "Carla": "-10.00"}
    assert balance(j) == 0


def test_r2_4_amounts_are_exact_decimals():
    text = side_hand("", "", bet="2.5", options="todo")
    j = assert_ok(text, "complete")
    assert j["bet"] == "2.50" and j["pot"] == "7.50"
    assert j["net"] == {"Ana": "-5.00", "Beto": "10.00", "Carla": "-5.00"}


def session_of(first, second):
    return check_session(judge_text(first + "\n" + second))


def no_winner_then(bet2, carry2):
    from test_rules_deal import drain
    from helpers import DEAL, stock_of
    first = hand(drain(stock_of(DEAL), ["Beto", "Carla", "Ana"]) + ["end"])
    deal2 = {"Carla": "As 3c 4d 7h 8s Td Js Qh Kd", "Ana": fill("", PELADILLA.split()),
             "Beto": fill("", PELADILLA.split() + fill("", PELADILLA.split()).split())}
    second = hand(["declare Carla peladilla", "end"], dealer="Beto", deal=deal2, cambio={},
                  bet=bet2, carry=carry2)
    return first, second


def test_r2_3_the_next_hand_carries_in_exactly_what_was_carried_out():
    first, second = no_winner_then("10", "30")
    assert [p for p in session_of(first, second).problems if p[1] == "R2.3"] == []
    first, second = no_winner_then("10", "20")
    assert [p[1] for p in session_of(first, second).problems] == ["R2.3"]


def test_r2_2_the_bet_cannot_change_while_a_pot_is_carried():
    first, second = no_winner_then("20", "30")
    assert [p[1] for p in session_of(first, second).problems] == ["R2.3"]


# ---------------------------------------------------------------- R4.2 the side games

@pytest.mark.parametrize("game,carla,ana,winner,cards", [
    ("oro", "Qd", "9d", "Beto", ["Kd"]),               # Beto's Kd (shown by his declaration)
    ("rombo", "Qd", "9d", "Beto", ["Kd"]),
    ("corazon", "Kh", "6h", "Carla", ["Kh"]),
    ("flor", "Jc", "Ac", "Ana", ["Ac"]),
    ("corazon-negro", "Ks", "Qs", "Beto", ["As"]),
])
def test_r4_2_suit_games_highest_card_wins(game, carla, ana, winner, cards):
    beto_card = {"oro": "Kd", "rombo": "Kd", "corazon": "Qh", "flor": "3c",
                 "corazon-negro": "As"}[game]
    text = side_hand(carla, ana, side=(f"{game} {ALL3}",),
                     announce=[f"announce Beto {game} {beto_card}",
                               f"announce Carla {game} {carla}", f"announce Ana {game} {ana}"],
                     show=[f"show Carla {carla}", f"show Ana {ana}"])
    j = assert_ok(text, "complete")
    pot = side_of(j, "oro" if game == "rombo" else game)
    assert pot["winners"] == [winner] and pot["cards"] == cards
    assert pot["pot"] == "15.00" and pot["carry_out"] == "0.00"
    assert balance(j) == 0


@pytest.mark.parametrize("game,carla,ana,winner,cards", [
    ("par-rojo", "9h 9d", "Jh Jd", "Ana", ["Jh", "Jd"]),
    ("par-negro", "Ks Kc", "Qs Qc", "Carla", ["Ks", "Kc"]),
    ("dos-par-rojo", "Jh Jd 2h 2d", "9h 9d 5h 5d", "Carla", ["Jh", "Jd", "2h", "2d"]),
    ("dos-par-negro", "Ks Kc 2s 2c", "Qs Qc Ts Tc", "Carla",
     ["Ks", "Kc", "2s", "2c"]),
    ("tres-cuerpos", "9s 9h 9c", "Jh Jd Jc", "Ana", ["Jh", "Jd", "Jc"]),
])
def test_r4_2_pair_and_rank_games(game, carla, ana, winner, cards):
    text = side_hand(carla, ana, side=(f"{game} 5 Ana Carla",),
                     announce=[f"announce Carla {game} {carla}", f"announce Ana {game} {ana}"],
                     show=[f"show Carla {carla}", f"show Ana {ana}"])
    j = assert_ok(text, "complete")
    pot = side_of(j, game)
    # the order of a claim's cards is not part of the contract (N8): compare them sorted
    assert pot["winners"] == [winner] and sorted(pot["cards"]) == sorted(cards)
    assert pot["pot"] == "10.00"
    assert balance(j) == 0


BLACK_PELADILLA = "As 3c 4s 6c 7s 9c Ts Qc Ks"


def test_r4_2_dos_par_compares_the_higher_pair_first_then_the_lower():
    # K-K & 2-2 against Q-Q & J-J: the kings decide
    text = side_hand("Kh Kd 2h 2d", "Qh Qd Jh Jd", side=("dos-par-rojo 5 Ana Carla",),
                     beto=BLACK_PELADILLA,
                     announce=["announce Carla dos-par-rojo Kh Kd 2h 2d",
                               "announce Ana dos-par-rojo Qh Qd Jh Jd"],
                     show=["show Carla Kh Kd 2h 2d", "show Ana Qh Qd Jh Jd"])
    assert side_of(verdict(text), "dos-par-rojo")["winners"] == ["Carla"]
    # K-K & 2-2 against Q-Q & J-J is not decided by the lower pair (J beats 2)
    text = side_hand("Kh Kd 2h 2d", "Qh Qd Jh Jd", side=("dos-par-rojo 5 Ana Carla",),
                     beto=BLACK_PELADILLA, announce=["announce Ana dos-par-rojo Jh Jd Qh Qd",
                               "announce Carla dos-par-rojo 2h 2d Kh Kd"],
                     show=["show Carla Kh Kd 2h 2d", "show Ana Qh Qd Jh Jd"])
    assert side_of(verdict(text), "dos-par-rojo")["winners"] == ["Carla"]


def test_r4_2_a_claim_that_is_not_such_a_hand_is_void():
    text = side_hand("9h 9s", "", side=("par-rojo 5 Ana Carla",),
                     announce=["announce Carla par-rojo 9h 9s"], show=["show Carla 9h 9s"])
    j = assert_ok(text, "complete")
    assert side_of(j, "par-rojo")["winners"] == []
    assert warnings_of(j) == [("R4.2", line_of(text, "announce Carla par-rojo 9h 9s"))]


# ---------------------------------------------------------------- R4.3 escalera

def escalera(carla, ana, options=None, stake="5"):
    return side_hand(carla, ana, side=(f"escalera {stake} Ana Beto Carla",),
                     announce=[f"announce Carla escalera {carla}",
                               f"announce Ana escalera {ana}"],
                     show=[f"show Carla {carla}", f"show Ana {ana}"], options=options)


def test_r4_3_escalera_ranked_by_its_top_card():
    j = assert_ok(escalera("2h 3h 4h 5h", "6c 7c 8c"), "complete")
    assert side_of(j, "escalera")["winners"] == ["Ana"]


def test_r4_3_a_longer_run_beats_a_shorter_one_with_the_same_top():
    j = assert_ok(escalera("3h 4h 5h 6h", "4c 5c 6c"), "complete")
    assert side_of(j, "escalera")["winners"] == ["Carla"]


def test_r4_3_a23_high_by_default_a_run_with_a_2_3_ranks_above_every_other():
    j = assert_ok(escalera("9c Tc Jc Qc", "Ad 2d 3d"), "complete")
    assert side_of(j, "escalera")["winners"] == ["Ana"]
    assert sorted(side_of(j, "escalera")["cards"]) == ["2d", "3d", "Ad"]


def test_r4_3_a23_low_option_a_2_3_is_the_lowest_run():
    j = assert_ok(escalera("9c Tc Jc Qc", "Ad 2d 3d", options="escalera=a23-low"), "complete")
    assert side_of(j, "escalera")["winners"] == ["Carla"]


def test_r4_3_the_top_of_a_2_3_is_the_3_under_a23_low():
    j = assert_ok(escalera("2h 3h 4h", "Ad 2d 3d", options="escalera=a23-low"), "complete")
    assert side_of(j, "escalera")["winners"] == ["Carla"]


def test_r4_3_two_equal_escaleras_split_the_side_pot_odd_cent_to_the_dealers_right_first():
    # stake 0.05 x 3 = 0.15 between Carla and Ana; dealer Ana: Beto, Carla, Ana is the order
    j = assert_ok(escalera("4h 5h 6h", "4c 5c 6c", stake="0.05"), "complete")
    pot = side_of(j, "escalera")
    assert pot["winners"] == ["Carla", "Ana"] and pot["pot"] == "0.15"
    assert sorted(pot["cards"]) == ["4h", "5h", "6h"]
    assert j["net"] == {"Ana": "-9.98", "Beto": "19.95", "Carla": "-9.97"}
    assert balance(j) == 0


# ---------------------------------------------------------------- R4.4 / R4.5 claims

def test_r4_4_a_card_received_in_the_cambio_does_not_win():
    # Carla announces Kd, which Beto passes her in the cambio (after his declaration)
    text = side_hand("Qd", "9d", side=("oro 5 Ana Carla",),
                     announce=["announce Carla oro Kd"],
                     cambio=[("Beto", "Kd"), ("Carla", "Qd"), ("Ana", "9d")],
                     show=["show Carla Kd"])
    j = verdict(text)
    assert j["status"] == "complete", j["errors"]
    assert side_of(j, "oro")["winners"] == []
    assert warnings_of(j) == [("R4.4", line_of(text, "announce Carla oro Kd"))]


def test_r4_4_a_claim_whose_card_is_passed_in_the_cambio_is_void():
    text = side_hand("Qd", "9d 5c", side=("oro 5 Ana Carla",),
                     announce=["announce Carla oro Qd", "announce Ana oro 9d"],
                     cambio=[("Beto", "Js"), ("Carla", "Qd"), ("Ana", "5c")],
                     show=["show Ana 9d"])
    j = verdict(text)
    assert j["status"] == "complete", j["errors"]
    pot = side_of(j, "oro")
    assert pot["winners"] == ["Ana"] and pot["cards"] == ["9d"]
    assert warnings_of(j) == [("R4.4", line_of(text, "announce Carla oro Qd"))]


def test_r4_5_a_claim_never_shown_is_void():
    text = side_hand("Qd", "9d", side=("oro 5 Ana Carla",),
                     announce=["announce Carla oro Qd", "announce Ana oro 9d"],
                     show=["show Ana 9d"])
    j = assert_ok(text, "complete")
    assert side_of(j, "oro")["winners"] == ["Ana"]
    assert warnings_of(j) == [("R4.5", line_of(text, "announce Carla oro Qd"))]


def test_r4_5_a_claim_announced_after_the_cambio_began_is_void():
    text = side_hand("Qd", "", side=("oro 5 Ana Carla",),
                     cambio=[("Beto", "Js")], after_declare=[],
                     show=["show Carla Qd"]).replace(
        "cambio Beto Js\n", "cambio Beto Js\nannounce Carla oro Qd\n")
    j = assert_ok(text, "complete")
    assert side_of(j, "oro")["winners"] == []
    assert warnings_of(j) == [("R4.5", line_of(text, "announce Carla oro Qd"))]


def test_r4_5_a_card_is_shown_when_it_is_paid():
    # the open example: Carla pays Kc (dealt to her): her flor claim is shown by the pay
    text = friday(side=("oro 5 Ana Beto Carla", "flor 2 Beto Carla")).replace(
        "announce Beto oro Qd\n", "announce Beto oro Qd\nannounce Carla flor Kc\n")
    j = assert_ok(text, "complete")
    flor = side_of(j, "flor")
    assert flor["winners"] == ["Carla"] and flor["cards"] == ["Kc"] and flor["pot"] == "4.00"
    assert j["net"] == {"Ana": "-25.00", "Beto": "-12.00", "Carla": "37.00"}


def test_r4_5_a_card_is_shown_when_it_is_played_into_a_meld():
    # Ana's 8h goes into her 8s 8h 8c
    text = friday(side=("oro 5 Ana Beto Carla", "corazon 1 Ana Carla")).replace(
        "announce Beto oro Qd\n", "announce Beto oro Qd\nannounce Ana corazon 8h\n")
    j = assert_ok(text, "complete")
    assert side_of(j, "corazon")["winners"] == ["Ana"]


def test_r4_5_the_declarers_cards_are_shown_by_the_declaration():
    text = side_hand("Qd", "", side=("oro 5 Ana Beto Carla",),
                     announce=["announce Beto oro Kd"])
    j = assert_ok(text, "complete")
    assert side_of(j, "oro")["winners"] == ["Beto"]
    assert j["warnings"] == []


def test_r4_1_a_player_who_did_not_enter_cannot_win_the_side_game():
    text = side_hand("Qd", "9d", side=("oro 5 Ana Carla",),
                     announce=["announce Beto oro Kd", "announce Carla oro Qd"],
                     show=["show Carla Qd"])
    j = assert_ok(text, "complete")
    assert side_of(j, "oro")["winners"] == ["Carla"]
    assert warnings_of(j) == [("R4.1", line_of(text, "announce Beto oro Kd"))]


# ---------------------------------------------------------------- R4.6 / R4.7 side pots

def test_r4_6_the_best_valid_claim_wins_the_side_pot():
    text = side_hand("Qd", "9d", side=("oro 5 Ana Carla",), sidecarry=("oro 7.50",),
                     announce=["announce Carla oro Qd", "announce Ana oro 9d"],
                     show=["show Carla Qd", "show Ana 9d"])
    j = assert_ok(text, "complete")
    pot = side_of(j, "oro")
    assert (pot["carry_in"], pot["pot"], pot["carry_out"]) == ("7.50", "17.50", "0.00")
    assert j["net"] == {"Ana": "-15.00", "Beto": "20.00", "Carla": "2.50"}
    assert balance(j) == 0


def test_r4_6_no_valid_claim_carries_the_side_pot_by_default():
    text = side_hand("Qd", "", side=("oro 5 Ana Carla",), sidecarry=("oro 2.50",))
    j = assert_ok(text, "complete")
    pot = side_of(j, "oro")
    assert (pot["carry_in"], pot["pot"], pot["carry_out"], pot["winners"], pot["cards"]) == \
        ("2.50", "12.50", "12.50", [], [])
    assert j["net"] == {"Ana": "-15.00", "Beto": "20.00", "Carla": "-15.00"}
    assert balance(j) == 0


def test_r4_6_side_nowin_refund_returns_this_hands_stakes():
    text = side_hand("Qd", "", side=("oro 5 Ana Carla",), sidecarry=("oro 2.50",),
                     options="side-nowin=refund")
    j = assert_ok(text, "complete")
    pot = side_of(j, "oro")
    assert pot["carry_out"] == "2.50"
    assert j["net"] == {"Ana": "-10.00", "Beto": "20.00", "Carla": "-10.00"}
    assert balance(j) == 0


def test_r4_6_a_side_carry_without_a_side_tag_stays_for_the_next_hand():
    text = side_hand("", "", sidecarry=("flor 4",))
    j = assert_ok(text, "complete")
    pot = side_of(j, "flor")
    assert (pot["carry_in"], pot["carry_out"]) == ("4.00", "4.00")
    assert balance(j) == 0


def test_r4_7_a_disqualified_players_claim_is_void():
    text = side_hand("Qd", "9d", side=("oro 5 Ana Carla",),
                     announce=["announce Carla oro Qd", "announce Ana oro 9d"],
                     after_declare=["foul Carla peek"], show=["show Ana 9d"])
    j = assert_ok(text, "complete")
    assert side_of(j, "oro")["winners"] == ["Ana"]
    assert warnings_of(j) == [("R4.7", line_of(text, "announce Carla oro Qd"))]
    assert j["net"] == {"Ana": "-5.00", "Beto": "20.00", "Carla": "-15.00"}


# ---------------------------------------------------------------- R11 settlement

def test_r11_1_the_winner_takes_the_whole_main_pot_open_example():
    j = assert_ok(friday(), "complete")
    assert (j["bet"], j["carry_in"], j["pot"], j["carry_out"]) == ("10.00", "0.00", "30.00",
                                                                  "0.00")
    assert j["net"] == {"Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"}
    assert balance(j) == 0


def test_r11_4_nets_balance_with_pots_side_pots_and_bonuses():
    text = friday(side=("oro 5 Ana Beto Carla", "flor 2.25 Ana Carla"), carry="7",
                  sidecarry=("flor 1.10",))
    j = assert_ok(text, "complete")
    assert side_of(j, "flor")["carry_out"] == "5.60"
    assert j["net"] == {"Ana": "-27.25", "Beto": "-10.00", "Carla": "39.75"}
    assert balance(j) == 0


SPLIT = {"Carla": "As 3c 4d 7h 8s Td Js Qh Kd", "Ana": "Ah 3d 4c 7s 8d Tc Jh Qs Kc",
         "Beto": "5s 5h 5d 5c 9c 9d 6h 6c 2s"}


def test_r11_6_odd_cents_of_a_split_pot_go_in_seat_order_from_the_dealers_right():
    # dealer Ana: the order is Beto, Carla, Ana; the tied Carla gets the odd cent
    text = hand(["declare Ana peladilla", "declare Carla peladilla", "end"], deal=SPLIT,
                cambio={}, bet="0.05")
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Carla", "Ana"]
    assert j["net"] == {"Ana": "0.02", "Beto": "-0.05", "Carla": "0.03"}


def test_r11_6_split_bonus_shared_like_the_pot_one_entry_per_winner():
    text = hand(["declare Ana peladilla", "declare Carla peladilla", "end"], deal=SPLIT,
                cambio={}, bet="0.05", options="todo")
    j = assert_ok(text, "complete")
    assert bonuses_of(j) == [("arriba-del-palo", "Beto", "Carla", "0.03"),
                             ("arriba-del-palo", "Beto", "Ana", "0.02")]
    assert j["net"] == {"Ana": "0.04", "Beto": "-0.10", "Carla": "0.06"}
    assert balance(j) == 0


def test_r11_6_odd_cents_follow_the_dealer_not_the_seat_list():
    # dealer Carla: the order is Ana, Beto, Carla: Ana gets the odd cent
    deal = {"Ana": SPLIT["Ana"], "Carla": SPLIT["Carla"], "Beto": SPLIT["Beto"]}
    text = hand(["declare Carla peladilla", "declare Ana peladilla", "end"], dealer="Carla",
                deal=deal, cambio={}, bet="0.05")
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Ana", "Carla"]
    assert j["net"] == {"Ana": "0.03", "Beto": "-0.05", "Carla": "0.02"}


def test_r11_7_a_result_that_agrees():
    j = assert_ok(friday(result="Carla"), "complete")
    assert (j["result_claimed"], j["result_agrees"]) == ("Carla", True)
    assert j["warnings"] == []


def test_r11_7_a_result_that_disagrees_is_a_warning_at_the_result_tag():
    text = friday(result="Beto")
    j = assert_ok(text, "complete")
    assert (j["result_claimed"], j["result_agrees"]) == ("Beto", False)
    assert warnings_of(j) == [("R11.7", line_of(text, '[Result "Beto"]'))]


def test_r11_7_result_none_for_a_hand_without_a_winner():
    from test_rules_deal import drain
    from helpers import DEAL, stock_of
    text = hand(drain(stock_of(DEAL), ["Beto", "Carla", "Ana"]) + ["end"], result="none")
    j = assert_ok(text, "complete")
    assert (j["result_claimed"], j["result_agrees"]) == ("none", True)


def test_r11_7_result_of_a_split_names_both_winners():
    text = hand(["declare Ana peladilla", "declare Carla peladilla", "end"], deal=SPLIT,
                cambio={}, result="Ana Carla")
    j = assert_ok(text, "complete")
    assert j["result_agrees"] is True


def test_r11_7_result_agrees_is_null_until_the_hand_is_complete():
    text = hand(["draw Beto 7s"], result="Carla")
    j = assert_ok(text, "incomplete")
    assert (j["result_claimed"], j["result_agrees"]) == ("Carla", None)


# ---------------------------------------------------------------- R12 bonuses

def test_r12_1_no_bonuses_without_todo():
    j = assert_ok(friday(options=""), "complete")
    assert j["bonuses"] == []
    assert j["net"] == {"Ana": "-15.00", "Beto": "0.00", "Carla": "15.00"}


def test_r12_2_mico_from_every_loser_open_example():
    j = assert_ok(friday(), "complete")
    assert sorted(bonuses_of(j)) == [("mico", "Ana", "Carla", "10.00"),
                                     ("mico", "Beto", "Carla", "10.00")]


TWO_MICOS = {"Beto": "4h 5h 6h 7c 8d Th Jc Qd Ks", "Carla": "As 2s 3s Ah 2h 9s 9d 9c Kd",
             "Ana": "4s 5s 6s 8h 8c Jd Jh 2c Ac"}
TWO_MICOS_PLAY = ["draw Beto 3h", "meld Carla Ah 2h 3h", "meld Carla As 2s 3s",
                  "meld Carla 9s 9d 9c", "pay Carla Ks", "draw Ana 9h", "add Carla 9h"]


def test_r12_2_two_a_2_3_runs_pay_two_micos_and_arriba_del_palo_stacks():
    text = hand(TWO_MICOS_PLAY, deal=TWO_MICOS, cambio={"Beto": "Ks", "Carla": "Kd", "Ana": "2c"},
                options="todo")
    j = assert_ok(text, "complete")
    assert sorted(bonuses_of(j)) == sorted([("mico", "Beto", "Carla", "10.00")] * 2
                                           + [("mico", "Ana", "Carla", "10.00")] * 2
                                           + [("arriba-del-palo", "Beto", "Carla", "10.00"),
                                              ("arriba-del-palo", "Ana", "Carla", "10.00")])
    assert j["net"] == {"Ana": "-40.00", "Beto": "-40.00", "Carla": "80.00"}
    assert balance(j) == 0


SPADES = {"Beto": "2s 3s 4s 5s 6s 7s 8s Kd 9d", "Carla": "Qc Qh Qs Kc Kh Ks 2c 3c 5h",
          "Ana": "4h 6h 7h 8h 9h Th Jh 2d 3d"}
SPADES_CAMBIO = {"Beto": "9d", "Carla": "5h", "Ana": "3d"}
# after the cambio Beto: 2s..8s Kd 3d
SPADES_PLAY = ["draw Beto 9s", "meld Beto 2s 3s 4s 5s 6s 7s 8s 9s", "pay Beto Kd",
               "meld Carla Kc Kh Ks Kd", "pay Carla 2c", "draw Ana Ts", "add Beto Ts",
               "pay Beto 3d", "draw Carla As", "add Beto As"]


def spades(pre_play=(), **tags):
    tags.setdefault("options", "todo")
    return hand(list(pre_play) + SPADES_PLAY, deal=SPADES, cambio=SPADES_CAMBIO, **tags)


def test_r12_4_color_and_mico_on_a_to_10_of_spades_plus_arriba_del_palo():
    text = spades()
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"]
    assert sorted(bonuses_of(j)) == sorted([
        ("mico", "Carla", "Beto", "10.00"), ("color", "Carla", "Beto", "10.00"),
        ("mico", "Ana", "Beto", "10.00"), ("color", "Ana", "Beto", "10.00"),
        ("arriba-del-palo", "Ana", "Beto", "10.00")])
    assert j["net"] == {"Ana": "-40.00", "Beto": "70.00", "Carla": "-30.00"}
    assert balance(j) == 0


def test_r12_1_each_bonus_is_worth_the_bet():
    j = assert_ok(spades(bet="2.35"), "complete")
    assert {b["amount"] for b in j["bonuses"]} == {"2.35"}
    assert j["net"] == {"Ana": "-9.40", "Beto": "16.45", "Carla": "-7.05"}


def spades_without_ana(**tags):
    # Ana is disqualified before the first draw: Beto draws the Ts in her place
    play = [l.replace("draw Ana Ts", "draw Beto Ts") for l in SPADES_PLAY]
    tags.setdefault("options", "todo")
    return hand(["foul Ana peek"] + play, deal=SPADES, cambio=SPADES_CAMBIO, **tags)


def test_r12_5_a_disqualified_player_pays_bonuses_and_is_up_the_tree():
    text = spades_without_ana()
    j = assert_ok(text, "complete")
    assert sorted(b for b in bonuses_of(j) if b[1] == "Ana") == sorted([
        ("mico", "Ana", "Beto", "10.00"), ("color", "Ana", "Beto", "10.00"),
        ("arriba-del-palo", "Ana", "Beto", "10.00")])
    assert j["net"]["Ana"] == "-40.00"


def test_r12_5_dq_bonus_exempt_excuses_a_disqualified_player():
    text = spades_without_ana(options="todo dq-bonus=exempt")
    j = assert_ok(text, "complete")
    assert [b for b in bonuses_of(j) if b[1] == "Ana"] == []
    assert j["net"] == {"Ana": "-10.00", "Beto": "40.00", "Carla": "-30.00"}


def test_r12_5_a_disqualified_player_who_had_laid_is_not_up_the_tree():
    # Carla laid her kings, then is disqualified: Mico and Color, no Arriba del Palo
    play = SPADES_PLAY[:5] + ["foul Carla peek", "draw Ana Ts",
                              "add Beto Ts", "pay Beto 3d", "draw Ana As", "add Beto As"]
    text = hand(play, deal=SPADES, cambio=SPADES_CAMBIO, options="todo")
    j = assert_ok(text, "complete")
    assert sorted(b[0] for b in bonuses_of(j) if b[1] == "Carla") == ["color", "mico"]


def test_r12_6_conquien_has_no_bonuses():
    j = assert_ok(spades(rules="conquien", options=None), "complete")
    assert j["bonuses"] == []
    assert j["options"]["todo"] is False and j["options"]["auto"] is False
    assert j["net"] == {"Ana": "-10.00", "Beto": "20.00", "Carla": "-10.00"}


def test_r12_6_conquien_with_todo_has_bonuses():
    j = assert_ok(spades(rules="conquien", options="todo"), "complete")
    assert len(j["bonuses"]) == 5


def test_r12_4_no_color_bonus_for_ten_red_cards_of_two_suits():
    deal = {"Beto": "2h 3h 4h 5h 6h 7h Td Jd Kc", "Carla": "As 2s 3s 9s 9c 5c 6c Qc Qs",
            "Ana": "4s 5s 6s 8c 8s Js Jc 2c Ac"}
    text = hand(["draw Beto 8h", "meld Beto 2h 3h 4h 5h 6h 7h 8h", "pay Beto 2c",
                 "draw Carla 9d", "meld Beto 9d Td Jd"], deal=deal,
                cambio={"Beto": "Kc", "Carla": "Qs", "Ana": "2c"}, options="todo")
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"]
    assert bonuses_of(j) == [("arriba-del-palo", "Carla", "Beto", "10.00"),
                             ("arriba-del-palo", "Ana", "Beto", "10.00")]
    assert j["net"] == {"Ana": "-20.00", "Beto": "40.00", "Carla": "-20.00"}


def test_r4_4_a_claim_a_closed_record_cannot_verify_is_a_warning_and_still_counts():
    # Carla's hand is unknown; her Qd may be the unknown card Beto passed her in the cambio
    text = hand(["declare Ana peladilla", "cambio Beto ?", "cambio Carla ?", "cambio Ana Kd",
                 "end", "show Carla Qd"],
                deal={"Beto": "?x9", "Carla": "?x9", "Ana": PELADILLA}, cambio={},
                pre=["announce Carla oro Qd"], side=("oro 5 Ana Carla",))
    j = verdict(text)
    assert j["status"] == "complete", j["errors"]
    assert side_of(j, "oro")["winners"] == ["Carla"]
    assert warnings_of(j) == [("R4.4", line_of(text, "announce Carla oro Qd"))]


def test_r4_5_a_closed_records_claim_never_shown_is_void_as_never_shown_not_as_not_dealt():
    # Carla's hand is unknown and her Qd is never seen: it may have been dealt to her, so the
    # claim is void because it was never shown (R4.5), as in the open record — not R4.4
    text = hand(["declare Ana peladilla", "cambio Beto ?", "cambio Carla ?", "cambio Ana Kd", "end"],
                deal={"Beto": "?x9", "Carla": "?x9", "Ana": PELADILLA}, cambio={},
                pre=["announce Carla oro Qd"], side=("oro 5 Ana Carla",))
    j = verdict(text)
    assert j["status"] == "complete", j["errors"]
    assert side_of(j, "oro")["winners"] == [] and side_of(j, "oro")["carry_out"] == "10.00"
    assert [(w["line"], w["code"], w["message"]) for w in j["warnings"]] == [
        (line_of(text, "announce Carla oro Qd"), "R4.5", "Carla's oro claim is void: Qd was never shown")]
    # a card the record shows in another hand was not dealt to her: still R4.4
    elsewhere = text + "show Beto Qd\n"
    assert warnings_of(verdict(elsewhere)) == [("R4.4", line_of(text, "announce Carla oro Qd"))]


def test_r4_6_the_next_hand_carries_in_the_side_pot_carried_out():
    first = side_hand("Qd", "", side=("oro 5 Ana Carla",))  # no claim: 10.00 carries
    deal2 = {"Carla": PELADILLA, "Ana": fill("", PELADILLA.split())}
    deal2["Beto"] = fill("", PELADILLA.split() + deal2["Ana"].split())
    ok = hand(["declare Carla peladilla", "end"], dealer="Beto", deal=deal2, cambio={},
              sidecarry=("oro 10",))
    bad = hand(["declare Carla peladilla", "end"], dealer="Beto", deal=deal2, cambio={},
               sidecarry=("oro 5",))
    assert [p for p in session_of(first, ok).problems if p[1] == "R4.6"] == []
    assert [p[1] for p in session_of(first, bad).problems] == ["R4.6"]


def test_r11_5_a_carried_pot_never_won_is_returned_in_proportion():
    # hand 1: oro entered by Ana and Carla, no claim: 10.00 carries; hand 2: all three enter,
    # no claim again: 25.00 is left when the table breaks up: Ana and Carla put in 10.00
    # each, Beto 5.00
    first = side_hand("", "", side=("oro 5 Ana Carla",))
    deal2 = {"Carla": PELADILLA, "Ana": fill("", PELADILLA.split())}
    deal2["Beto"] = fill("", PELADILLA.split() + deal2["Ana"].split())
    second = hand(["declare Carla peladilla", "end"], dealer="Beto", deal=deal2, cambio={},
                  side=("oro 5 Ana Beto Carla",), sidecarry=("oro 10",))
    session = session_of(first, second)
    assert session.problems == [] and session.refund == {}  # the table did not break up (N9.4)
    session = session_of(first, second.replace("[Players", '[Closed "yes"]\n[Players'))
    assert session.problems == []
    assert session.refund == {"Ana": 1000, "Beto": 500, "Carla": 1000}


def test_r11_5_a_main_pot_carried_at_the_end_goes_back_to_those_who_anted():
    from test_rules_deal import drain
    from helpers import DEAL, stock_of
    text = hand(drain(stock_of(DEAL), ["Beto", "Carla", "Ana"]) + ["end"], extra=('[Closed "yes"]',))
    session = check_session(judge_text(text))
    assert session.refund == {"Ana": 1000, "Beto": 1000, "Carla": 1000}
    assert set(session.final.values()) == {0}


def test_r4_4_a_claim_on_a_card_dealt_to_someone_else_is_void():
    # the open example, with Beto also claiming Ana's Jd for oro
    text = friday().replace("announce Beto oro Qd\n", "announce Beto oro Qd\n"
                            "announce Carla oro Jd\n")
    j = assert_ok(text, "complete")
    assert side_of(j, "oro")["winners"] == ["Beto"]
    assert warnings_of(j) == [("R4.4", line_of(text, "announce Carla oro Jd"))]


def test_r11_6_a_three_way_split_gives_the_two_odd_cents_in_order_from_the_dealers_right():
    # three equal Peladillas at a table of four; dealer Ana: the order is Beto, Carla, Dani,
    # Ana; the pot of 0.20 splits 0.07, 0.07, 0.06
    deal = {"Carla": "As 3s 4h 7s 8h Ts Jh Qd Kc", "Dani": "Ah 3h 4d 7h 8d Th Jd Qc Ks",
            "Ana": "Ad 3d 4c 7d 8c Td Jc Qs Kh", "Beto": "2s 2h 2d 2c 5s 5h 5d 6s 6h"}
    text = hand(["declare Ana peladilla", "declare Dani peladilla", "declare Carla peladilla",
                 "end"], players=("Ana", "Beto", "Carla", "Dani"), deal=deal, cambio={},
                bet="0.05")
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Carla", "Dani", "Ana"]
    assert j["net"] == {"Ana": "0.01", "Beto": "-0.05", "Carla": "0.02", "Dani": "0.02"}


def test_r11_2_bonuses_are_paid_by_each_losing_player_on_top_of_the_pot():
    j = assert_ok(spades(), "complete")
    paid = {}
    for kind, payer, to, amount in bonuses_of(j):
        assert to == "Beto"
        paid[payer] = paid.get(payer, 0) + float(amount)
    assert paid == {"Carla": 20.0, "Ana": 30.0}
    assert j["pot"] == "30.00"


def test_r11_3_side_pots_are_settled_separately_from_the_main_pot():
    # Beto wins the main pot; Carla and Ana share nothing of it, Ana wins the oro pot
    text = side_hand("Qd", "9d", side=("oro 5 Ana Carla",),
                     announce=["announce Ana oro 9d"], show=["show Ana 9d"])
    j = assert_ok(text, "complete")
    assert j["outcome"]["winners"] == ["Beto"] and j["pot"] == "30.00"
    assert side_of(j, "oro")["winners"] == ["Ana"] and side_of(j, "oro")["pot"] == "10.00"
    assert j["net"] == {"Ana": "-5.00", "Beto": "20.00", "Carla": "-15.00"}


def test_r12_3_arriba_del_palo_only_from_a_loser_who_had_laid_no_card():
    j = assert_ok(spades(), "complete")
    arriba = [b for b in bonuses_of(j) if b[0] == "arriba-del-palo"]
    assert arriba == [("arriba-del-palo", "Ana", "Beto", "10.00")]  # Carla laid her kings


def test_r4_3_among_a_2_3_runs_the_higher_top_wins():
    j = assert_ok(escalera("Ah 2h 3h 4h", "Ad 2d 3d"), "complete")
    assert side_of(j, "escalera")["winners"] == ["Carla"]


def test_r15_options_override_the_preset():
    j = assert_ok(spades(rules="conquien", options="todo dq-bonus=exempt color=off"), "complete")
    assert (j["rules"], j["options"]["todo"], j["options"]["auto"], j["options"]["dq-bonus"],
            j["options"]["color"]) == ("conquien", True, False, "exempt", "off")


def test_r4_5_showing_a_card_one_does_not_hold_is_an_error():
    text = side_hand("Qd", "9d", side=("oro 5 Ana Carla",),
                     announce=["announce Carla oro Qd"], show=["show Carla 9d"])
    j = verdict(text)
    assert (j["status"], j["errors"][0]["code"], j["errors"][0]["line"]) == \
        ("invalid", "N2.4", line_of(text, "show Carla 9d"))
