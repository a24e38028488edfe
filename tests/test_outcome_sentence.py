"""A hand's outcome is worded in one place, describe.outcome_text: `check`'s verdict, `view`'s
turn and the play prompt say it in the same sentence, in English and in Spanish (through the
real commands, under --lang es and LANG=es_NI.UTF-8)."""

import json
import pathlib
from collections import namedtuple

import pytest

from conftest import invoke
from desmoche_ref import i18n
from desmoche_ref.describe import LINE, MOVE, outcome_text
from desmoche_ref.findings import M, render
from desmoche_ref.play.prompt import prompt_text
from test_play_lines import friday_referee

ROOT = pathlib.Path(__file__).parent.parent
LANGUAGE_UNSET = dict.fromkeys(("DESMOCHE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"))
es = i18n.translations("es").gettext
# a hand of each kind of outcome: a win, no winner, an automatic win, a split automatic win
HANDS = [("friday.dsm", 1), ("club-night.dsm", 2), ("club-night.dsm", 4), ("split-peladilla.dsm", 1)]
# (language, how the run is told it)
LANGUAGES = [("en", (), {}), ("es", ("--lang", "es"), {}), ("es", (), {"LANG": "es_NI.UTF-8"})]


def cli(*args, **env):
    """The command in-process, its language only from `args` and `env`."""
    return invoke(*args, cwd=ROOT, env={**LANGUAGE_UNSET, **env})


def words(message, lang):
    return str(message) if lang == "en" else render(message, es)


@pytest.mark.parametrize("lang, option, env", LANGUAGES, ids=["en", "es-option", "es-locale"])
@pytest.mark.parametrize("name, number", HANDS, ids=[f"{n}-{h}" for n, h in HANDS])
def test_check_and_view_say_a_hands_outcome_in_the_one_sentence(name, number, lang, option, env):
    path = f"sample_logs/{name}"
    verdict = json.loads(cli("check", "--json", path).stdout)["files"][0]["hands"][number - 1]
    said = outcome_text(verdict["outcome"], verdict["pot"], LINE, verdict["status"])  # check's
    seen = outcome_text(verdict["outcome"])  # view's: the table has no settlement, so no pot
    check = cli(*option, "check", path, **env).stdout.splitlines()
    view = cli(*option, "view", path, "--hand", str(number), **env).stdout.splitlines()
    assert words(M("{path} hand {number} (line {line}): {outcome}", path=path, number=number,
                   line=verdict["line"], outcome=said), lang) in check
    assert words(M("turn: {turn}", turn=M("over: {outcome}", outcome=seen)), lang) in view
    # the same words: a hand with no winner adds what its pot does, once the settlement knows it
    check_words, view_words = words(said, lang), words(seen, lang)
    if verdict["outcome"]["kind"] == "no-winner":
        assert check_words.startswith(view_words + ": ") and verdict["pot"] in check_words
    else:
        assert check_words == view_words


def test_the_sentences_as_they_read():
    win = {"kind": "win", "winners": ["Carla"], "auto": None, "line": 39}
    split = {"kind": "auto-win", "winners": ["Ana", "Beto"], "auto": "peladilla", "line": 17}
    none = {"kind": "no-winner", "winners": [], "auto": None, "line": 87}
    cases = [
        (outcome_text(win), "Carla wins with ten cards down (line 39)",
         "Carla gana con diez cartas en la mesa (línea 39)"),
        (outcome_text(win, cite=MOVE), "Carla wins with ten cards down (move 39)",
         "Carla gana con diez cartas en la mesa (jugada 39)"),
        (outcome_text(win, cite=None), "Carla wins with ten cards down", "Carla gana con diez cartas en la mesa"),
        (outcome_text(split), "Ana and Beto win by peladilla (split) (line 17)",
         "Ana y Beto ganan con Peladilla (repartido) (línea 17)"),
        (outcome_text(split, cite=None), "Ana and Beto win by peladilla (split)",
         "Ana y Beto ganan con Peladilla (repartido)"),
        (outcome_text(none, "40.00"), "no winner (line 87): the pot of 40.00 carries",
         "sin ganador (línea 87): el bote de 40.00 se acumula"),
        (outcome_text(none, "40.00", MOVE), "no winner (move 87): the pot of 40.00 carries",
         "sin ganador (jugada 87): el bote de 40.00 se acumula"),
        (outcome_text(none, "40.00", None), "no winner: the pot of 40.00 carries",
         "sin ganador: el bote de 40.00 se acumula"),
        (outcome_text(none), "no winner (line 87)", "sin ganador (línea 87)"),
        (outcome_text(none, cite=None), "no winner", "sin ganador"),
        (outcome_text(None, status="incomplete"), "incomplete (the record stops before the hand is over)",
         "incompleta (la anotación termina antes de que acabe la mano)"),
    ]
    error = namedtuple("Error", "line code")(19, "R7.5")
    cases += [(outcome_text(win, status="invalid", error=error), "invalid at line 19 (R7.5)",
               "inválida en la línea 19 (R7.5)"),
              (outcome_text(win, cite=MOVE, status="invalid", error=error), "invalid at move 19 (R7.5)",
               "inválida en la jugada 19 (R7.5)")]
    assert [(str(m), render(m, es)) for m, _, _ in cases] == [(english, spanish) for _, english, spanish in cases]


def test_the_prompt_says_the_outcome_in_the_same_sentence_without_its_line():
    ref = friday_referee(28)  # add Carla 7d: ten down
    o = ref.outcome
    sentence = outcome_text({"kind": o.kind, "winners": ["Carla"], "auto": o.auto, "line": o.line}, cite=None)
    prompt = prompt_text(7, ref)
    assert prompt == f"H7 · over: {sentence} · to show: Beto Q♦ (oro) · `end` closes the hand > "
    assert render(prompt, es) == (f"M7 · terminada: {render(sentence, es)} · falta mostrar: Beto Q♦ (oro) · "
                                  "`fin` cierra la mano > ")
    assert str(outcome_text({"kind": o.kind, "winners": ["Carla"], "auto": o.auto, "line": o.line})) \
        == f"{sentence} (line {o.line})"
