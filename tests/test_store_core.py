"""The store core on SQLite and PostgreSQL: a hand recorded move by move settles into
double-entry postings that match `check`'s nets exactly; a refused move stores nothing."""

import pathlib

import pytest
from sqlmodel import select

from desmoche_ref.store.db import alembic_config, open_book, schema_head, schema_version
from desmoche_ref.store.schema.models import Event, Posting
from desmoche_ref.store.write.tablebook import Refused, TableBook, create_table

FRIDAY = pathlib.Path(__file__).parent / "conformance" / "friday.dsm"


def friday_lines():
    return [line.split("#")[0].strip() for line in FRIDAY.read_text().splitlines()
            if line.strip() and not line.startswith("[")]


def test_schema_head_is_alembics_head():
    from alembic.script import ScriptDirectory

    assert ScriptDirectory.from_config(alembic_config()).get_current_head() == schema_head()


def test_friday_recorded_move_by_move(book_url):
    book = open_book(book_url)
    assert schema_version(book) == schema_head()
    create_table(book, "friday", ["Ana", "Beto", "Carla"], 1000, options="todo",
                 sides=[("oro", 500, ["Ana", "Beto", "Carla"])])
    TableBook(book).new_hand(dealer="Ana")
    for number, line in enumerate(friday_lines(), 1):
        if number == 11:  # before `draw Carla 4d`: out of turn, Carla is to draw (R7.6)
            with pytest.raises(Refused) as refused:
                TableBook(book).record("draw Ana 4d")
            assert refused.value.finding.code == "R7.6"
        TableBook(book).record(line)
    report = TableBook(book).record("end").closing
    assert report.as_json()["net"] == {"Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"}
    with book.read() as s:
        assert len(list(s.exec(select(Event)))) == len(friday_lines()) + 1  # and the `end`
        postings = list(s.exec(select(Posting)))
    balance = {}
    for p in postings:
        balance[p.account] = balance.get(p.account, 0) + p.amount
    assert balance == {"Ana": -2500, "Beto": -1000, "Carla": 3500, "pot:main": 0, "pot:oro": 0}
    book.engine.dispose()


def test_chain_hashes_are_chain_hash_in_turn():
    """The importer hashes a hand's events in one loop (records.chain_hashes): the same
    hashes as chain_hash, event by event, with or without a recorder."""
    from desmoche_ref.store.schema.records import chain_hash, chain_hashes

    lines, comments = ["deal Ána ?x9", "draw Ána 5c", "end"], [None, " ünïcode ☃", ""]
    for recorder in ("Ána", None):
        previous, expected = "", []
        for seq, (line, comment) in enumerate(zip(lines, comments), 1):
            previous = chain_hash(previous, seq, line, comment, None, recorder)
            expected.append(previous)
        assert chain_hashes(lines, comments, recorder) == expected
    assert chain_hashes([], [], "Ána") == []
