"""Throughput of `check`, in events per second, against python-chess reading PGN (issue 4).

    python bench/bench_check.py [--hands 10000] [--repeat 3] [--games 400] [--no-pin]

Prints figures, not a pass/fail: in-process (`judge_stream` + the N8 builder over one big
session text, as the command runs them),
whole-process (`desmoche-ref check --json FILE` over the same text as one file), and, when
the `chess` package is installed (`pip install -e .[bench]`), python-chess reading random
legal games from PGN (`chess.pgn.read_game` + playing the moves on a board) in the same
run, as plies per second. Targets (issue 4): check >= 100,000 events/s and >= 3x
python-chess's plies/s, on one core (the process is pinned to one CPU unless --no-pin).
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit as common

TARGET_EVENTS = 100_000
TARGET_RATIO = 3.0


def pin_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpus[-1]})
    return f"pinned to CPU {cpus[-1]}"


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (user + system)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def best_of(repeat: int, fn):
    """(best CPU seconds, best wall seconds) over `repeat` runs of fn.

    CPU time is the figure of record: on a shared machine the wall clock also counts
    the time other processes held the core.
    """
    cpu, wall = [], []
    for _ in range(repeat):
        c0, w0 = _cpu(), time.perf_counter()
        fn()
        wall.append(time.perf_counter() - w0)
        cpu.append(_cpu() - c0)
    return min(cpu), min(wall)


def show(label: str, count: int, unit: str, cpu: float, wall: float, repeat: int) -> float:
    rate = count / cpu
    print(f"  {label:34s}: {cpu:7.3f} s CPU ({wall:7.3f} s wall), best of {repeat}"
          f"  -> {rate:12,.0f} {unit}/s  ({count / wall:,.0f} by the wall clock)")
    return rate


def check_command() -> list:
    exe = shutil.which("desmoche-ref")
    return [exe] if exe else [sys.executable, "-m", "desmoche_ref"]


def bench_in_process(data: bytes, events: int, repeat: int) -> float:
    import json

    from desmoche_ref.referee import FileReport, judge_stream, n8_chunks

    encode = json.JSONEncoder(ensure_ascii=False).encode

    def run():
        # as the command does it: judged hand by hand, the N8 document built by its one
        # builder and written (here to nowhere)
        for _ in n8_chunks([FileReport("bench.dsm", judge_stream(data))], encode):
            pass

    # As `check` runs it: the command turns the cyclic collector off for its span.
    gc.collect()
    gc.disable()
    try:
        rate = show("in-process judge_stream + N8 JSON", events, "events",
                    *best_of(repeat, run), repeat)
    finally:
        gc.enable()
    with_gc = show("  the same, gc on (library callers)", events, "events",
                   *best_of(repeat, run), repeat)
    print(f"  -> with the collector on (a library caller's default) it takes "
          f"{100 * (1 - with_gc / rate):.0f}% of the time")
    return rate


def bench_whole_process(data: bytes, events: int, repeat: int, pin: str | None) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "session.dsm"
        path.write_bytes(data)
        cmd = check_command() + ["check", "--json", str(path)]
        if pin and shutil.which("taskset"):
            cmd = ["taskset", "-c", pin] + cmd

        def run():
            proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
            if proc.returncode not in (0, 1):
                raise SystemExit(f"check failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")

        cpu, wall = best_of(repeat, run)
    return show("whole-process check --json FILE", events, "events", cpu, wall, repeat)


def random_pgn(games: int, seed: int, max_plies: int = 200):
    """PGN text of `games` random legal games (python-chess itself), and their ply count."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out, plies = [], 0
    for g in range(games):
        board = chess.Board()
        while not board.is_game_over(claim_draw=False) and board.ply() < max_plies:
            board.push(rng.choice(list(board.legal_moves)))
        plies += board.ply()
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = "random"
        game.headers["Round"] = str(g + 1)
        out.append(str(game))
    return "\n\n".join(out) + "\n", plies


def bench_chess(games: int, repeat: int, seed: int) -> float | None:
    try:
        import chess.pgn
    except ImportError:
        print("  python-chess: not installed (pip install -e .[bench]); no yardstick")
        return None
    t0 = time.perf_counter()
    text, plies = random_pgn(games, seed)
    print(f"  python-chess {chess.__version__}: {games} random games, {plies:,} plies "
          f"(generated in {time.perf_counter() - t0:.1f} s)")

    def run():
        stream = io.StringIO(text)
        n = 0
        while True:
            game = chess.pgn.read_game(stream)
            if game is None:
                break
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
                n += 1
        assert n == plies, (n, plies)

    return show("python-chess read_game + push", plies, "plies", *best_of(repeat, run), repeat)


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--games", type=int, default=400, help="random chess games for the yardstick")
    ap.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    ap.add_argument("--no-subprocess", action="store_true", help="skip the whole-process figure")
    args = ap.parse_args(argv)

    pin = None
    if not args.no_pin:
        where = pin_one_core()
        print(f"# {where}")
        if os.path.exists("/proc/self/status") and hasattr(os, "sched_getaffinity"):
            pin = ",".join(map(str, sorted(os.sched_getaffinity(0))))
    print(f"# python {sys.version.split()[0]} on {os.cpu_count()} CPUs")

    t0 = time.perf_counter()
    text, source = common.corpus_text(args.hands, seed=args.seed)
    data = text.encode("utf-8")
    events = common.count_events(data)
    from desmoche_ref.referee import INVALID, judge_bytes

    report = judge_bytes(data)
    statuses = {}
    for h in report.hands:
        statuses[h.status] = statuses.get(h.status, 0) + 1
    print(f"corpus: {len(report.hands):,} hands ({source}), {events:,} events, "
          f"{len(data) / 1e6:.1f} MB, prepared in {time.perf_counter() - t0:.1f} s; "
          f"statuses {statuses}")
    if statuses.get(INVALID):
        print(f"  WARNING: {statuses[INVALID]} hands are invalid: the figures judge less than "
              "every line of them")
    del report  # keep the heap as a fresh `check` would see it (the GC walks live objects)
    gc.collect()

    print("check:")
    in_rate = bench_in_process(data, events, args.repeat)
    whole_rate = None
    if not args.no_subprocess:
        whole_rate = bench_whole_process(data, events, args.repeat, pin)
    print("yardstick:")
    chess_rate = bench_chess(args.games, args.repeat, args.seed)

    print("figures against the targets (issue 4):")
    print(f"  in-process    {in_rate:12,.0f} events/s   target >= {TARGET_EVENTS:,}: "
          f"{verdict(in_rate >= TARGET_EVENTS)}")
    if whole_rate is not None:
        print(f"  whole-process {whole_rate:12,.0f} events/s   target >= {TARGET_EVENTS:,}: "
              f"{verdict(whole_rate >= TARGET_EVENTS)}")
    if chess_rate:
        ratio = in_rate / chess_rate
        print(f"  python-chess  {chess_rate:12,.0f} plies/s")
        print(f"  ratio in-process / python-chess = {ratio:.2f}x   target >= {TARGET_RATIO:.0f}x: "
              f"{verdict(ratio >= TARGET_RATIO)}")
        if whole_rate is not None:
            print(f"  ratio whole-process / python-chess = {whole_rate / chess_rate:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
