"""The book's audit and export (issues 15, 16), on SQLite and PostgreSQL: `verify` passes on
every book the program wrote, carried-in money included; it sees every edit made behind
the program's back (the database edited with SQL), also one whose hashes were recomputed,
through the book head (`verify --head`); an export imported into a fresh book gives the same
hands, standings, ledger totals, settle-up and tables (void hands left out, a table's close
as its `Closed` tag, the club's notes kept); an upgraded book is journaled and verifies."""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest
from sqlalchemy import create_engine, text

from conftest import PG_ENV, Live, fresh_pg_book, recorder_of, template_book, verified
from test_live_entry import friday_table, moves_of

ROOT = pathlib.Path(__file__).resolve().parent.parent
SAMPLES = sorted(str(p) for p in (ROOT / "sample_logs").glob("*.dsm"))
LEAGUE = sorted(str(p) for p in (ROOT / "tests" / "league_data").glob("*.dsm"))
NO_WINNER = moves_of("no-winner.dsm")  # Dani deals; the stock runs out with no winner
FRIDAY = moves_of("friday.dsm")        # Ana deals; Carla wins


def sql(url: str, *statements) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        for statement in statements:
            conn.execute(text(statement))
    engine.dispose()


def scalar(url: str, statement: str):
    engine = create_engine(url)
    with engine.connect() as conn:
        value = conn.execute(text(statement)).scalar()
    engine.dispose()
    return value


def problems(live) -> list:
    """verify's problems as `where: message` lines (exit 1 asserted)."""
    return verified(live("verify", status=1).stdout).splitlines()[:-1]


def head_of(live) -> str:
    return live.json("verify", "--json")["head"]


@pytest.fixture
def other_book(book_url, tmp_path):
    """A second fresh book on the same engine, as the program makes one on first use."""
    if book_url.startswith("sqlite"):
        shutil.copy(template_book("sqlite"), tmp_path / "copy.db")
        yield "sqlite:///" + str(tmp_path / "copy.db")
        return
    url, give_back = fresh_pg_book(os.environ[PG_ENV])
    try:
        yield url
    finally:
        give_back()


# ----------------------------------------------------------- A: books the program wrote
@pytest.mark.slow
def test_verify_passes_on_every_book_the_program_wrote(live):
    live("import", *SAMPLES, *LEAGUE, status=1)  # the dispute samples are rejected, by design
    out = live.json("verify", "--json")
    assert out["problems"] == []
    assert (out["hands"], out["moves"], out["postings"]) == (41, 703, 640)
    assert re.fullmatch("[0-9a-f]{64}", out["head"])
    # south.dsm brings 12.00 into west's pot from before the book: brought in, and in order
    assert live.json("standings", "--json", "--table", "west")["brought_in"] == "12.00"
    # undoing that hand keeps what came from outside (only the settlement is reversed)
    live("undo", "--table", "west")
    assert verified(live("verify").stdout).endswith(": all in order\n")


def night(live):
    """A night recorded live: friday (Carla wins) then a void hand at one table; at another a
    hand with no winner (20.00 and an oro pot of 2.00 carried), a hand never dealt, a last
    hand void, and `table close` returning the pots (R11.5)."""
    friday_table(live)
    for words in FRIDAY:
        live(*words)
    live("hand", "new")  # never dealt: void when the table closes
    live("table", "close", "friday")
    live("table", "new", "club", "--players", "Ana Beto Carla Dani", "--bet", "5", "--side", "oro 1 Ana Beto")
    live("hand", "new", "--dealer", "Dani")
    for words in NO_WINNER:
        live(*words)
    live("hand", "new", "--dealer", "Beto")  # the wrong dealer: taken back, never dealt
    live("cut", "Carla")
    live("undo")
    live("hand", "new")
    out = live("table", "close", "club").stdout
    assert out == ("table club closed\n"
                   "  the carried main pot is returned (R11.5): Ana 5.00, Beto 5.00, Carla 5.00, Dani 5.00\n"
                   "  the carried oro pot is returned (R11.5): Ana 1.00, Beto 1.00\n")


def ledger_totals(live) -> dict:
    totals = {}
    for entry in live.json("ledger", "--json")["postings"]:
        key = f"{entry['account']} {entry['kind']} {entry['detail']}"
        totals[key] = totals.get(key, 0) + round(float(entry["amount"]) * 100)
    return {k: v for k, v in totals.items() if v}


def tables(live) -> list:
    return [{k: v for k, v in t.items() if k not in ("hands", "in_use")} for t in live.json("table", "list", "--json")]


# ----------------------------------------------------------------- B: lossless export
@pytest.mark.slow
def test_an_exported_night_imported_into_a_fresh_book_is_the_same_book(live, other_book, tmp_path):
    night(live)
    assert verified(live("verify").stdout).endswith(": all in order\n")
    out = tmp_path / "night.dsm"
    written = live("export", "-o", out)
    assert written.stderr.splitlines()[0] == f"{out}: 2 hands"  # the void hands are not written
    assert written.stderr.splitlines()[1] == f"book head: {head_of(live)}"
    exported = out.read_text()
    assert exported.count('[Closed "yes"]') == 2 and "\n\n\n" not in exported
    club = tmp_path / "club.dsm"  # check --session shows what the close returned
    club.write_text(live("export", "--table", "club").stdout)
    returned = [line.split() for line in live("check", "--session", club).stdout.splitlines()
                if line.split()[:1] in (["returned"], ["final"])]
    assert returned == [["returned", "carried", "pot", "(R11.5)", "6.00", "6.00", "5.00", "5.00"],
                        ["final", "0.00", "0.00", "0.00", "0.00"]]
    copy = Live(other_book)
    assert copy("import", out).stdout == (f"{out}: 2 hands stored, 0 already in the book, 0 rejected "
                                          "(table club, friday)\n")
    # 55: the `end` that `hand new` wrote closing friday's hand 1 (docs/rulings.md N4.4) is one of them
    assert verified(copy("verify").stdout) == "2 hands, 55 moves, 44 postings: all in order\n"
    for args in (["standings", "--json"], ["settle-up", "--json"]):
        assert copy.json(*args) == live.json(*args), args
    assert ledger_totals(copy) == ledger_totals(live)
    assert tables(copy) == tables(live)
    assert all(t["closed"] for t in tables(copy))
    assert copy("export").stdout == live("export").stdout
    # and the export is the book's own: imported into the same book it stores nothing
    assert live("import", out).stdout == (f"{out}: 0 hands stored, 2 already in the book, 0 rejected "
                                          "(table club, friday)\n")


def test_the_closed_tag_returns_the_pots_in_check_and_import(live, tmp_path):
    record = (ROOT / "tests" / "conformance" / "no-winner.dsm").read_text()
    closed = tmp_path / "closed.dsm"
    closed.write_text(record.replace('[Dealer "Dani"]', '[Dealer "Dani"]\n[Closed "yes"]'))
    session = [line.split() for line in live("check", "--session", closed).stdout.splitlines()]
    # the pot of 40.00 (20.00 of it from before the record) goes back in shares (docs/rulings.md)
    assert ["returned", "carried", "pot", "(R11.5)", "10.00", "10.00", "10.00", "10.00"] in session
    assert live("import", closed).stdout.endswith("1 hand stored, 0 already in the book, 0 rejected (table closed)\n")
    assert live.json("table", "list", "--json")[0]["closed"] is True
    refunds = [e for e in live.json("ledger", "--json")["postings"] if e["kind"] == "refund"]
    assert sorted((e["account"], e["amount"]) for e in refunds if not e["account"].startswith("pot:")) == [
        ("Ana", "10.00"), ("Beto", "10.00"), ("Carla", "10.00"), ("Dani", "10.00")]
    table = live.json("standings", "--json")
    assert (table["unwon"], table["brought_in"]) == ("0.00", "20.00")
    assert [p["net"] for p in table["players"]] == ["5.00"] * 4
    assert verified(live("verify").stdout).endswith(": all in order\n")
    # a Closed tag says yes or nothing
    wrong = tmp_path / "wrong.dsm"
    wrong.write_text(record.replace('[Dealer "Dani"]', '[Dealer "Dani"]\n[Closed "no"]'))
    assert (f'{wrong}:3: N3 the Closed tag says the table broke up after this hand: [Closed "yes"], or no '
            'Closed tag') in live("check", wrong, status=1).stdout.splitlines()


def test_check_session_starts_another_night_after_a_closed_tag(live, tmp_path):
    record = (ROOT / "tests" / "conformance" / "no-winner.dsm").read_text()
    two = tmp_path / "two.dsm"
    two.write_text(record.replace('[Dealer "Dani"]', '[Dealer "Dani"]\n[Closed "yes"]') + "\n" + record)
    session = json.loads(live("check", "--session", "--json", two).stdout)["files"][0]["session"]
    text_out = live("check", "--session", two).stdout
    # no R3.1 (Dani deals both) nor R2.3 (the second carries in 20.00): the first closed the table
    assert "R3.1" not in text_out and "R2.3" not in text_out
    rows = [line.split() for line in text_out.splitlines()]
    # the first night's pot goes back; the second's is still carried (no Closed tag, N9.4)
    assert ["returned", "carried", "pot", "(R11.5)", "10.00", "10.00", "10.00", "10.00"] in rows
    assert text_out.count("brought in from before the record") == 2
    assert session["refund"] == {p: "10.00" for p in ("Ana", "Beto", "Carla", "Dani")}
    assert session["unbalanced"][-1] == {"line": 33, "pot": "main pot", "amount": "-40.00", "why": (
        'still carried: the table did not break up (no [Closed "yes"], N9.4)')}
    assert session["problems"] == [] and session["warnings"] == []


def test_a_hand_after_a_closed_tag_is_not_of_that_table(live, tmp_path):
    record = (ROOT / "tests" / "conformance" / "friday.dsm").read_text()
    twice = tmp_path / "twice.dsm"
    twice.write_text(record.replace('[Dealer "Ana"]', '[Dealer "Ana"]\n[Closed "yes"]') + "\n"
                     + record.replace('[Dealer "Ana"]', '[Dealer "Ana"]\n[Event "the same again"]'))
    out = live("import", "--table", "t", twice, status=1).stdout.splitlines()
    assert out[0].endswith(": N3 table t was closed by an earlier hand's Closed tag: this hand is not of that "
                           "table (import it into another --table)")
    assert out[-1] == f"{twice}: 1 hand stored, 0 already in the book, 1 rejected (table t)"
    assert verified(live("verify").stdout).endswith(": all in order\n")


def test_the_notes_above_a_records_tags_are_kept(live, tmp_path):
    record = (ROOT / "tests" / "conformance" / "friday.dsm").read_text()
    noted = tmp_path / "noted.dsm"
    noted.write_text("# Friday at the club\n#  Beto paid late\n"
                     + record.replace('[Dealer "Ana"]', '# Ana deals\n[Dealer "Ana"]'))
    live("import", noted)
    exported = live("export").stdout
    assert exported.startswith("# Friday at the club\n#  Beto paid late\n# Ana deals\n[Players ")
    assert verified(live("verify").stdout).endswith(": all in order\n")
    # the same hand without its notes is the same hand
    plain = tmp_path / "plain.dsm"
    plain.write_text(record)
    assert "0 hands stored, 1 already in the book" in live("import", plain).stdout


# --------------------------------------------------------------------- C: tampering
def tampering_night(url):
    """Two hands at friday (Carla wins the first; the second, no winner, imported after it),
    an imported table `south`/`west`, and an open hand at `club` with three moves."""
    live = Live(url)
    friday_table(live)
    for words in FRIDAY:
        live(*words)
    live("end")
    live("import", *LEAGUE)
    live("table", "new", "club", "--players", "Ana Beto Carla Dani", "--bet", "5")
    live("hand", "new", "--dealer", "Dani")
    for words in NO_WINNER[:3]:
        live(*words)


@pytest.fixture
def book(built_book):
    """A copy of `tampering_night`'s book (recorded once per test process), in order."""
    live = Live(built_book("tampering", tampering_night))
    assert verified(live("verify").stdout).endswith(": all in order\n")
    return live


def posting_id(url, where: str) -> int:
    return scalar(url, f"SELECT min(p.id) FROM posting p JOIN hand h ON h.id = p.hand_id "
                       f"JOIN card_table t ON t.id = h.table_id WHERE {where}")


def test_a_reversal_that_names_another_hands_posting(book):
    url = book.url
    first = posting_id(url, "t.name = 'north' AND h.number = 1 AND p.account = 'Ana'")
    second = posting_id(url, "t.name = 'north' AND h.number = 1 AND p.account = 'Beto'")
    hand, table = scalar(url, "SELECT h.id FROM hand h JOIN card_table t ON t.id = h.table_id "
                              "WHERE t.name = 'friday'"), scalar(url, "SELECT id FROM card_table WHERE name = 'friday'")
    now = "'2026-12-01 20:00:00'"
    sql(url, f"INSERT INTO posting (hand_id, table_id, account, player_id, kind, counterparty, amount, "
             f"reverses, created) VALUES ({hand}, {table}, 'Ana', (SELECT id FROM player WHERE name = 'Ana'), "
             f"'pot', 'Beto', 500000, {first}, {now})",
        f"INSERT INTO posting (hand_id, table_id, account, player_id, kind, counterparty, amount, "
        f"reverses, created) VALUES ({hand}, {table}, 'Beto', (SELECT id FROM player WHERE name = 'Beto'), "
        f"'pot', 'Ana', -500000, {second}, {now})")
    found = problems(book)
    assert len(found) == 4 and all(line.startswith("table friday hand 1: posting ") for line in found)
    assert f"reverses posting {first}, which is not a posting of this hand it negates" in found[0]
    assert all(line.endswith(" has no journal row: it was not written by the program") for line in found[2:])


def test_a_postings_player_or_table_changed(book):
    url = book.url
    carla = posting_id(url, "t.name = 'friday' AND p.account = 'Carla' AND p.amount > 0")
    sql(url, f"UPDATE posting SET player_id = NULL WHERE id = {carla}")
    assert problems(book)[0].startswith(f"table friday hand 1: posting {carla} (")
    assert problems(book)[0].endswith(") is not on its account's player")
    sql(url, f"UPDATE posting SET player_id = (SELECT id FROM player WHERE name = 'Carla') WHERE id = {carla}",
        f"UPDATE posting SET table_id = (SELECT id FROM card_table WHERE name = 'north') WHERE id = {carla}")
    assert problems(book)[0].endswith(") is of another table's hand")


def test_a_hand_deleted_in_the_middle_with_and_without_renumbering(book):
    url = book.url
    hand = scalar(url, "SELECT h.id FROM hand h JOIN card_table t ON t.id = h.table_id "
                       "WHERE t.name = 'north' AND h.number = 2")
    sql(url, f"DELETE FROM posting WHERE hand_id = {hand}", f"DELETE FROM event WHERE hand_id = {hand}",
        f"DELETE FROM hand WHERE id = {hand}")
    found = problems(book)
    assert "table north hand 3: N9 hand 2 is missing: the hands jump to 3" in found
    assert "table north hand 3: R2.3 Carry is 30.00 but the hand before carried out 0.00" in found
    assert "table north hand 2: the journal holds this hand but the book does not: it was deleted" in found
    sql(url, "UPDATE hand SET number = 2 WHERE number = 3 "
             "AND table_id = (SELECT id FROM card_table WHERE name = 'north')")
    found = problems(book)
    assert not any("is missing" in line for line in found)
    assert found[0] == "table north hand 2: its row or its moves are not what the journal says was imported"


def test_the_last_hand_deleted(book):
    url = book.url
    hand = scalar(url, "SELECT max(h.id) FROM hand h JOIN card_table t ON t.id = h.table_id WHERE t.name = 'club'")
    sql(url, f"DELETE FROM event WHERE hand_id = {hand}", f"DELETE FROM hand WHERE id = {hand}")
    assert problems(book) == ["table club hand 1: the journal holds this hand but the book does not: it was deleted"]


@pytest.mark.parametrize("edit, message", [
    ("fouls = 'Beto'", "its fouls were stored as 'Beto' but its moves give ''"),
    ("carry_in = 98750", "its row is not what the journal says was written"),
    ("side_carry_out = '{\"oro\": 98750}'", "its side_carry_out was stored as "),
])
def test_a_hands_derived_or_written_columns_edited(book, edit, message):
    sql(book.url, f"UPDATE hand SET {edit} WHERE table_id = (SELECT id FROM card_table WHERE name = 'friday')")
    found = problems(book)
    assert any(line.startswith(f"table friday hand 1: {message}") for line in found), found


def test_the_last_move_of_an_open_hand_deleted(book):
    sql(book.url, "DELETE FROM event WHERE id = (SELECT max(id) FROM event)")
    assert problems(book) == ["table club hand 1 move 3: the journal holds this move but the book does not: "
                              "it was deleted"]


@pytest.mark.slow
def test_verify_read_one_hand_a_batch_finds_what_it_finds_at_once(live, monkeypatch):
    """verify reads a table's hands a batch at a time (league.BATCH), each batch's moves and
    postings in one query: one hand a batch, club's refund (R11.5 returns what its first hand
    carried, two void hands later) reaches back past its batch, and every edit is found
    the same, in the same order."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.read.scorebook import Scorebook

    def found():
        book = open_book(live.url, readonly=True)
        try:
            return Scorebook(book).verify()
        finally:
            book.engine.dispose()

    night(live)
    live("import", *LEAGUE)
    monkeypatch.setenv("DESMOCHE_BATCH", "1")
    assert found()[0] == []
    monkeypatch.undo()
    url = live.url
    carla = posting_id(url, "t.name = 'friday' AND p.account = 'Carla' AND p.amount > 0")
    hand = scalar(url, "SELECT h.id FROM hand h JOIN card_table t ON t.id = h.table_id "
                       "WHERE t.name = 'north' AND h.number = 2")
    sql(url, f"UPDATE posting SET player_id = NULL, amount = amount + 1 WHERE id = {carla}",
        f"DELETE FROM event WHERE hand_id = {hand} AND seq = 5",
        "UPDATE hand SET fouls = 'Beto' WHERE number = 1")
    whole = found()
    assert len(whole[0]) > 5
    monkeypatch.setenv("DESMOCHE_BATCH", "1")
    assert found() == whole


def test_a_journal_row_edited(book):
    sql(book.url, "UPDATE journal SET text = replace(text, '1000', '100') WHERE kind = 'table'")
    found = problems(book)
    assert found[0].startswith("the book: journal row ") and found[0].endswith(
        f"(table, written by {recorder_of(book.url)}) does not match its hash: the journal was changed")
    sql(book.url, "UPDATE journal SET text = 'not json' WHERE kind IN ('import', 'event')")
    found = problems(book)  # one clear line each, never a traceback
    assert "table north hand 1: its row or its moves are not what the journal says was imported" in found
    assert ("table club hand 1 move 1: it is not what the journal says was written (entered by "
            f"{recorder_of(book.url)})") in found


def test_an_edit_whose_hashes_were_recomputed_is_caught_by_the_head(book):
    """Someone who can rewrite the whole book edits a move's comment (of the open hand, which
    has no content hash yet), recomputes its hand's chain and the whole journal — every row's
    text from the rows it covers, the chain hashed again, each row keeping its writer, the
    course of every table as it was: verify alone cannot know, the head kept before can."""
    from sqlalchemy import select

    from desmoche_ref.store.trust import journal as J
    from desmoche_ref.store.schema.models import Event, core
    from desmoche_ref.store.schema.records import chain_hash

    event = core(Event)

    kept = head_of(book)
    book("table", "new", "later", "--players", "Ana Beto", "--bet", "1")  # history goes on: the head
    # kept is still in the chain
    assert verified(book("verify", "--head", kept).stdout).endswith(": all in order\n")
    engine = create_engine(book.url)
    with engine.begin() as conn:
        hand = conn.execute(text("SELECT h.id FROM hand h JOIN card_table t ON t.id = h.table_id "
                                 "WHERE t.name = 'club'")).scalar()
        conn.execute(text(f"UPDATE event SET comment = 'Beto cheated' WHERE hand_id = {hand} AND seq = 2"))
        previous = ""
        for row in conn.execute(text(f"SELECT id, seq, line, comment, supersedes, recorder FROM event "
                                     f"WHERE hand_id = {hand} ORDER BY seq")).all():
            previous = chain_hash(previous, row.seq, row.line, row.comment, row.supersedes, row.recorder)
            conn.execute(text("UPDATE event SET hash = :h WHERE id = :id"), {"h": previous, "id": row.id})
        previous = ""
        for row in conn.execute(text("SELECT * FROM journal ORDER BY id")).all():
            body = row.text
            if row.kind == J.EVENT:  # read as the program reads a move (its time a time)
                body = J.event_text(conn.execute(select(event).where(event.c.id == row.subject)).one())
            previous = J.chain(previous, row.kind, row.subject, body, row.writer)
            conn.execute(text("UPDATE journal SET text = :t, hash = :h WHERE id = :id"),
                         {"t": body, "h": previous, "id": row.id})
    engine.dispose()
    assert verified(book("verify").stdout).endswith(": all in order\n")  # consistent, but…
    assert problems_with_head(book, kept) == [
        f"the book: {kept} is not a head of this book's journal: the history up to it was changed, "
        "or it is another book's"]


def problems_with_head(live, head) -> list:
    return verified(live("verify", "--head", head, status=1).stdout).splitlines()[:-1]


def test_a_book_upgraded_from_before_the_journal_is_journaled_and_verifies(book):
    from alembic import command

    from desmoche_ref.store.db import Book, alembic_config

    before = live_figures(book)
    old = Book(book.url, create_engine(book.url))  # SQLite: foreign keys off, as a table is rebuilt
    cfg = alembic_config(old)
    with old.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003")  # as a book of schema 0003 was: no journal
    old.engine.dispose()
    assert scalar(book.url, "SELECT version_num FROM alembic_version") == "0003"
    book("db", "upgrade")  # its owner upgrades it (a read never does): the journal is backfilled
    out = book.json("verify", "--json")
    assert out["problems"] == [] and out["journal"] == scalar(book.url, "SELECT count(*) FROM journal") > 0
    assert live_figures(book) == before
    book(*NO_WINNER[3], "--table", "club")  # (a book made since 0009 keeps no table in use for all)
    assert verified(book("verify").stdout).endswith(": all in order\n")


def live_figures(live):
    return live.json("standings", "--json"), live.json("settle-up", "--json")


# ------------------------------------------------------------ D: concurrent imports
def racing(url: str, *commands) -> list:
    """Start the commands at once, each a process; their (exit code, stdout)."""
    procs = [subprocess.Popen([sys.executable, "-m", "desmoche_ref", *args, "--db", url],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
             for args in commands]
    return [(p.wait(timeout=300), p.stdout.read()) for p in procs]


@pytest.mark.slow
def test_racing_imports_of_one_record_store_each_hand_once(book_url, tmp_path):
    sim = tmp_path / "sim.dsm"
    live = Live(book_url)
    live("simulate", "--hands", "200", "--seed", "3", "-o", sim)
    live("db", "upgrade")
    runs = racing(book_url, ["import", "--table", "X", str(sim)], ["import", "--table", "Y", str(sim)])
    assert [code for code, _ in runs] == [0, 0], runs
    assert scalar(book_url, "SELECT count(*) FROM hand") == 200
    stored = sorted(int(re.search(r": (\d+) hands? stored", out).group(1)) for _, out in runs)
    assert stored == [0, 200]
    # two imports of different records at once: one linear journal, all in order
    other = tmp_path / "other.dsm"
    live("simulate", "--hands", "200", "--seed", "4", "-o", other)
    runs = racing(book_url, ["import", "--table", "Z", str(other)], ["import", "--table", "W", str(sim)],
                  ["table", "new", "T", "--players", "Ana Beto", "--bet", "1"])
    assert [code for code, _ in runs] == [0, 0, 0], runs
    out = live.json("verify", "--json")
    assert out["problems"] == [] and out["hands"] == 400


@pytest.mark.slow
def test_a_hand_begun_and_not_played_is_not_exported_and_the_export_imports_whole(live, other_book, tmp_path):
    """A hand begun with nothing standing in it (no move yet, or every move taken back) holds
    no card and no posting; written, its tags alone would be read as the next hand's (N3), and
    that hand would be lost to the import. Found by the stateful laws (an export of a table
    whose next hand had just begun, followed by another table's hand)."""
    live("table", "new", "club", "--players", "Ana Beto Carla Dani", "--bet", "5", "--side", "oro 1 Ana Beto")
    live("hand", "new", "--dealer", "Dani")
    for words in NO_WINNER:
        live(*words)
    live("hand", "new", "--dealer", "Ana")  # begun, carrying the pot: nothing played yet
    friday_table(live)
    for words in FRIDAY:
        live(*words)
    live("hand", "new")  # friday's next: a move, taken back
    live("cut", "Carla")
    live("undo")
    out = tmp_path / "night.dsm"
    assert live("export", "-o", out).stderr.splitlines()[0] == f"{out}: 2 hands"
    assert live("export", "--table", "club", "--hand", "2", status=1).stderr == "error: no hand in the book matches\n"
    copy = Live(other_book)
    assert copy("import", out).stdout == (f"{out}: 2 hands stored, 0 already in the book, 0 rejected "
                                          "(table club, friday)\n")
    for args in (["standings", "--json"], ["settle-up", "--json"]):
        assert copy.json(*args) == live.json(*args), args
    assert ledger_totals(copy) == ledger_totals(live)


@pytest.mark.slow
def test_two_hands_alike_are_two_hands_through_export_and_import(live, other_book, tmp_path):
    """The same short hand played twice at a table (the same deal and declaration): two hands
    of one content. The export imported into a fresh book stores both, into its own book
    neither; a file imported twice stores nothing the second time. Found by the stateful laws
    (a fresh book's import took the second for the first, and lost its money)."""
    peladilla = moves_of("peladilla.dsm")
    live("table", "new", "t", "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo")
    for _ in range(2):
        live("hand", "new", "--dealer", "Ana")
        for words in peladilla:
            live(*words)
    out = tmp_path / "night.dsm"
    assert live("export", "-o", out).stderr.splitlines()[0] == f"{out}: 2 hands"
    copy = Live(other_book)
    assert copy("import", out).stdout == (  # Ana dealt both: stored, with a warning (N9.3)
        f"{out}:14: R3.1 the deal passes to the right: Beto deals this hand, not Ana\n"
        f"{out}: 2 hands stored, 0 already in the book, 0 rejected (table t)\n")
    assert copy("import", out).stdout == f"{out}: 0 hands stored, 2 already in the book, 0 rejected (table t)\n"
    assert live("import", out).stdout == f"{out}: 0 hands stored, 2 already in the book, 0 rejected (table t)\n"
    for args in (["standings", "--json"], ["settle-up", "--json"]):
        assert copy.json(*args) == live.json(*args), args
    assert ledger_totals(copy) == ledger_totals(live)
    assert verified(copy("verify").stdout) == "2 hands, 10 moves, 24 postings: all in order\n"
