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


# ------------------------------------------------------------------ the book's commands (issue 27)
import io  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

import pytest  # noqa: E402

from conftest import Live  # noqa: E402
from test_book_audit import scalar, sql, tampering_night  # noqa: E402

BATCH_ENV = "DESMOCHE_BATCH"


def streaming_night(url):
    """tampering_night's book (live hands at two tables, one open, an import of the league's
    tables) and 14 simulated hands at `sim`: tables of more hands than a batch of 3 holds."""
    tampering_night(url)
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "sim.dsm"
        live = Live(url)
        live("simulate", "--hands", "14", "--seed", "5", "-o", path)
        live("import", "--table", "sim", path)


@pytest.fixture
def many(built_book):
    return Live(built_book("streaming", streaming_night))


STREAMED = [("ledger",), ("ledger", "--json"), ("ledger", "--csv"), ("ledger", "--player", "Ana"),
            ("ledger", "--table", "sim", "--json"), ("ledger", "--table", "north", "--hand", "2", "--csv"),
            ("export",), ("export", "--table", "sim"), ("verify", "--json"), ("standings",),
            ("settle-up", "--json"), ("hand", "log", "--table", "club", "--all")]


def test_a_book_read_three_rows_at_a_time_is_written_as_read_whole(many, monkeypatch, tmp_path):
    """Every command that reads the whole book gives the same bytes whether it reads it 3 rows
    (hands, postings, journal rows) at a time or all at once; `export -o` writes the same file."""
    outputs = {}
    for size in ("100000", "3"):
        monkeypatch.setenv(BATCH_ENV, size)
        outputs[size] = [many(*args).stdout for args in STREAMED]
        many("export", "-o", tmp_path / f"{size}.dsm")
    for args, whole, three in zip(STREAMED, outputs["100000"], outputs["3"]):
        assert three == whole, args
    ledger = json.loads(outputs["3"][1])["postings"]
    assert len(ledger) > 100 and len({(p["table"], p["hand"]) for p in ledger}) == 20
    assert json.loads(outputs["3"][STREAMED.index(("verify", "--json"))])["problems"] == []
    assert (tmp_path / "3.dsm").read_bytes() == (tmp_path / "100000.dsm").read_bytes() \
        == outputs["3"][6].encode("utf-8")


def test_a_tampered_book_read_a_row_at_a_time_says_what_it_says_at_once(many, monkeypatch):
    """verify keeps a small journal whole and reads a big one a batch of hands at a time (with
    one row a batch this book's journal is big): second journal rows (the unique index dropped),
    a deleted move and posting, an edited journal row are found the same either way."""
    url = many.url
    assert scalar(url, "SELECT count(*) FROM journal") > 4 * 1 * 10  # pinned.Journal.KEEP batches of 1 x 10
    sql(url, "DROP INDEX uq_journal_event", "DROP INDEX uq_journal_posting",
        "INSERT INTO journal (kind, subject, text, hash, writer) SELECT kind, subject, text, hash, writer "
        "FROM journal WHERE kind IN ('event', 'posting') AND id IN (SELECT min(id) FROM journal GROUP BY kind)",
        "DELETE FROM event WHERE id = (SELECT max(e.id) FROM event e JOIN hand h ON h.id = e.hand_id "
        "JOIN card_table t ON t.id = h.table_id WHERE t.name = 'club')",
        "DELETE FROM posting WHERE id = (SELECT min(p.id) FROM posting p JOIN card_table t ON t.id = p.table_id "
        "WHERE t.name = 'friday')",
        "UPDATE journal SET text = replace(text, '1000', '100') WHERE kind = 'table'")
    found = {}
    for size in ("100000", "1"):
        monkeypatch.setenv(BATCH_ENV, size)
        found[size] = many("verify", status=1).stdout
    assert found["1"] == found["100000"]
    for words in ("journals this move a second time", "journals posting", "table club hand 1 move 3: the journal "
                  "holds this move but the book does not", "does not match its hash", "the journal holds posting"):
        assert words in found["1"], words


def test_the_ledgers_table_written_a_row_at_a_time_is_tabulates(many, monkeypatch):
    """The text ledger is written a row at a time at the whole table's widths: the table
    tabulate lays out of every row at once (cli/league.table_text), in English and in Spanish,
    and of no row."""
    import click

    from desmoche_ref.cli import league

    runs = [("ledger",), ("--lang", "es", "ledger"), ("ledger", "--table", "sim", "--hand", "3"),
            ("ledger", "--player", "Ana", "--table", "south")]
    streamed = [many(*args).stdout for args in runs]
    monkeypatch.setattr(league, "_streamed_table", lambda rows, headers, right: click.echo(
        league.table_text(list(rows), headers, right=right)))
    assert streamed == [many(*args).stdout for args in runs]
    assert len(streamed[0].splitlines()) > 250 and streamed[0] != streamed[1]
    assert len(streamed[3].splitlines()) == 2  # the headers alone


def test_each_batch_is_one_query_of_at_most_a_batch(many, monkeypatch):
    """The ledger and the export read the book BATCH rows a query, from one snapshot."""
    from sqlalchemy import event

    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.read.scorebook import Scorebook

    book = open_book(many.url, readonly=True)
    statements = []
    event.listen(book.engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: statements.append(statement))
    try:
        monkeypatch.setenv(BATCH_ENV, "3")
        with Scorebook(book).ledger(table="sim") as postings:
            entries = list(postings)
        pages = [s for s in statements if "FROM posting" in s and "LIMIT" in s]
        assert len(pages) == len(entries) // 30 + 1  # 3 hands' worth of postings (POSTINGS_A_HAND 10) a query
        statements.clear()
        with Scorebook(book).export("sim") as hands:
            numbers = [number for _table, number, _text in hands]
        assert numbers == list(range(1, 15))
        assert len([s for s in statements if "FROM hand" in s and "LIMIT" in s]) == 5  # 3, 3, 3, 3, 2 hands
    finally:
        book.engine.dispose()


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("items", [[], [{"a": 1}], [{"a": [1, {"b": "ñ"}]}, {"c": None}]])
def test_json_written_an_item_at_a_time_is_one_document(items, monkeypatch):
    """`--json` streamed is json.dumps's document, on a terminal (indented) and not."""
    from desmoche_ref.cli.league import _json_list

    for out, indent in ((io.StringIO(), None), (_Terminal(), 1)):
        monkeypatch.setattr(sys, "stdout", out)
        _json_list("postings", iter(items))
        assert out.getvalue() == json.dumps({"postings": items}, ensure_ascii=False, indent=indent) + "\n"
