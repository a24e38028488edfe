"""A book no role can bend (issue 24; docs/security.md): the attacks of the threat model, each
tried by the role that would try it — the book's owner, a recorder, a reader — through its own
psycopg connection on the PostgreSQL test server, computing hashes with the project's own
functions as an attacker with the source would. Each asserts that the server refuses it, or
that `verify` (or `verify --head` a head noted before) exits 1 naming the row and the role.

The night attacked: friday (tests/conformance/friday.dsm) recorded live move by move through
TableBook by a recorder, then tests/league_data imported by the same recorder; built once per
test process (conftest `_built`) and copied for each test with its rows exactly as written.
The last test is the SQLite file's: whoever holds it can drop an index, not hide a second row.
"""

import uuid
from contextlib import contextmanager
from datetime import datetime, timedelta

import psycopg
import pytest
from psycopg.rows import namedtuple_row
from sqlalchemy.engine import make_url

from conftest import FRIDAY_LINES as FRIDAY, Live, _pg_conninfo, _pg_server, friday_table_book, template_book, verified
from desmoche_ref.store.trust import journal as J
from desmoche_ref.store import locks
from desmoche_ref.notation.writer import with_comment
from desmoche_ref.store.schema.codecs import TAGS
from desmoche_ref.store.write.plans import judge
from desmoche_ref.store.schema.records import chain_hash, verdict_columns

LEAGUE = ("tests/league_data/north.dsm", "tests/league_data/north2.dsm", "tests/league_data/south.dsm")
OLD_JOURNAL_LOCK = 0x6A6F75726E616C  # the advisory locks writers waited on before schema 0006
OLD_IMPORT_LOCK = 0x696D706F7274


# ------------------------------------------------------------------ roles and books
@pytest.fixture(scope="module")
def league():
    """Login roles for the module: two recorders and a reader ({"clerk", "clerk2", "viewer"}:
    unique names); dropped at the end (every book that granted them is dropped by then)."""
    server = _pg_server()
    names = {kind: f"{kind}_{uuid.uuid4().hex[:8]}" for kind in ("clerk", "clerk2", "viewer")}
    with psycopg.connect(**_pg_conninfo(server)) as conn:
        for name in names.values():
            conn.execute(f'CREATE ROLE "{name}" LOGIN')
    yield names
    with psycopg.connect(**_pg_conninfo(server)) as conn:
        for name in names.values():
            conn.execute(f'DROP ROLE IF EXISTS "{name}"')


def as_role(url: str, role: str) -> str:
    return make_url(url).set(username=role).render_as_string(hide_password=False)


def grant(url: str, league: dict) -> None:
    """The owner grants the recorders and the reader (store/trust/roles.py, as `db grant` does)."""
    from desmoche_ref.store.trust import roles
    from desmoche_ref.store.db import open_book

    book = open_book(url)
    with book.begin() as conn:
        for role, access in ((league["clerk"], roles.RECORDER), (league["clerk2"], roles.RECORDER),
                             (league["viewer"], roles.READER)):
            roles.grant(conn, role, access)
    book.engine.dispose()


def record_night(league):
    """build(url): friday recorded live by the clerk through TableBook, then the league's files
    imported by the clerk."""
    def build(url):
        from desmoche_ref.store.db import open_book
        from desmoche_ref.store.write.importer import import_records

        grant(url, league)
        book = open_book(as_role(url, league["clerk"]))
        try:
            table = friday_table_book(book)
            for line in FRIDAY + ["end"]:
                table.record(line)
            for path in LEAGUE:
                with open(path, "rb") as f:
                    assert import_records(book, f.read(), path).stored
        finally:
            book.engine.dispose()
    return build


@pytest.fixture
def pg_url(league, _built, tmp_path):
    """A copy of the recorded night (its rows as written), its roles granted; verified whole."""
    url, give_back = _built("postgresql", f"attacks-{league['clerk']}", record_night(league), tmp_path)
    try:
        grant(url, league)
        yield url
    finally:
        give_back()


@contextmanager
def connected(url: str, role: str | None = None, autocommit: bool = True):
    """`role`'s own psycopg connection to the book (the owner's without one)."""
    info = dict(_pg_conninfo(url), autocommit=autocommit, row_factory=namedtuple_row)
    if role is not None:
        info["user"] = role
    with psycopg.connect(**info) as conn:
        yield conn


def problems(url: str, *args) -> list:
    """`verify [ARGS]`'s problems (exit 1 asserted), one `where: message` line each."""
    return verified(Live(url)("verify", *args, status=1).stdout).splitlines()[:-1]


def head_of(url: str) -> str:
    return Live(url).json("verify", "--json")["head"]


def journal_rows(url: str) -> list:
    """The journal's row ids, in order."""
    with connected(url) as conn:
        return [r.id for r in conn.execute("SELECT id FROM journal ORDER BY id").fetchall()]


def friday_moves(conn) -> list:
    return conn.execute("SELECT e.* FROM event e JOIN hand h ON h.id = e.hand_id JOIN card_table t "
                        "ON t.id = h.table_id WHERE t.name = 'friday' ORDER BY e.seq").fetchall()


def rechain(conn, moves) -> None:
    """The moves' chain hashes recomputed (records.chain_hash), as the program chains them."""
    previous = ""
    for m in moves:
        previous = chain_hash(previous, m.seq, m.line, m.comment, m.supersedes, m.recorder)
        conn.execute("UPDATE event SET hash = %s WHERE id = %s", (previous, m.id))


def append(conn, rows, writer: str) -> list:
    """Journal rows appended by hand after the head (journal.chain): their ids."""
    previous = conn.execute("SELECT hash FROM journal ORDER BY id DESC LIMIT 1").fetchone().hash
    ids = []
    for kind, subject, text in rows:
        previous = J.chain(previous, kind, subject, text, writer)
        ids.append(conn.execute("INSERT INTO journal (kind, subject, text, hash, writer) VALUES "
                                "(%s, %s, %s, %s, %s) RETURNING id", (kind, subject, text, previous, writer))
                   .fetchone().id)
    return ids


# ------------------------------------------------------------------ the owner
def test_attack_owner_edits_two_moves_appends_journal_rows_and_reposts(pg_url):
    """Friday's `announce` and last `show` edited so the oro pot goes to Ana, the hand's chain
    recomputed, fresh journal rows appended for the two moves — refused by the unique index,
    so the owner drops it — and the hand posted again by the program's own functions: verify,
    and verify --head of the head noted before, hold each move to its first journal row and
    name the second rows and who wrote them."""
    from desmoche_ref.store.write import course
    from desmoche_ref.store.db import make_engine
    from desmoche_ref.store.write.tablestate import BookState
    from desmoche_ref.store.write.book_writer import write

    noted = head_of(pg_url)
    owner = make_url(pg_url).username
    with connected(pg_url) as conn:
        conn.execute("UPDATE event SET line = 'announce Ana oro Jd' WHERE line = 'announce Beto oro Qd'")
        conn.execute("UPDATE event SET line = 'show Ana Jd' WHERE line = 'show Beto Qd'")
        moves = friday_moves(conn)
        rechain(conn, moves)
        # every move from the first edited on has a new hash, so a new journal text
        again = [(J.EVENT, m.id, J.event_text(m)) for m in friday_moves(conn) if m.seq >= 4]
        with pytest.raises(psycopg.errors.UniqueViolation):
            append(conn, again, owner)  # refused by the server
        conn.execute("DROP INDEX uq_journal_event")
        second = dict(zip(range(4, 31), append(conn, again, owner)))
        first = {m.seq: conn.execute("SELECT min(id) AS id FROM journal WHERE kind = 'event' AND subject = %s",
                                     (m.id,)).fetchone().id for m in moves}
    engine = make_engine(pg_url)
    with engine.begin() as conn:  # the hand posted again, as the program's planners and writer post
        table_id = conn.exec_driver_sql("SELECT id FROM card_table WHERE name = 'friday'").scalar()
        state = BookState(conn, table_id, owner)
        hand = state.hand(1)
        course.reverse_postings(state, hand)
        course.close_hand(state, hand, hand.judged()[0])
        write(conn, [state.plan])
    engine.dispose()
    assert Live(pg_url).json("hand", "show", "--json", "--table", "friday")["net"] == {
        "Ana": "-10.00", "Beto": "-25.00", "Carla": "35.00"}  # Beto's 15.00 is now Ana's
    clerk = moves[0].recorder
    last = journal_rows(pg_url)[-1]
    # the course: the second rows, the reversals and the close again are no command of the program there
    expected = [f"table friday hand 1 move 4: journal rows {second[4]} to {last} (event, posting, verdict, written by "
                f"{owner}) are not what the program writes at this point of the table's course: row {second[4]}: the "
                "program refuses it here: N4.4 the hand is over (line 28): only show and end may follow"]
    for seq in range(4, 31):
        where = f"table friday hand 1 move {seq}: "
        expected += [where + f"journal row {second[seq]} (written by {owner}) journals this move a second time "
                             f"(journal row {first[seq]} did first): the journal was tampered with",
                     where + f"it is not what the journal says was written (entered by {clerk})"]
    # and the hand as the course of the table left it: its oro pot Beto's, not Ana's
    expected += [line for line in problems(pg_url) if line.startswith("table friday hand 1: its content_hash was "
                                                                       "stored as ")]
    expected.append("table friday hand 1: its postings do not match its settlement: unexpected side-win/oro pot:oro "
                    "-1500 (Ana); unexpected side-win/oro Ana +1500 (pot:oro); missing side-win/oro pot:oro -1500 "
                    "(Beto); missing side-win/oro Beto +1500 (pot:oro)")
    assert len(expected) == 1 + 2 * 27 + 2
    assert problems(pg_url) == expected
    assert problems(pg_url, "--head", noted) == expected


def test_attack_owner_renames_every_recorder_of_a_hand(pg_url, league):
    """Every move of friday said to be entered by `league`, the chain recomputed, journal rows
    appended (the unique index dropped first): each move's recorder is not its journal row's
    writer, and the second rows name the owner."""
    owner = make_url(pg_url).username
    with connected(pg_url) as conn:
        conn.execute("UPDATE event SET recorder = 'league' WHERE hand_id = (SELECT h.id FROM hand h JOIN "
                     "card_table t ON t.id = h.table_id WHERE t.name = 'friday')")
        rechain(conn, friday_moves(conn))
        conn.execute("DROP INDEX uq_journal_event")
        append(conn, [(J.EVENT, m.id, J.event_text(m)) for m in friday_moves(conn)], owner)
    found = problems(pg_url)
    clerk = league["clerk"]
    for seq in (1, 17, 30):
        where = f"table friday hand 1 move {seq}: "
        assert where + "it is not what the journal says was written (entered by league)" in found
        assert any(line.startswith(where + "it says league entered it, but its journal row ")
                   and line.endswith(f" was written by {clerk}") for line in found)
        assert any(line.startswith(where + "journal row ") and f"(written by {owner}) journals this move a second "
                   "time" in line for line in found)
    assert found[0].startswith(f"table friday hand 1 move 1: journal rows {journal_rows(pg_url)[-30]} to "
                               f"{journal_rows(pg_url)[-1]} (event, written by {owner}) are not what the program "
                               "writes at this point of the table's course: ")
    assert len(found) == 91  # the course's, and three for each of the 30 moves
    log = Live(pg_url).json("hand", "log", "--all", "--json", "--table", "friday")
    assert {e["recorder"] for e in log} == {"league"}  # the false name shows; verify says it is false


def test_attack_owner_moves_the_times_back_three_days(pg_url):
    """event.entered, hand.closed and posting.created moved back three days: verify finds each
    (the times are in the journal's texts); with every journal text recomputed and the chain
    hashed again (each row keeping its writer), the course finds the moves entered before their
    hand was dealt; with the deal and the table's making moved back too, verify finds nothing —
    and `verify --head` of the head noted before finds the rewrite."""
    noted = head_of(pg_url)
    with connected(pg_url) as conn:
        for table, column in (("event", "entered"), ("hand", "closed"), ("posting", "created")):
            hand = "hand_id" if table != "hand" else "id"
            conn.execute(f"UPDATE {table} SET {column} = {column} - interval '3 days' WHERE {hand} = "
                         "(SELECT h.id FROM hand h JOIN card_table t ON t.id = h.table_id WHERE t.name = 'friday')")
        shown = Live(pg_url).json("hand", "log", "--all", "--json", "--table", "friday")
        found = problems(pg_url)
        assert len([line for line in found if " was entered at " in line]) == 30
        assert len([line for line in found if line.startswith("table friday hand 1: posting ")
                    and " was made at " in line]) == 20
        closed = [line for line in found if line.startswith("table friday hand 1: it closed at ")]
        assert len(closed) == 1 and len(found) == 51
        rewrite_journal(conn)
        found = problems(pg_url)  # the course: a table's writes in the order of their times
        first = conn.execute("SELECT min(j.id) AS id FROM journal j JOIN event e ON e.id = j.subject "
                             "WHERE j.kind = 'event'").fetchone().id
        assert found[0].startswith(f"table friday hand 1 move 1: journal row {first} (event, written by ")
        assert len(found) == 30  # each write: every move (the last, `end`, its postings and verdict with it)
        assert all(line.endswith("a time earlier than the rows it follows") for line in found)
        # the deal, its day and the table's making moved back too, the hand's content hash made again
        hand = read_as_the_program(conn.execute("SELECT h.* FROM hand h JOIN card_table t ON t.id = h.table_id "
                                                "WHERE t.name = 'friday'").fetchone(), "hand")
        day = (datetime.fromisoformat(dict(hand.extra_tags)["Date"]) - timedelta(days=3)).date().isoformat()
        hand = hand._replace(extra_tags=[("Date", day)], opened=hand.opened - timedelta(days=3))
        digest = verdict_columns(judge(hand, [with_comment(m.line, m.comment) for m in friday_moves(conn)]))
        conn.execute("UPDATE hand SET opened = %s, extra_tags = %s, content_hash = %s WHERE id = %s",
                     (hand.opened, TAGS.encode(hand.extra_tags), digest["content_hash"], hand.id))
        conn.execute("UPDATE card_table SET created = created - interval '3 days' WHERE name = 'friday'")
        rewrite_journal(conn, "friday")
    assert verified(Live(pg_url)("verify").stdout).endswith(": all in order\n")  # consistent, but…
    assert problems(pg_url, "--head", noted) == [
        f"the book: {noted} is not a head of this book's journal: the history up to it was changed, or it is "
        "another book's"]
    assert Live(pg_url).json("hand", "log", "--all", "--json", "--table", "friday") == shown


def read_as_the_program(row, table: str):
    """A row read through psycopg with its JSON columns as the program's columns read them (each
    column's codec, store/schema/codecs.py): what an attacker with the source hands the journal's texts."""
    from desmoche_ref.store.schema.codecs import JSONText
    from desmoche_ref.store.schema.models import BookTable, Hand, core

    model = {"hand": Hand, "card_table": BookTable}.get(table)
    typed = [c for c in core(model).c if isinstance(c.type, JSONText)] if model is not None else []
    return row._replace(**{c.name: c.type.process_result_value(getattr(row, c.name), None) for c in typed})


def rewrite_journal(conn, table: str | None = None) -> None:
    """Every journal row's text recomputed from the rows it covers (the rows of `table`'s state
    too, when named), and the whole chain hashed again, each row keeping its writer: what an
    owner who rewrites the book does."""
    previous = ""
    made = conn.execute("SELECT id FROM card_table WHERE name = %s", (table,)).fetchone() if table else None
    for row in conn.execute("SELECT * FROM journal ORDER BY id").fetchall():
        covered = {J.EVENT: "event", J.POSTING: "posting", J.VERDICT: "hand", J.HAND: "hand"}.get(row.kind)
        if row.kind == J.TABLE and made is not None and row.subject == made.id:
            covered = "card_table"
        text = row.text
        if covered is not None:
            target = read_as_the_program(conn.execute(f"SELECT * FROM {covered} WHERE id = %s",
                                                      (row.subject,)).fetchone(), covered)
            text = {J.EVENT: J.event_text, J.POSTING: J.posting_text, J.VERDICT: J.verdict_text,
                    J.HAND: J.hand_text, J.TABLE: J.table_text}[row.kind](target)
        previous = J.chain(previous, row.kind, row.subject, text, row.writer)
        conn.execute("UPDATE journal SET text = %s, hash = %s WHERE id = %s", (text, previous, row.id))


# ------------------------------------------------------------------ a recorder
def test_attack_recorder_inserts_a_move_naming_league(pg_url, league):
    """A recorder's own INSERT of a move that names `league` as its recorder, with a chain hash
    and a journal row made for that name: the server stores its own name instead, so the hash
    and the journal row no longer hold; `hand log` never says league."""
    clerk = league["clerk"]
    with connected(pg_url, clerk) as conn:
        last = friday_moves(conn)[-1]
        line = "show Ana Jd"
        digest = chain_hash(last.hash, 31, line, None, None, "league")
        new = conn.execute("INSERT INTO event (hand_id, seq, line, entered, hash, recorder) VALUES "
                           "(%s, 31, %s, now(), %s, 'league') RETURNING *", (last.hand_id, line, digest)).fetchone()
        forged = new._replace(recorder="league")
        row = append(conn, [(J.EVENT, new.id, J.event_text(forged))], "league")[0]
        assert conn.execute("SELECT writer FROM journal WHERE id = %s", (row,)).fetchone().writer == clerk
    log = Live(pg_url).json("hand", "log", "--all", "--json", "--table", "friday")
    assert (log[-1]["seq"], log[-1]["recorder"]) == (31, clerk)
    found = problems(pg_url)
    assert found[:4] == [
        f"the book: journal row {row} (event, written by {clerk}) does not match its hash: the journal was changed",
        f"table friday hand 1 move 31: journal row {row} (event, written by {clerk}) is not what the program writes at "
        f"this point of the table's course: its recorder is 'league', where the program writes '{clerk}'",
        "table friday hand 1 move 31: the stored move 'show Ana Jd' does not match its hash: it was changed after "
        f"it was recorded (entered by {clerk})",
        f"table friday hand 1 move 31: it is not what the journal says was written (entered by {clerk})"]


def test_attack_recorder_journals_someone_elses_move_again(pg_url, league):
    """A second journal row, with other text, for a move another recorder entered: refused by
    the server (the unique index); nothing stored, the book in order."""
    with connected(pg_url, league["clerk2"]) as conn:
        move = friday_moves(conn)[7]  # draw Beto 2d, entered by the clerk
        assert move.recorder == league["clerk"]
        with pytest.raises(psycopg.errors.UniqueViolation) as refused:
            append(conn, [(J.EVENT, move.id, J.event_text(move._replace(line="draw Beto 3d")))], league["clerk2"])
    assert 'violates unique constraint "uq_journal_event"' in str(refused.value)
    assert verified(Live(pg_url)("verify").stdout).endswith(": all in order\n")


# ------------------------------------------------------------------ a reader, and locks held
def test_attack_reader_holds_locks_and_writers_go_on(pg_url, league):
    """A reader holds the advisory lock writers waited on before schema 0006 and the import's:
    a recorder's writes go on at once. The reader may not lock what writers lock now: the
    setting rows, a table's row, the journal in any mode but ACCESS SHARE."""
    clerk = Live(as_role(pg_url, league["clerk"]))
    with connected(pg_url, league["viewer"]) as reader:
        reader.execute(f"SELECT pg_advisory_lock({OLD_JOURNAL_LOCK}) AS journal, "
                       f"pg_advisory_lock({OLD_IMPORT_LOCK}) AS imports")
        clerk("table", "new", "later", "--players", "Ana Beto", "--bet", "1")
        clerk("hand", "new", "--dealer", "Ana")
        clerk("import", LEAGUE[1], "--table", "imported")
        for statement in ["SELECT 1 FROM setting WHERE key = 'lock:journal' FOR UPDATE",
                          "SELECT 1 FROM setting WHERE key = 'lock:import' FOR KEY SHARE",
                          "SELECT 1 FROM card_table WHERE name = 'friday' FOR UPDATE",
                          "LOCK TABLE setting IN ROW EXCLUSIVE MODE", "LOCK TABLE journal IN SHARE MODE",
                          "LOCK TABLE card_table IN ACCESS EXCLUSIVE MODE"]:
            with pytest.raises(psycopg.errors.InsufficientPrivilege), reader.transaction():
                reader.execute(statement)
    assert verified(clerk("verify").stdout) == "7 hands, 58 moves, 70 postings: all in order\n"


def test_attack_recorder_holds_the_journal_and_writers_end_within_the_bound(pg_url, league, monkeypatch):
    """A recorder holds the journal's lock row, then a table's row, in a transaction left open:
    a write waits no longer than the bound, then ends with exit 3 and one line naming what it
    waited on, in English and in Spanish; nothing is written, and once the lock is let go the
    write goes through."""
    from click.testing import CliRunner

    from desmoche_ref.cli import main

    monkeypatch.setattr(locks, "LOCK_TIMEOUT", 0.3)
    url = as_role(pg_url, league["clerk"])
    clerk = Live(url)
    with connected(pg_url, league["clerk2"], autocommit=False) as holder:
        holder.execute("SELECT 1 FROM setting WHERE key = 'lock:journal' FOR UPDATE")
        run = clerk("table", "new", "later", "--players", "Ana Beto", "--bet", "1", status=3)
        assert run.stderr == ("error: waited more than 0.3 s for the book's journal, which another session of the "
                              "book holds: nothing was written; try again\n")
        spanish = CliRunner().invoke(main, ["import", LEAGUE[1], "--table", "x", "--lang", "es"],
                                     env={"DESMOCHE_DB": url})
        assert (spanish.exit_code, spanish.stderr) == (3, "error: esperó más de 0.3 s por el diario del libro, que "
                                                          "tiene otra sesión del libro: no se escribió nada; "
                                                          "inténtelo otra vez\n")
        play = CliRunner().invoke(main, ["play", "--table", "friday"], input="new --dealer Beto\n",
                                  env={"DESMOCHE_DB": url})
        assert (play.exit_code, play.output.splitlines()[0]) == (3, "1: waited more than 0.3 s for the book's "
                                                                    "journal, which another session of the book "
                                                                    "holds: nothing was written; try again")
        holder.rollback()
        holder.execute("SELECT 1 FROM card_table WHERE name = 'friday' FOR UPDATE")
        run = clerk("table", "bet", "friday", "2", "--all-agree", status=3)
        assert run.stderr == ("error: waited more than 0.3 s for table friday, which another session of the book "
                              "holds: nothing was written; try again\n")
    assert [t["name"] for t in clerk.json("table", "list", "--json")] == ["friday", "north", "south", "west"]
    clerk("table", "bet", "friday", "2", "--all-agree")
    assert verified(clerk("verify").stdout).endswith(": all in order\n")


# ------------------------------------------------------------------ the SQLite file
@pytest.mark.slow
def test_attack_the_files_holder_drops_the_index_and_journals_a_move_again(tmp_path):
    """Whoever holds a SQLite book's file may write anything in it: a second journal row for a
    move is refused while the index stands, and found by verify, naming the row and its
    writer, once it is dropped; the move is held to its first row."""
    import shutil
    import sqlite3

    path = tmp_path / "book.db"
    shutil.copy(template_book("sqlite"), path)
    live = Live(f"sqlite:///{path}")
    live("table", "new", "friday", "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo")
    live("hand", "new", "--dealer", "Ana")
    for line in FRIDAY[:8]:
        live("rec", line)
    from types import SimpleNamespace

    from sqlmodel import select

    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.schema.models import Event

    book = open_book(live.url, readonly=True)
    with book.read() as session:
        move = session.exec(select(Event).where(Event.seq == 8)).one()
        text = J.event_text(SimpleNamespace(**dict(move.model_dump(), line="draw Beto 3d")))
    book.engine.dispose()
    conn = sqlite3.connect(path)
    first, previous = conn.execute("SELECT (SELECT id FROM journal WHERE kind = 'event' AND subject = ?), "
                                   "(SELECT hash FROM journal ORDER BY id DESC LIMIT 1)", (move.id,)).fetchone()
    row = (J.EVENT, move.id, text, J.chain(previous, J.EVENT, move.id, text, "mallory"), "mallory")
    insert = "INSERT INTO journal (kind, subject, text, hash, writer) VALUES (?, ?, ?, ?, ?)"
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(insert, row)
    conn.execute("DROP INDEX uq_journal_event")
    second = conn.execute(insert, row).lastrowid
    conn.commit()
    conn.close()
    found = problems(live.url)
    assert found == [f"table friday hand 1 move 8: journal row {second} (event, written by mallory) is not what the "
                     "program writes at this point of the table's course: its seq is 8, where the program writes 9",
                     f"table friday hand 1 move 8: journal row {second} (written by mallory) journals this move a "
                     f"second time (journal row {first} did first): the journal was tampered with"]


@pytest.mark.slow
def test_a_journal_that_holds_a_move_twice_is_not_upgraded(tmp_path):
    """A book of schema 0005 whose journal already holds a second row for a move (tampered
    with) cannot take the unique indexes of 0006: its upgrade says which rows, and changes
    nothing."""
    import shutil
    import sqlite3

    from alembic import command
    from sqlalchemy import create_engine

    from desmoche_ref.store.db import Book, alembic_config

    path = tmp_path / "book.db"
    shutil.copy(template_book("sqlite"), path)
    live = Live(f"sqlite:///{path}")
    live("table", "new", "friday", "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo")
    live("hand", "new", "--dealer", "Ana")
    live("rec", FRIDAY[0])
    old = Book(live.url, create_engine(live.url))
    cfg = alembic_config(old)
    with old.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0005")
    old.engine.dispose()
    with sqlite3.connect(path) as conn:
        first, move = conn.execute("SELECT id, subject FROM journal WHERE kind = 'event'").fetchone()
        second = conn.execute("INSERT INTO journal (kind, subject, text, hash) SELECT kind, subject, 'forged', "
                              "hash FROM journal WHERE id = ?", (first,)).lastrowid
    conn.close()
    run = live("db", "upgrade", status=2)
    assert run.stderr == (f"error: the book's journal journals move row {move} twice (rows {first} and {second}): it "
                          "was tampered with, and cannot be upgraded until its owner has dealt with that "
                          "(`desmoche-ref verify` names the rows)\n")
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == ("0005",)
    conn.close()
