"""Click's own words in Spanish (issue 12): its errors, its help-page words and its type
names, through the real command, under --lang es and LANG=es_NI.UTF-8 — also for an error
click raises before the command's --lang is read, or shows after its context has closed;
English byte for byte as click writes it otherwise."""

import os
import pathlib
import signal
import subprocess
import sys
import time
from importlib.metadata import version

import pytest

from desmoche_ref.cli import COMMANDS

ROOT = pathlib.Path(__file__).parent.parent
CLEAN = {k: v for k, v in os.environ.items() if k not in ("DESMOCHE_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
ES = {"LANG": "es_NI.UTF-8"}
CLICK = tuple(int(part) for part in version("click").split(".")[:3] if part.isdigit())


def cli(*args, **env):
    return subprocess.run([sys.executable, "-m", "desmoche_ref", *args], capture_output=True,
                          text=True, timeout=60, cwd=ROOT, env={**CLEAN, **env})


def usage_error(usage: str, command: str, error: str) -> str:
    """What click prints for a usage error, in Spanish: the usage line, the hint, the error."""
    return (f"Uso: python -m desmoche_ref {usage}\n"
            f"Pruebe 'python -m desmoche_ref {command}--help' para ver la ayuda.\n\nError: {error}\n")


CHECK = "check [OPCIONES] ARCHIVO..."
VIEW = "view [OPCIONES] ARCHIVO"
TOP = "[OPCIONES] COMANDO [ARGUMENTOS]..." if CLICK < (8, 4, 2) else "[OPCIONES] [COMANDO] [ARGUMENTOS]..."


@pytest.mark.parametrize("args, env", [
    (["--lang", "es", "check"], {}),
    (["check"], ES),
    (["check", "--lang", "es"], {}),       # the command's own --lang, after which nothing comes
    (["check"], {"DESMOCHE_LANG": "es"}),
])
def test_a_missing_argument_in_spanish_whatever_chose_spanish(args, env):
    run = cli(*args, **env)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == usage_error(CHECK, "check ", "Falta el argumento 'ARCHIVO...'.")


def test_an_unknown_command_before_any_command_reads_its_options():
    run = cli("--lang", "es", "chek", "x.dsm")
    assert run.returncode == 2
    assert run.stderr == usage_error(TOP, "", "No existe el comando 'chek'. ¿Quiso decir 'check'? "
                                     f"(comandos: {', '.join(COMMANDS)})")
    assert cli("zzz", **ES).stderr.splitlines()[-1].startswith(
        "Error: No existe el comando 'zzz'. (comandos: check, fmt, view, rules, simulate, import,")


@pytest.mark.parametrize("args, error", [
    (["view", "x.dsm", "--at", "abc"], "Valor no válido para '--at': 'abc' no es un entero válido."),
    (["view", "x.dsm", "--hand", "0"], "Valor no válido para '--hand': 0 no está en el rango x>=1."),
    (["view", "a.dsm", "b.dsm"], "Sobra un argumento (b.dsm)"),
])
def test_values_and_arguments_click_refuses_in_spanish(args, error):
    run = cli("--lang", "es", *args)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == usage_error(VIEW, "view ", error)


def test_an_unknown_option_with_what_was_meant():
    one, many = cli("check", "--jsn", "x.dsm", **ES), cli("--lang", "es", "check", "--sessary", "x.dsm")
    if CLICK >= (8, 4):
        assert one.stderr == usage_error(CHECK, "check ", "No existe la opción '--jsn'. ¿Quiso decir '--json'?")
        assert many.stderr.splitlines()[-1] == ("Error: No existe la opción '--sessary'. (¿Quiso decir una "
                                                "de estas: '--session', '--summary'?)")
    else:  # click 8.1-8.3 words it "No such option: --jsn Did you mean --json?"
        assert one.stderr == usage_error(CHECK, "check ", "No existe la opción: --jsn ¿Quiso decir --json?")
        assert many.stderr.splitlines()[-1] == ("Error: No existe la opción: --sessary (¿Quiso decir una "
                                                "de estas: --session, --summary?)")


@pytest.mark.slow
def test_options_used_wrongly_in_spanish():
    missing = cli("--lang", "es", "simulate")
    assert missing.stderr == usage_error("simulate [OPCIONES]", "simulate ", "Falta la opción '--hands' / '-n'.")
    assert cli("simulate", "--hands", **ES).stderr == "Error: La opción '--hands' necesita 1 valor.\n"
    assert cli("check", "--json=1", "x.dsm", **ES).stderr == "Error: La opción '--json' no lleva valor.\n"


def test_a_bad_language_is_refused_in_the_language_of_the_locale():
    run = cli("--lang", "fr", "rules", **ES)
    assert run.returncode == 2
    assert run.stderr == usage_error(TOP, "", "Valor no válido para '--lang': 'fr' no es uno de 'en', 'es'.")
    english = cli("--lang", "fr", "rules")
    assert english.stderr.splitlines() == [
        english.stderr.splitlines()[0], "Try 'python -m desmoche_ref --help' for help.", "",
        "Error: Invalid value for '--lang': 'fr' is not one of 'en', 'es'."]


def test_click_help_words_and_type_names_in_spanish():
    lines = cli("--lang", "es", "simulate", "--help").stdout.splitlines()
    at = lines.index("Opciones:")
    assert lines[at + 1:at + 7] == [
        "  -n, --hands ENTERO    Cuántas manos seguidas jugar (100.000 como máximo: la",
        "                        sesión se escribe entera).  [1<=x<=100000;",
        "                        obligatorio]",
        "  -p, --players ENTERO  Jugadores en la mesa (2, 3 o 4).  [por omisión: 3;",
        "                        2<=x<=4]",
        "  -s, --seed ENTERO     Semilla aleatoria: la misma semilla escribe la misma",
    ]
    view = cli("view", "--help", **ES).stdout.splitlines()
    assert "  --hand ENTERO      Qué mano del archivo (1 = la primera). Por omisión: la" in view
    english = cli("simulate", "--help").stdout.splitlines()
    at = english.index("Options:")
    assert english[at + 1:at + 4] == [
        "  -n, --hands INTEGER RANGE    How many consecutive hands to play (at most",
        "                               100,000: the session is written whole).",
        "                               [1<=x<=100000; required]"]


def test_the_version_in_spanish():
    ours = version("desmoche-ref")
    assert cli("--lang", "es", "--version").stdout == f"python -m desmoche_ref, versión {ours}\n"
    assert cli("--version").stdout == f"python -m desmoche_ref, version {ours}\n"


@pytest.mark.slow
def test_english_is_click_as_written_under_a_spanish_locale_with_lang_en():
    for args in (["check"], ["chek"], ["view", "x.dsm", "--at", "abc"], ["check", "--jsn", "x"],
                 ["simulate", "--help"], ["--version"]):
        english = cli(*args)
        assert cli("--lang", "en", *args, **ES).stderr == english.stderr
        assert cli(*args, "--lang", "en", DESMOCHE_LANG="es").stdout == english.stdout
        spanish = cli("--lang", "es", *args)
        assert (spanish.stdout + spanish.stderr) != (english.stdout + english.stderr)


PROBE = """
import sys
import click
from click.testing import CliRunner
from desmoche_ref.cli import main
from desmoche_ref.cli.lang import Command, lang_option

@click.command(cls=Command)
@lang_option
@click.argument("record", type=click.Path(exists=True), metavar="FILE")
@click.option("--out", type=click.Path(dir_okay=False))
def probe(record, out):
    "Read FILE."

runner = CliRunner()
for args in sys.argv[1:]:
    command, *args = args.split()
    result = runner.invoke(main if command == "main" else probe, args, prog_name="python -m desmoche_ref")
    print(result.output, end="===\\n")
"""


def in_one_process(*runs) -> list:
    """The output of each run (`main ARGS` or `probe ARGS`) in one process, in order."""
    run = subprocess.run([sys.executable, "-c", PROBE, *runs], capture_output=True, text=True,
                         timeout=60, cwd=ROOT, env=CLEAN)
    assert run.returncode == 0, run.stderr
    return run.stdout.split("===\n")[:-1]


def test_a_path_click_checks_in_spanish():
    found = in_one_process("probe --lang es nope.dsm", "probe nope.dsm", "probe --lang es --out /tmp README.md")
    assert found[0].splitlines()[-1] == "Error: Valor no válido para 'ARCHIVO': Ruta 'nope.dsm' no existe."
    assert found[1].splitlines()[-1] == "Error: Invalid value for 'FILE': Path 'nope.dsm' does not exist."
    assert found[2].splitlines()[-1] == "Error: Valor no válido para '--out': Archivo '/tmp' es una carpeta."


@pytest.mark.slow
def test_a_spanish_run_leaves_english_runs_of_the_same_process_english():
    """click makes some of its words once (a Path's name as a module declares it, the help
    option's help in click 8.1.8 and later): a Spanish run first must not make them Spanish."""
    found = in_one_process("main --lang es export -o /tmp", "main export -o /tmp",
                           "main --lang es check --help", "main check --help", "main --lang es check --help")
    assert found[0].splitlines()[-1].endswith("'/tmp' es una carpeta.")
    assert found[1].splitlines()[-1] == "Error: Invalid value for '-o' / '--out': File '/tmp' is a directory."
    assert found[3] == in_one_process("main check --help")[0]
    assert found[2] == found[4] == in_one_process("main --lang es check --help")[0]
    assert "  -h, --help         Muestra esta ayuda y termina." in found[2].splitlines()


def _blocked_reading(pid: int, wait: float = 30) -> bool:
    """True once process `pid` waits to read a pipe (Linux's /proc says so)."""
    end = time.monotonic() + wait
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/wchan") as f:
                if "pipe_read" in f.read():
                    return True
        except OSError:
            return False
        time.sleep(0.05)
    return False


def _interrupted(process, wait: float = 30) -> None:
    """Ctrl-C for `process`, pressed again each second (as a person does) until it ends; what
    its signals were, if it never does."""
    end = time.monotonic() + wait
    while time.monotonic() < end:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=1)
            return
        except subprocess.TimeoutExpired:
            pass
    def signals(pid):
        with open(f"/proc/{pid}/status") as f:
            return [line.strip() for line in f if line.startswith(("SigBlk", "SigIgn", "SigCgt"))]

    threads = [(open(f"/proc/self/task/{t}/comm").read().strip(), open(f"/proc/self/task/{t}/wchan").read())
               for t in os.listdir("/proc/self/task")]
    pytest.fail(f"still running {wait:.0f} s after Ctrl-C: {signals(process.pid)}; this process: "
                f"{signals(os.getpid())}, threads {threads}")


def _as_a_terminal_starts_it():
    """Ctrl-C and Ctrl-\\ as a shell leaves them for a command it runs in the foreground. A
    process inherits an ignored signal, and the test process sometimes has SIGINT and SIGQUIT
    ignored while it starts this one (as C's system() ignores them while it waits): a command
    started so rightly ignores Ctrl-C (as under nohup), which is not what this test is about."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def test_ctrl_c_is_aborted_in_spanish():
    """Ctrl-C while `check -` waits for its record: click's "Aborted!" in Spanish."""
    for env, said in (({}, "Aborted!"), (ES, "¡Interrumpido!")):
        reader = subprocess.Popen([sys.executable, "-m", "desmoche_ref", "check", "-"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                  env={**CLEAN, **env}, preexec_fn=_as_a_terminal_starts_it)
        try:
            if not _blocked_reading(reader.pid):
                pytest.skip("this system does not say when a process waits on a pipe (/proc/PID/wchan)")
            _interrupted(reader)  # stdin still open: the interrupt, not an end of input, ends it
            out, err = reader.communicate()
        finally:
            reader.kill()
            reader.wait()
        assert (reader.returncode, out, err) == (1, "", f"\n{said}\n")


def test_click_is_left_as_it_is_and_gettext_put_back_after_a_spanish_run():
    """Click's words come through the standard gettext (its default domain bound to our catalog
    for the run): nothing of click's is changed, and the binding ends with the run."""
    import gettext

    import click.core
    import click.exceptions
    from click.testing import CliRunner

    from desmoche_ref.cli import main

    before = (gettext.textdomain(), os.environ.get("LANGUAGE"))
    spanish = CliRunner().invoke(main, ["--lang", "es", "check"])
    assert spanish.exit_code == 2 and spanish.output.splitlines()[-1] == "Error: Falta el argumento 'ARCHIVO...'."
    assert click.core._ is gettext.gettext and click.exceptions.ngettext is gettext.ngettext
    assert (gettext.textdomain(), os.environ.get("LANGUAGE")) == before
    english = CliRunner().invoke(main, ["check"])
    assert english.output.splitlines()[-1] == "Error: Missing argument 'FILE...'."
