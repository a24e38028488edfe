"""The schema, on SQLite and PostgreSQL: the shipped migrations make exactly the tables the
models describe (`db check`), a drifted book is caught, and `db upgrade` makes an empty book."""

from sqlalchemy import create_engine, text

from conftest import Live

from desmoche_ref.store.db import drift, open_book, schema_head, schema_version


def test_the_migrations_make_what_the_models_say(bare_book_url):
    book_url = bare_book_url  # not made yet: no file, an empty database
    live = Live(book_url)
    out = live("db", "upgrade").stdout
    assert out.endswith(f": schema {schema_head()} (was empty)\n")
    assert live("db", "upgrade").stdout.endswith(f": schema {schema_head()} (already up to date)\n")
    book = open_book(book_url)
    assert drift(book) == []
    book.engine.dispose()
    assert live("db", "check").stdout.endswith(": the schema matches the models\n")


def test_a_book_that_drifted_from_the_models_is_caught(book_url, live):
    live("db", "upgrade")
    engine = create_engine(book_url)
    with engine.begin() as conn:
        conn.execute(text("DROP INDEX ix_posting_account"))
        conn.execute(text("ALTER TABLE event ADD COLUMN note VARCHAR(20)"))
    engine.dispose()
    run = live("db", "check", status=1)
    assert sorted(run.stdout.splitlines()[:-1]) == [
        "the book has column event.note, the models do not",
        "the book lacks index ix_posting_account on posting"]
    assert run.stdout.endswith(": the schema and the models differ\n")


def test_first_use_makes_the_book(book_url):
    book = open_book(book_url)
    assert schema_version(book) == schema_head()
    book.engine.dispose()


def test_a_book_of_the_first_schema_is_upgraded_with_its_hands_kept(bare_book_url):
    """Schema 0002 drops two indexes no query needs (event.hand_id, posting.player_id), 0003
    adds who recorded each move, 0004 journals the book, 0005 widens a move's line and comment
    to a whole N1.5 line, 0006 names each journal row's writer and journals each row once,
    0007 lets a recorder deal a hand again, 0008 keeps a SQLite book's recorders' PINs, 0009
    indexes the journal by writer (a recorder's table): a 0001 book opens at the head, with
    nothing lost and no drift, and verifies."""
    book_url = bare_book_url  # not made yet: no file, an empty database
    live = Live(book_url)
    from alembic import command

    from desmoche_ref.store.db import Book, alembic_config, make_engine

    old = Book(book_url, make_engine(book_url))
    cfg = alembic_config(old)
    with old.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    assert schema_version(old) == "0001"
    old.engine.dispose()
    live("import", "tests/conformance/friday.dsm")
    book = open_book(book_url)
    assert schema_version(book) == schema_head() == "0009"
    assert drift(book) == []
    with book.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM event")).scalar() == 29  # friday's moves
        nets = dict(conn.execute(text("SELECT account, sum(amount) FROM posting "
                                      "WHERE player_id IS NOT NULL GROUP BY account")).all())
    book.engine.dispose()
    assert nets == {"Ana": -2500, "Beto": -1000, "Carla": 3500}
    assert live.json("verify", "--json")["problems"] == []
