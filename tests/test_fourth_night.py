"""The fourth club night (issue 33): what a club still tripped over at the table.

`rules` prints plain text, a read command never makes a book, the table imported is the
table in use, settle-up words a carried pot as what it is, the ratings say their scale and
why a table is empty, names are of one script (N3.1) — through the verbs, `play` and the
reads, in English and Spanish (docs/rulings.md). A line sent twice, void hands and the
table's close have their own files (test_repeats.py, test_void_hands.py, test_table_reopen.py)."""

import os
import pathlib
import sys

import pexpect
import pytest

from conftest import invoke

from desmoche_ref import rulebook

ROOT = pathlib.Path(__file__).parent.parent


# ------------------------------------------------------------------ rules: plain text (item 9)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_rules_prints_the_rulebook_without_its_markdown_emphasis(lang):
    book = rulebook.load(lang)
    emphasised = [r.code for r in book.rules.values() if "**" in r.text]
    assert "R7.6" in emphasised and len(emphasised) > 5
    for code in emphasised:
        out = invoke("--lang", lang, "rules", code).stdout
        assert "**" not in out, code
    out = invoke("--lang", lang, "rules", "R7.6").stdout.splitlines()
    assert out[2] == {"en": "R7.6 Turn order. When a card on offer is taken by nobody, it is dead (it",
                      "es": "R7.6 El orden de los turnos. Cuando nadie toma una carta en oferta, la"}[lang]
    # --json keeps the rulebook's own text
    assert invoke("--lang", lang, "rules", "R7.6", "--json").stdout.count("**") == 2


@pytest.mark.slow
@pytest.mark.parametrize("no_colour", [False, True])
def test_rules_at_a_terminal_shows_the_lead_in_bold_or_plain(tmp_path, no_colour):
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color", LANG="C.UTF-8")
    env.pop("NO_COLOR", None)
    env.pop("DESMOCHE_LANG", None)
    if no_colour:
        env["NO_COLOR"] = "1"
    child = pexpect.spawn(sys.executable, ["-m", "desmoche_ref", "rules", "R7.6"], env=env,
                          encoding="utf-8", timeout=20, dimensions=(30, 200))
    child.expect(pexpect.EOF)
    out = child.before
    assert "**" not in out
    if no_colour:
        assert "R7.6 Turn order. When a card" in out and "\x1b[" not in out
    else:
        assert "R7.6 \x1b[1mTurn order.\x1b[0m When a card" in out
