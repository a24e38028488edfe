"""Functional core, thin shell: the pure modules import no CLI, store or table library, and
check/fmt/view never load SQLAlchemy (start-up matters: one command per move)."""

import ast
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).parent.parent / "desmoche_ref"
PURE = ["cards.py", "melds.py", "options.py", "ranking.py", "money.py", "findings.py", "settle.py",
        "referee.py", "session.py", "view.py", "notation", "engine"]
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
