"""Two recorders at once, on SQLite and PostgreSQL, as two real processes: each looks at the
hand, judges its move and stores it expecting the seq it saw (store/write/tablebook.py). Nothing is
lost or duplicated: the log holds every accepted move once, in seq order with no gap; the
slower recorder is told "the hand changed" and stores nothing."""

import pathlib
import subprocess
import sys

import pytest

from desmoche_ref.store.read import hands as H
from desmoche_ref.store.db import open_book
from desmoche_ref.store.write.tablebook import HandChanged, TableBook, create_table
from test_store_core import friday_lines

ROOT = pathlib.Path(__file__).parent.parent
MOVES = 15
OPENING = friday_lines()[:8]  # to `draw Beto 2d`

RECORDER = """\
import sys
from desmoche_ref.store.db import open_book
from desmoche_ref.store.write.tablebook import HandChanged, TableBook

book = open_book(sys.argv[1])
accepted = []
while len(accepted) < int(sys.argv[3]):
    table = TableBook(book)
    try:
        done = table.record("knock " + sys.argv[2], table.seq)
    except HandChanged:
        continue
    if not done.unchanged:  # a knock right after one's own changes nothing: not stored twice
        accepted.append(done.seq)
print(" ".join(map(str, accepted)))
"""


def new_book(url: str):
    """Table `bench`, one hand at friday's 8th move (2d on offer: anyone may knock)."""
    book = open_book(url)
    create_table(book, "bench", ["Ana", "Beto", "Carla"], 1000)
    table = TableBook(book, "bench")
    table.new_hand(dealer="Ana")
    for line in OPENING:
        table.record(line)
    return book


@pytest.mark.slow
def test_two_processes_append_to_one_hand(book_url):
    new_book(book_url).engine.dispose()
    procs = [subprocess.Popen([sys.executable, "-c", RECORDER, book_url, p, str(MOVES)],
                              stdout=subprocess.PIPE, text=True, env={"PYTHONPATH": str(ROOT)})
             for p in ("Ana", "Carla")]
    accepted = {p: list(map(int, proc.communicate(timeout=300)[0].split()))
                for p, proc in zip(("Ana", "Carla"), procs)}
    assert all(proc.returncode == 0 for proc in procs)
    book = open_book(book_url)
    with book.read() as s:
        rows = H.events(s, H.find_hand(s, H.find_table(s)))
    book.engine.dispose()
    assert [r.seq for r in rows] == list(range(1, len(OPENING) + 2 * MOVES + 1))
    for player, seqs in accepted.items():
        assert [r.seq for r in rows if r.line == f"knock {player}"] == seqs and len(seqs) == MOVES


def test_the_slower_recorder_stores_nothing(book_url):
    from sqlalchemy.exc import IntegrityError

    from desmoche_ref.store.write import course
    from desmoche_ref.store.write.tablestate import BookState
    from desmoche_ref.store.write.book_writer import write

    book = new_book(book_url)
    first, second = TableBook(book), TableBook(book)  # both look at move 8
    stale = second.hand().copy()
    assert first.record("knock Ana").seq == 9
    with pytest.raises(HandChanged) as changed:
        second.record("claim Carla")
    assert str(changed.value) == "the hand changed (now at move 9): look and try again"
    assert second.seq == 9  # it read the hand again
    with pytest.raises(IntegrityError):  # the (hand, seq) key stops a writer that skips the check
        with book.write() as s:
            state = BookState(s.connection(), second.table_id, "someone")
            course.record(state, state.adopt(stale), "claim Carla")  # planned on the hand as it was at move 8
            write(s.connection(), [state.plan])
    with book.read() as s:
        assert [r.line for r in H.events(s, H.find_hand(s, H.find_table(s)))][-2:] == ["draw Beto 2d", "knock Ana"]
    book.engine.dispose()
