"""Issue 33's policies as the planners' and as courses `verify` replays (issue 32): a line sent
twice answered with no row, a hand voided at the table (its moves kept, its Void record's content
hash), `table close` taken back by `undo` and by `table reopen` — each a legal course of the
table, the book verifying whole, and its export imported into a fresh book storing the void hand
void with its `void` row, that book verifying too. And the other way round: a `reopen` row the
program would not write there (the table was not closed), written by the SQLite file's owner with
the program's own planners and writer, is named by `verify` with its table, row and writer."""

import json
import shutil

from sqlalchemy import create_engine, text

from conftest import FRIDAY_LINES as FRIDAY, Live, friday_table_book, recorder_of, template_book, verified
from desmoche_ref.store.db import open_book
from desmoche_ref.store.write.importer import import_records
from desmoche_ref.store.read.scorebook import Scorebook
from desmoche_ref.store.write.tablestate import BookState
from desmoche_ref.store.schema.terms import REOPEN
from desmoche_ref.store.write.book_writer import write


def _journal_kinds(book) -> list:
    with book.read() as s:
        return [k for (k,) in s.execute(text("SELECT kind FROM journal ORDER BY id"))]


def test_a_tables_club_night_is_a_course_verify_replays_and_its_export_imports_back(book_url, tmp_path):
    book = open_book(book_url)
    try:
        table = friday_table_book(book)
        for line in FRIDAY[:6]:
            table.record(line)
        rows = len(_journal_kinds(book))
        again = table.record(FRIDAY[5])  # sent twice: the move it was, nothing written
        stale = table.record(FRIDAY[3], expect_seq=3)  # a recorder who saw move 3 sends move 4 again
        assert (again.unchanged, again.seq, stale.unchanged, stale.seq) == (True, 6, True, 4)
        assert len(_journal_kinds(book)) == rows
        voided = table.void("the deck was short a card")
        assert (voided.number, voided.seq) == (1, 7)
        table.new_hand("Ana")  # a void hand's dealer deals again
        for line in FRIDAY + ["end"]:
            table.record(line)
        closed = table.close()
        assert closed.closed_number is None and table.closed_table
        assert type(table.undo()).__name__ == "TableReopened" and not table.closed_table
        table.close()
        assert table.reopen().name == "friday"
        kinds = _journal_kinds(book)
        assert kinds.count("reopen") == 2 and kinds.count("close") == 2
        with book.read() as s:
            digest, status = s.execute(text("SELECT content_hash, status FROM hand WHERE number = 1")).one()
        assert status == "void" and digest is not None  # known by its export's content (N9.6)
        with Scorebook(book).export() as stream:
            records = [record for _table, _number, record in stream]
    finally:
        book.engine.dispose()
    assert verified(Live(book_url)("verify").stdout) == "2 hands, 37 moves, 20 postings: all in order\n"
    assert '[Void "the deck was short a card"]' in records[0] and len(records) == 2
    other_path = tmp_path / "other.db"
    shutil.copy(template_book("sqlite"), other_path)
    other = open_book(f"sqlite:///{other_path}")
    try:
        done = import_records(other, "\n".join(records).encode("utf-8"), "friday.dsm")
        again = import_records(other, "\n".join(records).encode("utf-8"), "friday.dsm")
        with other.read() as s:
            hands = s.execute(text("SELECT number, status, content_hash FROM hand ORDER BY number")).all()
            void_row = s.execute(text("SELECT e.line, e.comment FROM event e JOIN hand h ON h.id = e.hand_id "
                                      "WHERE h.number = 1 ORDER BY e.seq DESC LIMIT 1")).one()
    finally:
        other.engine.dispose()
    assert (done.stored, done.rejected, again.stored, again.known) == (2, [], 0, 2)  # the void hand known once
    assert [(n, status) for n, status, _ in hands] == [(1, "void"), (2, "complete")]
    assert hands[0][2] == digest and tuple(void_row) == ("void", "the deck was short a card")
    assert verified(Live(f"sqlite:///{other_path}")("verify").stdout) == \
        "2 hands, 37 moves, 20 postings: all in order\n"


def test_attack_the_files_owner_journals_a_reopen_of_a_table_never_closed(tmp_path):
    """The SQLite file's owner, with the program's own planners and writer: a `reopen` row (the
    table's row as the program would write it) at a table that was never closed. No command
    writes it there: `table reopen` refuses a table that is not closed."""
    path = tmp_path / "book.db"
    shutil.copy(template_book("sqlite"), path)
    url = f"sqlite:///{path}"
    book = open_book(url)
    try:
        table = friday_table_book(book)
        for line in FRIDAY + ["end"]:
            table.record(line)
    finally:
        book.engine.dispose()
    engine = create_engine(url)
    with engine.begin() as conn:
        table_id = conn.exec_driver_sql("SELECT id FROM card_table WHERE name = 'friday'").scalar()
        state = BookState(conn, table_id, recorder_of(url))
        state.update_table(REOPEN, closed=None)
        write(conn, [state.plan])
        row = conn.exec_driver_sql("SELECT max(id) FROM journal").scalar()
    engine.dispose()
    found = verified(Live(url)("verify", status=1).stdout).splitlines()
    assert found[0] == (f"table friday hand 1: journal row {row} (reopen, written by {recorder_of(url)}) is not what "
                        "the program writes at this point of the table's course: the program refuses it here: "
                        "table friday is not closed")
    assert json.loads(Live(url)("verify", "--json", status=1).stdout)["problems"]


def test_verify_keeps_a_window_of_a_long_tables_hands(tmp_path, monkeypatch):
    """verify's course of a table lets go of the hands no write reaches and the laws no longer
    read (older than the latest complete hand that carried nothing in): its memory a window of
    the table's, not the table — and the book verifies as whole as before."""
    from desmoche_ref.sim.night import simulate_session
    from desmoche_ref.store.trust import book_replay as replaybook

    path = tmp_path / "book.db"
    shutil.copy(template_book("sqlite"), path)
    book = open_book(f"sqlite:///{path}")
    try:
        assert import_records(book, simulate_session(40, 3, seed=5).encode(), "long.dsm").stored == 40
    finally:
        book.engine.dispose()
    monkeypatch.setattr(replaybook, "LOOKAHEAD", 4)  # a window of a few rows: hands let go as it goes
    held = []
    forget = replaybook.forget
    monkeypatch.setattr(replaybook, "forget", lambda c: forget(c) or held.append(len(c.hands)))
    from desmoche_ref.store.trust.verify import verify_book

    book = open_book(f"sqlite:///{path}")
    try:
        with book.read() as s:
            problems, counts, _head = verify_book(s)
    finally:
        book.engine.dispose()
    assert problems == [] and counts["hands"] == 40
    assert held and max(held[len(held) // 2:]) < 20  # past the first hands: a window, not the table
