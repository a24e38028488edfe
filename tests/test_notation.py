"""The notation: N1 (lines), N3 (tags), N4 (events), N5 (what is reported and in which order),
N6 (open and closed records), N7 (canonical form, round trip) and N8 (the JSON report)."""

import pytest

from desmoche_ref.notation.parser import parse_text
from desmoche_ref.notation.writer import write_file
from desmoche_ref.referee import judge_bytes, judge_text

from helpers import (DEAL, EXAMPLE_REPORT, assert_error, assert_ok, error_of, fouls_of, friday, hand, line_of,
                     raw, tags_text, verdict, verdicts, warnings_of)

# NOTATION.md's open example, exactly as printed there.
EXAMPLE = """\
[Event "Friday league"]
[Date "2026-11-27"]
[Table "2"]
[Hand "7"]
[Players "Ana Beto Carla"]
[Dealer "Ana"]
[Options "todo"]
[Bet "10"]
[Side "oro 5 Ana Beto Carla"]
[Result "Carla"]

deal Beto 2s 3s 4h 7c 8d Th Jc Qd Ks
deal Carla As 2h 3h 9s 9c 5d 6d Kc Qh
deal Ana 4s 5s 6s 8h 8c Jd Jh 2c Ac
announce Beto oro Qd
cambio Beto Ks          # to Carla
cambio Carla Qh         # to Ana
cambio Ana 2c           # to Beto
draw Beto 2d            # the dealer's right plays first
meld Beto 2s 2d 2c
pay Beto 7c
draw Carla 4d           # 7c went dead: Beto's right draws
meld Carla 4d 5d 6d
pay Carla Kc
draw Ana 7s
meld Ana 4s 5s 6s 7s
pay Ana Qh
draw Beto 9d
meld Carla 9s 9d 9c     # Beto lets it go; Carla is next in order
pay Carla Ks
draw Ana Ah             # Carla paid last, so her right draws
meld Carla Ah 2h 3h
pay Carla As            # Carla: nine down, none in hand
draw Ana 8s
meld Ana 8s 8h 8c
pay Ana Ac
draw Beto Td
draw Carla 7d
add Carla 7d            # ten down: Carla wins
show Beto Qd
"""

CLOSED_EXAMPLE = """\
[Players "Ana Beto Carla"]
[Dealer "Ana"]
[Bet "10"]

deal Beto ?x9
deal Carla ?x9
deal Ana ?x10           # one too many: F1, Ana (the dealer) is out
return Ana ?
cambio Beto ?
cambio Carla ?
draw Beto 2d
meld Beto 2s 2d 2c      # 2s and 2c come from Beto's unknown cards
pay Beto 7c
"""


def fmt(text: str) -> str:
    return write_file(parse_text(text))


# ---------------------------------------------------------------- N8 the report

def test_n8_the_open_example_report_exactly():
    assert verdict(EXAMPLE) == EXAMPLE_REPORT


def test_n8_the_open_example_report_field_by_field():
    j = verdict(EXAMPLE)
    for key in EXAMPLE_REPORT:
        if key != "side_games":
            assert j[key] == EXAMPLE_REPORT[key], key
    assert list(j) == list(EXAMPLE_REPORT)


def test_n8_side_game_fields():
    (oro,) = verdict(EXAMPLE)["side_games"]
    assert set(oro) == {"game", "stake", "players", "carry_in", "pot", "winners", "cards",
                        "carry_out"}
    assert (oro["game"], oro["stake"], oro["pot"], oro["winners"], oro["cards"]) == \
        ("oro", "5.00", "15.00", ["Beto"], ["Qd"])
    assert sorted(oro["players"]) == ["Ana", "Beto", "Carla"]


def test_n8_the_closed_example_is_incomplete_with_f1_and_a_cambio_of_two():
    j = assert_ok(CLOSED_EXAMPLE, "incomplete")
    assert j["fouls"] == [{"line": line_of(CLOSED_EXAMPLE, "cambio Beto ?"), "player": "Ana",
                           "code": "F1", "enforced": True}]


def test_n8_outcome_money_and_settlement_are_null_unless_complete():
    j = assert_ok(CLOSED_EXAMPLE, "incomplete")
    for key in ("outcome", "pot", "carry_out", "bonuses", "side_games", "net"):
        assert j[key] is None, key
    assert (j["bet"], j["carry_in"]) == ("10.00", "0.00")
    assert j["result_claimed"] is None and j["result_agrees"] is None


def test_n8_options_every_option_with_the_value_in_force():
    text = raw(tags_text(options="strict forcing hand-melds=off color=suit escalera=a23-low "
                                 "side-nowin=refund dq-bonus=exempt auto=off"), [])
    assert verdict(text)["options"] == {
        "todo": False, "strict": True, "forcing": True, "auto": False, "hand-melds": False,
        "color": "suit", "escalera": "a23-low", "side-nowin": "refund", "dq-bonus": "exempt"}


def test_n8_options_after_the_conquien_preset():
    j = verdict(raw(tags_text(rules="conquien"), []))
    assert j["rules"] == "conquien"
    assert j["options"]["auto"] is False and j["options"]["todo"] is False
    j = verdict(raw(tags_text(rules="conquien", options="auto=on todo"), []))
    assert j["options"]["auto"] is True and j["options"]["todo"] is True


def test_n8_error_and_warning_items_have_line_code_message():
    text = hand(["draw Beto 7s", "declare Beto peladilla", "pay Beto 9h"])
    j = verdict(text)
    assert set(j["errors"][0]) == {"line", "code", "message"}
    assert set(j["warnings"][0]) == {"line", "code", "message"}
    assert len(j["errors"]) == 1


def test_n8_foul_items_have_line_player_code_enforced():
    j = verdict(hand(["draw Beto 7s", "foul Carla peek"]))
    assert j["fouls"] == [{"line": 12, "player": "Carla", "code": "F2", "enforced": True}]


def test_n8_money_is_conserved_across_pots():
    j = verdict(EXAMPLE)
    def cents(s):
        return round(float(s) * 100)

    total = sum(cents(v) for v in j["net"].values()) + cents(j["carry_out"]) - cents(j["carry_in"])
    total += sum(cents(g["carry_out"]) - cents(g["carry_in"]) for g in j["side_games"])
    assert total == 0


def test_n8_a_file_that_holds_no_hand():
    report = judge_text("# nothing but a comment\n\n")
    assert report.hands == [] and report.error
    assert report.as_json()["hands"] == [] and "error" in report.as_json()
    assert report.invalid


def test_n8_a_tag_line_after_events_starts_a_new_hand():
    first = hand(["draw Beto 7s"])
    second = hand(["draw Beto 8s"])
    js = verdicts(first + second)
    assert len(js) == 2
    assert js[1]["line"] == len(first.rstrip("\n").split("\n")) + 1
    assert [j["status"] for j in js] == ["incomplete", "incomplete"]


def test_n8_winners_of_a_split_are_in_seat_order_from_the_dealers_right():
    deal = {"Carla": "As 3c 4d 7h 8s Td Js Qh Kd", "Ana": "Ah 3d 4c 7s 8d Tc Jh Qs Kc",
            "Beto": "5s 5h 5d 5c 9c 9d 6h 6c 2s"}
    text = hand(["declare Ana peladilla", "declare Carla peladilla", "end"], deal=deal,
                cambio={})
    assert verdict(text)["outcome"]["winners"] == ["Carla", "Ana"]


def test_n8_side_games_use_oro_for_rombo():
    text = friday(side=("rombo 5 Ana Beto Carla",))
    (pot,) = verdict(text)["side_games"]
    assert pot["game"] == "oro" and pot["winners"] == ["Beto"]


# ---------------------------------------------------------------- N1 lines

def test_n1_1_byte_order_mark_is_ignored():
    j = verdict("\ufeff" + EXAMPLE)
    assert j["status"] == "complete" and j["net"] == EXAMPLE_REPORT["net"]


def test_n1_1_crlf_line_ends():
    j = verdict(EXAMPLE.replace("\n", "\r\n"))
    assert j["status"] == "complete" and j["outcome"]["line"] == 39


def test_n1_1_tabs_and_several_spaces_separate_tokens():
    text = EXAMPLE.replace("meld Beto 2s 2d 2c", "meld\tBeto   2s\t2d  2c")
    assert verdict(text)["status"] == "complete"


def test_n1_1_invalid_utf8_is_an_error_at_its_line():
    data = EXAMPLE.encode("utf-8").replace(b"draw Ana 7s", b"draw Ana 7s \xff\xfe")
    j = judge_bytes(data).hands[0].as_json()
    assert error_of(j) == ("N1.1", line_of(EXAMPLE, "draw Ana 7s"))


def test_n1_2_a_comment_runs_to_the_end_of_the_line():
    text = EXAMPLE.replace("pay Beto 7c", "pay Beto 7c # Ks As Qh are not cards here")
    assert verdict(text)["status"] == "complete"


def test_n1_2_hash_inside_a_tag_value_is_not_a_comment():
    text = EXAMPLE.replace('[Table "2"]', '[Table "Mesa #2"]')
    assert '[Table "Mesa #2"]' in fmt(text)


def test_n1_2_the_writer_keeps_comments():
    out = fmt(EXAMPLE)
    assert "cambio Beto Ks # to Carla" in out
    assert "# ten down: Carla wins" in out
    text = EXAMPLE.replace("draw Ana 7s\n", "# a whole-line comment\ndraw Ana 7s\n")
    assert "# a whole-line comment\ndraw Ana 7s" in fmt(text)


def test_n1_3_blank_lines_are_ignored_but_counted():
    text = EXAMPLE.replace("draw Ana 7s\n", "\n\n   \ndraw Ana 7s\n")
    j = verdict(text)
    assert j["status"] == "complete" and j["outcome"]["line"] == 42


def test_n1_4_a_malformed_tag_line():
    text = EXAMPLE.replace('[Bet "10"]', '[Bet 10]')
    assert_error(text, "N1.4", 8)


# ---------------------------------------------------------------- N3 tags

def test_n3_players_tag_missing():
    text = raw(['[Dealer "Ana"]'], ["deal Ana ?x9"])
    assert error_of(verdict(text))[0] == "N3"


def test_n3_dealer_tag_missing():
    text = raw(['[Players "Ana Beto"]'], ["deal Ana ?x9"])
    assert error_of(verdict(text))[0] == "N3"


def test_n3_dealer_not_a_player():
    assert_error(raw(tags_text(dealer="Dani"), []), "N3", 2)


def test_n3_unknown_preset_and_unknown_option():
    assert_error(raw(tags_text(rules="poker"), []), "N3", 3)
    assert_error(raw(tags_text(options="todo jokers"), []), "N3", 3)
    assert_error(raw(tags_text(options="color=purple"), []), "N3", 3)


def test_n3_defaults_rules_desmoche_bet_and_carry_zero():
    j = verdict(raw(tags_text(bet=None), []))
    assert (j["rules"], j["bet"], j["carry_in"]) == ("desmoche", "0.00", "0.00")


def test_n3_side_tag_unknown_game_and_unseated_player():
    assert_error(raw(tags_text(side=("bingo 5 Ana Beto",)), []), "N3", 4)
    assert_error(raw(tags_text(side=("oro 5 Ana Dani",)), []), "N3.1", 4)
    assert_error(raw(tags_text(side=("oro 5x Ana Beto",)), []), "N3.2", 4)


def test_n3_result_naming_no_player():
    assert_error(raw(tags_text(result="Dani"), []), "N3.1", 4)


def test_n3_other_tags_are_kept_and_written_back_after_the_known_ones():
    out = fmt(EXAMPLE)
    lines = out.split("\n")
    assert lines[:10] == ['[Players "Ana Beto Carla"]', '[Dealer "Ana"]', '[Options "todo"]',
                          '[Bet "10"]', '[Side "oro 5 Ana Beto Carla"]', '[Result "Carla"]',
                          '[Event "Friday league"]', '[Date "2026-11-27"]', '[Table "2"]',
                          '[Hand "7"]']


def test_n3_1_names_any_script_matched_exactly():
    text = raw(['[Players "José Ñoño Zoë"]', '[Dealer "José"]'],
               ["deal Ñoño ?x9", "deal Zoë ?x9", "deal José ?x9", "cambio Ñoño ?"])
    assert_ok(text)
    text = raw(['[Players "José Ñoño Zoë"]', '[Dealer "José"]'], ["deal ñoño ?x9"])
    assert_error(text, "N3.1", "deal ñoño ?x9")


def test_n3_1_a_bad_name():
    assert_error(raw(['[Players "Ana 2Beto"]', '[Dealer "Ana"]'], []), "N3.1", 1)
    assert_error(raw(['[Players "Ana B@to"]', '[Dealer "Ana"]'], []), "N3.1", 1)


def test_n3_1_names_are_unique():
    assert_error(raw(['[Players "Ana Beto Ana"]', '[Dealer "Ana"]'], []), "N3.1", 1)


def test_n3_1_names_with_digits_underscore_dash_dot():
    text = raw(['[Players "A_1 b-2 c.3"]', '[Dealer "A_1"]'], ["deal b-2 ?x9"])
    assert_ok(text)


@pytest.mark.parametrize("amount", ["10.005", "-5", "abc", "1,50", "1e3", ""])
def test_n3_2_bad_amount(amount):
    assert_error(raw(tags_text(bet=amount), []), "N3.2", 3)


@pytest.mark.parametrize("amount,shown", [("10", "10.00"), ("2.5", "2.50"), ("0.01", "0.01"),
                                          ("7.25", "7.25")])
def test_n3_2_amounts_with_at_most_two_decimals(amount, shown):
    assert verdict(raw(tags_text(bet=amount), []))["bet"] == shown


# ---------------------------------------------------------------- N4 events

@pytest.mark.parametrize("event", ["drow Beto 7s", "draw Beto", "draw Beto 7s 8s",
                                   "pass Beto 7s", "end now", "declare Beto peladilla As",
                                   "foul Beto sneeze", "foul Beto hand", "foul Beto other", "announce Beto bingo Qd",
                                   "meld Beto", "cambio Beto Ks Qd"])
def test_n4_unknown_verb_or_wrong_arguments(event):
    assert_error(hand([event], cambio={}), "N4", event)


def test_n4_unknown_player():
    assert_error(hand(["draw Bob 7s"]), "N3.1", "draw Bob 7s")


def test_n7_events_are_written_with_single_spaces_and_canonical_cards():
    text = hand(["draw   Beto 7S", "meld Ana 4♠ 5s\t6S 7s"])
    out = fmt(text)
    assert "draw Beto 7s\nmeld Ana 4s 5s 6s 7s\n" in out


# ---------------------------------------------------------------- N5 the order of findings

def test_n5_1_only_the_first_error_is_reported_and_later_lines_are_not_judged():
    text = hand(["draw Carla 7s", "draw Zed Xx", "foul Ana peek"])
    j = verdict(text)
    assert j["errors"] == [{"line": line_of(text, "draw Carla 7s"), "code": "R7.1",
                            "message": j["errors"][0]["message"]}]
    assert j["fouls"] == [] and j["status"] == "invalid"


def test_n5_1_a_tag_error_comes_before_event_errors():
    text = raw(tags_text(bet="x"), ["drow Beto"])
    assert_error(text, "N3.2", 3)


def test_n5_1_not_a_card_before_unknown_player():
    assert_error(hand(["draw Zed 7x"]), "N2.1", "draw Zed 7x")


def test_n5_1_unknown_card_where_not_allowed_before_unknown_player():
    assert_error(hand(["draw Zed ?"]), "N2.3", "draw Zed ?")


def test_n5_1_unknown_player_before_card_elsewhere():
    assert_error(hand(["draw Zed Jd"]), "N3.1", "draw Zed Jd")


def test_n5_1_card_not_in_hand_before_pay_without_a_take():
    assert_error(hand(["draw Beto 7s", "pay Beto 9h"]), "N2.5", "pay Beto 9h")


def test_n5_1_card_elsewhere_before_card_not_in_hand():
    # Jd is in Ana's hand and 9h is nowhere in Beto's: the card known elsewhere decides
    assert_error(hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto Jd"]), "N2.4",
                 "pay Beto Jd")


def test_n5_1_the_take_not_placing_the_offer_before_not_a_meld():
    assert_error(hand(["draw Beto 2d", "meld Ana 4s 5s"]), "R7.2", "meld Ana 4s 5s")


def test_n5_1_priority_before_not_a_meld():
    text = hand(["draw Beto 7s", "claim Beto", "claim Ana", "meld Ana 7s 4s"])
    assert_error(text, "R7.5", "meld Ana 7s 4s")


def test_n5_1_the_report_shows_the_state_before_the_error():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c", "draw Beto 7s"])
    report = judge_text(text).hands[0]
    assert report.status == "invalid"
    state = report.replay.state
    beto = state.players[1]
    assert len(beto.melds) == 1 and len(beto.hand) + beto.unknown == 6


def test_n5_2_a_foul_is_recorded_not_refused():
    j = assert_ok(hand(["draw Beto 7s", "foul Ana peek", "draw Beto 8s"]))
    assert fouls_of(j) == [("Ana", "F2", True)]


def test_n5_4_a_record_that_stops_before_the_end_is_incomplete():
    assert assert_ok(hand(["draw Beto 7s"]))["status"] == "incomplete"


def test_n5_4_complete_at_the_line_of_a_win_even_without_end():
    assert verdict(EXAMPLE)["status"] == "complete"
    assert verdict(EXAMPLE + "end\n")["status"] == "complete"


# ---------------------------------------------------------------- N6 open and closed records

CLOSED = {"Beto": "?x9", "Carla": "?x9", "Ana": "?x9"}
CLOSED_CAMBIO = {"Beto": "?", "Carla": "?", "Ana": "?"}


def closed(events, **tags):
    return hand(events, deal=CLOSED, cambio=CLOSED_CAMBIO, **tags)


def test_n6_1_an_open_record_checks_each_hand_exactly():
    assert_error(hand(["draw Beto 2d", "meld Beto 2s 2d 2h"]), "N2.4", "meld Beto 2s 2d 2h")


def test_n6_2_closed_conformance_win():
    text = closed(["draw Beto 4c", "meld Carla 4c 5c 6c", "pay Carla Kd", "draw Ana 9s",
                   "draw Beto Jh", "draw Carla 8d", "meld Carla 8d 8s 8h", "pay Carla 2s",
                   "draw Ana Qc", "draw Beto 7c", "add Carla 7c", "meld Carla Tc Td Th"],
                  options="todo")
    j = assert_ok(text, "complete")
    assert j["net"] == {"Ana": "-20.00", "Beto": "-20.00", "Carla": "40.00"}


def test_n6_2_a_card_revealed_from_a_hand_must_not_be_known_elsewhere():
    text = closed(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c", "draw Carla 4d",
                   "meld Carla 4d 5d 6d",
                   "pay Carla 2c"])
    assert_error(text, "N2.4", "pay Carla 2c")


def test_n6_2_a_hand_reveals_no_more_cards_than_it_holds_unknown():
    # Beto (nine unknown) reveals 2s 2c and pays 7c: six unknown cards are left, so he
    # cannot lay seven more from hand
    text = closed(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c", "draw Carla 8h",
                   "draw Ana 9h", "draw Beto 3d", "meld Beto 3d 4d 5d 6d 7d 8d 9d Td"])
    assert_error(text, "N2.5", "meld Beto 3d 4d 5d 6d 7d 8d 9d Td")
    text = closed(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c", "draw Carla 8h",
                   "draw Ana 9h", "draw Beto 3d", "meld Beto 3d 4d 5d 6d 7d 8d 9d"])
    assert_ok(text, "complete")  # six from hand: ten down, a win


def test_n6_2_a_fully_known_hand_must_name_the_card_passed():
    text = hand([], cambio={"Beto": "?"})
    assert_error(text, "N2.3", "cambio Beto ?")


def test_n6_2_an_announcement_does_not_make_a_card_known():
    text = closed(["draw Beto Qd"], pre=["announce Carla oro Qd"], side=("oro 5 Carla Ana",))
    assert_ok(text)


def test_n6_2_a_return_of_an_unknown_card_from_a_known_hand_is_an_error():
    text = raw(tags_text(), [f"deal Beto {DEAL['Beto']} Kh", "return Beto ?"])
    assert_error(text, "N2.3", "return Beto ?")


def test_n6_2_a_closed_pass_unverifiable_is_a_warning():
    text = closed(["draw Beto 7s", "meld Ana 4s 5s 6s 7s", "pay Ana Qh", "pass Ana"])
    assert warnings_of(verdict(text)) == [("R13.2", line_of(text, "pass Ana"))]


# ---------------------------------------------------------------- N7 canonical form

MESSY = """\
[Result "Carla"]   # the table's own result
[Side "oro 5 Ana Beto Carla"]
[Event "Friday league"]
[Bet "10"]
[Players "Ana Beto Carla"]
[Options "todo"]
[Dealer "Ana"]
deal   Beto 2♠ 3♠ 4♥ 7♣ 8♦ 10♥ J♣ Q♦ K♠
deal Carla as 2H 3h 9s 9c 5d 6d kc qh
deal Ana 4s 5s 6s 8h 8c Jd Jh 2c Ac
announce Beto oro Q♦
cambio Beto Ks  # to Carla
"""

MESSY_CANONICAL = """\
[Players "Ana Beto Carla"]
[Dealer "Ana"]
[Options "todo"]
[Bet "10"]
[Side "oro 5 Ana Beto Carla"]
[Result "Carla"] # the table's own result
[Event "Friday league"]

deal Beto 2s 3s 4h 7c 8d Th Jc Qd Ks
deal Carla As 2h 3h 9s 9c 5d 6d Kc Qh
deal Ana 4s 5s 6s 8h 8c Jd Jh 2c Ac
announce Beto oro Qd
cambio Beto Ks # to Carla
"""


def test_n7_the_writer_emits_the_canonical_form():
    assert fmt(MESSY) == MESSY_CANONICAL


def test_n7_reading_what_the_writer_wrote_gives_back_the_same_record():
    for text in (EXAMPLE, MESSY, CLOSED_EXAMPLE, friday()):
        once = fmt(text)
        assert fmt(once) == once


def test_n7_the_canonical_record_is_judged_the_same():
    j1, j2 = verdict(EXAMPLE), verdict(fmt(EXAMPLE))
    for key in ("status", "net", "bonuses", "side_games", "fouls", "result_agrees"):
        assert j1[key] == j2[key], key


def test_n7_unknown_cards_and_words_round_trip():
    text = raw(tags_text(), ["deal Beto ?x9", "deal Carla ? ?x8", "deal Ana ?x9",
                             "foul Carla other   showed  her cards", "forgive Carla"])
    once = fmt(text)
    assert "deal Carla ? ?x8" in once
    assert fmt(once) == once


def test_n3_a_single_tag_given_twice_is_an_error():
    text = raw(tags_text() + ['[Bet "20"]'], [])
    assert_error(text, "N3", 4)


def test_n7_a_file_of_several_hands_round_trips():
    text = EXAMPLE + "\n" + CLOSED_EXAMPLE
    once = fmt(text)
    assert fmt(once) == once
    assert len(parse_text(once).hands) == 2
    assert [j["status"] for j in verdicts(once)] == ["complete", "incomplete"]


def test_n6_2_a_question_mark_passed_from_a_mixed_hand_is_one_of_the_unknown_cards():
    text = hand(["draw Beto 2d", "meld Beto 2s 2d 2c", "pay Beto 7c"],
                deal={"Beto": "2s 2c ?x7", "Carla": "?x9", "Ana": "?x9"}, cambio=CLOSED_CAMBIO)
    assert_ok(text)


def test_n6_2_a_card_known_in_a_hand_cannot_be_revealed_by_another_player():
    text = hand(["draw Beto 2d", "meld Carla 2s 2d 2h"],
                deal={"Beto": "2s 2c ?x7", "Carla": "?x9", "Ana": "?x9"}, cambio=CLOSED_CAMBIO)
    assert_error(text, "N2.4", "meld Carla 2s 2d 2h")


ALL_VERBS = ["cut", "deal", "return", "announce", "cambio", "declare", "draw", "claim", "knock",
             "meld", "add", "pay", "pass", "show", "foul", "forgive", "end"]


def test_n4_5_the_writer_emits_the_verbs_of_the_table():
    events = ["cut Beto", "deal Beto ?x9", "return Beto ?", "announce Beto oro Qd",
              "cambio Beto ?", "declare Beto color", "draw Beto 7s", "claim Ana", "knock Ana",
              "meld Ana 4s 5s 6s 7s", "add Ana 8s", "pay Ana Qh", "pass Ana", "show Beto Qd",
              "foul Ana peek", "forgive Ana", "end"]
    out = fmt(raw(tags_text(), events))
    verbs = [line.split()[0] for line in out.split("\n\n", 1)[1].strip().split("\n")]
    assert verbs == ALL_VERBS


def test_n5_3_a_warning_does_not_stop_the_hand():
    text = friday(result="Ana")
    j = assert_ok(text, "complete")
    assert [w["code"] for w in j["warnings"]] == ["R11.7"]
    assert j["net"] == EXAMPLE_REPORT["net"]


def test_n3_2_an_amount_is_below_a_thousand_million():
    # N3.2: at most nine digits before the point (leading zeros do not count)
    j = verdict(raw(tags_text(bet="999999999.99"), []))
    assert j["errors"] == [] and j["bet"] == "999999999.99"
    assert verdict(raw(tags_text(bet="000999999999"), []))["bet"] == "999999999.00"
    for big in ("1000000000", "10000000000000", "99999999999999999999", "92233720368547758.07"):
        j = verdict(raw(tags_text(bet=big), []))
        assert [(e["code"], e["message"]) for e in j["errors"]] == [
            ("N3.2", f"{big} is too large: amounts are below 1,000,000,000")]


def test_n6_2_a_declaration_with_its_cards_makes_the_hand_known():
    text = hand(["declare Beto peladilla As 3c 4d 7h 8s Td Js Qh Kd", "cambio Beto ?"],
                deal=CLOSED, cambio={})
    assert_error(text, "N2.3", "cambio Beto ?")


def test_n8_the_hand_line_is_its_first_tag_line():
    assert verdict("# a night at the club\n\n" + hand([]))["line"] == 3


def test_n4_4_end_after_only_void_declarations_is_an_error():
    text = hand(["declare Beto color", "end"])
    j = assert_error(text, "N4.4", "end")
    assert warnings_of(j) == [("R6.4", line_of(text, "declare Beto color"))]


def test_n7_add_to_card_and_foul_words_are_written_canonically():
    text = raw(tags_text(), ["add Carla 7♦ to 6D", "foul Ana hand 10♣", "foul Beto other  left   early"])
    out = fmt(text)
    assert "add Carla 7d to 6d\nfoul Ana hand Tc\nfoul Beto other left early\n" in out
    assert fmt(out) == out


def test_n8_money_is_a_decimal_string_with_exactly_two_decimals():
    import re
    money = re.compile(r"-?\d+\.\d\d")
    text = friday(bet="2.5", carry="0.1", side=("oro 0.05 Ana Beto Carla",),
                  sidecarry=("flor 3",))
    j = assert_ok(text, "complete")
    values = [j["bet"], j["carry_in"], j["pot"], j["carry_out"]] + list(j["net"].values())
    values += [b["amount"] for b in j["bonuses"]]
    for g in j["side_games"]:
        values += [g["stake"], g["carry_in"], g["pot"], g["carry_out"]]
    assert all(isinstance(v, str) and money.fullmatch(v) for v in values), values
    assert (j["bet"], j["carry_in"], j["pot"]) == ("2.50", "0.10", "7.60")


def test_n8_a_file_is_invalid_when_any_hand_is_invalid():
    good, bad = hand(["draw Beto 7s"]), hand(["draw Carla 7s"])
    assert judge_text(good + good).invalid is False
    report = judge_text(good + bad)
    assert report.invalid is True
    assert [h.status for h in report.hands] == ["incomplete", "invalid"]
