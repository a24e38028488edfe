"""`desmoche-ref view`: the table after a line, as the referee itself answers it (R7.5, R9.1),
never disagreeing with `check`; and its errors, one line each."""

import json
import pathlib

import pytest

from conftest import invoke
from desmoche_ref.notation.parser import parse_bytes
from desmoche_ref.referee import judge_hand
from desmoche_ref.simulate import simulate_session
from desmoche_ref.view import table_at

ROOT = pathlib.Path(__file__).parent.parent
FRIDAY = ROOT / "tests" / "conformance" / "friday.dsm"


def cli(*args):
    return invoke(*args, env={"NO_COLOR": "1"})


@pytest.fixture
def forcing(tmp_path):
    """friday.dsm under forcing, cut after line 34 (`draw Carla 7d`): 7d fits Carla's run."""
    lines = FRIDAY.read_text().replace('[Options "todo"]', '[Options "todo forcing"]').split("\n")
    assert lines[33] == "draw Carla 7d"
    path = tmp_path / "forcing.dsm"
    path.write_text("\n".join(lines[:34]) + "\n")
    return path


def test_r9_1_the_view_names_who_must_take_the_card_and_nobody_else(forcing):
    run = cli("view", forcing, "--at", "34")
    assert run.returncode == 0
    out = run.stdout.splitlines()
    assert "on offer: 7♦ (drawn by Carla); may take: Carla; must take: Carla (R9.1)" in out
    assert "turn: Carla must take 7♦: it fits a meld on the table (R9.1)" in out
    assert ("next: meld, add by Carla; claim, knock, pass by Ana, Beto, Carla; "
            "at any time: foul, show, announce, declare by Ana, Beto, Carla") in out
    assert "if nobody takes" not in run.stdout and "draws next" not in run.stdout


def test_r9_1_the_view_agrees_with_check(forcing, tmp_path):
    """What the view says Ana may not do (draw: the card is Carla's to take), check refuses."""
    moves = json.loads(cli("view", forcing, "--json").stdout)["moves"]
    assert {"verb": "draw", "player": "Ana"} not in moves
    refused = tmp_path / "refused.dsm"
    refused.write_text(forcing.read_text() + "draw Ana Kd\n")
    run = cli("check", refused)
    assert f"{refused}:35: R9.1 7♦ fits Carla's meld and must be taken (forcing)" in run.stdout
    taken = tmp_path / "taken.dsm"
    taken.write_text(forcing.read_text() + "add Carla 7d\n")
    assert json.loads(cli("check", "--json", taken).stdout)["files"][0]["hands"][0]["outcome"] == {
        "kind": "win", "winners": ["Carla"], "auto": None, "line": 35}


def test_view_json_gives_the_offer_money_and_options_as_check_does(forcing):
    view = json.loads(cli("view", forcing, "--at", "34", "--json").stdout)
    assert view["offer"] == {"card": "7d", "by": "Carla", "how": "drawn", "may_take": ["Carla"],
                             "must_take": "Carla"}
    hand = json.loads(cli("check", "--json", forcing).stdout)["files"][0]["hands"][0]
    assert (view["bet"], view["carry_in"]) == (hand["bet"], hand["carry_in"]) == ("10.00", "0.00")
    assert view["options"] == hand["options"]
    assert view["options"]["forcing"] is True and view["rules"] == "desmoche"
    assert view["action"] is None and view["outcome"] is None
    assert view["next_draw"] == {"player": "Ana", "rule": "R7.6"}
    play = sorted((m["verb"], m["player"]) for m in view["moves"]
                  if m["verb"] not in ("foul", "show", "announce", "declare"))
    assert play == sorted([("meld", "Carla"), ("add", "Carla")]
                          + [(v, p) for v in ("claim", "knock", "pass") for p in ("Ana", "Beto", "Carla")])


@pytest.mark.slow
def test_view_of_a_paid_card_an_action_and_the_end():
    paid = json.loads(cli("view", FRIDAY, "--at", "20", "--json").stdout)  # pay Carla Kc
    assert paid["offer"] == {"card": "Kc", "by": "Carla", "how": "paid", "may_take": [], "must_take": None}
    taking = json.loads(cli("view", FRIDAY, "--at", "19", "--json").stdout)  # meld Carla 4d 5d 6d
    assert taking["action"] == {"player": "Carla", "taken": "4d", "owes": "pay"}
    assert sorted(m["verb"] for m in taking["moves"] if m["player"] == "Carla"
                  and m["verb"] not in ("foul", "show", "announce", "declare")) == ["add", "meld", "pay"]
    run = cli("view", FRIDAY)
    assert "turn: over: Carla wins with ten cards down (line 35)" in run.stdout.splitlines()
    assert "next: end; at any time: show by Ana, Beto, Carla" in run.stdout.splitlines()


def test_view_of_an_invalid_hand_shows_the_table_before_the_error():
    run = cli("view", ROOT / "sample_logs" / "dispute-not-a-meld.dsm")
    assert run.returncode == 1
    out = run.stdout.splitlines()
    assert out[1].endswith(":18: R8.1 Qs Ks As is not a meld: a run is consecutive ranks, "
                           "Ace low only (Q-K-A and K-A-2 are not runs)")
    assert out[2] == "the table before line 18:"
    assert "on offer: A♠ (drawn by Beto); may take: nobody" in out


def test_view_help_has_examples_and_show_is_the_verb():
    run = cli("view", "--help")
    assert run.returncode == 0 and "Examples:" in run.stdout
    assert "desmoche-ref view sample_logs/friday.dsm --at 25" in run.stdout
    run = cli("show", FRIDAY)  # `show` is the notation verb (show PLAYER CARDS), not a viewer
    assert run.returncode == 2 and "Error: Missing argument 'CARDS…'." in run.stderr


@pytest.mark.parametrize("target", ["nope.dsm", "a-folder"])
def test_view_of_a_file_it_cannot_read_is_one_line_and_exit_2(tmp_path, target):
    (tmp_path / "a-folder").mkdir()
    path = tmp_path / target
    run = cli("view", path)
    reason = "no such file" if target == "nope.dsm" else "is a directory, not a record file"
    assert (run.returncode, run.stdout, run.stderr) == (2, "", f"{path}: error: cannot read {path}: {reason}\n")
    assert cli("check", path).returncode == 2  # as check


def test_view_at_a_line_outside_the_file_is_a_usage_error():
    run = cli("view", FRIDAY, "--at", "999")
    assert (run.returncode, run.stdout, run.stderr) == (2, "", f"Error: --at 999: {FRIDAY} has 36 lines\n")
    assert cli("view", FRIDAY, "--at", "36").returncode == 0


def test_view_at_a_line_outside_the_chosen_hand_is_a_usage_error():
    night = ROOT / "sample_logs" / "club-night.dsm"
    hands = parse_bytes(night.read_bytes()).hands
    second = hands[1].line
    run = cli("view", night, "--hand", "1", "--at", second + 2)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (f"Error: --at {second + 2}: line {second + 2} is in hand 2; "
                          f"hand 1 is lines 1-{second - 1}\n")
    alone = cli("view", night, "--at", second + 2)  # without --hand: the hand that holds it
    assert alone.returncode == 0 and alone.stdout.startswith(f"{night} hand 2 (line {second}), after line {second + 2}")


def records():
    for path in sorted((ROOT / "sample_logs").glob("*.dsm")) + sorted((ROOT / "tests" / "conformance").glob("*.dsm")):
        yield from parse_bytes(path.read_bytes()).hands
    yield from parse_bytes(simulate_session(40, players=3, seed=3).encode()).hands
    yield from parse_bytes(simulate_session(20, players=4, seed=9).encode()).hands


@pytest.mark.slow
def test_the_moves_possible_next_hold_the_line_that_came_next():
    """At every line of every sample, conformance and simulated hand, the view's moves
    possible next include the record's next line (up to its first error, if any)."""
    checked = 0
    for hand in records():
        report = judge_hand(hand)
        stop = report.errors[0].line if report.errors else None
        previous = None
        for ev in hand.events:
            if stop is not None and ev.line >= stop:
                break
            moves = table_at(hand, previous)["moves"] if previous else table_at(hand, hand.line)["moves"]
            assert {"verb": ev.verb, "player": ev.actor} in moves, (hand.line, ev.line, ev.verb, ev.actor)
            previous = ev.line
            checked += 1
    assert checked > 3000
