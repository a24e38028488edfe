"""The verdicts of the sample hand records in sample_logs/, pinned hand by hand.

Every record is run once through the real command line
(`python -m desmoche_ref check --json FILE`, NOTATION N8) and the report is
compared with the verdict RULES.md and NOTATION.md give for it. The expected
values were worked out from the rules by hand (and with a throwaway replay of
the deck), not copied from the engine's output. Each test is named after the
rule it exercises; the comment on each block says which hand of which file.
"""

import functools
import json
import pathlib
import subprocess
import sys
from decimal import Decimal

import pytest

from helpers import EXAMPLE_REPORT

ROOT = pathlib.Path(__file__).resolve().parents[1]
LOGS = ROOT / "sample_logs"

SAMPLES = sorted(p.name for p in LOGS.glob("*.dsm"))
INVALID = {
    "dispute-claims.dsm",
    "dispute-draw-out-of-turn.dsm",
    "dispute-forced-card.dsm",
    "dispute-hand-melds.dsm",
    "dispute-not-a-meld.dsm",
    "dispute-pass-refused.dsm",
    "dispute-short-deal.dsm",
}


VALID = tuple(n for n in SAMPLES if n not in INVALID)


@functools.lru_cache(maxsize=None)
def run_batch(names):
    """(exit status, JSON report) of one `check --json` over several samples.

    Two subprocesses in all (the valid samples, the invalid ones), so the exit
    status of each batch is still checked (N8: 0, or 1 if any hand is invalid).
    """
    run = subprocess.run(
        [sys.executable, "-m", "desmoche_ref", "check", "--json", *(f"sample_logs/{n}" for n in names)],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )
    assert run.stdout, f"no output: {run.stderr[-2000:]}"
    return run.returncode, json.loads(run.stdout)


def entry(name):
    """The report's entry for one sample: {"path": ..., "hands": [...]}."""
    batch = tuple(sorted(INVALID)) if name in INVALID else VALID
    _, report = run_batch(batch)
    found = [f for f in report["files"] if f["path"] == f"sample_logs/{name}"]
    assert len(found) == 1, [f["path"] for f in report["files"]]
    return found[0]


def check(name):
    """(exit status of its batch, hands) of one sample."""
    batch = tuple(sorted(INVALID)) if name in INVALID else VALID
    return run_batch(batch)[0], entry(name)["hands"]


def hand(name, number):
    """Hand `number` (1-based, in file order) of a sample."""
    return check(name)[1][number - 1]


def fouls(h):
    return sorted((f["player"], f["code"], f["enforced"]) for f in h["fouls"])


def foul_lines(h):
    return sorted((f["line"], f["code"]) for f in h["fouls"])


def warning_codes(h):
    return sorted(w["code"] for w in h["warnings"])


def bonuses(h):
    return sorted((b["kind"], b["from"], b["to"], b["amount"]) for b in h["bonuses"])


def side(h, game):
    games = [g for g in h["side_games"] if g["game"] == game]
    assert len(games) == 1, h["side_games"]
    return games[0]


def assert_outcome(h, kind, winners, line, auto=None):
    assert h["status"] == "complete", (h["status"], h["errors"])
    assert h["errors"] == []
    o = h["outcome"]
    assert (o["kind"], o["winners"], o["auto"], o["line"]) == (kind, winners, auto, line)


def assert_invalid(h, code, line):
    assert h["status"] == "invalid"
    assert len(h["errors"]) == 1, h["errors"]
    assert (h["errors"][0]["code"], h["errors"][0]["line"]) == (code, line)
    assert h["outcome"] is None and h["net"] is None


# ---------------------------------------------------------------- whole files

def test_sample_set_is_complete():
    # the brief: at least twelve records, and the club night among them
    assert len(SAMPLES) >= 12
    assert "club-night.dsm" in SAMPLES


def test_n8_exit_status():
    assert set(INVALID) <= set(SAMPLES)
    assert run_batch(VALID)[0] == 0
    assert run_batch(tuple(sorted(INVALID)))[0] == 1


@pytest.mark.parametrize("name", SAMPLES)
def test_n5_4_status_of_every_hand(name):
    hands = check(name)[1]
    assert hands, name
    invalid = [h["status"] for h in hands if h["status"] == "invalid"]
    assert bool(invalid) == (name in INVALID)
    if name not in INVALID:
        assert all(h["status"] == "complete" for h in hands), [h["status"] for h in hands]


@pytest.mark.parametrize("name", SAMPLES)
def test_r11_4_money_is_conserved(name):
    # N8: sum of nets + (carry_out - carry_in) of the main pot and every side pot == 0
    for h in check(name)[1]:
        if h["status"] != "complete":
            continue
        total = sum(Decimal(v) for v in h["net"].values())
        total += Decimal(h["carry_out"]) - Decimal(h["carry_in"])
        for g in h["side_games"]:
            total += Decimal(g["carry_out"]) - Decimal(g["carry_in"])
        assert total == 0, (name, h["line"])


# ------------------------------------------------------------- club-night.dsm
CLUB = "club-night.dsm"


def test_club_night_is_one_table_all_night():
    hands = check(CLUB)[1]
    assert len(hands) == 11
    assert all(h["status"] == "complete" for h in hands)
    assert all(h["players"] == ["Ana", "Beto", "Carla", "Dani"] for h in hands)


def test_r3_1_deal_passes_to_the_right_club_night():
    hands = check(CLUB)[1]
    seats = hands[0]["players"]
    for before, after in zip(hands, hands[1:]):
        assert after["dealer"] == seats[(seats.index(before["dealer"]) + 1) % len(seats)]


def test_r2_3_main_pot_carries_hand_to_hand_club_night():
    hands = check(CLUB)[1]
    for before, after in zip(hands, hands[1:]):
        assert after["carry_in"] == before["carry_out"]
    assert [h["carry_out"] for h in hands].count("40.00") == 2  # hands 2 and 8
    assert (hand(CLUB, 3)["carry_in"], hand(CLUB, 3)["pot"]) == ("40.00", "80.00")
    assert (hand(CLUB, 9)["carry_in"], hand(CLUB, 9)["pot"]) == ("40.00", "80.00")


def test_r4_6_side_pot_carries_hand_to_hand_club_night():
    hands = check(CLUB)[1]
    for before, after in zip(hands, hands[1:]):
        assert side(after, "oro")["carry_in"] == side(before, "oro")["carry_out"]


def test_r10_1_ten_down_wins_club_night_h1():
    h = hand(CLUB, 1)
    assert_outcome(h, "win", ["Carla"], 41)
    assert h["pot"] == "40.00"
    assert h["net"] == {"Ana": "0.00", "Beto": "-15.00", "Carla": "35.00", "Dani": "-20.00"}
    assert bonuses(h) == [("arriba-del-palo", "Dani", "Carla", "10.00")]
    assert (side(h, "oro")["winners"], side(h, "oro")["cards"]) == (["Ana"], ["Ad"])
    assert h["warnings"] == [] and h["fouls"] == []
    assert (h["result_claimed"], h["result_agrees"]) == ("Carla", True)


def test_r10_3_stock_runs_out_no_winner_club_night_h2():
    h = hand(CLUB, 2)
    assert_outcome(h, "no-winner", [], 87)
    assert (h["pot"], h["carry_out"]) == ("40.00", "40.00")
    assert h["net"] == {"Ana": "-15.00", "Beto": "-15.00", "Carla": "-15.00", "Dani": "-10.00"}
    oro = side(h, "oro")
    assert (oro["winners"], oro["pot"], oro["carry_out"]) == ([], "15.00", "15.00")
    assert h["bonuses"] == [] and h["warnings"] == []
    assert h["result_agrees"] is True


def test_r12_2_mico_from_every_loser_club_night_h3():
    h = hand(CLUB, 3)
    assert_outcome(h, "win", ["Beto"], 127)
    assert h["net"] == {"Ana": "-25.00", "Beto": "95.00", "Carla": "-25.00", "Dani": "10.00"}
    assert bonuses(h) == [("mico", p, "Beto", "10.00") for p in ("Ana", "Carla", "Dani")]


def test_r4_4_claim_passed_in_cambio_is_void_club_night_h3():
    h = hand(CLUB, 3)
    oro = side(h, "oro")
    assert (oro["carry_in"], oro["pot"], oro["winners"], oro["cards"]) == ("15.00", "35.00", ["Dani"], ["Kd"])
    assert warning_codes(h) == ["R4.4"]


def test_r6_5_cuatro_cuerpos_beats_peladilla_club_night_h4():
    h = hand(CLUB, 4)
    assert_outcome(h, "auto-win", ["Ana"], 148, auto="cuatro-cuerpos")
    assert bonuses(h) == [("arriba-del-palo", p, "Ana", "10.00") for p in ("Beto", "Carla", "Dani")]


def test_r4_5_declaration_shows_the_declarers_cards_club_night_h4():
    # Carla's peladilla lost to Ana's four sevens, but declaring laid her hand
    # face up (R6.3), and "a declarer's cards are shown by the declaration"
    # (R4.5): her announced Ad wins the oro. The record is open, so the
    # declare line need not list the nine cards (N4 `declare`).
    h = hand(CLUB, 4)
    oro = side(h, "oro")
    assert (oro["winners"], oro["cards"], oro["carry_out"]) == (["Carla"], ["Ad"], "0.00")
    assert h["net"] == {"Ana": "55.00", "Beto": "-25.00", "Carla": "-10.00", "Dani": "-20.00"}
    assert h["warnings"] == []


def test_r11_7_result_disagrees_club_night_h5():
    h = hand(CLUB, 5)
    assert_outcome(h, "win", ["Dani"], 179)
    assert (h["result_claimed"], h["result_agrees"]) == ("Beto", False)
    assert warning_codes(h) == ["R11.7"]
    assert h["net"] == {"Ana": "-20.00", "Beto": "0.00", "Carla": "-25.00", "Dani": "45.00"}


def test_r8_5_desmoche_moves_a_card_between_melds_club_night_h5():
    # 8d leaves 8s 8h 8c 8d for 8d 9d Td Jd; the win needs that move
    h = hand(CLUB, 5)
    assert h["outcome"]["winners"] == ["Dani"]
    assert bonuses(h) == [("arriba-del-palo", p, "Dani", "10.00") for p in ("Ana", "Carla")]
    assert side(h, "oro")["winners"] == ["Beto"]


def test_r13_1_pass_accepted_against_the_stock_club_night_h6():
    h = hand(CLUB, 6)
    assert_outcome(h, "win", ["Carla"], 216)
    # open record: the only card that fits Ana's melds is her own Th, so no doubt
    assert h["warnings"] == []
    # R13.3: a passed player is a loser but never up the tree
    assert bonuses(h) == [("arriba-del-palo", p, "Carla", "10.00") for p in ("Beto", "Dani")]
    assert h["net"] == {"Ana": "-15.00", "Beto": "-25.00", "Carla": "45.00", "Dani": "-25.00"}


def test_r14_3_f2_peek_forgiven_club_night_h6():
    h = hand(CLUB, 6)
    assert fouls(h) == [("Dani", "F2", False)]
    assert side(h, "oro")["carry_out"] == "20.00"


def test_r4_7_f5_disqualified_claim_void_club_night_h7():
    h = hand(CLUB, 7)
    assert_outcome(h, "win", ["Ana"], 254)
    assert fouls(h) == [("Beto", "F5", True)]
    assert warning_codes(h) == ["R4.7"]
    oro = side(h, "oro")
    assert (oro["carry_in"], oro["pot"], oro["winners"], oro["cards"]) == ("20.00", "35.00", ["Ana"], ["Kd"])
    # R12.5 (dq-bonus=pay): Beto, out and up the tree, still pays
    assert bonuses(h) == [("arriba-del-palo", p, "Ana", "10.00") for p in ("Beto", "Dani")]
    assert h["net"] == {"Ana": "80.00", "Beto": "-25.00", "Carla": "-10.00", "Dani": "-25.00"}


def test_r2_3_second_no_winner_club_night_h8():
    h = hand(CLUB, 8)
    assert_outcome(h, "no-winner", [], 302)
    assert (h["carry_in"], h["pot"], h["carry_out"]) == ("0.00", "40.00", "40.00")
    assert side(h, "oro")["carry_out"] == "20.00"
    assert h["net"] == {p: "-15.00" for p in ("Ana", "Beto", "Carla", "Dani")}


def test_r6_1_peladilla_with_carried_pot_club_night_h9():
    h = hand(CLUB, 9)
    assert_outcome(h, "auto-win", ["Dani"], 325, auto="peladilla")
    assert h["net"] == {"Ana": "-25.00", "Beto": "-25.00", "Carla": "-25.00", "Dani": "135.00"}
    assert bonuses(h) == [("arriba-del-palo", p, "Dani", "10.00") for p in ("Ana", "Beto", "Carla")]
    oro = side(h, "oro")
    assert (oro["pot"], oro["winners"], oro["cards"]) == ("40.00", ["Dani"], ["Kd"])


def test_r6_4_false_color_declaration_void_club_night_h9():
    h = hand(CLUB, 9)
    assert [(w["code"], w["line"]) for w in h["warnings"]] == [("R6.4", 323)]


def test_r12_4_color_bonus_ten_spades_club_night_h10():
    h = hand(CLUB, 10)
    assert_outcome(h, "win", ["Carla"], 357)
    want = [("arriba-del-palo", "Beto", "Carla", "10.00")]
    for p in ("Ana", "Beto", "Dani"):
        want += [("color", p, "Carla", "10.00"), ("mico", p, "Carla", "10.00")]
    assert bonuses(h) == sorted(want)
    assert h["net"] == {"Ana": "-35.00", "Beto": "-45.00", "Carla": "95.00", "Dani": "-35.00"}


def test_r14_2_f3_card_on_offer_leaves_with_the_player_club_night_h11():
    h = hand(CLUB, 11)
    assert_outcome(h, "win", ["Dani"], 398)
    assert h["bet"] == "20.00"
    assert fouls(h) == [("Beto", "F3", True)]
    assert bonuses(h) == [("arriba-del-palo", p, "Dani", "20.00") for p in ("Beto", "Carla")]
    assert side(h, "oro")["winners"] == ["Ana"]
    assert h["net"] == {"Ana": "10.00", "Beto": "-45.00", "Carla": "-40.00", "Dani": "95.00"}


# ------------------------------------------------------------ strict-table.dsm
STRICT = "strict-table.dsm"


def test_r8_4_f4_arrangement_enforced_strict_table_h1():
    h = hand(STRICT, 1)
    assert h["options"]["strict"] is True and h["options"]["dq-bonus"] == "exempt"
    assert_outcome(h, "win", ["Carla"], 29)
    assert fouls(h) == [("Beto", "F4", True)]
    assert foul_lines(h) == [(20, "F4")]


def test_r12_5_dq_bonus_exempt_strict_table_h1():
    h = hand(STRICT, 1)
    # only Ana pays Carla's mico; Beto, disqualified, is excused
    assert bonuses(h) == [("mico", "Ana", "Carla", "5.00")]
    assert h["net"] == {"Ana": "-10.00", "Beto": "-5.00", "Carla": "15.00"}


def test_n4_8_f4_written_and_forgiven_and_tenth_card_win_stands_strict_table_h2():
    h = hand(STRICT, 2)
    assert_outcome(h, "win", ["Beto"], 59)
    # Ana's meld + the table's own `foul` line are one foul (N4.8)
    assert fouls(h) == [("Ana", "F4", False), ("Beto", "F4", False)]
    assert bonuses(h) == [("arriba-del-palo", "Carla", "Beto", "5.00")]
    assert h["net"] == {"Ana": "-5.00", "Beto": "15.00", "Carla": "-10.00"}


# ----------------------------------------------------------- forcing-table.dsm

def test_r9_1_forced_card_forced_back_and_forced_win_forcing_table():
    h = hand("forcing-table.dsm", 1)
    assert h["options"]["forcing"] is True
    assert_outcome(h, "win", ["Beto"], 42)
    assert h["net"] == {"Ana": "-10.00", "Beto": "20.00", "Carla": "-10.00"}
    assert h["fouls"] == [] and h["warnings"] == [] and h["bonuses"] == []


def test_r9_1_forced_card_not_taken_dispute_forced_card():
    assert_invalid(hand("dispute-forced-card.dsm", 1), "R9.1", 36)


# ----------------------------------------------------------- colour-rules.dsm

def test_r6_1_color_by_suit_colour_rules_h1():
    h = hand("colour-rules.dsm", 1)
    assert h["options"]["color"] == "suit"
    assert_outcome(h, "auto-win", ["Carla"], 21, auto="color")
    # Beto's nine red cards are hearts and diamonds: void under color=suit
    assert [(w["code"], w["line"]) for w in h["warnings"]] == [("R6.4", 19)]
    assert h["net"] == {"Ana": "-10.00", "Beto": "-10.00", "Carla": "20.00"}
    assert h["bonuses"] == []


def test_r6_1_color_off_colour_rules_h2():
    h = hand("colour-rules.dsm", 2)
    assert h["options"]["color"] == "off"
    assert_outcome(h, "auto-win", ["Carla"], 37, auto="peladilla")
    assert [(w["code"], w["line"]) for w in h["warnings"]] == [("R6.4", 35)]
    assert bonuses(h) == [("arriba-del-palo", p, "Carla", "10.00") for p in ("Ana", "Beto")]
    assert h["net"] == {"Ana": "-20.00", "Beto": "-20.00", "Carla": "40.00"}


# ----------------------------------------------------------- conquien-pair.dsm

def test_r6_7_conquien_preset_no_auto_no_bonus_two_players_h1():
    h = hand("conquien-pair.dsm", 1)
    assert h["rules"] == "conquien"
    assert (h["options"]["auto"], h["options"]["todo"]) == (False, False)
    assert h["players"] == ["Ana", "Beto"]
    assert_outcome(h, "win", ["Ana"], 31)
    assert [(w["code"], w["line"]) for w in h["warnings"]] == [("R6.7", 17)]
    assert h["bonuses"] == []  # A-2-3-4 of hearts, but no mico in conquién (R12.6)
    assert side(h, "oro")["winners"] == ["Beto"]
    assert h["net"] == {"Ana": "5.00", "Beto": "-5.00"}


def test_r15_preset_overridden_by_option_conquien_pair_h2():
    h = hand("conquien-pair.dsm", 2)
    assert (h["options"]["auto"], h["options"]["todo"]) == (True, False)
    assert_outcome(h, "auto-win", ["Ana"], 50, auto="cuatro-cuerpos")
    assert h["bonuses"] == []
    assert h["net"] == {"Ana": "10.00", "Beto": "-10.00"}


# ------------------------------------------------------------------ disputes

def test_r7_3_hand_melds_off_dispute_hand_melds():
    h = hand("dispute-hand-melds.dsm", 1)
    assert (h["options"]["hand-melds"], h["options"]["auto"]) == (False, False)
    assert_invalid(h, "R7.3", 31)
    # the add of a hand card to her own run (line 30) was allowed; the
    # peladilla declared at line 15 was void for auto=off
    assert [(w["code"], w["line"]) for w in h["warnings"]] == [("R6.7", 15)]


def test_r13_2_pass_refused_card_in_stock_dispute_pass_refused():
    assert_invalid(hand("dispute-pass-refused.dsm", 1), "R13.2", 22)


def test_r7_6_draw_out_of_turn_dispute_draw_out_of_turn():
    h = hand("dispute-draw-out-of-turn.dsm", 1)
    assert len(h["players"]) == 4
    assert_invalid(h, "R7.6", 24)


def test_r1_3_q_k_a_is_not_a_run_dispute_not_a_meld():
    assert_invalid(hand("dispute-not-a-meld.dsm", 1), "R8.1", 18)


def test_r14_3_forgiven_f3_card_stays_on_offer_dispute_forgiven_foul():
    h = hand("dispute-forgiven-foul.dsm", 1)
    assert_outcome(h, "win", ["Beto"], 32)
    assert fouls(h) == [("Beto", "F3", False)]
    assert bonuses(h) == [("arriba-del-palo", "Ana", "Beto", "10.00")]
    assert h["net"] == {"Ana": "-20.00", "Beto": "30.00", "Carla": "-10.00"}
    assert h["result_agrees"] is True


# -------------------------------------------------------------- misdeals.dsm

def test_r3_4_f1_found_dealer_out_extra_card_returned_misdeals_h1():
    h = hand("misdeals.dsm", 1)
    assert_outcome(h, "win", ["Beto"], 32)
    assert fouls(h) == [("Ana", "F1", True)]
    assert foul_lines(h) == [(18, "F1")]  # reported at the line that ends the deal
    assert h["pot"] == "30.00"  # the disqualified dealer's ante stays in the pot
    assert bonuses(h) == [("arriba-del-palo", "Ana", "Beto", "10.00")]
    assert h["net"] == {"Ana": "-20.00", "Beto": "30.00", "Carla": "-10.00"}


def test_n4_6_f1_written_and_forgiven_short_hand_completed_misdeals_h2():
    h = hand("misdeals.dsm", 2)
    assert_outcome(h, "win", ["Ana"], 63)
    assert fouls(h) == [("Beto", "F1", False)]
    assert bonuses(h) == sorted([("mico", "Beto", "Ana", "10.00"), ("mico", "Carla", "Ana", "10.00"),
                                 ("arriba-del-palo", "Beto", "Ana", "10.00")])
    assert h["net"] == {"Ana": "50.00", "Beto": "-30.00", "Carla": "-20.00"}


# --------------------------------------------------------- escalera-split.dsm

def test_r4_3_escalera_a23_low_escalera_split_h1():
    h = hand("escalera-split.dsm", 1)
    assert h["options"]["escalera"] == "a23-low"
    assert_outcome(h, "win", ["Carla"], 30)
    esc = side(h, "escalera")
    assert (esc["winners"], sorted(esc["cards"]), esc["pot"]) == (["Beto"], ["4c", "5c", "6c"], "6.00")


def test_r4_6_side_nowin_refund_escalera_split_h1():
    h = hand("escalera-split.dsm", 1)
    cor = side(h, "corazon")
    assert (cor["winners"], cor["pot"], cor["carry_out"]) == ([], "3.00", "0.00")
    assert h["net"] == {"Ana": "-12.00", "Beto": "-6.00", "Carla": "18.00"}


def test_r11_6_split_side_pot_odd_cent_escalera_split_h2():
    h = hand("escalera-split.dsm", 2)
    assert h["options"]["escalera"] == "a23-high"
    assert_outcome(h, "win", ["Beto"], 59)
    esc = side(h, "escalera")
    # dealer Beto: seat order from his right is Carla, then Ana
    assert (esc["winners"], esc["pot"], esc["carry_out"]) == (["Carla", "Ana"], "3.45", "0.00")
    assert h["net"] == {"Ana": "-9.43", "Beto": "18.85", "Carla": "-9.42"}


# ---------------------------------------------------------- closed-record.dsm

def test_r13_2_closed_record_pass_unverified_closed_record_h1():
    h = hand("closed-record.dsm", 1)
    assert_outcome(h, "win", ["Carla"], 35)
    assert [(w["code"], w["line"]) for w in h["warnings"]] == [("R13.2", 29)]
    assert h["net"] == {"Ana": "-10.00", "Beto": "-10.00", "Carla": "20.00"}


def test_r6_2_closed_declaration_without_cards_closed_record_h2():
    h = hand("closed-record.dsm", 2)
    assert_outcome(h, "auto-win", ["Beto"], 50, auto="peladilla")
    assert [(w["code"], w["line"]) for w in h["warnings"]] == [("R6.2", 49)]
    assert bonuses(h) == [("arriba-del-palo", p, "Beto", "10.00") for p in ("Ana", "Carla")]
    assert h["net"] == {"Ana": "-20.00", "Beto": "40.00", "Carla": "-20.00"}


# ------------------------------------------------------------ empty-table.dsm

def test_r14_4_nobody_left_no_winner_empty_table():
    h = hand("empty-table.dsm", 1)
    assert_outcome(h, "no-winner", [], 29)  # decided by the last pass
    assert fouls(h) == [("Ana", "F5", False), ("Carla", "F2", True)]
    assert (h["pot"], h["carry_out"]) == ("30.00", "30.00")
    assert h["net"] == {p: "-10.00" for p in ("Ana", "Beto", "Carla")}
    assert h["warnings"] == []
    assert h["result_agrees"] is True


# -------------------------------------------------------- split-peladilla.dsm

def test_r11_6_split_automatic_win_odd_cents_split_peladilla_h1():
    h = hand("split-peladilla.dsm", 1)
    # dealer Carla: seat order from her right is Ana, then Beto
    assert_outcome(h, "auto-win", ["Ana", "Beto"], 17, auto="peladilla")
    assert h["pot"] == "3.75"
    # Carla's one bonus of 1.25 is shared like the pot: one entry per winner (N8)
    assert bonuses(h) == [("arriba-del-palo", "Carla", "Ana", "0.63"),
                          ("arriba-del-palo", "Carla", "Beto", "0.62")]
    assert h["net"] == {"Ana": "1.26", "Beto": "1.24", "Carla": "-2.50"}
    assert (h["result_claimed"], h["result_agrees"]) == ("Ana Beto", True)


def test_r6_3_late_declaration_void_split_peladilla_h2():
    h = hand("split-peladilla.dsm", 2)
    assert_outcome(h, "win", ["Beto"], 43)
    assert [(w["code"], w["line"]) for w in h["warnings"]] == [("R6.3", 35)]


def test_r12_2_two_micos_from_each_loser_split_peladilla_h2():
    h = hand("split-peladilla.dsm", 2)
    want = []
    for p in ("Ana", "Carla"):
        want += [("mico", p, "Beto", "5.00")] * 2 + [("arriba-del-palo", p, "Beto", "5.00")]
    assert bonuses(h) == sorted(want)
    assert h["net"] == {"Ana": "-20.00", "Beto": "40.00", "Carla": "-20.00"}


# ---------------------------------------------------------- forcing-pass.dsm

def test_r9_4_passed_player_never_forced_forcing_pass():
    # Carla's 8h (line 34) fits Ana's 5-6-7 of hearts, but Ana has passed:
    # it goes dead and Beto draws; no R9.1 error
    h = hand("forcing-pass.dsm", 1)
    assert h["options"]["forcing"] is True
    assert_outcome(h, "win", ["Beto"], 36)
    assert h["net"] == {"Ana": "-10.00", "Beto": "20.00", "Carla": "-10.00"}


def test_r9_2_voluntary_taker_beats_meld_owner_and_pass_is_silent_forcing_pass():
    # Carla takes Beto's 4h ahead of Ana, whose run it fits (R9.2); Ana's pass is
    # then checked against an open record: 4h on Carla's table, 8h in Carla's hand
    h = hand("forcing-pass.dsm", 1)
    assert h["errors"] == [] and h["warnings"] == [] and h["fouls"] == []


# -------------------------------------------------------------- run-split.dsm

def test_r8_5_run_split_in_the_middle_run_split():
    h = hand("run-split.dsm", 1)
    assert_outcome(h, "win", ["Ana"], 25)
    assert bonuses(h) == [("arriba-del-palo", p, "Ana", "5.00") for p in ("Beto", "Carla")]
    assert h["net"] == {"Ana": "20.00", "Beto": "-10.00", "Carla": "-10.00"}


# ------------------------------------------------------ dispute-short-deal.dsm

def test_r3_5_short_hand_not_completed_dispute_short_deal():
    h = hand("dispute-short-deal.dsm", 1)
    assert_invalid(h, "R3.5", 12)


# ------------------------------------------------------------------- solo.dsm

def test_r14_4_last_player_plays_alone_without_cambio_solo():
    h = hand("solo.dsm", 1)
    assert h["players"] == ["Ana", "Beto"]
    assert_outcome(h, "win", ["Beto"], 26)
    assert fouls(h) == [("Ana", "F5", True)]
    assert h["pot"] == "20.00"  # Ana's ante stays in the pot (R14.1)
    assert bonuses(h) == [("arriba-del-palo", "Ana", "Beto", "10.00")]
    assert h["net"] == {"Ana": "-20.00", "Beto": "20.00"}


# -------------------------------------------------------- dispute-claims.dsm

def test_r7_5_claims_decided_by_seat_order_dispute_claims():
    assert_invalid(hand("dispute-claims.dsm", 1), "R7.5", 19)


# ---------------------------------------------------- fallen-declaration.dsm

def test_n4_7_declarer_disqualified_declaration_falls_play_starts():
    h = hand("fallen-declaration.dsm", 1)
    assert_outcome(h, "win", ["Beto"], 25)
    assert fouls(h) == [("Ana", "F5", True)]
    assert h["net"] == {"Ana": "-10.00", "Beto": "20.00", "Carla": "-10.00"}


# --------------------------------------------------- cambio-declarations.dsm

def test_r6_2_hand_qualifying_after_the_cambio_cambio_declarations_h1():
    h = hand("cambio-declarations.dsm", 1)
    assert_outcome(h, "auto-win", ["Beto"], 20, auto="cuatro-cuerpos")
    assert h["warnings"] == []
    assert h["net"] == {"Ana": "-20.00", "Beto": "40.00", "Carla": "-20.00"}


def test_n4_7_declaration_between_cambio_lines_judged_as_dealt_cambio_declarations_h2():
    h = hand("cambio-declarations.dsm", 2)
    assert_outcome(h, "auto-win", ["Ana"], 39, auto="peladilla")
    assert [(w["code"], w["line"]) for w in h["warnings"]] == [("R6.4", 35)]
    assert h["net"] == {"Ana": "40.00", "Beto": "-20.00", "Carla": "-20.00"}


# ------------------------------------------------------------ side-games.dsm

def test_r4_2_every_side_game_ranked_side_games():
    h = hand("side-games.dsm", 1)
    assert_outcome(h, "win", ["Beto"], 43)
    # the order of a claim's cards is not part of the contract: compare them sorted
    got = {g["game"]: (g["pot"], g["winners"], sorted(g["cards"])) for g in h["side_games"]}
    assert got == {
        "oro": ("3.00", ["Carla"], ["Kd"]),            # `rombo` is reported as oro (N8)
        "flor": ("2.00", ["Beto"], ["Ac"]),            # the Ace is high (R1.2)
        "corazon-negro": ("3.00", ["Ana"], ["As"]),
        "par-rojo": ("3.00", ["Ana"], sorted(["Th", "Td"])),
        "par-negro": ("2.00", ["Carla"], sorted(["Js", "Jc"])),
        "dos-par-rojo": ("2.00", ["Ana"], sorted(["Th", "Td", "2h", "2d"])),
        "tres-cuerpos": ("3.00", ["Carla"], sorted(["6h", "6d", "6c"])),
    }
    assert h["net"] == {"Ana": "-3.00", "Beto": "6.00", "Carla": "-3.00"}
    assert h["warnings"] == []


# ---------------------------------------------------------------- friday.dsm
# NOTATION's open-record example, as a sample: N8 gives its report exactly.
def test_n8_report_of_the_notation_example_friday():
    (h,) = entry("friday.dsm")["hands"]
    # bonuses: the order of entries is not part of the contract
    assert sorted(h["bonuses"], key=json.dumps) == sorted(EXAMPLE_REPORT["bonuses"], key=json.dumps)
    assert {k: v for k, v in h.items() if k != "bonuses"} == \
        {k: v for k, v in EXAMPLE_REPORT.items() if k != "bonuses"}
