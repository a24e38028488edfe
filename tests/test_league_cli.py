"""The league's commands as a user meets them: help with examples, one-line errors with
exit 2, the formats, no progress bar when piped, and the reports' start-up (no ORM)."""

import json
import pathlib
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import invoke  # in-process, answered as the process would answer (a traceback fails the test)
from desmoche_ref.cli import main

DATA = pathlib.Path(__file__).parent / "league_data"
COMMANDS = ["import", "export", "standings", "ledger", "settle-up"]


def run(*args, env=None):
    """(exit status, what the command said): its "new book at PATH" line (standard error, a
    book made by this command) left out; tests/test_third_night.py tests it."""
    result = CliRunner().invoke(main, [str(a) for a in args], env=env)
    return result.exit_code, "".join(line for line in result.output.splitlines(keepends=True)
                                     if not line.startswith("new book at "))


def proc(*args):
    """The command in its own process (a piped one: no terminal anywhere)."""
    return subprocess.run([sys.executable, "-m", "desmoche_ref", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_league_command_has_help_with_examples(command):
    code, out = run(command, "--help")
    assert code == 0 and "Examples:" in out and f"desmoche-ref {command}" in out


def test_main_help_lists_the_league_commands():
    out = run("--help")[1]
    assert all(c in out for c in COMMANDS)


@pytest.mark.parametrize("args, message", [
    (["standings", "--table", "nowhere"], "error: there is no table 'nowhere' in this book"),
    (["ledger", "--table", "nowhere"], "error: there is no table 'nowhere' in this book"),
    (["settle-up", "--table", "nowhere"], "error: there is no table 'nowhere' in this book"),
    (["export", "--table", "nowhere"], "error: there is no table 'nowhere' in this book"),
    (["standings", "--fmt", "nope"], "error: unknown --fmt 'nope': one of "),
])
@pytest.mark.slow
def test_bad_requests_are_one_line_and_exit_2(tmp_path, args, message):
    run("table", "new", "t", "--players", "Ana Beto", "--bet", "1", "--db", tmp_path / "book.db")
    done = invoke(*args, "--db", tmp_path / "book.db")  # (a read never makes a book: test_fourth_night.py)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(message)


@pytest.mark.slow
def test_a_book_in_a_missing_folder_is_one_line_and_exit_2(tmp_path):
    done = invoke("table", "new", "t", "--players", "Ana Beto", "--bet", "1", "--db", tmp_path / "no" / "book.db")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "the folder" in done.stderr and "does not exist" in done.stderr
    done = invoke("standings", "--db", tmp_path / "no" / "book.db")  # a read makes nothing either
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "does not exist" in done.stderr
    assert not (tmp_path / "no").exists()


def test_an_unreadable_file_is_reported_and_the_others_imported(tmp_path):
    code, out = run("import", "--db", tmp_path / "book.db", tmp_path / "missing.dsm", DATA / "south.dsm")
    assert code == 2
    assert out.splitlines() == [
        f"{tmp_path / 'missing.dsm'}: error: cannot read {tmp_path / 'missing.dsm'}: no such file",
        f"{DATA / 'south.dsm'}: 2 hands stored, 0 already in the book, 0 rejected (table south, west)"]


def test_a_file_with_no_hand_is_said_as_check_says_it_and_exits_1(tmp_path):
    empty = tmp_path / "empty.dsm"
    empty.write_text("# nothing was played\n\n")
    code, out = run("import", "--db", tmp_path / "book.db", empty, DATA / "south.dsm")
    assert code == 1
    assert out.splitlines() == [
        f"{empty}: error: the file holds no hand (no tag or event lines)",
        f"{DATA / 'south.dsm'}: 2 hands stored, 0 already in the book, 0 rejected (table south, west)"]
    assert run("check", empty) == (1, f"{empty}: error: the file holds no hand (no tag or event lines)\n")
    spanish = run("--lang", "es", "import", "--db", tmp_path / "book.db", empty)
    assert spanish == (1, f"{empty}: error: el archivo no tiene ninguna mano (ni etiquetas ni líneas de jugadas)\n")


@pytest.mark.slow
def test_a_large_import_piped_prints_no_progress_bar(tmp_path):
    from desmoche_ref.simulate import simulate_session

    big = tmp_path / "big.dsm"
    big.write_text(simulate_session(300, players=3, seed=4))
    assert big.stat().st_size > 200_000  # a progress bar on a terminal
    done = proc("import", "--db", tmp_path / "book.db", big)
    assert done.returncode == 0 and done.stderr == f"new book at {tmp_path / 'book.db'}\n"
    assert done.stdout == f"{big}: 300 hands stored, 0 already in the book, 0 rejected (table big)\n"


def test_table_option_sends_every_hand_to_one_table(tmp_path):
    db = tmp_path / "book.db"
    code, out = run("import", "--db", db, "--table", "club", DATA / "south.dsm")
    # at one table, the second hand of south.dsm (west's) carries in 12 where the first left
    # nothing in the pot: refused (N9.1, N9.5), as a live `hand new` could not deal it
    assert (code, out) == (1, f"{DATA / 'south.dsm'}:15: R2.3 Carry is 12.00 but the hand before carried out 0.00\n"
                              f"{DATA / 'south.dsm'} hand 2 (line 15): rejected, nothing of it stored\n"
                              f"{DATA / 'south.dsm'}: 1 hand stored, 0 already in the book, 1 rejected (table club)\n")
    # known by content, whatever table it would go to; west's first hand brings its 12 in
    code, out = run("import", "--db", db, DATA / "south.dsm")
    assert "1 hand stored, 1 already in the book" in out
    got = json.loads(run("standings", "--db", db, "--json")[1])
    assert got["brought_in"] == "12.00"


def test_standings_formats(tmp_path):
    db = tmp_path / "book.db"
    run("import", "--db", db, DATA / "south.dsm")
    code, out = run("standings", "--db", db, "--fmt", "github")
    assert out.splitlines() == [
        "| player   |   hands |   wins |   automatic wins |   no winner |   bonuses won |   bonuses paid |"
        "   fouls |   side games won |   net |",
        "|----------|---------|--------|------------------|-------------|---------------|----------------|"
        "---------|------------------|-------|",
        "| Ana      |       1 |      1 |                1 |           0 |          0.00 |           0.00 |"
        "       0 |                0 | 16.00 |",
        "| Dani     |       2 |      1 |                1 |           0 |          0.00 |           0.00 |"
        "       0 |                1 |  3.00 |",
        "| Carla    |       1 |      0 |                0 |           0 |          0.00 |           0.00 |"
        "       0 |                0 | -7.00 |",
        "unwon (in pots) 0.00, brought in 12.00"]
    # Ana +16, Dani +3; Carla −7 and the pot −12 (west's carry, won by Ana): the largest
    # debt pays the largest credit first
    code, out = run("settle-up", "--db", db)
    assert out.splitlines() == ["(pot) pays Ana 12.00", "Carla pays Ana 4.00", "Carla pays Dani 3.00"]


# The league's commands read the models' own tables (issue 26: one schema); their start-up
# is measured against `import sqlmodel` by bench/bench_startup.py, not held by a test.


def test_the_reports_status_word_is_the_referees():
    # league.py spells it out rather than import the referee (start-up): they must agree
    from desmoche_ref.referee import COMPLETE
    from desmoche_ref.store.read import league

    assert league.COMPLETE == COMPLETE
