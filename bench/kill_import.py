"""`kill -9` an import at random moments; each kill is followed by a rerun (issue 9).

    python bench/kill_import.py [--hands 2000] [--kills 20] [--seed 1] [--db URL]

Imports one simulated session of `--hands` hands into a clean book, then into fresh books
again and again, killing the process (SIGKILL) at a random moment of each run and
rerunning it, until `--kills` kills have landed mid-import; a rerun that is not killed
finishes the book (and the next kill goes to a fresh one). After every kill the book must
hold only whole hands, each identical to the clean book's hand of the same table and
number (its row, every event with its hash, every posting), and the audit must pass;
every finished book must be identical to the clean one. Prints what it saw; exit 1 if any
check failed. `--db` names a PostgreSQL server to use instead of SQLite files (a fresh
database is created on it for each book).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit as common  # noqa: E402
from bench_import import session_file  # noqa: E402

ROOT = common.ROOT


def importer(url: str, path: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-m", "desmoche_ref", "import", "--db", url, str(path)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def fingerprint(url: str) -> dict:
    """(table, number) -> everything stored of that hand but ids and times."""
    from sqlalchemy import select

    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.schema.models import BookTable, Event, Hand, Posting

    book = open_book(url)
    out = {}
    with book.read() as s:
        names = dict(s.execute(select(BookTable.id, BookTable.name)).all())
        hands = {}
        for h in s.execute(select(Hand)).scalars():
            hands[h.id] = (names[h.table_id], h.number)
            out[hands[h.id]] = [(h.players, h.dealer, h.rules, h.options, h.bet, h.carry_in, h.sides,
                                 h.side_carry, h.extra_tags, h.content_hash, h.status, h.outcome,
                                 h.winners, h.fouls, h.carry_out, h.side_carry_out), [], []]
        for e in s.execute(select(Event).order_by(Event.hand_id, Event.seq)).scalars():
            out[hands[e.hand_id]][1].append((e.seq, e.line, e.comment, e.hash))
        for p in s.execute(select(Posting).order_by(Posting.id)).scalars():
            out[hands[p.hand_id]][2].append((p.account, p.kind, p.detail, p.counterparty, p.amount))
    problems = []
    from desmoche_ref.store.read.league import audit

    with book.read() as s:
        problems = audit(s)
    book.engine.dispose()
    return out, problems


def fresh_book(server: str | None, folder: Path, name: str):
    """(URL of an empty book with its schema, a function that removes it)."""
    from desmoche_ref.store.db import open_book

    if server:
        sys.path.insert(0, str(ROOT / "tests"))
        from conftest import _fresh_pg_database

        url, drop = _fresh_pg_database(server)
    else:
        url, drop = "sqlite:///" + str(folder / f"{name}.db"), lambda: None
    open_book(url).engine.dispose()  # the schema, so that timings are the import's own
    return url, drop


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default=None, help="a PostgreSQL server URL (default: SQLite files)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    path = session_file(args.hands)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="desmoche-kill-") as tmp:
        clean_url, drop_clean = fresh_book(args.db, Path(tmp), "clean")
        try:
            t = time.perf_counter()
            run = importer(clean_url, path)
            _, err = run.communicate()
            clean_time = time.perf_counter() - t
            if run.returncode:
                sys.exit(f"the clean import failed (exit {run.returncode}): {err.decode()}")
            clean, problems = fingerprint(clean_url)
            print(f"clean import: {len(clean)} hands in {clean_time:.2f} s; audit: {problems or 'passes'}")
            landed = runs = cycles = 0
            while landed < args.kills:
                # a fresh book each cycle: kills land while hands are still to be stored,
                # and the reruns of the cycle finish the job
                cycles += 1
                killed_url, drop_killed = fresh_book(args.db, Path(tmp), f"killed-{cycles}")
                try:
                    while True:
                        runs += 1
                        proc = importer(killed_url, path)
                        time.sleep(rng.uniform(0.05, clean_time))
                        killed = proc.poll() is None
                        if killed:
                            proc.send_signal(signal.SIGKILL)
                            landed += 1
                        proc.wait()
                        state, problems = fingerprint(killed_url)
                        wrong = [key for key, value in state.items() if clean.get(key) != value]
                        done = not killed and state == clean
                        ok = not wrong and not problems and (killed or done)
                        failures += not ok
                        print(f"cycle {cycles} run {runs:>2}: {'killed  ' if killed else 'finished'}"
                              f" with {len(state):>4} hands stored; "
                              + (("the book is identical to the clean import" if done else
                                  "each whole and identical to the clean import's") + ", audit passes"
                                 if ok else f"DIFFERENT hands {wrong[:5]}, audit {problems[:3]}"), flush=True)
                        if landed >= args.kills:  # the last kill's rerun, not killed
                            final = importer(killed_url, path)
                            final.wait()
                            state, problems = fingerprint(killed_url)
                            same = state == clean and not problems
                            failures += not same
                            print(f"last rerun: {len(state)} hands; the book is "
                                  + ("identical to the clean import, and the audit passes" if same
                                     else "DIFFERENT"))
                            break
                        if not killed or not ok or state == clean:  # this book is done
                            break
                finally:
                    drop_killed()
        finally:
            drop_clean()
    print(f"{landed} kills landed in {runs} runs over {cycles} fresh books; {failures} failed checks")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
