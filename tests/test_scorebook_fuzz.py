"""2,000 random lines through the scorebook on SQLite, 800 on PostgreSQL (issue 16): random verbs
with real and wrong cards and players, the simulator's legal moves among them, `end`, `undo` and new hands, typed at one
table through the service every front end uses (store/write/tablebook.py). Whatever is refused
changes nothing; afterwards `verify` finds nothing, the money audit finds nothing, and each
stored hand's verdict is `check`'s on its exported record."""

import random

import pytest

from desmoche_ref.notation.parser import VERBS
from desmoche_ref.sim.night import simulate_session
from desmoche_ref.store.db import open_book
from desmoche_ref.store.write.tablebook import (HandChanged, Refused, StoreError, TableBook,
                                                create_table)

LINES = {"sqlite": 2000, "postgresql": 800}  # PostgreSQL: its own store's paths, not the referee again
PLAYERS = ["Ana", "Beto", "Carla"]
NAMES = PLAYERS + ["Zed", "ana", "Dani", ""]
CARDS = [r + s for r in "23456789TJQKA" for s in "shdc"] + ["1x", "?", "Xs", "10h", "2"]
WORDS = ["oro", "peladilla", "peek", "hand", "other", "to", "a", "flor", "#note"]


def random_line(rng: random.Random) -> str:
    verb = rng.choice(list(VERBS) + ["draw", "pay", "meld", "claim", "knock", "robar", "xyz"])
    parts = [verb, rng.choice(NAMES)]
    parts += [rng.choice(CARDS + WORDS) for _ in range(rng.choice((0, 1, 1, 2, 3, 9)))]
    return " ".join(p for p in parts if p)


def scripted_hands():
    """Legal nights: the simulator's first hands (dealer Ana), each as its lines."""
    from desmoche_ref.notation.parser import parse_text, split_comment

    out = []
    for seed in range(6):
        text = simulate_session(1, 3, seed=100 + seed, vary=False)
        hand = parse_text(text).hands[0]
        sides = [[t.value.split()[0], int(round(float(t.value.split()[1]) * 100)), t.value.split()[2:]]
                 for t in hand.tags_named("Side")]
        lines = [split_comment(line)[0].strip() for line in text.splitlines()]
        out.append((sides, [line for line in lines if line and not line.startswith("[")]))
    return out


def counts(book) -> tuple:
    from sqlalchemy import text

    with book.connect() as conn:
        return tuple(conn.execute(text(f"SELECT count(*) FROM {t}")).scalar()
                     for t in ("hand", "event", "posting", "journal"))


@pytest.mark.slow
def test_two_thousand_random_lines_leave_a_sound_book(book_url):
    from desmoche_ref.referee import judge_text
    from desmoche_ref.store.read.league import audit, export_hands
    from desmoche_ref.store.trust.verify import verify_book

    rng = random.Random(16)
    budget = LINES["sqlite" if book_url.startswith("sqlite") else "postgresql"]
    book = open_book(book_url)
    create_table(book, "fuzz", PLAYERS, 1000, sides=[("oro", 500, PLAYERS)])
    table = TableBook(book, "fuzz")
    scripts = scripted_hands()
    script = []
    stored = refused = 0
    for _ in range(budget):
        roll = rng.random()
        try:
            if table.number is None or (not script and roll < 0.6):
                sides, lines = scripts[rng.randrange(len(scripts))]
                table.new_hand("Ana", sides)  # refused while the hand is half played
                script = list(lines)
                stored += 1
                continue
            if roll < 0.04 and table.seq:
                done = table.undo(table.seq)  # a correction, then the same line again
                if done.line != "undo":
                    table.record(done.line, table.seq)
                stored += 2
                continue
            if roll < 0.06:
                line = "end"
            elif roll < 0.6 and script:
                line = script.pop(0)
            else:
                line = random_line(rng)
            before = counts(book)
            try:
                done = table.record(line, table.seq)
                stored += not done.unchanged
            except (Refused, StoreError):
                assert counts(book) == before  # a refused line changes nothing
                refused += 1
        except (Refused, StoreError):  # a hand new while a hand is half played, an undo of nothing
            refused += 1
        except HandChanged:
            table.reload()
    assert stored > budget // 10 and refused > budget // 4
    with book.read() as s:
        assert verify_book(s)[0] == []
    with book.connect() as conn:
        assert audit(conn) == []
        exported = list(export_hands(conn))
        statuses = dict(conn.exec_driver_sql("SELECT number, status FROM hand").all())
    for _table, number, text in exported:
        if statuses[number] in ("complete", "incomplete", "invalid"):
            assert [h.status for h in judge_text(text).hands] == [statuses[number]]
    book.engine.dispose()
