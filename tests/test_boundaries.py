"""Functional core, thin shell: the pure modules import no CLI, store or table library, and
check/fmt/view never load SQLAlchemy (start-up matters: one command per move). The scorebook's
command modules load the store only inside the commands that use it, and a move loads
neither Alembic (only migrating needs it) nor tabulate. The import graph points down the
layers (docs/architecture.md) and has no cycle."""

import ast
import os
import re
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).parent.parent / "desmoche_ref"
PURE = ["cards.py", "melds.py", "options.py", "ranking.py", "money.py", "findings.py", "settle.py",
        "referee.py", "session.py", "laws.py", "view.py", "public.py", "rating.py", "player_record.py", "words.py",
        "choices.py", "notation", "engine"]
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


def test_moves_on_a_sqlite_book_never_load_the_postgresql_dialect(tmp_path):
    """A night's moves on a SQLite book (a table, a hand dealt, every move of friday's hand to
    its settlement, an undo) load nothing of SQLAlchemy's PostgreSQL dialect: importing it cost
    a single-shot move a tenth of its start-up."""
    from conftest import FRIDAY_LINES

    from desmoche_ref.store.db import open_book

    commands = [["table", "new", "friday", "--players", "Ana Beto Carla", "--bet", "10", "--options", "todo",
                 "--side", "oro 5 Ana Beto Carla"], ["hand", "new", "--dealer", "Ana"]]
    commands += [["rec", line] for line in FRIDAY_LINES] + [["undo"]]
    probe = (
        "import sys\n"
        "from desmoche_ref.cli import main\n"
        f"for argv in {commands!r}:\n"
        "    sys.argv = ['desmoche-ref', *argv]\n"
        "    try:\n        main()\n    except SystemExit as e:\n        assert not e.code, (argv, e.code)\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('sqlalchemy.dialects.postgresql'))\n"
        "sys.stderr.write('LOADED:' + ','.join(loaded))\n"
    )
    book = tmp_path / "book.db"
    open_book(str(book)).engine.dispose()  # the schema made beforehand, as a recorder's book is
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, DESMOCHE_DB=str(book)))
    assert run.stderr.rsplit("LOADED:", 1)[-1] == "", run.stderr


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
    """It reads through a store service (store/read/scoreboard.py) and renders what it returns: no
    SQLAlchemy, no SQL, nothing of cli/ or report/ but the templates it shares."""
    assert {"sqlalchemy", "sqlmodel", "psycopg", "sqlite3"}.isdisjoint(imported_modules(path))
    text = path.read_text()
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            assert not (node.module or "").startswith(("cli", "report")), (path, node.module)
    assert not re.search(r"\b(SELECT|INSERT|UPDATE|DELETE)\s", text), path


# ---------------------------------------------------------------- the import graph (issue 26)
# The layers, lowest first: a module imports its own layer and those below, never one above
# (docs/architecture.md). A name is a top-level module or package of desmoche_ref.
LAYERS = [
    ("cards", {"__init__", "cards", "melds", "options", "ranking", "money", "findings", "i18n",
               "limits"}),
    ("notation", {"notation"}),
    ("engine", {"engine"}),
    ("settle/describe/view", {"settle", "settleup", "describe", "view", "public", "referee", "rating", "player_record",
                              "rulebook", "words", "choices", "sim", "simulate"}),
    ("laws", {"laws", "session"}),
    ("store", {"store"}),
    ("front ends", {"cli", "play", "report", "board", "__main__"}),
]
# No import cycle is left (issue 26 broke the store's): none may come back.
KNOWN_STORE_CYCLE_EDGES: set = set()
# No import points up (issue 26: the report's data comes from a store service): none may.
KNOWN_UPWARD: set = set()


# An import statement at the start of a line (a parenthesized one whole): each is parsed
# alone, which is 25 times as fast as parsing every module (2 s on the CI machine)
IMPORT = re.compile(r"^[ \t]*(from[ \t]+[\w.]+[ \t]+import[ \t]+(?:\([^)]*\)|[^\n]*)|import[ \t]+[^\n]*)", re.M)


def import_statements(text):
    for match in IMPORT.finditer(text):
        try:
            yield from ast.parse(match.group(1)).body
        except SyntaxError:  # a docstring's line that reads like one ("import writes …")
            continue


def module_graph(statements=import_statements):
    """{module: {the package's modules it imports}}, every import counted, those inside
    functions and under TYPE_CHECKING too (the migrations aside)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if "migrations" in parts:
            continue
        package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if package and len(parts) > 1 else parts)
        modules[name] = (path, package)
    graph = {}
    for name, (path, package) in modules.items():
        here = [] if name == "__init__" else name.split(".") if package else name.split(".")[:-1]
        found = set()
        for node in statements(path.read_text()):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here[:len(here) - (node.level - 1)] + ([node.module] if node.module else [])
                    target = ".".join(base)
                elif (node.module or "").startswith("desmoche_ref."):
                    target = node.module[len("desmoche_ref."):]
                else:
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}" if target else alias.name
                    if sub in modules:
                        found.add(sub)
                    elif target in modules:
                        found.add(target)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("desmoche_ref.") and alias.name[len("desmoche_ref."):] in modules:
                        found.add(alias.name[len("desmoche_ref."):])
        found.discard(name)
        graph[name] = found
    return graph


def layer_of(module: str) -> int:
    top = module.split(".")[0]
    for rank, (_name, tops) in enumerate(LAYERS):
        if top in tops:
            return rank
    raise AssertionError(f"{module}: in no layer (add it to LAYERS and to docs/architecture.md)")


def cycle_edges(graph) -> set:
    """The edges that lie on a cycle: those inside a strongly connected component."""
    index, low, stack, on_stack, component = {}, {}, [], set(), {}
    counter = [0]

    def visit(v):  # Tarjan's algorithm (the graph is a few hundred modules: recursion is fine)
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component[w] = v
                if w == v:
                    break

    for v in graph:
        if v not in index:
            visit(v)
    return {(a, b) for a in graph for b in graph[a] if component[a] == component[b]}


GRAPH = None


def graph():
    global GRAPH
    if GRAPH is None:
        GRAPH = module_graph()
    return GRAPH


def test_no_module_imports_a_layer_above_it():
    upward = sorted(f"{a} imports {b} ({LAYERS[layer_of(b)][0]} is above {LAYERS[layer_of(a)][0]})"
                    for a, targets in graph().items() for b in targets
                    if layer_of(b) > layer_of(a) and (a, b) not in KNOWN_UPWARD)
    assert upward == []


def test_the_front_ends_do_not_import_each_other():
    """cli/ starts the others (`report`, `board`, `play`'s session); report/, play/ and board/
    import no other front end: what they share is below them (words.py, the store)."""
    shared = [(a, b) for a, targets in graph().items() for b in targets
              if a.split(".")[0] in {"play", "report", "board"} and layer_of(b) == len(LAYERS) - 1
              and b.split(".")[0] != a.split(".")[0]]
    assert shared == []


def test_no_import_cycle():
    """No cycle anywhere, imports inside functions included; the store's known ones only shrink."""
    on_cycles = cycle_edges(graph())
    assert sorted(e for e in on_cycles if e not in KNOWN_STORE_CYCLE_EDGES) == []


@pytest.mark.slow
def test_the_import_graph_read_fast_is_the_whole_parse():
    """The graph above reads each import statement alone; parsing every module whole (2 s)
    finds the same graph."""
    def every_import(text):
        return [node for node in ast.walk(ast.parse(text)) if isinstance(node, (ast.Import, ast.ImportFrom))]

    assert module_graph(every_import) == graph()


SHELL_LIBRARIES = FORBIDDEN | {"psycopg", "jinja2", "markupsafe", "prompt_toolkit", "platformdirs"} | BOARD_LIBRARIES


def test_the_layers_below_the_store_import_no_shell_library():
    """Layers 0-4 (cards ... laws) are pure: no command line, database, template or terminal
    library, imports inside functions included."""
    store = [name for name, _tops in LAYERS].index("store")
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[0] in ("__init__", "__main__") or layer_of(parts[0]) >= store:
            continue
        for node in import_statements(path.read_text()):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if not node.level else []
            found += [(str(path.relative_to(PACKAGE)), n) for n in names if n.split(".")[0] in SHELL_LIBRARIES]
    assert found == []


def test_every_module_reads_in_one_sitting():
    """Issue 26: every module under 600 lines and every function under 80 (the migrations,
    each a script of its schema's steps, aside)."""
    package = pathlib.Path(__file__).resolve().parent.parent / "desmoche_ref"
    long_modules, long_functions = [], []
    for path in sorted(package.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        if text.count("\n") >= 600:
            long_modules.append(str(path.relative_to(package)))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 79:
                long_functions.append(f"{path.relative_to(package)}:{node.name}")
    assert (long_modules, long_functions) == ([], [])


def test_one_name_one_module_outside_the_commands():
    """Issue 32: outside cli/ (whose files are named after their commands) no two modules share
    a name, so that `judging.py` or `replay.py` says which one is meant (the migrations aside)."""
    seen = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if path.name == "__init__.py" or parts[0] == "cli" or "migrations" in parts:
            continue
        seen.setdefault(path.name, []).append("/".join(parts))
    assert {name: places for name, places in seen.items() if len(places) > 1} == {}
