"""Shared fixtures: a fresh book on SQLite and, when a server is given, on PostgreSQL.

Every store test takes `book_url` and so runs on both. `.ci/run` starts a PostgreSQL server
and passes its URL in DESMOCHE_TEST_PG; locally, without it, the PostgreSQL cases are
skipped and say why (start one with `.ci/postgres start DIR`).
"""

import os
import uuid

import pytest

PG_ENV = "DESMOCHE_TEST_PG"


def _fresh_pg_database(server_url: str):
    """(URL of a new empty database on the server, a function that drops it)."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(server_url)
    name = "book_" + uuid.uuid4().hex[:12]
    conninfo = dict(host=url.host, port=url.port, user=url.username, password=url.password,
                    dbname=url.database or "postgres", autocommit=True)
    with psycopg.connect(**conninfo) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop():
        with psycopg.connect(**conninfo) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return url.set(database=name).render_as_string(hide_password=False), drop


@pytest.fixture(params=["sqlite", "postgresql"])
def book_url(request, tmp_path):
    """A URL of a new, empty book: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield "sqlite:///" + str(tmp_path / "book.db")
        return
    server = os.environ.get(PG_ENV)
    if not server:
        pytest.skip(f"PostgreSQL: no server given ({PG_ENV} unset; `.ci/postgres start DIR` starts one)")
    url, drop = _fresh_pg_database(server)
    try:
        yield url
    finally:
        drop()


def recorder_of(url: str) -> str:
    """The name the book records as each move's recorder when written through `url`: the
    URL's user on PostgreSQL (the tests connect as a named user), the login name on SQLite."""
    from sqlalchemy.engine import make_url

    from desmoche_ref.store.identity import login_name

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
        assert result.exit_code == status, (args, result.exit_code, result.output)
        return result

    def json(self, *args, status=0):
        import json

        return json.loads(self(*args, status=status).stdout)


@pytest.fixture
def live(book_url):
    return Live(book_url)


def pytest_configure(config):
    """No test may reach the user's own book: the default book (platformdirs) and the table
    session's history live in a temporary data folder for the whole run."""
    import tempfile

    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="desmoche-test-data-")


def verified(out: str) -> str:
    """`verify`'s output less its last line, which must be the book head (64 hex digits, in
    English or in Spanish)."""
    import re

    body, head = out.rstrip("\n").rsplit("\n", 1)
    assert re.fullmatch(r"(book head|cabeza del libro): [0-9a-f]{64}", head), head
    return body + "\n"
