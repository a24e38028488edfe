"""What must hold of any verdict (N5, N8), for any input: the property tests, the fuzzing test
and the fuzzer (bench/fuzz.py) assert it.

- `check_invariants(data)`: judge bytes and assert what must hold for any input (N5, N8).
- `check_hand_json(hand)`: what N8 promises of one hand's report; `conservation(hand)`: 0.
- `verdict(hand)`: what `fmt` must keep of a hand's verdict.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

CODE_RE = re.compile(r"^(R|N|F)\d")


def _dec(x) -> Decimal:
    return Decimal(x)


def conservation(hand: dict) -> Decimal:
    """Sum of nets + carry_out - carry_in of the main pot and every side pot (N8): 0."""
    total = sum((_dec(v) for v in hand["net"].values()), Decimal(0))
    total += _dec(hand["carry_out"]) - _dec(hand["carry_in"])
    for side in hand["side_games"]:
        total += _dec(side["carry_out"]) - _dec(side["carry_in"])
    return total


def _check_finding(item: dict, kind: str, where: str) -> None:
    line, code = item.get("line"), item.get("code")
    assert type(line) is int and line >= 1, f"{where}: {kind} without a line: {item}"
    assert isinstance(code, str) and CODE_RE.match(code), f"{where}: {kind} with a bad code: {item}"


MONEY_RE = re.compile(r"^-?\d+\.\d\d$")


def check_hand_json(hand: dict, where: str = "") -> None:
    """What N8 promises of every hand report."""
    assert hand["status"] in ("complete", "incomplete", "invalid"), hand["status"]
    assert len(hand["errors"]) <= 1, f"{where}: more than one error: {hand['errors']}"
    if hand["status"] == "invalid":
        assert len(hand["errors"]) == 1, f"{where}: invalid without its error"
    else:
        assert not hand["errors"], f"{where}: {hand['status']} hand with an error"
    for e in hand["errors"]:
        _check_finding(e, "error", where)
    for w in hand["warnings"]:
        _check_finding(w, "warning", where)
    for f in hand["fouls"]:
        _check_finding(f, "foul", where)
        assert re.match(r"^F[1-5]$", f["code"]), f"{where}: foul code {f['code']}"
    for key in ("bet", "carry_in"):
        assert MONEY_RE.match(hand[key]), f"{where}: {key} = {hand[key]!r}"
    if hand["status"] == "complete":
        assert hand["outcome"] is not None and hand["net"] is not None, where
        assert hand["outcome"]["kind"] in ("win", "auto-win", "no-winner"), where
        assert sorted(hand["net"]) == sorted(hand["players"]), f"{where}: nets not for every player"
        for v in list(hand["net"].values()) + [hand["pot"], hand["carry_out"]]:
            assert MONEY_RE.match(v), f"{where}: money {v!r}"
        total = conservation(hand)
        assert total == 0, f"{where}: money not conserved: off by {total}"
    else:
        for key in ("outcome", "pot", "carry_out", "bonuses", "side_games", "net"):
            assert hand[key] is None, f"{where}: {key} given for a {hand['status']} hand"


def check_invariants(data: bytes, where: str = "") -> list:
    """Judge `data`; assert it does not raise and every report keeps N5/N8. Returns the hands' JSON."""
    from desmoche_ref.referee import judge_bytes

    report = judge_bytes(data, "fuzz.dsm")
    doc = report.as_json()
    json.dumps(doc, ensure_ascii=False)
    if report.error:
        assert not doc["hands"], where
        assert isinstance(report.error, str)
    for hand in doc["hands"]:
        check_hand_json(hand, where)
    # the writer: where a file can be written, writing is a fixed point (N7)
    from desmoche_ref.notation.parser import parse_bytes
    from desmoche_ref.notation.writer import syntax_errors, write_file

    record = parse_bytes(data)
    if not record.error and not syntax_errors(record):
        once = write_file(record)
        twice = write_file(parse_bytes(once.encode("utf-8")))
        assert once == twice, f"{where}: the canonical form is not a fixed point"
    return doc["hands"]


def verdict(hand: dict) -> tuple:
    """What `fmt` must keep of a hand's verdict (line numbers may move)."""
    out = hand["outcome"]
    return (hand["status"],
            (out["kind"], tuple(out["winners"]), out["auto"]) if out else None,
            tuple(sorted((hand["net"] or {}).items())),
            tuple(e["code"] for e in hand["errors"]),
            tuple(sorted(w["code"] for w in hand["warnings"])),
            tuple((f["player"], f["code"], f["enforced"]) for f in hand["fouls"]))
