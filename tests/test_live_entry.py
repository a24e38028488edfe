"""Live entry through the verb commands, on SQLite and PostgreSQL: NOTATION.md's open example
recorded move by move settles to its exact nets; a refused move stores nothing; a closed record
gets `check`'s verdict; fouls are stored and flagged; `undo` supersedes and reopens."""

import json
import pathlib
import shlex

import pytest

from sqlmodel import select

from conftest import recorder_of

from desmoche_ref.referee import judge_text
from desmoche_ref.store.db import open_book
from desmoche_ref.store.schema.models import Posting
from conftest import verified

CONFORMANCE = pathlib.Path(__file__).parent / "conformance"
FRIDAY_NETS = {"Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"}


def moves_of(name: str) -> list:
    """The event lines of a conformance record, each as the words a recorder types."""
    text = (CONFORMANCE / name).read_text()
    return [shlex.split(line.split("#")[0]) for line in text.splitlines()
            if line.split("#")[0].strip() and not line.startswith("[")]


def friday_table(live):
    live("table", "new", "friday", "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo",
         "--side", "oro 5 Ana Beto Carla")
    live("hand", "new", "--dealer", "Ana")


def balances(url: str) -> dict:
    book = open_book(url)
    with book.read() as s:
        rows = list(s.exec(select(Posting)))
    book.engine.dispose()
    out = {}
    for p in rows:
        out[p.account] = out.get(p.account, 0) + p.amount
    return out


@pytest.mark.slow
def test_friday_move_by_move_ends_complete_with_its_nets(live):
    friday_table(live)
    for number, words in enumerate(moves_of("friday.dsm"), 1):
        if number == 11:  # Carla is to draw: Ana's draw is out of turn (R7.6)
            refused = live("draw", "Ana", "4d", status=1)
            # the code exactly; the engine's wording is its own (the draw is Carla's)
            assert refused.stderr.startswith("refused: R7.6 ") and "Carla" in refused.stderr
            assert refused.stderr.endswith(", not Ana (nothing stored)\n")
            log = live.json("hand", "log", "--all", "--json")
            assert [e["line"] for e in log][-1] == "pay Beto 7c" and len(log) == 10
        out = live(*words)
        assert out.stdout.startswith(f"move {number}: ")
    shown = live.json("hand", "show", "--json")
    assert (shown["table"], shown["number"], shown["status"]) == ("friday", 1, "complete")
    assert shown["net"] == FRIDAY_NETS
    assert shown["bonuses"] == [{"kind": "mico", "from": "Beto", "to": "Carla", "amount": "10.00"},
                                {"kind": "mico", "from": "Ana", "to": "Carla", "amount": "10.00"}]
    assert balances(live.url) == {}  # nothing posted until the hand is closed
    closed = live("end").stdout
    assert "  bonus mico: Beto pays Carla 10.00\n  bonus mico: Ana pays Carla 10.00\n" in closed
    assert "  side game oro: pot 15.00 to Beto with Q♦\n" in closed
    assert closed.endswith("Ana     -25.00\nBeto    -10.00\nCarla    35.00\n\n")
    assert balances(live.url) == {"Ana": -2500, "Beto": -1000, "Carla": 3500, "pot:main": 0, "pot:oro": 0}
    assert verified(live("verify").stdout) == "1 hand, 30 moves, 20 postings: all in order\n"


def test_each_move_prints_the_next_state_from_the_referee(live):
    friday_table(live)
    words = moves_of("friday.dsm")
    for w in words[:7]:
        live(*w)
    assert live("draw", "Beto", "2d").stdout == ("move 8: draw Beto 2d\n"
                                                 "on offer: 2♦ (drawn by Beto); may take it: Beto\n"
                                                 "if nobody takes it, Beto draws next\n")
    assert live("meld", "Beto", "2s", "2d", "2c").stdout == ("move 9: meld Beto 2s 2d 2c\n"
                                                            "Beto took 2♦ and lays more, then pays a card\n")
    assert live("pay", "Beto", "7c").stdout == ("move 10: pay Beto 7c\n"
                                               "on offer: 7♣ (paid by Beto); may take it: nobody\n"
                                               "if nobody takes it, Carla draws next\n")


def test_a_closed_record_gets_the_verdict_of_check(live):
    live("table", "new", "night", "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo")
    live("hand", "new", "--dealer", "Ana")
    for words in moves_of("closed-win.dsm"):
        live(*words)
    shown = live.json("hand", "show", "--json")
    record = live("hand", "show", "--record").stdout
    date = next(line for line in record.splitlines() if line.startswith("[Date "))  # the day it was dealt
    text = (CONFORMANCE / "closed-win.dsm").read_text()
    tags = [line for line in text.splitlines() if line.startswith("[")]
    expected = judge_text(text.replace(tags[-1], f"{tags[-1]}\n{date}", 1)).hands[0].as_json()
    assert {k: v for k, v in shown.items() if k not in ("table", "number")} == expected
    assert shown["status"] == "complete" and shown["net"] == {"Ana": "-20.00", "Beto": "-20.00",
                                                              "Carla": "40.00"}


def test_a_refused_move_gives_its_code_and_stores_nothing(live):
    friday_table(live)
    live("deal", "Beto", "2s", "3s", "4h", "7c", "8d", "Th", "Jc", "Qd", "Ks")
    bad = live("deal", "Carla", "2s", status=1)
    assert bad.stderr.startswith("refused: N2.4 ")
    syntax = live("meld", "Carla", "9z", status=1)
    assert syntax.stderr.startswith("refused: N2.1 ")
    assert [e["seq"] for e in live.json("hand", "log", "--all", "--json")] == [1]


def test_a_foul_is_stored_and_flagged(live):
    friday_table(live)
    for w in moves_of("friday.dsm")[:11]:  # 7♣ went by at the 11th: a card to peek at (issue 33)
        live(*w)
    out = live("foul", "Beto", "peek").stdout
    assert out.startswith("move 12: foul Beto peek\nfoul F2 Beto: ")
    assert "enforced, disqualified (`forgive` next to forgive it)" in out
    shown = live.json("hand", "show", "--json")
    assert [(f["code"], f["player"], f["enforced"]) for f in shown["fouls"]] == [("F2", "Beto", True)]
    live("forgive", "Beto")
    shown = live.json("hand", "show", "--json")
    assert [(f["code"], f["enforced"]) for f in shown["fouls"]] == [("F2", False)]


@pytest.mark.slow
def test_undo_supersedes_and_a_closed_hand_reopens_with_its_postings_reversed(live):
    friday_table(live)
    for w in moves_of("friday.dsm"):
        live(*w)
    live("end")
    out = live("undo").stdout
    assert out.startswith("move 31: undid move 30 (end); hand 1 is open again, its postings reversed\n")
    assert balances(live.url) == {"Ana": 0, "Beto": 0, "Carla": 0, "pot:main": 0, "pot:oro": 0}
    assert live("undo").stdout.startswith("move 32: undid move 29 (show Beto Qd)\n")
    log = live.json("hand", "log", "--all", "--json")
    who = recorder_of(live.url)
    assert log[-4:] == [
        {"seq": 29, "line": "show Beto Qd", "comment": None,
         "entered": log[-4]["entered"], "recorder": who, "supersedes": None,
         "superseded": 32},
        {"seq": 30, "line": "end", "comment": None,
         "entered": log[-3]["entered"], "recorder": who, "supersedes": None,
         "superseded": 31},
        {"seq": 31, "line": "undo", "comment": None,
         "entered": log[-2]["entered"], "recorder": who, "supersedes": 30,
         "superseded": None},
        {"seq": 32, "line": "undo", "comment": None,
         "entered": log[-1]["entered"], "recorder": who, "supersedes": 29,
         "superseded": None},
    ]
    assert [e["seq"] for e in live.json("hand", "log", "--json")] == list(range(1, 29))
    live("show", "Beto", "Qd")
    live("end")
    assert balances(live.url) == {"Ana": -2500, "Beto": -1000, "Carla": 3500, "pot:main": 0, "pot:oro": 0}
    assert verified(live("verify").stdout) == "1 hand, 34 moves, 60 postings: all in order\n"


@pytest.mark.slow
def test_undo_cannot_reopen_a_hand_closed_before_a_change_of_the_bet(live):
    """R2.2: the bet changes only between hands. A hand closed, the bet changed, then `undo`
    of its last move would put the change in the middle of it: refused, nothing stored, and
    the book verifies (found by the laws' state machine)."""
    friday_table(live)
    for w in moves_of("friday.dsm"):
        live(*w)
    live("end")
    live("table", "bet", "friday", "20", "--all-agree")
    refused = live("undo", status=2)
    assert refused.stderr == ("error: R2.2 the bet changed after hand 1 closed: taking back its last move would "
                              "reopen it under a bet changed in the middle of it (the bet changes only between "
                              "hands)\n")
    assert [e["seq"] for e in live.json("hand", "log", "--all", "--json")][-1] == 30
    assert balances(live.url) == {"Ana": -2500, "Beto": -1000, "Carla": 3500, "pot:main": 0, "pot:oro": 0}
    assert verified(live("verify").stdout) == "1 hand, 30 moves, 20 postings: all in order\n"


def test_a_stale_move_is_refused_with_exit_3(live):
    friday_table(live)
    live("deal", "Beto", "2s", "3s", "4h", "7c", "8d", "Th", "Jc", "Qd", "Ks")
    stale = live("deal", "Carla", "As", "2h", "3h", "9s", "9c", "5d", "6d", "Kc", "Qh", "--expect", "0",
                 status=3)
    assert stale.stderr == "the hand changed (now at move 1): look and try again (nothing stored)\n"
    live("deal", "Carla", "As", "2h", "3h", "9s", "9c", "5d", "6d", "Kc", "Qh", "--expect", "1")
    assert live("undo", "--expect", "1", status=3).stderr.startswith("the hand changed (now at move 2)")
    assert [e["seq"] for e in live.json("hand", "log", "--all", "--json")] == [1, 2]


def test_rec_takes_a_raw_line_with_its_comment(live):
    friday_table(live)
    for w in moves_of("friday.dsm")[:7]:
        live(*w)
    assert live("rec", "draw  Beto 2D  # off the top").stdout.startswith("move 8: draw Beto 2d\n")
    assert live("hand", "show", "--record").stdout.endswith("cambio Ana 2c\ndraw Beto 2d # off the top\n")


def test_hand_show_prints_the_table_now(live):
    friday_table(live)
    for w in moves_of("friday.dsm")[:8]:
        live(*w)
    out = live("hand", "show").stdout.splitlines()
    assert out[0] == "table friday hand 1 (open, incomplete), move 8: Ana dealt"
    assert out[3] == "Ana     in      4♠ 5♠ 6♠ 8♥ J♥ Q♥ J♦ A♣ 8♣"
    assert out[-2:] == ["on offer: 2♦ (drawn by Beto); may take it: Beto",
                        "if nobody takes it, Beto draws next"]


def test_hand_log_prints_times_and_corrections(live):
    friday_table(live)
    live("cut", "Beto")
    live("undo")
    out = live("hand", "log", "--all").stdout.splitlines()
    assert out[0] == "table friday hand 1: 2 rows"
    who = recorder_of(live.url)  # who entered each row, between its time and its line
    assert out[1].startswith("   1  20") and out[1].endswith(f"  {who}  cut Beto  (undone by move 2)")
    assert out[2].endswith(f"  {who}  undo  (undoes move 1)")
    assert live("hand", "log").stdout == "table friday hand 1: 0 moves\n"
    entered = live.json("hand", "log", "--all", "--json")[0]["entered"]
    assert json.loads(json.dumps(entered)).startswith("20")


@pytest.mark.slow
def test_the_next_hand_closes_a_hand_that_is_over_and_prints_its_settlement(live):
    friday_table(live)
    for w in moves_of("friday.dsm"):
        live(*w)
    out = live("hand", "new").stdout
    assert out.startswith("hand 1 closed and posted:\ntable friday hand 1: Carla wins with ten "
                          "cards down (move 28)\n  pot 30.00, carry in 0.00, carry out 0.00\n")
    assert out.endswith("Carla    35.00\n\nhand 2 at table friday: Beto deals; bet 10.00; "
                        "side games: oro 5.00 (Ana Beto Carla)\n")
    assert balances(live.url) == {"Ana": -2500, "Beto": -1000, "Carla": 3500, "pot:main": 0, "pot:oro": 0}
    assert live("draw", "Beto", "2d", status=1).stderr.startswith("refused: R3.3 ")  # hand 2 is not dealt


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "es"])
def test_db_given_before_the_command_is_the_book_of_every_command(tmp_path, lang):
    """`desmoche-ref --db FILE table new …`, as `--lang` may come first: friday entered move by
    move into a fresh book named only before each command, in English and in Spanish; a
    command's own --db is the one it uses."""
    from conftest import invoke

    book, other = tmp_path / "club.db", tmp_path / "other.db"

    def run(*args, status=0):
        done = invoke("--lang", lang, "--db", book, *args, env={"DESMOCHE_DB": str(other)})
        assert done.returncode == status, (args, done.stdout, done.stderr)
        return done

    assert run("db", "path").stdout == f"sqlite:///{book}\n"
    run("table", "new", "friday", "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo",
        "--side", "oro 5 Ana Beto Carla")
    run("hand", "new", "--dealer", "Ana")
    moves = moves_of("friday.dsm")
    for words in moves if lang == "en" else moves[:3]:  # the whole night once, in English
        run(*words)
    if lang == "en":
        run("end")
        assert json.loads(run("hand", "show", "--json").stdout)["net"] == FRIDAY_NETS
    else:
        assert [m["line"] for m in json.loads(run("hand", "log", "--json").stdout)] == [" ".join(w) for w in moves[:3]]
    assert verified(run("verify").stdout).endswith(
        "all in order\n" if lang == "en" else "todo en orden\n")
    assert not other.exists()  # $DESMOCHE_DB gives way to --db, before the command or after it
    assert invoke("--db", other, "table", "list", "--json", "--db", book).stdout.count('"friday"') == 1
    piped = invoke("--lang", lang, "--db", book, "play", input="state\n")
    assert piped.returncode == 0 and not other.exists(), piped.stderr
    shown = invoke("--lang", lang, "--help").stdout
    assert ("--db URL The book: a SQLAlchemy URL" if lang == "en" else
            "--db URL El libro: una URL de SQLAlchemy") in " ".join(shown.split())


@pytest.mark.parametrize("lang, said", [
    ("en", "Error: unexpected extra arguments ({extra}): a value of several words goes in one argument, "
           'in quotes (--players "Ana Beto Carla", --side "oro 5 Ana Beto")\n'),
    ("es", "Error: sobran argumentos ({extra}): un valor de varias palabras va en un solo argumento, "
           'entre comillas (--players "Ana Beto Carla", --side "oro 5 Ana Beto")\n')])
def test_a_tags_value_typed_without_its_quotes_is_told_how_to_write_it(tmp_path, lang, said):
    """`--players Ana Beto Carla`, as a record's Players tag reads: one line saying to quote
    the names (exit 2), nothing made; the same for a side game of `hand new`."""
    from conftest import invoke

    book = tmp_path / "club.db"
    done = invoke("--lang", lang, "table", "new", "friday", "--players", "Ana", "Beto", "Carla", "--bet", "10",
                  "--db", book)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.endswith(said.format(extra="Beto Carla")) and not book.exists()
    invoke("table", "new", "friday", "--players", "Ana Beto Carla", "--bet", "10", "--db", book)
    done = invoke("--lang", lang, "hand", "new", "--dealer", "Ana", "--side", "oro", "5", "Ana", "Beto",
                  "--db", book)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.endswith(said.format(extra="5 Ana Beto"))
    assert invoke("hand", "show", "--db", book).stderr.startswith("error: no hand yet at table friday")
