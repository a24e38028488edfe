"""`report` of a simulated season, whole process (issues 18 and 27).

    python bench/bench_report.py [--hands 500 1000 2000] [--per-night 50] [--repeat 3]
    python bench/bench_report.py --season 20000 [--night 25]

For each size: a simulated session of that many hands at one table of three (the league
benchmarks' own, bench_import.session_file), dated `--per-night` hands a night, a night a
week (benchkit.dated), imported once into a SQLite book kept in the cache; then
`desmoche-ref report -o DIR` as a new process, best of `--repeat` (each into a new folder).
Prints wall and CPU seconds (the child's own accounting: user + system, both cores), the
pages and bytes written and the season page's size; the largest size once more with no
Date tags (the whole season one night: its page a hundred hands at a time). Targets (issue 18):
the 2,000-hand report in <= 10 s, its season page <= 300 KB.

`--season N` (issues 27, 35): a season of N hands, `--night` hands a night, imported once and
kept in the cache with the night after it (a record of `--night` hands more). Prints `report
-o DIR` from scratch (wall, CPU, the peak memory of the process and of its forked child, bytes
on disk, files, the largest season, player and night page), then the same folder brought up
to date after the next night is imported into a copy of the book (wall, peak, files written
and removed), then the same N hands with no Date tag (one night: its page in parts) from
scratch. Each wall time is also given against a yardstick run just before it on the same
machine: `check --json` of the same N hands (a shared machine's load moves both alike).
Targets: N = 20,000 in <= 60 s, <= 200 MB on disk, <= 2,000 files, peak <= 150 MB, the
season and each player page <= 300 KB; the update <= 5 s; the night with no Date <= 60 s and
<= 150 MB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit as common  # noqa: E402
from bench_import import session_file, timed  # noqa: E402

TARGET_SECONDS, TARGET_SEASON_KB = 10.0, 300
SEASON_SECONDS, SEASON_MB, SEASON_PEAK_MB, UPDATE_SECONDS = 60.0, 200, 150, 5.0
SEASON_FILES, PAGE_KB = 2000, 300


def imported(record: Path, book: Path, what: str):
    """`record` imported into the new SQLite book `book` (table club), whole or not at all."""
    tmp = book.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    print(f"  importing {what} ...", file=sys.stderr, flush=True)
    timed([sys.executable, "-m", "desmoche_ref", "import", str(record), "--table", "club", "--db", str(tmp)])
    os.replace(tmp, book)


def book_of(hands: int, per_night: int | None) -> Path:
    """A SQLite book of the dated (or undated) session, imported once and kept."""
    name = f"report-book-{hands}-{per_night or 'undated'}.db"
    book = common.cache_dir() / name
    if not book.exists():
        text = session_file(hands).read_text(encoding="utf-8")
        record = common.cache_dir() / name.replace(".db", ".dsm")
        record.write_text(common.dated(text, per_night) if per_night else text, encoding="utf-8")
        imported(record, book, f"{hands} hands")
    return book


def measure(hands: int, per_night: int | None, repeat: int, parent: Path) -> dict:
    book = book_of(hands, per_night)
    best = None
    for k in range(repeat):
        out = parent / f"site-{hands}-{k}"
        shutil.rmtree(out, ignore_errors=True)
        wall, cpu = timed([sys.executable, "-m", "desmoche_ref", "report", "-o", str(out), "--db", str(book)])
        if best is None or wall < best[0]:
            best = (wall, cpu, out)
    wall, cpu, out = best
    files = [p for p in out.rglob("*") if p.is_file()]
    sizes = {"season": (out / "index.html").stat().st_size,
             "night": max(p.stat().st_size for p in (out / "nights").iterdir()),
             "total": sum(p.stat().st_size for p in files)}
    nights = len({p.name.split(".")[0] for p in (out / "nights").iterdir() if not p.name.startswith("index")})
    for k in range(repeat):
        shutil.rmtree(parent / f"site-{hands}-{k}", ignore_errors=True)
    return {"hands": hands, "nights": nights, "wall": wall, "cpu": cpu, "pages": len(files), **sizes}


# ------------------------------------------------------------------ a season (issue 27)
def season_books(hands: int, night: int) -> tuple:
    """(the book of `hands` dated hands, `night` hands a night; the record of the next night),
    made once and kept in the cache."""
    name = f"report-season-{hands}-{night}"
    book, nxt = common.cache_dir() / f"{name}.db", common.cache_dir() / f"{name}-next.dsm"
    if not (book.exists() and nxt.exists()):
        dealt = common.split_hands(common.dated(session_file(hands + night).read_text(encoding="utf-8"), night))
        record = common.cache_dir() / f"{name}.dsm"
        record.write_text("\n".join(h.rstrip("\n") + "\n" for h in dealt[:hands]), encoding="utf-8")
        nxt.write_text("\n".join(h.rstrip("\n") + "\n" for h in dealt[hands:]), encoding="utf-8")
        imported(record, book, f"{hands} hands")
    return book, nxt


def peak_run(argv) -> dict:
    """Wall and CPU seconds and the peak resident memory (MB) of one process and of the
    largest of its children (the report forks one), through /usr/bin/time's own wait4."""
    env = dict(os.environ, PYTHONPATH=str(common.ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    probe = ("import os, resource, subprocess, sys, time\n"
             "t = time.perf_counter(); r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
             "w = time.perf_counter() - t; u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
             "print(r.returncode, w, u.ru_utime + u.ru_stime, u.ru_maxrss)\n")
    run = subprocess.run([sys.executable, "-c", probe, *argv], env=env, capture_output=True, text=True)
    code, wall, cpu, peak = run.stdout.split()
    if int(code):
        sys.exit(f"{' '.join(argv)} failed: {run.stderr}")
    return {"wall": float(wall), "cpu": float(cpu), "peak": int(peak) / 1024}


def snapshot(folder: Path) -> dict:
    """{relative path: (size, mtime_ns)} of every file under `folder`."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file()}


def pages_kb(folder: Path) -> dict:
    """The largest page of each kind, in KB: the season's, a player's, a night's."""
    def largest(paths):
        return max((p.stat().st_size for p in paths), default=0) / 1e3

    return {"season": largest(folder.glob("*.html")), "player": largest((folder / "players").glob("*.html")),
            "night": largest((folder / "nights").glob("*.html"))}


def yardstick(record: Path) -> float:
    """Wall seconds of `check --json` of `record` (the same hands), run now: the machine's pace."""
    return peak_run([sys.executable, "-m", "desmoche_ref", "check", "--json", str(record)])["wall"]


def undated(hands: int) -> tuple:
    """(the book of `hands` hands with no Date tag, one night; its record), made once and kept."""
    name = f"report-undated-{hands}"
    book, record = common.cache_dir() / f"{name}.db", common.cache_dir() / f"{name}.dsm"
    if not book.exists():
        record.write_text(session_file(hands).read_text(encoding="utf-8"), encoding="utf-8")
        imported(record, book, f"{hands} hands with no Date")
    return book, record


def from_scratch(what: str, book: Path, record: Path, out: Path) -> tuple:
    """`report -o out` of `book` into a new folder, after its yardstick (`check --json` of the
    hands' `record`), printed: (the run's figures, the folder's files, bytes on disk, largest pages)."""
    stick = yardstick(record)
    run = peak_run([sys.executable, "-m", "desmoche_ref", "report", "-o", str(out), "--db", str(book)])
    files = snapshot(out)
    disk = sum(size for size, _t in files.values())
    kb = pages_kb(out)
    print(f"{what}: wall {run['wall']:.1f} s ({run['wall'] / stick:.2f}x check --json of the same hands, "
          f"{stick:.1f} s), CPU {run['cpu']:.1f} s, peak {run['peak']:.0f} MB, {disk / 1e6:.1f} MB on disk "
          f"({sum(os.stat(out / p).st_blocks for p in files) * 512 / 1e6:.1f} MB in blocks), {len(files)} files; "
          f"largest pages: season {kb['season']:.0f} KB, player {kb['player']:.0f} KB, night {kb['night']:.0f} KB")
    return run, files, disk, kb


def season(hands: int, night: int) -> int:
    book, nxt = season_books(hands, night)
    record = common.cache_dir() / f"report-season-{hands}-{night}.dsm"
    parent = Path(tempfile.mkdtemp(prefix="season-", dir=common.cache_dir()))
    try:
        out = parent / "site"
        first, files, disk, kb = from_scratch(f"report of {hands} hands, {hands // night} nights", book, record, out)
        grown = parent / "book.db"
        shutil.copyfile(book, grown)
        timed([sys.executable, "-m", "desmoche_ref", "import", str(nxt), "--table", "club", "--db", str(grown)])
        again = peak_run([sys.executable, "-m", "desmoche_ref", "report", "-o", str(out), "--db", str(grown)])
        after = snapshot(out)
        changed = sorted(p for p in after if files.get(p) != after[p])
        removed = sorted(set(files) - set(after))
        print(f"after one more night ({night} hands): wall {again['wall']:.1f} s, CPU {again['cpu']:.1f} s, "
              f"peak {again['peak']:.0f} MB; {len(changed)} files written, {len(removed)} removed")
        print("  written: " + ", ".join(changed[:12]) + (" …" if len(changed) > 12 else ""))
        shutil.rmtree(out)
        whole, _files, _disk, one_kb = from_scratch(f"the same {hands} hands with no Date (one night)",
                                                    *undated(hands), out)
        met = (first["wall"] <= SEASON_SECONDS and disk <= SEASON_MB * 1e6 and len(files) <= SEASON_FILES
               and first["peak"] <= SEASON_PEAK_MB and again["wall"] <= UPDATE_SECONDS
               and max(kb["season"], kb["player"], one_kb["season"], one_kb["player"]) <= PAGE_KB
               and whole["wall"] <= SEASON_SECONDS and whole["peak"] <= SEASON_PEAK_MB)
        print(f"targets: <= {SEASON_SECONDS:.0f} s, <= {SEASON_MB} MB on disk, <= {SEASON_FILES} files, "
              f"peak <= {SEASON_PEAK_MB} MB, season and player pages <= {PAGE_KB} KB, "
              f"update <= {UPDATE_SECONDS:.0f} s, "
              f"one night <= {SEASON_SECONDS:.0f} s and <= {SEASON_PEAK_MB} MB: " + ("met" if met else "NOT met"))
        return 0 if met else 1
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[500, 1000, 2000])
    parser.add_argument("--per-night", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--season", type=int, metavar="N", help="a season of N hands and the night after it")
    parser.add_argument("--night", type=int, default=25, help="hands a night of --season (default 25)")
    args = parser.parse_args(argv)
    if args.season:
        return season(args.season, args.night)
    parent = Path(tempfile.mkdtemp(prefix="report-", dir=common.cache_dir()))
    rows = [measure(n, args.per_night, args.repeat, parent) for n in args.hands]
    rows.append(measure(max(args.hands), None, args.repeat, parent))
    shutil.rmtree(parent, ignore_errors=True)
    print(f"{'hands':>6} {'nights':>6} {'wall s':>7} {'cpu s':>6} {'ms/hand':>8} {'files':>6} {'MB':>6} "
          f"{'season KB':>9} {'night KB':>8}")
    for r in rows:
        print(f"{r['hands']:>6} {r['nights']:>6} {r['wall']:>7.2f} {r['cpu']:>6.2f} "
              f"{1000 * r['wall'] / r['hands']:>8.2f} {r['pages']:>6} {r['total'] / 1e6:>6.1f} "
              f"{r['season'] / 1e3:>9.1f} {r['night'] / 1e3:>8.1f}")
    top = [r for r in rows if r["hands"] == max(args.hands)]
    met = all(r["wall"] <= TARGET_SECONDS and r["season"] <= TARGET_SEASON_KB * 1000 for r in top)
    print(f"target: {max(args.hands)} hands in <= {TARGET_SECONDS:.0f} s, season page <= {TARGET_SEASON_KB} KB: "
          + ("met" if met else "NOT met"))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
