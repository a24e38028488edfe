"""Start-up of `desmoche-ref check FILE` and `fmt --check FILE` against `python -c "import click"`.

    python bench/bench_startup.py [--runs 20] [--importtime]

Each command runs on a one-hand record, `--runs` times, interleaved with the yardstick
so that load on the machine hits all alike; the median wall time of each is printed with
its ratio to the yardstick. Target (issue 4): check of one record starts in <= 1.5x the
time of `python -c "import click"`. With --importtime, the slowest imports of `check`
(python -X importtime) are listed too.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit as common

TARGET = 1.5


def one_hand() -> bytes:
    path = common.ROOT / "tests" / "conformance" / "friday.dsm"
    if path.exists():
        return path.read_bytes()
    return common.split_hands(common.corpus_text(3, quiet=True)[0])[0].encode("utf-8")


def command() -> list:
    exe = shutil.which("desmoche-ref")
    return [exe] if exe else [sys.executable, "-m", "desmoche_ref"]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list, env=None):
    """(wall seconds, CPU seconds) of one run of cmd."""
    c0, t0 = _children_cpu(), time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False)
    dt = time.perf_counter() - t0
    cpu = _children_cpu() - c0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr.decode()}")
    return dt, cpu


def import_times(cmd: list, top: int, env: dict) -> None:
    env = dict(env, PYTHONPROFILEIMPORTTIME="1")
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True,
                          check=False)
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        fields = line.split(":", 1)[1].split("|", 2)
        self_us, cum_us, name = [p.strip() if i < 2 else p.rstrip() for i, p in enumerate(fields)]
        rows.append((int(self_us), int(cum_us), name))
    total = sum(r[0] for r in rows)
    print(f"  imports of `desmoche-ref {cmd[-2]}`: "
          f"{len(rows)} modules, {total / 1000:.1f} ms own time (under -X importtime)")
    print("  slowest by cumulative time:")
    for self_us, cum_us, name in sorted(rows, key=lambda r: -r[1])[:top]:
        print(f"    {cum_us / 1000:7.1f} ms cum {self_us / 1000:6.1f} ms self  {name}")


def run_cases(cases: dict, env: dict, runs: int, title: str, base: list) -> None:
    for cmd in cases.values():  # warm the OS caches (and write the bytecode, if allowed)
        timed(cmd, env)
    samples = {name: [] for name in cases}
    for _ in range(runs):
        for name, cmd in cases.items():
            samples[name].append(timed(cmd, env))
    yard = samples['python -c "import click"']
    yard_wall = statistics.median(t[0] for t in yard)
    yard_cpu = statistics.median(t[1] for t in yard)
    print(f"start-up, median of {runs} runs, one-hand record; {title}:")
    print(f"  {'':32s} {'wall':>9s} {'ratio':>6s}   {'CPU':>9s} {'ratio':>6s}")
    for name, times in samples.items():
        wall = statistics.median(t[0] for t in times)
        cpu = statistics.median(t[1] for t in times)
        mark = ""
        if name.startswith(("desmoche-ref check", "desmoche-ref fmt")):
            ok = wall / yard_wall <= TARGET
            mark = f"   target <= {TARGET}x: {'met' if ok else 'MISSED'}"
        print(f"  {name:32s} {wall * 1000:6.1f} ms {wall / yard_wall:5.2f}x   "
              f"{cpu * 1000:6.1f} ms {cpu / yard_cpu:5.2f}x{mark}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--importtime", action="store_true", help="list the slowest imports of check")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "one-hand.dsm"
        path.write_bytes(one_hand())
        base = command()
        cases = {
            'python -c "import click"': [sys.executable, "-c", "import click"],
            "desmoche-ref check FILE": base + ["check", str(path)],
            "desmoche-ref fmt --check FILE": base + ["fmt", "--check", str(path)],
            "desmoche-ref --help": base + ["--help"],
            "python -c pass": [sys.executable, "-c", "pass"],
        }
        # As installed: bytecode cached (pip compiles it; an editable checkout writes
        # __pycache__ on first run). Kept out of the work tree with PYTHONPYCACHEPREFIX.
        cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        cached["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        modes = [("bytecode cached (as installed)", cached)]
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            modes.append(("PYTHONDONTWRITEBYTECODE set here: every start compiles the "
                          "editable sources", dict(os.environ)))
        for title, env in modes:
            run_cases(cases, env, args.runs, title, base)
        if args.importtime:
            import_times(base + ["check", str(path)], 15, cached)
    return 0


if __name__ == "__main__":
    sys.exit(main())
