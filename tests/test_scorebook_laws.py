"""The scorebook's laws as a state machine (hypothesis `RuleBasedStateMachine`), on SQLite and
PostgreSQL: random sequences of scorebook commands — tables, hands, the simulator's legal
moves and lines the rules refuse, undo, bet changes, closes, imports of simulated records,
two tables, two recorders interleaved — through the one service every front end uses
(store/write/tablebook.py). After every step:
- `verify` finds nothing and the money audit finds nothing (every hand's postings sum to
  zero, the standings are the postings' sums);
- a refused or lost command changed nothing (row counts and the last move's hash equal);
- a recorder that looked before another wrote never writes (HandChanged), and reads again.
At the end of each run: each stored hand's verdict is `check`'s on its record, and an export
imported into a fresh book gives the same standings, ledger totals and settle-up.
"""

import functools
import os
import shutil
import sqlite3
import tempfile

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from conftest import _pg_conninfo, fresh_pg_book, template_book
from desmoche_ref.sim.night import simulate_session
from desmoche_ref.store.db import open_book
from desmoche_ref.store.write.tablebook import (HandChanged, Refused, StoreError, TableBook,
                                                create_table)

PLAYERS = ["Ana", "Beto", "Carla"]
NOT_PLAYED = ["draw Zed 2d", "pay Ana 1x", "meld Beto", "cut", "knock Dani", "deal Ana 2s 2s"]
SEEDS = range(12)


def _hand_records():
    """Simulated first hands (dealer Ana, nothing carried): (side games, their lines), and
    each one's tag lines."""
    from desmoche_ref.notation.parser import parse_text, split_comment

    records, headers = [], []
    for seed in SEEDS:
        text = simulate_session(1, 3, seed=seed, vary=False)
        hand = parse_text(text).hands[0]
        sides = []
        for tag in hand.tags_named("Side"):
            game, stake, *names = tag.value.split()
            sides.append([game, int(round(float(stake) * 100)), names])
        lines = [split_comment(line)[0].strip() for line in text.splitlines()]
        records.append((sides, [line for line in lines if line and not line.startswith("[")]))
        headers.append("\n".join(line for line in lines if line.startswith("[")))
    return records, headers


RECORDS, HEADERS = _hand_records()


@functools.lru_cache(maxsize=4096)
def played_out(which: int, lines: tuple) -> bool:
    """`check`'s verdict on record `which` cut after `lines`: its play is over (complete)."""
    from desmoche_ref.referee import judge_text

    return judge_text(HEADERS[which] + "\n\n" + "\n".join(lines) + "\n").hands[0].status == "complete"
SESSION = simulate_session(4, 3, seed=7, vary=False)  # imported whole, as a season's file


class Book:
    """A fresh book for one run: a copy of a book the program made (conftest.template_book)."""

    def __init__(self, engine_name: str):
        self.engine_name, self.drop, self.version = engine_name, None, None
        if engine_name == "sqlite":
            self.folder = tempfile.mkdtemp(prefix="dsm-laws-")
            path = os.path.join(self.folder, "book.db")
            shutil.copy(template_book("sqlite"), path)
            self.url = "sqlite:///" + path
            # a connection of the test's own that never writes: its PRAGMA data_version changes
            # with every commit of any other connection to the file (SQLite's contract)
            self.watch = sqlite3.connect(path, isolation_level=None)
        else:
            import psycopg

            self.url, self.drop = fresh_pg_book(os.environ["DESMOCHE_TEST_PG"])
            self.watch = psycopg.connect(**_pg_conninfo(self.url))
        self.book = open_book(self.url)

    def unchanged(self) -> bool:
        """Nothing committed to the book since the last call. SQLite: the file's data_version
        is the same. PostgreSQL: no transaction anywhere on the server took a transaction id
        (every write takes one, and the book's writers here have finished theirs): the
        server's next one is the same."""
        query = "PRAGMA data_version" if self.engine_name == "sqlite" else \
            "SELECT pg_snapshot_xmax(pg_current_snapshot())::text"
        version = self.watch.execute(query).fetchone()[0]
        same, self.version = version == self.version, version
        return same

    def fresh(self):
        """Another empty book of the same engine (the export's destination)."""
        return Book(self.engine_name)

    def close(self):
        self.watch.close()
        self.book.engine.dispose()
        if self.drop is not None:
            self.drop()
        else:
            shutil.rmtree(self.folder, ignore_errors=True)


def snapshot(book) -> tuple:
    """What a refused command must leave as it was: every table's row count, the last hash."""
    from sqlalchemy import text

    with book.connect() as conn:
        counts = tuple(conn.execute(text(f"SELECT count(*) FROM {t}")).scalar()
                       for t in ("card_table", "hand", "event", "posting", "player"))
        last = conn.execute(text("SELECT hash FROM event ORDER BY id DESC LIMIT 1")).scalar()
        bets = tuple(conn.execute(text("SELECT name, bet, closed FROM card_table ORDER BY name")).all())
    return counts, last, bets


def money(book) -> dict:
    """Standings, settle-up balances and ledger totals per account and kind: what an export
    must carry over exactly."""
    from desmoche_ref.store.read.league import balances, ledger, standings

    with book.connect() as conn:
        totals = {}
        for e in ledger(conn):
            totals[(e.account, e.kind)] = totals.get((e.account, e.kind), 0) + e.amount
        shown = standings(conn).as_json()
        # a player whose every figure is nought (a hand posted, then reopened by an undo and
        # reversed) has a row in the book and none in its copy: the same money either way
        shown["players"] = [row for row in shown["players"]
                            if any(v not in (0, "0.00") for k, v in row.items() if k != "player")]
        return {"standings": shown, "balances": balances(conn),
                "ledger": {k: v for k, v in totals.items() if v}}


class Laws(RuleBasedStateMachine):
    ENGINE = "sqlite"

    def __init__(self):
        super().__init__()
        self.store = Book(self.ENGINE)
        self.book = self.store.book
        self.tables = {}    # name -> TableBook (the first recorder)
        self.others = {}    # name -> TableBook (a second recorder, read at some point)
        self.pending = {}   # name -> the simulated hand's lines still to record
        self.done = {}      # name -> the lines recorded of the hand (for undo)
        self.record_of = {}  # name -> which of RECORDS its hand is
        self.closed = set()
        self.bet_moved = set()  # tables whose bet changed after their hand closed

    def teardown(self):
        try:
            # the night ends: a hand over but not yet closed is closed (`end`), as the recorder
            # does before the book is exported (an export holds the hand as its record stands,
            # and importing it posts it: docs/rulings.md)
            for name in self.open_tables():
                table = TableBook(self.book, name)
                if table.number is not None and not table.closed and table.ref.status == "complete":
                    table.record("end")
            self.check_records_and_export()
        finally:
            self.store.close()

    # ------------------------------------------------------------ helpers
    def open_tables(self):
        return sorted(n for n in self.tables if n not in self.closed)

    def over(self, name) -> bool:
        """The table's hand is played out: none yet, all its record's lines recorded, or
        `check` says the lines so far complete it (what its record has left, `end` and
        cards shown, may come after it is closed)."""
        return not self.pending[name] or played_out(self.record_of[name], tuple(self.done[name]))

    def half_played(self, name) -> bool:
        """Moves standing, the hand neither closed (`end`) nor played out: it is never closed
        (`hand new`, `table close` are refused); nor, played out, while a side-game claim may
        still be shown (R4.5: only `end` gives it up)."""
        done = self.done[name]
        if not done or "end" in done:
            return False
        if not self.over(name):
            return True
        table = TableBook(self.book, name)
        return not table.closed and bool(table.ref.pending_claims())

    def refused_changes_nothing(self, action, *errors):
        before = snapshot(self.book)
        with pytest.raises(errors or (Refused, StoreError)):
            action()
        assert snapshot(self.book) == before

    def recorded(self, table: TableBook, line: str):
        """Record with the first recorder; if the other wrote first, it is told so (nothing
        stored) and, having read the hand again, can."""
        try:
            return table.record(line, table.seq)
        except HandChanged:
            return table.record(line, table.seq)

    # ------------------------------------------------------------ rules
    @precondition(lambda self: len(self.open_tables()) < 2)
    @rule()
    def new_table(self):
        name = f"t{len(self.tables) + 1}"
        create_table(self.book, name, PLAYERS, 1000)
        self.tables[name] = TableBook(self.book, name)
        self.others[name] = TableBook(self.book, name)
        self.pending[name], self.done[name] = [], []

    @precondition(lambda self: self.open_tables())
    @rule(data=st.data(), which=st.sampled_from(range(len(RECORDS))))
    def new_hand(self, data, which):
        name = data.draw(st.sampled_from(self.open_tables()))
        sides, lines = RECORDS[which]
        table = TableBook(self.book, name)  # a recorder who looks now
        if self.half_played(name):
            if sides == RECORDS[self.record_of[name]][0] and not self.over(name):
                # the hand Ana is dealing, asked for again: dealt already, nothing done (issue 33)
                before = snapshot(self.book)
                assert table.new_hand("Ana", sides, table.number or 0).already == table.seq
                assert snapshot(self.book) == before
                return
            self.refused_changes_nothing(lambda: table.new_hand("Ana", sides, table.number or 0), StoreError)
            return
        table.new_hand("Ana", sides, table.number or 0)
        self.pending[name], self.done[name], self.record_of[name] = list(lines), [], which
        self.bet_moved.discard(name)

    @precondition(lambda self: any(self.pending.get(n) for n in self.open_tables()))
    @rule(data=st.data(), steps=st.integers(1, 12))
    def play_moves(self, data, steps):
        name = data.draw(st.sampled_from([n for n in self.open_tables() if self.pending[n]]))
        for _ in range(steps):
            if not self.pending[name]:
                break
            line = self.pending[name].pop(0)
            done = self.recorded(self.tables[name], line)
            assert not done.unchanged and done.line == line
            self.done[name].append(line)

    @precondition(lambda self: any(self.pending.get(n) for n in self.open_tables()))
    @rule(data=st.data())
    def other_recorder_moves(self, data):
        """The second recorder records the next move: stored if it held the hand as the book
        has it, else HandChanged and nothing stored (it reads again, then stores)."""
        name = data.draw(st.sampled_from([n for n in self.open_tables() if self.pending[n]]))
        other, now = self.others[name], TableBook(self.book, name)
        line = self.pending[name][0]
        if (other.number, other.seq, other.closed) != (now.number, now.seq, now.closed):
            self.refused_changes_nothing(lambda: other.record(line, other.seq), HandChanged)
            assert (other.number, other.seq) == (now.number, now.seq)  # it read the hand again
        other.record(line, other.seq)
        self.pending[name].pop(0)
        self.done[name].append(line)

    @precondition(lambda self: self.open_tables())
    @rule(data=st.data(), line=st.sampled_from(NOT_PLAYED))
    def a_line_the_rules_refuse(self, data, line):
        table = TableBook(self.book, data.draw(st.sampled_from(self.open_tables())))
        self.refused_changes_nothing(lambda: table.record(line), StoreError if table.number is None else Refused)

    @precondition(lambda self: any(self.done.get(n) for n in self.open_tables()))
    @rule(data=st.data())
    def undo(self, data):
        name = data.draw(st.sampled_from([n for n in self.open_tables() if self.done[n]]))
        table = self.tables[name]
        table.reload()
        if name in self.bet_moved and table.closed and "end" not in self.done[name][:-1]:
            # it would reopen the hand under a bet changed after it (R2.2): refused
            self.refused_changes_nothing(lambda: table.undo(table.seq), StoreError)
            return
        done = table.undo(table.seq)
        line = self.done[name].pop()
        assert done.line == line
        self.pending[name].insert(0, line)

    def may_end(self, name) -> bool:
        done = self.done.get(name)
        return bool(done) and "end" not in done and self.over(name)

    @precondition(lambda self: any(self.may_end(n) for n in self.open_tables()))
    @rule(data=st.data())
    def end(self, data):
        name = data.draw(st.sampled_from([n for n in self.open_tables() if self.may_end(n)]))
        done = self.recorded(self.tables[name], "end")
        assert done.closing is not None and not done.unchanged
        self.done[name].append("end")
        self.pending[name] = [line for line in self.pending[name] if line != "end"]  # ended here
        again = self.tables[name].record("end")  # once more changes nothing: not stored twice
        assert again.unchanged and again.seq == done.seq

    @precondition(lambda self: self.open_tables())
    @rule(data=st.data(), bet=st.sampled_from([500, 1000, 2000]))
    def bet_change(self, data, bet):
        name = data.draw(st.sampled_from(self.open_tables()))
        table = TableBook(self.book, name)
        before = snapshot(self.book)
        try:
            table.set_bet(bet)
        except StoreError:  # mid-hand (R2.2), a pot carried (R2.3), or the same bet
            assert snapshot(self.book) == before
        else:
            self.bet_moved.add(name)

    @precondition(lambda self: self.open_tables())
    @rule(data=st.data())
    def close_table(self, data):
        name = data.draw(st.sampled_from(self.open_tables()))
        table = TableBook(self.book, name)
        if self.half_played(name):
            self.refused_changes_nothing(table.close, StoreError)
            return
        table.close()
        self.closed.add(name)

    @precondition(lambda self: self.closed)
    @rule(data=st.data(), how=st.sampled_from(["undo", "reopen"]))
    def reopen_table(self, data, how):
        """`undo` right after `table close`, or `table reopen`: the table open again as it was
        (its returns taken back); the hand the close ended stays ended (issue 33)."""
        name = data.draw(st.sampled_from(sorted(self.closed)))
        table = TableBook(self.book, name)
        reopened = table.undo() if how == "undo" else table.reopen()
        assert reopened.name == name and not TableBook(self.book, name).closed_table
        self.closed.discard(name)
        done = self.done[name]
        if done and "end" not in done:  # the close wrote the `end` of the hand it closed
            done.append("end")
            self.pending[name] = [line for line in self.pending[name] if line != "end"]

    @precondition(lambda self: "imported" not in self.tables)
    @rule()
    def import_a_season(self):
        from desmoche_ref.store.write.importer import import_records

        done = import_records(self.book, SESSION.encode(), "season.dsm", "imported")
        assert done.stored == 4 and not done.rejected
        again = import_records(self.book, SESSION.encode(), "season.dsm", "imported")
        assert again.stored == 0 and again.known == 4  # known by its content: stored once
        self.tables["imported"] = TableBook(self.book, "imported")
        self.others["imported"] = TableBook(self.book, "imported")
        self.pending["imported"], self.done["imported"] = [], []

    # ------------------------------------------------------------ laws
    @invariant()
    def the_book_passes_its_own_audit(self):
        """After every step; a step that committed nothing (a refusal, a line sent twice) left
        the book the audit last passed, byte for byte: not audited again (Book.unchanged)."""
        from desmoche_ref.store.read.league import audit
        from desmoche_ref.store.trust.verify import verify_book

        if self.store.unchanged():
            return
        with self.book.read() as s:
            problems = verify_book(s)[0]
        assert problems == []
        with self.book.connect() as conn:
            assert audit(conn) == []

    def check_records_and_export(self):
        """Each hand's stored verdict is `check`'s on its record; the export imports back
        into a fresh book with the same money."""
        from desmoche_ref.referee import judge_text
        from desmoche_ref.store.write.importer import import_records
        from desmoche_ref.store.read.league import export_hands

        with self.book.connect() as conn:
            exported = list(export_hands(conn))
            statuses = dict(((t, n), s) for t, n, s in conn.exec_driver_sql(
                "SELECT card_table.name, hand.number, hand.status FROM hand "
                "JOIN card_table ON card_table.id = hand.table_id").all())
        for table, number, text in exported:
            stored = statuses[(table, number)]
            if stored in ("complete", "incomplete", "invalid"):
                assert [h.status for h in judge_text(text).hands] == [stored]
        copy = self.store.fresh()
        try:
            data = "\n".join(text for _t, _n, text in exported).encode()
            if data:
                import_records(copy.book, data, "export.dsm")
            assert money(copy.book) == money(self.book)
        finally:
            copy.close()


# Fewer runs, each longer: a run's fixed cost (a book, the export at the end) is paid less
# often, and a run reaches what only a long sequence of commands reaches (an export broken by
# a hand just begun at one table before another table's hand was found at 28 steps)
LAWS_SETTINGS = settings(max_examples=int(os.environ.get("DESMOCHE_LAWS_EXAMPLES", "40")),
                         stateful_step_count=int(os.environ.get("DESMOCHE_LAWS_STEPS", "30")), deadline=None,
                         # a failure is printed as found: shrinking a run of book commands takes minutes
                         phases=[Phase.explicit, Phase.reuse, Phase.generate],
                         suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


class PostgresLaws(Laws):
    ENGINE = "postgresql"


NO_SERVER = pytest.mark.skipif(not os.environ.get("DESMOCHE_TEST_PG"), reason=(
    "PostgreSQL: no server given (DESMOCHE_TEST_PG unset; `.ci/postgres start DIR` starts one)"))


def _in_parts(machine, name: str, examples: int, parts: int, *marks):
    """The examples in `parts` test cases that run side by side (pytest-xdist), each generating
    its own: as many examples in all, and no one test holding a core for minutes."""
    for n in range(parts):
        share = examples // parts + (1 if n < examples % parts else 0)
        if share:
            case = type(f"{name}{n + 1}", (machine.TestCase,),
                        {"settings": settings(LAWS_SETTINGS, max_examples=share)})
            for mark in (pytest.mark.slow, *marks):
                case = mark(case)
            globals()[case.__name__] = case


_in_parts(Laws, "TestLawsSQLite", LAWS_SETTINGS.max_examples, 2)  # 40: 2 x 20
_in_parts(PostgresLaws, "TestLawsPostgreSQL", int(os.environ.get("DESMOCHE_LAWS_PG_EXAMPLES", "10")), 2,
          NO_SERVER)


@pytest.mark.slow
def test_every_simulated_hand_plays_to_its_end_through_the_service(tmp_path):
    """The machine's legal moves are legal: each simulated hand, recorded move by move, ends
    as `check` ends its record, and the book verifies."""
    from desmoche_ref.store.trust.verify import verify_book

    book = open_book(str(tmp_path / "b.db"))
    create_table(book, "t", PLAYERS, 1000)
    table = TableBook(book, "t")
    for sides, lines in RECORDS:
        table.new_hand("Ana", sides)
        for line in lines:
            assert table.record(line).line == line
        assert table.ref.status == "complete"
    table.close()
    with book.read() as s:
        assert verify_book(s)[0] == []
    book.engine.dispose()
