"""The language: --lang, DESMOCHE_LANG, the locale; the Spanish catalog complete and compiled;
the top-level and `rules` help and messages in Spanish, through the real command."""

import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from conftest import invoke
from desmoche_ref import i18n

ROOT = pathlib.Path(__file__).parent.parent
spec = importlib.util.spec_from_file_location("catalog", ROOT / "tools" / "catalog.py")
catalog = importlib.util.module_from_spec(spec)
spec.loader.exec_module(catalog)

CLEAN_OUT = ("DESMOCHE_LANG", "LC_ALL", "LC_MESSAGES", "LANG")
CLEAN = {k: v for k, v in os.environ.items() if k not in CLEAN_OUT}


def cli(*args, **env):
    """The command in-process, its language only from `env` and `args`."""
    return invoke(*args, env={**dict.fromkeys(CLEAN_OUT), **env})


@pytest.mark.parametrize("option, env, lang", [
    (None, {}, "en"),
    (None, {"LANG": "es_NI.UTF-8"}, "es"),
    (None, {"LANG": "es"}, "es"),
    (None, {"LANG": "en_US.UTF-8"}, "en"),
    (None, {"LANG": "C.UTF-8"}, "en"),
    (None, {"LANG": "estonian"}, "en"),                      # es… is a language, not a prefix
    (None, {"LC_MESSAGES": "es_HN.UTF-8", "LANG": "en_US"}, "es"),
    (None, {"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "es_NI"}, "en"),  # LC_ALL first (POSIX)
    (None, {"LC_ALL": "", "LANG": "es_NI.UTF-8"}, "es"),     # an empty variable is not set
    (None, {"DESMOCHE_LANG": "es", "LANG": "en_US"}, "es"),
    (None, {"DESMOCHE_LANG": "en", "LC_ALL": "es_NI.UTF-8"}, "en"),
    (None, {"DESMOCHE_LANG": "fr", "LANG": "es_NI.UTF-8"}, "es"),  # a language we lack: ignored
    ("es", {"DESMOCHE_LANG": "en"}, "es"),
    ("en", {"LANG": "es_NI.UTF-8"}, "en"),
])
def test_the_language_is_the_option_then_desmoche_lang_then_the_locale(option, env, lang):
    assert i18n.choose(option, env) == lang


@pytest.fixture(scope="module")
def template():
    """The program's messages, extracted once for the module's checks (seconds each time)."""
    return catalog.extract()


@pytest.mark.slow
def test_every_marked_message_has_its_spanish_and_the_mo_is_the_po_compiled(template):
    assert catalog.problems(template=template) == []
    messages = [m for m in template if m.id]
    assert len(messages) >= 20  # the scan sees the help pages and the rules command's messages
    assert any(isinstance(m.id, str) and m.id.startswith("Look up a rule of the rulebook by its code or a word.\n\n")
               for m in messages)


@pytest.mark.slow
def test_the_check_catches_a_missing_translation_and_a_stale_mo(tmp_path, template):
    po = tmp_path / "desmoche_ref.po"
    text = catalog.PO.read_text(encoding="utf-8")
    stale = text.replace('msgstr "Opciones"', 'msgstr "Las opciones"')
    po.write_text(stale, encoding="utf-8")
    assert catalog.problems(po, catalog.MO, template) == [f"{catalog.MO} is not desmoche_ref.po compiled: "
                                                "run python tools/catalog.py"]
    po.write_text(text.replace('msgstr "Opciones"', 'msgstr ""'), encoding="utf-8")
    assert catalog.problems(po, catalog.MO, template)[0] == "no Spanish for: 'Options'"
    mo = tmp_path / "desmoche_ref.mo"
    mo.write_bytes(catalog.compiled(catalog.read_catalog(po)))
    assert catalog.problems(po, mo, template) == ["no Spanish for: 'Options'"]


def test_the_catalog_ships_in_the_package():
    toml = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"locale/*/LC_MESSAGES/*.mo"' in toml and '"data/es/*.md"' in toml
    assert pathlib.Path(i18n.catalog_path("es")) == catalog.MO
    assert i18n.translations("es").gettext("Options") == "Opciones"
    assert i18n.translations("en").gettext("Options") == "Options"


@pytest.mark.slow
def test_english_never_opens_the_catalog():
    """Start-up: the catalog is read only when Spanish is chosen."""
    probe = ("import gettext, sys\n"
             "def refuse(*a, **k): raise SystemExit('the catalog was opened')\n"
             "gettext.GNUTranslations.__init__ = refuse\n"
             "from desmoche_ref.cli import main\n"
             "main(sys.argv[1:])\n")
    for args in (["check", str(ROOT / "sample_logs" / "solo.dsm")], ["rules", "R9.1"], ["--help"]):
        run = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True,
                             timeout=60, env=CLEAN)
        assert run.returncode == 0 and "catalog" not in run.stderr, (args, run.stderr)
    # nor when click refuses the command line: its own words stay as it writes them
    for args in (["check"], ["chek"], ["view", "x.dsm", "--at", "abc"], ["--lang", "fr", "rules"]):
        run = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True,
                             timeout=60, env=CLEAN)
        assert run.returncode == 2 and "catalog" not in run.stderr, (args, run.stderr)
        assert run.stderr.splitlines()[-1].startswith("Error: ")
    run = subprocess.run([sys.executable, "-c", probe, "--lang", "es", "rules", "--help"],
                         capture_output=True, text=True, timeout=60, env=CLEAN)
    assert run.returncode == 1 and "the catalog was opened" in run.stderr


R91_ES = ["R9 Forzar (opción forcing) — REGLAS.md", "",
          "R9.1 Con `forcing`, una carta en oferta que le sirve a una combinación de la"]


@pytest.mark.parametrize("args, env", [
    (["--lang", "es", "rules", "R9.1"], {}),
    (["rules", "R9.1"], {"LANG": "es_NI.UTF-8"}),
    (["rules", "--lang", "es", "R9.1"], {"LANG": "en_US.UTF-8"}),
    (["rules", "R9.1"], {"DESMOCHE_LANG": "es"}),
    (["--lang=es", "rules", "r9.1"], {"DESMOCHE_LANG": "en"}),
])
def test_rules_prints_the_spanish_rule_under_spanish(args, env):
    run = cli(*args, **env)
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout.splitlines()[:3] == R91_ES
    assert run.stdout.splitlines()[-1] == "más, gana si tiene las diez abajo, y si no, paga."


@pytest.mark.slow
def test_lang_en_gives_todays_english_under_a_spanish_locale():
    english = cli("rules", "R9.1")
    assert english.stdout.splitlines()[0] == "R9 Forcing (option forcing) — RULES.md"
    assert cli("--lang", "en", "rules", "R9.1", LANG="es_NI.UTF-8").stdout == english.stdout
    assert cli("rules", "R9.1", LANG="es_NI.UTF-8", DESMOCHE_LANG="en").stdout == english.stdout
    assert cli("--lang", "en", "--help", LANG="es_NI.UTF-8").stdout == cli("--help").stdout


@pytest.mark.slow
def test_the_rules_commands_own_messages_in_spanish():
    missing = cli("--lang", "es", "rules", "R99")
    assert (missing.returncode, missing.stdout) == (1, "")
    assert missing.stderr == ("Error: no hay regla R99 en el reglamento "
                              "(desmoche-ref rules lista las secciones)\n")
    nothing = cli("rules", "zzzz", LANG="es_NI.UTF-8")
    assert (nothing.returncode, nothing.stderr) == (1, "Error: ninguna regla menciona 'zzzz'\n")
    one = cli("--lang", "es", "rules", "Mico").stdout.splitlines()
    assert one == ["R12.2  Mico", "R12.4  Color",
                   "2 reglas mencionan 'Mico'; desmoche-ref rules CÓDIGO imprime una."]
    single = cli("--lang", "es", "rules", "comodines").stdout.splitlines()
    assert single == ["R1.1  Una baraja estándar de 52 cartas, sin comodines",
                      "1 regla menciona 'comodines'; desmoche-ref rules CÓDIGO imprime una."]
    # accent-blind: DECISION finds DECISIÓN, every RULING of the rulebook (the notation's stay English)
    accents = [line.split()[0] for line in cli("--lang", "es", "rules", "DECISION").stdout.splitlines()]
    rulings = [line.split()[0] for line in cli("rules", "RULING").stdout.splitlines()]
    assert accents[:-1] == [code for code in rulings[:-1] if not code.startswith("N")]
    assert accents[-1] == "20" and len(rulings) == 23
    sections = cli("--lang", "es", "rules").stdout.splitlines()
    assert sections[0] == "El reglamento (REGLAS.md):"
    assert "  R14  Faltas y descalificación (R14.1-R14.5, F1-F5)" in sections
    assert "La notación de las anotaciones (NOTATION.md):" in sections
    assert sections[sections.index("La notación de las anotaciones (NOTATION.md):") + 1:-1] == [
        "  N1   Líneas (N1.1-N1.5)", "  N2   Cartas (N2.1-N2.5)", "  N3   Etiquetas (N3.1-N3.2)",
        "  N4   Eventos (N4.1-N4.10)", "  N5   Lo que informa el árbitro (N5.1-N5.4)",
        "  N6   Anotaciones abiertas y cerradas (N6.1-N6.2)", "  N7   Forma canónica e ida y vuelta",
        "  N8   El informe para programas (JSON)", "  N9   Sesiones (check --session, e import) (N9.1-N9.6)"]
    assert sections[-1] == ("desmoche-ref rules CÓDIGO imprime una regla; desmoche-ref rules "
                            "PALABRA busca las reglas que la mencionan.")
    assert cli("--lang", "es", "rules", "N4.3").stdout.startswith("N4 Eventos — NOTATION.md\n\nN4.3 The card")


def test_a_word_finds_the_section_it_titles_in_spanish_too():
    forzar = cli("--lang", "es", "rules", "forzar").stdout.splitlines()
    assert forzar == ["R7.5  Quién puede tomar la carta en oferta", "R9    Forzar (opción forcing)",
                      "2 reglas mencionan 'forzar'; desmoche-ref rules CÓDIGO imprime una."]


def test_every_section_of_the_notation_has_its_spanish_title():
    from desmoche_ref.rulebook import NOTATION_SECTIONS, load

    english, spanish = load("en"), load("es")
    notation = [code for code in english.sections if code.startswith("N")]
    assert [english.rules[c].title for c in notation] == list(NOTATION_SECTIONS)
    for code in notation:
        assert spanish.rules[code].title != english.rules[code].title, code
        assert spanish.rules[code].text == english.rules[code].text  # the notation's words stay


def test_json_keeps_its_codes_and_sources_in_spanish():
    import json

    found = json.loads(cli("--lang", "es", "rules", "--json", "R12.2").stdout)
    assert [(r["code"], r["title"], r["section"], r["source"]) for r in found] == [
        ("R12.2", "Mico", "R12", "RULES.md")]
    assert found[0]["text"].startswith("**Mico**: por cada escalera del ganador")


def test_the_top_level_help_in_spanish():
    run = cli("--lang", "es", "--help")
    lines = run.stdout.splitlines()
    assert lines[0] in ("Uso: python -m desmoche_ref [OPCIONES] COMANDO [ARGUMENTOS]...",  # click < 8.4.2
                        "Uso: python -m desmoche_ref [OPCIONES] [COMANDO] [ARGUMENTOS]...")
    assert lines[2] == "  desmoche-ref: el árbitro y el libro de cuentas del Desmoche."
    assert "  Ejemplos:" in lines and "Opciones:" in lines
    assert "  -h, --help      Muestra esta ayuda y termina." in lines
    assert "  --version       Muestra la versión y termina." in lines
    at = lines.index("Comandos:")
    section = " ".join(" ".join(lines[at + 1:]).split())  # click wraps to the terminal's width
    for row in ("check Repasa las anotaciones de las manos y da el veredicto del árbitro.",
                "fmt Reescribe las anotaciones en la forma canónica (N7).",
                "view Muestra la mesa como quedó después de una línea de la anotación.",
                "rules Busca una regla del reglamento por su código o por una palabra.",
                "simulate Escribe una sesión de manos jugadas por bots.",
                "settle-up Quién le paga a quién para saldar las cuentas."):
        assert row in section
    assert cli("--help", LANG="es_NI.UTF-8").stdout == run.stdout
    assert cli(LANG="es_NI.UTF-8").stdout == run.stdout  # bare desmoche-ref prints the help


@pytest.mark.slow
def test_the_rules_help_in_spanish_whatever_the_order_of_its_options():
    run = cli("rules", "--help", "--lang", "es")
    lines = run.stdout.splitlines()
    assert lines[0] == "Uso: python -m desmoche_ref rules [OPCIONES] [CÓDIGO | PALABRA...]"
    assert lines[2] == "  Busca una regla del reglamento por su código o por una palabra."
    assert "  --json          Imprime en JSON las reglas encontradas." in lines
    assert "    desmoche-ref rules forzar" in lines
    assert cli("--lang", "es", "rules", "--help").stdout == run.stdout
    assert cli("rules", "-h", LANG="es_NI.UTF-8").stdout == run.stdout
    english = cli("rules", "--help").stdout.splitlines()
    assert english[0] == "Usage: python -m desmoche_ref rules [OPTIONS] [CODE | WORD...]"
    assert "  --json          Print the rules found as JSON." in english


def test_a_bad_language_is_refused_in_one_line():
    run = cli("--lang", "fr", "rules", "R9.1")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.splitlines()[-1] == ("Error: Invalid value for '--lang': 'fr' is not one of "
                                           "'en', 'es'.")


@pytest.mark.skipif(shutil.which("desmoche-ref") is None, reason="the console script is not installed")
def test_the_installed_command_speaks_spanish_too():
    run = subprocess.run(["desmoche-ref", "--lang", "es", "rules", "R9.1"], capture_output=True,
                         text=True, timeout=60, env={**CLEAN, "PYTHONPATH": str(ROOT)})
    assert run.stdout.splitlines()[:3] == R91_ES
