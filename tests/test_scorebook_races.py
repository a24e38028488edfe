"""Writers racing at one table, on SQLite and PostgreSQL (issue 16): two and eight threads,
each with its own connection, type the same night's moves, then race `end` against `hand
new`, then `hand new` against `hand new`. Every write locks the table's row and reads the
hand afresh under it (store/write/tablebook.py): the loser of each race is told so (HandChanged:
exit 3 at the command line) and changes nothing. After each round the laws hold: each move
stored once, in order, with no gap; the hand closed and posted once; `verify` and the money
audit find nothing."""

import threading

import pytest

from desmoche_ref.store.db import open_book
from desmoche_ref.store.write.tablebook import HandChanged, StoreError, TableBook, create_table
from test_store_core import friday_lines

MOVES = friday_lines()


def race(url: str, writers: int, act) -> list:
    """Run `act(table, i)` in `writers` threads at once, each on a book of its own; the list
    of what each returned (or the exception it raised)."""
    start = threading.Barrier(writers)
    results = [None] * writers

    def run(i):
        book = open_book(url)
        try:
            table = TableBook(book, "night")
            start.wait()
            results[i] = act(table, i)
        except (HandChanged, StoreError) as e:
            results[i] = e
        finally:
            book.engine.dispose()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


def laws(book) -> None:
    from desmoche_ref.store.read.league import audit
    from desmoche_ref.store.trust.verify import verify_book

    with book.read() as s:
        assert verify_book(s)[0] == []
    with book.connect() as conn:
        assert audit(conn) == []


def stored(book, number=1) -> list:
    table = TableBook(book, "night")
    return [(r.seq, r.line) for r in table.view(number).log]


@pytest.mark.slow
@pytest.mark.parametrize("writers", [2, 8])
def test_racing_writers_store_each_move_once_and_post_once(book_url, writers):
    book = open_book(book_url)
    create_table(book, "night", ["Ana", "Beto", "Carla"], 1000, options="todo",
                 sides=[("oro", 500, ["Ana", "Beto", "Carla"])])
    TableBook(book, "night").new_hand("Ana")

    def type_next_moves(table, i):
        """Type the night's next move, as every recorder at the table does, until it is done."""
        mine = 0
        while True:
            table.reload()
            if table.seq >= len(MOVES):
                return mine
            try:
                done = table.record(MOVES[table.seq], table.seq)
                mine += not done.unchanged  # the same move another stored first: stored once (issue 33)
            except HandChanged:
                pass  # another typed it first: look again

    typed = race(book_url, writers, type_next_moves)
    assert sum(typed) == len(MOVES)  # each move stored by exactly one writer
    assert stored(book) == list(enumerate(MOVES, 1))
    laws(book)

    def end_or_new(table, i):
        return table.record("end", table.seq).closing is not None if i % 2 else table.new_hand(expect_number=1)

    results = race(book_url, writers, end_or_new)
    winners = [r for r in results if not isinstance(r, Exception)]
    assert all(isinstance(r, HandChanged) for r in results if isinstance(r, Exception)), results
    assert len([r for r in winners if r is not False]) >= 1
    with book.connect() as conn:
        from sqlalchemy import text

        hands = conn.execute(text("SELECT number, status FROM hand ORDER BY number")).all()
        postings = conn.execute(text("SELECT count(*) FROM posting JOIN hand ON hand.id = posting.hand_id "
                                     "WHERE hand.number = 1")).scalar()
    assert hands[0] == (1, "complete") and postings == 20  # posted once, whoever closed it
    laws(book)

    table = TableBook(book, "night")
    if table.number == 1:
        table.new_hand(expect_number=1)
    results = race(book_url, writers, lambda table, i: table.new_hand(expect_number=2).hand.number)
    # hand 2 has no move: each `hand new` deals it again, the same (docs/rulings.md R3.1), and
    # writes nothing: one hand 2, no hand 3, nothing lost or doubled
    assert results == [2] * writers, results
    with book.connect() as conn:
        from sqlalchemy import text

        assert conn.execute(text("SELECT max(number), count(*) FROM hand")).one() == (2, 2)
        assert conn.execute(text("SELECT count(*) FROM journal WHERE kind = 'redeal'")).scalar() == 0
    table.record("deal Beto ?x9")
    results = race(book_url, writers, lambda table, i: table.new_hand(expect_number=2).hand.number)
    assert all(isinstance(r, StoreError) for r in results), results  # hand 2 is not over: never closed
    laws(book)
    book.engine.dispose()


def test_two_tables_with_the_same_new_players_at_once(book_url):
    """Two `table new` on an empty book with the same new players: both made, each player
    once (no IntegrityError)."""
    results = [None, None]
    start = threading.Barrier(2)

    def make(i):
        book = open_book(book_url)
        try:
            start.wait()
            results[i] = create_table(book, f"t{i}", ["Ana", "Beto", "Carla"], 1000).name
        finally:
            book.engine.dispose()

    open_book(book_url).engine.dispose()  # the schema made once, before the race
    threads = [threading.Thread(target=make, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == ["t0", "t1"]
    book = open_book(book_url)
    with book.connect() as conn:
        from sqlalchemy import text

        assert conn.execute(text("SELECT name FROM player ORDER BY name")).scalars().all() == ["Ana", "Beto", "Carla"]
    book.engine.dispose()
