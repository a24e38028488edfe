"""How long a move takes in `desmoche-ref play` once it has started (issue 10).

A whole simulated night (fixed options, `--plain`) is turned into session input (a `new`
line with the hand's side games before each hand) and fed to the session's piped loop on a
fresh SQLite book, as `play < night.txt` runs it. Each event line is timed from the line
read to the move committed (reading, judging on the referee kept in memory, the write
transaction): the target is <= 10 ms at the 95th percentile. The same night is also piped
into a real `desmoche-ref play` process, for the whole-process figure.

    python bench/bench_play.py [--hands 20] [--seed 3] [--options "todo strict"] [--no-process]
                               [--also-normal]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # running from a checkout without an install
    sys.path.insert(0, str(ROOT))

TARGET_P95_MS = 10.0


def percentile(values, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def night(hands: int, seed: int, options: str):
    from desmoche_ref.play.script import night_script
    from desmoche_ref.simulate import simulate_session

    return night_script(simulate_session(hands, 3, seed, options, vary=False))


def new_book(path: str, setup, options: str, synchronous: str | None = None):
    from desmoche_ref.store.read import hands
    from desmoche_ref.store.db import open_book

    book = open_book(path)
    if synchronous:  # only for this measurement: the book's own setting is db.py's
        from sqlalchemy import event

        book.engine.dispose()
        event.listen(book.engine, "connect",
                     lambda dbapi, _: dbapi.execute(f"PRAGMA synchronous={synchronous}"))
    with book.write() as s:
        hands.create_table(s, "bench", list(setup.players), setup.bet, setup.rules, options)
    return book


def in_process(lines, setup, options: str, folder: str, synchronous=None):
    """(per-move wall ms, per-move CPU ms, per-`new` ms, ms to open the session)."""
    import io
    from contextlib import redirect_stdout

    from desmoche_ref.cli.play import REFUSED, handle, open_table

    book = new_book(os.path.join(folder, f"in-process-{synchronous}.db"), setup, options, synchronous)
    start = time.perf_counter()
    recorder = open_table(book, "bench")
    opened = (time.perf_counter() - start) * 1000
    moves, cpu, news = [], [], []
    with redirect_stdout(io.StringIO()):  # the settlements each `new` prints
        for number, line in enumerate(lines, 1):
            start, start_cpu = time.perf_counter(), time.process_time()
            outcome = handle(recorder, line, f"{number}: ")
            took = (time.perf_counter() - start) * 1000
            if outcome == REFUSED:
                raise SystemExit(f"line {number} was refused: {line}")
            if line.startswith("new"):
                news.append(took)
            else:
                moves.append(took)
                cpu.append((time.process_time() - start_cpu) * 1000)
    book.engine.dispose()
    return moves, cpu, news, opened


def judge_only(lines, setup) -> list:
    """Per-move ms of the judging alone (fork + apply on the referee kept in memory)."""
    from desmoche_ref.engine.replay import Referee
    from desmoche_ref.play.typed import Move, read

    times, ref = [], None
    for number, line in enumerate(lines, 1):
        item = read(line, number)
        if not isinstance(item, Move):
            ref = None
            continue
        if ref is None:  # a new hand (its own setup would not change the cost)
            ref = Referee(setup)
        start = time.perf_counter()
        trial = ref.fork()
        trial.apply(item.event)
        times.append((time.perf_counter() - start) * 1000)
        ref = trial
    return times


def whole_process(lines, setup, options: str, folder: str) -> float:
    path = os.path.join(folder, "process.db")
    new_book(path, setup, options).engine.dispose()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "desmoche_ref", "play", "--db", path],
                         input="\n".join(lines) + "\n", capture_output=True, text=True, env=env)
    took = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"play exited {run.returncode}:\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
    return took


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--options", default="todo strict")
    parser.add_argument("--no-process", action="store_true", help="skip the whole-process run")
    parser.add_argument("--also-normal", action="store_true",
                        help="measure again with PRAGMA synchronous=NORMAL (WAL without a disk "
                             "flush at each commit), to see what the flush costs")
    args = parser.parse_args()

    setup, lines = night(args.hands, args.seed, args.options)
    with tempfile.TemporaryDirectory() as folder:
        runs = [("as the book is set up", in_process(lines, setup, args.options, folder))]
        if args.also_normal:
            runs.append(("synchronous=NORMAL", in_process(lines, setup, args.options, folder, "NORMAL")))
        judged = judge_only(lines, setup)
        total = None if args.no_process else whole_process(lines, setup, args.options, folder)

    print(f"a simulated night: {args.hands} hands, {len(runs[0][1][0])} moves, options "
          f"{args.options!r}, seed {args.seed}; SQLite book in {tempfile.gettempdir()}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for label, (moves, cpu, news, opened) in runs:
        p95 = percentile(moves, 95)
        print(f"{label}: session opened in {opened:.1f} ms")
        print(f"  move (read + judge + commit): median {statistics.median(moves):.2f} ms, "
              f"p95 {p95:.2f} ms, p99 {percentile(moves, 99):.2f} ms, max {max(moves):.2f} ms "
              f"(target p95 <= {TARGET_P95_MS:.0f} ms: {'met' if p95 <= TARGET_P95_MS else 'NOT met'})")
        print(f"  CPU time of a move: median {statistics.median(cpu):.2f} ms, "
              f"p95 {percentile(cpu, 95):.2f} ms (the rest is waiting: the disk, other processes)")
        print(f"  new (close, post, deal the next): median {statistics.median(news):.2f} ms, "
              f"max {max(news):.2f} ms")
    print(f"judging alone (fork + apply on the referee in memory): median "
          f"{statistics.median(judged):.3f} ms, p95 {percentile(judged, 95):.3f} ms")
    if total is not None:
        print(f"whole process, `desmoche-ref play < night` ({len(lines)} lines): {total:.2f} s, "
              f"{total / len(lines) * 1000:.2f} ms a line including start-up")


if __name__ == "__main__":
    main()
