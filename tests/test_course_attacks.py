"""The book's history is its journal, and `verify` replays the course of every table (issue 32;
docs/security.md "Found by verify: the course"): each attack of the issue's table tried by the
role that would try it — a recorder's own PostgreSQL login, made with `db grant NAME
--recorder`, through its own psycopg connection or through the program's own planners and
writer on its own connection; on SQLite the file's owner with the program's own functions —
computing hashes and journal texts with the project's functions, as an attacker with the
source would. Each is found by `verify` (or `verify --head` of a head published before),
named with the table, the hand, the journal rows and who wrote them, or refused by the server.

The night attacked: table `club`, four hands (all won) recorded live by the recorder `clerk`
through TableBook (a simulated session, seed 4), and table `friday`, begun by the recorder
`clerk2`: its first hand dealt and eight moves recorded.
"""

from datetime import date, timedelta

import pytest
from sqlalchemy import create_engine

from conftest import FRIDAY_LINES as FRIDAY, Live, recorder_of, template_book, verified
from desmoche_ref.notation.parser import split_comment
from desmoche_ref.store.write import course
from desmoche_ref.store.trust import journal as J
from desmoche_ref.store.schema.codecs import TAGS
from desmoche_ref.store.schema.records import chain_hash
from desmoche_ref.store.write.tablestate import BookState
from desmoche_ref.store.write.book_writer import write
from test_attacks import as_role, connected, grant, league, read_as_the_program  # noqa: F401 (the roles)

SEED = 4  # simulate_session(5, 3, seed=4, vary=False): five hands, each won, nothing carried
COURSE = "is not what the program writes at this point of the table's course"


def session_hands(count: int, seed: int = SEED) -> list:
    """(dealer, [lines]) of the first `count` hands of a simulated session."""
    from desmoche_ref.notation.parser import parse_text
    from desmoche_ref.sim.night import simulate_session

    out = []
    for record in parse_text(simulate_session(5, 3, seed=seed, vary=False)).hands[:count]:
        lines = []
        text = simulate_session(5, 3, seed=seed, vary=False).splitlines()
        for ev in record.events:
            lines.append(split_comment(text[ev.line - 1])[0].strip())
        out.append((record.tag("Dealer").value, lines))
    return out


def record_night(url: str, league: dict) -> None:
    """club's four hands by the clerk, friday's first moves by clerk2 (each through TableBook)."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.write.tablebook import TableBook, create_table

    grant(url, league)
    book = open_book(as_role(url, league["clerk"]))
    try:
        create_table(book, "club", ["Ana", "Beto", "Carla"], 1000)
        table = TableBook(book, "club")
        for dealer, lines in session_hands(4):
            table.new_hand(dealer)
            for line in lines:
                table.record(line)
    finally:
        book.engine.dispose()
    book = open_book(as_role(url, league["clerk2"]))
    try:
        create_table(book, "friday", ["Ana", "Beto", "Carla"], 1000, options="todo",
                     sides=[("oro", 500, ["Ana", "Beto", "Carla"])])
        table = TableBook(book, "friday")
        table.new_hand("Ana")
        for line in FRIDAY[:8]:
            table.record(line)
    finally:
        book.engine.dispose()


@pytest.fixture
def pg_url(league, _built, tmp_path):
    """A copy of the night (its rows as written), its roles granted; verified whole."""
    url, give_back = _built("postgresql", f"course-{league['clerk']}", lambda u: record_night(u, league), tmp_path)
    try:
        grant(url, league)
        assert verified(Live(url)("verify").stdout) == "5 hands, 141 moves, 24 postings: all in order\n"
        yield url
    finally:
        give_back()


def problems(url: str, *args) -> list:
    """`verify [ARGS]`'s problems (exit 1 asserted), one `where: message` line each."""
    return verified(Live(url)("verify", *args, status=1).stdout).splitlines()[:-1]


def head_of(url: str) -> str:
    return Live(url).json("verify", "--json")["head"]


def nets(url: str) -> dict:
    return {r["player"]: r["net"] for r in Live(url).json("standings", "--json", "--table", "club")["players"]}


def journal_tail(url: str, since: int) -> list:
    with connected(url) as conn:
        return conn.execute("SELECT id, kind, writer FROM journal WHERE id > %s ORDER BY id", (since,)).fetchall()


def last_row(url: str) -> int:
    with connected(url) as conn:
        return conn.execute("SELECT max(id) AS id FROM journal").fetchone().id


def append(conn, rows) -> list:
    """Journal rows appended by hand after the head (journal.chain, the writer the server sets)."""
    previous = conn.execute("SELECT hash FROM journal ORDER BY id DESC LIMIT 1").fetchone().hash
    who = conn.execute("SELECT session_user AS who").fetchone().who
    ids = []
    for kind, subject, text in rows:
        previous = J.chain(previous, kind, subject, text, who)
        ids.append(conn.execute("INSERT INTO journal (kind, subject, text, hash, writer) VALUES (%s, %s, %s, %s, %s) "
                                "RETURNING id", (kind, subject, text, previous, who)).fetchone().id)
    return ids


def club_hand(conn, number: int):
    return read_as_the_program(conn.execute("SELECT h.* FROM hand h JOIN card_table t ON t.id = h.table_id "
                                            "WHERE t.name = 'club' AND h.number = %s", (number,)).fetchone(), "hand")


def planned(url: str, role: str, plan) -> None:
    """`plan(state)` on table club as the book holds it, through the program's own planners, stored by
    the program's own writer on the role's own connection: rows the program writes, where it would not."""
    engine = create_engine(as_role(url, role))
    try:
        with engine.begin() as conn:
            table_id = conn.exec_driver_sql("SELECT id FROM card_table WHERE name = 'club'").scalar()
            state = BookState(conn, table_id, role)
            plan(state)
            write(conn, [state.plan])
    finally:
        engine.dispose()


def where(message: str, first: int, last: int, kinds: str, writer: str) -> str:
    """How verify names rows of one writer no command would have written where they are."""
    if first == last:
        return f"journal row {first} ({kinds}, written by {writer}) {COURSE}: {message}"
    return f"journal rows {first} to {last} ({kinds}, written by {writer}) are not what the program writes at this " \
           f"point of the table's course: row {first}: {message}"


# ------------------------------------------------------------------ the table, row by row
def test_attack_recorder_reverses_an_old_hands_postings_and_journals_a_void(pg_url, league):
    """Hand 1 of club, won three hands ago: its postings reversed by new postings, a `void` move
    chained after its moves, its verdict made void — each journaled, as the program journals a
    reversal, a move and a close. The standings move (the winner loses his win); verify names
    the write — the rows, the recorder, table club, hand 1 — for no command voids a closed hand,
    nor reaches one the table has moved on from; and the book's hand against its course."""
    clerk = league["clerk"]
    before, since = nets(pg_url), last_row(pg_url)
    with connected(pg_url, clerk) as conn:
        hand = club_hand(conn, 1)
        rows = conn.execute("SELECT * FROM posting WHERE hand_id = %s ORDER BY id", (hand.id,)).fetchall()
        journaled = []
        for p in rows:
            r = conn.execute("INSERT INTO posting (hand_id, table_id, account, player_id, kind, detail, counterparty, "
                             "amount, reverses, created) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, now()) "
                             "RETURNING *",
                             (p.hand_id, p.table_id, p.account, p.player_id, p.kind, p.detail, p.counterparty,
                              -p.amount, p.id)).fetchone()
            journaled.append((J.POSTING, r.id, J.posting_text(r)))
        moves = conn.execute("SELECT * FROM event WHERE hand_id = %s ORDER BY seq", (hand.id,)).fetchall()
        seq = moves[-1].seq + 1
        digest = chain_hash(moves[-1].hash, seq, "void", "a card face up", None, clerk)
        void = conn.execute("INSERT INTO event (hand_id, seq, line, comment, entered, hash, recorder) VALUES "
                            "(%s, %s, 'void', 'a card face up', now(), %s, %s) RETURNING *",
                            (hand.id, seq, digest, clerk)).fetchone()
        journaled.append((J.EVENT, void.id, J.event_text(void)))
        conn.execute("UPDATE hand SET status = 'void', outcome = NULL, winners = NULL, content_hash = NULL, "
                     "carry_out = carry_in, side_carry_out = side_carry, closed = now() WHERE id = %s", (hand.id,))
        journaled.append((J.VERDICT, hand.id, J.verdict_text(club_hand(conn, 1))))
        ids = append(conn, journaled)
    assert nets(pg_url) != before  # the attack moves money
    found = problems(pg_url)
    assert found[0] == "table club hand 1: " + where(
        "the program writes a row of kind event here, not of kind posting", ids[0], ids[-1], "posting, event, verdict",
        clerk)
    assert "table club hand 1: its status was stored as 'void' but its moves give 'complete'" in found
    assert any(line.startswith("table club hand 1: its postings do not match its settlement: missing ")
               for line in found)
    assert [row.id for row in journal_tail(pg_url, since)] == ids


def test_attack_recorder_undoes_an_old_hand_and_deals_it_again_through_the_planners(pg_url, league):
    """Hand 1 of club taken back move by move (its postings reversed, its `end` and every move
    undone), another deal's lines recorded in it, `end`, settled again — with the program's own
    planners and writer, every row as the program writes it, every hash chained, each journaled.
    Another winner; verify names the write: no `undo` reaches a hand after the next was opened."""
    clerk = league["clerk"]
    since, before = last_row(pg_url), nets(pg_url)
    other = session_hands(1, seed=9)[0][1]  # another deal of hand 1's setup (Ana deals, nothing carried)

    def deal_again(state):
        hand = state.hand(1)
        while hand.standing():
            course.undo_move(state, hand)
        for line in other + ["end"]:
            course.record(state, hand, line)

    planned(pg_url, clerk, deal_again)
    assert nets(pg_url) != before
    rows = journal_tail(pg_url, since)
    assert {row.writer for row in rows} == {clerk}
    found = problems(pg_url)
    assert found[0].startswith(f"table club hand 1: journal rows {rows[0].id} to {rows[-1].id} (posting, verdict, "
                               f"event, written by {clerk}) are not what the program writes at this point of the "
                               "table's course: ")
    assert any(line.startswith("table club hand 1: its postings do not match its settlement: ") for line in found)


def test_attack_recorder_moves_a_played_hands_opening_back_40_days_through_a_redeal_row(pg_url, league):
    """Hand 2 of club: its `opened` moved back 40 days with a new Date, journaled as a `redeal`
    (a hand with no move dealt again writes those columns): `standings --since` its night drops
    the hand; verify names the row — a hand with moves is never dealt again."""
    clerk = league["clerk"]
    with connected(pg_url, clerk) as conn:
        hand = club_hand(conn, 2)
        day = date.fromisoformat(dict(hand.extra_tags)["Date"])
        earlier = (day - timedelta(days=40)).isoformat()
        since = Live(pg_url).json("standings", "--json", "--table", "club", "--since", day.isoformat())
        conn.execute("UPDATE hand SET opened = opened - interval '40 days', extra_tags = %s WHERE id = %s",
                     (TAGS.encode([("Date", earlier)]), hand.id))
        (row,) = append(conn, [(J.REDEAL, hand.id, J.hand_text(club_hand(conn, 2)))])
    after = Live(pg_url).json("standings", "--json", "--table", "club", "--since", day.isoformat())
    assert sum(p["hands"] for p in after["players"]) < sum(p["hands"] for p in since["players"])
    found = problems(pg_url)
    assert found[0] == "table club hand 2: " + where(
        "the program writes a row of kind event here, not of kind redeal", row, row, "redeal", clerk)


def test_attack_recorder_closes_an_old_hand_again_three_days_earlier(pg_url, league):
    """Hand 2 of club's `closed` moved back three days, before its own moves were entered, with
    a second `verdict` row saying so: verify names the row — a closed hand is not closed again."""
    clerk = league["clerk"]
    with connected(pg_url, clerk) as conn:
        hand = club_hand(conn, 2)
        conn.execute("UPDATE hand SET closed = closed - interval '3 days' WHERE id = %s", (hand.id,))
        (row,) = append(conn, [(J.VERDICT, hand.id, J.verdict_text(club_hand(conn, 2)))])
    (found,) = problems(pg_url)
    assert found.startswith(f"table club hand 2: journal row {row} (verdict, written by {clerk}) is not what the "
                            "program writes at this point of the table's course: ")


def test_attack_recorder_journals_a_posting_and_its_reversal_on_an_old_hand(pg_url, league):
    """A posting of +1,000.00 to Ana on hand 1 of club and its reversal, each journaled: the
    money nets to nothing and each posting has its row, but no command posts them: named."""
    clerk = league["clerk"]
    with connected(pg_url, clerk) as conn:
        hand = club_hand(conn, 1)
        ana = conn.execute("SELECT id FROM player WHERE name = 'Ana'").fetchone().id
        paid = conn.execute("INSERT INTO posting (hand_id, table_id, account, player_id, kind, counterparty, amount, "
                            "created) VALUES (%s, %s, 'Ana', %s, 'pot', 'pot:main', 100000, now()) RETURNING *",
                            (hand.id, hand.table_id, ana)).fetchone()
        back = conn.execute("INSERT INTO posting (hand_id, table_id, account, player_id, kind, counterparty, amount, "
                            "reverses, created) VALUES (%s, %s, 'Ana', %s, 'pot', 'pot:main', -100000, %s, now()) "
                            "RETURNING *", (hand.id, hand.table_id, ana, paid.id)).fetchone()
        first, last = append(conn, [(J.POSTING, paid.id, J.posting_text(paid)), (J.POSTING, back.id,
                                                                                 J.posting_text(back))])
    found = problems(pg_url)
    assert found == ["table club hand 1: " + where("the program writes a row of kind event here, not of kind posting",
                                                   first, last, "posting", clerk)]


def test_attack_recorder_journals_a_verdict_of_a_hand_that_does_not_exist(pg_url, league):
    clerk = league["clerk"]
    with connected(pg_url, clerk) as conn:
        (row,) = append(conn, [(J.VERDICT, 999999, '[999999,"complete","2026-12-01 20:00:00.000000"]')])
    assert problems(pg_url) == [f"the book: journal row {row} (verdict, written by {clerk}) is not what the program "
                                "writes at this point of the table's course: it is about a hand the journal never "
                                "opened"]


def test_attack_recorder_journals_an_upgrade_row_then_postings_with_no_journal_row(pg_url, league):
    """An `upgrade` row in a book made after schema 0006 (its highest posting id set past two
    postings about to be made), then the two postings without a journal row: the row is not the
    migration's (it follows rows of the new form), so it excuses nothing, and each posting is named."""
    clerk = league["clerk"]
    with connected(pg_url, clerk) as conn:
        top = {name: conn.execute(f"SELECT max(id) AS id FROM {name}").fetchone().id for name in ("hand", "event",
                                                                                                  "posting")}
        (row,) = append(conn, [(J.UPGRADE, 0, f'["0006",{top["hand"]},{top["event"]},{top["posting"] + 10}]')])
        hand = club_hand(conn, 1)
        ana = conn.execute("SELECT id FROM player WHERE name = 'Ana'").fetchone().id
        made = [conn.execute("INSERT INTO posting (id, hand_id, table_id, account, player_id, kind, counterparty, "
                             "amount, created) VALUES (%s, %s, %s, %s, %s, 'pot', %s, %s, now()) RETURNING id",
                             (top["posting"] + k, hand.id, hand.table_id, account, who, other, cents)).fetchone().id
                for k, (account, who, other, cents) in enumerate((("Ana", ana, "pot:main", 100000),
                                                                  ("pot:main", None, "Ana", -100000)), 1)]
    found = problems(pg_url)
    assert f"the book: journal row {row} (upgrade, written by {clerk}) is not the upgrade's: it follows rows of " \
           "the form since schema 0006" in found
    for posting in made:
        assert f"table club hand 1: posting {posting} has no journal row: it was not written by the program" in found


def test_attack_recorder_moves_the_current_table_and_another_recorders_undo_stays_at_its_table(pg_url, league):
    """The book keeps no table "in use" that one recorder may move for another: clerk2's bare
    `undo` acts at friday, where clerk2 last worked, whatever the clerk writes in the book's
    setting rows; and a recorder who never worked at a table is asked which."""
    with connected(pg_url, league["clerk"]) as conn:
        conn.execute("UPDATE setting SET value = 'club'")
        conn.execute("INSERT INTO setting (key, value) VALUES ('table', 'club') ON CONFLICT (key) DO UPDATE "
                     "SET value = 'club'")
    clerk2 = Live(as_role(pg_url, league["clerk2"]))
    assert clerk2("undo").stdout.startswith(f"move 9: undid move 8 ({FRIDAY[7]})\n")
    assert clerk2.json("hand", "show", "--json")["table"] == "friday"
    assert [(t["name"], t["in_use"]) for t in clerk2.json("table", "list", "--json")] == [("club", False),
                                                                                        ("friday", True)]
    assert Live(as_role(pg_url, league["clerk"])).json("hand", "show", "--json")["table"] == "club"
    viewer = Live(as_role(pg_url, league["viewer"]))  # never worked at a table: asked which
    assert viewer("hand", "show", status=2).stderr == (
        f"error: which table? {league['viewer']} has worked at none of this book's tables yet: say --table NAME "
        "(tables: club, friday)\n")
    assert verified(Live(pg_url)("verify").stdout).endswith(": all in order\n")


# ------------------------------------------------------------------ the SQLite file's owner
@pytest.mark.slow
def test_attack_the_files_owner_voids_an_old_won_hand_with_the_programs_own_functions(tmp_path):
    """Whoever holds a SQLite book may write anything in it, with the program's own planners and
    writer: hand 1 of club, won three hands ago, closed void, its postings reversed, each row as
    the program writes it and journaled. `verify --head` of the head published before names the
    write (and so does `verify`): no command of the program voids a closed hand."""
    import shutil

    path = tmp_path / "book.db"
    shutil.copy(template_book("sqlite"), path)
    url = f"sqlite:///{path}"
    live = Live(url)
    live("table", "new", "club", "--players", "Ana Beto Carla", "--bet", "10")
    for dealer, lines in session_hands(4):
        live("hand", "new", "--dealer", dealer)
        for line in lines:
            live("rec", line)
    noted = head_of(url)
    since = last_row_sqlite(path)

    def voided(state):
        hand = state.hand(1)
        course.reverse_postings(state, hand)
        course.mark_void(state, hand)

    engine = create_engine(url)
    with engine.begin() as conn:
        table_id = conn.exec_driver_sql("SELECT id FROM card_table WHERE name = 'club'").scalar()
        state = BookState(conn, table_id, recorder_of(url))
        voided(state)
        write(conn, [state.plan])
    engine.dispose()
    last = last_row_sqlite(path)
    for args in ((), ("--head", noted)):
        found = problems(url, *args)
        assert found[0] == "table club hand 1: " + where(
            "the program writes a row of kind event here, not of kind posting", since + 1, last, "posting, verdict",
            recorder_of(url))


def last_row_sqlite(path) -> int:
    import sqlite3

    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT max(id) FROM journal").fetchone()[0]
