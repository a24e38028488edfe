"""A table's close asks first and is taken back (issue 33, docs/rulings.md): `table close`
and `close` in `play` ask at a terminal (a script's line is its own word, `--yes` too);
`undo` right after it, or `table reopen`, opens the table again as it was — its R11.5
returns taken back — and the book verifies; afterwards `hand new`, `undo` and `table new`
with the closed table's name say what to do."""

import os
import pathlib
import sys

import pexpect
import pytest

from conftest import Live, invoke

ROOT = pathlib.Path(__file__).parent.parent
NO_WINNER = (ROOT / "tests" / "conformance" / "no-winner.dsm").read_text()


def carried_night(url):
    """Table T (Ana Beto Carla Dani, bet 5.00): hand 1 nobody wins, its pot of 20.00 carried."""
    from desmoche_ref.play.script import night_script
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.write.tablebook import TableBook, create_table

    setup, lines = night_script(NO_WINNER)
    book = open_book(url)
    create_table(book, "T", list(setup.players), setup.bet)
    table = TableBook(book, "T")
    table.new_hand("Dani")
    for line in lines[1:]:
        table.record(line)
    book.engine.dispose()


@pytest.fixture
def night(built_book):
    return Live(built_book("carried-night", carried_night))


def postings(live):
    return live.json("ledger", "--json")["postings"]


RETURNED = "Ana 5.00, Beto 5.00, Carla 5.00, Dani 5.00"


@pytest.mark.parametrize("how", ["undo", "table reopen"])
def test_undo_or_reopen_takes_a_close_back_and_the_book_verifies(night, how):
    live = night
    held = live.json("settle-up", "--json")["held"]
    assert live("table", "close", "T").stdout == \
        f"table T closed\n  the carried main pot is returned (R11.5): {RETURNED}\n"
    assert live.json("settle-up", "--json")["held"] == []
    out = live("undo").stdout if how == "undo" else live("table", "reopen", "T").stdout
    assert out.splitlines()[:2] == ["took back `table close`: table T is open again",
                                    f"  the main pot holds again what it had returned: {RETURNED}"]
    assert live.json("table", "list", "--json")[0]["closed"] is False
    assert live.json("settle-up", "--json")["held"] == held  # the pot holds its 20.00 again
    assert sum(float(p["amount"]) for p in postings(live) if p["kind"] == "refund") == 0
    live("verify")
    # the table goes on: the next hand carries the pot in
    assert live("hand", "new").stdout.endswith("carry in 20.00\n")
    live("verify")


def test_after_a_close_the_commands_say_how_to_go_on(night):
    live = night
    live("table", "close", "T")
    said = ("table T is closed: `desmoche-ref undo` (or `desmoche-ref table reopen T`) opens it again; a new "
            "game is a new table")
    assert live("hand", "new", status=2).stderr == f"error: {said}\n"
    assert live("draw", "Ana", "2d", status=2).stderr == f"error: {said}\n"
    assert live("table", "new", "T", "--players", "Ana Beto", "--bet", "1", status=2).stderr == (
        "error: table 'T' is closed, and its name stays with it: `desmoche-ref table reopen T` opens it again, "
        "or give the new table another name\n")
    assert live("--lang", "es", "hand", "new", status=2).stderr == (
        "error: la mesa T está cerrada: `desmoche-ref undo` (o `desmoche-ref table reopen T`) la abre otra vez; "
        "una partida nueva es una mesa nueva\n")
    assert live("table", "reopen", "T").stdout.startswith("took back")
    assert live("table", "reopen", "T", status=2).stderr == "error: table T is not closed\n"
    # an undo more takes back the `end` of the hand: the table is where it stood before
    assert live("undo").stdout.startswith("move 26: undid move 25 (end); hand 1 is open again")
    live("verify")


def test_close_in_play_from_a_file_closes_and_undo_opens_again(night):
    from click.testing import CliRunner

    from desmoche_ref.cli import main

    run = CliRunner().invoke(main, ["--lang", "es", "play"], input="cerrar\n", env={"DESMOCHE_DB": night.url})
    assert run.exit_code == 0
    assert run.stdout == f"mesa T cerrada\n  se devuelve el bote principal acumulado (R11.5): {RETURNED}\n"
    run = CliRunner().invoke(main, ["play"], input="undo\n", env={"DESMOCHE_DB": night.url})
    assert run.stdout.startswith("took back `table close`: table T is open again\n")
    night("verify")


PROMPT = "\x1b[?2004h"  # prompt_toolkit enters a prompt (tests/test_play_terminal.py)


def spawn(url, *args):
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1",
               DESMOCHE_DB=url)
    env.pop("DESMOCHE_LANG", None)
    return pexpect.spawn(sys.executable, ["-m", "desmoche_ref", *args], env=env, encoding="utf-8", timeout=30,
                         dimensions=(30, 200))


@pytest.mark.slow
@pytest.mark.parametrize("answer", ["n", "y"])
def test_table_close_asks_at_a_terminal(built_book, answer):
    url = built_book("carried-night", carried_night)
    child = spawn(url, "table", "close", "T")
    child.expect_exact("close table T for good? its last hand is closed and the pots it carries go back to the "
                       "players (R11.5); `undo` takes it back [y/N]: ")
    child.sendline(answer)
    child.expect(pexpect.EOF)
    closed = invoke("table", "list", "--json", env={"DESMOCHE_DB": url}).stdout
    assert ('"closed": true' in closed) == (answer == "y")
    assert ("table T closed" in child.before) == (answer == "y")
    assert ("table T left open" in child.before) == (answer == "n")


@pytest.mark.slow
def test_close_in_the_table_session_asks_first(built_book):
    url = built_book("carried-night", carried_night)
    child = spawn(url, "play")
    child.expect_exact(PROMPT)
    child.sendline("close")
    child.expect_exact("`undo` takes it back [y/N]:")  # (prompt_toolkit draws the space as a cursor move)
    child.sendline("n")
    child.expect_exact("table T left open")
    child.expect_exact(PROMPT)
    child.sendline("close")
    child.expect_exact("[y/N]:")
    child.sendline("y")
    child.expect_exact("table T closed")
    child.expect_exact("table closed · `undo` opens it again >")
    child.sendline("undo")
    child.expect_exact("took back `table close`: table T is open again")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert '"closed": false' in invoke("table", "list", "--json", env={"DESMOCHE_DB": url}).stdout
