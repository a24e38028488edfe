"""The fuzzing harness (issue 4): no input may raise, every finding has a line and a code.

Inputs are (a) hand-written and simulated records mutated at random (mutations.mutate) and
(b) records made of random lines from the notation's vocabulary. Each input is judged by
`judge_bytes`, its JSON built, and `invariants.check_invariants` asserts N5/N8. `run(budget)`
fuzzes for a number of seconds: tests/test_fuzz.py runs it for a few in CI, and
bench/fuzz.py is the command line for longer runs (and the hypothesis and atheris engines).
"""

from __future__ import annotations

import hashlib
import random
import time
import traceback
from pathlib import Path

from invariants import check_invariants
from mutations import VOCAB, mutate, seed_records, split_hands

from desmoche_ref.simulate import simulate_session

_SEEDS: list | None = None


def seeds(simulated_hands: int = 60) -> list:
    """Seed records: every hand-written file, each of its hands, and some simulated hands."""
    global _SEEDS
    if _SEEDS is None:
        out = []
        for _, data in seed_records():
            out.append(data)  # whole files: hands that follow on, tags between hands
            out += [h.encode("utf-8") for h in split_hands(data.decode("utf-8"))] * 3
        if simulated_hands:
            for players in (2, 3, 4):
                text = simulate_session(simulated_hands // 3, players=players, seed=1000 + players)
                out += [h.encode("utf-8") for h in split_hands(text)]
        _SEEDS = out
    return _SEEDS


def random_record(rng: random.Random) -> bytes:
    """A record of random lines drawn from the notation's words (grammar-ish noise)."""
    players = rng.sample(["Ana", "Beto", "Carla", "Dani", "Eva"], rng.randint(1, 4))
    lines = []
    if rng.random() < 0.9:
        lines.append(f'[Players "{" ".join(players)}"]')
    if rng.random() < 0.9:
        lines.append(f'[Dealer "{rng.choice(players + ["Nadie"])}"]')
    for tag in ("Options", "Bet", "Side", "Carry", "Rules", "Result"):
        if rng.random() < 0.2:
            lines.append(rng.choice([v for v in VOCAB if v.startswith(f"[{tag}")] or [""]))
    verbs = [v for v in VOCAB[:17]]
    cards = [r + s for r in "A23456789TJQK" for s in "shdc"]
    for _ in range(rng.randint(0, 40)):
        verb = rng.choice(verbs)
        toks = [verb, rng.choice(players)]
        k = rng.choice((0, 1, 1, 1, 2, 3, 9))
        toks += [rng.choice(cards) if rng.random() < 0.85 else rng.choice(VOCAB)
                 for _ in range(k)]
        if rng.random() < 0.1:
            toks.append("# " + rng.choice(VOCAB))
        lines.append(" ".join(toks))
    return "\n".join(lines).encode("utf-8", "surrogatepass")


def one_input(rng: random.Random) -> bytes:
    if rng.random() < 0.2:
        return random_record(rng)
    base = rng.choice(seeds())
    return mutate(base, rng)


class Failure:
    def __init__(self, data: bytes, tb: str):
        self.data = data
        self.tb = tb
        self.digest = hashlib.sha1(data).hexdigest()[:12]
        self.first = tb.strip().splitlines()[-1] if tb.strip() else "?"


def try_input(data: bytes):
    """None, or a Failure with the traceback."""
    try:
        check_invariants(data, "fuzz input")
    except Exception:  # noqa: BLE001 (every exception is a finding here)
        return Failure(data, traceback.format_exc())
    return None


def save(failure: Failure, crash_dir: Path) -> Path:
    crash_dir.mkdir(parents=True, exist_ok=True)
    path = crash_dir / f"crash-{failure.digest}.dsm"
    path.write_bytes(failure.data)
    (crash_dir / f"crash-{failure.digest}.txt").write_text(failure.tb, encoding="utf-8")
    return path


def run(budget: float, seed: int = 0, crash_dir: Path | None = None, quiet: bool = True,
        max_inputs: int | None = None) -> dict:
    """Fuzz for `budget` seconds (plain random mutation, reproducible from `seed`).

    Returns {"inputs": n, "failures": {signature: Failure}}; failures are grouped by the
    last line of their traceback so one bug is reported once.
    """
    rng = random.Random(seed)
    seeds()  # simulate the seeds outside the budget
    deadline = time.monotonic() + budget
    failures: dict = {}
    n = 0
    while time.monotonic() < deadline and (max_inputs is None or n < max_inputs):
        case_seed = rng.getrandbits(64)
        data = one_input(random.Random(case_seed))
        n += 1
        failure = try_input(data)
        if failure is not None:
            if failure.first not in failures:
                failures[failure.first] = failure
                where = save(failure, crash_dir) if crash_dir else None
                if not quiet:
                    print(f"FAIL ({failure.first}) input seed {case_seed}"
                          + (f" saved to {where}" if where else ""))
                    print(failure.tb)
    return {"inputs": n, "failures": failures}
