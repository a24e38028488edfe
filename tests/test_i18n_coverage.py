"""Every message the program can print has its Spanish (issue 12): no text with words reaches
the terminal unmarked. tests/test_i18n.py checks that every MARKED message is translated;
this finds the unmarked ones — (a) in the source, a literal given straight to what prints
it, and (b) through the real command line, a help page line left as the English one."""

import ast
import pathlib
import re

import click
import pytest
from click.testing import CliRunner

from desmoche_ref.cli import COMMANDS, main

ROOT = pathlib.Path(__file__).parent.parent
SOURCES = sorted([*ROOT.glob("desmoche_ref/cli/*.py"), *ROOT.glob("desmoche_ref/play/*.py")])

# What prints its first argument (or message=) to a person, and the keywords that are shown.
PRINTS = {"echo", "secho", "ClickException", "UsageError", "BadParameter", "BadOptionUsage",
          "FileError", "Abort", "fail"}
SHOWN_KEYWORDS = {"help", "metavar", "label", "message"}  # label: a progress bar's
MARKS = {"_", "N_", "ngettext", "M", "MN"}  # the message markers (cli/lang.py, findings.M and MN)
WORD = re.compile(r"[^\W\d_]{2,}")  # two letters or more: a one-letter metavar (N, P) says nothing

# Literals with words that read the same in both languages, each with its reason. (A literal
# without a word of two letters — "{}: {}", " — ", "-" * 40 — passes without being listed.)
NEUTRAL = {
    "URL": "the --db metavar: an address of a book is a URL in Spanish too",
}


def _name(func) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _literals(node):
    """The string literals in `node` that reach the output as written: through f-strings,
    `+` and `%`, `.format()` and `.join()` on a literal, `a if c else b`, `a or b`; not inside
    a marker (`_("…")`) nor any other call (its result is not a literal given here)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node, node.value
    elif isinstance(node, ast.JoinedStr):  # its words are the parts between the placeholders
        yield node, "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        yield from _literals(node.left)
        yield from _literals(node.right)
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _literals(value)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in ("format", "join"):
        yield from _literals(node.func.value)


def _is_command(decorator) -> bool:
    return isinstance(decorator, ast.Call) and _name(decorator.func) in ("command", "group")


def unmarked(path: pathlib.Path, root: pathlib.Path = ROOT) -> list:
    """`file:line: text` for each literal with words given straight to the output, and each
    command whose help (its docstring) is not looked up (declared without `cls=`)."""
    rel = path.relative_to(root).as_posix()
    found = []

    def check(node, why):
        for literal, text in _literals(node):
            if WORD.search(text) and text not in NEUTRAL:
                found.append((literal.lineno, f"{why}: {text!r}"))

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name in MARKS:
                continue
            if name == "print":
                for arg in node.args:
                    check(arg, "print")
            elif name in PRINTS and node.args:
                check(node.args[0], name)
            for keyword in node.keywords:
                if keyword.arg in SHOWN_KEYWORDS:
                    check(keyword.value, f"{keyword.arg}=")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                if _is_command(decorator) and ast.get_docstring(node) \
                        and not any(k.arg == "cls" for k in decorator.keywords):
                    found.append((node.lineno, f"the help of `{node.name}` (a command "
                                               "declared without cls=Command is never translated)"))
    return [f"{rel}:{line}: {what}" for line, what in sorted(found)]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_message_is_given_to_the_output_unmarked(path):
    assert unmarked(path) == []


def test_the_scan_finds_what_it_looks_for(tmp_path):
    """The scan itself: each way of printing an unmarked message is caught, a marked or
    neutral one is not."""
    source = tmp_path / "sample.py"
    source.write_text(
        'import click\n'
        '@click.command()\n'
        'def bare():\n'
        '    """Bare help."""\n'
        '    click.echo("a plain sentence")\n'
        '    click.echo(f"{n} hands judged")\n'
        '    click.echo(_("marked {n}").format(n=1))\n'
        '    click.echo(f"{a}: {b}")\n'
        '    click.echo("{} of {}".format(1, 2))\n'
        '    raise click.UsageError("bad" if x else _("good"))\n'
        '@click.command(cls=Command)\n'
        '@click.option("--x", metavar="NAME", help=N_("Marked."))\n'
        '@click.option("--y", metavar="N", help="Not marked.")\n'
        '@click.option("--db", metavar="URL")\n'
        'def fine():\n'
        '    """Looked up."""\n'
        '    print("to", name)\n'
        '    ctx.fail(ngettext("one", "many", n))\n'
        '    click.echo(", ".join(names) or "nobody")\n'
        '    click.echo(tabulate(rows, tablefmt="simple"))\n',
        encoding="utf-8")
    assert unmarked(source, tmp_path) == [
        "sample.py:3: the help of `bare` (a command declared without cls=Command is never translated)",
        "sample.py:5: echo: 'a plain sentence'",
        "sample.py:6: echo: ' hands judged'",
        "sample.py:9: echo: '{} of {}'",
        "sample.py:10: UsageError: 'bad'",
        "sample.py:12: metavar=: 'NAME'",
        "sample.py:13: help=: 'Not marked.'",
        "sample.py:17: print: 'to'",
        "sample.py:19: echo: 'nobody'",
    ]


# ---------------------------------------------------------------- the help pages, through the CLI

def _commands():
    """Every command path of the command line: COMMANDS, and the subcommands of its groups."""
    ctx = click.Context(main)
    paths = []
    for name in COMMANDS:
        command = main.get_command(ctx, name)
        paths.append((name,))
        if isinstance(command, click.Group):
            paths += [(name, sub) for sub in command.list_commands(click.Context(command, parent=ctx))]
    return paths


def neutral(line: str) -> bool:
    """A help line with no word of any language: an example command line, or only option
    names, metavars in brackets, rule codes, paths and numbers."""
    text = line.strip()
    if text.startswith(("desmoche-ref ", "cat ")) or " | desmoche-ref " in text:
        return True  # an example: the command line is the same in every language
    text = re.sub(r"(?<![\w-])--?[\w-]+", " ", text)      # --json, -n
    text = re.sub(r"\[[\w|.,-]*\]|[RNF]\d+(\.\d+)*", " ", text)  # [en|es], R9.1
    text = re.sub(r"\S+\.(dsm|json|csv)\b", " ", text)    # sample_logs/friday.dsm
    return WORD.search(text) is None


def _help(lang: str, path) -> list:
    """The help page's lines, less its examples (command lines: the same in every language)."""
    result = CliRunner().invoke(main, ["--lang", lang, *path, "--help"])
    assert result.exit_code == 0, result.output
    lines, in_examples = [], False
    for line in result.output.splitlines():
        if line.strip() in ("Examples:", "Ejemplos:"):
            in_examples = True
        elif in_examples and line.startswith("    "):
            continue  # an example, or its continuation line
        else:
            in_examples = False
        lines.append(line)
    return lines


@pytest.mark.parametrize("path", _commands(), ids=" ".join)
def test_every_help_page_reads_in_spanish(path):
    english = set(_help("en", path))
    spanish = _help("es", path)
    assert [line for line in spanish if line in english and not neutral(line)] == []


def test_the_top_level_help_reads_in_spanish():
    english = set(_help("en", ()))
    assert [line for line in _help("es", ()) if line in english and not neutral(line)] == []


def test_neutral_lines():
    assert neutral("    desmoche-ref check --json sample_logs/*.dsm")
    assert neutral("    cat hand.dsm | desmoche-ref check -")
    assert neutral("  --lang [en|es]")
    assert not neutral("  --json             Print the verdict as one JSON document (N8).")
    assert not neutral("  -n, --hands INTEGER RANGE")
