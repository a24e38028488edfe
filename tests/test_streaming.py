"""Reading and reporting in a stream (issue 7): the library changes no process-wide state,
files are decoded block by block, judged and written hand by hand, one N8 builder."""

import gc
import json
import pathlib

from click.testing import CliRunner

from desmoche_ref.cli.check import check
from desmoche_ref.notation.parser import Lines, Undecodable
from desmoche_ref.referee import FileReport, judge_bytes, judge_stream, n8_chunks

from test_cli import cli

ROOT = pathlib.Path(__file__).parent.parent
CLUB = ROOT / "sample_logs" / "club-night.dsm"


def test_check_pauses_the_collector_only_for_its_own_span():
    assert gc.isenabled()
    result = CliRunner().invoke(check, ["--json", str(CLUB)])
    assert result.exit_code == 0
    assert gc.isenabled()  # restored: a process running check in-process keeps its collector
    gc.disable()
    try:
        CliRunner().invoke(check, [str(CLUB)])
        assert not gc.isenabled()  # and one that had it off still has it off
    finally:
        gc.enable()


def test_judging_leaves_the_collector_as_it_found_it():
    data = CLUB.read_bytes()
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            seen = []
            for _ in judge_stream(data):
                seen.append(gc.isenabled())
            assert seen == [enabled] * 11 and gc.isenabled() is enabled
        finally:
            gc.enable()


def test_the_library_switches_no_collector_and_keeps_no_reader_cache():
    package = ROOT / "desmoche_ref"
    uses = sorted(str(p.relative_to(package)) for p in package.rglob("*.py") if "gc." in p.read_text())
    assert uses == ["cli/runtime.py"]  # the scoped pause that check and import use
    notation = [p.name for p in (package / "notation").glob("*.py") if "lru_cache" in p.read_text()]
    assert notation == []


DATA = ("\ufeff[Players \"José Begoña\"]\r\n[Dealer \"José\"]\r\n\r\n# ♠ comment\r\n"
        "deal Begoña 2♠ 3s\n").encode("utf-8") + b"bad \xe9 line\r\n" + "last ♣ line".encode("utf-8")


def test_lines_are_the_same_whatever_the_blocks_are():
    whole = list(Lines(DATA))
    assert whole[0] == '[Players "José Begoña"]\r' and whole[-1] == "last ♣ line"
    assert [type(t) is Undecodable for t in whole] == [False] * 5 + [True, False]
    for size in (1, 2, 3, 5, 7, 64):
        blocks = [DATA[i:i + size] for i in range(0, len(DATA), size)]
        assert list(Lines(blocks)) == whole, size
    utf16 = DATA[3:].decode("utf-8", "replace").encode("utf-16")
    for size in (1, 3, 64):
        got = list(Lines([utf16[i:i + size] for i in range(0, len(utf16), size)]))
        assert got == whole and type(got[5]) is Undecodable


def test_a_file_is_judged_as_it_is_read():
    data = CLUB.read_bytes()
    size = 1024
    read = []

    def blocks():
        for i in range(0, len(data), size):
            read.append(i)
            yield data[i:i + size]

    first = next(judge_stream(blocks(), chunk=1))
    assert first.record.line == 6
    assert len(read) * size < 44 * 80 + 2 * size  # hand 1 ends at line 41: not the whole file
    assert len(read) < len(data) // size


def test_the_n8_document_is_written_hand_by_hand():
    pulled = []

    def hands():
        for hand in judge_stream(CLUB.read_bytes()):
            pulled.append(hand)
            yield hand

    chunks = n8_chunks([FileReport(str(CLUB), hands())], json.dumps)
    assert next(chunks) == '{"files": ['
    assert next(chunks) == '{"path": ' + json.dumps(str(CLUB)) + ', "hands": ['
    next(chunks)
    assert len(pulled) == 1  # one hand judged, one written


def test_one_builder_for_the_command_and_the_library():
    command = json.loads(cli("check", "--json", CLUB).stdout)["files"][0]
    assert judge_bytes(CLUB.read_bytes(), str(CLUB)).as_json() == command
    empty = judge_bytes(b"# nothing\n", "empty.dsm").as_json()
    assert empty == {"path": "empty.dsm", "hands": [],
                     "error": "the file holds no hand (no tag or event lines)"}
