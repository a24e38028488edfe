"""The league server: several recorders importing into one book at once (two real processes,
different tables, the same players) keep every hand and the standings exact."""

import subprocess
import sys

import pytest

from click.testing import CliRunner

from desmoche_ref.cli import main
from desmoche_ref.referee import COMPLETE, judge_text
from desmoche_ref.simulate import simulate_session
from desmoche_ref.store.db import open_book
from desmoche_ref.store.read.league import audit, standings

# Each process imports its file 15 hands per transaction, so their transactions interleave.
IMPORTER = """
import sys
from desmoche_ref.store.db import open_book
from desmoche_ref.store.write.importer import import_records
url, path = sys.argv[1], sys.argv[2]
result = import_records(open_book(url), open(path, "rb").read(), path, batch_size=15)
print(result.stored, len(result.rejected))
"""


@pytest.mark.slow
def test_two_recorders_import_different_tables_at_once(book_url, tmp_path):
    open_book(book_url).engine.dispose()  # the schema first, as `db upgrade` would
    files, expected = [], {}
    for seed, name in ((11, "table-a"), (12, "table-b")):
        text = simulate_session(120, players=3, seed=seed)
        path = tmp_path / f"{name}.dsm"
        path.write_text(text)
        files.append(path)
        for hand in judge_text(text).hands:
            assert hand.status == COMPLETE
            for player, cents in hand.settlement.net.items():
                expected[player] = expected.get(player, 0) + cents
    procs = [subprocess.Popen([sys.executable, "-c", IMPORTER, book_url, str(f)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for f in files]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in results]
    assert [out.split() for out, _ in results] == [["120", "0"], ["120", "0"]]
    book = open_book(book_url)
    with book.read() as s:
        table = standings(s)
        assert {r.player: r.net for r in table.players} == expected
        assert table.balance() == 0
        assert {r.player: r.hands for r in table.players} == {"Ana": 240, "Beto": 240, "Carla": 240}
        assert audit(s) == []
    book.engine.dispose()
    # both tables' hands are numbered 1..120 in their playing order
    out = CliRunner().invoke(main, ["export", "--db", book_url, "--table", "table-b", "--hand", "120"]).output
    assert judge_text(out).hands[0].as_json()["net"] == judge_text(files[1].read_text()).hands[-1].as_json()["net"]
