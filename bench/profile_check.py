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
import common  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--sort", default="tottime", help="pstats sort key (tottime, cumulative, ...)")
    ap.add_argument("--out", help="also save the raw profile here (for snakeviz and the like)")
    args = ap.parse_args(argv)

    text, source = common.corpus_text(args.hands, seed=args.seed)
    data = text.encode("utf-8")
    events = common.count_events(data)
    from desmoche_ref.referee import judge_bytes

    gc.collect()
    t0 = time.perf_counter()
    judge_bytes(data).as_json()
    plain = time.perf_counter() - t0

    prof = cProfile.Profile()
    prof.enable()
    judge_bytes(data).as_json()
    prof.disable()
    print(f"{args.hands:,} hands ({source}), {events:,} events; unprofiled run {plain:.2f} s = "
          f"{events / plain:,.0f} events/s")
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
