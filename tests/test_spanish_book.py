"""The scorebook commands in Spanish (issue 12): table, hand, the verbs, rec, undo, verify and
db — their help, what they store, what they refuse and the store's errors — through the real
commands on a real book, under LANG=es_NI.UTF-8 and --lang es; English and every --json as
before."""

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text

from desmoche_ref.cli import main
from desmoche_ref.cli.book import book_command
from desmoche_ref.store.db import schema_head
from desmoche_ref.store.read.hands import StoreError
from conftest import recorder_of, verified
from test_live_entry import friday_table, moves_of

ROOT = pathlib.Path(__file__).parent.parent
CHOOSERS = ("DESMOCHE_LANG", "LC_ALL", "LC_MESSAGES", "LANG")
CLEAN = {k: v for k, v in os.environ.items() if k not in CHOOSERS + ("COLUMNS",)}
ES = {"LANG": "es_NI.UTF-8"}
FRIDAY = moves_of("friday.dsm")
NO_WINNER = moves_of("no-winner.dsm")  # Dani deals; the stock runs out with no winner

BOOK_COMMANDS = ["db", "db path", "db upgrade", "db check", "db stamp", "table", "table new", "table list",
                 "table use", "table bet", "table close", "hand", "hand new", "hand show", "hand log",
                 "cut", "deal", "return", "announce", "cambio", "declare", "draw", "claim", "knock",
                 "meld", "add", "pay", "pass", "show", "foul", "forgive", "end", "rec", "undo", "verify"]


def cli(*args, db, **env):
    """The real command in its own process, on the book `db`."""
    return subprocess.run([sys.executable, "-m", "desmoche_ref", *map(str, args)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env={**CLEAN, "DESMOCHE_DB": db, **env})


def command(*args, db, **env):
    """The command in-process, answered as its process would answer (conftest.invoke), in
    the environment `cli` gives it: for the tests where a process adds nothing."""
    from conftest import invoke

    return invoke(*args, env={name: None for name in CHOOSERS} | {"DESMOCHE_DB": db, **env})


class Book:
    """The commands in-process (click's CliRunner) on one book, in the language a locale
    chooses: Spanish for es_NI.UTF-8, English for none."""

    def __init__(self, url: str, locale: str | None = "es_NI.UTF-8"):
        self.url, self.locale = url, locale

    def __call__(self, *args, status=0):
        env = {name: None for name in CHOOSERS} | {"DESMOCHE_DB": self.url, "LANG": self.locale}
        result = CliRunner().invoke(main, [str(a) for a in args], env=env, terminal_width=80)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert result.exit_code == status, (args, result.exit_code, result.output)
        return result

    def json(self, *args):
        return json.loads(self(*args).stdout)


@pytest.fixture
def es(book_url):
    return Book(book_url)


@pytest.mark.slow
def test_a_verb_commands_help_page_in_spanish(tmp_path):
    db = str(tmp_path / "book.db")
    page = cli("draw", "--help", db=db, **ES)
    assert page.returncode == 0 and page.stderr == ""
    assert page.stdout == """\
Uso: python -m desmoche_ref draw [OPCIONES] JUGADOR CARTA

  El jugador voltea la carta de arriba del mazo (R7.1).

  La línea `draw JUGADOR CARTA` de la notación (N4), juzgada sobre la mano
  hasta ahora: se guarda, o se rechaza con su regla (sale con 1, no se guarda
  nada).

  Ejemplos:
    desmoche-ref draw Beto 2d
    desmoche-ref draw Beto 2d --table viernes

Opciones:
  --expect N      El número de jugada que usted vio (`hand show`): se rechaza
                  con salida 3 si la mano avanzó desde entonces.  [x>=0]
  --table NOMBRE  La mesa. Por omisión: donde usted trabajó por última vez en
                  este libro (su última escritura allí, o `table use`).
  --db URL        El libro: una URL de SQLAlchemy (sqlite:///RUTA,
                  postgresql+psycopg://USUARIO@SERVIDOR/BD) o la ruta de un
                  archivo. Por omisión: $DESMOCHE_DB, si no un libro en su
                  carpeta de datos (`desmoche-ref db path`).
  --lang [en|es]  El idioma de la salida: es (español) o en (English). Por
                  omisión: DESMOCHE_LANG, si no el locale (LANG=es_NI.UTF-8 es
                  español).
  -h, --help      Muestra esta ayuda y termina.
"""
    assert cli("draw", "--help", "--lang", "es", db=db).stdout == page.stdout
    english = cli("draw", "--help", db=db).stdout
    assert english.splitlines()[:3] == ["Usage: python -m desmoche_ref draw [OPTIONS] PLAYER CARD", "",
                                        "  The player turns up the top card of the stock (R7.1)."]
    assert cli("draw", "--help", "--lang", "en", db=db, **ES).stdout == english
    add = cli("add", "--lang", "es", "--help", db=db).stdout.splitlines()
    assert add[0] == "Uso: python -m desmoche_ref add [OPCIONES] JUGADOR CARTAS… [a CARTA]"
    assert "  La línea `add JUGADOR CARTAS… [a CARTA]` de la notación (N4), juzgada sobre" in add


def neutral(line: str) -> bool:
    """A line of a help page with no word outside quotes (a JSON key list: "superseded"}.)."""
    return not re.search(r"[^\W\d_]", re.sub(r'"[^"]*"', "", line))


def examples(page: list) -> list:
    """The lines of a help page's examples: commands as typed, the same in every language."""
    start = page.index("  Ejemplos:") + 1
    end = page.index("", start) if "" in page[start:] else len(page)
    return page[start:end]


@pytest.mark.parametrize("command", BOOK_COMMANDS)
def test_every_book_commands_help_is_spanish_but_its_examples(command, tmp_path):
    url = "sqlite:///" + str(tmp_path / "book.db")
    english = Book(url, None)(*command.split(), "--help").stdout.splitlines()
    spanish = Book(url)(*command.split(), "--help").stdout.splitlines()
    assert spanish[0].startswith("Uso: ") and "Opciones:" in spanish
    shared = [line for line in spanish if line in english and line.strip()]
    assert [line for line in shared if line not in examples(spanish) and not neutral(line)] == []
    assert Book(url)(*command.split(), "--help", "--lang", "en").stdout.splitlines() == english


@pytest.mark.slow
def test_a_table_a_hand_a_move_and_a_refusal_in_spanish(es, book_url):
    new = command("table", "new", "friday", "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo",
              "--side", "oro 5 Ana Beto Carla", db=book_url, **ES)
    assert (new.returncode, new.stderr) == (0, "")
    assert new.stdout == ("mesa friday: Ana Beto Carla, apuesta 10.00, desmoche, opciones todo, juego "
                          "secundario oro 5.00 (Ana Beto Carla) — siguiente: `desmoche-ref hand new --dealer "
                          "NOMBRE`\nlugares 1 Ana · 2 Beto · 3 Carla (un nombre por lugar: un nombre con espacio "
                          "se escribe con _, como José_María)\n")
    assert es("hand", "new", "--dealer", "Ana", "--lang", "es").stdout == (
        "mano 1 en la mesa friday: reparte Ana; apuesta 10.00; juegos secundarios: oro 5.00 (Ana Beto Carla)\n")
    assert es(*FRIDAY[0]).stdout == ("jugada 1: repartir Beto 2s 3s 4h 7c 8d Th Jc Qd Ks\n"  # its verb in Spanish
                                     "el reparto: Ana 0, Beto 9, Carla 0 cartas\n")
    for words in FRIDAY[1:6]:
        es(*words)
    assert es(*FRIDAY[6]).stdout == "jugada 7: cambio Ana 2c\nroba Beto\n"
    moved = command("--lang", "es", "draw", "Beto", "2d", db=book_url)
    assert (moved.returncode, moved.stderr) == (0, "")
    assert moved.stdout == ("jugada 8: robar Beto 2d\n"
                            "en oferta: 2♦ (robada por Beto); puede tomarla: Beto\n"
                            "si nadie la toma, roba Beto\n")
    assert es(*FRIDAY[8]).stdout == "jugada 9: bajar Beto 2s 2d 2c\nBeto tomó 2♦ y baja más, luego paga una carta\n"
    assert es(*FRIDAY[9]).stdout == ("jugada 10: pagar Beto 7c\n"
                                     "en oferta: 7♣ (pagada por Beto); puede tomarla: nadie\n"
                                     "si nadie la toma, roba Carla\n")
    refused = command("draw", "Ana", "4d", db=book_url, **ES)  # Carla draws next: out of turn (R7.6)
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr == ("rechazado: R7.6 el siguiente robo es del jugador a la derecha de Beto: "
                              "Carla, no Ana (no se guardó nada)\n")
    assert es("rec", "draw Ana 4d", "--lang", "es", status=1).stderr == refused.stderr
    assert len(es.json("hand", "log", "--all", "--json")) == 10  # nothing stored
    changed = es("draw", "Carla", "4d", "--expect", "9", status=3)
    assert changed.stderr == ("la mano cambió (ahora va en la jugada 10): mire y vuelva a intentarlo "
                              "(no se guardó nada)\n")
    english = command("draw", "Ana", "4d", db=book_url, LANG="es_NI.UTF-8", DESMOCHE_LANG="en")
    assert english.stderr == ("refused: R7.6 the next draw is by the player to the right of Beto: "
                              "Carla, not Ana (nothing stored)\n")


@pytest.mark.slow
def test_the_stores_errors_in_spanish(es, book_url, tmp_path):
    assert es("hand", "show", status=2).stderr == (
        "error: todavía no hay mesas en este libro: empiece una con `desmoche-ref table new NOMBRE "
        "--players \"Ana Beto Carla\" --bet 10`\n")
    assert es("table", "list").stdout == ("todavía no hay mesas: `desmoche-ref table new NOMBRE --players "
                                          "\"Ana Beto Carla\" --bet 10`\n")
    es("table", "new", "a", "--players", "Ana Beto", "--bet", "1")
    unknown = cli("hand", "new", "--table", "zz", db=book_url, **ES)
    assert (unknown.returncode, unknown.stdout) == (2, "")
    assert unknown.stderr == "error: no hay ninguna mesa 'zz' en este libro (`desmoche-ref table list`)\n"
    assert es("hand", "new", "--table", "zz", "--lang", "es", status=2).stderr == unknown.stderr
    assert es("hand", "show", status=2).stderr == (
        "error: todavía no hay manos en la mesa a: empiece una con `desmoche-ref hand new --dealer NOMBRE`\n")
    assert es("table", "new", "a", "--players", "Ana Beto", "--bet", "1", status=2).stderr == (
        "error: ya hay una mesa 'a' en este libro\n")
    assert es("table", "new", "c", "--players", "Ana Ana", "--bet", "1", status=2).stderr == (
        "error: N3.1 el jugador Ana está sentado dos veces\n")
    assert es("hand", "new", status=2).stderr == (
        "error: la primera mano de una mesa nombra a su repartidor: `desmoche-ref hand new --dealer NOMBRE`\n")
    assert es("hand", "new", "--dealer", "Zed", status=2).stderr == (
        "error: 'Zed' no está sentado en la mesa a (Ana Beto)\n")
    es("hand", "new", "--dealer", "Ana")
    assert es("cut", "Zed", status=1).stderr == (  # N3.1, as play and check say it
        "rechazado: N3.1 'Zed' no es jugador de esta mesa (Ana Beto); los nombres deben coincidir "
        "exactamente (no se guardó nada)\n")
    assert es("rec", "# solo una nota", status=2).stderr == (
        "error: escriba una línea de la notación, p. ej. `draw Beto 2d` (N4)\n")
    assert es("undo", status=2).stderr == "error: la mano 1 no tiene ninguna jugada que deshacer\n"
    assert es("hand", "show", "--hand", "9", status=2).stderr == "error: no hay mano 9 en la mesa a\n"
    assert es("table", "bet", "a", "5", status=2).stderr == (
        "error: R2.2 la apuesta solo cambia si todos los jugadores están de acuerdo: agregue --all-agree\n")
    assert es("table", "bet", "a", "5", "--all-agree", status=2).stderr == (
        "error: R2.2 la apuesta solo cambia entre manos: la mano 1 todavía se está jugando\n")
    assert es.json("hand", "log", "--all", "--json") == []
    # the book itself: a URL that is none, a folder that is not there, a file that is no book
    assert es("table", "list", "--db", "foo://x", status=2).stderr == (
        "error: base de datos desconocida 'foo' en foo://x: el libro es SQLite o PostgreSQL\n")
    assert es("table", "list", "--db", "://x", status=2).stderr == (
        "error: '://x' no es una URL de base de datos (sqlite:///RUTA, "
        "postgresql+psycopg://USUARIO@SERVIDOR/BD, o la ruta de un archivo)\n")
    down = es("table", "list", "--db", "postgresql+psycopg://league@127.0.0.1:1/desmoche", status=2).stderr
    assert down.startswith("error: no se llega al servidor de base de datos de "
                           "postgresql+psycopg://league@127.0.0.1:1/desmoche: ¿está en marcha? (")
    missing = tmp_path / "nowhere" / "book.db"
    assert es("table", "list", "--db", missing, status=2).stderr == (
        f"error: no se puede abrir el libro {missing}: la carpeta {missing.parent} no existe\n")
    junk = tmp_path / "junk.db"
    junk.write_text("not a database, only words " * 100)
    assert es("verify", "--db", junk, status=2).stderr == (
        f"error: sqlite:///{junk} no es un libro: el archivo no es una base de datos SQLite\n")


def test_a_plain_message_prints_as_it_is():
    """The league's commands raise StoreError with a plain str (store/write/importer.py, league.py):
    book_command prints it as it is, in either language."""
    import click

    @click.command()
    @book_command
    def refuse():
        raise StoreError("there is no table 'zz' in this book")

    for env in ({"LANG": "es_NI.UTF-8"}, {"LANG": None}):
        result = CliRunner().invoke(refuse, [], env={name: None for name in CHOOSERS} | env)
        assert (result.exit_code, result.stderr) == (2, "error: there is no table 'zz' in this book\n")


@pytest.mark.slow
def test_a_hand_shown_closed_and_undone_and_the_tables_in_spanish(es):
    friday_table(es)
    for words in FRIDAY:
        es(*words)
    shown = es("hand", "show").stdout.splitlines()
    assert shown[0] == "mesa friday mano 1 (abierta, completa), jugada 29: repartió Ana"
    assert shown[1].split() == ["jugador", "estado", "mano", "mesa"]
    assert shown[3].split()[:2] == ["Ana", "juega"]
    assert shown[6] == "mazo: 17 cartas; pila de descarte: 7♣ K♣ Q♥ K♠ A♠ A♣ 10♦"
    assert shown[7] == ("la mano terminó: Carla gana con diez cartas en la mesa. Pueden seguir líneas "
                        "`mostrar`; `desmoche-ref fin` (o el siguiente `desmoche-ref hand new`) la cierra y asienta "
                        "la liquidación")  # the verbs in Spanish too (issue 25)
    closed = es("end").stdout.splitlines()
    assert closed[:6] == ["jugada 30: fin", "mano 1 cerrada y asentada:",
                          "mesa friday mano 1: Carla gana con diez cartas en la mesa (jugada 28)",
                          "  bote 30.00, acumulado que entra 0.00, acumulado que sale 0.00",
                          "  Beto paga a Carla 10.00 de Mico", "  Ana paga a Carla 10.00 de Mico"]
    assert verified(es("verify").stdout) == "1 mano, 30 jugadas, 20 asientos: todo en orden\n"
    assert es("undo").stdout == ("jugada 31: se deshizo la jugada 30 (fin); la mano 1 está abierta otra "
                                 "vez, sus asientos revertidos\n"
                                 "la mano terminó: Carla gana con diez cartas en la mesa. Pueden seguir "
                                 "líneas `mostrar`; `desmoche-ref fin` (o el siguiente `desmoche-ref hand new`) la "
                                 "cierra y asienta la liquidación\n")
    log = es("hand", "log", "--all").stdout.splitlines()
    assert log[0] == "mesa friday mano 1: 31 filas"
    assert log[-1].endswith("deshacer  (deshace la jugada 30)")
    assert es("hand", "log").stdout.splitlines()[0] == "mesa friday mano 1: 29 jugadas"
    assert es("draw", "Ana", "2d", status=1).stderr == (
        "rechazado: N2.4 2d está en la mesa de Beto (no se guardó nada)\n")
    es("end")
    assert es("table", "bet", "friday", "2.50", "--all-agree").stdout == (
        "mesa friday: la apuesta es 2.50 desde la siguiente mano\n")
    assert es("table", "use", "friday").stdout == "se usa la mesa friday\n"
    listed = es("table", "list").stdout.splitlines()
    assert listed[0].split() == ["mesa", "jugadores", "apuesta", "reglas", "opciones", "manos"]
    assert listed[2].split() == ["*", "friday", "Ana", "Beto", "Carla", "2.50", "desmoche", "todo", "1"]
    assert es("table", "close", "friday").stdout == "mesa friday cerrada\n"
    assert es("table", "list").stdout.splitlines()[2].split()[-1] == "cerrada"
    assert es("table", "close", "friday", status=2).stderr == "error: la mesa friday ya está cerrada\n"
    # issue 33: `undo` right after the close takes it back
    assert es("undo").stdout.startswith("se deshizo `table close`: la mesa friday está abierta otra vez\n")


@pytest.mark.slow
def test_the_carried_pots_come_in_and_go_back_in_spanish(es):
    es("table", "new", "club", "--players", "Ana Beto Carla Dani", "--bet", "5", "--side", "oro 1 Ana Beto")
    es("hand", "new", "--dealer", "Dani")
    for words in NO_WINNER[:-1]:
        es(*words)
    assert es("hand", "new", status=2).stderr == (
        "error: la mano 1 de la mesa club no ha terminado: escriba `desmoche-ref fin` si la mano termina "
        "aquí (N5.4), o anote las jugadas que faltan\n")
    es("end")
    assert es("hand", "new").stdout == ("mano 2 en la mesa club: reparte Ana; apuesta 5.00; juegos "
                                        "secundarios: oro 1.00 (Ana Beto); acumulado que entra 20.00; "
                                        "acumulado de oro que entra 2.00\n")
    assert es("undo").stdout.startswith(  # right after `hand new`: it is taken back (issue 25)
        "se deshizo `hand new`: la mano 1 está abierta otra vez — la jugada 26 deshizo la jugada 25 (fin), "
        "sus asientos revertidos\n")
    es("end")  # the `end` that made it over (no winner) written again: hand 2 waits, dealt again
    assert es("hand", "show", "--json").stdout == es("hand", "show", "--json", "--hand", "2").stdout
    assert es("table", "close", "club").stdout == (
        "mesa club cerrada\n"
        "  se devuelve el bote principal acumulado (R11.5): Ana 5.00, Beto 5.00, Carla 5.00, Dani 5.00\n"
        "  se devuelve el bote acumulado de oro (R11.5): Ana 1.00, Beto 1.00\n")
    assert es("hand", "new", status=2).stderr == (
        "error: la mesa club está cerrada: `desmoche-ref undo` (o `desmoche-ref table reopen club`) la abre otra "
        "vez; una partida nueva es una mesa nueva\n")


@pytest.mark.slow
def test_verify_and_db_in_spanish_and_their_json_unchanged(es, book_url):
    friday_table(es)
    for words in FRIDAY:
        es(*words)
    es("end")
    english = Book(book_url, None)
    assert es("verify", "--json").stdout == english("verify", "--json").stdout
    assert es("table", "list", "--json").stdout == english("table", "list", "--json").stdout
    assert es("hand", "show", "--json").stdout == english("hand", "show", "--json").stdout
    engine = create_engine(book_url)
    with engine.begin() as conn:  # behind the program's back: a move rewritten, a posting changed
        conn.execute(text("UPDATE event SET line = 'draw Beto 3d' WHERE seq = 8"))
        conn.execute(text("UPDATE posting SET amount = amount + 1 WHERE id = (SELECT min(id) FROM posting)"))
    engine.dispose()
    broken = verified(es("verify", status=1).stdout).splitlines()
    who = recorder_of(book_url)  # the move's problems name who entered it, in either language
    assert broken == ["mesa friday mano 1 jugada 8: la jugada guardada 'draw Beto 3d' no coincide con su "
                      f"hash: se cambió después de anotarla (la anotó {who})",
                      f"mesa friday mano 1 jugada 8: no es lo que el diario dice que se escribió (la anotó {who})",
                      "mesa friday mano 1: el asiento 1 no es lo que el diario dice que se escribió: amount -999 "
                      "en vez de -1000",
                      "1 mano, 30 jugadas, 0 asientos: 3 problemas"]
    assert english("verify", status=1).stdout.splitlines()[0] == (
        "table friday hand 1 move 8: the stored move 'draw Beto 3d' does not match its hash: it was "
        f"changed after it was recorded (entered by {who})")
    problems = json.loads(es("verify", "--json", status=1).stdout)["problems"]
    assert problems[0]["message"].startswith("the stored move 'draw Beto 3d' does not match its hash")
    engine = create_engine(book_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE event SET line = 'draw Beto 2d' WHERE seq = 8"))
    engine.dispose()
    postings = verified(es("verify", status=1).stdout).splitlines()
    assert postings[0] == "mesa friday mano 1: sus asientos no suman cero (1 centavo)"
    assert postings[1].startswith("mesa friday mano 1: sus asientos no coinciden con su liquidación: sobra ")
    assert "; falta " in postings[1] and postings[3] == "1 mano, 30 jugadas, 20 asientos: 3 problemas"
    assert postings[2] == ("mesa friday mano 1: el asiento 1 no es lo que el diario dice que se escribió: amount "
                           "-999 en vez de -1000")
    assert es("db", "check").stdout.splitlines()[-1].endswith(": el esquema coincide con los modelos")
    assert es("db", "upgrade", "--lang", "es").stdout.endswith(f": esquema {schema_head()} (ya estaba al día)\n")
