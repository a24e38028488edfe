"""The league server's own privileges (issue 19), on the PostgreSQL test server: the book's
owner grants a login role the recorder's or the reader's rights (`db grant`); a recorder
records a whole night through the verbs and through `play`, yet the server refuses it any
UPDATE or DELETE of a stored move or posting and any change of schema, even through psql; a
reader reads and is refused anything else in one line; each move names who entered it; a
book its owner upgrades works for both roles. On SQLite the file's permissions guard the book.

Each test makes its own roles (`CREATE ROLE name LOGIN`, unique names: the server trusts
every user on 127.0.0.1) and drops them after.
"""

import os
import shutil
import subprocess
import uuid

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from conftest import PG_ENV, Live, _fresh_pg_database, verified
from desmoche_ref.cli import main
from desmoche_ref.play.script import night_script
from desmoche_ref.referee import judge_text
from desmoche_ref.session import check_session
from desmoche_ref.store.db import Book, alembic_config, make_engine, schema_head, schema_version
from test_live_entry import FRIDAY_NETS, balances, friday_table, moves_of
from test_play_session import ends, play_process, simulated_night

OWNER = make_url(os.environ.get(PG_ENV) or "postgresql://postgres@localhost/").username  # makes each book


@pytest.fixture
def owner_url():
    """A new, empty PostgreSQL database; its owner is the server's user in DESMOCHE_TEST_PG."""
    server = os.environ.get(PG_ENV)
    if not server:
        pytest.skip(f"PostgreSQL: no server given ({PG_ENV} unset)")
    if shutil.which("psql") is None:
        pytest.skip("no psql on this machine")
    url, drop = _fresh_pg_database(server)
    try:
        yield url
    finally:
        drop()


@pytest.fixture
def roles(owner_url):
    """roles("clerk") -> a new login role's unique name; each is dropped after the test."""
    made = []

    def make(prefix: str) -> str:
        name = f"{prefix}_{uuid.uuid4().hex[:8]}"
        _sql(owner_url, f'CREATE ROLE "{name}" LOGIN')
        made.append(name)
        return name

    yield make
    for name in made:
        _sql(owner_url, f'DROP OWNED BY "{name}"')  # its privileges in the book
        _sql(owner_url, f'DROP ROLE "{name}"')


def _sql(url: str, statement: str) -> None:
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(statement))
    engine.dispose()


def as_role(url: str, role: str) -> str:
    return make_url(url).set(username=role).render_as_string(hide_password=False)


def psql(url: str, role: str, statement: str):
    """`statement` run by `role` through psql, as anyone with the role's login could."""
    u = make_url(url)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    return subprocess.run(["psql", "-X", "-q", "-h", u.host, "-p", str(u.port), "-U", role, "-d", u.database,
                           "-v", "ON_ERROR_STOP=1", "-c", statement],
                          capture_output=True, text=True, timeout=60, env=env)


def count(url: str, table: str) -> int:
    engine = create_engine(url)
    with engine.connect() as conn:
        n = conn.execute(text(f"SELECT count(*) FROM {table}")).scalar()
    engine.dispose()
    return n


def granted_book(owner_url, roles, *kinds):
    """The book made by its owner, and one new role granted each of `kinds`: their names."""
    owner = Live(owner_url)
    owner("db", "upgrade")
    names = []
    for kind in kinds:
        name = roles({"--recorder": "clerk", "--reader": "viewer"}[kind])
        owner("db", "grant", name, kind)
        names.append(name)
    return owner, names


# ------------------------------------------------------------------- recorder
@pytest.mark.slow
def test_a_recorder_records_a_night_through_the_verbs_and_the_server_refuses_it_any_edit(owner_url, roles):
    owner, (clerk,) = granted_book(owner_url, roles, "--recorder")
    live = Live(as_role(owner_url, clerk))
    friday_table(live)  # table new, hand new
    for words in moves_of("friday.dsm"):
        live(*words)
    live("end")
    live("undo")  # the hand reopens: its postings reversed by new postings, its verdict cleared
    assert live("end").stdout.startswith("move 32: end\n")
    assert balances(owner_url) == {"Ana": -2500, "Beto": -1000, "Carla": 3500, "pot:main": 0, "pot:oro": 0}
    assert live("table", "bet", "friday", "2.50", "--all-agree").stdout == (
        "table friday: the bet is 2.50 from the next hand\n")
    live("hand", "new", "--dealer", "Ana", "--no-sides")  # closed-win.dsm's dealer, again
    for words in moves_of("closed-win.dsm"):
        live("rec", " ".join(words))  # the same moves, as one typed line each
    live("table", "close", "friday")  # closes hand 2 and the table
    assert live("import", "tests/conformance/friday.dsm", "--table", "club").stdout == (
        "tests/conformance/friday.dsm: 1 hand stored, 0 already in the book, 0 rejected (table club)\n")
    live("table", "use", "club")
    # 80: the `end` that `table close` wrote closing hand 2 is one of them (docs/rulings.md N4.4)
    assert verified(live("verify").stdout) == "3 hands, 80 moves, 92 postings: all in order\n"
    log = live.json("hand", "log", "--all", "--json", "--table", "friday", "--hand", "1")
    assert {e["recorder"] for e in log} == {clerk} and len(log) == 32

    events, postings = count(owner_url, "event"), count(owner_url, "posting")
    for statement, refusal in [
            ("UPDATE event SET line = 'draw Beto 3d' WHERE seq = 8", "permission denied for table event"),
            ("UPDATE event SET recorder = 'someone' WHERE seq = 8", "permission denied for table event"),
            ("DELETE FROM event WHERE seq = 32", "permission denied for table event"),
            ("DELETE FROM posting", "permission denied for table posting"),
            ("UPDATE posting SET amount = amount + 100", "permission denied for table posting"),
            ("TRUNCATE posting", "permission denied for table posting"),
            ("UPDATE hand SET players = 'Ana Beto'", "permission denied for table hand"),
            ("DELETE FROM hand", "permission denied for table hand"),
            ("UPDATE alembic_version SET version_num = '0001'", "permission denied for table alembic_version"),
            ("ALTER TABLE event ADD COLUMN note text", "must be owner of table event"),
            ("DROP TABLE posting", "must be owner of table posting"),
            ("CREATE TABLE mine (x int)", "permission denied for schema public")]:
        run = psql(owner_url, clerk, statement)
        assert (run.returncode, run.stderr.splitlines()[0]) == (1, f"ERROR:  {refusal}"), statement
    assert (count(owner_url, "event"), count(owner_url, "posting")) == (events, postings)
    # 80: the `end` that `table close` wrote closing hand 2 is one of them (docs/rulings.md N4.4)
    assert verified(live("verify").stdout) == "3 hands, 80 moves, 92 postings: all in order\n"


@pytest.mark.slow
def test_a_recorder_records_a_simulated_night_through_play(owner_url, roles):
    """Five hands piped into a real `play` process connected as the recorder: each ends with
    the nets `check` gives its record, and every move names the recorder."""
    owner, (clerk,) = granted_book(owner_url, roles, "--recorder")
    night = simulated_night(7, hands=5)
    checked = judge_text(night)
    setup, lines = night_script(night)
    url = as_role(owner_url, clerk)
    Live(url)("table", "new", "Friday", "--players", " ".join(setup.players), "--bet",
              f"{setup.bet / 100:.2f}", "--options", "todo strict")
    run = play_process(url, "\n".join(lines + ([] if ends(night) else ["end"]) + ["settle"]) + "\n")
    assert run.returncode == 0, run.stdout[-2000:]
    nets = {row["player"]: row["net"] for row in owner.json("standings", "--json")["players"]}
    totals = check_session(checked).totals
    assert nets == {p: f"{totals[p] / 100:.2f}" for p in setup.players}
    engine = create_engine(owner_url)
    with engine.connect() as conn:
        who = conn.execute(text("SELECT DISTINCT recorder FROM event")).scalars().all()
    engine.dispose()
    assert who == [clerk]
    assert verified(owner("verify").stdout).endswith(": all in order\n")


def test_a_refused_privilege_midway_leaves_nothing_half_written(owner_url, roles):
    """A recorder whose grant lacks one column (as if the program had a new UPDATE the grant
    does not know): `end` stores its move, then closing the hand is refused — the whole
    command is refused, in one line, and the move is not stored."""
    owner, (clerk,) = granted_book(owner_url, roles, "--recorder")
    live = Live(as_role(owner_url, clerk))
    friday_table(live)
    for words in moves_of("friday.dsm"):
        live(*words)
    _sql(owner_url, f'REVOKE UPDATE (status) ON hand FROM "{clerk}"')
    run = live("end", status=2)
    assert run.stderr == (f"error: role {clerk} lacks a privilege for this: permission denied for table hand\n")
    assert len(live.json("hand", "log", "--all", "--json")) == 29
    assert balances(owner_url) == {}
    _sql(owner_url, f'REVOKE INSERT ON event FROM "{clerk}"')  # the importer writes moves by COPY
    run = live("import", "tests/conformance/closed-win.dsm", "--table", "other", status=2)
    assert run.stderr == f"error: role {clerk} lacks a privilege for this: permission denied for table event\n"
    assert live.json("table", "list", "--json")[1]["hands"] == 0  # the table was made, no hand stored
    owner("db", "grant", clerk, "--recorder")  # granting again gives it back
    live("end")
    assert balances(owner_url)["Carla"] == 3500
    assert live.json("hand", "show", "--json")["net"] == FRIDAY_NETS


# --------------------------------------------------------------------- reader
def test_a_reader_reads_and_is_refused_anything_else_in_one_line(owner_url, roles):
    owner, (viewer,) = granted_book(owner_url, roles, "--reader")
    friday_table(owner)
    for words in moves_of("friday.dsm"):
        owner(*words)
    reader = Live(as_role(owner_url, viewer))
    assert reader("rec", "end", status=2).stderr == f"error: role {viewer} may only read this book\n"
    owner("end")
    assert [(r["player"], r["net"]) for r in reader.json("standings", "--json")["players"]] == [
        ("Carla", "35.00"), ("Beto", "-10.00"), ("Ana", "-25.00")]
    assert reader("standings").stdout.splitlines()[-1] == "unwon (in pots) 0.00, brought in 0.00"
    assert verified(reader("verify").stdout) == "1 hand, 30 moves, 20 postings: all in order\n"
    assert len(reader.json("hand", "log", "--json")) == 30
    assert reader.json("hand", "show", "--json")["net"] == FRIDAY_NETS
    assert reader.json("table", "list", "--json")[0]["name"] == "friday"
    reader("ledger", "--player", "Ana")
    reader("settle-up")
    assert reader("export").stdout == owner("export").stdout
    refusal = f"error: role {viewer} may only read this book\n"
    for args in [("undo",), ("hand", "new"), ("table", "new", "x", "--players", "A B",
                                                                        "--bet", "1"),
                 ("table", "bet", "friday", "5", "--all-agree"), ("table", "close", "friday"),
                 ("import", "tests/conformance/no-winner.dsm")]:
        assert reader(*args, status=2).stderr == refusal, args
    play = CliRunner().invoke(main, ["play"], input="undo\n", env={"DESMOCHE_DB": reader.url})
    assert (play.exit_code, play.output) == (2, f"1: role {viewer} may only read this book\n")
    spanish = CliRunner().invoke(main, ["undo", "--lang", "es"], env={"DESMOCHE_DB": reader.url})
    assert (spanish.exit_code, spanish.stderr) == (2, f"error: el rol {viewer} solo puede leer este libro\n")
    run = psql(owner_url, viewer, "INSERT INTO player (name) VALUES ('Zed')")
    assert (run.returncode, run.stderr.strip()) == (1, "ERROR:  permission denied for table player")
    assert verified(owner("verify").stdout) == "1 hand, 30 moves, 20 postings: all in order\n"


def test_a_role_given_nothing_is_told_who_grants_it(owner_url, roles):
    Live(owner_url)("db", "upgrade")
    nobody = roles("nobody")
    run = Live(as_role(owner_url, nobody))("standings", status=2)
    assert run.stderr == (f"error: role {nobody} may not read this book: its owner grants it "
                          f"(`desmoche-ref db grant {nobody} --reader` or `--recorder`)\n")


def test_only_the_owner_makes_an_empty_book(owner_url, roles):
    clerk = roles("clerk")
    run = Live(as_role(owner_url, clerk))("table", "new", "t", "--players", "Ana Beto", "--bet", "1", status=2)
    assert run.stderr == (f"error: role {clerk} may not create the book's tables: the database's owner "
                          "makes the book first (`desmoche-ref db upgrade`)\n")
    # a read makes no book, whoever asks (issue 33): there is none to read
    assert Live(as_role(owner_url, clerk))("table", "list", status=2).stderr.startswith("error: there is no book in ")


# ---------------------------------------------------------------- recorders
def test_hand_log_and_verify_name_who_entered_each_move(owner_url, roles):
    owner, (ana, beto) = granted_book(owner_url, roles, "--recorder", "--recorder")
    first, second = Live(as_role(owner_url, ana)), Live(as_role(owner_url, beto))
    friday_table(first)
    moves = moves_of("friday.dsm")[:6]
    for n, words in enumerate(moves):
        (first if n % 2 == 0 else second)(*words)
    second("undo")
    log = first.json("hand", "log", "--all", "--json")
    assert [(e["seq"], e["recorder"]) for e in log] == [(1, ana), (2, beto), (3, ana), (4, beto), (5, ana),
                                                        (6, beto), (7, beto)]
    text_log = first("hand", "log", "--all").stdout.splitlines()
    assert text_log[2].split()[3:] == [beto, "deal", "Carla", "As", "2h", "3h", "9s", "9c", "5d", "6d", "Kc", "Qh"]
    _sql(owner_url, "UPDATE event SET line = 'cambio Beto Qd' WHERE seq = 5")  # the owner, behind the program
    run = first("verify", status=1)
    assert run.stdout.splitlines()[0] == ("table friday hand 1 move 5: the stored move 'cambio Beto Qd' does not "
                                          f"match its hash: it was changed after it was recorded (entered by {ana})")
    spanish = CliRunner().invoke(main, ["verify", "--lang", "es"], env={"DESMOCHE_DB": first.url})
    assert spanish.stdout.splitlines()[0] == (
        "mesa friday mano 1 jugada 5: la jugada guardada 'cambio Beto Qd' no coincide con su hash: se cambió "
        f"después de anotarla (la anotó {ana})")
    assert first.json("verify", "--json", status=1)["problems"][0]["message"].endswith(f"(entered by {ana})")


# ------------------------------------------------------------------ upgrading
@pytest.mark.slow
def test_a_book_its_owner_upgrades_works_for_both_roles(owner_url, roles):
    """A book at schema 0002, its roles granted then: a recorder or reader on it is told in one
    line that its owner must upgrade it (exit 2, nothing changed); the owner's upgrade re-applies
    their grants to the new schema (a table it lost a grant on — as a table a migration adds
    would have none — is covered again), and both roles work."""
    from alembic import command

    from desmoche_ref.store.trust import roles as R

    old = Book(owner_url, make_engine(owner_url))
    cfg = alembic_config(old)
    with old.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
    clerk, viewer = roles("clerk"), roles("viewer")
    with old.engine.begin() as conn:
        R.grant(conn, clerk, R.RECORDER)
        R.grant(conn, viewer, R.READER)
    old.engine.dispose()
    _sql(owner_url, f'REVOKE INSERT ON posting FROM "{clerk}"')
    _sql(owner_url, f'REVOKE SELECT ON posting FROM "{viewer}"')
    recorder, reader = Live(as_role(owner_url, clerk)), Live(as_role(owner_url, viewer))
    for role, live in ((clerk, recorder), (viewer, reader)):
        run = live("table", "list", status=2)  # a read: the book is not migrated by it
        assert run.stderr == (f"error: the book {as_role(owner_url, role)} needs `desmoche-ref db upgrade` "
                              f"before it can be read (its schema is 0002, this program's {schema_head()})\n")
        run = live("table", "new", "x", "--players", "Ana Beto", "--bet", "1", status=2)  # a write
        assert run.stderr == (f"error: role {role} may not change the book's schema: the book is at schema "
                              f"0002, this program needs {schema_head()}; its owner runs `desmoche-ref db upgrade`\n")
    assert schema_version(Book(owner_url, make_engine(owner_url))) == "0002"
    owner = Live(owner_url)
    assert owner("db", "upgrade").stdout.endswith(f": schema {schema_head()} (was 0002)\n")
    assert owner.json("db", "roles", "--json") == [
        {"role": OWNER, "access": "owner"}, {"role": clerk, "access": "recorder"},
        {"role": viewer, "access": "reader"}]
    friday_table(recorder)
    for words in moves_of("friday.dsm"):
        recorder(*words)
    recorder("end")
    assert reader.json("hand", "show", "--json")["net"] == FRIDAY_NETS
    assert verified(reader("verify").stdout) == "1 hand, 30 moves, 20 postings: all in order\n"
    assert {e["recorder"] for e in reader.json("hand", "log", "--json")} == {clerk}


# -------------------------------------------------------------- the commands
def test_grant_revoke_and_roles(owner_url, roles):
    owner = Live(owner_url)
    owner("db", "upgrade")
    clerk, viewer = roles("clerk"), roles("viewer")
    book = make_url(owner_url).render_as_string(hide_password=True)
    assert owner("db", "grant", clerk, "--recorder").stdout == (
        f"role {clerk} may record in {book}: it adds moves, hands, tables and postings, and may not change "
        "or delete a stored move or posting, nor the schema\n")
    assert owner("db", "grant", viewer, "--reader").stdout == f"role {viewer} may read {book}, and nothing else\n"
    wide = max(len(OWNER), len(clerk), len(viewer))
    assert owner("db", "roles").stdout.splitlines() == [
        f"{'role':{wide}}  access", "-" * wide + "  --------", f"{OWNER:{wide}}  owner",
        f"{clerk:{wide}}  recorder", f"{viewer:{wide}}  reader"]
    owner("db", "grant", clerk, "--reader")  # granting again replaces what it had
    assert [r["access"] for r in owner.json("db", "roles", "--json")] == ["owner", "reader", "reader"]
    _sql(owner_url, f'GRANT DELETE ON posting TO "{viewer}"')  # not by `db grant`
    assert owner.json("db", "roles", "--json")[2] == {"role": viewer, "access": "other"}
    assert owner("db", "revoke", viewer).stdout == f"role {viewer} may no longer use {book}\n"
    assert owner("db", "revoke", viewer).stdout == f"role {viewer} had nothing on {book}: nothing to revoke\n"
    assert owner.json("db", "roles", "--json") == [{"role": OWNER, "access": "owner"},
                                                   {"role": clerk, "access": "reader"}]
    assert Live(as_role(owner_url, viewer))("standings", status=2).stderr.startswith(
        f"error: role {viewer} may not read this book")
    errors = [
        (("db", "grant", "no_such_role", "--reader"),
         "error: there is no role 'no_such_role' on the server: create it first (in psql: CREATE ROLE "
         "no_such_role LOGIN PASSWORD '…')\n"),
        (("db", "grant", OWNER, "--reader"),
         f"error: role {OWNER} is a superuser: the server lets it do anything, no grant can limit it\n"),
        (("db", "grant", clerk), "Error: say what the role may do: --recorder or --reader (one of them)\n"),
        (("db", "grant", clerk, "--reader", "--recorder"),
         "Error: say what the role may do: --recorder or --reader (one of them)\n")]
    for args, stderr in errors:
        assert owner(*args, status=2).stderr.endswith(stderr), args
    assert Live(as_role(owner_url, clerk))("db", "grant", viewer, "--reader", status=2).stderr == (
        f"error: role {clerk} may not grant or revoke: only the book's owner ({OWNER}) may\n")


def test_a_role_that_owns_the_book_is_not_granted(owner_url, roles):
    boss = roles("boss")
    _sql(owner_url, f'GRANT "{OWNER}" TO "{boss}"')  # acts as the owner
    owner = Live(owner_url)
    owner("db", "upgrade")
    assert owner("db", "grant", boss, "--recorder", status=2).stderr == (
        f"error: role {boss} owns the book (or acts as its owner): it may already do anything to it\n")


def test_a_schema_everyone_may_create_in_is_a_warning(owner_url, roles):
    """PostgreSQL before 15 let every role create tables in schema public: a grant says so."""
    owner = Live(owner_url)
    owner("db", "upgrade")
    clerk = roles("clerk")
    _sql(owner_url, "GRANT CREATE ON SCHEMA public TO PUBLIC")
    run = owner("db", "grant", clerk, "--recorder")
    assert run.stderr == (f"warning: role {clerk} may still create tables of its own in schema public, as every "
                          "role may there (the book's tables stay the owner's); in psql: REVOKE CREATE ON SCHEMA "
                          "public FROM PUBLIC\n")
    assert psql(owner_url, clerk, "DROP TABLE event").stderr.strip() == "ERROR:  must be owner of table event"


# --------------------------------------------------------------------- SQLite
def test_on_sqlite_the_file_guards_the_book(tmp_path):
    path = tmp_path / "book.db"
    live = Live(f"sqlite:///{path}")
    assert live("db", "grant", "clerk", "--recorder", status=2).stderr == (
        f"error: sqlite:///{path} is a SQLite file: it is protected by the file's permissions (0600, its "
        "owner's alone), not by database roles; a recorder enters moves on the board with a PIN "
        "(`desmoche-ref db grant NAME --recorder --pin`)\n")
    for args in [("db", "revoke", "clerk"), ("db", "roles"), ("db", "roles", "--json")]:  # a SQLite book's PINs
        assert live(*args, status=2).stderr == (
            f"error: there is no book at {path}: nothing is recorded there yet\n"), args
    assert not path.exists()
    spanish = CliRunner().invoke(main, ["db", "grant", "clerk", "--reader", "--lang", "es"],
                                 env={"DESMOCHE_DB": live.url})
    assert (spanish.exit_code, spanish.stderr) == (
        2, f"error: sqlite:///{path} es un archivo SQLite: lo protegen los permisos del archivo (0600, solo de "
           "su dueño), no los roles de una base de datos; quien anota entra jugadas en el tablero con un PIN "
           "(`desmoche-ref db grant NOMBRE --recorder --pin`)\n")
