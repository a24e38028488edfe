"""One set of limits for the book, checked before the database sees a value, so that SQLite
and PostgreSQL refuse the same things in the same words (desmoche_ref/limits.py): table and
player names, amounts (N3.2), hand numbers and dates, lines (N1.5); names compared in NFC
(N3.1) by every command; unknown names in filters; `import --encoding`; and `play` when
every player has fouled."""

import json
import pathlib
import subprocess
import sys

import pytest
from click.testing import CliRunner

from desmoche_ref.cli import main

ROOT = pathlib.Path(__file__).parent.parent
FRIDAY_PATH = ROOT / "tests" / "conformance" / "friday.dsm"
FRIDAY = FRIDAY_PATH.read_text()
EVENTS = [line for line in FRIDAY.splitlines() if line and not line.startswith("[")]
DEALS = [line for line in EVENTS if line.startswith(("deal", "cambio", "announce"))]
JOSE = "Jose\u0301"  # José as macOS and pasted text write it: e + combining acute accent


def play(url, text, *args):
    """`play` with these lines piped in, in this process: (exit status, output)."""
    result = CliRunner().invoke(main, ["play", *args], input=text, env={"DESMOCHE_DB": url})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def friday_table(live, name="friday"):
    live("table", "new", name, "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo",
         "--side", "oro 5 Ana Beto Carla")


# ------------------------------------------------------------ table names
@pytest.mark.parametrize("name, message", [
    ("", "a table needs a name: not empty, not only spaces"),
    ("   ", "a table needs a name: not empty, not only spaces"),
    ("two\nlines", "a table's name is one line of printable characters: no line end, tab or control character"),
    ("tab\there", "a table's name is one line of printable characters: no line end, tab or control character"),
    ("t" * 101, "the table name tttttttttttttttttttttttt… is longer than 100 characters"),
])
def test_a_table_name_the_book_cannot_keep_is_refused_on_both_engines(live, name, message):
    refused = live("table", "new", name, "--players", "Ana Beto", "--bet", "1", status=2)
    assert refused.stderr == f"error: {message}\n"
    assert live.json("table", "list", "--json") == []
    import_ = live("import", "--table", name, str(FRIDAY_PATH), status=2)
    assert import_.stderr == f"error: --table: {message}\n"


def test_the_longest_names_the_book_keeps_are_kept_and_one_more_is_refused(live):
    table, player = "t" * 100, "P" + "p" * 63
    out = live("table", "new", table, "--players", f"Ana {player}", "--bet", "1").stdout
    assert out.startswith(f"table {table}: Ana {player}, bet 1.00")
    assert f"\nseats 1 Ana · 2 {player} (" in out
    refused = live("table", "new", "other", "--players", f"Ana {player}p", "--bet", "1", status=2)
    assert refused.stderr == f"error: N3.1 the name {player[:24]}… is longer than 64 characters\n"
    assert [t["name"] for t in live.json("table", "list", "--json")] == [table]


def test_a_table_name_is_kept_without_the_spaces_around_it_and_found_so(live):
    live("table", "new", "  friday ", "--players", "Ana Beto", "--bet", "1")
    assert [t["name"] for t in live.json("table", "list", "--json")] == ["friday"]
    assert live("table", "use", " friday").stdout == "using table  friday\n"


def test_import_rejects_a_table_tag_or_a_file_name_the_book_cannot_keep(live, tmp_path):
    record = tmp_path / "night.dsm"
    record.write_text('[Table "' + "T" * 101 + '"]\n' + FRIDAY)
    out = live("import", str(record), status=1).stdout.splitlines()
    assert out == [f"{record}:1: N3 the table name TTTTTTTTTTTTTTTTTTTTTTTT… is longer than 100 characters",
                   f"{record} hand 1 (line 1): rejected, nothing of it stored",
                   f"{record}: 0 hands stored, 0 already in the book, 1 rejected (table TTTTTTTTTTTTTTTTTTTTTTT…)"]
    odd = tmp_path / "two\nlines.dsm"
    odd.write_text(FRIDAY)
    assert live("import", str(odd), status=1).stdout.startswith(
        f"{odd}:1: N3 a table's name is one line of printable characters: no line end, tab or control character\n")
    assert live.json("table", "list", "--json") == []


# ---------------------------------------------------------------- amounts
@pytest.mark.parametrize("amount", ["99999999999999999999", "92233720368547758.07", "1000000000"])
def test_an_amount_past_n3_2_is_refused_wherever_it_is_typed(live, amount):
    too_large = f"{amount} is too large: amounts are below 1,000,000,000"
    new = live("table", "new", "t", "--players", "Ana Beto", "--bet", amount, status=2)
    assert new.stderr.splitlines()[-1] == f"Error: Invalid value for --bet: {too_large}"
    side = live("table", "new", "t", "--players", "Ana Beto", "--bet", "1", "--side", f"oro {amount} Ana Beto",
                status=2)
    assert side.stderr.splitlines()[-1] == f"Error: Invalid value for --side: {too_large}"
    live("table", "new", "t", "--players", "Ana Beto", "--bet", "999999999.99")
    bet = live("table", "bet", "t", amount, "--all-agree", status=2)
    assert bet.stderr.splitlines()[-1] == f"Error: Invalid value for AMOUNT: {too_large}"
    hand = live("hand", "new", "--dealer", "Ana", "--side", f"oro {amount} Ana Beto", status=2)
    assert hand.stderr.splitlines()[-1] == f"Error: Invalid value for --side: {too_large}"
    status, out = play(live.url, f'new --dealer Ana --side "oro {amount} Ana Beto"\n')
    assert (status, out.splitlines()[0]) == (1, f"1: new: {too_large}")
    spanish = live("table", "new", "u", "--players", "Ana Beto", "--bet", amount, "--lang", "es", status=2)
    assert spanish.stderr.splitlines()[-1] == (
        f"Error: Valor no válido para --bet: {amount} es demasiado grande: las cantidades son menores que "
        "1.000.000.000")


@pytest.mark.slow
def test_the_largest_bet_plays_and_settles_exactly(live):
    live("table", "new", "t", "--players", "Ana Beto Carla", "--bet", "999999999.99")
    live("hand", "new", "--dealer", "Ana")
    for line in EVENTS:
        live("rec", line)
    live("hand", "new")  # the hand closes and the next starts: nothing overflows
    nets = {row["player"]: row["net"] for row in live.json("standings", "--json")["players"]}
    assert nets == {"Carla": "1999999999.98", "Ana": "-999999999.99", "Beto": "-999999999.99"}
    assert live("verify").stdout.splitlines()[-2].endswith("all in order")  # then the book head


# ----------------------------------------------------- numbers and dates
@pytest.mark.parametrize("command", [["hand", "show"], ["hand", "log"], ["export"], ["ledger"]])
def test_a_hand_number_past_the_book_is_a_usage_error(live, command):
    friday_table(live)
    live("hand", "new", "--dealer", "Ana")
    run = live(*command, "--hand", "99999999999999999999999", status=2)
    assert run.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--hand': 99999999999999999999999 is not in the range 1<=x<=2147483647.")


def test_standings_until_the_last_day_there_is(live):
    live("import", str(FRIDAY_PATH))
    everything = live.json("standings", "--json")
    assert live.json("standings", "--until", "9999-12-31", "--json") == everything
    assert live.json("standings", "--since", "0001-01-01", "--until", "9999-12-31", "--json") == everything
    assert live.json("standings", "--since", "9999-12-31", "--json") == {
        "players": [], "unwon": "0.00", "brought_in": "0.00"}
    assert live("settle-up", "--until", "9999-12-31").stdout.splitlines()[0] == "Ana pays Carla 25.00"


# ------------------------------------------------------- unknown names
def test_an_unknown_player_in_a_filter_is_exit_2_with_the_close_match(live):
    live("import", str(FRIDAY_PATH))
    assert live("standings", "--player", "Nobody", status=2).stderr == (
        "error: there is no player 'Nobody' in this book\n")
    assert live("ledger", "--player", "ana", status=2).stderr == (
        "error: there is no player 'ana' in this book: did you mean Ana?\n")
    assert live("standings", "--player", "Btoe", "--lang", "es", status=2).stderr == (
        "error: no hay ningún jugador 'Btoe' en este libro: ¿quiso decir Beto?\n")
    assert [r["player"] for r in live.json("standings", "--player", "Ana", "--json")["players"]] == ["Ana"]


def test_an_unknown_table_suggests_the_close_one(live):
    live("import", str(FRIDAY_PATH))
    assert live("standings", "--table", "Friday", status=2).stderr == (
        "error: there is no table 'Friday' in this book: did you mean friday?\n")
    assert live("table", "use", "fridya", status=2).stderr == (
        "error: there is no table 'fridya' in this book (`desmoche-ref table list`): did you mean friday?\n")
    assert live("ledger", "--table", "zz", status=2).stderr == "error: there is no table 'zz' in this book\n"


# -------------------------------------------------------------------- NFC
def test_a_name_typed_decomposed_is_the_name_at_the_table(live, tmp_path):
    live("table", "new", "t", "--players", f"{JOSE} Beto Carla", "--bet", "10", "--options", "todo")
    assert live.json("table", "list", "--json")[0]["players"] == ["José", "Beto", "Carla"]
    live("hand", "new", "--dealer", JOSE)
    friday = [line.replace("Ana", "José") for line in EVENTS]
    live("rec", friday[0].replace("José", JOSE))
    live(*friday[1].replace("José", JOSE).split())
    status, out = play(live.url, "".join(line.replace("José", JOSE) + "\n" for line in friday[2:] + ["end"]))
    assert status == 0, out
    exported = live("export").stdout
    assert exported.startswith('[Players "José Beto Carla"]\n[Dealer "José"]\n') and JOSE not in exported
    assert exported.count("José") == sum(line.count("José") for line in friday) + 2
    record = tmp_path / "night.dsm"
    record.write_text(FRIDAY.replace("Ana", JOSE), encoding="utf-8")
    live("import", str(record), "--table", "other")
    rows = live.json("standings", "--player", JOSE, "--json")["players"]
    # -20.00 live (no side game), -25.00 imported
    assert [(r["player"], r["hands"], r["net"]) for r in rows] == [("José", 2, "-45.00")]
    assert {e["account"] for e in live.json("ledger", "--player", JOSE, "--json")["postings"]} == {"José"}


def test_a_cut_typed_decomposed_at_the_table(live):
    live("table", "new", "t", "--players", "José María Beto", "--bet", "10")
    live("hand", "new", "--dealer", JOSE)
    assert live("cut", "Mari\u0301a").stdout.splitlines()[0] == "move 1: cut María"


# ---------------------------------------------------------------- table new
def test_table_new_numbers_the_seats_and_says_how_to_write_a_name_with_a_space(live):
    out = live("table", "new", "t", "--players", "José María Beto", "--bet", "10").stdout
    assert out == ("table t: José María Beto, bet 10.00, desmoche — next: "
                   "`desmoche-ref hand new --dealer NAME`\n"
                   "seats 1 José · 2 María · 3 Beto (one name a seat: a name with a space is written with _, "
                   "as José_María)\n")
    out = live("table", "new", "u", "--players", "José_María Beto", "--bet", "10", "--lang", "es").stdout
    assert out == ("mesa u: José_María Beto, apuesta 10.00, desmoche — siguiente: "
                   "`desmoche-ref hand new --dealer NOMBRE`\n"
                   "lugares 1 José_María · 2 Beto (un nombre por lugar: un nombre con espacio se escribe con _, "
                   "como José_María)\n")


# -------------------------------------------------------------- encodings
def test_import_reads_a_windows_file_with_encoding_and_hints_without_it(live, tmp_path):
    windows = tmp_path / "cafe.dsm"
    windows.write_bytes(FRIDAY.replace("[Players", '[Event "Noche de café"]\n[Players').encode("cp1252"))
    plain = live("import", str(windows), status=1).stdout.splitlines()
    assert plain == [f"{windows}:1: N1.1 this line is not valid UTF-8 text",
                     f"{windows} hand 1 (line 1): rejected, nothing of it stored",
                     f"{windows}: 0 hands stored, 0 already in the book, 1 rejected (table cafe)",
                     f"{windows}: hint: this file looks like Windows-1252 (or Latin-1) text, not UTF-8: "
                     "try --encoding cp1252"]
    spanish = live("import", str(windows), "--lang", "es", status=1).stdout.splitlines()
    assert spanish[-1] == (f"{windows}: sugerencia: este archivo parece texto Windows-1252 (o Latin-1), no "
                           "UTF-8: pruebe --encoding cp1252")
    assert live("import", "--encoding", "cp1252", str(windows)).stdout == (
        f"{windows}: 1 hand stored, 0 already in the book, 0 rejected (table cafe)\n")
    assert '[Event "Noche de café"]' in live("export").stdout


@pytest.mark.slow
def test_import_of_standard_input_is_read_by_the_judging_process(book_url):
    """A real pipe: the child that judges reads it (its own copy of the descriptor)."""
    run = subprocess.run([sys.executable, "-m", "desmoche_ref", "import", "-", "--table", "t", "--db", book_url],
                         input=FRIDAY, capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stdout, run.stderr) == (
        0, "-: 1 hand stored, 0 already in the book, 0 rejected (table t)\n", "")


# ------------------------------------------------------------------- N1.5
def test_a_comment_as_long_as_a_line_may_be_is_stored_and_exported_on_both_engines(live, tmp_path):
    comment = "n" * (4096 - len("draw Beto 2d #"))
    record = tmp_path / "night.dsm"
    record.write_text(FRIDAY.replace("draw Beto 2d\n", f"draw Beto 2d #{comment}\n"))
    assert live("import", str(record)).stdout.endswith("1 hand stored, 0 already in the book, 0 rejected "
                                                      "(table night)\n")
    assert f"draw Beto 2d #{comment}\n" in live("export").stdout
    friday_table(live, "live")
    live("hand", "new", "--dealer", "Ana")
    live("rec", "deal Beto ?x9 #" + "m" * (4096 - len("deal Beto ?x9 #")))
    refused = live("rec", "deal Carla ?x9 #" + "m" * (4096 - len("deal Carla ?x9 #") + 1), status=1)
    assert refused.stderr == "refused: N1.5 this line is longer than 4096 characters (nothing stored)\n"
    status, out = play(live.url, "deal Carla ?x9 #" + "m" * 4096 + "\n", "--table", "live")
    assert (status, out.splitlines()[0]) == (
        1, "1: refused: N1.5 this line is longer than 4096 characters (nothing stored)")


def test_a_line_whose_canonical_form_is_too_long_is_not_imported(live, tmp_path):
    line = "draw Beto 2d#" + "c" * (4096 - len("draw Beto 2d#"))  # canonical: `draw Beto 2d #c…`
    record = tmp_path / "night.dsm"
    record.write_text(FRIDAY.replace("draw Beto 2d\n", line + "\n"))
    assert live("check", str(record)).exit_code == 0  # as written it is within N1.5
    out = live("import", str(record), status=1).stdout.splitlines()
    line = FRIDAY.splitlines().index("draw Beto 2d") + 1
    assert out[:2] == [f"{record}:{line}: N1.5 written in canonical form (N7), this line is longer than 4096 "
                       "characters", f"{record} hand 1 (line 1): rejected, nothing of it stored"]


def test_n1_5_a_live_hand_takes_1000_events_and_refuses_the_next_in_every_front_end(live, tmp_path):
    fouls = ["foul Ana other x", "forgive Ana"] * ((998 - len(DEALS)) // 2)  # 997 events in all
    record = tmp_path / "long.dsm"
    record.write_text(FRIDAY.split("\n\n")[0] + "\n\n" + "\n".join(DEALS + fouls) + "\n")
    live("import", "--table", "long", str(record))
    for line in ("foul Ana other x", "forgive Ana", "foul Ana other x"):  # moves 998, 999, 1000
        live("rec", "--table", "long", line)
    refused = live("rec", "--table", "long", "forgive Ana", status=1)
    assert refused.stderr == "refused: N1.5 a hand holds at most 1000 events: this is one more (nothing stored)\n"
    status, out = play(live.url, "forgive Ana\n", "--table", "long")
    assert (status, out.splitlines()[0]) == (1, "1: refused: N1.5 a hand holds at most 1000 events: this is one more "
                                              "(nothing stored)")
    live("undo", "--table", "long")  # 999 standing: one more fits again
    live("rec", "--table", "long", "foul Ana other x")
    assert live("verify").exit_code == 0


def test_n1_5_a_hand_whose_export_would_hold_more_than_64_tags_is_not_kept(live, tmp_path):
    header, moves = FRIDAY.split("\n\n", 1)
    own = len(header.splitlines())
    fits = header + "".join(f'\n[Note{i} "n"]' for i in range(61 - own)) + "\n\n" + moves
    (tmp_path / "fits.dsm").write_text(fits)
    assert live("import", str(tmp_path / "fits.dsm")).stdout.endswith("1 hand stored, 0 already in the book, "
                                                                    "0 rejected (table fits)\n")
    crowded = fits.replace('[Note0 "n"]', '[Note0 "n"]\n[Extra "e"]')
    (tmp_path / "crowded.dsm").write_text(crowded)
    assert live("check", str(tmp_path / "crowded.dsm")).exit_code == 0  # 62 tags as written
    out = live("import", str(tmp_path / "crowded.dsm"), status=1).stdout.splitlines()
    assert out[0] == (f"{tmp_path / 'crowded.dsm'}:1: N1.5 a hand holds at most 64 tags, those its export adds "
                      "(Table, Date, Closed) included: this one would hold 65")
    exported = live("export", "--table", "fits").stdout  # a live hand holds 26 tags at most (10 games)
    assert exported.count("\n[") + exported.startswith("[") == 62


def test_fouls_against_a_player_already_out_fit_the_book_and_count_once(live, tmp_path):
    record = tmp_path / "fouls.dsm"
    record.write_text("\n".join(FRIDAY.split("\n\n")[0].splitlines()[:-1] + [""] + DEALS +
                                ["foul Beto peek"] * 120 + ["foul Carla peek", "foul Ana peek"]) + "\n")
    assert live("import", str(record)).stdout.endswith("1 hand stored, 0 already in the book, 0 rejected "
                                                      "(table fouls)\n")
    rows = live.json("standings", "--json")["players"]
    assert {r["player"]: r["fouls"] for r in rows} == {"Ana": 1, "Beto": 1, "Carla": 1}


# ------------------------------------------------- every player fouled
def test_play_when_every_player_has_fouled_and_again_after_a_restart(live):
    friday_table(live)
    # (no card has gone by: a peek is refused live, issue 33; the table names another foul)
    lines = ["new --dealer Ana", *DEALS, "foul Beto other left", "foul Carla other left", "foul Ana other left",
             "state"]
    status, out = play(live.url, "\n".join(lines) + "\n")
    assert status == 0 and "turn: over: no winner · `end` closes the hand" in out.splitlines()
    status, out = play(live.url, "state\n")
    assert status == 0 and "turn: over: no winner · `end` closes the hand" in out.splitlines()
    status, out = play(live.url, "estado\n", "--lang", "es")
    assert status == 0 and "turno: terminada: sin ganador · `fin` cierra la mano" in out.splitlines()
    status, out = play(live.url, "end\n")
    assert status == 0 and json.loads(live("hand", "show", "--json").stdout)["outcome"]["kind"] == "no-winner"
