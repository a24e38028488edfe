"""Fuzzing the reader and the engine (issue 4): no input may raise, every finding has a line and a code.

    python bench/fuzz.py --budget 60                 # hypothesis-driven, one minute
    python bench/fuzz.py --budget 600 --engine atheris  # coverage-guided, if atheris installs
    python bench/fuzz.py --replay CRASH.dsm          # re-run one saved input

Inputs are (a) hand-written and simulated records mutated at random (lines dropped,
swapped, duplicated, moved; tokens and bytes garbled; records cut short) and (b) records
made of random lines from the notation's vocabulary. Each input is judged by
`judge_bytes`, its JSON built, and `check_invariants` (tests/invariants.py) asserts N5/N8:
no exception, at most one error and only on an invalid hand, every error, warning and foul
with an int line and a code like R7.2 / N4 / F3, money conserved on every complete hand,
and the canonical writer a fixed point. A failing input is saved under --crash-dir and printed
with its traceback. Exit status 1 if anything failed.

The harness (seeds, inputs, `run`) is tests/fuzzing.py: `tests/test_fuzz.py` runs it for
a few seconds in CI; this script adds the command line and the hypothesis and atheris engines.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from fuzzing import random_record, run, save, seeds, try_input  # noqa: E402
from invariants import check_invariants  # noqa: E402
from mutations import mutate  # noqa: E402


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
            data = mutate(rng.choice(seeds()), rng, rounds)
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
        check_invariants(data, "atheris input")

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
