"""The scorebook through real processes: a bad book is one line and exit 2 with nothing written;
moves typed as commands; `verify` finds a row edited behind the program's back (the `sqlite3`
shell, or SQL on PostgreSQL) and names its hand and seq; every command has help with examples."""

import os
import pathlib
import shutil
import sqlite3
import subprocess
import sys

import pytest
from sqlalchemy import create_engine, text

from conftest import PG_ENV, Live, recorder_of, verified

# every command here is a process of its own, as a recorder runs it: the slow lane
pytestmark = pytest.mark.slow

ROOT = pathlib.Path(__file__).parent.parent
NEW_COMMANDS = ["db", "table", "hand", "rec", "undo", "verify", "cut", "deal", "return", "announce",
                "cambio", "declare", "draw", "claim", "knock", "meld", "add", "pay", "pass", "show",
                "foul", "forgive", "end"]


def cli(*args, db=None, env=None):
    run_env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    run_env.pop("DESMOCHE_DB", None)
    if db is not None:
        run_env["DESMOCHE_DB"] = db
    return subprocess.run([sys.executable, "-m", "desmoche_ref", *map(str, args)],
                          capture_output=True, text=True, timeout=60, env=run_env)


def one_line_error(run, status=2):
    assert run.returncode == status, (run.stdout, run.stderr)
    assert run.stdout == "" and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    return run.stderr


def test_a_missing_folder_is_one_line_and_creates_nothing(tmp_path):
    path = tmp_path / "nowhere" / "book.db"
    err = one_line_error(cli("table", "list", "--db", path))
    assert err == f"error: cannot open the book {path}: the folder {path.parent} does not exist\n"
    assert not path.parent.exists()


def test_a_file_that_is_not_a_book_is_left_alone(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("Ana owes Beto 5\n" * 200)
    err = one_line_error(cli("hand", "show", "--db", path))
    assert err == f"error: sqlite:///{path} is not a book: the file is not a SQLite database\n"
    assert path.read_text() == "Ana owes Beto 5\n" * 200
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]


def test_a_sqlite_database_of_another_program_is_not_a_book(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE hand (id INTEGER)")
    err = one_line_error(cli("table", "list", "--db", path))
    assert err == f"error: sqlite:///{path} holds tables but no schema version: it is not a book of this program\n"


@pytest.mark.slow
def test_unknown_schemes_and_bad_urls(tmp_path):
    assert one_line_error(cli("table", "list", "--db", "mysql://u@h/db")) == (
        "error: unknown database 'mysql' in mysql://u@h/db: the book is SQLite or PostgreSQL\n")
    assert one_line_error(cli("table", "list", db="://nothing")).startswith("error: '://nothing' is not a database URL")


@pytest.mark.slow
def test_a_server_that_is_down(tmp_path):
    err = one_line_error(cli("table", "list", "--db", "postgresql+psycopg://postgres@127.0.0.1:1/book"))
    assert err.startswith("error: cannot reach the database server for "
                          "postgresql+psycopg://postgres@127.0.0.1:1/book: is it running?")


@pytest.mark.slow
def test_a_server_that_refuses_the_password():
    server = os.environ.get(PG_ENV)
    if not server:
        pytest.skip(f"PostgreSQL: no server given ({PG_ENV} unset)")
    from sqlalchemy.engine import make_url

    url = make_url(server).set(username="desmoche_pw", password="wrong")
    probe = cli("table", "list", db=url.render_as_string(hide_password=False))  # (not --db: no warning)
    if probe.returncode == 0 or "password" not in probe.stderr:
        pytest.skip("this server does not check passwords (`.ci/postgres start DIR` starts one that does)")
    assert one_line_error(probe) == (f"error: cannot open {url.render_as_string(hide_password=True)}: "
                                     f"the server refused the user or password\n")


@pytest.mark.slow
def test_a_book_from_a_newer_program(tmp_path):
    path = tmp_path / "book.db"
    assert cli("table", "new", "a", "--players", "Ana Beto", "--bet", "1", db=str(path)).returncode == 0
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE alembic_version SET version_num = '0042'")
    conn.close()  # the last connection out writes the WAL back into the file
    before = path.read_bytes()
    err = one_line_error(cli("hand", "new", "--dealer", "Ana", db=str(path)))
    assert err == (f"error: the book sqlite:///{path} was written by a newer desmoche-ref "
                   f"(schema 0042): upgrade the program\n")
    assert path.read_bytes() == before


@pytest.mark.slow
def test_db_path_and_the_default_book_in_the_data_folder(tmp_path):
    home = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    run = cli("db", "path", env=home)
    assert run.stdout == f"sqlite:///{tmp_path}/data/desmoche-ref/book.db\n"
    assert not (tmp_path / "data").exists()  # saying where is not making it
    assert cli("db", "path", db="league.db").stdout == f"sqlite:///{os.getcwd()}/league.db\n"
    assert cli("db", "path", "--db", "postgresql://ana:secret@srv/club").stdout == (
        "postgresql+psycopg://ana:***@srv/club\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    made = subprocess.run([sys.executable, "-m", "desmoche_ref", "table", "new", "t", "--players", "Ana Beto",
                           "--bet", "1"], cwd=elsewhere, capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), **home))
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "data" / "desmoche-ref" / "book.db").is_file() and not os.listdir(elsewhere)


@pytest.mark.slow
def test_moves_as_processes_and_an_edit_behind_the_programs_back(tmp_path):
    if shutil.which("sqlite3") is None:
        pytest.skip("no sqlite3 shell on this machine")
    db = str(tmp_path / "book.db")
    assert cli("table", "new", "friday", "--players", "Ana Beto Carla", "--bet", "10", db=db).returncode == 0
    assert cli("hand", "new", "--dealer", "Ana", db=db).returncode == 0
    deal = cli("deal", "Beto", "?x9", db=db)
    assert (deal.returncode, deal.stdout) == (0, "move 1: deal Beto ?x9\nthe deal: Ana 0, Beto 9, Carla 0 cards\n")
    live = Live(db)  # the moves between in-process: each process costs a second or two here
    for line in ("deal Carla ?x9", "deal Ana ?x9", "cambio Beto ?", "cambio Carla ?", "cambio Ana ?"):
        live(*line.split())
    refused = cli("draw", "Ana", "4c", db=db)
    assert refused.returncode == 1 and refused.stderr.startswith("refused: R7.1 ")
    assert cli("draw", "Beto", "4c", db=db).returncode == 0
    assert verified(cli("verify", db=db).stdout) == "1 hand, 7 moves, 0 postings: all in order\n"
    subprocess.run(["sqlite3", db, "UPDATE event SET line = 'cambio Ana 4c' WHERE seq = 6"], check=True)
    run = cli("verify", db=db)
    assert run.returncode == 1
    who = recorder_of(db)  # the move's problems name who entered the move
    assert verified(run.stdout) == (
        "table friday hand 1 move 6: the stored move 'cambio Ana 4c' does not match its "
        f"hash: it was changed after it was recorded (entered by {who})\n"
        f"table friday hand 1 move 6: it is not what the journal says was written (entered by {who})\n"
        "1 hand, 7 moves, 0 postings: 2 problems\n")
    out = live.json("verify", "--json", status=1)
    assert out["problems"] == [
        {"table": "friday", "hand": 1, "seq": 6, "message": "the stored move 'cambio Ana 4c' "
         f"does not match its hash: it was changed after it was recorded (entered by {who})"},
        {"table": "friday", "hand": 1, "seq": 6,
         "message": f"it is not what the journal says was written (entered by {who})"}]
    assert (out["hands"], out["moves"], out["postings"], out["journal"], len(out["head"])) == (1, 7, 0, 9, 64)


def test_verify_on_postgresql_names_an_edited_posting_and_an_edited_move(book_url):
    if not book_url.startswith("postgresql"):
        pytest.skip("the SQLite case is the test above, through the sqlite3 shell")
    script = (ROOT / "tests" / "conformance" / "closed-win.dsm").read_text().splitlines()
    live = Live(book_url)
    live("table", "new", "night", "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo")
    live("hand", "new", "--dealer", "Ana")
    for line in [line for line in script if line and not line.startswith("[")] + ["end"]:
        live("rec", line)
    engine = create_engine(book_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE posting SET amount = amount + 100 WHERE id = "
                          "(SELECT min(id) FROM posting WHERE account = 'Carla')"))
        conn.execute(text("UPDATE event SET line = 'draw Beto Jd' WHERE seq = 11"))
    engine.dispose()
    run = cli("verify", db=book_url)
    assert run.returncode == 1
    assert run.stdout.splitlines()[0] == ("table night hand 1 move 11: the stored move 'draw Beto Jd' does "
                                          "not match its hash: it was changed after it was recorded "
                                          f"(entered by {recorder_of(book_url)})")
    engine = create_engine(book_url)
    with engine.begin() as conn:  # put the move back: now only the posting is wrong
        conn.execute(text("UPDATE event SET line = 'draw Beto Jh' WHERE seq = 11"))
    engine.dispose()
    assert verified(cli("verify", db=book_url).stdout) == (
        "table night hand 1: its postings do not sum to zero (100 cents)\n"
        "table night hand 1: its postings do not match its settlement: unexpected ante Carla -900 "
        "(pot:main); missing ante Carla -1000 (pot:main)\n"
        "table night hand 1: posting 5 is not what the journal says was written: amount -900 instead of -1000\n"
        "1 hand, 19 moves, 12 postings: 3 problems\n")


@pytest.mark.parametrize("command", NEW_COMMANDS)
def test_every_new_command_has_help_with_examples(command):
    run = cli(command, "--help")
    assert run.returncode == 0 and "Examples:" in run.stdout and "desmoche-ref" in run.stdout


@pytest.mark.parametrize("group,commands", [("db", ["path", "upgrade", "check"]),
                                            ("table", ["new", "list", "use", "bet", "close"]),
                                            ("hand", ["new", "show", "log"])])
def test_every_subcommand_has_help_with_examples(group, commands):
    from click.testing import CliRunner

    from desmoche_ref.cli import main

    for sub in commands:
        out = CliRunner().invoke(main, [group, sub, "--help"]).output
        assert "Examples:" in out and f"desmoche-ref {group} {sub}" in out, (group, sub)


@pytest.mark.slow
def test_show_is_the_verb_and_view_reads_files(tmp_path):
    """`show` records a show (N4): a record file is read by `view`, not by `show`."""
    record = ROOT / "tests" / "conformance" / "friday.dsm"
    db = str(tmp_path / "book.db")
    assert cli("table", "new", "t", "--players", "Ana Beto Carla", "--bet", "10", db=db).returncode == 0
    assert cli("hand", "new", "--dealer", "Ana", db=db).returncode == 0
    run = cli("show", str(record), "Qd", db=db)
    assert run.returncode == 1 and run.stdout == "", run.stderr  # N3.1: not a player, whoever types it
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("refused: N3.1 ") and "nothing stored" in run.stderr
    viewed = cli("view", record, "--at", "24", env={"NO_COLOR": "1"})
    assert viewed.returncode == 0 and viewed.stdout.startswith(f"{record} hand 1 (line 1), after line 24")
