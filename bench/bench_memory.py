"""Peak memory of the commands that read records, as the file grows and on hostile input
(issues 7 and 16).

    python bench/bench_memory.py [--hands 10000 25000 50000] [--seed 0]
    python bench/bench_memory.py --line-mb 10            # a record with one 10 MB line
    python bench/bench_memory.py --import-mb 50 [--pg URL]  # import of a 50 MB session
    python bench/bench_memory.py --hand-mb 100           # hands that never end (N1.5)

Each figure is a command run in a fresh child, its output thrown away: that child's peak
resident memory as the kernel accounts it (getrusage RUSAGE_CHILDREN, read in a wrapper
process that runs only this one child; the importer's judging child is a child of it, and
the figure is the larger of the two).

- default: `check --json FILE` on sessions written by `desmoche-ref simulate --hands N`
  (cached in $TMPDIR/desmoche-bench/, keyed by size, seed and the simulator's source).
  Target: <= 100 MB at 50,000 hands, and flat as the file grows.
- `--line-mb N`: `check`, `fmt` and `import` of NOTATION's example behind an `[Event …]`
  tag of N MB on one line (N1.5: a line holds 4,096 characters and the reader never holds
  more of it). It was 1.7 GB for 10 MB. Target: check <= 60 MB, import <= 150 MB.
- `--hand-mb N`: `check`, `fmt`, `import` and `verify` (of the book that import wrote) of
  three records of N MB whose one hand never ends: repeated tags, draws after a valid header,
  comment lines (N1.5: a hand holds 64 tags and 1,000 events, and the reader no more of it).
  They were 2.3-4.0 GB at 100 MB. Target: <= 150 MB each.
- `--import-mb N`: `import` of a simulated session of about N MB (distinct hands: every one
  is stored) into SQLite, and PostgreSQL with `--pg URL` or DESMOCHE_TEST_PG. It was
  389-401 MB at 50 MB. Target: <= 150 MB whatever the size.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit as common

TARGET_MB = 100          # check --json at 50,000 hands
LINE_TARGETS = {"check": 60, "fmt": 100, "import": 150}
IMPORT_TARGET_MB = 150
BYTES_PER_HAND = 890     # a simulated hand of three players, about (for --import-mb)

# Run in its own process so that RUSAGE_CHILDREN holds that one child's peak alone.
_WRAPPER = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def desmoche() -> list:
    return [sys.executable, "-m", "desmoche_ref"]


def session_file(hands: int, seed: int) -> Path:
    path = common.cache_dir() / f"memory-{hands}-{seed}-{common._simulator_digest()}.dsm"
    if not path.exists():
        print(f"  simulating {hands:,} hands ...", file=sys.stderr, flush=True)
        tmp = path.with_suffix(".tmp")
        subprocess.run(desmoche() + ["simulate", "--hands", str(hands), "--seed", str(seed),
                                     "-o", str(tmp)], check=True)
        os.replace(tmp, path)
    return path


def peak_mb(args: list) -> float:
    out = subprocess.run([sys.executable, "-c", _WRAPPER] + [str(a) for a in args], capture_output=True,
                         text=True, check=True).stdout
    return int(out.split()[-1]) / 1024  # ru_maxrss is in KiB on Linux


def verdict(mb: float, target: float) -> str:
    return "met" if mb <= target else "MISSED"


def check_series(hands_list, seed) -> None:
    print(f"# python {sys.version.split()[0]}; peak resident memory of check --json FILE")
    figures = []
    for hands in hands_list:
        path = session_file(hands, seed)
        mb = peak_mb(desmoche() + ["check", "--json", path])
        figures.append((hands, mb))
        print(f"  {hands:>7,} hands ({path.stat().st_size / 1e6:5.1f} MB of record): "
              f"peak {mb:6.1f} MB")
    big, small = max(figures), min(figures)
    print(f"target <= {TARGET_MB} MB at {big[0]:,} hands: {verdict(big[1], TARGET_MB)}; growth from "
          f"{small[0]:,} to {big[0]:,} hands: {big[1] - small[1]:+.1f} MB")


def long_line(mb: int, folder: Path) -> None:
    example = (common.ROOT / "tests" / "conformance" / "friday.dsm").read_text()
    path = folder / "long-line.dsm"
    path.write_text('[Event "' + "x" * (mb * 1_000_000) + '"]\n' + example)
    print(f"# a record with one {mb} MB line (N1.5): peak resident memory")
    for command, extra in (("check", []), ("fmt", []), ("import", ["--db", folder / "line.db"])):
        got = peak_mb(desmoche() + [command, path, *extra])
        print(f"  {command:<7} peak {got:6.1f} MB (target <= {LINE_TARGETS[command]} MB: "
              f"{verdict(got, LINE_TARGETS[command])})")


def endless_hands(mb: int, folder: Path) -> None:
    example = (common.ROOT / "tests" / "conformance" / "friday.dsm").read_text()
    header, moves = example.split("\n\n", 1)
    repeated = {"tags": '[Note "' + "n" * 4000 + '"]\n', "draws": "draw Beto 2d\n",
                "comments": "#" + "c" * 4000 + "\n"}
    print(f"# a record of {mb} MB whose hand never ends (N1.5): peak resident memory")
    for shape, line in repeated.items():
        path = folder / f"endless-{shape}.dsm"
        with open(path, "w") as f:
            f.write(header + ("\n" if shape == "tags" else "\n\n"))
            f.write(line * (mb * 1_000_000 // len(line)))
            f.write("\n" + moves)
        book = folder / f"endless-{shape}.db"
        for command, extra in (("check", []), ("fmt", []), ("import", ["--db", book])):
            got = peak_mb(desmoche() + [command, path, *extra])
            print(f"  {shape:<8} {command:<7} peak {got:6.1f} MB (target <= 150 MB: {verdict(got, 150)})")
        got = peak_mb(desmoche() + ["verify", "--db", book])
        print(f"  {shape:<8} verify  peak {got:6.1f} MB (target <= 150 MB: {verdict(got, 150)})")
        path.unlink()


def big_import(mb: int, seed: int, server: str | None, folder: Path) -> None:
    hands = mb * 1_000_000 // BYTES_PER_HAND
    path = session_file(hands, seed)
    print(f"# import of {hands:,} simulated hands ({path.stat().st_size / 1e6:.1f} MB): peak resident memory")
    books = [("SQLite", "sqlite:///" + str(folder / "import.db"), None)]
    if server:
        sys.path.insert(0, str(common.ROOT / "tests"))
        from conftest import _fresh_pg_database

        url, drop = _fresh_pg_database(server)
        books.append(("PostgreSQL", url, drop))
    for label, url, drop in books:
        try:
            got = peak_mb(desmoche() + ["import", path, "--db", url])
        finally:
            if drop:
                drop()
        print(f"  into {label:<10} peak {got:6.1f} MB (target <= {IMPORT_TARGET_MB} MB: "
              f"{verdict(got, IMPORT_TARGET_MB)})")
    if not server:
        print("  (PostgreSQL: no server given; --pg URL or DESMOCHE_TEST_PG)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, nargs="+", default=[10_000, 25_000, 50_000])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--line-mb", type=int, help="check, fmt and import of a record with a line of this many MB")
    ap.add_argument("--import-mb", type=int, help="import of a simulated session of about this many MB")
    ap.add_argument("--hand-mb", type=int, help="check, fmt, import, verify of records whose hand never ends")
    ap.add_argument("--pg", default=os.environ.get("DESMOCHE_TEST_PG"), help="a PostgreSQL server URL")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="desmoche-memory-") as tmp:
        if args.line_mb:
            long_line(args.line_mb, Path(tmp))
        if args.import_mb:
            big_import(args.import_mb, args.seed, args.pg, Path(tmp))
        if args.hand_mb:
            endless_hands(args.hand_mb, Path(tmp))
    if not (args.line_mb or args.import_mb or args.hand_mb):
        check_series(args.hands, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
