"""The rulebook in code (desmoche_ref/rulebook.py) and `desmoche-ref rules`: every code the
program can cite is a rule of the shipped rulebook, and the rulebook reads as it is written."""

import ast
import importlib.metadata
import importlib.util
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig

import pytest

from conftest import invoke

from desmoche_ref import rulebook
from desmoche_ref.referee import judge_bytes
from desmoche_ref.session import check_session
from desmoche_ref.simulate import simulate_session

ROOT = pathlib.Path(__file__).parent.parent
PACKAGE = ROOT / "desmoche_ref"
CODE = re.compile(r"[RNF]\d+(?:\.\d+[a-z]?)?")
CITED = re.compile(r"(?<![\w.])([RNF]\d+(?:\.\d+[a-z]?)?)(?!\w)")

BOOK = rulebook.load()
PURELIB = "import sysconfig; print(sysconfig.get_paths()['purelib'])"


def cli(*args, cwd=None):
    return invoke(*args, cwd=cwd)


@pytest.mark.parametrize("name", rulebook.SOURCES)
def test_the_docs_are_the_packaged_rulebook(name):
    assert (ROOT / "docs" / name).read_bytes() == (PACKAGE / "data" / name).read_bytes()


def code_literals():
    """Every string in the package's code that is a code (fail(..., "R7.6", ...), FOUL_CODES, …),
    and every code cited inside a string (messages, docstrings: "(R1.1)")."""
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if CODE.fullmatch(node.value):
                    yield path.relative_to(ROOT), node.lineno, node.value
                else:
                    for code in CITED.findall(node.value):
                        yield path.relative_to(ROOT), node.lineno, code


def test_every_code_in_the_code_is_in_the_rulebook():
    literals = list(code_literals())
    assert len({code for _, _, code in literals}) > 60  # the scan sees the engine's codes
    missing = [(str(p), line, code) for p, line, code in literals if BOOK.get(code) is None]
    assert missing == []


def finding_codes(data: bytes) -> set:
    report = judge_bytes(data)
    codes = {code for hand in report.hands for _, code, _ in hand.findings()}
    codes |= {code for _, code, _ in check_session(report).problems}
    return codes


@pytest.mark.slow
def test_every_finding_on_the_samples_and_a_simulated_session_is_in_the_rulebook():
    codes = set()
    for path in sorted((ROOT / "sample_logs").glob("*.dsm")) + sorted((ROOT / "tests" / "conformance").glob("*.dsm")):
        codes |= finding_codes(path.read_bytes())
    codes |= finding_codes(simulate_session(300, players=3, seed=11).encode())
    codes |= finding_codes(simulate_session(100, players=4, seed=5).encode())
    assert {"R8.1", "R9.1", "F1", "F4", "R13.2"} <= codes  # errors, fouls and warnings seen
    assert sorted(c for c in codes if BOOK.get(c) is None) == []


def test_titles_are_short_and_taken_from_the_words():
    titles = BOOK.titles()
    assert titles["R7.5"] == "Who may take the card on offer"
    assert titles["R1.1"] == "One standard 52-card deck, no jokers"
    assert titles["F3"] == "hand: a player put a card into their hand from the stock or from the discard…"
    assert titles["N3"] == "Tags"
    assert titles["R14.4"] == "Play goes on among the players who have neither passed nor been…"
    assert all(0 < len(t) <= 80 for t in titles.values())


def test_rules_prints_a_rule_as_the_rulebook_words_it():
    run = cli("rules", "R9.1")
    assert run.returncode == 0
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    bullet = text[text.index("- R9.1 "):text.index("- R9.2 ")].rstrip()
    words = "\n".join(line[2:] for line in bullet.split("\n"))  # without the bullet and indent
    assert words.startswith("R9.1 Under `forcing`, a card on offer") and words.endswith("otherwise pay.")
    assert run.stdout == f"R9 Forcing (option forcing) — RULES.md\n\n{words}\n"
    assert cli("rules", "r9.1").stdout == run.stdout  # any case


def test_rules_prints_a_foul_and_a_notation_rule():
    assert cli("rules", "F3").stdout == ("R14 Fouls and disqualification — RULES.md\n\nF3 hand — a player put "
                                         "a card into their hand from the stock or from the discard pile.\n")
    run = cli("rules", "N2.5")
    assert run.stdout.startswith("N2 Cards — NOTATION.md\n\nN2.5 A card a player lays, pays, passes or shows")


def test_rules_finds_the_rules_that_mention_a_word():
    run = cli("rules", "forcing")
    assert run.returncode == 0
    assert run.stdout == (
        "R7.5  Who may take the card on offer\n"
        "R7.8  Taking is voluntary (RULING), except under option forcing (R9)\n"
        "R9    Forcing (option forcing)\n"  # a section, by its title
        "R9.1  Under forcing, a card on offer that fits a meld on the table — it…\n"
        "N4.3  The card on offer that nobody takes needs no line: the next draw says…\n"
        "5 rules mention 'forcing'; desmoche-ref rules CODE prints one.\n")
    found = json.loads(cli("rules", "--json", "up", "the", "tree").stdout)
    assert [r["code"] for r in found] == ["R12.3", "R12.4", "R12.5"]


def test_bare_rules_lists_the_sections():
    run = cli("rules")
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert lines[0] == "The rulebook (RULES.md):"
    assert "  R9   Forcing (option forcing) (R9.1-R9.4)" in lines
    assert "  R14  Fouls and disqualification (R14.1-R14.5, F1-F5)" in lines
    assert "The record notation (NOTATION.md):" in lines
    assert "  N4   Events (N4.1-N4.10)" in lines
    assert "  N9   Sessions (check --session, and import) (N9.1-N9.6)" in lines
    assert len([l for l in lines if l.startswith("  ")]) == 15 + 9


@pytest.mark.parametrize("args", [("R99.1",), ("N10",), ("zzzz",)])
def test_rules_that_are_not_there_get_one_line(args):
    run = cli("rules", *args)
    assert run.returncode == 1 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and run.stderr.startswith("Error: no rule")


@pytest.mark.slow
def test_rules_works_from_a_wheel_installed_outside_the_tree(tmp_path):
    """`pip install .` of a copy into a fresh virtual environment, run from elsewhere."""
    copy = tmp_path / "src"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(  # what `git clone` would not bring
        ".git", "__pycache__", "*.egg-info", "build", ".pytest_cache", ".hypothesis", ".venv", "*.db",
        ".benchmarks"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True,
                   timeout=120)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    # pip, click and tabulate from the environment running the tests (itself maybe a virtual
    # environment, which --system-site-packages does not see): a path file, read after the
    # new environment's own packages, so desmoche_ref comes from the wheel alone
    site_dir = subprocess.run([str(bin_dir / "python"), "-c", PURELIB], capture_output=True,
                              text=True, check=True, timeout=60).stdout.strip()
    here = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    pathlib.Path(site_dir, "test-deps.pth").write_text("\n".join(sorted(here)) + "\n")
    # Without build isolation where this Python can build a wheel itself (no download);
    # setuptools before 70.1 needs the `wheel` package for that.
    offline = importlib.util.find_spec("wheel") is not None or _setuptools_version() >= (70, 1)
    install = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--no-deps",
                              *(["--no-build-isolation"] if offline else []), str(copy)],
                             capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stderr
    shutil.rmtree(copy)  # nothing may come from the source tree
    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([str(bin_dir / "desmoche-ref"), "rules", "R9.1"], cwd=away, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("R9 Forcing (option forcing) — RULES.md\n\nR9.1 Under `forcing`, a card")
    where = subprocess.run([str(bin_dir / "python"), "-c", "import desmoche_ref; print(desmoche_ref.__file__)"],
                           cwd=away, env=env, capture_output=True, text=True, timeout=60)
    assert str(venv) in where.stdout


def _setuptools_version() -> tuple:
    try:
        return tuple(int(p) for p in importlib.metadata.version("setuptools").split(".")[:2])
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return (0, 0)
