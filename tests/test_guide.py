"""docs/guide.md: every record in it is a real record, and `check` judges it as the guide says.

A record is a ```dsm block (```dsm continued adds its lines to the record above); the lines
right after it that start `> **check:**` state the verdict, one a hand, as segments split by
` · ` — the status; `winner P at line N` (`winners P and Q`, `by KIND` for an automatic win)
or `no winner at line N`; `pot X`, `carry out X`; `nets P X, Q Y`; `bonuses KIND from P, …`;
`side GAME pot X to P` (`to nobody`, `, carries X`, `, refunded`); `result agrees`/`disagrees`;
`findings CODE at line N, …` (a foul may add `forgiven`) or `no findings`."""

import json
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parent.parent
GUIDE = ROOT / "docs" / "guide.md"
BLOCK = re.compile(r"```dsm( continued)?\n(.*?)```\n\n?((?:> \*\*check:\*\* [^\n]*\n\n?)*)", re.S)


def guide_records(path=GUIDE):
    """[(record text, [verdict line, ...], where)] in the guide's order (docs/es/guia.md too)."""
    text = path.read_text(encoding="utf-8")
    records, current = [], ""
    for m in BLOCK.finditer(text):
        current = (current if m.group(1) else "") + m.group(2)
        verdicts = [v[len("> **check:** "):] for v in m.group(3).splitlines() if v]
        records.append((current, verdicts, text[:m.start()].count("\n") + 1))
    assert len(records) == text.count("```dsm"), "a ```dsm block the test did not read"
    return records


RECORDS = guide_records()


def money(text: str) -> str:
    return text.replace("−", "-").lstrip("+")


def expected_of(segment: str, hand: dict):
    """(what the guide says, what check says) for one segment of a verdict."""
    if segment in ("complete", "incomplete", "invalid"):
        return segment, hand["status"]
    o = hand["outcome"]
    m = re.fullmatch(r"winners? (.+?)(?: by ([\w-]+))? at line (\d+)", segment)
    if m:
        said = {"kind": "auto-win" if m.group(2) else "win", "winners": m.group(1).split(" and "),
                "auto": m.group(2), "line": int(m.group(3))}
        return said, o
    m = re.fullmatch(r"no winner at line (\d+)", segment)
    if m:
        return {"kind": "no-winner", "winners": [], "auto": None, "line": int(m.group(1))}, o
    m = re.fullmatch(r"(pot|carry out|carry in) (\S+)", segment)
    if m:
        return money(m.group(2)), hand[m.group(1).replace(" ", "_")]
    m = re.fullmatch(r"nets (.+)", segment)
    if m:
        said = dict(part.rsplit(" ", 1) for part in m.group(1).split(", "))
        return {p: money(v) for p, v in said.items()}, hand["net"]
    m = re.fullmatch(r"bonuses (.+)", segment)
    if m:
        said = [tuple(b.split(" from ")) for b in m.group(1).split(", ")]
        return said, [(b["kind"], b["from"]) for b in hand["bonuses"]]
    m = re.fullmatch(r"side (\S+) pot (\S+) to (.+?)(?:, carries (\S+))?(, refunded)?", segment)
    if m:
        game, pot, who, carry, refunded = m.groups()
        said = {"pot": money(pot), "winners": [] if who == "nobody" else who.split(" and "),
                "carry_out": money(carry or "0.00")}
        got = next(g for g in hand["side_games"] if g["game"] == game)
        if refunded:  # the stakes went back: everyone who entered nets nothing from it
            assert got["winners"] == [] and got["carry_out"] == got["carry_in"]
        return said, {k: got[k] for k in said}
    if segment in ("result agrees", "result disagrees"):
        return segment == "result agrees", hand["result_agrees"]
    if segment == "no findings":
        return [], findings(hand)
    m = re.fullmatch(r"findings (.+)", segment)
    if m:
        said = []
        for part in m.group(1).split(", "):
            f = re.fullmatch(r"(\S+) at line (\d+)( forgiven)?", part)
            assert f, f"not a finding: {part!r}"
            said.append((int(f.group(2)), f.group(1)) + ((False,) if f.group(3) else ()))
        return said, findings(hand, with_forgiven=any(len(s) == 3 for s in said))
    raise AssertionError(f"the guide's verdict has a segment the test does not read: {segment!r}")


def findings(hand, with_forgiven=False) -> list:
    rows = [(e["line"], e["code"]) for e in hand["errors"] + hand["warnings"]]
    rows += [(f["line"], f["code"]) + ((False,) if with_forgiven and not f["enforced"] else ())
             for f in hand["fouls"]]
    return sorted(rows)


def check_records(records, folder, env=None) -> list:
    """The N8 files of `check --json` on each record, by one run of the real command."""
    paths = []
    for number, (text, _, _) in enumerate(records):
        path = folder / f"record-{number}.dsm"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    run = subprocess.run([sys.executable, "-m", "desmoche_ref", "check", "--json", *paths],
                         capture_output=True, text=True, timeout=120, env=env)
    assert "Traceback" not in run.stderr
    return json.loads(run.stdout)["files"]


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Every record of the guide judged by one run of the real command."""
    return check_records(RECORDS, tmp_path_factory.mktemp("guide"))


def test_the_guide_has_its_walk_through_and_every_topic():
    text = GUIDE.read_text(encoding="utf-8")
    assert len(RECORDS) >= 20
    assert "the **desmoche**" in text
    for topic in ("deal", "cambio", "draw", "pay", "pass", "?x9", "declare", "end",
                  "Side", "announce", "show", "Carry", "SideCarry", "Result", " to "):
        assert any(topic in t for t, _, _ in RECORDS), topic
    for option in ("todo", "strict", "forcing", "color=suit", "auto=off", "hand-melds=off",
                   "escalera=a23-low", "side-nowin=refund", "dq-bonus=exempt", '[Rules "conquien"]'):
        assert any(option in t for t, _, _ in RECORDS), option
    assert "../shared" not in text


@pytest.mark.parametrize("number", range(len(RECORDS)), ids=lambda n: f"guide-line-{RECORDS[n][2]}")
def test_check_judges_each_record_as_the_guide_says(judged, number):
    text, verdicts, where = RECORDS[number]
    hands = judged[number]["hands"]
    assert verdicts, f"guide.md line {where}: a record without its verdict"
    assert len(verdicts) == len(hands), f"guide.md line {where}: one verdict a hand"
    for verdict, hand in zip(verdicts, hands):
        segments = verdict.split(" · ")
        assert segments[0] in ("complete", "incomplete", "invalid")
        assert any(s == "no findings" or s.startswith("findings ") for s in segments)
        def said(start, segments=segments):
            return any(s.startswith(start) for s in segments)
        if hand["status"] == "complete":  # the guide says all of the money, and the outcome
            assert said("nets ") and said("pot ") and (said("winner") or said("no winner")), where
            assert said("bonuses ") == bool(hand["bonuses"]), where
            assert said("carry out ") == (hand["carry_out"] != "0.00"), where
            assert all(said(f"side {g['game']} ") for g in hand["side_games"]), where
        assert said("result ") == (hand["result_agrees"] is not None), where
        for segment in segments:
            said, got = expected_of(segment, hand)
            assert said == got, f"guide.md line {where}: {segment!r}"
