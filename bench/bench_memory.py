"""Peak memory of `desmoche-ref check --json FILE` as the file grows (issue 7).

    python bench/bench_memory.py [--hands 10000 25000 50000] [--seed 0]

For each size, a session written by `desmoche-ref simulate --hands N -o FILE` (cached in
$TMPDIR/desmoche-bench/, keyed by size, seed and the simulator's source), then `check
--json FILE` run in a fresh child, its output thrown away; the figure is that child's
peak resident memory, as the kernel accounts it (getrusage RUSAGE_CHILDREN, read in a
wrapper process that runs only this one child). Target: <= 100 MB at 50,000 hands, and
flat as the file grows (check reads and judges a file hand by hand).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit as common

TARGET_MB = 100

# Run in its own process so that RUSAGE_CHILDREN holds that one child's peak alone.
_WRAPPER = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)
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
    out = subprocess.run([sys.executable, "-c", _WRAPPER] + args, capture_output=True,
                         text=True, check=True).stdout
    return int(out.split()[-1]) / 1024  # ru_maxrss is in KiB on Linux


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, nargs="+", default=[10_000, 25_000, 50_000])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    print(f"# python {sys.version.split()[0]}; peak resident memory of check --json FILE")
    figures = []
    for hands in args.hands:
        path = session_file(hands, args.seed)
        mb = peak_mb(desmoche() + ["check", "--json", str(path)])
        figures.append((hands, mb))
        print(f"  {hands:>7,} hands ({path.stat().st_size / 1e6:5.1f} MB of record): "
              f"peak {mb:6.1f} MB")
    big = max(figures)
    small = min(figures)
    print(f"target <= {TARGET_MB} MB at {big[0]:,} hands: "
          f"{'met' if big[1] <= TARGET_MB else 'MISSED'}; growth from {small[0]:,} to "
          f"{big[0]:,} hands: {big[1] - small[1]:+.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
