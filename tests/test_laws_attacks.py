"""Issue 24's attacks on the laws across hands (laws.py, NOTATION N9), each tried as the one who
would try it: on SQLite by anyone with the file, on the PostgreSQL test server by a recorder
made with `db grant`, through its own connection, computing what the program would write with
the program's own functions (store/trust/journal.py) as an attacker with the source would. Each is
refused, or found by `verify` naming the table, the hand and the rule. docs/security.md cites
these tests by name (`test_attack_…`)."""

import json
import pathlib
import shutil
from datetime import datetime, timezone

import pytest
from sqlalchemy import create_engine, insert, select, update

from conftest import Live, template_book
from test_store_roles import as_role, granted_book, owner_url, roles  # noqa: F401 (fixtures)

DATA = pathlib.Path(__file__).parent / "league_data"
NORTH = DATA / "north.dsm"  # table north: hand 2 carries out a pot of 30.00 (Bet 10, no winner)


@pytest.fixture(params=["sqlite", "postgresql"])
def attacker(request, tmp_path):
    """(the owner's commands, the recorder's commands, the recorder's URL) on a book whose
    recorder imported north.dsm: on SQLite anyone with the file is both; on PostgreSQL the
    recorder is a role granted `--recorder` by the book's owner."""
    if request.param == "sqlite":
        path = tmp_path / "book.db"
        shutil.copy(template_book("sqlite"), path)
        url = f"sqlite:///{path}"
        owner = recorder = Live(url)
    else:
        base = request.getfixturevalue("owner_url")
        owner, (clerk,) = granted_book(base, request.getfixturevalue("roles"), "--recorder")
        url = as_role(base, clerk)
        recorder = Live(url)
    stored = recorder("import", NORTH).stdout
    assert stored.endswith("2 hands stored, 0 already in the book, 0 rejected (table north)\n")
    return owner, recorder, url


def connected(url):
    """The attacker's own connection (psycopg on PostgreSQL), one transaction."""
    engine = create_engine(url)
    return engine, engine.begin()


def problems(live) -> list:
    found = live.json("verify", "--json", status=1)["problems"]
    return [(p["table"], p["hand"], p["message"]) for p in found]


def test_attack_a_bet_forged_while_a_pot_is_carried_is_found_by_verify(attacker):
    from desmoche_ref.store.trust import journal as J
    from desmoche_ref.store.read.league import card_table

    owner, recorder, url = attacker
    recorder("table", "bet", "north", "500", "--all-agree", status=2)  # refused: R2.3
    engine, transaction = connected(url)
    with transaction as conn:  # what `table bet` would have written, had it not refused
        conn.execute(update(card_table).where(card_table.c.name == "north").values(bet=50000))
        table = conn.execute(select(card_table).where(card_table.c.name == "north")).one()
        J.append(conn, [(J.BET, table.id, J.table_text(table))])
    engine.dispose()
    found = problems(owner)
    writer = _writer(url)
    assert found == [("north", 2, f"journal row {_last_journal_row(owner)} (bet, written by {writer}) is not what the "
                                  "program writes at this point of the table's course: the program refuses it here: "
                                  "R2.3 the bet cannot change while a pot of 30.00 is carried: it changes once the "
                                  "pot is won")]
    # and no hand is dealt at the forged bet: `hand new` holds the laws as `verify` does
    refused = recorder("hand", "new", "--table", "north", status=2)
    assert "R2.3 the bet changed from 10.00 to 500.00 while a pot of 30.00 is carried" in refused.output


def test_attack_a_hand_inserted_that_drops_the_carried_pot_is_found_by_verify(attacker):
    from desmoche_ref.store.trust import journal as J
    from desmoche_ref.store.read.league import card_table, hand

    owner, recorder, url = attacker
    engine, transaction = connected(url)
    with transaction as conn:  # hand 3 as a live `hand new` writes it, but carrying in nothing
        table_id = conn.execute(select(card_table.c.id).where(card_table.c.name == "north")).scalar()
        values = dict(table_id=table_id, number=3, players="Ana Beto Carla", dealer="Carla", rules="desmoche",
                      options="todo", bet=1000, carry_in=0, sides=[], side_carry={}, extra_tags=[],
                      notes=None, source="live", status="open", fouls="",
                      opened=datetime.now(timezone.utc))
        hand_id = conn.execute(insert(hand).values(**values).returning(hand.c.id)).scalar()
        row = conn.execute(select(hand).where(hand.c.id == hand_id)).one()
        J.append(conn, [(J.HAND, hand_id, J.hand_text(_Hand(row)))])
    engine.dispose()
    # the row the program would not have written there, named with its writer; and the laws over the book's hands
    assert problems(owner) == [
        ("north", 3, f"journal row {_last_journal_row(owner)} (hand, written by {_writer(url)}) is not what the "
                     "program writes at this point of the table's course: R2.3 Carry is 0.00 but the hand before "
                     "carried out 30.00"),
        ("north", 3, "R2.3 Carry is 0.00 but the hand before carried out 30.00")]


def test_attack_an_import_that_changes_the_bet_while_a_pot_is_carried_is_refused(attacker, tmp_path):
    owner, recorder, url = attacker
    night = tmp_path / "night.dsm"  # north's two hands, then north2's at a bet of 20 (30.00 carried)
    night.write_text(NORTH.read_text() + "\n" + (DATA / "north2.dsm").read_text().replace('[Bet "10"]', '[Bet "20"]'))
    finding = "R2.3 the bet changed from 10.00 to 20.00 while a pot of 30.00 is carried"
    # check --session reports it
    checked = recorder.json("check", "--session", "--json", night, status=1)["files"][0]["session"]
    assert [(p["line"], p["code"], p["message"]) for p in checked["problems"]] == [(34, "R2.3", finding[5:])]
    # import refuses it, the first two hands known by their content
    out = recorder("import", night, status=1).stdout.splitlines()
    assert out == [f"{night}:34: {finding}", f"{night} hand 3 (line 34): rejected, nothing of it stored",
                   f"{night}: 0 hands stored, 2 already in the book, 1 rejected (table north)"]
    # the live `table bet` refuses the same change
    refused = recorder("table", "bet", "north", "20", "--all-agree", status=2)
    assert "R2.3 the bet cannot change while a pot of 30.00 is carried" in refused.output
    assert owner.json("verify", "--json")["problems"] == []


def test_attack_check_session_returns_nothing_without_a_closed_tag():
    from conftest import invoke

    run = invoke("check", "--session", "--json", NORTH)
    session = json.loads(run.stdout)["files"][0]["session"]
    assert run.returncode == 0
    assert session["refund"] == {} and session["final"] == session["totals"]
    still = [u for u in session["unbalanced"] if u["why"].startswith("still carried")]
    assert still == [{"line": 16, "pot": "main pot", "amount": "-30.00",
                      "why": 'still carried: the table did not break up (no [Closed "yes"], N9.4)'}]
    money = sum(float(u["amount"]) for u in session["unbalanced"])
    assert round(money, 2) == round(sum(float(v) for v in session["final"].values()), 2)


class _Hand:
    """A row of the hand table read as journal.hand_text reads a hand."""

    def __init__(self, row):
        self.__dict__.update(row._mapping)


def _writer(url: str) -> str:
    """Who the book names as the writer of the attacker's rows: the role, or the file's owner."""
    from conftest import recorder_of

    return recorder_of(url)


def _last_journal_row(live) -> int:
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.trust.journal import rows

    book = open_book(live.url, readonly=True)
    with book.engine.connect() as conn:
        last = rows(conn)[-1].id
    book.engine.dispose()
    return last
