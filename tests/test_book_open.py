"""Opening the book safely, on SQLite and PostgreSQL (issues 16 and 17): the read commands
open it read-only (no migration, no write of any kind), so a person who may read the book but
not write it reads it, in a read-only folder too, and a write there is one line saying so; a
new book is private (0600, the default book's folder 0700); a book in memory or an empty
`--db` is refused; no message shows a password; a book that lost its schema version says so,
`db check` says how to repair it and `db stamp` repairs it; two first uses at once both work.

Tests run as root here, and root reads and writes any file whatever its mode: the commands a
reader runs are run as the user `nobody` (`runuser`), or as the user running the tests when
that is not root."""

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text

from conftest import PG_ENV, Live, _fresh_pg_database
from desmoche_ref.cli import main
from desmoche_ref.store.db import BOOK_TABLES, BookError, open_book, schema_head

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRIDAY = os.path.join(ROOT, "tests", "conformance", "friday.dsm")
READS = [["standings"], ["ledger"], ["settle-up"], ["export"], ["verify"],
         ["hand", "show", "--table", "friday"], ["hand", "log", "--table", "friday"], ["table", "list"]]


def run(*args, env=None, **extra):
    """The command in-process (CliRunner), the book from `env`; no exception escapes."""
    result = CliRunner().invoke(main, [str(a) for a in args], env=env, **extra)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def one_line(result, status=2):
    assert (result.exit_code, result.stdout) == (status, ""), (result.exit_code, result.output)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    return result.stderr


# ------------------------------------------------------------------ a reader who cannot write

def _python_for(user: str):
    """(command, environment) that runs this program as `user`: this interpreter if that user
    may run it, else the system's Python of the same version with this environment's
    packages; None if neither can."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("DESMOCHE_DB", None)
    probe = ["runuser", "-u", user, "--"]
    if subprocess.run(probe + [sys.executable, "-c", "import desmoche_ref"], env=env,
                      capture_output=True).returncode == 0:
        return probe + [sys.executable], env
    system = f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"
    paths = sysconfig.get_paths()
    env["PYTHONPATH"] = os.pathsep.join([ROOT, paths["purelib"], paths["platlib"]])
    if os.path.exists(system) and subprocess.run(
            probe + [system, "-c", "import desmoche_ref.store.db, sqlalchemy, click"], env=env,
            capture_output=True).returncode == 0:
        return probe + [system], env
    return None


@pytest.fixture(scope="module")
def reader():
    """Run a command as a user the file permissions apply to (not root), in a subprocess."""
    if os.geteuid() != 0:
        command, env = [sys.executable], dict(os.environ, PYTHONPATH=ROOT)
    elif shutil.which("runuser") is None:
        pytest.skip("running as root, and no `runuser` to run a command as `nobody`")
    else:
        found = _python_for("nobody")
        if found is None:
            pytest.skip("running as root, and user `nobody` cannot run this program's Python")
        command, env = found

    def as_reader(*args, lang="en"):
        return subprocess.run(command + ["-m", "desmoche_ref", *map(str, args)], capture_output=True,
                              text=True, timeout=120, env=dict(env, DESMOCHE_LANG=lang), cwd="/")

    def start(*args):
        """Python run as the reader with `args`, its standard streams piped (text)."""
        return subprocess.Popen(command + list(map(str, args)), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env, cwd="/")

    as_reader.start = start
    return as_reader


@pytest.fixture
def shared():
    """A folder every user may enter (pytest's own are the owner's only); removed after."""
    folder = tempfile.mkdtemp(prefix="desmoche-shared-", dir="/tmp")
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _friday_book(path, mode=None):
    """A SQLite book holding friday's hand, as its owner writes it: made private (0600), or
    with `mode` from the start (a book its owner shares: others may read it)."""
    if mode is not None:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, mode))
        os.chmod(path, mode)
    live = Live("sqlite:///" + path)
    live("import", FRIDAY)
    return live


def _beside(folder):
    """{name: (owner's uid, mode)} of the files in `folder`."""
    return {p.name: (p.stat().st_uid, stat.S_IMODE(p.stat().st_mode)) for p in os.scandir(folder)}


def _outputs(live):
    return {" ".join(args): live(*args).stdout for args in READS}


@pytest.mark.slow
def test_every_read_command_reads_a_book_in_a_read_only_folder(reader, shared):
    path = os.path.join(shared, "book.db")
    owner = _friday_book(path, 0o644)  # readable by all; the folder (0755) is the owner's to write
    expected = _outputs(owner)
    before = _beside(shared)
    for args in READS:
        got = reader(*args, "--db", path)
        if args == ["table", "list"]:  # the table the owner works at is the owner's (marked *): the reader's none
            assert "*" in expected["table list"] and "*" not in got.stdout
            def words(text):
                return [[w for w in line.replace("*", "").split() if w.strip("-")] for line in text.splitlines()]

            assert words(got.stdout) == words(expected["table list"])
            continue
        assert (got.returncode, got.stderr, got.stdout) == (0, "", expected[" ".join(args)]), args
    # the -wal and -shm the owner keeps for readers, empty, and nothing of the reader's
    assert _beside(shared) == before == {"book.db": (0, 0o644), "book.db-shm": (0, 0o644),
                                         "book.db-wal": (0, 0o644)}
    assert os.path.getsize(path + "-wal") == 0
    write = reader("import", FRIDAY, "--db", path)
    assert (write.returncode, write.stdout) == (2, "")
    assert write.stderr == (f"error: the book {path} is read-only: it can be read (standings, ledger, "
                            f"export, verify, …), not written\n")
    es = reader("import", FRIDAY, "--db", path, lang="es")
    assert es.stderr == (f"error: el libro {path} es de solo lectura: se puede leer (standings, ledger, "
                         f"export, verify, …), no escribir\n")
    assert owner.json("verify", "--json")["hands"] == 1  # nothing was written


@pytest.mark.slow
def test_a_writable_book_in_a_read_only_folder_says_the_folder_is(reader, shared):
    path = os.path.join(shared, "book.db")
    _friday_book(path, 0o666)  # the book may be written, its folder may not: no -wal can be made there
    assert reader("standings", "--db", path).returncode == 0
    write = reader("import", FRIDAY, "--db", path)
    assert (write.returncode, write.stderr) == (
        2, f"error: the folder {shared} is read-only: the book {path} can be read there, not written\n")
    es = reader("import", FRIDAY, "--db", path, lang="es")
    assert es.stderr == (f"error: la carpeta {shared} es de solo lectura: el libro {path} se puede leer "
                         f"ahí, no escribir\n")


@pytest.mark.slow
def test_no_book_is_made_in_a_read_only_folder(reader, shared):
    path = os.path.join(shared, "book.db")
    got = reader("import", FRIDAY, "--db", path)
    assert (got.returncode, got.stdout, got.stderr) == (
        2, "", f"error: cannot make the book {path}: the folder {shared} is read-only\n")
    es = reader("import", FRIDAY, "--db", path, lang="es")
    assert es.stderr == f"error: no se puede crear el libro {path}: la carpeta {shared} es de solo lectura\n"
    got = reader("standings", "--db", path)  # a read makes no book anywhere (issue 33)
    assert (got.returncode, got.stderr) == (2, f"error: there is no book at {path}: nothing is recorded there yet\n")
    assert os.listdir(shared) == []


@pytest.mark.slow
def test_a_reader_in_a_shared_folder_leaves_nothing_in_the_owners_way(reader, shared):
    """In a folder anyone may write, a reader's SQLite would leave a -wal and a -shm of its
    own that the book's owner could not write: read-only, it reads through the owner's, and
    leaves none; without the owner's, it makes none (one line, exit 2)."""
    os.chmod(shared, 0o1777)
    path = os.path.join(shared, "book.db")
    owner = _friday_book(path, 0o644)
    assert reader("standings", "--db", path).returncode == 0
    assert _beside(shared) == {"book.db": (0, 0o644), "book.db-shm": (0, 0o644), "book.db-wal": (0, 0o644)}
    owner("import", FRIDAY)  # the owner writes on
    for name in ("book.db-wal", "book.db-shm"):
        os.unlink(os.path.join(shared, name))
    got = reader("standings", "--db", path)
    assert (got.returncode, got.stdout, got.stderr) == (2, "", _NO_WAL.format(path=path))
    assert os.listdir(shared) == ["book.db"]


_NO_WAL = ("error: cannot read the book {path} from here: SQLite reads it through book.db-wal and its -shm, "
           "which this user cannot make in that folder; its owner's next command leaves them beside a "
           "book others may read (chmod 0644 the book)\n")
_NO_WAL_ES = ("error: no se puede leer el libro {path} desde aquí: SQLite lo lee a través de book.db-wal y su "
              "-shm, que este usuario no puede crear en esa carpeta; la próxima orden de su dueño los deja "
              "junto a un libro que otros pueden leer (chmod 0644 el libro)\n")


@pytest.mark.slow
def test_a_book_shared_after_its_last_write_is_read_once_its_owner_has_had_it_open(reader, shared):
    """A private book (0600) leaves no -wal or -shm when its owner's last command ends: made
    readable afterwards, a reader who may not write the folder is told why it cannot read it
    yet (one line, exit 2, nothing made), and reads it once any command of the owner's ran."""
    path = os.path.join(shared, "book.db")
    owner = _friday_book(path)
    os.chmod(path, 0o644)
    got = reader("standings", "--db", path)
    assert (got.returncode, got.stdout, got.stderr) == (2, "", _NO_WAL.format(path=path))
    es = reader("standings", "--db", path, lang="es")
    assert (es.returncode, es.stderr) == (2, _NO_WAL_ES.format(path=path))
    assert os.listdir(shared) == ["book.db"]
    owner("table", "list")
    assert reader("verify", "--db", path).stdout.startswith("1 hand, ")


@pytest.mark.slow
def test_a_book_on_a_read_only_file_system_is_read_as_it_stands(reader, shared):
    """Where nobody can write the book (a file system mounted read-only: a copy on a read-only
    disk), it is read as it stands, without its -wal (SQLite `immutable`)."""
    folder = Path(shared) / "disk"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m,mode=0755", "tmpfs", str(folder)],
                             capture_output=True)
    if mounted.returncode:
        pytest.skip("no file system can be mounted here (mount needs root)")
    try:
        path = str(folder / "book.db")
        owner = _friday_book(path, 0o644)
        expected = owner("standings").stdout
        for name in ("book.db-wal", "book.db-shm"):
            os.unlink(folder / name)
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        got = reader("standings", "--db", path)
        assert (got.returncode, got.stderr, got.stdout) == (0, "", expected)
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@pytest.mark.slow
def test_a_reader_sees_what_a_writer_has_not_yet_checkpointed(reader, shared):
    """While a writer holds the book open, its latest moves are in the -wal file: a reader
    reads them (the live book, read-only), not the main file alone."""
    path = os.path.join(shared, "book.db")
    _friday_book(path)
    os.chmod(path, 0o644)
    writer = sqlite3.connect(path, isolation_level=None)
    try:
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute("UPDATE card_table SET name = 'viernes'")  # only in the -wal now
        assert os.path.getsize(path + "-wal") > 0
        os.chmod(path + "-wal", 0o644)
        os.chmod(path + "-shm", 0o644)
        got = reader("table", "list", "--json", "--db", path)
        assert got.returncode == 0, got.stderr
        assert '"name": "viernes"' in got.stdout
    finally:
        writer.close()


# A reader who may not write the folder, in a transaction of its own (as `verify` reads): it
# reads the hands, says how many, waits for a line, then verifies the book in the same
# transaction and says how many hands that read and how many problems it found.
SNAPSHOT_READER = """
import sys
from sqlalchemy import text
from desmoche_ref.store.db import open_book
from desmoche_ref.store.trust.verify import verify_book
book = open_book(sys.argv[1], readonly=True)
with book.read() as s:
    print(s.execute(text("SELECT count(*) FROM hand")).scalar(), flush=True)
    sys.stdin.readline()
    problems, counts, _ = verify_book(s)
    print(counts["hands"], len(problems), flush=True)
"""


@pytest.mark.slow
def test_a_reader_who_may_not_write_reads_one_moment_while_the_owner_writes(reader, shared, tmp_path):
    """SQLite never reads the book as unchanging for a reader who may not write its folder:
    the owner's commands write and checkpoint while it reads, and its `verify` finds the book
    as it stood when it began, all in order (read as unchanging, about one `verify` in three
    during a night of single-shot commands named problems that were not there)."""
    path = os.path.join(shared, "book.db")
    owner = _friday_book(path, 0o644)
    from desmoche_ref.simulate import simulate_session

    nights = []
    for seed in (1, 2):
        nights.append(tmp_path / f"night-{seed}.dsm")
        nights[-1].write_text(simulate_session(15, 3, seed=seed), encoding="utf-8")
    ran = reader.start("-c", SNAPSHOT_READER, path)
    try:
        assert ran.stdout.readline() == "1\n"
        for night in nights:  # each written, checkpointed and closed while the reader reads
            owner("import", night, "--table", night.stem)
        out, err = ran.communicate("go\n", timeout=60)
    finally:
        ran.kill()
    assert (ran.returncode, out, err) == (0, "1 0\n", "")
    assert reader("verify", "--db", path).stdout.startswith("31 hands, ")


def test_a_read_changes_nothing_not_even_the_journal_mode(tmp_path):
    """A book in another journal mode stays in it: the write-ahead log is switched on by
    the commands that write, not by a read."""
    path = str(tmp_path / "book.db")
    live = _friday_book(path)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")
    for args in READS:
        live(*args)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    live("import", FRIDAY)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_read_only_book_refuses_every_write(book_url):
    open_book(book_url).engine.dispose()
    book = open_book(book_url, readonly=True)
    try:
        with pytest.raises(BookError) as refused:
            with book.write() as session:
                session.execute(text("INSERT INTO setting (key, value) VALUES ('a', 'b')"))
        assert ("read-only transaction" in refused.value.args[0]) or ("readonly database" in refused.value.args[0])
    finally:
        book.engine.dispose()
    with create_engine(book_url).connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM setting WHERE key = 'a'")).scalar() == 0


def _at_first_schema(url):
    from alembic import command

    from desmoche_ref.store.db import Book, alembic_config, make_engine

    old = Book(url, make_engine(url))
    cfg = alembic_config(old)
    with old.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    old.engine.dispose()


def _version(url):
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    finally:
        engine.dispose()


def test_a_read_does_not_migrate_it_says_the_book_needs_an_upgrade(bare_book_url):
    book_url = bare_book_url  # not made yet: no file, an empty database
    live = Live(book_url)
    _at_first_schema(book_url)
    name = book_url  # no password in the test books' URLs: shown as given
    for args in READS:
        assert one_line(run(*args, env={"DESMOCHE_DB": book_url})) == (
            f"error: the book {name} needs `desmoche-ref db upgrade` before it can be read "
            f"(its schema is 0001, this program's {schema_head()})\n"), args
    assert one_line(run("standings", "--lang", "es", env={"DESMOCHE_DB": book_url})) == (
        f"error: el libro {name} necesita `desmoche-ref db upgrade` antes de poder leerse "
        f"(su esquema es 0001, el de este programa {schema_head()})\n")
    assert live("db", "check", status=1).stdout == (
        f"{name}: schema 0001, this program's is {schema_head()}: `desmoche-ref db upgrade` brings it up\n")
    assert _version(book_url) == "0001"  # nothing migrated
    live("import", FRIDAY)  # a write migrates, as before
    assert _version(book_url) == schema_head()
    assert live("standings").exit_code == 0


def test_a_read_of_a_book_not_made_yet_makes_it(book_url, live):
    """First use makes the book, whichever command it is (zero setup)."""
    assert live("standings").stdout.splitlines()[-1] == "unwon (in pots) 0.00, brought in 0.00"
    assert _version(book_url) == schema_head()


@pytest.fixture
def pg_server():
    server = os.environ.get(PG_ENV)
    if not server:
        pytest.skip(f"PostgreSQL: no server given ({PG_ENV} unset; `.ci/postgres start DIR` starts one)")
    return server


@pytest.fixture
def pg_url(pg_server):
    """A new PostgreSQL database's URL (dropped after)."""
    url, drop = _fresh_pg_database(pg_server)
    yield url
    drop()


def test_a_user_the_server_lets_read_only(pg_url, tmp_path):
    """PostgreSQL: a role granted SELECT only reads the league and is told it cannot write."""
    import psycopg
    from sqlalchemy.engine import make_url

    book_url, live = pg_url, Live(pg_url)
    live("import", FRIDAY)
    url = make_url(book_url)
    role = "reader_" + url.database[-12:]
    admin = dict(host=url.host, port=url.port, user=url.username, dbname=url.database, autocommit=True)
    with psycopg.connect(**admin) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN')
        conn.execute(f'GRANT SELECT ON ALL TABLES IN SCHEMA public TO "{role}"')
    try:
        as_reader = url.set(username=role).render_as_string(hide_password=False)
        env = {"DESMOCHE_DB": as_reader}
        assert run("standings", env=env).stdout == live("standings").stdout
        assert run("verify", env=env).exit_code == 0
        night = tmp_path / "night.dsm"
        assert run("simulate", "--hands", "2", "-o", night).exit_code == 0
        err = one_line(run("import", night, env=env))
        assert err == f"error: role {role} may only read this book\n"  # the server refused it (roles.py)
    finally:
        with psycopg.connect(**admin) as conn:
            conn.execute(f'REVOKE ALL ON ALL TABLES IN SCHEMA public FROM "{role}"')
            conn.execute(f'DROP ROLE "{role}"')


# ------------------------------------------------------------------ a private book

def test_the_default_book_is_private(tmp_path):
    data = tmp_path / "data"
    old = os.umask(0o022)
    try:
        result = run("import", FRIDAY, env={"XDG_DATA_HOME": str(data), "DESMOCHE_DB": None})
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.output
    folder = data / "desmoche-ref"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "book.db").stat().st_mode) == 0o600
    assert run("db", "path", env={"XDG_DATA_HOME": str(data), "DESMOCHE_DB": None}).stdout == (
        f"sqlite:///{folder / 'book.db'}\n")


def test_a_new_book_anywhere_is_private_and_its_folder_is_left_as_it_is(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir(mode=0o755)
    path = folder / "league.db"
    old = os.umask(0o022)
    try:
        live = Live(str(path))
        live("import", FRIDAY)
        writer = sqlite3.connect(path)  # while a writer has it open: its -wal and -shm
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("INSERT INTO setting (key, value) VALUES ('probe', '1')")
        writer.commit()
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()}
        writer.close()
    finally:
        os.umask(old)
    assert modes == {"league.db": 0o600, "league.db-wal": 0o600, "league.db-shm": 0o600}
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755


# ------------------------------------------------------------------ books that are no books

@pytest.mark.parametrize("given, shown", [
    ("sqlite://", "sqlite://"), ("sqlite:///:memory:", "sqlite:///:memory:"), (":memory:", ":memory:"),
    ("sqlite:///file::memory:?cache=shared&uri=true", "sqlite:///file::memory:?cache=shared&uri=true")])
def test_a_book_in_memory_is_refused(given, shown, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for how in ({"args": ["--db", given]}, {"env": {"DESMOCHE_DB": given}}):
        for command in (["import", FRIDAY], ["standings"], ["db", "path"]):
            got = run(*command, *how.get("args", []), env=how.get("env"))
            assert one_line(got) == (f"error: {shown} is a database in memory: nothing in it would be kept; "
                                     f"name a file (--db PATH)\n"), (command, how)
    assert one_line(run("standings", "--db", given, "--lang", "es")) == (
        f"error: {shown} es una base de datos en memoria: no se guardaría nada de ella; nombre un archivo "
        f"(--db RUTA)\n")
    assert os.listdir(tmp_path) == []  # no file named :memory:


def test_an_empty_db_option_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "data"
    for value in ("", "  "):
        for command in (["import", FRIDAY], ["standings"], ["db", "path"]):
            got = run(*command, "--db", value, env={"XDG_DATA_HOME": str(data)})
            assert one_line(got) == ("error: --db is empty: name the book (a file path, sqlite:///PATH or "
                                     "postgresql+psycopg://USER@HOST/DB)\n")
    assert one_line(run("standings", "--db", "", "--lang", "es")) == (
        "error: --db está vacío: nombre el libro (la ruta de un archivo, sqlite:///RUTA o "
        "postgresql+psycopg://USUARIO@SERVIDOR/BD)\n")
    assert not data.exists()  # the default book was not touched
    # an empty DESMOCHE_DB is as if unset: the default book
    assert run("db", "path", env={"XDG_DATA_HOME": str(data), "DESMOCHE_DB": ""}).stdout == (
        f"sqlite:///{data}/desmoche-ref/book.db\n")


# ------------------------------------------------------------------ secrets

def test_db_path_masks_every_password():
    got = run("db", "path", "--db", "postgresql://ana:hunter2@srv/club?password=hunter3&sslmode=require")
    assert got.stdout == "postgresql+psycopg://ana:***@srv/club?password=***&sslmode=require\n"
    got = run("db", "path", env={"DESMOCHE_DB": "postgresql+psycopg://ana@srv/club?sslmode=require&password=x"})
    assert got.stdout == "postgresql+psycopg://ana@srv/club?sslmode=require&password=***\n"


def test_a_malformed_port_is_one_line_and_shows_no_password():
    for lang, line in (("en", "error: 'postgresql+psycopg://u:***@h:notaport/db?password=***' is not a "
                              "database URL: its port 'notaport' is not a number\n"),
                       ("es", "error: 'postgresql+psycopg://u:***@h:notaport/db?password=***' no es una URL "
                              "de base de datos: su puerto 'notaport' no es un número\n")):
        for command in (["standings"], ["import", FRIDAY], ["db", "path"], ["db", "check"]):
            got = run(*command, "--db", "postgresql://u:hunter2@h:notaport/db?password=hunter3", "--lang", lang)
            assert one_line(got) == line, command
    got = run("standings", "--db", "postgresql://u@h:notaport/db")
    assert one_line(got) == ("error: 'postgresql+psycopg://u@h:notaport/db' is not a database URL: "
                             "its port 'notaport' is not a number\n")


def test_no_error_shows_a_password(pg_server):
    from sqlalchemy.engine import make_url

    url = make_url(pg_server)
    base = f"postgresql://{url.username}:hunter2@{url.host}:{url.port}/no_such_book"
    got = run("standings", env={"DESMOCHE_DB": base + "?password=hunter3"})
    assert one_line(got) == (f"error: cannot open postgresql+psycopg://{url.username}:***@{url.host}:{url.port}"
                             f"/no_such_book?password=***: database \"no_such_book\" does not exist\n")
    down = run("import", FRIDAY, env={"DESMOCHE_DB": "postgresql://u:hunter2@127.0.0.1:1/db?password=hunter3"})
    assert one_line(down).startswith("error: cannot reach the database server for "
                                     "postgresql+psycopg://u:***@127.0.0.1:1/db?password=***: is it running?")
    assert "hunter" not in down.stderr
    # given in --db, the warning that it can be read in `ps` comes first, and shows it neither (issue 33)
    warned = run("import", FRIDAY, "--db", "postgresql://u:hunter2@127.0.0.1:1/db?password=hunter3")
    assert warned.stderr.startswith("warning: the --db URL holds a password") and warned.stderr.count("\n") == 2
    assert "hunter" not in warned.stderr


# ------------------------------------------------------------------ a book that lost its version

def _unstamp(url):
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM alembic_version"))
    engine.dispose()


def test_a_book_that_lost_its_schema_version_is_named_and_repaired(book_url, live):
    live("import", FRIDAY)
    _unstamp(book_url)
    lost = (f"error: the book {book_url} has its tables but no schema version (its alembic_version row is "
            f"missing): `desmoche-ref db check` says whether the tables are this program's and how to repair "
            f"the book\n")
    assert one_line(live("standings", status=2)) == lost
    assert one_line(live("import", FRIDAY, status=2)) == lost  # not `table card_table already exists`
    assert one_line(live("standings", "--lang", "es", status=2)) == (
        f"error: el libro {book_url} tiene sus tablas pero ninguna versión de esquema (le falta su fila de "
        f"alembic_version): `desmoche-ref db check` dice si las tablas son las de este programa y cómo "
        f"reparar el libro\n")
    assert live("db", "check", status=1).stdout == (
        f"{book_url}: the tables are schema {schema_head()}'s but the schema version is missing: "
        f"`desmoche-ref db stamp` records it\n")
    assert live("db", "check", "--lang", "es", status=1).stdout == (
        f"{book_url}: las tablas son las del esquema {schema_head()} pero falta la versión de esquema: "
        f"`desmoche-ref db stamp` la registra\n")
    assert _version(book_url) is None  # db check wrote nothing
    assert live("db", "stamp").stdout == f"{book_url}: schema {schema_head()} recorded (the tables are its own)\n"
    assert live("db", "check").stdout == f"{book_url}: the schema matches the models\n"
    assert live.json("verify", "--json")["hands"] == 1
    assert one_line(live("db", "stamp", status=2)) == (
        f"error: {book_url} records its schema already ({schema_head()}): nothing to stamp\n")


def test_a_book_that_lost_its_version_and_differs_is_not_stamped(book_url, live):
    live("import", FRIDAY)
    _unstamp(book_url)
    engine = create_engine(book_url)
    with engine.begin() as conn:
        conn.execute(text("DROP INDEX ix_posting_account"))
    engine.dispose()
    check = live("db", "check", status=1)
    assert check.stdout == ("the book lacks index ix_posting_account on posting\n"
                            f"{book_url}: the tables are not schema {schema_head()}'s and no schema version "
                            f"is recorded: `db stamp` cannot repair the book\n")
    stamp = live("db", "stamp", status=1)
    assert stamp.stdout == ("the book lacks index ix_posting_account on posting\n"
                            f"{book_url}: the tables are not schema {schema_head()}'s: nothing recorded\n")
    assert live("db", "stamp", "--lang", "es", status=1).stdout.splitlines()[-1] == (
        f"{book_url}: las tablas no son las del esquema {schema_head()}: no se registró nada")
    assert _version(book_url) is None


def test_db_check_and_stamp_of_an_empty_book(bare_book_url):
    book_url = bare_book_url  # not made yet: no file, an empty database
    live = Live(book_url)
    if book_url.startswith("sqlite"):
        path = book_url[len("sqlite:///"):]
        assert one_line(live("db", "check", status=2)) == (
            f"error: there is no book at {path}: nothing is recorded there yet\n")
        assert not os.path.exists(path)  # db check makes nothing
        sqlite3.connect(path).close()  # an empty file
    assert live("db", "check", status=1).stdout == (
        f"{book_url}: no schema yet: `desmoche-ref db upgrade` makes the book\n")
    assert one_line(live("db", "stamp", status=2)) == (
        f"error: {book_url} has no tables: nothing to stamp (`desmoche-ref db upgrade` makes the book)\n")


def test_the_book_tables_are_the_models():
    from sqlmodel import SQLModel

    from desmoche_ref.store.schema import models  # noqa: F401

    assert set(SQLModel.metadata.tables) == BOOK_TABLES


# ------------------------------------------------------------------ the schema's head

def test_the_schema_revisions_are_alembics():
    from alembic.script import ScriptDirectory

    from desmoche_ref.store.db import alembic_config, known_revisions

    script = ScriptDirectory.from_config(alembic_config())
    assert schema_head() == script.get_current_head()
    assert known_revisions() == {r.revision for r in script.walk_revisions()}


def _race(url, count):
    """`count` first uses of one new book at the same moment; each one's error, or None."""
    start = threading.Barrier(count)
    errors = [None] * count

    def first_use(i):
        start.wait()
        try:
            open_book(url).engine.dispose()
        except Exception as exc:  # noqa: BLE001  (the test reports every failure)
            errors[i] = exc

    threads = [threading.Thread(target=first_use, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_first_uses_of_a_new_postgresql_book_at_once_all_work(pg_server):
    for _round in range(4):
        url, drop = _fresh_pg_database(pg_server)
        try:
            assert _race(url, 6) == [None] * 6
            assert _version(url) == schema_head()
        finally:
            drop()


@pytest.mark.slow
def test_first_uses_of_a_new_sqlite_book_at_once_all_work(tmp_path):
    for n in range(4):
        url = f"sqlite:///{tmp_path}/book{n}.db"
        assert _race(url, 6) == [None] * 6
        assert _version(url) == schema_head()


def test_two_db_upgrades_at_once_say_what_each_found(pg_url):
    """Two processes upgrading one new PostgreSQL book: one makes it, the other finds it made."""
    env = dict(os.environ, PYTHONPATH=ROOT, DESMOCHE_DB=pg_url)
    procs = [subprocess.Popen([sys.executable, "-m", "desmoche_ref", "db", "upgrade"], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outs = sorted(p.communicate(timeout=120) + (p.returncode,) for p in procs)
    assert [o[1:] for o in outs] == [("", 0), ("", 0)]
    assert sorted(o[0].split(": ", 1)[1] for o in outs) == sorted([
        f"schema {schema_head()} (already up to date)\n", f"schema {schema_head()} (was empty)\n"])
