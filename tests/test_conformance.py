"""The public conformance cases (../shared/conformance, copied into tests/conformance) through the real CLI."""

import json
import pathlib
import sys

import pytest

from conftest import invoke

HERE = pathlib.Path(__file__).parent / "conformance"
CASES = sorted(HERE.glob("*.dsm"))
sys.path.insert(0, str(pathlib.Path(__file__).parent))
from helpers import EXAMPLE_REPORT  # noqa: E402


def run_check(*args):
    return invoke("check", *args)


def compare(exp, hand):
    """The comparison of ../shared/tools/conformance.py: partial, only the keys given."""
    from collections import Counter
    bad = []

    def eq(key, got, want):
        if got != want:
            bad.append(f"{key}: got {got!r}, want {want!r}")

    if "status" in exp:
        eq("status", hand["status"], exp["status"])
    for k, v in (exp.get("outcome") or {}).items():
        got = (hand["outcome"] or {}).get(k)
        if k == "winners" and isinstance(got, list):
            got, v = sorted(got), sorted(v)
        eq(f"outcome.{k}", got, v)
    for k in ("net", "pot", "carry_out", "result_agrees"):
        if k in exp:
            eq(k, hand.get(k), exp[k])
    if "errors" in exp:
        eq("errors", len(hand["errors"]), exp["errors"])
    fe = exp.get("first_error")
    if fe:
        first = min(hand["errors"], key=lambda e: e["line"])
        if "code" in fe:
            eq("first_error.code", first["code"], fe["code"])
        if "lines" in fe:
            assert first["line"] in fe["lines"], first
    if "fouls" in exp:
        got = Counter((f["player"], f["code"], f["enforced"]) for f in hand["fouls"])
        eq("fouls", got, Counter(tuple(f) for f in exp["fouls"]))
    for prefix in exp.get("warning_codes", []):
        assert any(w["code"].startswith(prefix) for w in hand["warnings"]), prefix
    if "bonuses" in exp:
        got = Counter((b["kind"], b["from"], b["to"], b["amount"]) for b in hand["bonuses"])
        eq("bonuses", got, Counter(tuple(b) for b in exp["bonuses"]))
    if "side_games" in exp:
        got = {g["game"]: sorted(g["winners"]) for g in hand["side_games"]}
        for game, winners in exp["side_games"]:
            eq(f"side_games[{game}]", got.get(game), sorted(winners))
    return bad


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_conformance_case(case):
    exp = json.loads(case.with_suffix(".expect.json").read_text())
    run = run_check("--json", str(case))
    hand = json.loads(run.stdout)["files"][0]["hands"][0]
    assert compare(exp, hand) == []
    assert run.returncode == (1 if exp.get("status") == "invalid" else 0)


def test_n8_all_cases_in_one_process_keep_file_order():
    run = run_check("--json", *map(str, CASES))
    files = json.loads(run.stdout)["files"]
    assert [f["path"] for f in files] == [str(c) for c in CASES]
    assert run.returncode == 1  # invalid-meld is among them: the worst status wins


def test_n8_friday_report_matches_the_example_exactly():
    """NOTATION.md's example report, key for key (the open-record example)."""
    run = run_check("--json", str(HERE / "friday.dsm"))
    hand = json.loads(run.stdout)["files"][0]["hands"][0]
    # the conformance copy has no free tags, so its lines are four fewer
    assert hand == dict(EXAMPLE_REPORT, outcome=dict(EXAMPLE_REPORT["outcome"], line=35))
