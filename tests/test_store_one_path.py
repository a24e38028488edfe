"""One write path (issue 26): a night recorded live and the same night imported store the same
rows — its hands, their moves (line, comment, seq, recorder and chain hash) and their postings —
on SQLite and PostgreSQL. Aside: ids, times, a hand's `source`, and the Table tag an imported
hand keeps of the table it came under (an export writes it for a live hand from its table: the
record is the same). friday (tests/conformance/friday.dsm) recorded through TableBook, then its
export imported into a fresh book."""

import json
import pathlib
import shutil

import pytest
from sqlalchemy import text

from conftest import FRIDAY_LINES as FRIDAY, _pg_server, fresh_pg_book, friday_table_book, template_book

HERE = pathlib.Path(__file__).parent


@pytest.fixture
def two_books(book_url, tmp_path):
    """(a fresh book, another fresh book) on the test's engine."""
    if book_url.startswith("sqlite"):
        shutil.copy(template_book("sqlite"), tmp_path / "other.db")
        yield book_url, "sqlite:///" + str(tmp_path / "other.db")
        return
    other, give_back = fresh_pg_book(_pg_server())
    try:
        yield book_url, other
    finally:
        give_back()


def _journal(url: str) -> list:
    """(kind, values) of each journal row, in order."""
    from desmoche_ref.store.db import open_book

    book = open_book(url)
    try:
        with book.read() as s:
            return [(kind, json.loads(body)) for kind, body in s.execute(text("SELECT kind, text FROM journal "
                                                                              "ORDER BY id")).all()]
    finally:
        book.engine.dispose()


def _rows(url: str) -> dict:
    from desmoche_ref.store.db import open_book

    book = open_book(url)
    try:
        with book.read() as s:
            hands = [dict(r._mapping) for r in s.execute(text("SELECT * FROM hand ORDER BY id"))]
            events = [dict(r._mapping) for r in s.execute(text("SELECT * FROM event ORDER BY hand_id, seq"))]
            postings = [dict(r._mapping) for r in s.execute(text("SELECT * FROM posting ORDER BY id"))]
    finally:
        book.engine.dispose()
    for h in hands:
        tags = [t for t in json.loads(h.pop("extra_tags")) if t[0] != "Table"]
        h["tags"] = tags
        for aside in ("id", "table_id", "opened", "closed", "source"):
            h.pop(aside)
    for row in events + postings:
        for aside in ("id", "hand_id", "entered", "created", "table_id", "player_id"):
            row.pop(aside, None)
    return {"hands": hands, "events": events, "postings": postings}


@pytest.mark.slow
def test_a_night_recorded_live_and_imported_stores_the_same_rows(two_books):
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.write.importer import import_records
    from desmoche_ref.store.read.scorebook import Scorebook

    live_url, imported_url = two_books
    book = open_book(live_url)
    try:
        table = friday_table_book(book)
        for line in FRIDAY + ["end"]:
            table.record(line)
        with Scorebook(book).export() as stream:
            ((_table, _number, record),) = list(stream)
    finally:
        book.engine.dispose()
    other = open_book(imported_url)
    try:
        done = import_records(other, record.encode("utf-8"), "friday.dsm")
    finally:
        other.engine.dispose()
    assert (done.stored, done.rejected) == (1, [])
    live, imported = _rows(live_url), _rows(imported_url)
    assert len(live["events"]) == 30 and len(live["postings"]) == 20
    assert imported == live
    # the journal: each says the same of the hand, in the grain each command writes (docs/rulings.md)
    night, once = _journal(live_url), _journal(imported_url)
    assert [kind for kind, _ in night] == ["table", "hand"] + ["event"] * 30 + ["posting"] * 20 + ["verdict"]
    assert [kind for kind, _ in once] == ["table", "import", "follow"]
    table, dealt, moves, made, closed = night[0][1], night[1][1], night[2:32], night[32:52], night[52][1]
    assert once[0][1][:7] == table[:7] == once[2][1][:7]  # its seats and stakes, not yet closed
    setup = once[1][1][:14]
    aside = {0, 10, 12, 13}  # the table's id, the Table tag an import keeps, the source, when it was dealt
    assert [v for i, v in enumerate(setup) if i not in aside] == [v for i, v in enumerate(dealt) if i not in aside]
    assert once[1][1][14:17] == [len(moves), moves[-1][1][6], len(made)]  # its moves, their chain head, postings
    assert closed[1] == "complete" and once[1][1][17] is not None


def test_the_rows_the_planners_make_are_the_models_columns():
    """The planners' rows (records.ROWS) are the models' tables' columns, in order: the one writer
    hands the driver their values as they are (writer.insert), and reads them back as they are
    (tablestate); an imported hand's moves (judging.Prepared.event_rows) are the event table's
    columns less the id and the undo's target, which an import leaves NULL."""
    from desmoche_ref.store.schema.models import BookTable, Event, Hand, Posting, core
    from desmoche_ref.store.schema.records import ROWS
    from desmoche_ref.store.write.book_writer import TABLES

    models = {"card_table": BookTable, "hand": Hand, "event": Event, "posting": Posting}
    assert set(ROWS) == set(TABLES) == set(models)
    for name, row in ROWS.items():
        assert list(row._fields) == [c.name for c in core(models[name]).c] == [c.name for c in TABLES[name].c]
    moved = [c for c in row._fields if c not in ("id", "supersedes")] if (row := ROWS["event"]) else []
    assert moved == ["hand_id", "seq", "line", "comment", "entered", "hash", "recorder"]


def test_each_json_column_has_one_codec_that_reads_back_what_it_wrote(book_url):
    """Each JSON column of the models is typed with its codec (codecs.JSONText): what a program
    writes through the model comes back as the same value, stored as the codec's text, and an
    empty or NULL column reads as the codec says."""
    from sqlalchemy import insert, select

    from desmoche_ref.store.schema.codecs import CODECS, JSONText, POTS, SIDES, TAGS
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.schema.models import BookTable, Hand, core

    typed = {(model.__tablename__, c.name): c.type.codec for model in (BookTable, Hand)
             for c in core(model).c if isinstance(c.type, JSONText)}
    assert typed == {("card_table", "sides"): "sides", ("hand", "sides"): "sides", ("hand", "side_carry"): "pots",
                     ("hand", "extra_tags"): "tags", ("hand", "side_carry_out"): "pots"}
    for codec, stored, value in ((SIDES, '[["oro", 500, ["Ana", "Beto"]]]', [("oro", 500, ["Ana", "Beto"])]),
                                 (POTS, '{"oro": 250}', {"oro": 250}),
                                 (TAGS, '[["Date", "2026-11-05"], ["Table", "north"]]',
                                  [("Date", "2026-11-05"), ("Table", "north")])):
        assert CODECS[codec.name] is codec
        assert codec.decode(stored) == value and codec.encode(value) == stored
        assert codec.decode(None) == codec.decode("") == codec.decode(codec.encode(codec.empty))
    book = open_book(book_url)
    try:
        with book.begin() as conn:
            t = core(BookTable)
            sides = [("oro", 500, ["Ana", "Beto"])]
            conn.execute(insert(t).values(name="t", players="Ana Beto", bet=100, rules="desmoche", options="",
                                          sides=sides, created=BookTable().created))
            assert conn.execute(select(t.c.sides)).scalar() == sides
            assert conn.exec_driver_sql("SELECT sides FROM card_table").scalar() == '[["oro", 500, ["Ana", "Beto"]]]'
            conn.exec_driver_sql("UPDATE card_table SET sides = ''")
            assert conn.execute(select(t.c.sides)).scalar() == []
            conn.rollback()
    finally:
        book.engine.dispose()
