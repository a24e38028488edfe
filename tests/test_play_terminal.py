"""The table session at a real terminal (a pseudo-terminal driven by pexpect): the prompt,
Tab completion, suits in colour (and not with NO_COLOR or TERM=dumb), history across
sessions, and nothing accepted lost to Ctrl-C, Ctrl-D or a terminal that goes away."""

import os
import pathlib
import re
import signal
import sys

import pexpect
import pytest
from sqlmodel import select

from desmoche_ref.store.read import hands as H
from desmoche_ref.store.write.tablebook import TableBook
from desmoche_ref.store.db import open_book
from desmoche_ref.store.schema.models import Hand, Posting

ROOT = pathlib.Path(__file__).parent.parent
FRIDAY = [line for line in (ROOT / "tests" / "conformance" / "friday.dsm").read_text().splitlines()
          if line and not line.startswith("[")]
RED, BLACK = r"\x1b\[[0-9;]*31m", r"\x1b\[[0-9;]*1m"  # as prompt_toolkit writes the colours


@pytest.fixture
def book_path(tmp_path):
    """A SQLite book holding table Friday (NOTATION's example: Ana deals, oro side game) and
    its first hand, as `table new` and `hand new` leave it."""
    path = str(tmp_path / "book.db")
    book = open_book(path)
    with book.write() as s:
        H.create_table(s, "Friday", ["Ana", "Beto", "Carla"], 1000, options="todo",
                       sides=[("oro", 500, ["Ana", "Beto", "Carla"])])
    TableBook(book, "Friday").new_hand("Ana")
    book.engine.dispose()
    return path


def spawn(book_path, tmp_path, wait=True, **env):
    environ = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color",
                   XDG_DATA_HOME=str(tmp_path / "data"), PROMPT_TOOLKIT_NO_CPR="1")
    environ.pop("NO_COLOR", None)
    environ.update(env)
    child = pexpect.spawn(sys.executable, ["-m", "desmoche_ref", "play", "--db", book_path],
                          env=environ, encoding="utf-8", timeout=20, dimensions=(30, 200))
    child.logfile_read = open(tmp_path / "terminal.log", "w")
    child.expect("Tab completes")
    if wait:
        child.expect_exact(PROMPT)
    return child


def stored(book_path) -> list:
    book = open_book(book_path)
    with book.read() as s:
        hand = s.exec(select(Hand).order_by(Hand.number.desc())).first()
        lines = H.event_lines(H.events(s, hand))
    book.engine.dispose()
    return lines


ACCEPTED, PROMPT = "\x1b[?2004l", "\x1b[?2004h"  # prompt_toolkit leaves and enters a prompt


ESCAPES = r"(?:\x1b\[[0-9;?]*[A-Za-z])*"  # colours, cursor moves, modes between characters


def expect_shown(child, text):
    """Wait until `text` is on the screen. prompt_toolkit draws a line by differences, so
    what was typed and what Tab added arrive with escapes between them (and a space that
    is already there may be drawn as a cursor move)."""
    parts = [r"(?: |\x1b\[\d*C)" if ch == " " else re.escape(ch) for ch in text]
    child.expect(ESCAPES.join(parts))


def type_line(child, line):
    """Type a line and wait until it is done and the next prompt is up."""
    child.sendline(line)
    child.expect_exact(ACCEPTED)
    child.expect_exact(PROMPT)


def assert_left(child, book_path, lines):
    """The session ended by itself (exit 0) with exactly these moves in the book."""
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert stored(book_path) == lines


@pytest.mark.slow
def test_friday_typed_at_the_prompt_ends_as_check_ends_it(book_path, tmp_path):
    child = spawn(book_path, tmp_path)
    child.expect("H1 · the deal: Ana deals >")
    for line in FRIDAY[:7]:
        type_line(child, line)
    child.expect("H1 · Beto to draw >")
    # Tab completes the verb, the name and the card (the only unseen 2 is 2d)
    for keys, shown in (("dr\t", "draw"), (" Be\t", "Beto"), (" 2\t", "2d")):
        child.send(keys)
        expect_shown(child, shown)
    type_line(child, "")
    child.expect(f"H1 · Beto to act · on offer {RED}2♦")
    # several cards fit: Tab lists them, the suits in colour (red ♦, black ♠ ♣)
    child.send("m Beto 2\t")
    child.expect(f"{RED}2♦")
    child.expect(f"{BLACK}2♠")
    type_line(child, "s 2d 2c")
    child.expect(f"H1 · Beto to act · took {RED}2♦" + r"\x1b\[0m, pays next >")
    type_line(child, "p Beto 7c")
    child.expect(f"H1 · Carla to draw · on offer {BLACK}7♣")
    type_line(child, "draw Ana 4d")  # out of turn: refused with the rule, nothing stored
    assert "R7.6 the next draw is by the player to the right of Beto: Carla, not Ana" in child.before
    for line in FRIDAY[10:]:
        type_line(child, line)
    child.expect("H1 · over: Carla wins with ten cards down · `end` closes the hand >")
    type_line(child, "end")
    assert "table Friday hand 1: Carla wins with ten cards down (move 28)" in child.before
    child.expect("H1 · closed · `new` deals the next >")
    type_line(child, "settle")
    assert re.search(r"total\s+-25\.00\s+-10\.00\s+35\.00", child.before)
    child.sendeof()
    assert_left(child, book_path, FRIDAY + ["end"])
    book = open_book(book_path)
    with book.read() as s:
        net = {}
        for p in s.exec(select(Posting).where(Posting.player_id.is_not(None))):
            net[p.account] = net.get(p.account, 0) + p.amount
    book.engine.dispose()
    assert net == {"Ana": -2500, "Beto": -1000, "Carla": 3500}


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}], ids=["NO_COLOR", "TERM=dumb"])
@pytest.mark.slow
def test_no_colour_when_the_terminal_should_not_have_it(book_path, tmp_path, env):
    child = spawn(book_path, tmp_path, wait=False, **env)
    for line in FRIDAY[:8]:
        child.sendline(line)
    child.expect("H1 · Beto to act · on offer (.{0,40}) from Beto >")
    assert child.match.group(1) == "2♦"
    child.sendline("state")
    child.expect("on offer: (.{0,40}) \\(drawn by Beto\\)")
    assert child.match.group(1) == "2♦"
    child.sendline("quit")
    assert_left(child, book_path, FRIDAY[:8])


@pytest.mark.slow
def test_ctrl_c_drops_the_line_and_ctrl_d_leaves_with_every_move_stored(book_path, tmp_path):
    child = spawn(book_path, tmp_path)
    for line in FRIDAY[:8]:
        type_line(child, line)
    child.send("meld Beto 2s 2d")
    expect_shown(child, "2s 2d")
    child.sendintr()  # Ctrl-C: the half-typed line goes, the session stays
    child.expect_exact(ACCEPTED)
    child.expect_exact(PROMPT)
    type_line(child, "help")
    assert "dr Beto 2d          (draw Beto 2d)" in child.before
    child.sendeof()
    assert_left(child, book_path, FRIDAY[:8])


@pytest.mark.slow
def test_a_lost_terminal_loses_nothing_accepted(book_path, tmp_path):
    child = spawn(book_path, tmp_path)
    for line in FRIDAY[:10]:
        type_line(child, line)
    child.send("draw Carla 4")  # mid-line when the terminal goes away
    expect_shown(child, "Carla 4")
    child.close(force=True)  # the terminal is gone: the session gets SIGHUP
    assert child.signalstatus in (signal.SIGHUP, signal.SIGKILL) or child.exitstatus is not None
    assert stored(book_path) == FRIDAY[:10]
    child = spawn(book_path, tmp_path)  # the next session takes the hand up where it stood
    child.expect("H1 · Carla to draw · on offer .*7♣.* from Beto >")
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.slow
def test_history_carries_over_to_the_next_session(book_path, tmp_path):
    child = spawn(book_path, tmp_path)
    type_line(child, FRIDAY[0])
    type_line(child, "log")
    assert re.search(r"   1  \d\d:\d\d:\d\d[+-]\d\d:\d\d  " + re.escape(FRIDAY[0]), child.before)
    child.sendeof()
    child.expect(pexpect.EOF)
    history = (tmp_path / "data" / "desmoche-ref" / "play-history").read_text()
    assert [line[1:] for line in history.splitlines() if line.startswith("+")] == [FRIDAY[0], "log"]
    child = spawn(book_path, tmp_path)
    child.send("\x1b[A\x1b[A")  # Up, Up: the first line typed in the last session
    expect_shown(child, FRIDAY[0][-12:])
    child.sendintr()
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert stored(book_path) == FRIDAY[:1]
