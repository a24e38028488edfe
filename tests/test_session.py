"""Sessions (check --session, N9): continuity of a night at one table and its balance (R2.3, R3.1, R4.6, R11.5)."""

import pathlib

from desmoche_ref.referee import judge_text
from desmoche_ref.session import check_session

from helpers import peladilla_hand

CONF = pathlib.Path(__file__).parent / "conformance"
NO_WINNER = (CONF / "no-winner.dsm").read_text()


def closed(text):
    """The record with [Closed "yes"] on its last hand: the table broke up after it (N9.4)."""
    head, tag, rest = text.rpartition("[Dealer ")
    return head + '[Closed "yes"]\n' + tag + rest


def session_of(text):
    return check_session(judge_text(text))


def test_r2_3_a_won_carried_pot_leaves_nothing_to_return():
    s = session_of(NO_WINNER + peladilla_hand())
    assert s.problems == []
    assert s.totals == {"Ana": -1000, "Beto": 5000, "Carla": -1000, "Dani": -1000}
    assert s.refund == {} and s.final == s.totals


def test_r11_5_a_pot_still_carried_when_the_table_breaks_up_is_returned_in_proportion():
    # one hand, no winner: the 40.00 pot (20 carried in + 4 antes of 5) goes back 10 each
    s = session_of(closed(NO_WINNER))
    assert s.refund == {"Ana": 1000, "Beto": 1000, "Carla": 1000, "Dani": 1000}
    assert s.final == {"Ana": 500, "Beto": 500, "Carla": 500, "Dani": 500}


def rotated(text):
    """The same hand one seat on: every player's part is played by the next player."""
    import re
    nxt = {"Ana": "Beto", "Beto": "Carla", "Carla": "Dani", "Dani": "Ana"}
    head, body = text.split("\n\n", 1)
    head = head.replace('[Dealer "Dani"]', '[Dealer "Ana"]')
    return head + "\n\n" + re.sub(r"\b(Ana|Beto|Carla|Dani)\b", lambda m: nxt[m.group(1)], body)


def test_r11_5_a_pot_carried_through_two_hands_is_returned_whole():
    second = rotated(NO_WINNER).replace('[Carry "20"]', '[Carry "40"]')
    s = session_of(NO_WINNER + "\n" + closed(second))
    assert s.problems == []
    assert s.refund == {"Ana": 1500, "Beto": 1500, "Carla": 1500, "Dani": 1500}  # 60.00 in all
    assert s.final == {"Ana": 500, "Beto": 500, "Carla": 500, "Dani": 500}


def test_r11_5_proportional_split_is_exact_to_the_cent():
    from desmoche_ref.laws import _in_proportion
    out = _in_proportion(1000, {"Ana": 100, "Beto": 100, "Carla": 100}, ["Beto", "Carla", "Ana"])
    assert out == {"Ana": 333, "Beto": 334, "Carla": 333}
    out = _in_proportion(1001, {"Ana": 500, "Beto": 1000}, ["Ana", "Beto"])
    assert out == {"Ana": 334, "Beto": 667} and sum(out.values()) == 1001


def test_r3_1_dealer_must_rotate_and_r2_3_carry_must_match():
    s = session_of(NO_WINNER + peladilla_hand(dealer="Carla", carry="35"))
    # N9.3: the dealer is a warning; N9.1: the carry an error
    assert [(code, message.split(":")[0]) for _, code, message in s.warnings] == [
        ("R3.1", "the deal passes to the right")]
    assert [(code, message) for _, code, message in s.problems] == [
        ("R2.3", "Carry is 35.00 but the hand before carried out 40.00")]
    doc = s.as_json()  # check --session --json: "warnings" beside "problems", of the same shape
    assert doc["warnings"] == [{"line": 32, "code": "R3.1",
                                "message": "the deal passes to the right: Ana deals this hand, not Carla"}]
    assert doc["problems"] == [{"line": 32, "code": "R2.3",
                                "message": "Carry is 35.00 but the hand before carried out 40.00"}]


def test_r2_3_bet_may_not_change_while_a_pot_is_carried():
    s = session_of(NO_WINNER + peladilla_hand(bet="10"))
    assert any(code == "R2.3" and "the bet changed" in message for _, code, message in s.problems)


def test_n9_each_table_of_a_file_is_a_session_of_its_own():
    # two tables in one file: the second's first hand brings its carry in, any dealer deals it
    west = peladilla_hand(dealer="Carla", carry="35").replace("[Players", '[Table "west"]\n[Players')
    s = session_of(NO_WINNER + west)
    assert s.problems == [] and s.warnings == []
    assert [(r.number, r.table) for r in s.rows] == [(1, None), (2, "west")]
    assert [(line, pot, cents) for line, pot, cents, _ in s.unbalanced] == [
        (1, "main pot", 2000), (32, "main pot", 3500), (1, "main pot", -4000)]


def test_r4_6_side_carry_must_follow_on():
    first = NO_WINNER.replace('[Carry "20"]', '[Carry "20"]\n[Side "oro 1 Ana Beto"]')
    s = session_of(first + peladilla_hand())
    assert any(code == "R4.6" and "SideCarry for oro is 0.00" in message for _, code, message in s.problems)
    s = session_of(first + peladilla_hand(extra='[SideCarry "oro 2"]'))
    assert not any(code == "R4.6" for _, code, _ in s.problems)
