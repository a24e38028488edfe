"""Where `check` spends its time: a cProfile summary of in-process check (issue 4).

    python bench/profile_check.py [--hands 2000] [--top 25] [--sort tottime] [--out FILE.prof]

Profiles `judge_bytes` + `as_json` over simulated hands (the same corpus as
bench_check.py) and prints the top functions by own time (tottime), then a share
of time per module of desmoche_ref, so the next optimisation is obvious.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit as common


def phases(data: bytes, events: int) -> None:
    """CPU time of each stage of check, unprofiled, with the garbage collector on and off."""
    from desmoche_ref.engine.replay import COMPLETE, replay
    from desmoche_ref.engine.setup import read_setup
    from desmoche_ref.notation.parser import parse_bytes
    from desmoche_ref.referee import judge_bytes
    from desmoche_ref.settle import settle

    for gc_on in (True, False):
        gc.collect()
        if not gc_on:
            gc.disable()
        t = [time.process_time()]
        record = parse_bytes(data)
        t.append(time.process_time())
        setups = [read_setup(h) for h in record.hands]
        t.append(time.process_time())
        played = [replay(h, s) if not errs else None for h, (s, errs) in zip(record.hands, setups)]
        t.append(time.process_time())
        for (s, _), p in zip(setups, played):
            if p is not None and p.status == COMPLETE:
                settle(s, p)
        t.append(time.process_time())
        del record, setups, played
        gc.collect()
        t.append(time.process_time())
        judge_bytes(data).as_json()
        t.append(time.process_time())
        gc.enable()
        total = t[6] - t[5]
        names = ("parse_bytes", "read_setup", "replay", "settle")
        parts = [t[i + 1] - t[i] for i in range(4)]
        rest = total - sum(parts)
        print(f"stages, gc {'on ' if gc_on else 'off'}: judge_bytes + as_json {total:.2f} s CPU "
              f"= {events / total:,.0f} events/s;  " + ",  ".join(
                  f"{n} {100 * x / total:.0f}%" for n, x in zip(names, parts))
              + f",  the rest (reports, JSON) {100 * rest / total:.0f}%")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--sort", default="tottime", help="pstats sort key (tottime, cumulative, ...)")
    ap.add_argument("--gc-off", action="store_true",
                    help="disable the garbage collector while profiling (its time otherwise "
                         "lands on whichever function allocated when it ran)")
    ap.add_argument("--out", help="also save the raw profile here (for snakeviz and the like)")
    args = ap.parse_args(argv)

    text, source = common.corpus_text(args.hands, seed=args.seed)
    data = text.encode("utf-8")
    events = common.count_events(data)
    from desmoche_ref.referee import judge_bytes

    gc.collect()
    t0 = time.process_time()
    judge_bytes(data).as_json()
    plain = time.process_time() - t0

    phases(data, events)

    gc.collect()
    if args.gc_off:
        gc.disable()
    prof = cProfile.Profile()
    prof.enable()
    judge_bytes(data).as_json()
    prof.disable()
    gc.enable()
    print(f"{args.hands:,} hands ({source}), {events:,} events; unprofiled run {plain:.2f} s CPU = "
          f"{events / plain:,.0f} events/s; gc {'off' if args.gc_off else 'on'} while profiling")
    if args.out:
        prof.dump_stats(args.out)

    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)
    body = out.getvalue()
    print(body[body.find("   ncalls"):] if "   ncalls" in body else body)

    # own time per module (file), as a share of the total
    total = 0.0
    per_file = defaultdict(float)
    raw = pstats.Stats(prof).stats
    for (filename, _, _), (_, _, tottime, _, _) in raw.items():
        total += tottime
        key = filename
        if "desmoche_ref" in filename:
            key = "desmoche_ref/" + filename.split("desmoche_ref/", 1)[1]
        elif filename.startswith("~"):
            key = "(builtins)"
        else:
            key = Path(filename).name
        per_file[key] += tottime
    print("own time by file:")
    for key, t in sorted(per_file.items(), key=lambda kv: -kv[1])[:12]:
        print(f"  {100 * t / total:5.1f}%  {t:6.2f} s  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
