"""A void hand keeps its number everywhere (issue 33, NOTATION N9.6): `check` reads a hand
tagged Void as void (N8's `void`, `void_reason`), `check --session` numbers it and passes its
pots on, `export` writes a hand voided at the table with its reason and its moves, `import`
stores it void — so the book, every export and every book imported from one number every hand
alike (docs/rulings.md)."""

import json

import pytest

from conftest import invoke

VOID_HAND = """[Players "Ana Beto Carla"]
[Dealer "Ana"]
[Bet "10"]
[Carry "30"]
[Void "the deck was short a card"]

deal Beto 2s 3s 4h 7c 8d Th Jc Qd Ks
deal Carla As 2h 3h 9s 9c 5d 6d Kc Qh  # Carla counted them
"""
AFTER = """
[Players "Ana Beto Carla"]
[Dealer "{dealer}"]
[Bet "10"]
[Carry "{carry}"]

deal Beto 2s 3s 4h 7c 8d Th Jc Qd Ks
"""
REASON = "the deck was short a card"


def check_json(tmp_path, text, *args):
    path = tmp_path / "night.dsm"
    path.write_text(text, encoding="utf-8")
    run = invoke("check", "--json", *args, path)
    return run.returncode, json.loads(run.stdout)["files"][0]


# ------------------------------------------------------------------ check: N8's `void`
def test_n8_a_hand_tagged_void_is_void_with_its_reason_and_no_money(tmp_path):
    status, found = check_json(tmp_path, VOID_HAND)
    assert status == 0
    hand = found["hands"][0]
    assert list(hand) == ["line", "players", "dealer", "rules", "options", "status", "outcome", "bet", "carry_in",
                          "pot", "carry_out", "bonuses", "side_games", "net", "fouls", "errors", "warnings",
                          "result_claimed", "result_agrees", "void_reason"]
    assert {k: hand[k] for k in ("status", "void_reason", "net", "outcome", "pot", "carry_out", "bonuses",
                                 "side_games", "fouls", "errors", "warnings", "result_agrees")} == {
        "status": "void", "void_reason": REASON, "net": {}, "outcome": None, "pot": None, "carry_out": None,
        "bonuses": None, "side_games": None, "fouls": [], "errors": [], "warnings": [], "result_agrees": None}
    assert (hand["bet"], hand["carry_in"], hand["dealer"]) == ("10.00", "30.00", "Ana")
    # a hand that is not void has no void_reason: N8's example is exact
    friday = json.loads(invoke("check", "--json", "tests/conformance/friday.dsm").stdout)
    assert "void_reason" not in friday["files"][0]["hands"][0]


@pytest.mark.parametrize("lang, said", [
    ("en", "void (the deck was short a card): it settles nothing, its pots pass on to the next hand"),
    ("es", "anulada (the deck was short a card): no liquida nada, sus botes pasan a la mano siguiente")])
def test_check_says_a_void_hand_in_words(tmp_path, lang, said):
    path = tmp_path / "void.dsm"
    path.write_text(VOID_HAND, encoding="utf-8")
    run = invoke("--lang", lang, "check", path)
    line = {"en": "(line 1)", "es": "(línea 1)"}[lang]
    assert run.returncode == 0 and run.stdout.splitlines()[0].endswith(f" {line}: {said}")
    summary = invoke("--lang", lang, "check", "--summary", path).stdout.splitlines()
    assert summary[1] == {"en": f"{path}: 1 hand (1 void), 0 findings",
                          "es": f"{path}: 1 mano (1 anulada), 0 observaciones"}[lang]


def test_a_void_hand_is_read_not_judged(tmp_path):
    # its moves stop anywhere and no rule of play is applied (a draw before the deal is done)
    moves = VOID_HAND + "draw Ana 4d\nmeld Carla 9s 9d 9c\n"
    assert check_json(tmp_path, moves)[1]["hands"][0]["status"] == "void"
    # but every line is read (N1–N4): an unknown verb, a card that is not one, a player not seated
    for line, code in (("jump Ana", "N4"), ("draw Ana 1x", "N2.1"), ("draw Zed 4d", "N3.1")):
        status, found = check_json(tmp_path, VOID_HAND + line + "\n")
        hand = found["hands"][0]
        assert status == 1 and hand["status"] == "invalid", line
        assert [(e["line"], e["code"]) for e in hand["errors"]] == [(9, code)]
    status, found = check_json(tmp_path, VOID_HAND.replace(REASON, " "))
    assert status == 1 and [(e["line"], e["code"]) for e in found["hands"][0]["errors"]] == [(5, "N3")]


def test_n9_6_a_session_numbers_a_void_hand_and_passes_its_pots_and_deal_on(tmp_path):
    # the pots it carried in pass on unchanged; the deal does not pass (its dealer deals again)
    status, found = check_json(tmp_path, VOID_HAND + AFTER.format(dealer="Ana", carry=30), "--session")
    session = found["session"]
    assert status == 0 and [(h["hand"], h["outcome"]) for h in session["hands"]] == [(1, "void"), (2, "incomplete")]
    assert session["problems"] == [] and session["warnings"] == []
    # a next hand that drops the carried pot, or whose deal passed, is held to the laws (N9.1, N9.3)
    status, found = check_json(tmp_path, VOID_HAND + AFTER.format(dealer="Beto", carry=0), "--session")
    session = found["session"]
    assert status == 1
    assert [(p["line"], p["code"]) for p in session["problems"]] == [(10, "R2.3")]
    assert [(w["line"], w["code"]) for w in session["warnings"]] == [(10, "R3.1")]


# ------------------------------------------------------------------ the book: export, import, numbers
def sim_hands():
    """Two hands of a plain 3-player session (seed 3): hand 1 nobody wins (30.00 carried), hand
    2 Ana wins it; as (setup values, move lines) each."""
    from desmoche_ref.notation.parser import parse_text

    text = invoke("simulate", "--hands", "2", "--plain", "--seed", "3").stdout
    lines = text.splitlines()
    return [[lines[ev.line - 1].strip() for ev in hand.events] for hand in parse_text(text).hands]


def void_night(url):
    """Table t (Ana Beto Carla, bet 10.00): hand 1 nobody wins; hand 2, dealt by Beto, voided at
    the table after two deal lines; hand 3 Beto deals again and Ana wins the pot; the table closed."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.write.tablebook import TableBook, create_table

    first, second = sim_hands()
    book = open_book(url)
    create_table(book, "t", ["Ana", "Beto", "Carla"], 1000)
    table = TableBook(book, "t")
    table.new_hand("Ana")
    for line in first:
        table.record(line)
    assert table.new_hand().hand.dealer == "Beto"
    for line in second[:2]:
        table.record(line)
    table.void(REASON)
    opened = table.new_hand()
    assert (opened.hand.number, opened.hand.dealer, opened.hand.carry_in) == (3, "Beto", 3000)
    for line in second:
        table.record(line)
    table.close()
    return book


def test_n9_6_a_hand_voided_at_the_table_keeps_its_number_in_exports_and_imports(book_url, tmp_path):
    from desmoche_ref.session import check_session
    from desmoche_ref.referee import judge_text
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.write.importer import import_records
    from desmoche_ref.store.read.scorebook import Scorebook, Selection
    from desmoche_ref.store.write.tablebook import TableBook

    book = void_night(book_url)
    scores = Scorebook(book)
    with scores.export() as rows:
        exported = list(rows)
    assert [(name, number) for name, number, _ in exported] == [("t", 1), ("t", 2), ("t", 3)]
    text = "\n".join(record for _, _, record in exported)
    assert text.count(f'[Void "{REASON}"]') == 1 and exported[1][2].count(f'[Void "{REASON}"]') == 1
    assert exported[2][2].count('[Closed "yes"]') == 1 and text.count('[Closed "yes"]') == 1
    judged = judge_text(text)
    assert [h.status for h in judged.hands] == ["complete", "void", "complete"]
    night = check_session(judged)
    assert [(r.number, r.outcome) for r in night.rows] == [(1, "no winner"), (2, "void"), (3, "Ana wins")]
    assert night.problems == [] and night.warnings == []
    # imported into its own book: every hand known by content, nothing stored
    again = import_records(book, text.encode(), "t.dsm")
    assert (again.stored, again.known, again.rejected) == (0, 3, [])
    # into a new book: the same numbers, the void hand void with its reason, the same export
    other = open_book(str(tmp_path / "copy.db"))
    done = import_records(other, text.encode(), "t.dsm")
    assert (done.stored, done.rejected) == (3, [])
    shown = TableBook(other, "t").view(2)
    assert shown.report.as_json()["status"] == "void" and shown.void.comment == REASON
    assert [r.line for r in shown.log if r.stands][-1] == "void"
    with Scorebook(other).export() as rows:
        assert "\n".join(record for _, _, record in rows) == text
    for each in (book, other):
        problems, counts, _head = Scorebook(each).verify()
        assert problems == [] and counts["hands"] == 3
        assert Scorebook(each).standings(Selection()).as_json() == scores.standings(Selection()).as_json()
    other.engine.dispose()
    book.engine.dispose()


@pytest.mark.parametrize("lang, said", [
    ("en", "error: hand 1 at table t has no move: there is nothing to void (`desmoche-ref hand new` deals it "
           "again)\n"),
    ("es", "error: la mano 1 de la mesa t no tiene jugadas: no hay nada que anular (`desmoche-ref hand new` la "
           "vuelve a repartir)\n")])
def test_a_hand_with_no_move_is_not_voided(tmp_path, lang, said):
    book = {"DESMOCHE_DB": str(tmp_path / "book.db")}
    invoke("table", "new", "t", "--players", "Ana Beto", "--bet", "1", env=book)
    invoke("hand", "new", "--dealer", "Ana", env=book)
    run = invoke("--lang", lang, "hand", "void", "--reason", REASON, env=book)
    assert (run.returncode, run.stderr) == (2, said)
    assert invoke("hand", "show", env=book).stdout.startswith("table t hand 1 (open, incomplete), move 0")


def test_a_void_hand_takes_no_move(tmp_path):
    book = {"DESMOCHE_DB": str(tmp_path / "book.db")}
    invoke("table", "new", "t", "--players", "Ana Beto", "--bet", "1", env=book)
    invoke("hand", "new", "--dealer", "Ana", env=book)
    invoke("deal", "Beto", "?x9", env=book)
    invoke("hand", "void", "--reason", REASON, env=book)
    run = invoke("deal", "Ana", "?x9", env=book)
    assert (run.returncode, run.stderr) == (2, "error: hand 1 at table t is void: `desmoche-ref hand new` deals the "
                                               "next hand, `desmoche-ref undo` takes the void back\n")
    assert invoke("verify", env=book).returncode == 0
    assert invoke("undo", env=book).returncode == 0 and invoke("deal", "Ana", "?x9", env=book).returncode == 0
