"""sample_logs/ into a fresh SQLite book and a fresh PostgreSQL database: the same standings,
exact, balanced; a second import changes nothing; the export re-checks with the same verdicts
and nets as the records imported."""

import json
import os
import pathlib
import subprocess
import sys

import pytest
from click.testing import CliRunner

from desmoche_ref.cli import main
from desmoche_ref.referee import COMPLETE, INVALID, judge_text
from desmoche_ref.store.db import open_book
from desmoche_ref.store.read.league import audit

SAMPLES = sorted((pathlib.Path(__file__).parent.parent / "sample_logs").glob("*.dsm"))
PG = os.environ.get("DESMOCHE_TEST_PG")


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def referee_totals():
    """Each player's nets summed over the valid complete hands, as `check` judges them."""
    totals = {}
    for path in SAMPLES:
        for hand in judge_text(path.read_text()).hands:
            if hand.status == COMPLETE:
                for name, cents in hand.settlement.net.items():
                    totals[name] = totals.get(name, 0) + cents
    return totals


# The standings of sample_logs/ (the seven invalid dispute hands rejected). Their nets are
# the referee's, summed hand by hand (asserted against `check` below); the one pot left is
# empty-table.dsm's 30.00, and no record carries in from hands it lacks.
SAMPLE_STANDINGS = {
    "players": [
        {"player": "Dani", "hands": 11, "wins": 3, "auto_wins": 1, "no_winner": 2,
         "bonuses_won": "90.00", "bonuses_paid": "70.00", "fouls": 0, "side_games_won": 2,
         "net": "135.00"},
        {"player": "Beto", "hands": 36, "wins": 14, "auto_wins": 3, "no_winner": 3,
         "bonuses_won": "135.62", "bonuses_paid": "145.00", "fouls": 3, "side_games_won": 5,
         "net": "15.09"},
        {"player": "Carla", "hands": 33, "wins": 9, "auto_wins": 2, "no_winner": 3,
         "bonuses_won": "145.00", "bonuses_paid": "126.25", "fouls": 1, "side_games_won": 5,
         "net": "-36.92"},
        {"player": "Ana", "hands": 36, "wins": 8, "auto_wins": 4, "no_winner": 3,
         "bonuses_won": "110.63", "bonuses_paid": "140.00", "fouls": 3, "side_games_won": 7,
         "net": "-143.17"}],
    "unwon": "30.00", "brought_in": "0.00"}


def standings_json(url):
    code, out = run("standings", "--db", url, "--json")
    assert code == 0, out
    return json.loads(out)


def cents(text):
    whole, frac = text.lstrip("-").split(".")
    return (-1 if text.startswith("-") else 1) * (int(whole) * 100 + int(frac))


@pytest.mark.slow
def test_sample_logs_standings_exact_and_balanced(book_url):
    code, out = run("import", "--db", book_url, *SAMPLES)
    assert code == 1  # the dispute records' invalid hands are rejected
    rejected = [line for line in out.splitlines() if line.endswith("rejected, nothing of it stored")]
    invalid = sum(h.status == INVALID for p in SAMPLES for h in judge_text(p.read_text()).hands)
    assert len(rejected) == invalid == 7
    got = standings_json(book_url)
    assert got == SAMPLE_STANDINGS
    assert {r["player"]: cents(r["net"]) for r in got["players"]} == referee_totals()
    assert sum(cents(r["net"]) for r in got["players"]) + cents(got["unwon"]) - cents(got["brought_in"]) == 0
    ledger_before = run("ledger", "--db", book_url, "--json")[1]
    # a second import stores nothing and changes nothing
    code, out = run("import", "--db", book_url, *SAMPLES)
    assert code == 1
    summaries = [line for line in out.splitlines() if "hands stored" in line]
    assert len(summaries) == len(SAMPLES) and all(": 0 hands stored, " in line for line in summaries)
    assert standings_json(book_url) == SAMPLE_STANDINGS
    assert run("ledger", "--db", book_url, "--json")[1] == ledger_before
    book = open_book(book_url)
    with book.read() as s:
        assert audit(s) == []
    book.engine.dispose()


@pytest.mark.slow
def test_export_rechecks_with_the_same_verdicts_and_nets(book_url, tmp_path):
    run("import", "--db", book_url, *SAMPLES)
    out = tmp_path / "season.dsm"
    code, _ = run("export", "--db", book_url, "-o", out)
    assert code == 0
    exported = judge_text(out.read_text()).hands
    imported = [h for p in SAMPLES for h in judge_text(p.read_text()).hands if h.status != INVALID]

    def verdict(h):
        j = h.as_json()
        return (j["status"], j["outcome"] and {k: j["outcome"][k] for k in ("kind", "winners", "auto")},
                j["net"], j["carry_out"], j["fouls"] and [(f["player"], f["code"], f["enforced"]) for f in j["fouls"]])

    assert sorted(map(repr, map(verdict, exported))) == sorted(map(repr, map(verdict, imported)))
    assert len(exported) == 36
    # the export is the book's own text: importing it again stores nothing
    code, text = run("import", "--db", book_url, out)
    assert code == 0 and f"{out}: 0 hands stored, 36 already in the book" in text
    # one hand of one table
    code, text = run("export", "--db", book_url, "--table", "3", "--hand", "2")
    hands = judge_text(text).hands
    assert len(hands) == 1 and hands[0].as_json()["outcome"]["kind"] == "no-winner"
    assert '[Table "3"]' in text


@pytest.mark.skipif(not PG, reason="PostgreSQL: no server given (DESMOCHE_TEST_PG unset)")
def test_sqlite_and_postgresql_give_identical_standings(tmp_path):
    from conftest import _fresh_pg_database

    pg_url, drop = _fresh_pg_database(PG)
    try:
        sqlite_url = "sqlite:///" + str(tmp_path / "book.db")
        outputs = []
        for url in (sqlite_url, pg_url):
            run("import", "--db", url, *SAMPLES)
            # through a real process, as a secretary would run it
            done = subprocess.run([sys.executable, "-m", "desmoche_ref", "standings", "--db", url, "--json"],
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, done.stderr
            outputs.append(done.stdout)
        assert outputs[0] == outputs[1]
        assert json.loads(outputs[0]) == SAMPLE_STANDINGS
    finally:
        drop()


@pytest.mark.slow
def test_a_live_hand_exported_and_imported_again_is_stored_once(live, tmp_path):
    """A hand recorded move by move is known by its content as an imported one is
    (records.content_hash): importing its export into the same book stores nothing, and
    undoing its `end` reopens it, so that it is not known until it is closed again."""
    friday = [line for line in (pathlib.Path(__file__).parent / "conformance" / "friday.dsm").read_text().splitlines()
              if line and not line.startswith("[")]
    live("table", "new", "friday", "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo",
         "--side", "oro 5 Ana Beto Carla")
    live("hand", "new", "--dealer", "Ana")
    for line in friday + ["end"]:
        live("rec", line)
    exported = tmp_path / "friday-live.dsm"
    live("export", "-o", exported)
    assert live("import", exported).stdout == (
        f"{exported}: 0 hands stored, 1 already in the book, 0 rejected (table friday)\n")
    live("undo")  # the `end`: the hand reopens, its postings reversed, and it is closed again
    live("rec", "end")
    assert live("import", exported).stdout.startswith(f"{exported}: 0 hands stored, 1 already")
    nets = {p["player"]: p["net"] for p in live.json("standings", "--json")["players"]}
    assert nets == {"Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"}  # the hand counted once
