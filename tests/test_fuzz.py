"""Fuzzing in CI (issue 4): a few seconds of the fuzzing harness (tests/fuzzing.py), and 400
mutated records in one process.

The longer run is on demand: `python bench/fuzz.py --budget 600` (see bench/README.md).
"""

import json
import os
import random
import re
import shutil
import subprocess
import sys

import pytest

import fuzzing
from invariants import check_hand_json
from mutations import mutate

from desmoche_ref.referee import judge_bytes

BUDGET = float(os.environ.get("DESMOCHE_FUZZ_BUDGET", "4"))


def mutated_records(count: int = 400, seed: int = 400) -> list:
    """`count` mutated records from the sample logs, the conformance records and simulated hands."""
    rng = random.Random(seed)
    base = fuzzing.seeds()
    return [mutate(rng.choice(base), rng) for _ in range(count)]


@pytest.mark.slow
def test_fuzz_for_a_fixed_budget():
    result = fuzzing.run(BUDGET, seed=20261129)
    assert result["inputs"] > 0
    report = "\n\n".join(f"{sig}\n--- input ---\n{f.data!r}\n--- traceback ---\n{f.tb}"
                         for sig, f in result["failures"].items())
    assert not result["failures"], report


def test_400_mutated_records_in_one_process_yield_findings_not_tracebacks():
    failures = []
    invalid = 0
    for i, data in enumerate(mutated_records()):
        failure = fuzzing.try_input(data)
        if failure is not None:
            failures.append(f"record {i}: {failure.first}\n{data!r}\n{failure.tb}")
            continue
        report = judge_bytes(data)
        invalid += bool(report.error) or any(h.status == "invalid" for h in report.hands)
    assert not failures, f"{len(failures)} of 400 mutated records failed:\n" + "\n".join(failures[:5])
    assert invalid > 100, "the mutations should break most records"


def test_400_mutated_records_through_check_json_in_one_process(tmp_path):
    """The command itself: one `desmoche-ref check --json` over 400 mutated files."""
    paths = []
    for i, data in enumerate(mutated_records()):
        path = tmp_path / f"m{i:03d}.dsm"
        path.write_bytes(data)
        paths.append(str(path))
    exe = shutil.which("desmoche-ref")
    cmd = [exe] if exe else [sys.executable, "-m", "desmoche_ref"]
    proc = subprocess.run(cmd + ["check", "--json"] + paths, capture_output=True, timeout=120,
                          check=False)
    stderr = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr, stderr[-3000:]
    assert proc.returncode in (0, 1), (proc.returncode, stderr[-3000:])
    doc = json.loads(proc.stdout)
    assert [f["path"] for f in doc["files"]] == paths
    errors = 0
    for entry in doc["files"]:
        if not entry["hands"]:
            assert entry.get("error"), entry["path"]
        for hand in entry["hands"]:
            check_hand_json(hand, entry["path"])
            for e in hand["errors"]:
                assert type(e["line"]) is int and re.match(r"^(R|N|F)\d", e["code"]), e
                errors += 1
    assert errors > 100
