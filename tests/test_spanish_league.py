"""The league's commands in Spanish (issue 12): import, export, standings, ledger and
settle-up through the real commands on a real book, under LANG=es_NI.UTF-8 and --lang es —
the import's summary and rejections, the reports' headers and words, the errors, the help;
--json, --csv and the exported records the same in both languages."""

import pathlib
import re

import pytest
from click.testing import CliRunner

from desmoche_ref import i18n
from desmoche_ref.cli import main
from desmoche_ref.findings import render
from test_spanish_check import ES, neutral, process

ROOT = pathlib.Path(__file__).parent.parent
SAMPLES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "sample_logs").glob("*.dsm"))
SOUTH = "tests/league_data/south.dsm"
COMMANDS = ["import", "export", "standings", "ledger", "settle-up"]
UNSET = {"DESMOCHE_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the records by the paths the lines print


def run(*args, spanish=True, status=0):
    """A command in-process; Spanish by the locale (LANG=es_NI.UTF-8), else no language set."""
    env = {**UNSET, **(ES if spanish else {})}
    result = CliRunner().invoke(main, [str(a) for a in args], env=env, prog_name="desmoche-ref")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == status, (args, result.exit_code, result.output)
    return result


def spanish(message) -> str:
    return render(message, i18n.translations("es").gettext)


def untranslated_twins(es: str, en: str, allowed=()) -> list:
    """The lines of the Spanish output that are also lines of the English one and hold words."""
    english = set(en.splitlines())
    return [line for line in es.splitlines() if line in english and not neutral(line) and line not in allowed]


@pytest.mark.slow
def test_import_prints_its_summary_rejections_and_errors_in_spanish(book_url, tmp_path):
    es = run("import", "--db", book_url, *SAMPLES, "nope.dsm", status=2).stdout
    en = run("import", "--db", tmp_path / "en.db", *SAMPLES, "nope.dsm", spanish=False, status=2).stdout
    lines = es.splitlines()
    assert len(lines) == len(en.splitlines()) == 43
    assert untranslated_twins(es, en) == []
    assert "sample_logs/club-night.dsm: 11 manos guardadas; ya en el libro: 0; rechazadas: 0 (mesa 3)" in lines
    assert "sample_logs/friday.dsm: 1 mano guardada; ya en el libro: 0; rechazadas: 0 (mesa 2)" in lines
    # friday.dsm continues table 2, whose last hand Beto dealt: stored, with a warning (N9.3)
    assert "sample_logs/friday.dsm:1: R3.1 el reparto pasa a la derecha: esta mano la reparte Carla, no Ana" in lines
    at = lines.index("sample_logs/dispute-not-a-meld.dsm:18: R8.1 Qs Ks As no es una combinación: una escalera "
                     "es de valores seguidos, el as solo abajo (Q-K-A y K-A-2 no son escaleras)")
    assert lines[at + 1:at + 3] == [
        "sample_logs/dispute-not-a-meld.dsm mano 1 (línea 3): rechazada, no se guardó nada de ella",
        "sample_logs/dispute-not-a-meld.dsm: 0 manos guardadas; ya en el libro: 0; rechazadas: 1 "
        "(mesa dispute-not-a-meld)"]
    assert ("sample_logs/dispute-short-deal.dsm:12: F1 Carla: reparto mal hecho: Beto 8 (R3.4) — aplicada, "
            "descalificado") in lines
    assert lines[-1] == "nope.dsm: error: no se puede leer nope.dsm: no existe el archivo"
    # --lang es, and a rerun: every hand is known by its content
    again = run("import", "--lang", "es", "--db", book_url, "sample_logs/club-night.dsm", spanish=False).stdout
    assert again == "sample_logs/club-night.dsm: 0 manos guardadas; ya en el libro: 11; rechazadas: 0 (mesa 3)\n"


def test_a_record_that_forgets_the_tables_pot_is_rejected_in_spanish(tmp_path):
    db = tmp_path / "book.db"
    run("import", "--db", db, "sample_logs/empty-table.dsm", spanish=False)  # nobody won: 30.00 carries
    out = run("import", "--db", db, "--table", "empty-table", "sample_logs/friday.dsm", status=1).stdout
    assert out.splitlines() == [
        "sample_logs/friday.dsm:1: R2.3 Carry es 0.00, pero la mano anterior dejó acumulado 30.00",
        "sample_logs/friday.dsm mano 1 (línea 1): rechazada, no se guardó nada de ella",
        "sample_logs/friday.dsm: 0 manos guardadas; ya en el libro: 0; rechazadas: 1 (mesa empty-table)"]
    # the table breaks up: its pot goes back (R11.5), which the ledger shows in words
    run("table", "close", "empty-table", "--db", db, spanish=False)
    ledger = run("ledger", "--db", db, "--lang", "es", spanish=False).stdout.splitlines()
    assert ledger[0].split() == ["mesa", "mano", "cuenta", "tipo", "detalle", "contraparte", "cantidad", "revierte"]
    assert ledger[-2].split() == ["empty-table", "1", "bote:principal", "devolución", "principal", "Carla", "-10.00"]
    assert ledger[-1].split() == ["empty-table", "1", "Carla", "devolución", "principal", "bote:principal", "10.00"]
    # a closed table refuses an import: the book's error is a message with its Spanish
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.read.hands import StoreError
    from desmoche_ref.store.write.importer import import_records

    book = open_book(f"sqlite:///{db}")
    try:
        with pytest.raises(StoreError) as refused:
            import_records(book, pathlib.Path("sample_logs/friday.dsm").read_bytes(), "friday.dsm", "empty-table")
    finally:
        book.engine.dispose()
    assert str(refused.value) == "table empty-table is closed: import into another --table"
    assert spanish(refused.value.args[0]) == "la mesa empty-table está cerrada: importa en otra --table"


@pytest.mark.slow
def test_standings_settle_up_and_ledger_in_spanish(book_url):
    run("import", "--db", book_url, *SAMPLES, spanish=False, status=1)
    es = run("standings", "--db", book_url).stdout
    en = run("standings", "--db", book_url, spanish=False).stdout
    lines = es.splitlines()
    assert lines[0].split("  ") and [h.strip() for h in lines[0].split("  ") if h.strip()] == [
        "jugador", "manos", "ganadas", "victorias automáticas", "sin ganador", "bonos ganados", "bonos pagados",
        "faltas", "juegos secundarios ganados", "neto"]  # words, as the report's; --json/--csv keep the keys
    assert lines[2].split() == ["Dani", "11", "3", "1", "2", "90.00", "70.00", "0", "2", "135.00"]
    assert lines[-1] == "sin ganar (en los botes) 30.00, traído de antes 0.00"
    assert untranslated_twins(es, en) == []
    assert run("standings", "--db", book_url, "--lang", "es", spanish=False).stdout == es

    settle = run("settle-up", "--db", book_url).stdout
    # empty-table's pot of 30.00 stays in it, 10.00 of each who put it in (issue 33)
    assert settle.splitlines() == ["Ana paga a Dani 133.17", "Carla paga a Beto 25.09", "Carla paga a Dani 1.83",
                                   "el bote de la mesa empty-table guarda 30.00 para su próxima mano, puesto por "
                                   "Ana 10.00, Beto 10.00 y Carla 10.00"]
    assert run("settle-up", "--db", book_url, "--since", "2030-01-01").stdout == \
        "nada que saldar: todos los saldos están en cero\n"

    ledger = run("ledger", "--db", book_url, "--table", "side-games").stdout.splitlines()
    assert ledger[0].split() == ["mesa", "mano", "cuenta", "tipo", "detalle", "contraparte", "cantidad", "revierte"]
    assert ledger[2].split() == ["side-games", "1", "Ana", "apuesta", "bote:principal", "-5.00"]
    assert ledger[11].split() == ["side-games", "1", "bote:oro", "apuesta-secundaria", "oro", "Ana", "1.00"]
    assert ledger[16].split() == ["side-games", "1", "bote:oro", "secundario-ganado", "oro", "Carla", "-3.00"]
    bonus = run("ledger", "--db", book_url, "--table", "cambio-declarations", "--hand", "1").stdout.splitlines()
    assert bonus[10].split() == ["cambio-declarations", "1", "Carla", "bono", "Arriba", "del", "Palo", "Beto",
                                 "-10.00"]


def test_money_brought_in_from_before_the_book_in_spanish(tmp_path):
    db = tmp_path / "book.db"
    assert run("import", "--db", db, SOUTH).stdout == \
        f"{SOUTH}: 2 manos guardadas; ya en el libro: 0; rechazadas: 0 (mesa south, west)\n"
    ledger = run("ledger", "--db", db, "--table", "west").stdout.splitlines()
    assert ledger[2:4] == [
        "west         1  fuera           traído-de-antes             bote:principal      -12.00",
        "west         1  bote:principal  traído-de-antes             fuera                12.00"]
    assert run("settle-up", "--db", db).stdout.splitlines() == [
        "(bote) paga a Ana 12.00", "Carla paga a Ana 4.00", "Carla paga a Dani 3.00"]
    assert run("standings", "--db", db).stdout.splitlines()[-1] == \
        "sin ganar (en los botes) 0.00, traído de antes 12.00"


def test_errors_in_spanish(tmp_path):
    db = tmp_path / "book.db"
    run("import", "--db", db, SOUTH, spanish=False)
    bad_fmt = run("standings", "--db", db, "--fmt", "nope", status=2)
    assert bad_fmt.stderr.startswith("error: --fmt desconocido 'nope': uno de asciidoc, colon_grid, ")
    assert bad_fmt.stderr.count("\n") == 1
    nothing = run("export", "--db", db, "--table", "south", "--hand", "9", "--lang", "es", spanish=False, status=1)
    assert nothing.stderr == "error: ninguna mano del libro coincide\n"
    written = run("export", "--db", db, "--table", "south", "-o", tmp_path / "south.dsm")
    assert written.stderr.splitlines()[0] == f"{tmp_path / 'south.dsm'}: 1 mano"
    assert re.fullmatch(r"cabeza del libro: [0-9a-f]{64}", written.stderr.splitlines()[1])
    latin = tmp_path / "latin.dsm"  # a record saved in Windows-1252
    latin.write_bytes('[Players "Ana Beto"]\n[Dealer "Ana"]\n# José\ncut Beto\n'.encode("cp1252"))
    assert run("import", "--db", db, latin, status=1).stdout.splitlines() == [
        f"{latin}:3: N1.1 esta línea no es texto UTF-8 válido",
        f"{latin} mano 1 (línea 1): rechazada, no se guardó nada de ella",
        f"{latin}: 0 manos guardadas; ya en el libro: 0; rechazadas: 1 (mesa latin)",
        f"{latin}: sugerencia: este archivo parece texto Windows-1252 (o Latin-1), no UTF-8: pruebe --encoding "
        "cp1252"]
    # click's own words before it are another matter (click's messages); the date's are ours
    bad_date = run("settle-up", "--db", db, "--since", "2026-13-01", status=2)
    assert bad_date.stderr.splitlines()[-1].endswith(": '2026-13-01' no tiene el formato '%Y-%m-%d'.")
    # an unknown table: the store's error is a message, shown in the language of the run
    from desmoche_ref.store.db import open_book
    from desmoche_ref.store.read.hands import StoreError
    from desmoche_ref.store.read.league import Selection, standings

    book = open_book(f"sqlite:///{db}")
    try:
        with book.connect() as session, pytest.raises(StoreError) as unknown:
            standings(session, Selection("nowhere"))
    finally:
        book.engine.dispose()
    assert str(unknown.value) == "there is no table 'nowhere' in this book"
    assert spanish(unknown.value.args[0]) == "no hay ninguna mesa 'nowhere' en este libro"


def _db_help_lines(english: str) -> set:
    """The lines of the --db option in an English help page, while its help (cli/book.py, the
    scorebook's commands) has no Spanish in the catalog yet: none once it has."""
    from desmoche_ref.cli.league import standings

    text = next(p.help for p in standings.params if p.name == "db")
    if i18n.translations("es").gettext(text) != text:
        return set()
    lines = english.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("  --db URL"))
    end = next(k for k in range(start + 1, len(lines)) if lines[k].startswith("  -"))
    return set(lines[start:end])


def _neutral_help(line: str) -> bool:
    return neutral(line) or line.strip().startswith("desmoche-ref ")  # an example as it is typed


@pytest.mark.parametrize("command", COMMANDS)
def test_the_help_of_every_league_command_is_spanish(command):
    en = run(command, "--help", spanish=False).stdout
    es = run(command, "--help").stdout
    assert run(command, "--help", "--lang", "es", spanish=False).stdout == es
    allowed = _db_help_lines(en)
    assert [line for line in untranslated_twins(es, en, allowed) if not _neutral_help(line)] == []
    lines = es.splitlines()
    assert "  Ejemplos:" in lines and "Opciones:" in lines
    assert any(line.split()[:5] == ["--lang", "[en|es]", "El", "idioma", "de"] for line in lines)
    expected = {
        "import": "  Juzga anotaciones de manos y guarda en el libro las manos válidas.",
        "export": "  -o, --out ARCHIVO  Escribe en ARCHIVO en vez de la salida estándar.",
        "standings": "  --since FECHA   Manos jugadas en FECHA o después (AAAA-MM-DD).",
        "ledger": "  --csv           Imprime CSV, una fila por asiento.",
        "settle-up": "  --until FECHA   Manos jugadas en FECHA o antes.",
    }
    assert expected[command] in lines


def test_import_help_in_a_spanish_locale_through_the_process():
    lines = process("import", "--help", **ES).stdout.splitlines()
    assert lines[0] == "Uso: python -m desmoche_ref import [OPCIONES] ARCHIVO..."
    assert lines[2] == "  Juzga anotaciones de manos y guarda en el libro las manos válidas."
    assert ("  --table NOMBRE     La mesa a la que van las manos (si no, la etiqueta Table" in lines)
    assert any(line.startswith("  --encoding NOMBRE  Lee los archivos en esta codificación") for line in lines)


@pytest.mark.slow
def test_json_csv_and_records_are_the_same_in_spanish(book_url):
    run("import", "--db", book_url, *SAMPLES, SOUTH, spanish=False, status=1)
    for args in (["standings", "--json"], ["standings", "--csv"], ["standings", "--json", "--table", "west"],
                 ["ledger", "--json"], ["ledger", "--csv"], ["settle-up", "--json"], ["export"]):
        english = run(*args, "--db", book_url, spanish=False).stdout
        assert run(*args, "--db", book_url).stdout == english
        assert run(*args, "--db", book_url, "--lang", "es", spanish=False).stdout == english


def test_the_ledgers_pot_names_are_the_settlements():
    # store/read/league.py spells out the main pot's name (start-up: no settle.py): they must agree
    from desmoche_ref import settle
    from desmoche_ref.store.read import league

    assert league.MAIN_POT == settle.MAIN_POT
    assert settle.pot_account(settle.MAIN_POT) == "pot:main" and settle.pot_account("oro") == "pot:oro"
