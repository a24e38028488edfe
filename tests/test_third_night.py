"""The third club night (issue 25): nothing at the table is lost by one early keystroke.

An implicit close never voids a side-game claim still to be shown (R4.5), `undo` right after
`hand new` takes it back, `hand void` abandons a hand, a hand with no move is dealt again,
the deal comes first (R3.3), a repeated line is stored once, names and verbs are suggested
— through the verbs, `rec` and `play`, in both languages (docs/rulings.md). Each night starts
from a book recorded once per test process (conftest `built_book`) through the service."""

import json
import pathlib

import pytest

from conftest import verified
from test_store_roles import owner_url, roles  # noqa: F401 (the PostgreSQL recorder's fixtures)

ROOT = pathlib.Path(__file__).parent.parent
PLAYERS = ["Ana", "Beto", "Carla"]
FRIDAY = [line for line in (ROOT / "tests" / "conformance" / "friday.dsm").read_text().splitlines()
          if line and not line.startswith("[")]
SHOW = "show Beto Qd"
WON = FRIDAY[:FRIDAY.index(SHOW)]  # up to Carla's winning `add`: Beto's oro claim still to be shown
NETS = {"Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"}


def friday_book(lines):
    """build(url): table friday (NOTATION's example, oro 5 for all) and hand 1 with `lines`."""
    def build(url):
        from desmoche_ref.store.db import open_book
        from desmoche_ref.store.write.tablebook import TableBook, create_table

        book = open_book(url)
        create_table(book, "friday", PLAYERS, 1000, options="todo", sides=[("oro", 500, PLAYERS)])
        table = TableBook(book, "friday")
        table.new_hand("Ana")
        for line in lines:
            table.record(line)
        book.engine.dispose()
    return build


@pytest.fixture
def sqlite_book(_built, tmp_path):
    """sqlite_book(key, build): as conftest's `built_book`, on SQLite only — for the tests of
    what the front ends say; what the store does is tested on both engines (`built_book`)."""
    return lambda key, build: _built("sqlite", key, build, tmp_path)[0]


@pytest.fixture
def sqlite_live(tmp_path):
    import shutil

    from conftest import Live, template_book

    shutil.copy(template_book("sqlite"), tmp_path / "book.db")
    return Live("sqlite:///" + str(tmp_path / "book.db"))


@pytest.fixture
def won(sqlite_book):
    """A book whose hand 1 Carla has just won, Beto's oro claim (Q♦) not yet shown."""
    from conftest import Live

    return Live(sqlite_book("friday-won", friday_book(WON)))


@pytest.fixture
def won_anywhere(built_book):
    """`won`, on SQLite and on PostgreSQL."""
    from conftest import Live

    return Live(built_book("friday-won", friday_book(WON)))


def piped(live, text, *args):
    """`play` fed `text` on its standard input, in this process: (exit status, stdout)."""
    from click.testing import CliRunner

    from desmoche_ref.cli import main

    run = CliRunner().invoke(main, ["play", *args], input=text, env={"DESMOCHE_DB": live.url})
    return run.exit_code, run.stdout


def rows(live):
    return live.json("hand", "log", "--all", "--json")


def postings(live):
    return len(live.json("ledger", "--json")["postings"])


# ---------------------------------------------------------------- R4.5: the claim to be shown
REFUSAL = ("hand 1 at table friday is over, but Beto Qd (oro) may still be shown (R4.5): write "
           "`{prog}show Beto Qd`, or `{prog}end` to close the hand with the claim void")


@pytest.mark.parametrize("front", ["hand new", "table close", "play new", "play nueva"])
def test_r4_5_an_implicit_close_never_voids_a_claim_still_to_be_shown(won, front):
    """The early `hand new` of the second night: refused, naming the claim and the two ways
    on; nothing stored, the hand still open and its claim still to be shown."""
    before = rows(won)
    if front == "hand new":
        said = won("hand", "new", status=2).stderr
        assert said == "error: " + REFUSAL.format(prog="desmoche-ref ") + "\n"
    elif front == "table close":
        said = won("table", "close", "friday", status=2).stderr
        assert said == "error: " + REFUSAL.format(prog="desmoche-ref ") + "\n"
    else:
        status, out = piped(won, front.split()[1] + "\n")
        assert (status, out) == (1, "1: " + REFUSAL.format(prog="") + "\n" + out.splitlines()[1] + "\n")
    assert rows(won) == before and postings(won) == 0
    assert won.json("table", "list", "--json")[0]["closed"] is False
    shown = won("hand", "show").stdout  # the next-state line lists it (cards as a person reads them)
    # and no finding beside it says the claim void: it is void only if the hand closes without the
    # show (issue 33)
    assert shown.endswith("the hand is over: Carla wins with ten cards down. Still to be shown: Beto Q♦ (oro) — "
                          "write `desmoche-ref show Beto Qd`; `desmoche-ref end` closes the hand without it\n")
    assert "R4.5" not in shown


def test_r4_5_the_refusal_and_the_prompt_speak_spanish(won):
    said = won("--lang", "es", "hand", "new", status=2).stderr
    assert said == ("error: la mano 1 de la mesa friday terminó, pero todavía se puede mostrar Beto Qd (oro) "
                    "(R4.5): escriba `desmoche-ref show Beto Qd`, o `desmoche-ref fin` para cerrar la mano "
                    "con el reclamo nulo\n")
    status, out = piped(won, "estado\n", "--lang", "es")
    assert status == 0 and "turno: terminada: Carla gana con diez cartas en la mesa · falta mostrar: " \
                           "Beto Q♦ (oro) · `fin` cierra la mano" in out


def test_r4_5_after_the_win_the_move_says_what_is_still_to_be_shown(sqlite_book):
    """The verb that wins the hand prints the claims still to be shown, and `show` then
    `hand new` posts the oro pot to Beto: the night of the issue, kept whole."""
    from conftest import Live

    live = Live(sqlite_book("friday-before-the-win", friday_book(WON[:-1])))
    out = live("add", "Carla", "7d").stdout
    assert out == ("move 28: add Carla 7d\nthe hand is over: Carla wins with ten cards down. Still to be "
                   "shown: Beto Q♦ (oro) — write `desmoche-ref show Beto Qd`; `desmoche-ref end` closes "
                   "the hand without it\n")
    live("show", "Beto", "Qd")
    closed = live("hand", "new").stdout
    assert "  side game oro: pot 15.00 to Beto with Q♦\n" in closed
    assert closed.endswith("hand 2 at table friday: Beto deals; bet 10.00; side games: oro 5.00 (Ana Beto Carla)\n")
    assert [r["line"] for r in live.json("hand", "log", "--hand", "1", "--json")][-2:] == [SHOW, "end"]
    assert live.json("hand", "show", "--hand", "1", "--json")["net"] == NETS
    shown = live("hand", "show", "--hand", "1").stdout.splitlines()  # a closed hand says so, in either language
    assert shown[0] == "table friday hand 1 (closed, complete), move 30: Ana dealt"
    assert shown[-1] == "the hand is closed: Carla wins with ten cards down"
    assert live("--lang", "es", "hand", "show", "--hand", "1").stdout.splitlines()[-1] == \
        "la mano está cerrada: Carla gana con diez cartas en la mesa"


# ------------------------------------------------------------------ N4.4: undo of `hand new`
def test_n4_4_undo_right_after_hand_new_reopens_the_hand_before_as_it_was(won_anywhere):
    """`end` gave the claim up (the oro pot carried), `hand new` dealt hand 2; `undo` takes
    the `hand new` back: hand 1 open again, over, its postings reversed by as many more, its
    claim still to be shown; `show` and `hand new` then post the oro pot to Beto, deal hand 2
    again (same number), and the book verifies."""
    undo_hand_new(won_anywhere, "verb")


@pytest.mark.parametrize("front", ["play", "deshacer"])
def test_n4_4_undo_right_after_new_in_the_session(won, front):
    undo_hand_new(won, front)


def undo_hand_new(won, front):
    won("end")
    assert won("hand", "new").stdout.endswith("oro carry in 15.00\n")
    posted = postings(won)
    if front == "verb":
        said = won("undo").stdout
    else:
        status, said = piped(won, ("undo" if front == "play" else "deshacer") + "\n")
        assert status == 0
    assert said.splitlines()[0] == ("took back `hand new`: hand 1 is open again — move 30 undid move 29 "
                                    "(end), its postings reversed")
    assert postings(won) == 2 * posted  # each reversed by one more
    shown = won.json("hand", "show", "--json")
    assert (shown["number"], shown["status"]) == (1, "complete")
    log = rows(won)
    assert log[-2:] == [{**log[-2], "line": "end", "superseded": 30}, {**log[-1], "line": "undo", "supersedes": 29}]
    assert won("show", "Beto", "Qd").stdout.startswith("move 31: show Beto Qd\n")
    again = won("hand", "new").stdout
    assert "  side game oro: pot 15.00 to Beto with Q♦\n" in again
    assert again.endswith("hand 2 at table friday: Beto deals; bet 10.00; side games: oro 5.00 (Ana Beto Carla)\n")
    assert won.json("table", "list", "--json")[0]["hands"] == 2
    assert won.json("standings", "--json")["unwon"] == "0.00"
    assert verified(won("verify").stdout).endswith(": all in order\n")


def test_n4_4_undo_on_the_first_hand_with_no_move_has_nothing_to_take_back(sqlite_live):
    live = sqlite_live
    live("table", "new", "t", "--players", "Ana Beto", "--bet", "1")
    live("hand", "new", "--dealer", "Ana")
    assert live("undo", status=2).stderr == "error: hand 1 has no move to undo\n"


# ------------------------------------------------------------------------- hand void
def _carried_night(url):
    """Hand 1 (Dani deals) ends with no winner, 20.00 and oro 2.00 carried; hand 2 is Ana's
    deal, two deal lines in (recorded through the service: built once per test process)."""
    from test_live_tables import NO_WINNER

    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.write.tablebook import TableBook, create_table

    book = open_book(url)
    seated = ["Ana", "Beto", "Carla", "Dani"]
    create_table(book, "club", seated, 500, sides=[("oro", 100, ["Ana", "Beto"])])
    table = TableBook(book, "club")
    table.new_hand("Dani")
    for words in NO_WINNER:
        table.record(" ".join(words))
    table.new_hand()
    table.record("deal Beto ?x9")
    table.record("deal Carla ?x9")
    book.engine.dispose()


@pytest.mark.parametrize("front", ["verb", "play", "anular"])
def test_hand_void_closes_the_hand_as_never_dealt_and_keeps_its_moves(sqlite_book, front):
    """docs/rulings.md (hand void): no postings, the pots it carried in pass on, the same
    dealer deals again; its moves stay, a `void` row with the reason after them, shown by
    `hand show` and `hand log`."""
    from conftest import Live

    live = Live(sqlite_book("club-voided", _carried_night))
    before = postings(live)
    reason = "the deck was short a card"
    if front == "verb":
        out = live("hand", "void", "--reason", reason).stdout
        assert out == (f"move 3: hand 2 at table club is void ({reason}): nothing posted, its pots pass on; "
                       "`desmoche-ref hand new` deals the next (the same dealer)\n")
    else:
        status, out = piped(live, ("void " if front == "play" else "anular ") + reason + "\n")
        assert status == 0 and out.startswith(f"move 3: hand 2 at table club is void ({reason}):")
    assert postings(live) == before
    assert live("hand", "show").stdout.splitlines()[0] == "table club hand 2 (void), move 3: Ana dealt"
    assert f"the hand is void: {reason}" in live("hand", "show").stdout
    log = live("hand", "log").stdout.splitlines()
    assert log[-1].endswith(f"  void  — the hand is void: {reason}") and len(log) == 4
    assert [r["comment"] for r in live.json("hand", "log", "--json")] == [None, None, reason]
    opened = live("hand", "new").stdout
    assert opened == "hand 3 at table club: Ana deals; bet 5.00; side games: oro 1.00 (Ana Beto); carry in 20.00; " \
                     "oro carry in 2.00\n"


@pytest.mark.slow
def test_a_void_hand_is_exported_with_its_reason_and_the_book_verifies(built_book, tmp_path):
    """docs/rulings.md (export of a voided hand): written with its Void tag (issue 33, N9.6:
    it keeps its number); the export imports back into a fresh book with the same standings,
    hand 2 void there too, and the book verifies."""
    from conftest import Live

    live = Live(built_book("club-voided", _carried_night))
    live("hand", "void", "--reason", "the deck was short a card")
    live("hand", "new")
    assert verified(live("verify").stdout).endswith(": all in order\n")
    exported = live("export").stdout
    assert exported.count("[Players ") == 2  # hands 1 and 2 (void); hand 3 not dealt
    assert exported.count('[Void "the deck was short a card"]') == 1
    fresh = Live("sqlite:///" + str(tmp_path / "copy.db"))
    (tmp_path / "night.dsm").write_text(exported)
    fresh("import", tmp_path / "night.dsm")
    assert fresh.json("standings", "--json") == live.json("standings", "--json")
    assert fresh("hand", "show", "--hand", "2").stdout.splitlines()[0].startswith("table club hand 2 (void)")


def test_undo_takes_a_void_back_and_a_closed_hand_is_not_voided(built_book):
    from conftest import Live

    live = Live(built_book("club-voided", _carried_night))
    live("hand", "void", "--reason", "players left")
    said = live("undo").stdout
    assert said.startswith("move 4: undid the void (move 3); hand 2 is open again\n")  # no posting to reverse
    assert live.json("hand", "show", "--json")["status"] == "incomplete"
    assert live("hand", "void", "--reason", "  ", status=2).stderr == \
        "error: say why the hand is voided: --reason TEXT\n"
    assert live("hand", "void", status=2).stderr.endswith("Missing option '--reason'.\n")
    assert verified(live("verify").stdout).endswith(": all in order\n")


def test_hand_void_in_spanish(sqlite_book):
    from conftest import Live

    live = Live(sqlite_book("club-voided", _carried_night))
    out = live("--lang", "es", "hand", "void", "--reason", "faltaba una carta").stdout
    assert out == ("jugada 3: la mano 2 de la mesa club queda anulada (faltaba una carta): no se asienta nada, "
                   "sus botes pasan a la siguiente; `desmoche-ref hand new` reparte la próxima (el mismo repartidor)\n")
    assert "Abandona la mano en juego" in live("--lang", "es", "hand", "void", "--help").stdout


# ------------------------------------------------------------------- R3.3: the deal first
@pytest.mark.parametrize("line", ["show Ana Ad", "end", "cambio Beto Ks"])
@pytest.mark.parametrize("front", ["verb", "rec", "play"])
def test_r3_3_before_the_deal_a_line_says_the_deal_comes_first(sqlite_live, line, front):
    live = sqlite_live
    live("table", "new", "t", "--players", "Ana Beto Carla", "--bet", "1")
    live("hand", "new", "--dealer", "Ana")
    live("deal", "Beto", "2s", "3s", "4h", "7c", "8d", "Th", "Jc", "Qd", "Ks")
    said = "R3.3 the deal is not done: Carla and Ana have no card yet; the deal lines come first (`deal Carla …`)"
    if front == "verb":
        assert live(*line.split(), status=1).stderr == f"refused: {said} (nothing stored)\n"
    elif front == "rec":
        assert live("rec", line, status=1).stderr == f"refused: {said} (nothing stored)\n"
    else:
        assert piped(live, line + "\n") [1].splitlines()[0] == f"1: refused: {said} (nothing stored)"
    assert len(rows(live)) == 1
    status, out = piped(live, "state\n")
    assert out.splitlines()[-1] == "may come next: foul Ana Beto Carla; deal Ana Beto Carla"
    assert live("hand", "show").stdout.splitlines()[0] == "table t hand 1 (open, incomplete), move 1: Ana dealt"


def test_r3_3_in_spanish_and_a_hand_not_dealt_says_who_deals(sqlite_live):
    live = sqlite_live
    live("table", "new", "t", "--players", "Ana Beto", "--bet", "1")
    live("hand", "new", "--dealer", "Ana")
    assert live("hand", "show").stdout.splitlines()[0] == "table t hand 1 (open, incomplete), move 0: Ana deals"
    assert live("--lang", "es", "fin", status=1).stderr == (
        "rechazado: R3.3 el reparto no está hecho: Beto y Ana todavía no tienen cartas; primero van las "
        "líneas de reparto (`repartir Beto …`) (no se guardó nada)\n")


# --------------------------------------------------------------------- a line typed twice
@pytest.mark.parametrize("front", ["verb", "rec", "play"])
def test_n4_1_the_same_meld_typed_by_two_recorders_is_stored_once(sqlite_book, front):
    from conftest import Live

    live = Live(sqlite_book("friday-melded", friday_book(FRIDAY[:9])))
    assert FRIDAY[8] == "meld Beto 2s 2d 2c"
    if front == "verb":
        out = live("meld", "Beto", "2s", "2d", "2c").stdout
    elif front == "rec":
        out = live("rec", "meld Beto 2s 2d 2c").stdout
    else:
        status, out = piped(live, "m Beto 2s 2d 2c\n")
        assert status == 0 and out.endswith("\n0 lines stored; 1 already recorded\n")  # issue 33
        out = out.removeprefix("1: ").removesuffix("0 lines stored; 1 already recorded\n")
    assert out == "already recorded (move 9): meld Beto 2s 2d 2c changes nothing, nothing stored\n"
    assert len(rows(live)) == 9
    assert live("pay", "Beto", "7c").stdout.startswith("move 10: pay Beto 7c\n")


# ------------------------------------------------------------------------------- names
def test_n3_1_a_mistyped_name_or_verb_gets_the_closest_one(sqlite_book):
    from conftest import Live

    live = Live(sqlite_book("friday-melded", friday_book(FRIDAY[:9])))
    assert live("draw", "carla", "Jc", status=1).stderr.endswith(
        "names are matched exactly: did you mean Carla? (nothing stored)\n")
    status, out = piped(live, "dr carla Jc\n", "--keep-going")
    assert status == 1 and out.startswith("1: refused: N3.1 'carla' is not a player at this table (Ana Beto "
                                          "Carla); names are matched exactly: did you mean Carla?")
    status, out = piped(live, "robr Carla Jc\n")
    assert out.startswith("1: refused: N4 unknown verb or command 'robr' (`help` lists the verbs, their short "
                          "forms and the commands): did you mean robar?")
    assert "No such command 'DRAW'. Did you mean 'draw'? (commands: " in live("DRAW", "Carla", "Jc", status=2).stderr
    assert "Did you mean 'repartir'?" in live("repartr", "Carla", status=2).stderr


def test_n4_10_the_spanish_verbs_are_single_shot_commands(sqlite_book):
    from conftest import Live

    live = Live(sqlite_book("friday-melded", friday_book(FRIDAY[:9])))
    assert live("pagar", "Beto", "7c").stdout.startswith("move 10: pay Beto 7c\n")
    # echoed with the verb of the run's language (issue 33); the book keeps the English
    assert live("--lang", "es", "robar", "Carla", "4d").stdout.startswith("jugada 11: robar Carla 4d\n")
    assert live.json("hand", "log", "--json")[-1]["line"] == "draw Carla 4d"
    assert "robar [OPTIONS] PLAYER CARD" in live("robar", "--help").stdout.splitlines()[0]


# ---------------------------------------------------------------------- the session's words
def test_the_session_echoes_in_its_language_and_its_help_example_too():
    from desmoche_ref.play.typed import help_text, spoken

    assert spoken("meld Carla 9s 9d 9c", True) == "bajar Carla 9s 9d 9c"
    assert spoken("add Carla 7d to 6d", True) == "agregar Carla 7d a 6d"
    assert spoken("cambio Beto Ks", True) == "cambio Beto Ks"
    assert spoken("meld Carla 9s 9d 9c", False) == "meld Carla 9s 9d 9c"
    assert "  + Carla 7d a 6d" in help_text(str, True) and "  + Carla 7d to 6d" in help_text(str, False)


# ------------------------------------------------------------------- the book around the night
def test_export_writes_the_local_day_each_hand_was_dealt(live, tmp_path, monkeypatch):  # both engines
    """A zone where the local day is not UTC's now (twelve hours either way): the live hand
    is exported with its local day, and the import into a fresh book keeps its night."""
    import time
    from datetime import datetime, timezone

    now = datetime.now(timezone.utc)
    zone = "Etc/GMT+12" if now.hour < 12 else "Etc/GMT-13"  # UTC-12 or UTC+13: another day than UTC's
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        local = datetime.now().astimezone().date().isoformat()
        assert local != now.date().isoformat()
        live("table", "new", "t", "--players", "Ana Beto", "--bet", "1")
        live("hand", "new", "--dealer", "Ana")
        for line in ["deal Beto ?x9", "deal Ana ?x9", "declare Beto peladilla", "end"]:
            live("rec", line)
        exported = live("export").stdout
        assert f'[Date "{local}"]' in exported
        assert live.json("standings", "--since", local, "--until", local, "--json")["players"]
        from conftest import Live

        (tmp_path / "t.dsm").write_text(exported)
        fresh = Live("sqlite:///" + str(tmp_path / "fresh.db"))
        fresh("import", tmp_path / "t.dsm")
        assert fresh.json("standings", "--since", local, "--until", local, "--json") == \
            live.json("standings", "--since", local, "--until", local, "--json")
        assert live("import", tmp_path / "t.dsm").stdout.startswith(f"{tmp_path / 't.dsm'}: 0 hands stored, 1 already")
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_a_command_that_makes_a_book_says_so_once(tmp_path):
    from conftest import invoke

    book = tmp_path / "typo.db"  # a read never makes one (issue 33: test_fourth_night.py)
    first = invoke("--db", book, "table", "new", "t", "--players", "Ana Beto", "--bet", "1")
    assert first.stderr == f"new book at {book}\n"
    again = invoke("--db", book, "standings", "--json")
    assert again.stderr == "" and json.loads(again.stdout)["players"] == []


def test_ctrl_c_during_import_says_what_was_stored_and_how_to_finish(tmp_path, monkeypatch):
    from conftest import invoke
    from desmoche_ref.store.write import importer, judging

    monkeypatch.setattr(importer, "BATCH", 2)
    monkeypatch.setattr(judging, "JUDGED", 2)
    season = tmp_path / "season.dsm"
    season.write_text(invoke("simulate", "--hands", "10", "--plain").stdout)
    iterate = judging.Judging.__iter__

    def interrupted(self):
        for n, message in enumerate(iterate(self)):
            if n == 2:
                raise KeyboardInterrupt
            yield message

    monkeypatch.setattr(judging.Judging, "__iter__", interrupted)
    book = tmp_path / "book.db"
    cut = invoke("--db", book, "import", season)
    assert cut.returncode == 130
    assert cut.stderr.endswith("interrupted: 4 hands stored; run the same command again to store the rest "
                               "(a hand already in the book is not stored twice)\n")
    monkeypatch.setattr(judging.Judging, "__iter__", iterate)
    done = invoke("--db", book, "import", season)
    assert done.stdout == f"{season}: 6 hands stored, 4 already in the book, 0 rejected (table season)\n"


def test_what_is_no_record_is_said_in_one_line(tmp_path):
    from conftest import invoke

    assert invoke("simulate", "--hands", "99999999999999999999").stderr.endswith(
        "'99999999999999999999' is not in the range 1<=x<=100000.\n".replace("'", ""))
    program = tmp_path / "program.dsm"
    program.write_bytes(bytes(range(256)) * 8)
    book = tmp_path / "book.db"
    invoke("--db", book, "table", "new", "t", "--players", "Ana Beto", "--bet", "1")
    for path, why in ((program, "is a binary file, not a text record (N1.1)"),
                      (book, "is a SQLite database (a book?), not a text record: `desmoche-ref export` "
                             "writes a book's records")):
        for command in ("check", "fmt", "view"):
            args = [command, path] + (["--at", "1"] if command == "view" else [])
            run = invoke(*args)
            assert run.returncode == 2 and why in run.stdout + run.stderr, (command, run.stdout, run.stderr)


def test_fmt_check_says_where_and_diff_shows_each_change(tmp_path):
    from conftest import invoke

    record = tmp_path / "hand.dsm"
    record.write_text('[Players "Ana Beto"]\n[Dealer "Ana"]\n\ndeal Beto ?x9\ndeal  Ana ?x9   # dealt\n')
    check = invoke("fmt", "--check", record)
    assert (check.returncode, check.stdout) == (1, f"{record}: not in canonical form from line 5 (--diff shows "
                                                   "each change)\n")
    diff = invoke("fmt", "--diff", record).stdout.splitlines()
    assert diff[1:3] == [f"--- {record}", f"+++ {record} (canonical)"]
    assert diff[-2:] == ["-deal  Ana ?x9   # dealt", "+deal Ana ?x9 # dealt"]


def test_the_readme_sample_is_canonical_and_its_play_words_are_the_help_s(tmp_path):
    from conftest import invoke

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sample = readme.split("## The notation in one example\n\n```\n")[1].split("```")[0]
    (tmp_path / "readme.dsm").write_text(sample)
    assert invoke("fmt", "--check", tmp_path / "readme.dsm").returncode == 0
    helped = " ".join(invoke("play", "--help").stdout.split())
    assert "The first refused line is printed as `LINE: refused: CODE message (nothing stored)` and stops the input" \
        in helped
    assert "stops at the first refused line, printed as `LINE: refused: CODE\nmessage (nothing stored)`" in readme
    assert "a move naming a player not seated at the table is N3.1" in readme


# ------------------------------------------------------------ a league server's recorder
@pytest.mark.slow
def test_a_recorder_role_deals_a_hand_again_voids_one_and_takes_back_hand_new(owner_url, roles):
    """On PostgreSQL a recorder may update a hand's setup columns only for a deal again
    (journaled `redeal`), and its verdict columns: `hand new` twice, `hand void`, `undo` of
    the void and of a `hand new` all pass the server's grants, and the book verifies."""
    from conftest import Live
    from test_store_roles import as_role, granted_book

    owner, (clerk,) = granted_book(owner_url, roles, "--recorder")
    live = Live(as_role(owner_url, clerk))
    live("table", "new", "t", "--players", "Ana Beto", "--bet", "1")
    live("hand", "new", "--dealer", "Ana")
    assert live("hand", "new", "--dealer", "Beto").stdout.startswith("hand 1 at table t dealt again: Beto deals")
    live("deal", "Ana", "?x9")
    live("hand", "void", "--reason", "a card face up")
    live("undo")
    live("deal", "Beto", "?x9")
    live("declare", "Ana", "peladilla")
    live("end")
    live("hand", "new")
    assert live("undo").stdout.startswith("took back `hand new`: hand 1 is open again")
    assert verified(owner("verify").stdout).endswith(": all in order\n")


def test_verify_finds_a_hand_played_after_an_open_one_and_a_void_row_not_void(sqlite_book):
    """The two shapes the course of a hand allows are checked: later hands of an open hand
    only wait (untouched); a hand with its `void` row standing is void. An edit behind the
    program's back is named with its table and hand."""
    import sqlite3

    from conftest import Live

    url = sqlite_book("club-voided", _carried_night)
    live = Live(url)
    live("hand", "void", "--reason", "players left")
    live("hand", "new")
    live("deal", "Beto", "?x9")
    db = sqlite3.connect(url.removeprefix("sqlite:///"))
    with db:
        db.execute("UPDATE hand SET closed = NULL, status = 'open' WHERE number = 2")
    db.close()
    found = live("verify", status=1).stdout
    assert "table club hand 2 move 3: it was voided (`hand void`) but it is stored open" in found
    assert "table club hand 3: N5.4 hand 2 was still being recorded when this hand was dealt" in found
