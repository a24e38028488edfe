"""The Spanish documentation: docs/es/REGLAS.md is the rulebook with the same codes, packaged
for `desmoche-ref rules`; docs/es/guia.md's records are real, check as its (Spanish) verdicts
say, and are the English guide's records with Spanish verbs."""

import os
import pathlib
import re
import pytest

from desmoche_ref import rulebook
from desmoche_ref.notation.parser import SPANISH_VERBS
from test_guide import check_records, expected_of, guide_records

ROOT = pathlib.Path(__file__).parent.parent
GUIA = ROOT / "docs" / "es" / "guia.md"
EN, ES = rulebook.load("en"), rulebook.load("es")

# The Spanish verdict's words, back to the English guide's (tests/test_guide.py reads those).
SEGMENTS = [
    (r"completa", "complete"), (r"incompleta", "incomplete"), (r"inválida", "invalid"),
    (r"ganan (.+) en la línea (\d+)", lambda m: f"winners {m[1].replace(' y ', ' and ')} at line {m[2]}"),
    (r"gana (\S+) por (\S+) en la línea (\d+)", r"winner \1 by \2 at line \3"),
    (r"gana (\S+) en la línea (\d+)", r"winner \1 at line \2"),
    (r"sin ganador en la línea (\d+)", r"no winner at line \1"),
    (r"bote (\S+)", r"pot \1"), (r"pasa a la siguiente (\S+)", r"carry out \1"),
    (r"viene de antes (\S+)", r"carry in \1"), (r"netos (.+)", r"nets \1"),
    (r"bonos (.+)", lambda m: "bonuses " + m[1].replace(" de ", " from ")),
    (r"secundario (\S+) bote (\S+) para (.+)", lambda m: f"side {m[1]} pot {m[2]} to " + m[3]
     .replace("nadie", "nobody").replace(" y ", " and ").replace(", pasa ", ", carries ")
     .replace(", devuelto", ", refunded")),
    (r"resultado coincide", "result agrees"), (r"resultado no coincide", "result disagrees"),
    (r"sin hallazgos", "no findings"),
    (r"hallazgos (.+)", lambda m: "findings " + m[1].replace(" en la línea ", " at line ")
     .replace(" perdonada", " forgiven")),
]


def in_english(segment: str) -> str:
    for pattern, english in SEGMENTS:
        if re.fullmatch(pattern, segment):
            return re.sub(pattern, english, segment)
    raise AssertionError(f"guia.md: a verdict segment the test does not read: {segment!r}")


GUIA_RECORDS = guide_records(GUIA)
GUIDE_RECORDS = guide_records()


def test_the_spanish_docs_are_the_packaged_ones():
    assert (ROOT / "docs/es/REGLAS.md").read_bytes() == (ROOT / "desmoche_ref/data/es/REGLAS.md").read_bytes()


def test_reglas_has_every_code_of_the_rulebook_in_the_same_order():
    assert list(ES.rules) == list(EN.rules)
    assert ES.sections == EN.sections
    for code, rule in ES.rules.items():
        assert rule.title and rule.source == EN.rules[code].source, code
        assert (rule.text == "") == (EN.rules[code].text == ""), code
        assert rule.section == EN.rules[code].section, code
    assert ES.get("R9").title == "Forzar (opción forcing)"
    assert ES.get("F3").title.startswith("carta a la mano: ")
    assert ES.get("N4.10").text == EN.get("N4.10").text  # the notation is not translated


def test_reglas_uses_the_games_own_words():
    text = (ROOT / "docs/es/REGLAS.md").read_text(encoding="utf-8")
    for word in ("cambio", "desmoche", "bote", "Mico", "Arriba del Palo", "Peladilla",
                 "Cuatro Cuerpos", "Color", "oro", "corazón", "flor", "escalera", "pasar", "falta"):
        assert word in text, word
    assert "RULING" not in text and "DECISIÓN" in text


def test_the_spanish_guide_has_the_english_guides_records_with_spanish_verbs():
    """Record by record the same lines, the verbs aside: the guía's in Spanish, but for its
    last (section 16 shows the English verbs, the English guide's section 16 the Spanish)."""
    assert len(GUIA_RECORDS) == len(GUIDE_RECORDS)
    for (es, _, where), (en, _, _) in zip(GUIA_RECORDS, GUIDE_RECORDS):
        assert english_verbs(es) == english_verbs(en), f"guia.md line {where}"
    verbs = [line.split()[0] for text, _, _ in GUIA_RECORDS for line in text.splitlines()
             if line and not line.startswith("[")]
    assert set(verbs[:-11]) == {"repartir", "cambio", "robar", "bajar", "pagar", "pasar",
                                "agregar", "declarar", "fin", "anunciar", "mostrar", "perdonar",
                                "falta"}
    assert set(verbs[-11:]) == {"deal", "cambio", "draw", "meld", "pay", "add"}


def english_verbs(text: str) -> list:
    """The record's lines with each Spanish verb made English (the Event tag's text aside),
    and `agregar`'s `a CARD` the `to CARD` it stands for (N4.10)."""
    lines = []
    for line in text.splitlines():
        verb, _, rest = line.partition(" ")
        if verb == "agregar":
            rest = re.sub(r" a (\S+)$", r" to \1", rest)
        if not line.startswith("[Event"):
            lines.append(f"{SPANISH_VERBS.get(verb, verb)} {rest}")
    return lines


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Every record of the guía judged by one run of the real command, under Spanish."""
    return check_records(GUIA_RECORDS, tmp_path_factory.mktemp("guia"), {**os.environ, "LANG": "es_NI.UTF-8"})


@pytest.mark.parametrize("number", range(len(GUIA_RECORDS)), ids=lambda n: f"guia-line-{GUIA_RECORDS[n][2]}")
def test_check_judges_each_record_of_the_guia_as_it_says(judged, number):
    text, verdicts, where = GUIA_RECORDS[number]
    hands = judged[number]["hands"]
    assert verdicts and len(verdicts) == len(hands), f"guia.md line {where}: one verdict a hand"
    for verdict, hand in zip(verdicts, hands):
        for segment in verdict.split(" · "):
            said, got = expected_of(in_english(segment), hand)
            assert said == got, f"guia.md line {where}: {segment!r}"
    # and the English guide says the same of the record's English twin
    english = [" · ".join(map(in_english, v.split(" · "))) for v in verdicts]
    assert english == GUIDE_RECORDS[number][1], f"guia.md line {where}"


def test_the_docs_link_only_to_files_that_exist():
    for path in sorted((ROOT / "docs" / "es").glob("*.md")):
        for target in re.findall(r"\]\(([^)#:]+)\)", path.read_text(encoding="utf-8")):
            assert (path.parent / target).exists(), (path.name, target)
