"""`standings --json` over a big book, whole process, and how it grows (issue 9).

    python bench/bench_standings.py [--hands 100000] [--round 10000] [--repeat 3] [--dir DIR]

Builds SQLite books of 10%, 30% and 100% of `--hands` imported hands once, and keeps them
outside the repository (DIR, default the benchmark cache folder): a simulated session of
`--round` hands is imported again and again as rounds of a league, each round at a table
of its own and tagged [Round "k"] so that its hands are new to the book (a hand is known
by its content). Then times `desmoche-ref standings --json --db BOOK` as a new process at
each size and prints the figures. Target (issue 9): <= 1 s at 100,000 hands.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit as common  # noqa: E402
from bench_import import session_file  # noqa: E402

ROOT = common.ROOT


def env():
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def build(folder: Path, total: int, per_round: int) -> list:
    """[(hands, book path)] at 10%, 30% and 100% of `total`, built once and kept."""
    sizes = sorted({max(per_round, total // 10 // per_round * per_round),
                    max(per_round, total * 3 // 10 // per_round * per_round), total})
    books = [(n, folder / f"book-{n}.db") for n in sizes]
    if all(p.exists() for _, p in books):
        for _, book in books:  # a book kept from an older program: brought to this one's schema
            subprocess.run([sys.executable, "-m", "desmoche_ref", "db", "upgrade", "--db", str(book)],
                           env=env(), capture_output=True, check=True)
        return books
    folder.mkdir(parents=True, exist_ok=True)
    work = folder / "building.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(work) + suffix).unlink(missing_ok=True)
    text = session_file(per_round, seed=9).read_text(encoding="utf-8")
    done = 0
    for k in range(1, total // per_round + 1):
        path = folder / f"round-{k}.dsm"
        path.write_text(text.replace("[Players ", f'[Round "{k}"]\n[Players '), encoding="utf-8")
        t = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "desmoche_ref", "import", "--db", str(work),
                              "--table", f"round-{k}", str(path)], env=env(),
                             capture_output=True, text=True)
        path.unlink()
        if run.returncode not in (0, 1):
            sys.exit(f"import failed: {run.stdout}{run.stderr}")
        done += per_round
        print(f"  round {k}: {done} hands in the book ({time.perf_counter() - t:.1f} s)",
              file=sys.stderr, flush=True)
        for n, book in books:
            if n == done:
                subprocess.run([sys.executable, "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]);"
                                "c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()", str(work)])
                shutil.copyfile(work, book)
    work.unlink()
    return books


def time_standings(book: Path, repeat: int) -> tuple:
    """(best wall seconds, best CPU seconds) of `standings --json` as a new process."""
    import resource

    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "desmoche_ref", "standings", "--json",
                              "--db", str(book)], env=env(), capture_output=True, text=True)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if run.returncode:
            sys.exit(run.stderr)
    return min(walls), min(cpus)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--round", type=int, default=10_000, help="hands per imported round")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", type=Path, default=None, help="where the books are kept")
    args = ap.parse_args()
    folder = args.dir or common.cache_dir() / "league-books"
    books = build(folder, args.hands, args.round)
    print(f"standings --json, whole process, best of {args.repeat} (SQLite, {folder})")
    print(f"{'hands':>8} {'postings':>10} {'wall s':>7} {'cpu s':>7}")
    import sqlite3

    for n, book in books:
        postings = sqlite3.connect(book).execute("SELECT count(*) FROM posting").fetchone()[0]
        wall, cpu = time_standings(book, args.repeat)
        print(f"{n:>8} {postings:>10} {wall:>7.3f} {cpu:>7.3f}")
    print("target: <= 1 s at 100,000 hands")


if __name__ == "__main__":
    main()
