"""Fuzzing the reader and the engine (issue 4): no input may raise, every finding has a line and a code.

    python bench/fuzz.py --budget 60                 # hypothesis-driven, one minute
    python bench/fuzz.py --budget 600 --engine atheris  # coverage-guided, if atheris installs
    python bench/fuzz.py --replay CRASH.dsm          # re-run one saved input

Inputs are (a) hand-written and simulated records mutated at random (lines dropped,
swapped, duplicated, moved; tokens and bytes garbled; records cut short) and (b) records
made of random lines from the notation's vocabulary. Each input is judged by
`judge_bytes`, its JSON built, and `benchkit.check_invariants` asserts N5/N8: no exception,
at most one error and only on an invalid hand, every error, warning and foul with an
int line and a code like R7.2 / N4 / F3, money conserved on every complete hand, and the
canonical writer a fixed point. A failing input is saved under --crash-dir and printed
with its traceback. Exit status 1 if anything failed.

`tests/test_fuzz.py` runs `run(budget=...)` for a few seconds in CI.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit as common

_SEEDS: list | None = None


def seeds(simulated_hands: int = 60) -> list:
    """Seed records: every hand-written file, each of its hands, and some simulated hands."""
    global _SEEDS
    if _SEEDS is None:
        out = []
        for _, data in common.seed_records():
            out.append(data)  # whole files: hands that follow on, tags between hands
            out += [h.encode("utf-8") for h in common.split_hands(data.decode("utf-8"))] * 3
        simulate = common.simulator()
        if simulate is not None and simulated_hands:
            for players in (2, 3, 4):
                text = simulate(simulated_hands // 3, players=players, seed=1000 + players)
                out += [h.encode("utf-8") for h in common.split_hands(text)]
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
            lines.append(rng.choice([v for v in common.VOCAB if v.startswith(f"[{tag}")] or [""]))
    verbs = [v for v in common.VOCAB[:17]]
    cards = [r + s for r in "A23456789TJQK" for s in "shdc"]
    for _ in range(rng.randint(0, 40)):
        verb = rng.choice(verbs)
        toks = [verb, rng.choice(players)]
        k = rng.choice((0, 1, 1, 1, 2, 3, 9))
        toks += [rng.choice(cards) if rng.random() < 0.85 else rng.choice(common.VOCAB)
                 for _ in range(k)]
        if rng.random() < 0.1:
            toks.append("# " + rng.choice(common.VOCAB))
        lines.append(" ".join(toks))
    return "\n".join(lines).encode("utf-8", "surrogatepass")


def one_input(rng: random.Random) -> bytes:
    if rng.random() < 0.2:
        return random_record(rng)
    base = rng.choice(seeds())
    return common.mutate(base, rng)


class Failure:
    def __init__(self, data: bytes, tb: str):
        self.data = data
        self.tb = tb
        self.digest = hashlib.sha1(data).hexdigest()[:12]
        self.first = tb.strip().splitlines()[-1] if tb.strip() else "?"


def try_input(data: bytes):
    """None, or a Failure with the traceback."""
    try:
        common.check_invariants(data, "fuzz input")
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


def run_hypothesis(budget: float, crash_dir: Path) -> int:
    """The same harness driven by hypothesis (shrinks a failing input's seed and rounds)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    found = []

    @settings(max_examples=200, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.integers(0, 2**64 - 1), st.integers(1, 6), st.booleans())
    def target(case_seed, rounds, noise):
        rng = random.Random(case_seed)
        if noise:
            data = random_record(rng)
        else:
            data = common.mutate(rng.choice(seeds()), rng, rounds)
        failure = try_input(data)
        if failure is not None:
            found.append(failure)
            raise AssertionError(failure.tb)

    seeds()
    deadline = time.monotonic() + budget
    batches = 0
    while time.monotonic() < deadline and not found:
        batches += 1
        try:
            target()
        except AssertionError:
            break
    print(f"hypothesis: {batches} batches of up to 200 inputs")
    for failure in found[-1:]:
        print(f"FAIL, saved to {save(failure, crash_dir)}\n{failure.tb}")
    return 1 if found else 0


def run_atheris(budget: float, crash_dir: Path) -> int:
    import atheris

    with atheris.instrument_imports():
        import desmoche_ref.engine.replay  # noqa: F401 (instrumented for coverage)
        import desmoche_ref.notation.parser  # noqa: F401 (instrumented for coverage)
        import desmoche_ref.referee  # noqa: F401 (instrumented for coverage)
        import desmoche_ref.settle  # noqa: F401 (instrumented for coverage)

    corpus = Path(tempfile.mkdtemp(prefix="desmoche-fuzz-corpus-"))
    for i, data in enumerate(seeds()):
        (corpus / f"seed-{i}.dsm").write_bytes(data)

    def test_one_input(data: bytes):
        common.check_invariants(data, "atheris input")

    crash_dir.mkdir(parents=True, exist_ok=True)
    argv = [sys.argv[0], str(corpus), f"-max_total_time={int(budget)}",
            f"-artifact_prefix={crash_dir}/", "-max_len=20000"]
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=30.0, help="seconds to fuzz")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: time)")
    ap.add_argument("--engine", choices=("random", "hypothesis", "atheris"), default="random")
    ap.add_argument("--crash-dir", type=Path,
                    default=Path(tempfile.gettempdir()) / "desmoche-fuzz-crashes")
    ap.add_argument("--replay", type=Path, help="check one saved input and print its traceback")
    args = ap.parse_args(argv)

    if args.replay:
        failure = try_input(args.replay.read_bytes())
        print(failure.tb if failure else "no failure")
        return 1 if failure else 0
    if args.engine == "atheris":
        return run_atheris(args.budget, args.crash_dir)
    if args.engine == "hypothesis":
        return run_hypothesis(args.budget, args.crash_dir)
    seed = args.seed if args.seed is not None else int(time.time())
    t0 = time.monotonic()
    result = run(args.budget, seed, args.crash_dir, quiet=False)
    dt = time.monotonic() - t0
    print(f"fuzz: seed {seed}, {result['inputs']:,} inputs in {dt:.1f} s "
          f"({result['inputs'] / dt:,.0f}/s), {len(result['failures'])} distinct failures")
    for sig in result["failures"]:
        print(f"  {sig}")
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
