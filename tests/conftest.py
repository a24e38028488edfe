"""Shared fixtures: a fresh book on SQLite and, when a server is given, on PostgreSQL.

Every store test takes `book_url` and so runs on both. `.ci/run` starts a PostgreSQL server
and passes its URL in DESMOCHE_TEST_PG; locally, without it, the PostgreSQL cases are
skipped and say why (start one with `.ci/postgres start DIR`).
"""

import atexit
import os
import shutil
import uuid

import pytest

PG_ENV = "DESMOCHE_TEST_PG"


def _temp_in_memory(folder: str = "/dev/shm", room: int = 4 << 30) -> None:
    """The tests' files (their books, reports, pytest's tmp_path) in a memory file system when
    the machine has one with room: a SQLite commit's fsync there costs nothing, as the test
    PostgreSQL server runs with fsync=off (.ci/postgres). What the tests hold is what a write
    stores and when, never the disk's durability; an fsync to a disk took half of a recorded
    night's time. The commands the tests start inherit TMPDIR. DESMOCHE_TEST_TMP=disk keeps
    the default."""
    import tempfile

    if os.environ.get("DESMOCHE_TEST_TMP") == "disk" or os.environ.get("TMPDIR"):
        return
    try:
        usable = os.access(folder, os.W_OK) and shutil.disk_usage(folder).free >= room
    except OSError:
        return
    if usable:
        os.environ["TMPDIR"] = folder
        tempfile.tempdir = None  # read TMPDIR again


_temp_in_memory()


def _pg_conninfo(server_url: str) -> dict:
    from sqlalchemy.engine import make_url

    url = make_url(server_url)
    return dict(host=url.host, port=url.port, user=url.username, password=url.password,
                dbname=url.database or "postgres", autocommit=True)


def _fresh_pg_database(server_url: str, template: str | None = None):
    """(URL of a new database on the server, a function that drops it): empty, or a copy of
    the `template` database."""
    import psycopg
    from sqlalchemy.engine import make_url

    conninfo = _pg_conninfo(server_url)
    name = "book_" + uuid.uuid4().hex[:12]
    with psycopg.connect(**conninfo) as conn:
        conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))

    def drop():
        with psycopg.connect(**conninfo) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return make_url(server_url).set(database=name).render_as_string(hide_password=False), drop


def _pg_server() -> str:
    server = os.environ.get(PG_ENV)
    if not server:
        pytest.skip(f"PostgreSQL: no server given ({PG_ENV} unset; `.ci/postgres start DIR` starts one)")
    return server


_TEMPLATES = {}


# friday (tests/conformance/friday.dsm): its move lines, as a recorder types them
FRIDAY_LINES = [line for line in open(os.path.join(os.path.dirname(__file__), "conformance", "friday.dsm"),
                                      encoding="utf-8").read().splitlines()
                if line and not line.startswith("[")]


def new_sqlite_book(folder) -> str:
    """The URL of a new SQLite book in `folder` (a pathlib.Path), as the program makes it on
    first use: a copy of the template book, its migrations not run again."""
    path = folder / "book.db"
    shutil.copy(template_book("sqlite"), path)
    return "sqlite:///" + str(path)


def with_friday(url: str) -> str:
    """The book at `url` with friday's table and its first hand dealt (friday_table_book)."""
    from desmoche_ref.store.db import open_book

    book = open_book(url)
    friday_table_book(book)
    book.engine.dispose()
    return url


def friday_sqlite(folder) -> str:
    """The URL of a new SQLite book in `folder` with friday's table and its first hand dealt."""
    return with_friday(new_sqlite_book(folder))


def friday_table_book(book):
    """friday's table made on `book` through the scorebook service (bet 10.00, `todo`, the
    oro side game) and its first hand dealt by Ana: the TableBook to record its moves on."""
    from desmoche_ref.store.write.tablebook import TableBook, create_table

    create_table(book, "friday", ["Ana", "Beto", "Carla"], 1000, options="todo",
                 sides=[("oro", 500, ["Ana", "Beto", "Carla"])])
    table = TableBook(book, "friday")
    table.new_hand("Ana")
    return table


def template_book(engine: str) -> str:
    """A new book as the program makes it on first use (its schema at the head, nothing
    recorded), made once per test process: a SQLite file's path, or the name of a PostgreSQL
    database to copy (`CREATE DATABASE … TEMPLATE`). Each test's book is a copy, so the
    migrations run once, not for every test (they are tested on bare books: `bare_book_url`).
    A function, not only a fixture: the stateful laws (hypothesis test cases) use it too."""
    import tempfile

    from desmoche_ref.store.db import open_book

    if engine not in _TEMPLATES:
        if engine == "sqlite":
            folder = tempfile.mkdtemp(prefix="dsm-template-")
            atexit.register(shutil.rmtree, folder, True)
            path = os.path.join(folder, "book.db")
            open_book(path).engine.dispose()
            _TEMPLATES[engine] = path
        else:
            url, drop = _fresh_pg_database(_pg_server())
            atexit.register(drop)
            open_book(url).engine.dispose()
            _TEMPLATES[engine] = url.rsplit("/", 1)[1]
    return _TEMPLATES[engine]


# What a PostgreSQL book is besides its rows, as one digest: its relations and their columns,
# defaults, constraints, indexes, triggers, privileges and row security; its functions,
# schemas, default privileges and settings; and its schema version. A test that leaves it
# as the template's left only rows behind, which TRUNCATE takes away.
_PG_SHAPE = """
SELECT md5(concat_ws('|',
  (SELECT string_agg(concat_ws(',', c.relname, c.relkind, c.relacl::text, c.reloptions::text,
                               c.relrowsecurity, c.relforcerowsecurity), ';' ORDER BY c.relname)
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'),
  (SELECT string_agg(concat_ws(',', c.relname, a.attname, a.atttypid, a.atttypmod, a.attnotnull,
                               a.attidentity, a.attgenerated, a.attacl::text,
                               pg_get_expr(d.adbin, d.adrelid)), ';' ORDER BY c.relname, a.attnum)
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
      AND a.attnum > 0 AND NOT a.attisdropped),
  (SELECT string_agg(concat_ws(',', conrelid::regclass::text, conname, pg_get_constraintdef(oid)), ';'
                     ORDER BY conrelid::regclass::text, conname)
     FROM pg_constraint WHERE connamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)),
  (SELECT string_agg(pg_get_indexdef(indexrelid), ';' ORDER BY indexrelid::regclass::text)
     FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'),
  (SELECT string_agg(concat_ws(',', tgrelid::regclass::text, tgname), ';' ORDER BY tgrelid::regclass::text, tgname)
     FROM pg_trigger WHERE NOT tgisinternal),
  (SELECT string_agg(concat_ws(',', p.oid::regprocedure::text, p.proacl::text), ';' ORDER BY p.oid::regprocedure::text)
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')),
  (SELECT string_agg(concat_ws(',', nspname, nspowner::regrole::text, nspacl::text), ';' ORDER BY nspname)
     FROM pg_namespace),
  (SELECT string_agg(defaclacl::text, ';' ORDER BY oid) FROM pg_default_acl),
  (SELECT string_agg(policyname, ';' ORDER BY policyname) FROM pg_policies),
  (SELECT string_agg(setconfig::text, ';') FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
    WHERE d.datname = current_database()),
  (SELECT concat_ws(',', datacl::text, datdba::regrole::text) FROM pg_database WHERE datname = current_database()),
  (SELECT string_agg(version_num, ';') FROM alembic_version)))
"""


class _PgBooks:
    """New PostgreSQL books for one test process: each a copy of the template book, handed
    out by `take` and given back by the function it returns. A book given back with the
    template's shape (_PG_SHAPE: a test wrote rows and nothing else) is emptied — every
    table truncated, its identities restarted — and handed out again; any other (a test
    dropped a table, granted a role, lost the schema version) is dropped. Copying a database
    costs the server tens of milliseconds; emptying one, a few."""

    def __init__(self):
        self.spare, self.shape = [], None
        atexit.register(self.drop_all)

    def take(self, server: str):
        import psycopg

        template = template_book("postgresql")
        if self.shape is None:
            with psycopg.connect(**{**_pg_conninfo(server), "dbname": template}) as conn:
                self.shape = conn.execute(_PG_SHAPE).fetchone()[0]
        if self.spare:
            url, drop = self.spare.pop()
        else:
            url, drop = _fresh_pg_database(server, template=template)
        return url, lambda: self.give_back(server, url, drop)

    def give_back(self, server: str, url: str, drop) -> None:
        import psycopg
        from sqlalchemy.engine import make_url

        from desmoche_ref.store.db import BOOK_TABLES

        name = make_url(url).database
        _pg_unused(server, name)  # what a command or the test left connected
        with psycopg.connect(**{**_pg_conninfo(server), "dbname": name}) as conn:
            if conn.execute(_PG_SHAPE).fetchone()[0] == self.shape:
                conn.execute("TRUNCATE " + ", ".join(f'"{t}"' for t in sorted(BOOK_TABLES)) +
                             " RESTART IDENTITY CASCADE")
                self.spare.append((url, drop))
                return
        drop()

    def drop_all(self) -> None:
        while self.spare:
            self.spare.pop()[1]()


_PG_BOOKS = _PgBooks()


def fresh_pg_book(server: str):
    """(URL of a new PostgreSQL book, a function that gives it back): as the program makes a
    book on first use, nothing recorded (a function, not only a fixture: the stateful laws
    take books too)."""
    return _PG_BOOKS.take(server)


@pytest.fixture(params=["sqlite", "postgresql"])
def book_url(request, tmp_path):
    """A URL of a new book, as the program makes it on first use (nothing recorded yet): a
    SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        path = tmp_path / "book.db"
        shutil.copy(template_book("sqlite"), path)  # its mode too: private, as the program made it
        yield "sqlite:///" + str(path)
        return
    url, give_back = fresh_pg_book(_pg_server())
    try:
        yield url
    finally:
        give_back()


def _copy_sqlite(source: str, path) -> None:
    """A consistent copy of a SQLite book (what its -wal file holds included), private as
    the program makes a book."""
    import sqlite3

    with sqlite3.connect(source) as src, sqlite3.connect(str(path)) as dst:
        src.backup(dst)
    src.close()
    dst.close()
    os.chmod(path, 0o600)


def _pg_unused(server: str, database: str) -> None:
    """Close what still connects to `database` (a pooled connection of an in-process command):
    a database is copied only while nobody is connected to it."""
    import psycopg

    with psycopg.connect(**_pg_conninfo(server)) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE datname = %s AND pid <> pg_backend_pid()", (database,))


# The book's tables in an order in which each row's references come before it
_PG_TABLES_IN_ORDER = ("setting", "player", "card_table", "hand", "event", "posting", "journal")


def _pg_rows(url: str):
    """A PostgreSQL book's rows, table by table (COPY, in id order), and its sequences' states."""
    import psycopg

    with psycopg.connect(**_pg_conninfo(url)) as conn:  # the book's own database
        tables = {}
        for table in _PG_TABLES_IN_ORDER:
            order = " ORDER BY id" if table != "setting" else ""
            with conn.cursor().copy(f'COPY (SELECT * FROM "{table}"{order}) TO STDOUT') as copy:
                tables[table] = b"".join(bytes(block) for block in copy)
        sequences = conn.execute("SELECT sequencename, last_value FROM pg_sequences "
                                 "WHERE schemaname = 'public' AND last_value IS NOT NULL").fetchall()
    return tables, sequences


def _pg_restore(url: str, rows) -> None:
    """Write `rows` (_pg_rows) into an empty book of the same shape."""
    import psycopg

    tables, sequences = rows
    with psycopg.connect(**{**_pg_conninfo(url), "autocommit": False}) as conn:  # one transaction
        # rows restored as they were written: the book's triggers (which set who wrote a row to
        # the session's user, schema 0006) do not fire, as `pg_restore --disable-triggers`
        conn.execute("SET LOCAL session_replication_role = replica")
        for table in _PG_TABLES_IN_ORDER:
            if tables[table]:
                with conn.cursor().copy(f'COPY "{table}" FROM STDIN') as copy:
                    copy.write(tables[table])
        for name, last in sequences:
            conn.execute("SELECT setval(%s, %s, true)", (f'"{name}"', last))


@pytest.fixture(scope="session")
def _built(tmp_path_factory):
    """copy_of(engine, key, build, tmp_path) -> (URL, give back): a copy of the book
    `build(url)` makes, built once per test process and key, so that tests starting from the
    same night do not each record it again. On PostgreSQL the copy is a new book (fresh_pg_book)
    into which the night's rows are written."""
    made = {}

    def copy_of(engine: str, key: str, build, tmp_path):
        if (engine, key) not in made:
            if engine == "sqlite":
                path = tmp_path_factory.mktemp("built") / "book.db"
                shutil.copy(template_book("sqlite"), path)
                build("sqlite:///" + str(path))
                made[engine, key] = str(path)
            else:
                url, give_back = fresh_pg_book(_pg_server())
                try:
                    build(url)
                    _pg_unused(_pg_server(), url.rsplit("/", 1)[1])
                    made[engine, key] = _pg_rows(url)
                finally:
                    give_back()
        if engine == "sqlite":
            path = tmp_path / "built.db"
            _copy_sqlite(made[engine, key], path)
            return "sqlite:///" + str(path), None
        url, give_back = fresh_pg_book(_pg_server())
        _pg_restore(url, made[engine, key])
        return url, give_back

    yield copy_of


@pytest.fixture
def built_book(book_url, _built, tmp_path):
    """built_book(key, build) -> the URL of a copy of the book `build(url)` makes, on the
    test's engine (`book_url`'s)."""
    engine = "sqlite" if book_url.startswith("sqlite") else "postgresql"
    drops = []

    def copy(key, build):
        url, drop = _built(engine, key, build, tmp_path)
        if drop is not None:
            drops.append(drop)
        return url

    yield copy
    for drop in drops:
        drop()


@pytest.fixture(params=["sqlite", "postgresql"])
def bare_book_url(request, tmp_path):
    """A URL of a book not made yet: no SQLite file, or an empty PostgreSQL database (what a
    book's first use and `db upgrade` start from)."""
    if request.param == "sqlite":
        yield "sqlite:///" + str(tmp_path / "book.db")
        return
    url, drop = _fresh_pg_database(_pg_server())
    try:
        yield url
    finally:
        drop()


def recorder_of(url: str) -> str:
    """The name the book records as each move's recorder when written through `url`: the
    URL's user on PostgreSQL (the tests connect as a named user), the login name on SQLite."""
    from sqlalchemy.engine import make_url

    from desmoche_ref.store.trust.identity import login_name

    return make_url(url).username if url.startswith("postgresql") else login_name()


class Live:
    """The commands on one book, in-process through click's CliRunner (the book named by
    DESMOCHE_DB, as a recorder at the table sets it once)."""

    def __init__(self, url: str):
        self.url = url

    def __call__(self, *args, status=0):
        from click.testing import CliRunner

        from desmoche_ref.cli import main

        result = CliRunner().invoke(main, [str(a) for a in args], env={"DESMOCHE_DB": self.url})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        if result.exit_code != status:
            import traceback

            told = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else ""
            assert result.exit_code == status, (args, result.exit_code, result.output, told)
        return result

    def json(self, *args, status=0):
        import json

        return json.loads(self(*args, status=status).stdout)


@pytest.fixture
def live(book_url):
    return Live(book_url)


CHROMIUM = "/usr/bin/chromium"  # Debian's: Playwright drives it, and never downloads a browser
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium for the test process, shared by the browser tests (the report's and
    the board's): starting one costs seconds. Skipped, saying why, where Chromium or Playwright
    is missing (`.ci/run` installs Chromium)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed "
                                                                 "(pip install -e '.[test]')")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


# Fixtures that give a test a PostgreSQL database (the server's cases are in the slow lane)
PG_FIXTURES = {"owner_url", "roles", "pg_server", "pg_url"}


LONGEST_FIRST = {"test_scorebook_laws.py", "test_scorebook_fuzz.py", "test_report_browser.py",
                 "test_board_browser.py"}


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: for the whole suite, one worker more than the cores. A good share of it waits
    — on a browser, a server, a process it started — while its worker holds no core: on 2
    cores the slow lane's heaviest files ran in 153 s with three workers against 305 s with
    two, in the same hour. The fast lane waits on nothing: a worker a core (37 s with three
    workers against 32 s with two)."""
    cores = os.cpu_count() or 1
    if "not slow" in (config.option.markexpr or ""):  # the fast lane is all CPU (-m slow waits, as the suite)
        return cores
    return cores + 1


def pytest_collection_modifyitems(config, items):
    """Every PostgreSQL case is `slow`: the fast lane (`-m "not slow"`) runs the SQLite ones,
    the whole suite (CI) both. The longest files run first."""
    slow = pytest.mark.slow
    # the longest tests first, so that the cores finish together (pytest-xdist hands out the
    # rest as they free up) rather than one core running a long test at the end alone
    items.sort(key=lambda item: item.path.name not in LONGEST_FIRST)
    for item in items:
        params = getattr(item, "callspec", None)
        on_pg = params is not None and "postgresql" in params.params.values()
        if on_pg or PG_FIXTURES & set(getattr(item, "fixturenames", ())) \
                or "postgresql" in item.name.lower():
            item.add_marker(slow)


def pytest_configure(config):
    """No test may reach the user's own book: the default book (platformdirs) and the table
    session's history live in a temporary data folder for the whole run."""
    import tempfile

    config._desmoche_data = os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="desmoche-test-data-")


def pytest_unconfigure(config):
    """The run's data folder goes with it."""
    folder = getattr(config, "_desmoche_data", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


class Ran:
    """What `subprocess.run(..., capture_output=True, text=True)` returns, for a command run
    in-process: returncode, stdout, stderr."""

    def __init__(self, returncode: int, stdout: str, stderr: str):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def invoke(*args, input=None, env=None, cwd=None) -> Ran:
    """`desmoche-ref ARGS` in-process (click's CliRunner), answered as the process would answer:
    for the tests where a process adds nothing but its start-up. An exception that would be
    a traceback fails the test."""
    import contextlib

    from click.testing import CliRunner

    from desmoche_ref.cli import main

    with contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext():
        result = CliRunner().invoke(main, [str(a) for a in args], input=input, env=env,
                                    prog_name="python -m desmoche_ref")  # the process it stands for
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Ran(result.exit_code, result.stdout, result.stderr)


def verified(out: str) -> str:
    """`verify`'s output less its last line, which must be the book head (64 hex digits, in
    English or in Spanish)."""
    import re

    body, head = out.rstrip("\n").rsplit("\n", 1)
    assert re.fullmatch(r"(book head|cabeza del libro): [0-9a-f]{64}", head), head
    return body + "\n"
