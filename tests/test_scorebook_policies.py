"""One policy per case, the same answer from every front end (store/write/tablebook.py): the verbs,
`rec` and `play` give a line the same verdict and exit status, store it once, and agree with
`check` of the hand's exported record (docs/rulings.md, N3.1, N4.4)."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import verified
from test_store_core import friday_lines

ROOT = pathlib.Path(__file__).parent.parent
FRIDAY = ROOT / "tests" / "conformance" / "friday.dsm"
MOVES = friday_lines()


def new_night(live):
    live("table", "new", "friday", "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo",
         "--side", "oro 5 Ana Beto Carla")
    live("hand", "new", "--dealer", "Ana")


def piped(live, text, *args):
    """`play` fed `text` on its standard input (no terminal), in this process."""
    from click.testing import CliRunner

    from desmoche_ref.cli import main

    return CliRunner().invoke(main, ["play", *args], input=text, env={"DESMOCHE_DB": live.url})


def postings(live) -> int:
    return len(live.json("ledger", "--json")["postings"])


def test_an_unknown_player_is_n3_1_exit_1_through_the_verb_rec_and_play(live):
    new_night(live)
    verb = live("cut", "Zed", status=1)
    rec = live("rec", "cut Zed", status=1)
    assert verb.stderr == rec.stderr == (
        "refused: N3.1 'Zed' is not a player at this table (Ana Beto Carla); names are matched exactly "
        "(nothing stored)\n")
    played = piped(live, "cut Zed\n")
    assert played.exit_code == 1
    assert played.stdout.splitlines()[0] == (
        "1: refused: N3.1 'Zed' is not a player at this table (Ana Beto Carla); names are matched exactly "
        "(nothing stored)")
    assert live.json("hand", "log", "--all", "--json") == []


@pytest.mark.parametrize("front", ["verb", "rec", "play"])
@pytest.mark.slow
def test_after_end_a_show_is_stored_once_and_the_postings_stand(live, front):
    """N4.4: after `end` a `show` may follow: stored once whoever types it; typed again it
    changes nothing and is not stored; the settlement does not change, so the hand's 18
    postings stand (none reversed, none posted again); `check` of the export agrees."""
    new_night(live)
    for line in MOVES:
        live("rec", line)
    live("end")
    assert postings(live) == 20
    for _ in range(2):
        if front == "verb":
            out = live("show", "Ana", "Jh").stdout
        elif front == "rec":
            out = live("rec", "show Ana Jh").stdout
        else:
            run = piped(live, "show Ana Jh\n")
            assert run.exit_code == 0, run.stdout
            # play counts the lines it stored, or found recorded already (issue 33)
            assert run.stdout == "1 line stored\n" or run.stdout.endswith("\n0 lines stored; 1 already recorded\n")
            out = run.stdout.rsplit("\n", 2)[0]
        seqs = [r["seq"] for r in live.json("hand", "log", "--json")]
        assert seqs == list(range(1, len(MOVES) + 3))  # the moves, `end`, one `show`
    assert out.strip() in ("already recorded (move 31): show Ana Jh changes nothing, nothing stored",
                           "1: already recorded (move 31): show Ana Jh changes nothing, nothing stored")
    assert postings(live) == 20
    from desmoche_ref.referee import judge_text

    record = live("hand", "show", "--record").stdout

    verdict = judge_text(record).hands[0].as_json()
    assert verdict["status"] == "complete"
    assert verdict["net"] == live.json("hand", "show", "--json")["net"] == {
        "Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"}
    assert verified(live("verify").stdout).endswith(": all in order\n")


@pytest.mark.slow
def test_a_show_after_end_taken_back_leaves_the_hand_closed_and_its_postings(live, tmp_path):
    """The `end` still stands when a card shown after it is taken back: the hand stays closed,
    its 20 postings stand (none reversed), and the export imports back to the same money.
    Found by the stateful laws: the undo reopened the hand under its standing `end`, so the
    book held an open hand whose record `check` settles, and its money was gone."""
    new_night(live)
    for line in MOVES:
        live("rec", line)
    live("end")
    live("show", "Ana", "Jh")
    taken = live("undo").stdout
    assert taken.startswith("move 32: undid move 31 (show Ana Jh)\n") and "open again" not in taken, taken
    shown = live.json("hand", "show", "--json")
    assert shown["status"] == "complete" and shown["net"] == {"Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"}
    assert postings(live) == 20
    assert [r["line"] for r in live.json("hand", "log", "--json")][-1] == "end"
    assert verified(live("verify").stdout).endswith(": all in order\n")
    again = live("undo").stdout  # now the `end` itself: the hand reopens, its postings reversed
    assert "hand 1 is open again, its postings reversed" in again and postings(live) == 40, again


@pytest.mark.parametrize("front", ["verb", "rec", "play"])
@pytest.mark.slow
def test_after_end_a_draw_is_n4_4_exit_1_everywhere(live, front):
    new_night(live)
    for line in MOVES:
        live("rec", line)
    live("end")
    if front == "verb":
        run = live("draw", "Beto", "4c", status=1)
        said = run.stderr
    elif front == "rec":
        run = live("rec", "draw Beto 4c", status=1)
        said = run.stderr
    else:
        run = piped(live, "draw Beto 4c\n")
        assert run.exit_code == 1
        said = run.stdout
    assert "N4.4 the hand is over (line 28): only show and end may follow" in said
    assert postings(live) == 20


@pytest.mark.slow
def test_end_typed_twice_is_stored_once(live):
    new_night(live)
    for line in MOVES:
        live("rec", line)
    assert live("end").stdout.startswith("move 30: end\nhand 1 closed and posted:\n")
    assert live("end").stdout == "already recorded (move 30): end changes nothing, nothing stored\n"
    assert len(live.json("hand", "log", "--json")) == 30 and postings(live) == 20


@pytest.mark.slow
def test_a_move_that_loses_to_hand_new_is_told_the_table_moved_on(live):
    """The recorder looked at hand 1; before it stored its move another dealt hand 2: the
    move is not judged against the new hand (exit 3, nothing stored)."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.write.tablebook import HandChanged, TableBook

    new_night(live)
    for line in MOVES:
        live("rec", line)
    book = open_book(live.url)
    late = TableBook(book)   # looks at hand 1, over
    TableBook(book).new_hand()
    with pytest.raises(HandChanged) as changed:
        late.record("show Ana Jh", late.seq)
    assert str(changed.value) == "the table moved on (now at hand 2, move 0): look and try again"
    with pytest.raises(HandChanged):
        TableBook(book).new_hand(expect_number=1)  # a second `hand new` that saw hand 1
    book.engine.dispose()
    assert [h for h in live.json("table", "list", "--json")][0]["hands"] == 2


@pytest.mark.slow
def test_hand_log_shows_local_time_with_its_offset_and_utc_on_request(live, tmp_path):
    new_night(live)
    live("deal", "Beto", "?x9")
    env = dict(os.environ, DESMOCHE_DB=live.url, TZ="America/Managua", PYTHONPATH=str(ROOT))
    local = subprocess.run([sys.executable, "-m", "desmoche_ref", "hand", "log", "--json"], env=env,
                           capture_output=True, text=True)
    utc = subprocess.run([sys.executable, "-m", "desmoche_ref", "hand", "log", "--json", "--utc"], env=env,
                         capture_output=True, text=True)
    assert json.loads(local.stdout)[0]["entered"].endswith("-06:00")
    assert json.loads(utc.stdout)[0]["entered"].endswith("+00:00")
    text = subprocess.run([sys.executable, "-m", "desmoche_ref", "hand", "log"], env=env,
                          capture_output=True, text=True).stdout
    assert text.splitlines()[1].endswith("-06:00  " + json.loads(local.stdout)[0]["recorder"] + "  deal Beto ?x9")


def test_with_no_hand_the_hint_is_the_command_that_works(live):
    live("table", "new", "t", "--players", "Ana Beto", "--bet", "1")
    said = live("draw", "Ana", "2d", status=2).stderr
    assert said == ("error: no hand yet at table t: start one with `desmoche-ref hand new --dealer NAME`\n")
    assert live("hand", "new", "--dealer", "Ana").exit_code == 0


@pytest.mark.slow
def test_friday_recorded_through_the_verbs_equals_check(live):
    """The same moves, typed as verbs, end as `check` ends friday.dsm."""
    from desmoche_ref.referee import judge_text

    new_night(live)
    for line in MOVES:
        verb, *rest = line.split()
        live(verb, *rest)
    expected = judge_text(FRIDAY.read_text()).hands[0].as_json()["net"]
    assert live.json("hand", "show", "--json")["net"] == expected == {
        "Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"}
