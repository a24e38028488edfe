"""`verify` throughput, in hands per second, on SQLite and PostgreSQL.

    python bench/bench_verify.py [--hands 2000] [--repeat 5] [--calls 200] [--pg URL]

Two figures per engine:
- whole process: `desmoche-ref verify --db BOOK` on a book of `--hands` imported simulated
  hands at one table of three (bench_import.py's session), median of `--repeat` runs;
- in-process, per call: `verify_book` on a small book as the laws test builds one
  (tests/test_scorebook_laws.py calls it after every step): a season of 4 hands imported,
  and a table of one hand recorded live, then closed. Median of `--calls` calls, each in
  its own read session as the test opens one.
The books are built once per run (SQLite in a temporary folder; with `--pg` or
DESMOCHE_TEST_PG, fresh PostgreSQL databases, dropped after).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit as common  # noqa: E402,F401  (puts the checkout on sys.path)
from bench_import import empty_book, session_file, timed  # noqa: E402

PLAYERS = ["Ana", "Beto", "Carla"]


def big_book(kind: str, folder: Path, server, path: Path):
    """(URL, drop): a book holding the session at `path`, imported as a new process."""
    url, drop = empty_book(kind, folder, server)
    run = subprocess.run([sys.executable, "-m", "desmoche_ref", "import", "--db", url, str(path)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode:
        drop()
        sys.exit(f"import failed: {run.stderr}")
    return url, drop


def small_book(kind: str, folder: Path, server):
    """(URL, drop): the laws test's kind of book: 4 imported hands, a live hand at a closed table."""
    from desmoche_ref.notation.parser import split_comment
    from desmoche_ref.sim.night import simulate_session
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.write.importer import import_records
    from desmoche_ref.store.write.tablebook import TableBook, create_table

    url, drop = empty_book(kind, folder, server)
    book = open_book(url)
    done = import_records(book, simulate_session(4, 3, seed=7, vary=False).encode(), "season.dsm", "imported")
    assert done.stored == 4 and not done.rejected
    create_table(book, "live", PLAYERS, 1000)
    table = TableBook(book, "live")
    text = simulate_session(1, 3, seed=0, vary=False)
    table.new_hand("Ana", [])
    for line in (split_comment(line)[0].strip() for line in text.splitlines()):
        if line and not line.startswith("["):
            table.record(line)
    table.close()
    book.engine.dispose()
    return url, drop


def per_call(url: str, calls: int) -> tuple:
    """(median wall seconds, median CPU seconds of this process, hands) of one verify_book
    call on the book at `url`, in its own read session."""
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.trust.verify import verify_book

    book = open_book(url, readonly=True)
    walls, cpus = [], []
    try:
        for _ in range(calls + 5):
            t, c = time.perf_counter(), time.process_time()
            with book.read() as s:
                problems, counts, _head = verify_book(s)
            walls.append(time.perf_counter() - t)
            cpus.append(time.process_time() - c)
            assert problems == [], problems
    finally:
        book.engine.dispose()
    # the first calls warm the caches (SQLAlchemy's compiled statements)
    return statistics.median(walls[5:]), statistics.median(cpus[5:]), counts["hands"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--pg", default=os.environ.get("DESMOCHE_TEST_PG"), help="a PostgreSQL server URL")
    args = ap.parse_args()
    path = session_file(args.hands)
    kinds = ["sqlite"] + (["postgresql"] if args.pg else [])
    print(f"{'':38} {'wall':>9} {'cpu':>9} {'hands/s wall':>13} {'hands/s cpu':>12}")
    with tempfile.TemporaryDirectory(prefix="desmoche-verify-") as tmp:
        for kind in kinds:
            url, drop = big_book(kind, Path(tmp), args.pg, path)
            try:
                runs = [timed([sys.executable, "-m", "desmoche_ref", "verify", "--db", url])
                        for _ in range(args.repeat)]
            finally:
                drop()
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            print(f"{f'verify, {args.hands} hands, {kind}':38} {wall:>8.2f}s {cpu:>8.2f}s "
                  f"{args.hands / wall:>13,.0f} {args.hands / cpu:>12,.0f}  (median of {args.repeat} processes)")
            url, drop = small_book(kind, Path(tmp), args.pg)
            try:
                wall, cpu, hands = per_call(url, args.calls)
            finally:
                drop()
            print(f"{f'verify_book, {hands}-hand book, {kind}':38} {wall * 1000:>7.2f}ms {cpu * 1000:>7.2f}ms "
                  f"{hands / wall:>13,.0f} {hands / cpu:>12,.0f}  (median of {args.calls} calls)")
    print("cpu: the process's own (user + system); the PostgreSQL server's is not in it")
    if not args.pg:
        print("(PostgreSQL: no server given; --pg URL or DESMOCHE_TEST_PG)")


if __name__ == "__main__":
    main()
