"""`play` in Spanish (issue 12): its help, the banner and the prompt, `help`, `state`, `log`,
`settle`, refusals with their rule codes, the end of a hand, through the real session (a pipe
and a pseudo-terminal) under LANG=es_NI.UTF-8 and --lang es; the Spanish verbs and command
names taken and completed, the book storing the English canonical line; English unchanged."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

import pexpect
from sqlmodel import select

from desmoche_ref import i18n
from desmoche_ref.findings import render
from desmoche_ref.notation.parser import VERBS
from desmoche_ref.play.complete import candidates
from desmoche_ref.play.typed import SHORT, Command, help_text, read
from desmoche_ref.play.prompt import prompt_text, state_lines
from desmoche_ref.store.read import hands as H
from desmoche_ref.store.db import open_book
from desmoche_ref.store.schema.models import Hand
from test_play_lines import friday_referee
from test_play_terminal import ACCEPTED, PROMPT, book_path, expect_shown, stored, type_line  # noqa: F401

ROOT = pathlib.Path(__file__).parent.parent
FRIDAY = [line for line in (ROOT / "tests" / "conformance" / "friday.dsm").read_text().splitlines()
          if line and not line.startswith("[")]
CLEAN = {k: v for k, v in os.environ.items() if k not in ("DESMOCHE_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
ES = {"LANG": "es_NI.UTF-8"}
PLAYERS = {"Ana", "Beto", "Carla", "Friday"}
# what is the same in both languages: the notation a recorder types (verbs, short forms, `to`,
# the side game oro, `new --side`), and `total`, a Spanish word as well
SAME_WORDS = PLAYERS | set(VERBS) | set(SHORT) | {"to", "oro", "new", "side", "x", "total"}
CARD = re.compile(r"(?<!\w)(10|[2-9TJQKA])[shdc♠♥♦♣](?!\w)")
es = i18n.translations("es").gettext


def neutral(line: str) -> bool:
    """A line with no word to translate: cards, amounts, names, notation."""
    return set(re.findall(r"[^\W\d_]+", CARD.sub(" ", line))) <= SAME_WORDS


def play(url, text, *args, **env):
    """`play` fed `text` through a pipe, going on past refused lines (--keep-going): these tests
    read every refusal. In-process (conftest.invoke), answered as the process would answer:
    the pseudo-terminal tests below run the real process."""
    from conftest import invoke

    return invoke("play", "--keep-going", "--db", url, *args, input=text, cwd=ROOT,
                  env={"DESMOCHE_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None, **env})


def friday_table(url):
    book = open_book(url)
    with book.write() as s:
        H.create_table(s, "Friday", ["Ana", "Beto", "Carla"], 1000, options="todo",
                       sides=[("oro", 500, ["Ana", "Beto", "Carla"])])
    book.engine.dispose()


def stored_lines(url) -> list:
    book = open_book(url)
    with book.read() as s:
        hand = s.exec(select(Hand).where(Hand.number == 1)).one()
        lines = [r.line for r in H.live_events(H.events(s, hand))]
    book.engine.dispose()
    return lines


# Friday typed at a Spanish table: Spanish commands and verbs, an out-of-turn draw, the end
TYPED = (["estado", "nueva --dealer Ana"] + FRIDAY[:7] + ["robar Beto 2d", "bajar Beto 2s 2d 2c"]
         + FRIDAY[9:10] + ["draw Ana 4d", "historial x", "ayuda"] + FRIDAY[10:] + ["cuentas", "fin", "cuentas"])


@pytest.mark.slow
def test_a_night_piped_in_spanish_reads_in_spanish_and_stores_the_notation(book_url):
    friday_table(book_url)
    run = play(book_url, "\n".join(TYPED) + "\n", **ES)
    assert (run.returncode, run.stderr) == (1, "")
    out = run.stdout.splitlines()
    assert out[:3] == [
        "1: todavía no hay mano en la mesa Friday: `nueva --dealer NOMBRE` reparte la primera",
        "mano 1 en la mesa Friday: reparte Ana; apuesta 10.00; juegos secundarios: oro 5.00 (Ana Beto Carla)",
        "13: rechazado: R7.6 el siguiente robo es del jugador a la derecha de Beto: Carla, no Ana (no se guardó nada)",
    ]
    assert out[3] == "14: historial no lleva argumentos (`ayuda` lista los comandos)"
    assert out[4] == ("Escriba una jugada por línea, como la escribe la notación (`draw Beto 2d` o "
                      "`robar Beto 2d`, `meld Carla 9s 9d 9c`);")
    assert "  draw JUGADOR CARTA                       robar      dr" in out
    assert out[out.index("  new, nueva [--dealer J] [--side \"JUEGO APUESTA JUGADORES…\"]… [--no-sides]") + 1] == (
        "      cierra esta mano (asentando su liquidación) y reparte la siguiente: el reparto pasa a la "
        "derecha y los botes acumulados entran solos")
    settle = out.index("mesa Friday: la noche hasta ahora, 0 manos saldadas en el libro")
    assert out[settle:] == [
        "mesa Friday: la noche hasta ahora, 0 manos saldadas en el libro",
        "mano   repartidor  resultado   Ana  Beto  Carla",
        "-----  ----------  ---------  ----  ----  -----",
        "total                         0.00  0.00   0.00",
        "la mano 1 terminó pero todavía no está saldada en el libro (`fin` o `nueva` la asientan): "
        "Ana -25.00, Beto -10.00, Carla 35.00",
        "mesa Friday mano 1: Carla gana con diez cartas en la mesa (jugada 28)",
        "  bote 30.00, acumulado que entra 0.00, acumulado que sale 0.00",
        "  Beto paga a Carla 10.00 de Mico",
        "  Ana paga a Carla 10.00 de Mico",
        "  juego secundario oro: bote 15.00 para Beto con Q♦",
        "jugador    neto",
        "-------  ------",
        "Ana      -25.00",
        "Beto     -10.00",
        "Carla     35.00",
        "",
        "mesa Friday: la noche hasta ahora, 1 mano saldada en el libro",
        "mano   repartidor  resultado      Ana    Beto  Carla",
        "-----  ----------  ----------  ------  ------  -----",
        "1      Ana         Carla gana  -25.00  -10.00  35.00",
        "total                          -25.00  -10.00  35.00",
    ]
    # the Spanish verbs are stored as the notation writes them; the refused draw is not stored
    assert stored_lines(book_url) == FRIDAY + ["end"]


@pytest.mark.slow
def test_no_spanish_line_is_its_english_twin_and_lang_chooses(tmp_path):
    urls = {name: str(tmp_path / f"{name}.db") for name in ("en", "es", "lang-es", "lang-en")}
    for url in urls.values():
        friday_table(url)
    text = "\n".join(TYPED) + "\n"
    english = play(urls["en"], text)
    spanish = play(urls["es"], text, **ES)
    assert play(urls["lang-es"], text, "--lang", "es").stdout == spanish.stdout
    assert play(urls["lang-en"], text, "--lang", "en", **ES).stdout == english.stdout
    en, es_lines = english.stdout.splitlines(), spanish.stdout.splitlines()
    assert ("13: refused: R7.6 the next draw is by the player to the right of Beto: Carla, not Ana "
            "(nothing stored)") in en
    assert [line for line in es_lines if line in set(en) and not neutral(line)] == []
    assert len(es_lines) == len(en) + 1  # the Spanish help shows `robar Beto 2d` among its examples


@pytest.mark.slow
def test_state_and_log_in_spanish(tmp_path):
    url = str(tmp_path / "book.db")
    friday_table(url)
    run = play(url, "\n".join(["new --dealer Ana"] + FRIDAY[:10] + ["estado", "deshacer", "log", "state x"]) + "\n",
               "--lang", "es")
    out = run.stdout.splitlines()
    assert out[1:11] == [
        # the options' on and off in Spanish (issue 33); their names and other values the notation's
        "mesa Friday, mano 1 · reparte Ana · apuesta 10.00 · acumulado 0.00 · todo=sí strict=no "
        "forcing=no auto=sí hand-melds=sí color=color escalera=a23-high side-nowin=carry dq-bonus=pay",
        "jugador  estado  mano                        mesa",
        "-------  ------  --------------------------  -----------------",
        "Ana      juega   4♠ 5♠ 6♠ 8♥ J♥ Q♥ J♦ A♣ 8♣  (arriba del palo)",
        "Beto     juega   3♠ 4♥ 10♥ 8♦ Q♦ J♣          2♠ 2♦ 2♣",
        "Carla    juega   A♠ 9♠ K♠ 2♥ 3♥ 5♦ 6♦ 9♣ K♣  (arriba del palo)",
        "en oferta: 7♣ (pagada por Beto); puede tomarla: nadie",
        "pila de descarte: (vacía)",
        "mazo: 24 cartas",
        "turno: le toca robar a Carla · en oferta 7♣ de Beto",
    ]
    # after the first draw no announcement or declaration would count: not offered (issue 33)
    assert out[11] == ("puede seguir: falta Ana Beto Carla; mostrar Ana Beto Carla; pasar Beto; "
                       "reclamar Ana Carla; tocar Ana Beto Carla; robar Carla")
    assert out[12] == "jugada 11: se deshizo la jugada 10 (pagar Beto 7c)"  # its Spanish verb (issue 33)
    # the log in the session's words: its Spanish verbs and commands (issue 33); the book keeps the English
    assert re.fullmatch(r"  11  \d\d:\d\d:\d\d[+-]\d\d:\d\d  deshacer  \(deshace la jugada 10\)", out[-2])
    assert re.fullmatch(r"  10  \d\d:\d\d:\d\d[+-]\d\d:\d\d  pagar Beto 7c  \(deshecha por la jugada 11\)", out[-3])
    assert out[-1] == "15: estado no lleva argumentos (`ayuda` lista los comandos)"


def test_the_help_of_play_in_spanish():
    run = subprocess.run([sys.executable, "-m", "desmoche_ref", "play", "--help"], capture_output=True,
                         text=True, cwd=ROOT, env={**CLEAN, "PYTHONPATH": str(ROOT), **ES})
    lines = run.stdout.splitlines()
    assert lines[:3] == ["Uso: python -m desmoche_ref play [OPCIONES]", "",
                         "  Arbitra una mesa toda la noche: cada jugada, juzgada y guardada al instante."]
    at = lines.index("  --table NOMBRE  La mesa donde anotar. Por defecto: donde usted trabajó por")
    assert lines[at + 1] == "                  última vez en este libro."
    assert "  Ejemplos:" in lines and "Opciones:" in lines
    assert any(line.startswith("  --lang [en|es]") for line in lines)
    lang = subprocess.run([sys.executable, "-m", "desmoche_ref", "play", "--help", "--lang", "es"],
                          capture_output=True, text=True, cwd=ROOT, env={**CLEAN, "PYTHONPATH": str(ROOT)})
    assert lang.stdout == run.stdout
    english = subprocess.run([sys.executable, "-m", "desmoche_ref", "play", "--help"], capture_output=True,
                             text=True, cwd=ROOT, env={**CLEAN, "PYTHONPATH": str(ROOT)}).stdout.splitlines()
    assert english[2] == "  Referee a table all night: type each move, see it judged and stored at once."
    # the same in both: the examples' command lines
    assert [line for line in lines if line in set(english) and line.strip()] == [
        "    desmoche-ref play --table Friday", "    desmoche-ref play --db night.db < moves.txt",
        "    printf 'new --dealer Ana\\ndr Beto 2d\\n' | desmoche-ref play --table Friday",
        "    desmoche-ref play --keep-going < night.txt"]


def test_a_carried_pot_a_foul_and_another_recorder_in_spanish(tmp_path, capsys, monkeypatch):
    """In this process (the shell's language from the environment, as without --lang)."""
    from desmoche_ref.cli.play import OK, REFUSED, handle, open_table as Recorder, run_piped
    from desmoche_ref.play.script import night_script

    monkeypatch.setenv("DESMOCHE_LANG", "es")
    setup, lines = night_script((ROOT / "tests" / "conformance" / "no-winner.dsm").read_text())
    book = open_book(str(tmp_path / "book.db"))
    with book.write() as s:
        H.create_table(s, "T", list(setup.players), setup.bet, setup.rules, setup.options.changes_from(setup.rules))
    capsys.readouterr()
    # (a peek before any card went by is refused live, issue 33: the table names another foul)
    assert run_piped(Recorder(book), [line + "\n" for line in lines + ["settle", "nueva",
                                                                        "falta Ana other se fue de la mesa"]]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "mano 1 en la mesa T: reparte Dani; apuesta 5.00; juegos secundarios: ninguno"
    assert out[1] == "mesa T mano 1: sin ganador (jugada 25): el bote de 20.00 se acumula"
    assert out[-6:] == [
        "1      Dani        sin ganador  -5.00  -5.00  -5.00  -5.00",
        "total                           -5.00  -5.00  -5.00  -5.00",
        "acumulado en los botes: principal 20.00",
        "mano 2 en la mesa T: reparte Ana; apuesta 5.00; juegos secundarios: ninguno; acumulado que entra 20.00",
        "29: falta F5 Ana: se fue de la mesa — aplicada, descalificado",
        "26 líneas guardadas",  # issue 33: what the moves did
    ]
    first, second = Recorder(book), Recorder(book)
    assert handle(first, "perdonar Ana") == OK
    # the same line by the second recorder, who had not seen it: stored once (issue 33)
    assert handle(second, "forgive Ana") == OK
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "falta F5 Ana: se fue de la mesa — perdonada"
    assert out[1].startswith("ya anotada (jugada 2): perdonar Ana") and len(out) == 2
    assert handle(second, "draw Ana 2d") == REFUSED  # on the hand as the book has it: the deal first
    assert handle(first, "state") == OK
    book.engine.dispose()


# ------------------------------------------------------------ the words, without a shell
def test_the_spanish_verbs_and_commands_are_read_as_the_english_ones():
    assert read("robar Beto 2d", 8).text == "draw Beto 2d"
    assert read("bajar Beto 2s 2d 2c  # de una", 9)[1:] == ("meld Beto 2s 2d 2c", " de una")
    assert read("FIN", 30).text == "end"
    assert [read(word, 1) for word in ("estado", "Deshacer", "historial", "cuentas", "ayuda", "salir")] == [
        Command("state", ""), Command("undo", ""), Command("log", ""), Command("settle", ""),
        Command("help", ""), Command("quit", "")]
    assert read("nueva --dealer Beto", 1) == Command("new", "--dealer Beto")
    # `a` where the English takes `to` (N4.10); the book stores `to`
    assert read("agregar Carla 7d a 6d", 27).text == "add Carla 7d to 6d"
    assert read("+ Carla 7d A 6d", 27).text == "add Carla 7d to 6d"


def test_tab_offers_the_spanish_words_first_in_spanish():
    ref = friday_referee(7)
    # after the cambio an announcement would be void (R4.5): not offered first (issue 33)
    assert candidates("", ref, spanish=True) == ("", [
        "falta", "mostrar", "declarar", "robar", "cortar", "repartir", "devolver", "anunciar", "cambio",
        "reclamar", "tocar", "bajar", "agregar", "pagar", "pasar", "perdonar", "fin",
        "estado", "deshacer", "nueva", "anular", "cuentas", "cerrar", "historial", "ayuda", "salir"])
    assert candidates("p", ref, spanish=True) == ("p", ["pagar", "pasar", "perdonar", "pay", "pass"])
    assert candidates("rob", ref, spanish=True) == ("rob", ["robar"])
    assert candidates("dra", ref, spanish=True) == ("dra", ["draw"])   # the English verbs still complete
    assert candidates("robar ", ref, spanish=True) == ("", ["Beto", "Ana", "Carla"])
    assert candidates("robar Beto 2", ref, spanish=True) == ("2", ["2d"])
    assert candidates("nueva --dealer ", ref, spanish=True) == ("", ["Ana", "Beto", "Carla"])
    assert candidates("p", ref) == ("p", ["pay", "pass"])               # English: as before
    # after `agregar` the word before a meld's card is `a` (N4.10); after `add`, `to`
    ref = friday_referee(27)
    assert candidates("agregar Carla 7d ", ref, spanish=True)[1][-1] == "a"
    assert candidates("add Carla 7d ", ref, spanish=True)[1][-1] == "to"
    assert candidates("agregar Carla 7d a ", ref, spanish=True) == (
        "", ["4d", "5d", "6d", "9s", "9d", "9c", "Ah", "2h", "3h"])
    assert candidates("agregar Carla 7d a 6d ", ref, spanish=True) == ("", [])


def test_the_prompt_and_the_view_render_in_spanish():
    def say(message):
        return render(message, es)

    assert say(prompt_text(7, friday_referee(0))) == "M7 · el reparto: reparte Ana > "
    assert say(prompt_text(7, friday_referee(4))) == "M7 · el cambio: falta pasar una carta: Beto, Carla y Ana > "
    assert say(prompt_text(7, friday_referee(7))) == "M7 · le toca robar a Beto > "
    assert say(prompt_text(7, friday_referee(9))) == "M7 · le toca a Beto · tomó 2♦, ahora paga > "
    assert say(prompt_text(7, friday_referee(17))) == "M7 · le toca a Carla · en oferta 9♦ de Beto > "
    assert say(prompt_text(7, friday_referee(28))) == \
        "M7 · terminada: Carla gana con diez cartas en la mesa · falta mostrar: Beto Q♦ (oro) · `fin` cierra la mano > "
    assert say(prompt_text(7, friday_referee(29))) == \
        "M7 · terminada: Carla gana con diez cartas en la mesa · `fin` cierra la mano > "
    assert say(prompt_text(3, friday_referee(29), closed=True, spanish=True)) == \
        "M3 · cerrada · `nueva` reparte la siguiente > "
    assert say(prompt_text(None, None, spanish=True)) == "todavía no hay mano: nueva --dealer NOMBRE > "
    lines = state_lines(7, friday_referee(29), "Friday", True, False, lambda rows, headers: "", spanish=True)
    assert say(lines[0]).startswith("mesa Friday, mano 7 (cerrada) · reparte Ana · apuesta 10.00")
    assert say(lines[-2]) == "turno: cerrada: `deshacer` la reabre, `nueva` reparte la siguiente"
    assert help_text(say, spanish=True).splitlines()[4] == \
        "Jugadas (verbo y argumentos; el verbo en español; formas cortas):"


# ------------------------------------------------------------ at a terminal
@pytest.mark.slow
def test_the_spanish_table_at_a_terminal(book_path, tmp_path):
    environ = {**CLEAN, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "NO_COLOR": "1",
               "XDG_DATA_HOME": str(tmp_path / "data"), "PROMPT_TOOLKIT_NO_CPR": "1", **ES}
    child = pexpect.spawn(sys.executable, ["-m", "desmoche_ref", "play", "--db", book_path],
                          env=environ, encoding="utf-8", timeout=20, dimensions=(30, 200))
    child.logfile_read = open(tmp_path / "terminal.log", "w")
    child.expect_exact("mesa Friday: mano 1. `ayuda` lista las jugadas y los comandos; Tab completa; Ctrl-D sale.")
    child.expect_exact(PROMPT)
    child.expect_exact("M1 · el reparto: reparte Ana >")
    for line in FRIDAY[:7]:
        type_line(child, line)
    child.expect_exact("M1 · le toca robar a Beto >")
    # Tab completes the Spanish verb, the name and the card; the menu says what a word stands for
    child.send("p\t")
    child.expect_exact("en inglés: pay")
    child.sendintr()
    child.expect_exact(PROMPT)
    for keys, shown in (("rob\t", "robar"), (" Be\t", "Beto"), (" 2\t", "2d")):
        child.send(keys)
        expect_shown(child, shown)
    type_line(child, "")
    child.expect_exact("M1 · le toca a Beto · en oferta 2♦ de Beto >")
    type_line(child, "bajar Beto 2s 2d 2c")
    child.expect_exact("M1 · le toca a Beto · tomó 2♦, ahora paga >")
    type_line(child, "pagar Beto 7c")
    child.expect_exact("M1 · le toca robar a Carla · en oferta 7♣ de Beto >")
    type_line(child, "draw Ana 4d")  # out of turn: refused with the rule, nothing stored
    assert "R7.6 el siguiente robo es del jugador a la derecha de Beto: Carla, no Ana" in child.before
    type_line(child, "ayuda")
    assert "Comandos de la sesión (en inglés o en español):" in child.before
    child.sendline("salir")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert stored(book_path) == FRIDAY[:10]
