"""`import` throughput, whole process, in events per second, into SQLite and PostgreSQL (issue 9).

    python bench/bench_import.py [--hands 2000] [--repeat 5] [--pg URL]

One simulated session of `--hands` hands at one table of three. Each run imports it as a
new process (`desmoche-ref import FILE --db BOOK`) into an empty book whose schema was made
beforehand (a fresh SQLite file; with `--pg` or DESMOCHE_TEST_PG, a fresh PostgreSQL
database), and `check --json FILE` runs in the same loop as the yardstick. Prints wall
and CPU seconds (user + system, the child's own accounting) and events/s, medians of
`--repeat` rounds, and each import's speed as a fraction of check's: the median over the
rounds of the ratio within a round (the import and the check it is compared with run one
after the other, so a busy machine slows both). Targets (issue 9): >= 50,000 events/s into
SQLite, >= 20,000 into PostgreSQL; >= 0.6x check's speed (issue 32; issue 9 asked 0.5x).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit as common  # noqa: E402

ROOT = common.ROOT


def session_file(hands: int, seed: int = 1) -> Path:
    """One simulated session of `hands` hands at one table of three, cached (the league
    benchmarks share it: bench_standings.py, kill_import.py)."""
    path = common.cache_dir() / f"league-session-{hands}-{seed}.dsm"
    if not path.exists():
        from desmoche_ref.simulate import simulate_session

        print(f"  simulating {hands} hands ...", file=sys.stderr, flush=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(simulate_session(hands, players=3, seed=seed), encoding="utf-8")
        os.replace(tmp, path)
    return path


def timed(argv) -> tuple:
    """(wall seconds, CPU seconds) of one process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    run = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode:
        sys.exit(f"{' '.join(argv)} failed: {run.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def empty_book(kind: str, folder: Path, server: str | None):
    from desmoche_ref.store.db import open_book

    if kind == "sqlite":
        path = folder / f"book-{time.monotonic_ns()}.db"
        url, drop = "sqlite:///" + str(path), lambda: [Path(str(path) + s).unlink(missing_ok=True)
                                                      for s in ("", "-wal", "-shm")]
    else:
        sys.path.insert(0, str(ROOT / "tests"))
        from conftest import _fresh_pg_database

        url, drop = _fresh_pg_database(server)
    open_book(url).engine.dispose()
    return url, drop


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pg", default=os.environ.get("DESMOCHE_TEST_PG"), help="a PostgreSQL server URL")
    args = ap.parse_args()
    path = session_file(args.hands)
    events = common.count_events(path.read_bytes())
    print(f"{args.hands} simulated hands, {events} events; whole process, median of {args.repeat}")
    print(f"{'':28} {'wall s':>7} {'cpu s':>7} {'events/s wall':>14} {'events/s cpu':>13} {'x check':>8}")
    kinds = ["sqlite"] + (["postgresql"] if args.pg else [])
    results = {k: [] for k in kinds + ["check"]}
    with tempfile.TemporaryDirectory(prefix="desmoche-import-") as tmp:
        for _ in range(args.repeat):
            for kind in kinds:
                url, drop = empty_book(kind, Path(tmp), args.pg)
                try:
                    results[kind].append(timed([sys.executable, "-m", "desmoche_ref", "import",
                                                "--db", url, str(path)]))
                finally:
                    drop()
            results["check"].append(timed([sys.executable, "-m", "desmoche_ref", "check", "--json",
                                           str(path)]))
    labels = {"sqlite": "import into SQLite", "postgresql": "import into PostgreSQL",
              "check": "check --json (yardstick)"}
    checks = [w for w, _ in results["check"]]
    for kind, runs in results.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        # speed against check's in the same round: check's wall time over the import's
        ratio = statistics.median(c / w for (w, _), c in zip(runs, checks))
        print(f"{labels[kind]:28} {wall:>7.2f} {cpu:>7.2f} {events / wall:>14,.0f} {events / cpu:>13,.0f}"
              f" {ratio:>7.2f}x")
    if not args.pg:
        print("(PostgreSQL: no server given; --pg URL or DESMOCHE_TEST_PG)")
    print("targets: >= 50,000 events/s into SQLite, >= 20,000 into PostgreSQL (wall); >= 0.6x check (issue 32)")


if __name__ == "__main__":
    main()
