"""The limits of a record (N1.5 lines, N3.1 names, N3.2 amounts) as the reader and `check`
apply them, the reader's memory on a line of any length, and the table session when every
player has fouled. The book's side of the same limits: tests/test_limits_book.py."""

import pathlib
import sys

import pytest
from click.testing import CliRunner

from desmoche_ref.cli import main
from desmoche_ref.engine.replay import Referee
from desmoche_ref.engine.setup import read_setup
from desmoche_ref.limits import LINE, closest, table_name
from desmoche_ref.money import parse_amount
from desmoche_ref.notation.parser import Lines, TooLong, parse_text
from desmoche_ref.findings import listed
from desmoche_ref.play.prompt import turn_text
from helpers import raw, tags_text, verdict

ROOT = pathlib.Path(__file__).parent.parent
FRIDAY = (ROOT / "tests" / "conformance" / "friday.dsm").read_text()
DEALS = [line for line in FRIDAY.splitlines() if line.startswith(("deal", "cambio", "announce"))]
ALL_FOULED = "\n".join(FRIDAY.split("\n\n")[0].splitlines() + [""] + DEALS +
                       ["foul Beto peek", "foul Carla peek", "foul Ana peek"]) + "\n"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def errors(text):
    return [(e["line"], e["code"], e["message"]) for e in verdict(text)["errors"]]


# ------------------------------------------------------------------ N1.5
def test_n1_5_a_line_of_4096_characters_is_read_and_one_more_is_an_error():
    comment = "x" * (LINE - len("draw Beto 2d #"))
    ok = FRIDAY.replace("draw Beto 2d\n", f"draw Beto 2d #{comment}\n")
    assert verdict(ok)["status"] == "complete"
    assert len(ok.splitlines()[14]) == LINE
    assert verdict(ok.replace("\n", "\r\n"))["status"] == "complete"  # the line end is not counted
    long = FRIDAY.replace("draw Beto 2d\n", f"draw Beto 2d #{comment}y\n")
    assert errors(long) == [(15, "N1.5", "this line is longer than 4096 characters")]


@pytest.mark.parametrize("line", ['[Event "' + "e" * 5000 + '"]', "# " + "c" * 5000, " " * 5000,
                                  "deal Beto " + "2s " * 2000])
def test_n1_5_every_kind_of_line_too_long_is_an_error_at_its_line(line):
    text = FRIDAY.replace('[Dealer "Ana"]\n', '[Dealer "Ana"]\n' + line + "\n")
    assert errors(text)[0] == (3, "N1.5", "this line is longer than 4096 characters")


def test_n1_5_a_tag_line_too_long_still_starts_the_hand_it_leads():
    second = '[Event "' + "e" * 20_000 + '"]\n' + FRIDAY
    report = [(h["line"], h["status"], [e["code"] for e in h["errors"]])
              for h in verdict_all(FRIDAY + "\n" + second)]
    assert report == [(1, "complete", []), (len(FRIDAY.splitlines()) + 2, "invalid", ["N1.5"])]


def verdict_all(text):
    from desmoche_ref.referee import judge_text

    return [h.as_json() for h in judge_text(text).hands]


@pytest.mark.parametrize("block", [1, 7, 1000, 4097, 1 << 18])
def test_n1_5_the_reader_finds_a_long_line_however_the_file_is_cut_into_blocks(block):
    lines = ["short", "é" * LINE, "é" * (LINE + 1), "a" * (4 * LINE + 5), "x" * 100_000, "end"]
    data = "\n".join(lines).encode("utf-8")
    got = list(Lines([data[i:i + block] for i in range(0, len(data), block)]))
    assert [type(t) for t in got] == [str, str, TooLong, TooLong, TooLong, str]
    assert got[0] == "short" and got[1] == "é" * LINE and got[5] == "end"
    assert all(len(t) <= 64 for t in got[2:5])  # the reader keeps no more of a long line


def test_n1_5_in_another_encoding_too():
    data = ("short\n" + "ñ" * (LINE + 1) + "\nend\n").encode("utf-16")
    assert [type(t) for t in Lines(data)] == [str, TooLong, str]
    latin = ("a\n" + "ñ" * (LINE + 1) + "\nb").encode("latin-1")
    assert [type(t) for t in Lines([latin[:3000], latin[3000:]], "latin-1")] == [str, TooLong, str]


def test_n1_5_check_of_a_10_mb_tag_line_says_so_in_both_languages(tmp_path):
    path = tmp_path / "big.dsm"
    path.write_text('[Event "' + "x" * 10_000_000 + '"]\n' + FRIDAY)
    english = run("check", str(path))
    assert english.exit_code == 1
    assert english.output.splitlines()[:2] == [
        f"{path} hand 1 (line 1): invalid at line 1 (N1.5)",
        f"{path}:1: N1.5 this line is longer than 4096 characters"]
    spanish = run("check", str(path), "--lang", "es")
    assert spanish.output.splitlines()[1] == f"{path}:1: N1.5 esta línea tiene más de 4096 caracteres"


def test_n1_5_a_hand_holds_64_tags_and_the_65th_is_an_error():
    header, moves = FRIDAY.split("\n\n", 1)
    free = len(header.splitlines())
    fits = "\n".join(header.splitlines() + [f'[Note{i} "n"]' for i in range(64 - free)]) + "\n\n" + moves
    assert verdict(fits)["status"] == "complete"
    over = "\n".join(header.splitlines() + [f'[Note{i} "n"]' for i in range(65 - free)]) + "\n\n" + moves
    assert errors(over) == [(65, "N1.5", "a hand holds at most 64 tags: this is one more")]


def test_n1_5_a_hand_holds_1000_events_and_the_1001st_is_an_error():
    from desmoche_ref.notation.parser import parse_text

    header, moves = FRIDAY.split("\n\n", 1)
    first = len(header.splitlines()) + 2  # the first event's line
    filler = ["foul Ana other x", "forgive Ana"] * 600
    hand = parse_text(header + "\n\n" + "\n".join(filler) + "\n" + FRIDAY).hands
    assert len(hand[0].events) == 1001  # 1,000 events and the line past them: no more of that hand
    assert hand[0].events[-1].error.code == "N1.5" and hand[0].events[-1].line == first + 1000
    assert hand[0].events[-1].error.message == "a hand holds at most 1000 events: this is one more"
    assert len(hand) == 2 and hand[1].line == first + 1200  # the next hand starts where it did
    assert [len(h.events) for h in hand] == [1001, len(moves.strip().splitlines())]


def test_n1_5_the_line_past_a_bound_is_the_hands_first_error_when_nothing_is_wrong_before():
    header, moves = FRIDAY.split("\n\n", 1)
    draws = header + "\n\n" + "\n".join(["# a note"] * 1001) + "\n" + moves
    first = len(header.splitlines()) + 2
    assert errors(draws) == [(first + 1000, "N1.5", "a hand holds at most 1000 comment lines: this is one more")]
    again = draws + "\n" + FRIDAY  # the next hand is read as it would be
    assert [h["status"] for h in verdict_all(again)] == ["invalid", "complete"]


def test_n1_5_every_bound_of_a_hand_in_spanish(tmp_path):
    header, moves = FRIDAY.split("\n\n", 1)
    path = tmp_path / "tags.dsm"
    path.write_text(header + "\n" + "\n".join(f'[N{i} "x"]' for i in range(70)) + "\n\n" + moves)
    out = run("check", str(path), "--lang", "es").output.splitlines()
    assert out[1] == f"{path}:65: N1.5 una mano tiene como mucho 64 etiquetas: esta es una más"


def test_n1_5_fmt_says_where_a_hand_goes_past_its_bounds_and_writes_nothing(tmp_path):
    header, moves = FRIDAY.split("\n\n", 1)
    path = tmp_path / "long.dsm"
    text = header + "\n\n" + moves + "".join("foul Ana other x\nforgive Ana\n" for _ in range(500))
    path.write_text(text)
    result = run("fmt", "--in-place", str(path))
    assert result.exit_code == 1
    line = len(header.splitlines()) + 2 + 1000
    assert f"{path}:{line}: N1.5 a hand holds at most 1000 events: this is one more" in result.output
    assert path.read_text() == text


def peak_mb(*args) -> float:
    """The peak resident memory of `desmoche-ref ARGS` in a child of its own (bench/bench_memory.py)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_memory import peak_mb as measured

    return measured([sys.executable, "-m", "desmoche_ref", *map(str, args)])


@pytest.mark.slow
def test_n1_5_check_fmt_and_import_of_a_10_mb_line_and_of_endless_hands_stay_small(tmp_path):
    header, moves = FRIDAY.split("\n\n", 1)
    path = tmp_path / "big.dsm"
    with open(path, "w") as f:  # 34 MB: a 10 MB line, then a hand of every kind that never ends
        f.write('[Event "' + "x" * 10_000_000 + '"]\n' + FRIDAY + "\n")
        f.write(header + "\n" + ('[Note "' + "n" * 4000 + '"]\n') * 2500 + "\n" + moves + "\n")
        f.write(header + "\n\n" + "draw Beto 2d\n" * 300_000 + "\n")
        f.write(header + "\n\n" + ("#" + "c" * 4000 + "\n") * 2500 + moves)
    assert peak_mb("check", path) < 60  # it was 1.7 GB for the line; 2.2 GB for 100 MB of draws
    assert peak_mb("fmt", path) < 60  # fmt reads and writes hand by hand (it held the file: 1.9 GB at 100 MB)
    assert peak_mb("import", path, "--db", tmp_path / "book.db") < 150


# ------------------------------------------------------------------ N3.1
def test_n3_1_a_name_holds_at_most_64_characters():
    ok = "A" + "n" * 63
    assert verdict(raw(tags_text(players=(ok, "Beto", "Carla"), dealer=ok), []))["errors"] == []
    long = ok + "a"
    assert errors(raw(tags_text(players=(long, "Beto", "Carla"), dealer="Beto"), [])) == [
        (1, "N3.1", f"the name {long[:24]}… is longer than 64 characters")]


def test_n3_1_a_name_written_decomposed_is_the_same_name():
    composed = FRIDAY.replace("Ana", "José")
    decomposed = FRIDAY.replace("Ana", "Jose\u0301")
    assert verdict(decomposed) == verdict(composed)  # net, players, everything
    assert verdict(decomposed)["net"]["José"] == "-25.00"
    mixed = composed.replace("draw José", "draw Jose\u0301", 1)
    assert verdict(mixed)["status"] == "complete"
    fmt = run("fmt", "-", input=decomposed.encode("utf-8"))
    assert (fmt.exit_code, fmt.output) == (0, composed)  # the canonical form is composed


def test_names_are_matched_in_nfc_and_suggested_by_case():
    assert closest("ana", ["Ana", "Beto"]) == "Ana"
    assert closest("Jose\u0301", ["José"]) == "José"
    assert closest("Btoe", ["Ana", "Beto"]) == "Beto"
    assert closest("Nobody", ["Ana", "Beto"]) is None
    assert table_name(" frïday ") == ("frïday", None)
    assert table_name("t" * 101)[1] == "the table name tttttttttttttttttttttttt… is longer than 100 characters"


# ------------------------------------------------------------------ N3.2
def test_n3_2_every_amount_of_a_record_is_below_a_thousand_million():
    assert parse_amount("999999999.99") == 99_999_999_999 and parse_amount("1000000000") is None
    big = "1000000000"
    message = f"{big} is too large: amounts are below 1,000,000,000"
    for tags in (dict(carry=big), dict(side=(f"oro {big} Ana Beto",)), dict(sidecarry=(f"flor {big}",))):
        assert errors(raw(tags_text(**tags), [])) == [(4, "N3.2", message)]  # the setup's first error
    assert errors(raw(tags_text(bet="ten"), [])) == [(3, "N3.2", "'ten' is not an amount (e.g. 10 or 2.50)")]


# ------------------------------------------------- every player fouled
def test_when_every_player_has_fouled_the_hand_is_over_without_a_winner():
    record = parse_text(ALL_FOULED).hands[0]
    setup, problems = read_setup(record)
    assert problems == []
    ref = Referee(setup)
    ref.run(record.events)
    assert (ref.outcome.kind, list(ref.outcome.winners)) == ("no-winner", [])
    assert turn_text(ref) == "over: no winner · `end` closes the hand"
    assert listed([]) == "" and listed(["Ana", "Beto", "Carla"]) == "Ana, Beto and Carla"
