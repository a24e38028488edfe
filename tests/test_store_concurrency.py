"""Two recorders at once, on SQLite and PostgreSQL, as two real processes: each looks at the
hand, judges its move and stores it expecting the seq it saw. Nothing is lost or duplicated:
the log holds every accepted move once, in seq order with no gap; the slower recorder is told
"the hand changed" and stores nothing."""

import pathlib
import subprocess
import sys

import pytest

from desmoche_ref.store import hands as H
from desmoche_ref.store.db import open_book

ROOT = pathlib.Path(__file__).parent.parent
MOVES = 15


def test_two_processes_append_to_one_hand(book_url):
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_live import OPENING, new_book

    new_book(book_url, 0)
    script = ("import queue, sys\n"
              f"sys.path.insert(0, {str(ROOT / 'bench')!r})\n"
              "from bench_live import recorder\n"
              "q = queue.Queue()\n"
              f"recorder({book_url!r}, sys.argv[1], {MOVES}, q)\n"
              "player, accepted, changed = q.get()\n"
              "print(' '.join(map(str, accepted)))\n")
    procs = [subprocess.Popen([sys.executable, "-c", script, p], stdout=subprocess.PIPE, text=True,
                              env={"PYTHONPATH": str(ROOT)}) for p in ("Ana", "Carla")]
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
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_live import new_book

    new_book(book_url, 0)
    book = open_book(book_url)
    with book.read() as s:  # both recorders look at move 8
        hand = H.find_hand(s, H.find_table(s))
        rows = H.events(s, hand)
    first = H.judge_move(hand, rows, "knock Ana")
    second = H.judge_move(hand, rows, "claim Carla")
    with book.write() as s:
        hand = H.find_hand(s, H.find_table(s))
        H.expect(s, hand, 8)
        H.insert_event(s, hand, first[0], first[1], 8, rows[-1].hash)
    with pytest.raises(H.HandChanged) as changed:
        with book.write() as s:
            hand = H.find_hand(s, H.find_table(s))
            H.expect(s, hand, 8)
            H.insert_event(s, hand, second[0], second[1], 8, rows[-1].hash)
    assert str(changed.value) == "the hand changed (now at move 9): look and try again"
    with pytest.raises(H.HandChanged):  # the (hand, seq) key stops a writer that skips the check
        with book.write() as s:
            hand = H.find_hand(s, H.find_table(s))
            H.insert_event(s, hand, second[0], second[1], 8, rows[-1].hash)
    with book.read() as s:
        assert [r.line for r in H.events(s, H.find_hand(s, H.find_table(s)))][-2:] == ["draw Beto 2d", "knock Ana"]
    book.engine.dispose()
