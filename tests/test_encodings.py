"""N1.1 through the real commands: files that are not UTF-8, `--encoding`, UTF-16 with a BOM."""

import json
import pathlib
import re

import pytest

from test_cli import assert_no_traceback, cli

ROOT = pathlib.Path(__file__).parent.parent
CLUB = (ROOT / "sample_logs" / "club-night.dsm").read_text(encoding="utf-8")
FRIDAY = (ROOT / "sample_logs" / "friday.dsm").read_text(encoding="utf-8")
HINT = "hint: this file looks like Windows-1252 (or Latin-1) text, not UTF-8: try --encoding cp1252"


def spanish(text):
    """The record with names a Spanish-language table writes: José, Begoña."""
    return re.sub(r"\b(Ana|Beto)\b", lambda m: {"Ana": "José", "Beto": "Begoña"}[m.group(1)], text)


def copies(tmp_path, text):
    utf8, cp = tmp_path / "utf8.dsm", tmp_path / "cp1252.dsm"
    utf8.write_bytes(text.encode("utf-8"))
    cp.write_bytes(text.encode("cp1252"))
    return utf8, cp


def hands(run):
    return json.loads(run.stdout)["files"][0]["hands"]


def first_non_ascii_lines(text):
    """Per hand (as the UTF-8 copy splits them), the first line that is not ASCII; the
    comment lines just above a hand's first tag lead that hand (N1.2)."""
    lines = text.split("\n")
    starts = [h["line"] for h in hands(cli("check", "--json", "-", input=text))]
    bounds = [1]
    for start in starts[1:]:
        while lines[start - 2].strip() == "" or lines[start - 2].lstrip().startswith("#"):
            start -= 1
        bounds.append(start)
    bounds.append(len(lines) + 1)
    return [next(n for n in range(a, b) if not lines[n - 1].isascii())
            for a, b in zip(bounds, bounds[1:])]


def test_n1_1_a_windows_1252_copy_is_n1_1_at_the_right_lines_and_gets_the_hint(tmp_path):
    text = spanish(CLUB)
    utf8, cp = copies(tmp_path, text)
    good = hands(cli("check", "--json", utf8))
    run = cli("check", "--json", cp)
    assert run.returncode == 1
    bad = hands(run)
    assert len(bad) == len(good) == 11  # split into hands as the UTF-8 file is
    assert [h["line"] for h in bad] == [h["line"] for h in good]
    expected = first_non_ascii_lines(text)
    assert expected[:3] == [1, 48, 93]  # the header comment (an em dash), then Players tags
    assert [h["errors"] for h in bad] == [
        [{"line": n, "code": "N1.1", "message": "this line is not valid UTF-8 text"}] for n in expected]
    assert run.stderr == f"{cp}: {HINT}\n"
    human = cli("check", cp)
    assert f"{cp}:1: N1.1 this line is not valid UTF-8 text\n" in human.stdout
    assert f"{cp}:48: N1.1 this line is not valid UTF-8 text\n" in human.stdout
    assert human.stdout.count(": N1.1 this line is not valid UTF-8 text\n") == 11
    assert human.stdout.endswith(f"{cp}: {HINT}\n"
                                 "What a code means: desmoche-ref rules CODE (e.g. desmoche-ref rules N1.1)\n")


def test_n1_1_with_encoding_cp1252_the_verdict_of_the_utf8_file(tmp_path):
    utf8, cp = copies(tmp_path, spanish(CLUB))
    good = cli("check", "--json", utf8)
    run = cli("check", "--json", "--encoding", "cp1252", cp)
    assert run.returncode == good.returncode == 0
    assert hands(run) == hands(good)
    assert run.stderr == ""
    names = hands(run)[0]["players"]
    assert names == ["José", "Begoña", "Carla", "Dani"]
    assert cli("check", "--session", "--encoding", "cp1252", cp).stdout.replace(str(cp), "X") == \
        cli("check", "--session", utf8).stdout.replace(str(utf8), "X")


def test_n1_1_fmt_names_every_bad_line_and_reads_the_encoding_given(tmp_path):
    text = spanish(FRIDAY)
    utf8, cp = copies(tmp_path, text)
    run = cli("fmt", cp)
    assert run.returncode == 1
    bad = [n for n, line in enumerate(text.split("\n"), 1) if not line.isascii()]
    assert run.stderr == "".join(f"{cp}:{n}: N1.1 this line is not valid UTF-8 text\n" for n in bad) \
        + f"{cp}: {HINT}\n"
    assert cli("fmt", "--encoding", "cp1252", cp).stdout == cli("fmt", utf8).stdout
    assert cli("fmt", "--check", "--encoding", "cp1252", cp).returncode == 1  # canonical is UTF-8


def test_n1_1_one_latin_1_byte_in_a_tag_line_does_not_split_the_hand(tmp_path):
    path = tmp_path / "one-byte.dsm"
    path.write_bytes(FRIDAY.replace('[Event "Friday league"]', '[Event "Caf\x00"]').encode()
                     .replace(b"Caf\x00", b"Caf\xe9"))
    run = cli("check", "--json", path)
    assert run.returncode == 1
    (hand,) = hands(run)
    assert hand["line"] == 1 and hand["players"] == ["Ana", "Beto", "Carla"] and hand["status"] == "invalid"
    assert hand["errors"] == [{"line": 1, "code": "N1.1", "message": "this line is not valid UTF-8 text"}]
    assert run.stderr == f"{path}: {HINT}\n"


def test_n1_1_a_bad_dealer_tag_is_n1_1_there_not_a_missing_tag(tmp_path):
    path = tmp_path / "dealer.dsm"
    path.write_bytes(FRIDAY.replace('[Dealer "Ana"]', '[Dealer "Ana"] # compañera')
                     .encode("utf-8").replace("ñ".encode(), b"\xf1"))
    (hand,) = hands(cli("check", "--json", path))
    assert hand["errors"] == [{"line": 6, "code": "N1.1", "message": "this line is not valid UTF-8 text"}]


@pytest.mark.slow
def test_n1_1_a_utf16_file_with_a_byte_order_mark_is_read_as_such(tmp_path):
    utf8 = tmp_path / "utf8.dsm"
    utf8.write_text(spanish(FRIDAY), encoding="utf-8")
    for codec in ("utf-16", "utf-16-be"):
        path = tmp_path / f"{codec}.dsm"
        data = spanish(FRIDAY).encode(codec)
        if codec == "utf-16-be":
            data = b"\xfe\xff" + data
        path.write_bytes(data)
        run = cli("check", "--json", path)
        assert run.returncode == 0, run.stdout
        assert hands(run) == hands(cli("check", "--json", utf8))
    assert cli("fmt", tmp_path / "utf-16.dsm").stdout == cli("fmt", utf8).stdout


def test_n1_1_utf16_without_a_mark_gets_no_cp1252_hint(tmp_path):
    path = tmp_path / "utf16le.dsm"
    path.write_bytes(FRIDAY.encode("utf-16-le"))
    run = cli("check", "--json", path)
    assert_no_traceback(run)
    assert run.returncode == 1 and run.stderr == ""


def test_an_unknown_encoding_is_a_usage_error():
    run = cli("check", "--encoding", "klingon", ROOT / "sample_logs" / "friday.dsm")
    assert run.returncode == 2
    assert "unknown encoding 'klingon'" in run.stderr
    assert_no_traceback(run)


def test_n1_1_undecodable_comments_stay_with_the_hand_they_lead(tmp_path):
    # a bad comment between two hands leads the second, as a good one would
    two = FRIDAY.rstrip("\n") + "\n\n# Begoña's hand\n" + FRIDAY
    path = tmp_path / "two.dsm"
    path.write_bytes(two.encode("cp1252"))
    doc = hands(cli("check", "--json", path))
    comment = two.split("\n").index("# Begoña's hand") + 1
    assert [h["status"] for h in doc] == ["complete", "invalid"]
    assert doc[1]["errors"][0]["line"] == comment and doc[1]["errors"][0]["code"] == "N1.1"


def test_n1_1_view_reads_the_encoding_given_and_hints_without_it(tmp_path):
    """`view` reads records as `check` does: N1.1 and the hint on a Windows-1252 copy, and
    with `--encoding cp1252` the same table as the UTF-8 file's."""
    utf8, cp = copies(tmp_path, spanish(FRIDAY))
    plain = cli("view", cp, "--at", "20")
    assert HINT in plain.stderr and plain.returncode == 1
    assert_no_traceback(plain)
    assert json.loads(cli("view", cp, "--at", "20", "--json").stdout)["errors"][0]["code"] == "N1.1"
    read = json.loads(cli("view", cp, "--at", "20", "--json", "--encoding", "cp1252").stdout)
    want = json.loads(cli("view", utf8, "--at", "20", "--json").stdout)
    read.pop("path"), want.pop("path")
    assert read == want and read["players"][0]["name"] == "José"
