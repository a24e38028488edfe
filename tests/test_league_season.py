"""A small season worked by hand, on SQLite and PostgreSQL: two nights, three tables, players
moving between them; one set of standings and one settle-up for all of it.

The records are tests/league_data/. The expected figures come from the rules, not from the
program:
  north (10 a hand, todo; Ana Beto Carla)
    hand 1  Beto four kings (R6.6): pot 30 to Beto, Arriba del Palo 10 from Ana and Carla:
            Beto +40, Ana −20, Carla −20
    hand 2  all three disqualified (F5, R14.4): no winner, the pot of 30 carries (R2.3):
            −10 each, one foul each
  north2.dsm, the same table in another file: hand 3, Carry 30 (the book's own pot)
            Ana peladilla: pot 60 to Ana, 10 from Beto and from Carla: Ana +70, Beto −20, Carla −20
  south (5, oro side game at 2; Carla Dani)
            Dani four nines, oro with Ad (announced, shown by the declaration, R4.5):
            pot 10 and side pot 4 to Dani: Dani +7, Carla −7
  west (4; Ana Dani), Carry 12 from hands the book never saw: brought in 12
            Ana peladilla: pot 20 to Ana: Ana +16, Dani −4
Nets: Ana −20 −10 +70 +16 = +56; Beto +40 −10 −20 = +10; Carla −20 −10 −20 −7 = −57;
Dani +7 −4 = +3. They sum to 12 = brought in, nothing unwon: 12 + 0 − 12 = 0.
"""

import json
import pathlib

from click.testing import CliRunner

from desmoche_ref.cli import main
from desmoche_ref.store.db import open_book
from desmoche_ref.store.read.league import audit

DATA = pathlib.Path(__file__).parent / "league_data"
SEASON = [DATA / "north.dsm", DATA / "north2.dsm", DATA / "south.dsm"]


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def player(name, hands, wins, auto, none, won, paid, fouls, sides, net):
    return {"player": name, "hands": hands, "wins": wins, "auto_wins": auto, "no_winner": none,
            "bonuses_won": won, "bonuses_paid": paid, "fouls": fouls, "side_games_won": sides,
            "net": net}


SEASON_STANDINGS = {
    "players": [
        player("Ana", 4, 2, 2, 1, "20.00", "10.00", 1, 0, "56.00"),
        player("Beto", 3, 1, 1, 1, "20.00", "10.00", 1, 0, "10.00"),
        player("Dani", 2, 1, 1, 0, "0.00", "0.00", 0, 1, "3.00"),
        player("Carla", 4, 0, 0, 1, "0.00", "20.00", 1, 0, "-57.00"),
    ],
    "unwon": "0.00", "brought_in": "12.00"}


def test_season_worked_by_hand(book_url):
    code, out = run("import", "--db", book_url, *SEASON)
    assert code == 0, out
    assert out.splitlines() == [
        f"{DATA / 'north.dsm'}: 2 hands stored, 0 already in the book, 0 rejected (table north)",
        f"{DATA / 'north2.dsm'}: 1 hand stored, 0 already in the book, 0 rejected (table north)",
        f"{DATA / 'south.dsm'}: 2 hands stored, 0 already in the book, 0 rejected (table south, west)"]
    code, out = run("standings", "--db", book_url, "--json")
    assert code == 0 and json.loads(out) == SEASON_STANDINGS
    # one settle-up for both nights: the largest debt to the largest credit first; the
    # 12 brought in to west's pot came out of a pot, so the pot party pays it out
    code, out = run("settle-up", "--db", book_url, "--json")
    assert json.loads(out) == {
        "transfers": [{"from": "Carla", "to": "Ana", "amount": "56.00"},
                      {"from": "(pot)", "to": "Beto", "amount": "10.00"},
                      {"from": "(pot)", "to": "Dani", "amount": "2.00"},
                      {"from": "Carla", "to": "Dani", "amount": "1.00"}],
        "balances": {"(pot)": "-12.00", "Ana": "56.00", "Beto": "10.00", "Carla": "-57.00",
                     "Dani": "3.00"},
        "held": []}  # no pot carried at the end: every balance as the standings say
    book = open_book(book_url)
    with book.read() as s:
        assert audit(s) == []
    book.engine.dispose()


def test_one_table_one_night_and_filters(book_url):
    run("import", "--db", book_url, *SEASON)
    code, out = run("standings", "--db", book_url, "--table", "north", "--json")
    # north alone: Ana −20 −10 +70, Beto +40 −10 −20, Carla −20 −10 −20; its pot is empty
    assert json.loads(out) == {"players": [
        player("Ana", 3, 1, 1, 1, "20.00", "10.00", 1, 0, "40.00"),
        player("Beto", 3, 1, 1, 1, "20.00", "10.00", 1, 0, "10.00"),
        player("Carla", 3, 0, 0, 1, "0.00", "20.00", 1, 0, "-50.00")],
        "unwon": "0.00", "brought_in": "0.00"}
    code, out = run("settle-up", "--db", book_url, "--table", "north")
    assert out.splitlines() == ["Carla pays Ana 40.00", "Carla pays Beto 10.00"]
    # the second night (south and west): Carla −7, Dani +7 −4, Ana +16; 12 brought in
    code, out = run("standings", "--db", book_url, "--since", "2026-11-06", "--json")
    got = json.loads(out)
    assert [(r["player"], r["net"]) for r in got["players"]] == [
        ("Ana", "16.00"), ("Dani", "3.00"), ("Carla", "-7.00")]
    assert (got["unwon"], got["brought_in"]) == ("0.00", "12.00")
    code, out = run("standings", "--db", book_url, "--until", "2026-11-05", "--player", "Ana", "--csv")
    assert out.splitlines() == [
        "player,hands,wins,auto_wins,no_winner,bonuses_won,bonuses_paid,fouls,side_games_won,net",
        "Ana,3,1,1,1,20.00,10.00,1,0,40.00"]


def test_a_pot_carried_between_files_is_the_books_and_unwon_until_won(book_url):
    # north.dsm ends with 30 in north's pot: unwon, and the players 30 down between them
    run("import", "--db", book_url, DATA / "north.dsm")
    got = json.loads(run("standings", "--db", book_url, "--json")[1])
    assert [r["net"] for r in got["players"]] == ["30.00", "-30.00", "-30.00"]
    assert (got["unwon"], got["brought_in"]) == ("30.00", "0.00")
    # settle-up leaves the 30 in the pot with who put it in (issue 33): 10 each of the antes
    assert json.loads(run("settle-up", "--db", book_url, "--json")[1]) == {
        "transfers": [{"from": "Ana", "to": "Beto", "amount": "20.00"},  # equal amounts: by name
                      {"from": "Carla", "to": "Beto", "amount": "20.00"}],
        "balances": {"Ana": "-20.00", "Beto": "40.00", "Carla": "-20.00"},
        "held": [{"table": "north", "pot": "main", "amount": "30.00",
                  "put_in": {"Ana": "10.00", "Beto": "10.00", "Carla": "10.00"}}]}
    # north2.dsm carries those 30 in: nothing is brought in, the pot is won
    run("import", "--db", book_url, DATA / "north2.dsm")
    got = json.loads(run("standings", "--db", book_url, "--json")[1])
    assert (got["unwon"], got["brought_in"]) == ("0.00", "0.00")


def test_a_record_alone_brings_in_its_carry(book_url):
    # north2.dsm without the hands before it: its Carry of 30 entered the book from outside
    run("import", "--db", book_url, DATA / "north2.dsm")
    got = json.loads(run("standings", "--db", book_url, "--json")[1])
    assert [(r["player"], r["net"]) for r in got["players"]] == [
        ("Ana", "70.00"), ("Beto", "-20.00"), ("Carla", "-20.00")]
    assert (got["unwon"], got["brought_in"]) == ("0.00", "30.00")
    code, out = run("ledger", "--db", book_url, "--hand", "1", "--csv")
    assert out.splitlines()[:3] == [
        "table,hand,account,kind,detail,counterparty,amount,reverses",
        "north,1,outside,brought-in,,pot:main,-30.00,",
        "north,1,pot:main,brought-in,,outside,30.00,"]


def test_a_record_that_drops_the_books_pot_is_rejected(book_url, tmp_path):
    run("import", "--db", book_url, DATA / "north.dsm")  # north's pot holds 30
    dropped = tmp_path / "dropped.dsm"
    dropped.write_text((DATA / "north2.dsm").read_text().replace('[Carry "30"]\n', ""))
    code, out = run("import", "--db", book_url, dropped)
    assert code == 1
    assert out.splitlines() == [
        f'{dropped}:1: R2.3 Carry is 0.00 but the hand before carried out 30.00',
        f"{dropped} hand 1 (line 1): rejected, nothing of it stored",
        f"{dropped}: 0 hands stored, 0 already in the book, 1 rejected (table north)"]
    # into a table of its own it is a fresh start
    code, out = run("import", "--db", book_url, dropped, "--table", "north-b")
    assert code == 0


def test_ledger_shows_each_posting_with_its_kind_and_counterparty(book_url):
    run("import", "--db", book_url, DATA / "south.dsm")
    code, out = run("ledger", "--db", book_url, "--table", "south", "--player", "Dani", "--json")
    assert json.loads(out)["postings"] == [
        {"table": "south", "hand": 1, "account": "Dani", "kind": "ante", "detail": None,
         "counterparty": "pot:main", "amount": "-5.00", "reverses": None, "id": 3},
        {"table": "south", "hand": 1, "account": "Dani", "kind": "pot", "detail": None,
         "counterparty": "pot:main", "amount": "10.00", "reverses": None, "id": 6},
        {"table": "south", "hand": 1, "account": "Dani", "kind": "side-stake", "detail": "oro",
         "counterparty": "pot:oro", "amount": "-2.00", "reverses": None, "id": 9},
        {"table": "south", "hand": 1, "account": "Dani", "kind": "side-win", "detail": "oro",
         "counterparty": "pot:oro", "amount": "4.00", "reverses": None, "id": 12}]


def test_live_recording_carries_on_after_an_import(book_url):
    """The table an import leaves is where a live `hand new` carries on: the deal passes to
    the right of the last imported dealer (R3.1) and the carried pot comes in (R2.3)."""
    from desmoche_ref.store.write.tablebook import TableBook

    run("import", "--db", book_url, DATA / "north.dsm")  # hand 2: Beto dealt, 30 carried
    book = open_book(book_url)
    hand = TableBook(book, "north").new_hand().hand
    assert (hand.number, hand.dealer, hand.carry_in) == (3, "Carla", 3000)
    book.engine.dispose()
