"""Functional core, thin shell: the pure modules import no CLI, store or table library, and
check/fmt/view never load SQLAlchemy (start-up matters: one command per move). The scorebook's
command modules load the store only inside the commands that use it, and a move loads
neither Alembic (only migrating needs it) nor tabulate."""

import ast
import os
import re
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).parent.parent / "desmoche_ref"
PURE = ["cards.py", "melds.py", "options.py", "ranking.py", "money.py", "findings.py", "settle.py",
        "referee.py", "session.py", "laws.py", "view.py", "public.py", "rating.py", "career.py", "notation",
        "engine"]
FORBIDDEN = {"click", "sqlalchemy", "sqlmodel", "tabulate", "alembic"}


def pure_files():
    for entry in PURE:
        path = PACKAGE / entry
        yield from (sorted(path.rglob("*.py")) if path.is_dir() else [path])


def imported_modules(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):  # every import, including ones inside functions
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


@pytest.mark.parametrize("path", list(pure_files()), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_pure_module_imports_no_shell_library(path):
    assert FORBIDDEN.isdisjoint(imported_modules(path))
    assert "store" not in relative_imports(path)  # the engine knows nothing of the book


def relative_imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level > 0 and node.module:
            yield node.module.split(".")[0]


def top_level_imports(path):
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield ("." * node.level) + (node.module or "")


BOOK_COMMANDS = ["book.py", "db.py", "table.py", "hand.py", "moves.py", "verify.py"]


@pytest.mark.parametrize("name", BOOK_COMMANDS)
def test_book_command_modules_load_the_store_only_when_run(name):
    top = set(top_level_imports(PACKAGE / "cli" / name))
    assert top.isdisjoint({"sqlalchemy", "sqlmodel", "alembic", "tabulate", "..store", "..store.hands",
                           "..store.db", "..store.models"}), top


@pytest.mark.slow
def test_a_move_loads_neither_alembic_nor_tabulate(tmp_path):
    probe = (
        f"import sys\nBOARD = {sorted(BOARD_LIBRARIES)!r}\n"
        "from desmoche_ref.cli import main\n"
        "for argv in (['table', 'new', 't', '--players', 'Ana Beto', '--bet', '1'],\n"
        "             ['hand', 'new', '--dealer', 'Ana'], ['cut', 'Beto']):\n"
        "    sys.argv = ['desmoche-ref', *argv]\n"
        "    try:\n        main()\n    except SystemExit as e:\n        assert not e.code, e.code\n"
        "loaded = sorted({m.split('.')[0] for m in sys.modules} & {'alembic', 'tabulate', 'psycopg', *BOARD})\n"
        "sys.stderr.write('LOADED:' + ','.join(loaded))\n"
    )
    book = tmp_path / "book.db"
    from desmoche_ref.store.db import open_book

    open_book(str(book)).engine.dispose()  # the schema made beforehand: migrating loads Alembic
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, DESMOCHE_DB=str(book)))
    assert run.stderr.rsplit("LOADED:", 1)[1] == "", run.stderr


@pytest.mark.parametrize("command", [["check", "--json"], ["fmt", "--check"], ["view"]])
def test_everyday_commands_never_load_sqlalchemy(command):
    record = pathlib.Path(__file__).parent / "conformance" / "friday.dsm"
    probe = (
        "import sys\n"
        "from desmoche_ref.cli import main\n"
        f"sys.argv = ['desmoche-ref', *{command!r}, {str(record)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'sqlmodel', 'alembic'))\n"
        "sys.stderr.write('LOADED:' + ','.join(loaded))\n"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert run.stderr.rsplit("LOADED:", 1)[1] == ""


# The live board's libraries: loaded by `desmoche-ref board` only (issue 28)
BOARD_LIBRARIES = {"starlette", "uvicorn", "sse_starlette", "segno", "anyio", "h11"}


def test_only_the_board_imports_the_board_libraries():
    """Read as text (every import of the package is at the start of a line): parsing every
    module costs half a second."""
    library = re.compile(r"^\s*(?:import|from)\s+(" + "|".join(sorted(BOARD_LIBRARIES)) + r")\b", re.M)
    reaching_up = re.compile(r"^\s*from\s+\.+board\b", re.M)  # nothing below the board imports it
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).parts
        if relative[0] == "board" or relative == ("cli", "board.py"):
            continue
        text = path.read_text()
        assert not library.search(text) and not reaching_up.search(text), path


@pytest.mark.parametrize("path", sorted((PACKAGE / "board").glob("*.py")), ids=lambda p: p.name)
def test_the_board_is_a_front_end_that_holds_no_sql(path):
    """It reads through a store service (store/scoreboard.py) and renders what it returns: no
    SQLAlchemy, no SQL, nothing of cli/ or report/ but the templates it shares."""
    assert {"sqlalchemy", "sqlmodel", "psycopg", "sqlite3"}.isdisjoint(imported_modules(path))
    text = path.read_text()
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            assert not (node.module or "").startswith(("cli", "report")), (path, node.module)
    assert not re.search(r"\b(SELECT|INSERT|UPDATE|DELETE)\s", text), path
