"""Shared helpers for the benchmarks (issue 4).

- `corpus_text(hands, ...)`: a session of simulated hands (the bot simulator), cached in a
  temporary folder; falls back to the hand-written records when the simulator is missing.
- `count_events(data)`: the event lines of a record; `cache_dir()`: where corpora are kept.
- `seed_records()` and `split_hands(text)` are the tests' own (tests/mutations.py), as are
  the mutations and invariants the fuzzer uses (bench/fuzz.py imports them from tests/).
- `dated(text, per_night, first_day)`: a simulated session spread over nights (Date tags).

Nothing here is a test by itself; the scripts of this folder import it (this folder is put
on `sys.path`).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if str(ROOT) not in sys.path:  # running from a checkout without an install
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from mutations import seed_records, split_hands  # noqa: E402  (split_hands: for bench_startup.py)


# ------------------------------------------------------------------ corpus

def dated(text: str, per_night: int, first_day: str = "2026-09-04") -> str:
    """A simulated session (`desmoche-ref simulate`) as a season: a Date tag on each hand,
    `per_night` hands a night, a night a week from `first_day` (the simulator writes none)."""
    from datetime import date, timedelta

    start = date.fromisoformat(first_day)

    def tag(m):
        number = int(m.group(1))
        day = start + timedelta(weeks=(number - 1) // per_night)
        return f'{m.group(0)}\n[Date "{day.isoformat()}"]'

    return re.sub(r'^\[Hand "(\d+)"\]', tag, text, flags=re.M)


def simulator():
    """`simulate_session` if the simulator is there, else None."""
    try:
        from desmoche_ref.simulate import simulate_session
    except ImportError:
        return None
    return simulate_session


def _simulator_digest() -> str:
    h = hashlib.sha256()
    pkg = ROOT / "desmoche_ref"
    for name in ("simulate.py", "melds.py", "options.py", "cards.py", "ranking.py", "settle.py"):
        p = pkg / name
        if p.exists():
            h.update(p.read_bytes())
    # the simulator's modules, and the engine whose answers its bots choose among
    for p in sorted((pkg / "sim").glob("*.py")) + sorted((pkg / "engine").glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def cache_dir() -> Path:
    d = Path(os.environ.get("DESMOCHE_BENCH_CACHE", Path(tempfile.gettempdir()) / "desmoche-bench"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def _replicated(hands: int) -> str:
    """`hands` hands made by repeating the hand-written records that check valid."""
    from desmoche_ref.referee import INVALID, judge_bytes

    good = []
    for _, data in seed_records():
        for hand in split_hands(data.decode("utf-8")):
            report = judge_bytes(hand.encode("utf-8"))
            if report.hands and all(h.status != INVALID for h in report.hands):
                good.append(hand.rstrip("\n") + "\n")
    out = [good[i % len(good)] for i in range(hands)]
    return "\n".join(out)


def corpus_text(hands: int = 10_000, seed: int = 0, players=(2, 3, 4), quiet: bool = False):
    """(text, source): `hands` simulated hands, split evenly between the player counts.

    `source` says where they came from: "simulated" or "replicated" (the simulator is
    not there yet: the hand-written records repeated). Cached by size, seed and the
    simulator's source.
    """
    simulate = simulator()
    if simulate is None:
        if not quiet:
            print("  (desmoche_ref.simulate.simulate_session not found: "
                  "replicating the hand-written records)", file=sys.stderr)
        return _replicated(hands), "replicated"
    key = f"sim-{hands}-{seed}-{'-'.join(map(str, players))}-{_simulator_digest()}.dsm"
    path = cache_dir() / key
    if path.exists():
        return path.read_text(encoding="utf-8"), "simulated"
    parts = []
    share, extra = divmod(hands, len(players))
    for i, n in enumerate(players):
        count = share + (1 if i < extra else 0)
        if count:
            if not quiet:
                print(f"  simulating {count} hands for {n} players ...", file=sys.stderr)
            parts.append(simulate(count, players=n, seed=seed + n).rstrip("\n") + "\n")
    text = "\n".join(parts)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return text, "simulated"


def count_events(data: bytes) -> int:
    from desmoche_ref.notation.parser import parse_bytes

    return sum(len(h.events) for h in parse_bytes(data).hands)
