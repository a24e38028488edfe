"""An import carries each table's state from one of its transactions to the next (issue 32):
the table's hands are read back once, not once a transaction (200,000 hands that each carry
what the one before held were read back whole every batch), and the state carried is read
again whenever another writer changed the table's newest hand meanwhile: a hand dealt live,
or the last imported hand taken back. On SQLite and PostgreSQL, through the import's own
batch writer (store/write/batch.py `HandBatch`) and a live recorder between two of its batches."""

import pytest

from desmoche_ref.simulate import simulate_session
from desmoche_ref.store.write import batch, tablestate
from desmoche_ref.store.db import open_book
from desmoche_ref.store.trust.identity import recorder
from desmoche_ref.store.write.judging import Judging
from desmoche_ref.store.write.tablebook import TableBook
from desmoche_ref.store.schema.terms import StoreError

PLAYERS = ["Ana", "Beto", "Carla"]


def _tiny(count: int) -> bytes:
    """`count` hands that stop after the deal (incomplete: each carries the table's pots on, so
    the table's state reaches back to its first hand), the deal passing to the right."""
    hands = []
    for k in range(count):
        dealer = PLAYERS[k % 3]
        order = PLAYERS[PLAYERS.index(dealer) + 1:] + PLAYERS[:PLAYERS.index(dealer) + 1]
        deal = "".join(f"deal {p} ?x{10 if p == dealer else 9}\n" for p in order)
        hands.append(f'[Event "hand {k + 1}"]\n[Players "Ana Beto Carla"]\n[Dealer "{dealer}"]\n[Bet "10"]\n\n{deal}')
    return "\n".join(hands).encode()


def _prepared(book, data: bytes, table: str) -> list:
    """The file's hands as the judging side prepares them for the book, in file order."""
    judging = Judging(data, "night.dsm", table)
    try:
        with book.read() as session:
            judging.begin(recorder(session))
        return [p for prepared, *_ in judging for p in prepared]
    finally:
        judging.close()


def test_a_tables_hands_are_read_back_once_across_an_imports_transactions(book_url, monkeypatch):
    book = open_book(book_url)
    reads = []  # the table's hands read back from the book (newest first) for the laws across them
    newest_first = tablestate.newest_first
    monkeypatch.setattr(tablestate, "newest_first",
                        lambda *args, **kw: reads.append(args[1]) or newest_first(*args, **kw))
    hands = _prepared(book, _tiny(60), "tiny")
    writer = batch.HandBatch(book, "night.dsm", [])
    for start in range(0, 60, 6):
        writer.store(hands[start:start + 6])
    assert (writer.stored, len(reads)) == (60, 1)
    with book.read() as s:
        assert s.connection().exec_driver_sql("SELECT max(number) FROM hand").scalar() == 60


def test_a_hand_dealt_live_between_two_batches_stops_the_import_at_that_table(book_url):
    book = open_book(book_url)
    night = simulate_session(6, 3, seed=21).encode()
    hands = _prepared(book, night, "friday")
    writer = batch.HandBatch(book, "night.dsm", [])
    writer.store(hands[:3])
    live = TableBook(book, "friday")
    live.new_hand()  # a recorder deals the next hand: it is being recorded
    with pytest.raises(StoreError) as stopped:
        writer.store(hands[3:])
    assert stopped.value.args[0].format() == ("hand 4 at table friday is still being recorded: close it (`end` or "
                                              "`hand new`) before importing into this table")


def test_the_last_imported_hand_taken_back_between_two_batches_is_read_again(book_url):
    """An `undo` at the table reopens the import's last hand (its newest hand changes, though
    no hand was added): the next batch reads the table again and finds it being recorded."""
    book = open_book(book_url)
    hands = _prepared(book, simulate_session(6, 3, seed=22).encode(), "friday")
    writer = batch.HandBatch(book, "night.dsm", [])
    writer.store(hands[:3])
    TableBook(book, "friday").undo()  # the third hand's last move taken back: it reopens
    with pytest.raises(StoreError) as stopped:
        writer.store(hands[3:])
    assert "hand 3 at table friday is still being recorded" in stopped.value.args[0].format()


def _two_tables(count: int) -> bytes:
    """Two tables' nights in one file, their hands alternating, the first table's closed by its
    fourth hand's Closed tag (the hands after it there are refused)."""
    a = simulate_session(count, 3, seed=31).split("\n\n[Players")
    b = simulate_session(count, 3, seed=32).split("\n\n[Players")
    a = [a[0]] + ["[Players" + h for h in a[1:]]
    b = [b[0]] + ["[Players" + h for h in b[1:]]
    a[3] = '[Closed "yes"]\n' + a[3]
    return "\n\n".join(f'[Table "{t}"]\n{h.strip()}' for pair in zip(a, b) for t, h in zip("ab", pair)).encode()


def test_an_imports_journal_is_the_same_however_its_transactions_were_cut(tmp_path, monkeypatch):
    """On SQLite an import's batch is stored in transactions as short as the clock says
    (importer.SLICE): the rows it stores, the journal's included, are those of one transaction
    for the batch — the tables' seats following their last hands, and the Closed tag's close,
    where the batch ends."""
    from sqlalchemy import text

    from desmoche_ref.store.write import importer

    data = _two_tables(12)
    dumps = []
    for slice_seconds in (60.0, 0.0):  # one transaction a batch; then one a hand or two
        monkeypatch.setattr(importer, "SLICE", slice_seconds)
        book = open_book(str(tmp_path / f"book-{slice_seconds}.db"))
        done = importer.import_records(book, data, "night.dsm")
        with book.read() as s:
            journal = [tuple(r) for r in s.execute(text("SELECT kind, subject FROM journal ORDER BY id"))]
            tables = [tuple(r) for r in s.execute(text("SELECT name, players, bet, closed IS NULL FROM card_table"))]
        book.close()
        dumps.append((done.stored, len(done.rejected), journal, tables))
    assert dumps[0] == dumps[1]
    assert dumps[0][:2] == (16, 8)
    assert [kind for kind, _ in dumps[0][2]].count("follow") == 2  # one batch (the file's): each table once
