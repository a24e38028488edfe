"""The Spanish gettext catalog: find the program's messages, merge them into the .po, compile the .mo.

    python tools/catalog.py           # refresh desmoche_ref/locale/es/LC_MESSAGES/desmoche_ref.{po,mo}
    python tools/catalog.py --check   # exit 1 if the .po misses a message or a translation,
                                      # or the shipped .mo is not the .po compiled

A message is what desmoche_ref/cli/lang.py says it is: a `_("…")`, `N_("…")`, `M("…", …)`, `MN(…)` or
`ngettext(…)` call anywhere in desmoche_ref/ (the report's templates included), or `pgettext(CONTEXT, "…")`
where one English word needs another Spanish one (the board's entry field "line": "jugada"), and the
docstring of a click command or group declared with `cls=` (the help page, as `inspect.cleandoc` leaves
it). After a refresh, translate the new entries of the .po (an empty msgstr, or one marked fuzzy) and run
it again.
Needs Babel (pip install babel); the program itself reads the .mo with the standard library.
"""

import ast
import inspect
import io
import pathlib
import sys

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_python
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "desmoche_ref"
PO = PACKAGE / "locale" / "es" / "LC_MESSAGES" / "desmoche_ref.po"
MO = PO.with_suffix(".mo")
KEYWORDS = {"_": None, "N_": {1: None, 2: (1, 2)}, "M": None, "MN": (1, 2), "ngettext": (1, 2),  # findings.M, MN
            "pgettext": ((1, "c"), 2)}  # a word with a context: the same English, another Spanish


def extract_messages(fileobj, keywords, comment_tags, options):
    """Babel's Python extraction, and the docstrings of the commands declared with `cls=`."""
    source = fileobj.read()
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and ast.get_docstring(node, clean=False):
            if any(isinstance(d, ast.Call) and any(k.arg == "cls" for k in d.keywords)
                   for d in node.decorator_list):
                yield node.body[0].lineno, None, inspect.cleandoc(ast.get_docstring(node, clean=False)), []


def extract() -> Catalog:
    """Every message of the program, as a template (no translations)."""
    template = Catalog(project="desmoche-ref", charset="utf-8")
    # the report's and the board's templates call `_`, `ngettext` as the code does (Jinja2's own extractor)
    methods = [("**.py", extract_messages), ("report/templates/**.html", "jinja2.ext:babel_extract"),
               ("board/templates/**.html", "jinja2.ext:babel_extract")]
    found = extract_from_dir(str(PACKAGE), methods, {}, KEYWORDS)
    for filename, lineno, message, comments, context in found:
        template.add(message, None, [(f"desmoche_ref/{filename}", lineno)], auto_comments=comments, context=context)
    return template


def read_catalog(po=PO) -> Catalog:
    with open(po, "rb") as f:
        return read_po(f, locale="es")


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def problems(po=PO, mo=MO, template: Catalog | None = None) -> list:
    """What is wrong with the catalog (by default the shipped one), one line each; [] when
    every message has its Spanish and the .mo is the .po compiled. `template`: the program's
    messages, when the caller has extracted them already (extracting takes seconds)."""
    found = []
    catalog = read_catalog(po)
    template = template if template is not None else extract()
    for message in template:
        if not message.id:  # the header
            continue
        entry = catalog.get(message.id, message.context)
        if entry is None:
            found.append(f"not in the .po: {message.id!r}")
        elif entry.fuzzy or not (all(entry.string) if entry.pluralizable else entry.string):
            found.append(f"no Spanish for: {message.id!r}")
    found += [f"in the .po but no longer in the program: {m.id!r}" for m in catalog
              if m.id and template.get(m.id, m.context) is None]
    if not pathlib.Path(mo).exists():
        found.append(f"{mo} is missing")
    else:
        with open(mo, "rb") as f:
            shipped = read_mo(f)
        if catalog_pairs(shipped) != catalog_pairs(catalog):
            found.append(f"{mo} is not {PO.name} compiled: run python tools/catalog.py")
    return found


def catalog_pairs(catalog: Catalog) -> dict:
    """{message: translation} as write_mo keeps them (translated, not fuzzy, no header)."""
    key = lambda text: text if isinstance(text, str) else tuple(text)  # noqa: E731 (plurals)
    return {(m.context, key(m.id)): key(m.string) for m in catalog if m.id and m.string and not m.fuzzy}


def refresh() -> None:
    catalog = read_catalog() if PO.exists() else Catalog(locale="es", project="desmoche-ref")
    template = extract()
    template.creation_date = catalog.creation_date  # no churn in the .po when nothing changed
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    with open(PO, "wb") as f:
        write_po(f, catalog, width=100, omit_header=False, sort_output=False)
    MO.write_bytes(compiled(catalog))


def main(argv) -> int:
    if argv[1:] == ["--check"]:
        found = problems()
        print("\n".join(found) or "the catalog is complete")
        return 1 if found else 0
    refresh()
    missing = [p for p in problems() if p.startswith(("no Spanish", "not in"))]
    print(f"{PO.relative_to(ROOT)}: {len(read_catalog())} messages, {len(missing)} to translate")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
