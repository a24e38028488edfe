"""Peak memory of the commands that read records, as the file grows and on hostile input
(issues 7 and 16).

    python bench/bench_memory.py [--hands 10000 25000 50000] [--seed 0]
    python bench/bench_memory.py --line-mb 10            # a record with one 10 MB line
    python bench/bench_memory.py --import-mb 50 [--pg URL]  # import of a 50 MB session
    python bench/bench_memory.py --hand-mb 100           # hands that never end (N1.5)
    python bench/bench_memory.py --tiny 20000 200000     # tiny hands at one table (issue 32)

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
- `--tiny N [N ...]`: `import` of N tiny hands at one table (each stops after the deal, so
  each carries the pots on) into SQLite. It grew past 288 MB at 200,000 (issue 32).
  Target: <= 150 MB, flat.
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
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(used.ru_utime + used.ru_stime, used.ru_maxrss)
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
    return peak_and_cpu(args)[0]


def peak_and_cpu(args: list) -> tuple:
    """(peak MB, CPU seconds) of the command `args` run in a fresh child."""
    out = subprocess.run([sys.executable, "-c", _WRAPPER] + [str(a) for a in args], capture_output=True,
                         text=True, check=True).stdout
    cpu, peak = out.split()[-2:]
    return int(peak) / 1024, float(cpu)  # ru_maxrss is in KiB on Linux


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


TINY_PLAYERS = ("Ana", "Beto", "Carla")


def tiny_session(hands: int, folder: Path) -> Path:
    """`hands` hands at one table that stop after the deal: each incomplete, so each carries the
    table's pots on and the table's state reaches back to its first hand; each its own content
    (its Event tag)."""
    path = folder / f"tiny-{hands}.dsm"
    with open(path, "w", encoding="utf-8") as f:
        for k in range(hands):
            dealer = TINY_PLAYERS[k % 3]
            at = TINY_PLAYERS.index(dealer)
            order = TINY_PLAYERS[at + 1:] + TINY_PLAYERS[:at + 1]
            deal = "".join(f"deal {p} ?x{10 if p == dealer else 9}\n" for p in order)
            f.write(f'[Event "hand {k + 1}"]\n[Players "Ana Beto Carla"]\n[Dealer "{dealer}"]\n[Bet "10"]\n\n'
                    f"{deal}\n")
    return path


def tiny_imports(counts, folder: Path) -> None:
    """`import` of tiny hands at one table into a new SQLite book, as the file grows (issue 32:
    the table's state was read back over every hand once a batch; target <= 150 MB, flat)."""
    print("# import of tiny hands at one table into SQLite: peak resident memory, CPU seconds")
    for hands in counts:
        path = tiny_session(hands, folder)
        book = folder / f"tiny-{hands}.db"
        got, cpu = peak_and_cpu(desmoche() + ["import", path, "--table", "tiny", "--db", book])
        print(f"  {hands:>9,} hands: peak {got:6.1f} MB, {cpu:6.1f} s CPU (target <= {IMPORT_TARGET_MB} MB: "
              f"{verdict(got, IMPORT_TARGET_MB)})")
        path.unlink()
        for suffix in ("", "-wal", "-shm"):
            Path(str(book) + suffix).unlink(missing_ok=True)


# ------------------------------------------------------------------ the book's commands (issue 27)
BOOK_TARGET_MB = 150     # every command that reads the book, at 100,000 hands, on either engine
PER_ROUND = 5_000        # hands a round: one simulated session imported again as a round of a league
BOOK_COMMANDS = {        # name: the arguments after `desmoche-ref` (the book's --db added)
    "ledger": ["ledger"],
    "ledger --json": ["ledger", "--json"],
    "ledger --csv": ["ledger", "--csv"],
    "export -o F": ["export", "-o", "{out}", "--force"],
    "verify": ["verify"],
    "standings": ["standings"],
    "standings --json": ["standings", "--json"],
    "settle-up": ["settle-up"],
    "hand log": ["hand", "log", "--table", "round-1"],
}


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(common.ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _pg_admin(server: str):
    sys.path.insert(0, str(common.ROOT / "tests"))
    from conftest import _pg_conninfo
    import psycopg

    return psycopg.connect(**_pg_conninfo(server))


def _pg_url(server: str, name: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(server).set(database=name).render_as_string(hide_password=False)


def _pg_exists(server: str, name: str) -> bool:
    with _pg_admin(server) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is not None


def season_books(sizes, seed: int, server: str | None = None) -> list:
    """[(hands, --db of a book of that many imported hands)], built once and kept (SQLite in
    the cache folder; PostgreSQL as databases `desmoche_memory_N` on `server`): a simulated
    session of PER_ROUND hands, dated 50 hands a night, imported again and again as rounds of a
    league, each at a table of its own (`round-K`) and tagged [Round "K"] so that its hands
    are new to the book (a hand is known by its content); the book copied at each size."""
    from bench_import import session_file as league_session

    digest = common._simulator_digest()
    folder = common.cache_dir() / "memory-books"
    if server:
        names = {n: f"desmoche_memory_{n}_{seed}_{digest}" for n in sizes}
        books = [(n, _pg_url(server, names[n])) for n in sorted(sizes)]
        if all(_pg_exists(server, names[n]) for n in sizes):
            return books
        work = f"desmoche_memory_building_{os.getpid()}"
        with _pg_admin(server) as conn:
            conn.execute(f'CREATE DATABASE "{work}"')
        work_db = _pg_url(server, work)
    else:
        books = [(n, str(folder / f"book-{n}-{seed}-{digest}.db")) for n in sorted(sizes)]
        if all(Path(b).exists() for _, b in books):
            return books
        folder.mkdir(parents=True, exist_ok=True)
        work_db = str(folder / f"building-{os.getpid()}.db")
    base = league_session(PER_ROUND, seed=seed).read_text(encoding="utf-8")
    done, k = 0, 0
    from datetime import date, timedelta

    while done < max(sizes):
        k += 1
        first = date(2020, 1, 3) + timedelta(weeks=(k - 1) * PER_ROUND // 50)
        text = common.dated(base, 50, first.isoformat()).replace("[Players ", f'[Round "{k}"]\n[Players ')
        path = folder / f"round-{os.getpid()}.dsm"
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        run = subprocess.run(desmoche() + ["import", "--db", work_db, "--table", f"round-{k}", str(path)],
                             env=_env(), capture_output=True, text=True)
        path.unlink()
        if run.returncode not in (0, 1):
            sys.exit(f"import failed: {run.stdout}{run.stderr}")
        done += PER_ROUND
        print(f"  round {k}: {done:,} hands in the book", file=sys.stderr, flush=True)
        for n, book in books:
            if n == done:
                if server:
                    with _pg_admin(server) as conn:
                        conn.execute(f'DROP DATABASE IF EXISTS "{names[n]}"')
                        conn.execute(f'CREATE DATABASE "{names[n]}" TEMPLATE "{work}"')
                else:
                    import sqlite3

                    c = sqlite3.connect(work_db)
                    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                    c.close()
                    import shutil

                    shutil.copyfile(work_db, book)
    if server:
        with _pg_admin(server) as conn:
            conn.execute(f'DROP DATABASE "{work}" WITH (FORCE)')
    else:
        for suffix in ("", "-wal", "-shm"):
            Path(work_db + suffix).unlink(missing_ok=True)
    return books


def book_series(sizes, seed: int, server: str | None, commands, folder: Path, sqlite: bool = True) -> None:
    engines = ([("SQLite", None)] if sqlite else []) + ([("PostgreSQL", server)] if server else [])
    print(f"# python {sys.version.split()[0]}; peak resident memory (MB) of the commands that read the book, "
          f"whole process, output thrown away (export: to a file); in brackets its CPU seconds")
    for label, srv in engines:
        books = season_books(sizes, seed, srv)
        print(f"{label}: " + "".join(f"{n:>18,}" for n, _ in books) + "  hands", flush=True)
        worst = {}
        for name in commands:
            figures = []
            for n, db in books:
                args = [a.format(out=folder / "export.dsm") for a in BOOK_COMMANDS[name]]
                mb, cpu = peak_and_cpu(desmoche() + args + ["--db", db])
                figures.append(f"{mb:8.1f} ({cpu:6.1f}s)")
                worst[name] = (n, mb)
            print(f"  {name:<18}" + "".join(f"{f:>18}" for f in figures), flush=True)
        big = max(n for n, _ in books)
        missed = [name for name, (n, mb) in worst.items() if mb > BOOK_TARGET_MB]
        print(f"  target <= {BOOK_TARGET_MB} MB at {big:,} hands: "
              + ("met by every command" if not missed else "MISSED by " + ", ".join(missed)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, nargs="+", default=[10_000, 25_000, 50_000])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--line-mb", type=int, help="check, fmt and import of a record with a line of this many MB")
    ap.add_argument("--import-mb", type=int, help="import of a simulated session of about this many MB")
    ap.add_argument("--hand-mb", type=int, help="check, fmt, import, verify of records whose hand never ends")
    ap.add_argument("--tiny", type=int, nargs="+", metavar="HANDS",
                    help="import of this many tiny hands at one table (e.g. 20000 200000)")
    ap.add_argument("--book", type=int, nargs="*", metavar="HANDS",
                    help="the commands that read the book (ledger, export, verify, standings, settle-up, "
                         "hand log) on books of these many hands (default 5000 20000 100000)")
    ap.add_argument("--commands", nargs="+", choices=sorted(BOOK_COMMANDS), default=list(BOOK_COMMANDS))
    ap.add_argument("--sqlite-only", action="store_true", help="--book on SQLite alone")
    ap.add_argument("--pg-only", action="store_true", help="--book on PostgreSQL alone")
    ap.add_argument("--pg", default=os.environ.get("DESMOCHE_TEST_PG"), help="a PostgreSQL server URL")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="desmoche-memory-") as tmp:
        if args.line_mb:
            long_line(args.line_mb, Path(tmp))
        if args.import_mb:
            big_import(args.import_mb, args.seed, args.pg, Path(tmp))
        if args.hand_mb:
            endless_hands(args.hand_mb, Path(tmp))
        if args.tiny:
            tiny_imports(args.tiny, Path(tmp))
        if args.book is not None:
            book_series(args.book or [5_000, 20_000, 100_000], args.seed, None if args.sqlite_only else args.pg,
                        args.commands, Path(tmp), sqlite=not args.pg_only)
    if not (args.line_mb or args.import_mb or args.hand_mb or args.tiny or args.book is not None):
        check_series(args.hands, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
