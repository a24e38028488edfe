"""kill -9 the scorebook's commands at random moments; afterwards the book must be whole.

    python bench/kill_moves.py [--kills 50] [--seed 1] [--db URL]

Records NOTATION.md's open example again and again, each time at a new table: `table new`,
`hand new`, the 28 moves, `end` (which posts the settlement), `table close`. About half the
commands are killed (SIGKILL) at a random moment of their run; a killed command is then run
again, expecting the move number it was given (`--expect`): exit 3 says the first run had
stored it, exit 0 that it had not — either way it is stored exactly once. When `--kills`
commands have been killed, `verify` must pass and every hand must replay to friday's verdict.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_startup import command  # noqa: E402

import benchkit  # noqa: E402

FRIDAY = benchkit.ROOT / "tests" / "conformance" / "friday.dsm"
MOVES = [line.split("#")[0].split() for line in FRIDAY.read_text().splitlines()
         if line.split("#")[0].strip() and not line.startswith("[")]
NETS = {"Ana": "-25.00", "Beto": "-10.00", "Carla": "35.00"}


class Harness:
    def __init__(self, db: str, rng: random.Random):
        self.env = dict(os.environ, DESMOCHE_DB=db, PYTHONPATH=str(benchkit.ROOT))
        self.rng = rng
        self.kills = 0
        self.durations = []

    def run(self, args, settled=(0,)):
        """Run a command, perhaps killing it; then make sure its effect is stored once.
        `settled`: the exit statuses of a re-run that say the effect is in the book."""
        cmd = command() + [str(a) for a in args]
        if self.rng.random() < 0.5:
            typical = statistics.median(self.durations) if self.durations else 1.0
            proc = subprocess.Popen(cmd, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                proc.wait(timeout=self.rng.uniform(0.3, 1.1) * typical)  # mostly past the imports
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
                self.kills += 1
            else:
                if proc.returncode == 0:
                    return
        t0 = time.perf_counter()
        again = subprocess.run(cmd, env=self.env, capture_output=True, text=True)
        self.durations.append(time.perf_counter() - t0)
        if again.returncode not in (0,) + tuple(settled):
            raise SystemExit(f"{' '.join(map(str, args))}: exit {again.returncode}: {again.stderr}")

    def read(self, args):
        out = subprocess.run(command() + [str(a) for a in args], env=self.env, capture_output=True,
                             text=True, check=True)
        return json.loads(out.stdout)


def one_table(h: Harness, name: str) -> None:
    h.run(["table", "new", name, "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo",
           "--side", "oro 5 Ana Beto Carla"], settled=(2,))  # 2: "there is already a table"
    h.run(["hand", "new", "--table", name, "--dealer", "Ana"], settled=(2,))  # 2: hand 1 not over
    for seq, words in enumerate(MOVES + [["end"]]):
        h.run(words + ["--table", name, "--expect", seq], settled=(3,))  # 3: the hand moved on
        if h.kills and seq % 10 == 0:
            log = h.read(["hand", "log", "--table", name, "--json"])
            assert [e["seq"] for e in log] == list(range(1, seq + 2)), (name, log[-3:])
    h.run(["table", "close", name], settled=(2,))  # 2: already closed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", help="a book URL (default: a new SQLite file)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="dsm-kill-moves-"))
    h = Harness(args.db or f"sqlite:///{work / 'book.db'}", random.Random(args.seed))
    t0 = time.perf_counter()
    tables = []
    try:
        while h.kills < args.kills:
            tables.append(f"t{len(tables) + 1}")
            one_table(h, tables[-1])
            print(f"  table {tables[-1]} recorded; {h.kills} commands killed so far", flush=True)
        verify = subprocess.run(command() + ["verify"], env=h.env, capture_output=True, text=True)
        print(verify.stdout, end="")
        replayed = 0
        for name in tables:
            shown = h.read(["hand", "show", "--table", name, "--json"])
            assert (shown["status"], shown["net"]) == ("complete", NETS), (name, shown["status"])
            log = h.read(["hand", "log", "--table", name, "--all", "--json"])
            assert [e["line"] for e in log] == [" ".join(w) for w in MOVES] + ["end"], name
            replayed += 1
        ok = verify.returncode == 0 and replayed == len(tables)
        print(f"{h.kills} commands killed with SIGKILL over {len(tables)} tables "
              f"({time.perf_counter() - t0:.0f} s): verify {'passed' if verify.returncode == 0 else 'FAILED'}, "
              f"{replayed} hands replay to friday's nets with every move once")
        if not ok:
            raise SystemExit(1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
