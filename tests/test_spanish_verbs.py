"""N4.10: the Spanish verbs. A record written with them is the same record: every sample and
conformance record, its verbs made Spanish, checks with the same verdict as its English twin,
and `fmt` writes it back with the English verbs — through the real commands."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

from desmoche_ref.notation.parser import SPANISH_VERBS, VERBS, parse_event
from desmoche_ref.notation.writer import write_event

ROOT = pathlib.Path(__file__).parent.parent
RECORDS = sorted((ROOT / "sample_logs").glob("*.dsm")) + sorted((ROOT / "tests" / "conformance").glob("*.dsm"))
TO_SPANISH = {english: spanish for spanish, english in SPANISH_VERBS.items()}
ENV = {k: v for k, v in os.environ.items() if k not in ("DESMOCHE_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}


def cli(*args):
    return subprocess.run([sys.executable, "-m", "desmoche_ref", *map(str, args)], capture_output=True,
                          text=True, timeout=120, env=ENV)


def in_spanish(text: str) -> str:
    """The record with every verb in Spanish; every third one capitalised (verbs read in any case)."""
    lines = []
    for number, line in enumerate(text.split("\n")):
        stripped = line.lstrip()
        verb = stripped.split(" ", 1)[0].split("#", 1)[0]
        if verb in TO_SPANISH:
            spanish = TO_SPANISH[verb].capitalize() if number % 3 == 0 else TO_SPANISH[verb]
            line = line[: len(line) - len(stripped)] + spanish + stripped[len(verb):]
        lines.append(line)
    return "\n".join(lines)


def test_every_verb_has_one_spanish_form_and_no_clash():
    assert set(SPANISH_VERBS.values()) | {"cambio"} == set(VERBS)  # cambio is the same word
    assert len(TO_SPANISH) == len(SPANISH_VERBS)
    assert not set(SPANISH_VERBS) & set(VERBS)


@pytest.mark.parametrize("spanish, english", sorted(SPANISH_VERBS.items()))
def test_a_spanish_verb_reads_as_its_english_one(spanish, english):
    usage = VERBS[english][0].split()
    line = {"end": "", "announce": "Ana oro Kd", "declare": "Ana peladilla",
            "foul": "Ana peek", "add": "Ana 5c to 4c"}.get(english)
    if line is None:
        line = "Ana" + (" 7h" if len(usage) > 2 else "")
    for word in (spanish, spanish.upper()):
        ev, twin = parse_event(f"{word} {line}".strip(), 3), parse_event(f"{english} {line}".strip(), 3)
        assert ev.error is None and fields(ev) == fields(twin) and ev.verb == english
        assert write_event(ev).split()[0] == english  # the writer emits the English verb (N7)


def fields(ev) -> tuple:
    return tuple(getattr(ev, name) for name in type(ev).__slots__)


@pytest.mark.parametrize("line", ["agregar Beto 5c a 4c", "agregar Beto 5c A 4c", "add Beto 5c a 4c",
                                  "AGREGAR Beto 5c 6c a 4c"])
def test_a_stands_for_to_and_the_writer_emits_to(line):
    """N4.10: `agregar Beto 5c a 4c`, the natural Spanish, is `add Beto 5c to 4c`."""
    ev = parse_event(line, 5)
    twin = parse_event(line.replace(" a ", " to ").replace(" A ", " to "), 5)
    assert ev.error is None and fields(ev) == fields(twin)
    assert write_event(ev) == "add Beto " + " ".join(line.split()[2:-2]) + " to 4c"


def test_a_without_its_card_is_not_a_card():
    ev = parse_event("agregar Beto 5c a", 5)
    assert (ev.error.code, ev.error.message) == ("N2.1", "'a' is not a card (cards are like As, Td, 10♠)")
    ev = parse_event("agregar Beto 5c a Xz", 5)
    assert (ev.error.code, ev.error.message) == ("N2.1", "'Xz' is not a card")


@pytest.mark.slow
def test_a_live_add_takes_a_for_to_and_stores_to(live):
    live("table", "new", "t", "--players", "Ana Beto", "--bet", "10")
    live("hand", "new", "--dealer", "Ana")
    for line in ["deal Beto 2c 3c 4c 6c 7c Kd Qh 9s Js", "deal Ana Ah 3h 5h 7h 9h Jh Ks 2d 4d",
                 "cambio Beto Js", "cambio Ana 2d", "draw Beto 8c", "meld Beto 6c 7c 8c",
                 "meld Beto 2c 3c 4c", "pay Beto Kd", "draw Ana 5c"]:
        live(*line.split())
    out = live("--lang", "es", "add", "Beto", "5c", "a", "4c").output
    assert out.splitlines()[0] == "jugada 10: agregar Beto 5c a 4c"  # said in Spanish (issue 33); stored `to`
    assert live("rec", "agregar Beto Qh a 4c", status=1).output == (  # judged as `to 4c` is
        "refused: R8.2 Qh does not fit the meld of 4c: a run is one suit (nothing stored)\n")
    assert live("hand", "log").output.splitlines()[-1].endswith(" add Beto 5c to 4c")


def test_an_unknown_spanish_looking_verb_is_still_an_error():
    ev = parse_event("robe Ana 7h", 4)
    assert (ev.error.line, ev.error.code) == (4, "N4")
    assert ev.error.message.startswith("unknown verb 'robe' (verbs: cut, deal,")


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    folder = tmp_path_factory.mktemp("twins")
    pairs = []
    for path in RECORDS:
        spanish = folder / f"{path.parent.name}-{path.name}"  # friday.dsm is in both folders
        spanish.write_text(in_spanish(path.read_text(encoding="utf-8")), encoding="utf-8")
        pairs.append((path, spanish))
    return pairs


def test_the_twins_are_in_spanish(twins):
    words = set()
    for _, spanish in twins:
        words |= {line.split()[0] for line in spanish.read_text(encoding="utf-8").splitlines()
                  if line.strip() and line.split()[0].lower() in SPANISH_VERBS}
    assert {w.lower() for w in words} >= {"repartir", "robar", "bajar", "agregar", "pagar", "pasar",
                                          "declarar", "anunciar", "mostrar", "falta", "perdonar", "fin"}
    assert any(w[0].isupper() for w in words)


@pytest.mark.slow
def test_a_record_in_spanish_verbs_checks_as_its_english_twin(twins):
    english = cli("check", "--json", *[e for e, _ in twins])
    spanish = cli("check", "--json", *[s for _, s in twins])
    assert (spanish.returncode, english.returncode) == (1, 1)  # the samples hold invalid hands
    files_en, files_es = json.loads(english.stdout)["files"], json.loads(spanish.stdout)["files"]
    assert len(files_es) == len(RECORDS) and sum(len(f["hands"]) for f in files_es) > 50
    for en, es in zip(files_en, files_es):
        assert es["hands"] == en["hands"], en["path"]
    text_en = cli("check", *[e for e, _ in twins]).stdout
    text_es = cli("check", *[s for _, s in twins]).stdout
    for english, spanish in twins:  # the same report, but for the files' names
        text_en = text_en.replace(str(english), str(spanish))
    assert text_es == text_en and len(text_es.splitlines()) > 100


@pytest.mark.slow
def test_fmt_writes_a_spanish_record_with_the_english_verbs(twins):
    canon_en, canon_es = cli("fmt", *[e for e, _ in twins]), cli("fmt", *[s for _, s in twins])
    assert canon_es.returncode == canon_en.returncode
    assert canon_es.stdout == canon_en.stdout and canon_es.stdout.count("[Players ") > 50
    friday = dict(twins)[ROOT / "sample_logs" / "friday.dsm"]
    assert cli("fmt", "--check", friday).returncode == 1  # Spanish verbs are not canonical
    assert "Repartir Carla As 2h 3h 9s 9c 5d 6d Kc Qh" in friday.read_text(encoding="utf-8")
    lines = [line.split(" #")[0] for line in cli("fmt", friday).stdout.splitlines()]
    assert "deal Carla As 2h 3h 9s 9c 5d 6d Kc Qh" in lines and "draw Beto 2d" in lines
    assert not any(line.split()[0].lower() in SPANISH_VERBS for line in canon_es.stdout.splitlines()
                   if line.strip())
