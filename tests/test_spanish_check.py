"""check, view, fmt and simulate in Spanish (issue 12): the findings, outcomes, settlements,
tables and help through the real commands, under LANG=es_NI.UTF-8 and --lang es; English
(and every --json) byte for byte as before."""

import json
import os
import pathlib
import pickle
import re
import string
import subprocess
import sys

import pytest

from conftest import invoke
from desmoche_ref import i18n
from desmoche_ref.findings import M, Message, render
from desmoche_ref.melds import why_not_meld
from desmoche_ref.cards import parse_card

ROOT = pathlib.Path(__file__).parent.parent
CLEAN = {k: v for k, v in os.environ.items() if k not in ("DESMOCHE_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
LANGUAGE_UNSET = dict.fromkeys(("DESMOCHE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"))
ES = {"LANG": "es_NI.UTF-8"}
PLAYERS = {"Ana", "Beto", "Carla", "Dani"}


def cli(*args, stdin=None, **env):
    """The command in-process, its language only from `args` and `env`."""
    return invoke(*args, input=stdin, cwd=ROOT, env={**LANGUAGE_UNSET, **env})


def process(*args, **env):
    """The command as a process of its own, its language only from `args` and `env`."""
    return subprocess.run([sys.executable, "-m", "desmoche_ref", *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env={**CLEAN, **env})


def neutral(line: str) -> bool:
    """A line with no word of any language: table rules, players' names and amounts."""
    return set(re.findall(r"[^\W\d_]+", line)) <= PLAYERS


def test_club_night_reads_entirely_in_spanish():
    english = cli("check", "sample_logs/club-night.dsm")
    spanish = cli("check", "sample_logs/club-night.dsm", **ES)
    assert spanish.returncode == english.returncode == 0 and spanish.stderr == ""
    en, es = english.stdout.splitlines(), spanish.stdout.splitlines()
    assert len(en) == len(es)
    assert [s for e, s in zip(en, es) if e == s and not neutral(s)] == []
    # a hand's outcome, a finding, its pot and its settlement, word for word
    at = es.index("sample_logs/club-night.dsm mano 3 (línea 89): Beto gana con diez cartas en la mesa "
                  "(línea 127)")
    assert es[at + 1:at + 8] == [
        "sample_logs/club-night.dsm:107: R4.4 el reclamo de oro de Ana es nulo: A♦ se pasó en el cambio",
        "  bote 80.00, acumulado que entra 40.00, acumulado que sale 0.00",
        "  Dani paga a Beto 10.00 de Mico",
        "  Ana paga a Beto 10.00 de Mico",
        "  Carla paga a Beto 10.00 de Mico",
        "  juego secundario oro: bote 35.00 para Dani con K♦",
        "  el resultado de la mesa (Beto) coincide",
    ]
    assert es[at + 8].split() == ["jugador", "neto"]
    assert ("sample_logs/club-night.dsm mano 2 (línea 44): sin ganador (línea 87): el bote de 40.00 "
            "se acumula") in es
    assert "sample_logs/club-night.dsm mano 4 (línea 129): Ana gana con Cuatro Cuerpos (línea 148)" in es
    assert "  Dani paga a Carla 10.00 de Arriba del Palo" in es
    assert "sample_logs/club-night.dsm:212: F2 Dani: revisó la pila de descarte — perdonada" in es
    assert ("sample_logs/club-night.dsm:323: R6.4 la declaración de Color de Beto es nula: el Color "
            "necesita las nueve cartas de un solo color; el juego sigue") in es
    assert es[-1] == "Qué significa un código: desmoche-ref rules CÓDIGO (p. ej. desmoche-ref rules R4.4)"


@pytest.mark.slow
def test_lang_en_is_todays_english_byte_for_byte_and_json_never_changes():
    for args in (["sample_logs/club-night.dsm"], ["--summary", "--session", "sample_logs/club-night.dsm"],
                 ["sample_logs/dispute-not-a-meld.dsm", "sample_logs/misdeals.dsm"]):
        english = cli("check", *args)
        assert cli("check", "--lang", "en", *args, **ES).stdout == english.stdout
        assert cli("--lang", "en", "check", *args, DESMOCHE_LANG="es").stdout == english.stdout
        assert cli("check", "--lang", "es", *args).stdout != english.stdout
        assert cli("check", "--json", *args, **ES).stdout == cli("check", "--json", *args).stdout


def test_a_finding_in_spanish_with_its_reason_inside_and_its_cards():
    run = cli("check", "--lang", "es", "sample_logs/dispute-not-a-meld.dsm")
    assert run.returncode == 1
    assert run.stdout.splitlines() == [
        "sample_logs/dispute-not-a-meld.dsm mano 1 (línea 3): inválida en la línea 18 (R8.1)",
        "sample_logs/dispute-not-a-meld.dsm:18: R8.1 Q♠ K♠ A♠ no es una combinación: una escalera es "
        "de valores seguidos, el as solo abajo (Q-K-A y K-A-2 no son escaleras)",
        "  la mesa antes del error: desmoche-ref view sample_logs/dispute-not-a-meld.dsm --at 17",
        "",
        "Qué significa un código: desmoche-ref rules CÓDIGO (p. ej. desmoche-ref rules R8.1)",
    ]
    ascii_run = cli("check", "--ascii", "sample_logs/dispute-draw-out-of-turn.dsm", **ES)
    assert ("sample_logs/dispute-draw-out-of-turn.dsm:24: R7.6 el siguiente robo es del jugador a la "
            "derecha de Ana: Beto, no Dani") in ascii_run.stdout.splitlines()


def test_the_summary_and_the_session_in_spanish():
    out = cli("check", "--summary", "--session", "sample_logs/club-night.dsm", "--lang", "es").stdout
    lines = out.splitlines()
    assert ("sample_logs/club-night.dsm mano 9 (línea 304): Dani gana con Peladilla (línea 325); "
            "Ana -25.00, Beto -25.00, Carla -25.00, Dani 135.00") in lines
    assert ("sample_logs/club-night.dsm: 11 manos (11 completas), 7 observaciones "
            "(check sin --summary las lista)") in lines
    assert "sample_logs/club-night.dsm sesión: 11 manos" in lines
    header = next(line for line in lines if line.startswith("mano "))
    assert header.split() == ["mano", "línea", "repartidor", "resultado", "Ana", "Beto", "Carla", "Dani"]
    assert any(line.split()[:4] == ["1", "6", "Ana", "gana"] and "Carla" in line for line in lines)
    assert any(line.split()[:5] == ["4", "129", "Dani", "Ana", "(Cuatro"] for line in lines)


@pytest.mark.slow
def test_the_help_of_check_view_fmt_and_simulate_in_spanish():
    check = cli("check", "--help", **ES).stdout.splitlines()
    assert check[0] == "Uso: python -m desmoche_ref check [OPCIONES] ARCHIVO..."
    assert check[2] == "  Repasa las anotaciones de las manos y da el veredicto del árbitro."
    assert "  --json             Imprime el veredicto como un solo documento JSON (N8)." in check
    assert any(line.startswith("  --encoding NOMBRE  Lee los archivos en esta codificación") for line in check)
    assert "  Ejemplos:" in check and "Opciones:" in check
    assert cli("check", "--help", "--lang", "es").stdout == "\n".join(check) + "\n"
    view = cli("view", "--lang", "es", "--help").stdout.splitlines()
    assert view[:3] == ["Uso: python -m desmoche_ref view [OPCIONES] ARCHIVO", "",
                        "  Muestra la mesa como quedó después de una línea de la anotación."]
    assert "  --json             Imprime la mesa como JSON." in view
    fmt = cli("fmt", "--help", **ES).stdout.splitlines()
    assert "  -i, --in-place     Reescribe cada archivo en su forma canónica." in fmt
    simulate = cli("simulate", "--help", **ES).stdout.splitlines()
    assert simulate[2] == "  Escribe una sesión de manos jugadas por bots como una anotación .dsm."
    assert any(line.startswith("  --lang [en|es]") for line in simulate)
    assert cli("view", "--help", "--lang", "en", **ES).stdout == cli("view", "--help").stdout


@pytest.mark.slow
def test_view_in_spanish():
    run = cli("view", "--lang", "es", "sample_logs/forcing-table.dsm", "--at", "20")
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert lines[0] == "sample_logs/forcing-table.dsm mano 1 (línea 2), después de la línea 20: incompleta"
    assert lines[1].startswith("reparte Carla · apuesta 10.00, acumulado 0.00 · desmoche: todo=no")  # on/off in Spanish
    assert lines[2].split() == ["jugador", "estado", "mano", "mesa"]
    assert lines[-5:] == [
        "en oferta: 9♥ (robada por Beto); puede tomarla: Beto",
        "pila de descarte: K♦",
        "mazo: 23 cartas",
        "turno: si nadie toma 9♥, roba Carla",
        "siguiente: robar (Carla); bajar, agregar (Beto); reclamar, tocar (Ana, Beto, Carla); "
        "pasar (Ana); en cualquier momento: falta, mostrar, anunciar, declarar (Ana, Beto, Carla)",
    ]
    for path in ("sample_logs/forcing-table.dsm", "sample_logs/dispute-not-a-meld.dsm"):
        assert cli("view", "--json", path, **ES).stdout == cli("view", "--json", path).stdout
    invalid = cli("view", "sample_logs/dispute-not-a-meld.dsm", **ES).stdout.splitlines()
    assert invalid[:3] == [
        "sample_logs/dispute-not-a-meld.dsm mano 1 (línea 3), al final de la anotación: inválida",
        "sample_logs/dispute-not-a-meld.dsm:18: R8.1 Qs Ks As no es una combinación: una escalera es "
        "de valores seguidos, el as solo abajo (Q-K-A y K-A-2 no son escaleras)",
        "la mesa antes de la línea 18:",
    ]


@pytest.mark.slow
def test_the_runtime_errors_in_spanish():
    missing = cli("view", "--lang", "es", "no-such.dsm")
    assert (missing.returncode, missing.stderr) == (2, "no-such.dsm: error: no se puede leer no-such.dsm: "
                                                       "no existe el archivo\n")
    too_far = cli("view", "sample_logs/solo.dsm", "--at", "999", **ES)
    assert (too_far.returncode, too_far.stderr) == (2, "Error: --at 999: sample_logs/solo.dsm tiene 26 líneas\n")
    check = cli("check", "no-such.dsm", **ES)
    assert check.returncode == 2
    assert check.stdout == "no-such.dsm: error: no se puede leer no-such.dsm: no existe el archivo\n"
    bad = "[Players \"Ana Beto\"]\n[Dealer \"Ana\"]\n\ndeal Ana Zz\n"
    fmt = cli("fmt", "--lang", "es", "-", stdin=bad)
    assert fmt.returncode == 1
    assert fmt.stderr == "-:4: N2.1 'Zz' no es una carta (las cartas son como As, Td, 10♠)\n"
    both = cli("fmt", "--in-place", "--check", "x.dsm", **ES)
    assert both.returncode == 2 and "Error: --in-place y --check no van juntos" in both.stderr


def test_a_message_is_its_english_text_and_renders_in_spanish():
    es = i18n.translations("es").gettext
    cards = [parse_card(c) for c in ("4h", "5s", "6h")]
    why = why_not_meld(cards)
    message = M("{cards} is not a meld: {why}", cards="4h 5s 6h", why=why)
    assert message == "4h 5s 6h is not a meld: a run is one suit" and isinstance(message, str)
    assert json.dumps({"message": message}) == '{"message": "4h 5s 6h is not a meld: a run is one suit"}'
    assert render(message, es) == "4h 5s 6h no es una combinación: una escalera es de un solo palo"
    assert render("plain text", es) == "plain text"
    assert pickle.loads(pickle.dumps(message)).template == "{cards} is not a meld: {why}"
    try:
        message.template = "x"
    except AttributeError:
        pass
    else:
        raise AssertionError("a Message can be changed")
    assert isinstance(why, Message) and why.args == {}


def test_every_translation_keeps_the_placeholders_of_its_message():
    import importlib.util

    spec = importlib.util.spec_from_file_location("catalog", ROOT / "tools" / "catalog.py")
    catalog = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(catalog)
    fields = lambda text: sorted({f for _, f, _, _ in string.Formatter().parse(text) if f})  # noqa: E731
    wrong = []
    for m in catalog.read_catalog():
        if not m.id:
            continue
        ids = m.id if m.pluralizable else (m.id,)
        for text in (m.string if m.pluralizable else (m.string,)):
            if "{" in "".join(ids) and fields(text) != fields(ids[-1]):
                wrong.append((ids[0], text))
    assert wrong == []


def test_the_session_ledger_in_spanish():
    path = "tests/conformance/no-winner.dsm"
    out = cli("check", "--session", path, **ES).stdout
    assert out[out.index(f"{path} sesión"):].splitlines()[-5:] == [  # no Closed tag: still carried (N9.4)
        "cantidad  dinero fuera de los totales de los jugadores",
        "--------  " + "-" * 90,
        "   20.00  bote principal, línea 1: venía de antes de la anotación",
        '  -40.00  bote principal, línea 1: sigue acumulado: la mesa no se deshizo (sin [Closed "yes"], N9.4)',
        "  -20.00  = los totales finales de los jugadores, juntos",
    ]
    english = cli("check", "--session", "--json", path).stdout
    assert cli("check", "--session", "--json", path, **ES).stdout == english
    assert '"why": "brought in from before the record"' in english
